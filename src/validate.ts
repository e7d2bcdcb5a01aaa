/**
 * A sitemap linter: protocol problems of a crawled tree (sitemaps.org and the
 * search engines' stated limits), each with the sitemap, the offending URL and
 * the value, as data and as a human report.
 *
 * Two sources of facts:
 *
 * - {@linkcode validateSitemapTree} reads a tree and the stats of the call
 *   that built it (`tree.stats.fetches`: statuses, redirects, sizes, entry
 *   counts). It sees what survived parsing: page URLs and hosts, lastmod
 *   dates, duplicates, invalid sitemaps, redirects, sizes and counts.
 * - {@linkcode lintSitemapDocument} reads one document's raw text, for what
 *   the parser normalises away: a `<loc>` that is relative or not http(s), a
 *   lastmod that is not a W3C datetime, a priority outside [0, 1], an unknown
 *   changefreq. The `lint` command runs it on every document it downloads.
 *
 * Build the tree without `since` (a filtered tree hides the pages to check)
 * and without a cache (a `304` has no body to read).
 *
 * @module
 */
import { isRobotsUrl } from "./parse/_detect.ts";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
} from "./objects/sitemap.ts";
import type { SitemapFetchStat } from "./stats.ts";
import type { SitemapPage } from "./objects/page.ts";
import {
  invalidSitemap,
  Problems,
  type SitemapValidationReport,
  type ValidateOptions,
} from "./_validation_report.ts";

export {
  formatValidationReport,
  mergeProblems,
  type SitemapProblem,
  type SitemapProblemCode,
  type SitemapValidationReport,
  type ValidateOptions,
} from "./_validation_report.ts";
export { lintSitemapDocument } from "./_lint_document.ts";

/** The protocol's limits: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed per file. */
export const MAX_SITEMAP_URLS = 50_000;
/** See {@linkcode MAX_SITEMAP_URLS}. */
export const MAX_SITEMAP_BYTES = 52_428_800;
/** A lastmod later than now by more than this is in the future (a day covers every time zone). */
const FUTURE_SLACK_MS = 86_400_000;
/** Sitemaps with fewer pages than this are not suspected of a meaningless lastmod. */
const UNIFORM_LASTMOD_MIN_PAGES = 10;

