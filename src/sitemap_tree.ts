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
import { poolForCall, setCallingThreadWarmUp } from "./workers/parser_pool.ts";
import { defaultWorkerCount } from "./workers/_parse_pool.ts";
import { defaultFetch } from "./runtime/mod.ts";

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
 * @example Every page URL of a site
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * // A site served from memory (leave `fetch` out to use the network): robots.txt
 * // names an index of one urlset; every other URL is a 404.
 * const site = new Map([
 *   ["https://www.example.com/robots.txt", "Sitemap: /sitemap_index.xml\n"],
 *   [
 *     "https://www.example.com/sitemap_index.xml",
 *     `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *       <sitemap><loc>https://www.example.com/pages.xml</loc></sitemap>
 *     </sitemapindex>`,
 *   ],
 *   [
 *     "https://www.example.com/pages.xml",
 *     `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *       <url><loc>https://www.example.com/</loc></url>
 *       <url><loc>https://www.example.com/about</loc></url>
 *     </urlset>`,
 *   ],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * const tree = await sitemapTreeForHomepage("https://www.example.com/", { fetch });
 * deepStrictEqual([...tree.allPages()].map((page) => page.url), [
 *   "https://www.example.com/",
 *   "https://www.example.com/about",
 * ]);
 * deepStrictEqual([...tree.allSitemaps()].map((node) => node.type), ["robots", "index", "urlset"]);
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

/** A tiny site served from memory to {@linkcode prepareCallingThread}'s crawl. */
const WARM_SITE: Readonly<Record<string, string>> = {
  "/robots.txt": "Sitemap: http://127.0.0.1/sitemap_index.xml\n",
  "/sitemap_index.xml":
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://127.0.0.1/a.xml</loc></sitemap></sitemapindex>',
  "/a.xml":
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://127.0.0.1/p</loc><lastmod>2024-01-01</lastmod></url></urlset>',
};

/**
 * Readies the calling thread for a first call, so that its cost lands at
 * start-up rather than in the call: one `fetch` of a `data:` URL (no
 * network, {@linkcode warmTransport}) makes the runtime load its fetch,
 * streams and abort code, which Deno loads on first use, inside a first
 * call's first request; then a crawl
 * of a three-document site held in memory (an injected `fetch`, parsing on
 * this thread) makes V8 compile the crawler, which it does on first use too
 * (bench/README.md#workers-start-up-warm-up-and-cancellation). Never rejects.
 */
async function prepareCallingThread(): Promise<void> {
  try {
    await warmTransport();
    const fetchFromMemory = (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(input instanceof Request ? input.url : input);
      const body = WARM_SITE[url.pathname];
      return Promise.resolve(
        body === undefined ? new Response(null, { status: 404 }) : new Response(body),
      );
    };
    await sitemapTreeForHomepage("http://127.0.0.1/", {
      fetch: fetchFromMemory,
      workers: 0,
      useKnownPaths: false,
      retries: 0,
    });
  } catch {
    // Only a head start: what it did not compile compiles in the first call.
  }
}

/**
 * Fetches a `data:` URL through the runtime's default transport, which makes
 * Deno and Bun load their fetch, streams and abort code. Node's transport
 * (node:http) takes only http(s) URLs and refuses it at once, without loading
 * the built-in fetch it does not use. Never rejects.
 */
async function warmTransport(): Promise<void> {
  try {
    const controller = new AbortController();
    controller.signal.addEventListener("abort", () => {});
    const response = await defaultFetch(() => null)("data:text/plain,sitemap", {
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    while (reader !== undefined && !(await reader.read()).done);
  } catch {
    // A transport without data: URLs loads its code with the first request.
  }
}

setCallingThreadWarmUp(prepareCallingThread);

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
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreeForSitemap } from "@sitemap/tree";
 *
 * // An index of two text sitemaps, served from memory.
 * const site = new Map([
 *   [
 *     "https://www.example.com/sitemap_index.xml",
 *     `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *       <sitemap><loc>https://www.example.com/a.txt</loc></sitemap>
 *       <sitemap><loc>https://www.example.com/b.txt</loc></sitemap>
 *     </sitemapindex>`,
 *   ],
 *   ["https://www.example.com/a.txt", "https://www.example.com/1\nhttps://www.example.com/2\n"],
 *   ["https://www.example.com/b.txt", "https://www.example.com/3\n"],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * const index = await sitemapTreeForSitemap("https://www.example.com/sitemap_index.xml", { fetch });
 * deepStrictEqual([index.type, [...index.allPages()].length], ["index", 3]);
 * ```
 */
export async function sitemapTreeForSitemap(
  sitemapUrl: string | URL,
  options: SitemapTreeOptions = {},
): Promise<AbstractSitemap> {
  return (await sitemapTreeForSitemapWithStats(sitemapUrl, options)).root;
}

/** A sitemap's node and the counters of the call that read it. */
export interface SitemapTreeWithStats {
  /** The sitemap's node, with its children fetched and parsed. */
  readonly root: AbstractSitemap;
  /** The call's counters: what `stats` holds on a homepage's root. */
  readonly stats: SitemapTreeStats;
}

/**
 * {@linkcode sitemapTreeForSitemap} with the call's counters (requests,
 * bytes, invalid sitemaps, each fetch, the outcome), which a homepage's root
 * carries as `stats` and a sitemap's node has no place for.
 *
 * @param sitemapUrl The sitemap's URL.
 * @param options As for {@linkcode sitemapTreeForSitemap}.
 * @returns The sitemap's node and the call's counters.
 * @throws {TypeError} When the URL is not an http(s) URL or an option has the wrong type.
 * @throws {RangeError} When a numeric or enumerated option is out of range.
 *
 * @example Read one sitemap and count its requests
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreeForSitemapWithStats } from "@sitemap/tree";
 *
 * // A site served from memory: one text sitemap, and 404 for anything else.
 * const fetch = (input: RequestInfo | URL): Promise<Response> =>
 *   Promise.resolve(
 *     (input instanceof Request ? input.url : String(input)) === "https://www.example.com/urls.txt"
 *       ? new Response("https://www.example.com/a\nhttps://www.example.com/b\n")
 *       : new Response(null, { status: 404 }),
 *   );
 * const { root, stats } = await sitemapTreeForSitemapWithStats(
 *   "https://www.example.com/urls.txt",
 *   { fetch, workers: 0 },
 * );
 * deepStrictEqual(
 *   [root.type, root.pages.length, stats.requests, stats.outcome],
 *   ["text", 2, 1, "ok"],
 * );
 * ```
 */
export async function sitemapTreeForSitemapWithStats(
  sitemapUrl: string | URL,
  options: SitemapTreeOptions = {},
): Promise<SitemapTreeWithStats> {
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
