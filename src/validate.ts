/**
 * A sitemap linter: protocol problems of a crawled tree (sitemaps.org and the
 * search engines' stated limits), and the audits beyond it (robots.txt rules,
 * hreflang sets), each with the sitemap, the offending URL and the value, as
 * data and as a human report.
 *
 * Two sources of facts:
 *
 * - {@linkcode validateSitemapTree} reads a tree and the stats of the call
 *   that built it (`tree.stats.fetches`: statuses, redirects, sizes, entry
 *   counts). It sees what survived parsing: page URLs and hosts, lastmod
 *   dates, duplicates, invalid sitemaps, redirects, sizes and counts, the
 *   robots.txt nodes' rules and the pages' hreflang alternates. It reads the
 *   pages' packed columns (`_tree_listings.ts`, `_page_urls.ts`,
 *   `_alternates.ts`), never page objects; hreflang sets are checked in
 *   `_hreflang_checks.ts`.
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
import type { RobotsTxt } from "./parse/robots_txt.ts";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
} from "./objects/sitemap.ts";
import type { SitemapFetchStat } from "./stats.ts";
import type { TreeIndex } from "./_tree_index.ts";
import { type FirstListings, firstListingsOf, treeIndexOf } from "./_tree_listings.ts";
import { ColumnUrls, originOf, UrlOrigins } from "./_page_urls.ts";
import { checkHreflangSets } from "./_hreflang_checks.ts";
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

const encoder = new TextEncoder();

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Checks a crawled tree against the sitemaps protocol, the site's
 * robots.txt and hreflang's rules:
 *
 * - errors: a sitemap that could not be fetched or read (its reason, which
 *   names a non-200 status or a bot wall); more than 50,000 URLs or 50 MB
 *   uncompressed; a page on another scheme or host than its sitemap, unless
 *   a robots.txt on the page's host lists the sitemap (the protocol's
 *   cross-submission rule); a page or a sitemap that its host's robots.txt
 *   (a robots.txt node of the tree) disallows for `robotsUserAgent`
 *   (`disallowed-page`, `disallowed-sitemap`: Search Console's "Submitted
 *   URL blocked by robots.txt"); an hreflang value that is not `x-default`
 *   or a language (ISO 639), script (ISO 15924) and region (ISO 3166-1)
 *   (`hreflang-code`, with the fix in `suggestion`); an alternate in the
 *   tree that does not name the page back (`hreflang-no-return`, reported
 *   on the page that names it); one code naming two URLs in one page's set
 *   (`hreflang-conflict`);
 * - warnings: a redirected sitemap; a 2xx status other than 200; a lastmod
 *   more than a day in the future; every page of a sitemap (10 or more) with
 *   the same lastmod, a sign it means nothing; a page URL listed by several
 *   sitemaps; a page whose hreflang alternates leave it out (`hreflang-no-self`).
 *
 * hreflang sets are read across the whole tree (an alternate may be listed
 * in another sitemap), each page URL once, at its first listing in tree
 * order. Statuses, redirects and sizes come from `tree.stats.fetches`, so a
 * tree rebuilt from JSON is checked for its pages and robots.txt only.
 *
 * The checks read the pages' packed columns, not page objects: on a million
 * pages they cost a few times one `allPages()` traversal (bench/validate.ts).
 *
 * @param tree The root a `sitemapTreeForHomepage()` call returned (or any node).
 * @param options The present, how many examples to keep, and the robots.txt user agent.
 * @returns The problems and their counts.
 * @throws {TypeError} When `robotsUserAgent` is not a string.
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
 *
 * @example A listed page that robots.txt disallows
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import {
 *   IndexRobotsTxtSitemap,
 *   IndexWebsiteSitemap,
 *   sitemapFromString,
 *   validateSitemapTree,
 * } from "@sitemap/tree";
 *
 * const pages = sitemapFromString("https://example.com/\nhttps://example.com/private/a\n", {
 *   url: "https://example.com/sitemap.txt",
 * });
 * const robots = new IndexRobotsTxtSitemap("https://example.com/robots.txt", [pages], undefined,
 *   "User-agent: *\nDisallow: /private/\nSitemap: /sitemap.txt\n");
 * const report = validateSitemapTree(new IndexWebsiteSitemap("https://example.com/", [robots]));
 * deepStrictEqual(report.problems.map((p) => [p.code, p.url, p.value, p.message]), [[
 *   "disallowed-page",
 *   "https://example.com/private/a",
 *   "Disallow: /private/",
 *   "Disallowed for * by robots.txt line 2",
 * ]]);
 * ```
 */
