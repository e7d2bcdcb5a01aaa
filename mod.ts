/**
 * Find every sitemap a website publishes and get it back as a typed tree.
 *
 * `sitemapTreeForHomepage()` reads robots.txt `Sitemap:` lines and probes the
 * well-known paths, follows nested indexes, decompresses gzip, and reads XML
 * sitemaps (with the Google News, Image and Video extensions and hreflang
 * alternates), plain-text sitemaps, RSS and Atom feeds. The result mirrors
 * Python's ultimate-sitemap-parser: an `IndexWebsiteSitemap` root whose nodes
 * all have `subSitemaps`, `pages`, `allSitemaps()` and `allPages()`.
 * Sitemaps that cannot be fetched or parsed are `InvalidSitemap` nodes with a
 * reason; parsing runs in workers; every download, decompression and document
 * is bounded.
 *
 * @example Every page of a site
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * // A site served from memory; without the `fetch` option the call uses the network.
 * const site = new Map([
 *   ["https://www.example.com/robots.txt", "Sitemap: https://www.example.com/sitemap.xml\n"],
 *   [
 *     "https://www.example.com/sitemap.xml",
 *     `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *       <url><loc>https://www.example.com/</loc><lastmod>2025-01-31</lastmod></url>
 *     </urlset>`,
 *   ],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * const tree = await sitemapTreeForHomepage("https://www.example.com/", { fetch });
 * deepStrictEqual(
 *   [...tree.allPages()].map((page) => [page.url, page.lastModified?.toISOString()]),
 *   [["https://www.example.com/", "2025-01-31T00:00:00.000Z"]],
 * );
 * ```
 *
 * @example Many sites, sixteen at a time, one connection cap
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreesForHomepages } from "@sitemap/tree";
 *
 * // Two sites served from memory: one with a text sitemap, one without sitemaps.
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const url = input instanceof Request ? input.url : String(input);
 *   return Promise.resolve(
 *     url === "https://a.example/sitemap.txt"
 *       ? new Response("https://a.example/one\nhttps://a.example/two\n")
 *       : url === "https://a.example/robots.txt"
 *       ? new Response("Sitemap: https://a.example/sitemap.txt\n")
 *       : new Response(null, { status: 404 }),
 *   );
 * };
 *
 * const outcomes: Record<string, string> = {};
 * const homepages = ["https://a.example/", "https://b.example/"];
 * for await (const site of sitemapTreesForHomepages(homepages, { fetch })) {
 *   outcomes[site.homepage] = site.error ? site.error.message : site.tree.stats.outcome;
 * }
 * deepStrictEqual(outcomes, { "https://a.example/": "ok", "https://b.example/": "no-sitemaps" });
 * ```
 *
 * @module
 */
export {
  sitemapTreeForHomepage,
  sitemapTreeForSitemap,
  sitemapTreeForSitemapWithStats,
  type SitemapTreeWithStats,
} from "./src/sitemap_tree.ts";
export {
  SITE_DEADLINE_MS,
  sitemapTreesForHomepages,
  type SitemapTreesOptions,
  type SiteResult,
} from "./src/many_sites.ts";
export * from "./src/sitemap_from_string.ts";
export * from "./src/decompress_sitemap.ts";
export * from "./src/parse/robots_txt.ts";
export * from "./src/objects/sitemap.ts";
export * from "./src/objects/page.ts";
export * from "./src/objects/from_json.ts";
export * from "./src/snapshot.ts";
export * from "./src/changes.ts";
export * from "./src/snapshot_store.ts";
export { DEFAULT_USER_AGENT, DEFAULTS, KNOWN_PATHS } from "./src/options.ts";
export type {
  RecurseCallback,
  RecurseListCallback,
  SitemapProgressEvent,
  SitemapTreeDefaults,
  SitemapTreeOptions,
} from "./src/options.ts";
export type { SchedulingOptions } from "./src/schedule.ts";
export type {
  CacheErrorStat,
  InvalidSitemapStat,
  SitemapFetchStat,
  SitemapTreeOutcome,
  SitemapTreeStats,
  SitemapWarningStat,
} from "./src/stats.ts";
export { FileSitemapCache, MemorySitemapCache, type SitemapCache } from "./src/cache.ts";
export {
  formatValidationReport,
  lintSitemapDocument,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
  type SitemapProblem,
  type SitemapProblemCode,
  type SitemapValidationReport,
  type ValidateOptions,
  validateSitemapTree,
} from "./src/validate.ts";
export {
  lintSitemapTree,
  type LintSitemapTreeOptions,
  type SitemapLintResult,
} from "./src/lint_sitemap_tree.ts";
export { formatTabTree, type FormatTabTreeOptions } from "./src/format/tab_tree.ts";
export * from "./src/sections.ts";
export * from "./src/histogram.ts";
export { REPORT_DEFAULTS, reportHtml, type ReportHtmlOptions } from "./src/report/report.ts";
export { PageStream, streamPages, streamSitemapPages } from "./src/stream_pages.ts";
export { SitemapParserPool, type SitemapParserPoolOptions } from "./src/workers/parser_pool.ts";
