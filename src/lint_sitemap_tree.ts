/**
 * `lintSitemapTree()`: crawl a site (or one sitemap) and lint it in one call,
 * as `sitemap-tree lint` does: the checks of {@linkcode validateSitemapTree}
 * on the tree, plus those of {@linkcode lintSitemapDocument} on the raw
 * bytes of every sitemap downloaded, which a tree no longer holds.
 *
 * @module
 */
import { abortable } from "./_abortable.ts";
import { decompressIfGzip } from "./decompress.ts";
import { Crawler } from "./discover.ts";
import { IndexWebsiteSitemap } from "./objects/sitemap.ts";
import { checkSitemapUrl, resolveOptions, type SitemapTreeOptions } from "./options.ts";
import {
  lintSitemapDocument,
  mergeProblems,
  type SitemapProblem,
  type SitemapValidationReport,
  type ValidateOptions,
  validateSitemapTree,
} from "./validate.ts";
import { poolForCall } from "./workers/parser_pool.ts";
import { defaultWorkerCount } from "./workers/_parse_pool.ts";

/** Options of {@linkcode lintSitemapTree}: the crawl's, the checks', and where to start. */
export interface LintSitemapTreeOptions extends SitemapTreeOptions, ValidateOptions {
  /**
   * `"homepage"`: find the site's sitemaps from its homepage, as
   * `sitemapTreeForHomepage()` does; `"sitemap"`: read the one sitemap the
   * URL names and what is below it, as `sitemapTreeForSitemap()` does.
   * @default {"homepage"}
   */
  readonly from?: "homepage" | "sitemap";
}

/** What {@linkcode lintSitemapTree} found. */
export interface SitemapLintResult {
  /**
   * The tree crawled, with the call's `stats` (whose `outcome` says whether
   * the site was reached and published a sitemap). From a sitemap, the root
   * is the site's homepage holding that one sitemap.
   */
  readonly tree: IndexWebsiteSitemap;
  /** The problems of the tree and of each document, grouped by sitemap in tree order. */
  readonly report: SitemapValidationReport;
}

/**
 * Crawls a website (or one sitemap) and reports its protocol problems per
 * sitemap: those {@linkcode validateSitemapTree} finds in the tree, and
 * those {@linkcode lintSitemapDocument} finds in the raw bytes of each
 * sitemap downloaded (robots.txt aside), for the sitemaps that are in the
 * tree. Build no `since` filter and no cache into the options: a filtered
 * tree hides the pages to check, and a `304` has no body to read.
 *
 * @param url The homepage, or with `from: "sitemap"` the sitemap's URL.
 * @param options As for `sitemapTreeForHomepage()`, plus the checks' `now`, `examples` and
 * `robotsUserAgent`, and `from`.
 * @returns The tree and the report.
 * @throws {TypeError} When the URL is not an http(s) URL or an option has the wrong type.
 * @throws {RangeError} When a numeric or enumerated option is out of range.
 *
 * @example Lint a site
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { lintSitemapTree } from "@sitemap/tree";
 *
 * const pages = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *   <url><loc>https://www.example.com/</loc><priority>1.5</priority></url></urlset>`;
 * // A site served from memory: this sitemap, and 404 for anything else.
 * const fetch = (input: RequestInfo | URL): Promise<Response> =>
 *   Promise.resolve(
 *     (input instanceof Request ? input.url : String(input)) === "https://www.example.com/sitemap.xml"
 *       ? new Response(pages)
 *       : new Response(null, { status: 404 }),
 *   );
 * const { tree, report } = await lintSitemapTree("https://www.example.com/sitemap.xml", {
 *   from: "sitemap",
 *   fetch,
 *   workers: 0,
 * });
 * deepStrictEqual(
 *   [tree.stats.outcome, report.errors, report.problems[0]?.code],
 *   ["ok", 1, "bad-priority"],
 * );
 * ```
 */
export async function lintSitemapTree(
  url: string | URL,
  options: LintSitemapTreeOptions = {},
): Promise<SitemapLintResult> {
  const { from = "homepage", now, examples, robotsUserAgent, ...crawl } = options;
  if (from !== "homepage" && from !== "sitemap") {
    throw new RangeError(
      `Option "from" must be "homepage" or "sitemap", got ${JSON.stringify(from)}`,
    );
  }
  const checks: ValidateOptions = {
    ...(now === undefined ? {} : { now }),
    ...(examples === undefined ? {} : { examples }),
    ...(robotsUserAgent === undefined ? {} : { robotsUserAgent }),
  };
  const start = from === "sitemap" ? checkSitemapUrl(url) : url;
  const resolved = resolveOptions(start, crawl, defaultWorkerCount());
  resolved.signal?.throwIfAborted();
  const documents: Promise<readonly SitemapProblem[]>[] = [];
  const inspect = (docUrl: string, bytes: Uint8Array, robots: boolean): void => {
    if (robots) return;
    documents.push((async () => {
      const inflated = await decompressIfGzip(bytes, resolved.maxSitemapBytes);
      return inflated.ok ? lintSitemapDocument(inflated.bytes, docUrl, checks) : [];
    })());
  };
  const { pool, own } = poolForCall(resolved);
  let tree: IndexWebsiteSitemap;
  try {
    const crawler = new Crawler(resolved, pool, null, inspect);
    tree = from === "sitemap"
      ? await abortable(crawler.crawlSitemap(checkSitemapUrl(url).href), resolved.signal).then(
        ({ root, stats }) => new IndexWebsiteSitemap(resolved.homepage.href, [root], stats),
      )
      : await abortable(crawler.crawlWebsite(), resolved.signal);
  } finally {
    if (own) pool.close();
  }
  const order = [...tree.allSitemaps()].map((node) => node.url);
  const inTree = new Set(order);
  const ownProblems = (await Promise.all(documents)).flat().filter((p) => inTree.has(p.sitemap));
  const report = mergeProblems(validateSitemapTree(tree, checks), ownProblems, order);
  return { tree, report };
}