function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Checks a crawled tree against the sitemaps protocol:
 *
 * - errors: a sitemap that could not be fetched or read (its reason, which
 *   names a non-200 status); more than 50,000 URLs or 50 MB uncompressed; a
 *   page on another scheme or host than its sitemap, unless a robots.txt on
 *   the page's host lists the sitemap (the protocol's cross-submission rule);
 * - warnings: a redirected sitemap; a 2xx status other than 200; a lastmod
 *   more than a day in the future; every page of a sitemap (10 or more) with
 *   the same lastmod, a sign it means nothing; a page URL listed by several
 *   sitemaps.
 *
 * Statuses, redirects and sizes come from `tree.stats.fetches`, so a tree
 * rebuilt from JSON is checked for its pages only.
 *
 * @param tree The root a `sitemapTreeForHomepage()` call returned (or any node).
 * @param options The present and how many examples to keep.
 * @returns The problems and their counts.
 *
 * @example A site's protocol problems
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreeForHomepage, validateSitemapTree } from "@sitemap/tree";
 *
 * // A site served from memory whose sitemap lists a page of another host.
 * const site = new Map([
 *   ["https://www.example.com/robots.txt", "Sitemap: https://www.example.com/urls.txt\n"],
 *   ["https://www.example.com/urls.txt", "https://www.example.com/a\nhttps://cdn.example.net/b\n"],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * const tree = await sitemapTreeForHomepage("https://www.example.com/", { fetch });
 * const report = validateSitemapTree(tree);
 * deepStrictEqual(
 *   report.problems.map((p) => [p.severity, p.code, p.url]),
 *   [["error", "cross-host", "https://cdn.example.net/b"]],
 * );
 * ```
 */
export function validateSitemapTree(
  tree: AbstractSitemap,
  options: ValidateOptions = {},
): SitemapValidationReport {
  const problems = new Problems(options.examples ?? 5);
  const nodes = [tree, ...tree.allSitemaps()];
  const fetches = tree instanceof IndexWebsiteSitemap ? tree.stats.fetches : [];
  const check: TreeCheck = {
    problems,
    now: (options.now ?? new Date()).getTime(),
    listedBy: robotsListings(nodes, fetches),
    firstSitemapOf: new Map(),
  };
  // Each sitemap once, in tree order.
  const seen = new Set<string>();
  let pages = 0;
  for (const node of nodes) {
    if (node instanceof IndexWebsiteSitemap || seen.has(node.url)) continue;
    seen.add(node.url);
    pages += checkNode(node, check);
  }
  const nodeByUrl = new Map(nodes.map((node) => [node.url, node]));
  for (const f of fetches) {
    if (!seen.has(f.finalUrl) || f.outcome === "failed") continue;
    checkFetch(f, nodeByUrl.get(f.finalUrl), problems);
  }
  const order = [...seen];
  return {
    problems: problems.list(order),
    errors: problems.errors,
    warnings: problems.warnings,
    sitemaps: order.length,
    pages,
  };
}

/** What the checks of one tree share. */
interface TreeCheck {
  readonly problems: Problems;
  /** The present, epoch ms. */
  readonly now: number;
  /** Per sitemap URL (requested or final): the hosts whose robots.txt lists it. */
  readonly listedBy: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per page URL: the first sitemap that listed it. */
  readonly firstSitemapOf: Map<string, string>;
}

/** Which URLs each robots.txt lists (requested and final), by the robots.txt's host. */
function robotsListings(
  nodes: readonly AbstractSitemap[],
  fetches: readonly SitemapFetchStat[],
): Map<string, Set<string>> {
  const finalToRequested = new Map<string, string[]>();
  for (const f of fetches) {
    const list = finalToRequested.get(f.finalUrl) ?? [];
    list.push(f.url);
    finalToRequested.set(f.finalUrl, list);
  }
  const listedBy = new Map<string, Set<string>>();
  for (const node of nodes) {
    if (!(node instanceof IndexRobotsTxtSitemap)) continue;
    const host = hostOf(node.url);
    if (host === null) continue;
    for (const child of node.subSitemaps) {
      for (const url of [child.url, ...(finalToRequested.get(child.url) ?? [])]) {
        let hosts = listedBy.get(url);
        if (hosts === undefined) listedBy.set(url, hosts = new Set());
        hosts.add(host);
      }
    }
  }
  return listedBy;
}

/** Checks one sitemap of the tree; returns how many pages it checked. */
function checkNode(node: AbstractSitemap, check: TreeCheck): number {
  const sitemap = node.url;
  if (node instanceof InvalidSitemap) {
    check.problems.add(invalidSitemap(sitemap, node.reason));
    return 0;
  }
  if (node.subSitemaps.length > MAX_SITEMAP_URLS) {
    check.problems.add({
      severity: "error",
      code: "too-many-urls",
      sitemap,
      url: null,
      value: String(node.subSitemaps.length),
      message: `The index lists ${
        node.subSitemaps.length.toLocaleString("en")
      } sitemaps; the protocol allows ${MAX_SITEMAP_URLS.toLocaleString("en")}`,
    });
  }
  return node instanceof AbstractPagesSitemap ? checkPages(node, check) : 0;
}

/** Checks each page of one pages sitemap, then their lastmods together; returns the page count. */
function checkPages(node: AbstractPagesSitemap, check: TreeCheck): number {
  const sitemap = node.url;
  const allowed = new Set<string>();
  const own = hostOf(sitemap);
  if (own !== null) allowed.add(own);
  for (const host of check.listedBy.get(sitemap) ?? []) allowed.add(host);
  let first: number | null | undefined;
  let uniform = true;
  let count = 0;
  for (const page of node.allPages()) {
    count++;
    const lastmod = checkPage(page, sitemap, own, allowed, check);
    if (first === undefined) first = lastmod;
    else if (lastmod !== first) uniform = false;
  }
  if (uniform && first !== null && first !== undefined && count >= UNIFORM_LASTMOD_MIN_PAGES) {
    check.problems.add({
      severity: "warning",
      code: "uniform-lastmod",
      sitemap,
      url: null,
      value: iso(first),
      message: `All ${
        count.toLocaleString("en")
      } pages have the same lastmod: it probably says when the sitemap was generated, not when pages changed`,
    });
  }
  return count;
}

/** Checks one page's host, lastmod and first listing; returns its lastmod (epoch ms) or null. */
function checkPage(
  page: SitemapPage,
  sitemap: string,
  own: string | null,
  allowed: ReadonlySet<string>,
  check: TreeCheck,
): number | null {
  const problems = check.problems;
  const host = hostOf(page.url);
  if (host !== null && !allowed.has(host)) {
    problems.add({
      severity: "error",
      code: "cross-host",
      sitemap,
      url: page.url,
      value: host,
      message:
        `Page on ${host}, not on the sitemap's ${own}, and no robots.txt on ${host} lists this sitemap`,
    });
  }
  const lastmod = page.lastModified?.getTime() ?? null;
  if (lastmod !== null && lastmod > check.now + FUTURE_SLACK_MS) {
    problems.add({
      severity: "warning",
      code: "future-lastmod",
      sitemap,
      url: page.url,
      value: iso(lastmod),
      message: "The lastmod is in the future",
    });
  }
  const earlier = check.firstSitemapOf.get(page.url);
  if (earlier === undefined) check.firstSitemapOf.set(page.url, sitemap);
  else if (earlier !== sitemap) {
    problems.add({
      severity: "warning",
      code: "duplicate-url",
      sitemap,
      url: page.url,
      value: earlier,
      message: `Also listed by ${earlier}`,
    });
  }
  return lastmod;
}