export function validateSitemapTree(
  tree: AbstractSitemap,
  options: ValidateOptions = {},
): SitemapValidationReport {
  const agent = options.robotsUserAgent ?? "*";
  if (typeof agent !== "string") {
    throw new TypeError(
      `Option "robotsUserAgent" must be a string, got ${JSON.stringify(agent)}`,
    );
  }
  const problems = new Problems(options.examples ?? 5);
  const index = treeIndexOf(tree);
  const fetches = tree instanceof IndexWebsiteSitemap ? tree.stats.fetches : [];
  const check: TreeCheck = {
    problems,
    index,
    listings: firstListingsOf(tree),
    now: (options.now ?? new Date()).getTime(),
    listedBy: robotsListings(index.nodes, fetches),
    robots: new SiteRules(index.nodes, agent),
    origins: new UrlOrigins(),
  };
  const { order, pages } = checkSitemaps(check);
  checkHreflangSets(index, check.listings, problems);
  const nodeByUrl = new Map(index.nodes.map((node) => [node.url, node]));
  const seen = new Set(order);
  for (const f of fetches) {
    if (!seen.has(f.finalUrl) || f.outcome === "failed") continue;
    checkFetch(f, nodeByUrl.get(f.finalUrl), problems);
  }
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
  /** The tree's sitemaps and pages columns. */
  readonly index: TreeIndex;
  /** Which listing first names each page URL. */
  readonly listings: FirstListings;
  /** The present, epoch ms. */
  readonly now: number;
  /** Per sitemap URL (requested or final): the hosts whose robots.txt lists it. */
  readonly listedBy: ReadonlyMap<string, ReadonlySet<string>>;
  /** The robots.txt rules of each host that has a robots.txt node. */
  readonly robots: SiteRules;
  /** Page origins, parsed once per distinct origin. */
  readonly origins: UrlOrigins;
}

/** Checks each sitemap once, in tree order, and its pages; returns their URLs and the page count. */
function checkSitemaps(check: TreeCheck): { order: string[]; pages: number } {
  const index = check.index;
  const seen = new Set<string>();
  let pages = 0;
  for (let n = 0, k = 0; n < index.nodes.length; n++) {
    const node = index.nodes[n]!;
    const isPages = node instanceof AbstractPagesSitemap;
    // Pages nodes are numbered in the same pre-order.
    const pagesNode = isPages ? k++ : -1;
    if (seen.has(node.url)) continue;
    seen.add(node.url);
    checkNode(node, check);
    if (isPages) pages += checkPages(pagesNode, check);
  }
  return { order: [...seen], pages };
}

/** Checks one sitemap of the tree as a whole: read at all, its size as an index, robots.txt. */
function checkNode(node: AbstractSitemap, check: TreeCheck): void {
  const sitemap = node.url;
  if (node instanceof InvalidSitemap) check.problems.add(invalidSitemap(sitemap, node.reason));
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
  // robots.txt itself is always allowed (RFC 9309 section 2.2.2).
  if (node instanceof IndexRobotsTxtSitemap) return;
  const origin = originOf(sitemap);
  const rule = origin === null ? null : check.robots.disallowing(origin, sitemap);
  if (rule !== null) {
    check.problems.add({
      severity: "error",
      code: "disallowed-sitemap",
      sitemap,
      url: null,
      value: rule.written,
      message: check.robots.message(rule, origin!, origin!),
    });
  }
}

/** What the page loop keeps of one pages node's sitemap. */
interface PagesContext {
  readonly sitemap: string;
  /** The sitemap's origin, or null when its URL is no URL. */
  readonly own: string | null;
  /** `own` as bytes: a page starting with them (then `/`, `?`, `#` or its end) is on it. */
  readonly ownBytes: Uint8Array | null;
  /** Origins whose pages the sitemap may list: its own, and those whose robots.txt lists it. */
  readonly allowed: ReadonlySet<string>;
  readonly urls: ColumnUrls;
  readonly sink: PageProblems;
}

/** The page codes, which may count in the hundreds of thousands in one sitemap. */
type PageCode = "cross-host" | "future-lastmod" | "duplicate-url" | "disallowed-page";

/**
 * One sitemap's page problems: kept through {@linkcode Problems} while its
 * examples last, then only counted here, and handed over in one go.
 */
