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
 * ```ts ignore
 * import { sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * const tree = await sitemapTreeForHomepage("https://www.example.com/");
 * for (const page of tree.allPages()) console.log(page.url, page.lastModified);
 * ```
 *
 * @example Many sites, sixteen at a time, one connection cap
 * ```ts ignore
 * import { sitemapTreesForHomepages } from "@sitemap/tree";
 *
 * for await (const site of sitemapTreesForHomepages(["https://a.example/", "https://b.example/"])) {
 *   if (site.error) console.error(site.homepage, site.error.message);
 *   else console.log(site.homepage, site.tree.stats.pagesKept);
 * }
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