/** Checks what the fetch of one sitemap in the tree recorded: redirect, status, size, count. */
function checkFetch(
  f: SitemapFetchStat,
  node: AbstractSitemap | undefined,
  problems: Problems,
): void {
  const sitemap = f.finalUrl;
  // Nobody lists robots.txt: its redirect is the site's business, not a sitemap to fix.
  if (f.redirected && !isRobotsUrl(f.url)) {
    problems.add({
      severity: "warning",
      code: "redirect",
      sitemap,
      url: f.url,
      value: f.finalUrl,
      message: `${f.url} redirects to ${f.finalUrl}; list the final URL instead`,
    });
  }
  if (f.status !== null && f.status !== 200 && f.status !== 304) {
    problems.add({
      severity: "warning",
      code: "http-status",
      sitemap,
      url: f.url,
      value: String(f.status),
      message: `Served with status ${f.status}, not 200`,
    });
  }
  if (f.decompressedBytes > MAX_SITEMAP_BYTES) {
    problems.add({
      severity: "error",
      code: "too-large",
      sitemap,
      url: null,
      value: String(f.decompressedBytes),
      message: `${
        f.decompressedBytes.toLocaleString("en")
      } bytes uncompressed; the protocol allows ${MAX_SITEMAP_BYTES.toLocaleString("en")}`,
    });
  }
  if (node instanceof AbstractPagesSitemap && f.entries > MAX_SITEMAP_URLS) {
    problems.add({
      severity: "error",
      code: "too-many-urls",
      sitemap,
      url: null,
      value: String(f.entries),
      message: `${f.entries.toLocaleString("en")} URLs; the protocol allows ${
        MAX_SITEMAP_URLS.toLocaleString("en")
      } per file`,
    });
  }
}