class PageProblems {
  readonly #problems: Problems;
  readonly #sitemap: string;
  /** Per code: -1 while examples are kept, else how many were counted since. */
  readonly #counted: Record<PageCode, number> = {
    "cross-host": -1,
    "future-lastmod": -1,
    "duplicate-url": -1,
    "disallowed-page": -1,
  };

  readonly #urls: ColumnUrls;

  constructor(problems: Problems, sitemap: string, urls: ColumnUrls) {
    this.#problems = problems;
    this.#sitemap = sitemap;
    this.#urls = urls;
  }

  /** Whether a problem of `code` is kept (then build and `add()` it); else it is counted. */
  wants(code: PageCode): boolean {
    const counted = this.#counted[code];
    if (counted >= 0) {
      this.#counted[code] = counted + 1;
      return false;
    }
    if (this.#problems.wants(this.#sitemap, code)) return true;
    this.#counted[code] = 1;
    return false;
  }

  /** Keeps a problem of page `i`, after {@linkcode PageProblems.wants} said it is kept. */
  add(code: PageCode, i: number, value: string, message: string, url = this.#urls.at(i)): void {
    this.#problems.add({
      severity: SEVERITY[code],
      code,
      sitemap: this.#sitemap,
      url,
      value,
      message,
    });
  }

  /** Hands over what was only counted. */
  flush(): void {
    for (const code of Object.keys(this.#counted) as PageCode[]) {
      const n = this.#counted[code];
      if (n > 0) this.#problems.skip(this.#sitemap, code, SEVERITY[code], n);
    }
  }
}

const SEVERITY: Readonly<Record<PageCode, "error" | "warning">> = {
  "cross-host": "error",
  "future-lastmod": "warning",
  "duplicate-url": "warning",
  "disallowed-page": "error",
};

/** Checks each page of one pages node, then their lastmods together; returns the page count. */
function checkPages(k: number, check: TreeCheck): number {
  const index = check.index;
  const sitemap = index.pagesNodeUrl(k);
  const own = originOf(sitemap);
  const allowed = new Set<string>(own === null ? [] : [own]);
  for (const host of check.listedBy.get(sitemap) ?? []) allowed.add(host);
  const columns = index.columns[k]!;
  const byteEnds = index.byteEnds[k]!;
  const urls = new ColumnUrls(columns, byteEnds);
  const context: PagesContext = {
    sitemap,
    own,
    ownBytes: own === null ? null : encoder.encode(own),
    allowed,
    urls,
    sink: new PageProblems(check.problems, sitemap, urls),
  };
  const { count, urlBytes: bytes, lastModified } = columns;
  const base = index.bases[k]!;
  const first = check.listings.first;
  const problems = check.problems;
  const future = check.now + FUTURE_SLACK_MS;
  const uniform = lastModified[0];
  let sameLastmod = count > 0 && uniform === uniform;
  // Pages come in runs on one origin: the run's origin bytes, and what they decide.
  let runBytes = context.ownBytes;
  let origin = own;
  let foreign = false;
  let ruled = own !== null && check.robots.hasRules(own);
  for (let i = 0, s = 0; i < count; s = byteEnds[i]!, i++) {
    const e = byteEnds[i]!;
    if (!onOrigin(bytes, s, e, runBytes)) {
      origin = check.origins.of(bytes, s, e);
      runBytes = origin === null ? null : encoder.encode(origin);
      foreign = origin !== null && !allowed.has(origin);
      ruled = origin !== null && check.robots.hasRules(origin);
    }
    if (foreign) checkHost(origin!, i, context);
    const ms = lastModified[i]!;
    if (ms !== uniform) sameLastmod = false;
    if (ms > future) checkFuture(ms, i, context);
    const g = base + i;
    if (first[g] !== g) checkDuplicate(first[g]!, k, i, context, check);
    if (ruled) checkAllowed(origin!, i, context, check);
  }
  context.sink.flush();
  if (sameLastmod && count >= UNIFORM_LASTMOD_MIN_PAGES) {
    problems.add({
      severity: "warning",
      code: "uniform-lastmod",
      sitemap,
      url: null,
      value: iso(uniform!),
      message: `All ${
        count.toLocaleString("en")
      } pages have the same lastmod: it probably says when the sitemap was generated, not when pages changed`,
    });
  }
  return count;
}

