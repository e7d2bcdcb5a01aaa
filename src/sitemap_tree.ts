/**
 * The entry point users call: one homepage in, the site's sitemap tree out.
 * It orchestrates and nothing else.
 *
 * @module
 */
import { abortable } from "./_abortable.ts";
import { Crawler } from "./discover.ts";
import type { AbstractSitemap, IndexWebsiteSitemap } from "./objects/sitemap.ts";
import type { SitemapTreeStats } from "./stats.ts";
import { checkSitemapUrl, resolveOptions, type SitemapTreeOptions } from "./options.ts";
import { poolForCall } from "./workers/parser_pool.ts";
import { defaultWorkerCount } from "./workers/pool.ts";

/**
 * Finds every sitemap a website publishes — robots.txt `Sitemap:` lines, the
 * well-known paths, nested indexes, gzip, XML, text, RSS and Atom — and
 * returns them as a tree. Sitemaps that cannot be fetched or parsed are
 * `InvalidSitemap` nodes with a reason; the call itself rejects only for bad
 * arguments or an aborted `signal`.
 *
 * @param homepageUrl The site's homepage (any page of it when `normalizeHomepageUrl` is on).
 * @param options Limits, callbacks and the web client; see {@linkcode SitemapTreeOptions}.
 * @returns The root node: the robots.txt node (when robots.txt was fetched), then each well-known sitemap not found through it.
 * @throws {TypeError} When the homepage is not an http(s) URL or an option has the wrong type.
 * @throws {RangeError} When a numeric or enumerated option is out of range.
 *
 * @example Print every page URL of a site
 * ```ts ignore
 * import { sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * const tree = await sitemapTreeForHomepage("https://www.example.com/");
 * for (const page of tree.allPages()) console.log(page.url);
 * ```
 */
export async function sitemapTreeForHomepage(
  homepageUrl: string | URL,
  options: SitemapTreeOptions = {},
): Promise<IndexWebsiteSitemap> {
  const resolved = resolveOptions(homepageUrl, options, defaultWorkerCount());
  resolved.signal?.throwIfAborted();
  const { pool, own } = poolForCall(resolved);
  try {
    const crawler = new Crawler(resolved, pool);
    return await abortable(crawler.crawlWebsite(), resolved.signal);
  } finally {
    if (own) pool.close();
  }
}

/**
 * Reads one sitemap — a `<sitemapindex>`, `<urlset>`, RSS or Atom feed, text
 * sitemap or robots.txt — and everything below it, without discovery: no
 * robots.txt or well-known paths are probed unless the URL is one. The
 * result is that sitemap's own node (an `InvalidSitemap` with a reason when
 * it cannot be fetched or parsed). The private-network guard treats the
 * sitemap's origin as the homepage.
 *
 * @param sitemapUrl The sitemap's URL.
 * @param options As for {@linkcode sitemapTreeForHomepage}; `useRobots`, `useKnownPaths`, `extraKnownPaths`, `useFeeds` and `normalizeHomepageUrl` do not apply.
 * @returns The sitemap's node, with its children fetched and parsed.
 * @throws {TypeError} When the URL is not an http(s) URL or an option has the wrong type.
 * @throws {RangeError} When a numeric or enumerated option is out of range.
 *
 * @example Every page of one sitemap index
 * ```ts ignore
 * import { sitemapTreeForSitemap } from "@sitemap/tree";
 *
 * const index = await sitemapTreeForSitemap("https://www.example.com/sitemap_index.xml");
 * console.log(index.type, [...index.allPages()].length);
 * ```
 */
export async function sitemapTreeForSitemap(
  sitemapUrl: string | URL,
  options: SitemapTreeOptions = {},
): Promise<AbstractSitemap> {
  return (await crawlOneSitemap(sitemapUrl, options)).root;
}

/**
 * {@linkcode sitemapTreeForSitemap} with the call's counters, which the
 * command line reports (a sitemap node has no `stats` of its own).
 */
export async function crawlOneSitemap(
  sitemapUrl: string | URL,
  options: SitemapTreeOptions = {},
): Promise<{ readonly root: AbstractSitemap; readonly stats: SitemapTreeStats }> {
  const url = checkSitemapUrl(sitemapUrl);
  const resolved = resolveOptions(
    url,
    { ...options, normalizeHomepageUrl: true },
    defaultWorkerCount(),
  );
  resolved.signal?.throwIfAborted();
  const { pool, own } = poolForCall(resolved);
  try {
    const crawler = new Crawler(resolved, pool);
    return await abortable(crawler.crawlSitemap(url.href), resolved.signal);
  } finally {
    if (own) pool.close();
  }
}