/**
 * Whether the URL `b[s, e)` is on the origin whose bytes are `own`, as the
 * URL parser normalises it (then its bytes start the URL, followed by `/`,
 * `?`, `#` or nothing).
 */
function onOrigin(b: Uint8Array, s: number, e: number, own: Uint8Array | null): boolean {
  if (own === null) return false;
  const n = own.length;
  if (e - s < n) return false;
  if (s + n < e) {
    const c = b[s + n]!;
    if (c !== 0x2f && c !== 0x3f && c !== 0x23) return false;
  }
  // Backwards: the host differs from the sitemap's at its end, if anywhere.
  for (let j = n - 1; j >= 0; j--) if (b[s + j] !== own[j]) return false;
  return true;
}

/** A page on another origin than its sitemap's, where no robots.txt lists the sitemap. */
function checkHost(origin: string, i: number, context: PagesContext): void {
  if (!context.sink.wants("cross-host")) return;
  context.sink.add(
    "cross-host",
    i,
    origin,
    `Page on ${origin}, not on the sitemap's ${context.own}, and no robots.txt on ${origin} lists this sitemap`,
  );
}

function checkFuture(ms: number, i: number, context: PagesContext): void {
  if (!context.sink.wants("future-lastmod")) return;
  context.sink.add("future-lastmod", i, iso(ms), "The lastmod is in the future");
}

/** A page whose URL an earlier sitemap listed (listing `earlier`); the same sitemap twice is no duplicate. */
function checkDuplicate(
  earlier: number,
  k: number,
  i: number,
  context: PagesContext,
  check: TreeCheck,
): void {
  const { sitemap } = context;
  const index = check.index;
  const before = index.pagesNodeUrl(index.pagesNodeOf(earlier, k));
  if (before === sitemap || !context.sink.wants("duplicate-url")) return;
  context.sink.add("duplicate-url", i, before, `Also listed by ${before}`);
}

/** A page its origin's robots.txt may disallow for the agent. */
function checkAllowed(origin: string, i: number, context: PagesContext, check: TreeCheck): void {
  const url = context.urls.at(i);
  const rule = check.robots.disallowing(origin, url);
  if (rule === null || !context.sink.wants("disallowed-page")) return;
  context.sink.add(
    "disallowed-page",
    i,
    rule.written,
    check.robots.message(rule, origin, context.own),
    url,
  );
}

/** A `Disallow` rule that decided against a URL, as written and where. */
interface Disallowing {
  /** `Disallow: /private/`. */
  readonly written: string;
  /** Its line in robots.txt, from 1. */
  readonly line: number;
}

/** The robots.txt rules of each origin the tree has a robots.txt node for, for one user agent. */
class SiteRules {
  readonly #agent: string;
  /** Per origin, its robots.txt when it disallows anything for the agent. */
  readonly #rules = new Map<string, RobotsTxt>();

  constructor(nodes: readonly AbstractSitemap[], agent: string) {
    this.#agent = agent;
    const seen = new Set<string>();
    for (const node of nodes) {
      if (!(node instanceof IndexRobotsTxtSitemap)) continue;
      const url = URL.parse(node.url);
      if (url === null || url.pathname !== "/robots.txt") continue;
      const origin = `${url.protocol}//${url.host}`;
      // The first robots.txt of an origin in tree order is its robots.txt.
      if (seen.has(origin)) continue;
      seen.add(origin);
      if (node.robots.disallowsAny(agent)) this.#rules.set(origin, node.robots);
    }
  }

  /** Whether URLs on `origin` may be disallowed (it has a robots.txt with rules for the agent). */
  hasRules(origin: string): boolean {
    return this.#rules.has(origin);
  }

  /** The rule of `origin`'s robots.txt that disallows `url` for the agent, or null. */
  disallowing(origin: string, url: string): Disallowing | null {
    const robots = this.#rules.get(origin);
    if (robots === undefined) return null;
    const rule = robots.matchingRule(url, this.#agent);
    if (rule === null || rule.allow) return null;
    return { written: `Disallow: ${rule.pattern}`, line: rule.line };
  }

  /** `Disallowed for * by robots.txt line 2`; the robots.txt named by URL when not the sitemap's host's. */
  message(rule: Disallowing, origin: string, own: string | null): string {
    const file = origin === own ? "robots.txt" : `${origin}/robots.txt`;
    return `Disallowed for ${this.#agent} by ${file} line ${rule.line}`;
  }
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
    const host = originOf(node.url);
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
