/**
 * Options of {@linkcode sitemapTreeForHomepage} and their validation.
 *
 * @module
 */
import type { SitemapCache } from "./cache.ts";
import { integerOption, MAX_TIMER_MS } from "./_option_checks.ts";
import { resolveScheduling, SCHEDULING_DEFAULTS, type SchedulingOptions } from "./schedule.ts";
import { VERSION } from "./version.ts";
import { SitemapParserPool } from "./workers/parser_pool.ts";
import { checkProxyUrl } from "./_proxy.ts";

/** What a {@linkcode SitemapTreeOptions.onProgress} listener receives, one event per sitemap. */
export interface SitemapProgressEvent {
  /** `fetched`: the body arrived; `parsed`: the sitemap is in the tree; `invalid`: it failed. */
  readonly kind: "fetched" | "parsed" | "invalid";
  /** The sitemap's URL (final URL once fetched). */
  readonly url: string;
  /** The invalid sitemap's reason; absent otherwise. */
  readonly reason?: string;
  /** Pages kept from this sitemap (`parsed` only). */
  readonly pages?: number;
  /** Bytes downloaded for this sitemap (`fetched` only). */
  readonly bytes?: number;
  /**
   * True when the sitemap was not parsed: a `304 Not Modified` reused the
   * cached result, or `skipUnchangedSitemaps` skipped it. Absent otherwise.
   */
  readonly unchanged?: boolean;
  /** Milliseconds this step took for this sitemap. */
  readonly ms: number;
  /**
   * Sitemaps finished (parsed or invalid) so far in this call, each URL once
   * however many parents name it.
   */
  readonly sitemapsDone: number;
  /** Sitemaps started but not finished yet. */
  readonly sitemapsQueued: number;
  /** Pages kept so far in this call. */
  readonly pagesFound: number;
  /** Response bytes downloaded so far in this call. */
  readonly bytesDownloaded: number;
  /** Milliseconds since the call started. */
  readonly elapsedMs: number;
}

/** A user decision on one child sitemap: return false to leave it out of the tree. */
export type RecurseCallback = (
  url: string,
  level: number,
  parentUrls: readonly string[],
) => boolean | Promise<boolean>;

/** A user decision on all children of one index: returns the child URLs to fetch, in order. */
export type RecurseListCallback = (
  urls: readonly string[],
  level: number,
  parentUrls: readonly string[],
) => readonly string[] | Promise<readonly string[]>;

/**
 * Options of {@linkcode sitemapTreeForHomepage} and {@linkcode streamPages}.
 * The politeness options (`concurrency`, `maxConnections`, `delayMs`,
 * `respectCrawlDelay`) are documented on {@linkcode SchedulingOptions}.
 */
export interface SitemapTreeOptions extends SchedulingOptions {
  /** Read `<home>/robots.txt` for `Sitemap:` lines. @default {true} */
  readonly useRobots?: boolean;
  /** Probe the 14 well-known sitemap paths (plus `extraKnownPaths`). @default {true} */
  readonly useKnownPaths?: boolean;
  /** More paths to probe, resolved against the homepage. @default {[]} */
  readonly extraKnownPaths?: readonly string[];
  /** Strip the homepage URL to scheme, userinfo, host and port. @default {true} */
  readonly normalizeHomepageUrl?: boolean;
  /**
   * Called for each child a robots.txt or index names, with the child's depth
   * (robots.txt and well-known sitemaps are depth 0) and the URLs of its
   * ancestors; return false to leave the child out. Absent: keep all.
   */
  readonly recurseCallback?: RecurseCallback;
  /**
   * Called once per robots.txt or index with all child URLs; returns the URLs
   * to fetch, in order. Runs before `recurseCallback`. Absent: keep all.
   */
  readonly recurseListCallback?: RecurseListCallback;
  /**
   * The web client. On Node the default is a fetch over `node:http`, which
   * unlike Node's own `fetch` never inflates a body (docs/runtimes.md).
   * @default {globalThis.fetch (Node: node:http)}
   */
  readonly fetch?: typeof fetch;
  /**
   * An HTTP proxy every request goes through (`http://host:port`, with
   * `user:password@` for basic auth). Without it, the `HTTPS_PROXY`,
   * `HTTP_PROXY` and `NO_PROXY` variables apply, as Deno's and Bun's `fetch`
   * and the Node transport read them (Deno needs `--allow-env` for the
   * crawler to see them too). Names a proxy resolves are not resolved locally by the
   * private-network guard; IP literals and reserved names are still refused.
   * Not with `fetch` (which decides itself how it connects).
   */
  readonly proxy?: string;
  /** `User-Agent` of every request. @default {"@sitemap/tree/<version> (+https://jsr.io/@sitemap/tree)"} */
  readonly userAgent?: string;
  /**
   * Extra headers sent on every request, children included; names in any
   * case. A name that is not a header token, or a value with a line break or
   * NUL inside, is refused with a `TypeError`. @default {{}}
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Levels of nesting below robots.txt and the well-known paths (USP's limit). @default {11} */
  readonly maxDepth?: number;
  /** Time for one sitemap's whole response, body included, per attempt. @default {30000} */
  readonly timeoutMs?: number;
  /**
   * Time for the response headers of a request to a host that has not
   * answered any request of this call yet: a host that accepts connections
   * and never answers (or drops them) is found out this fast, while a host
   * that has answered gets the whole `timeoutMs` for its slow sitemaps. A
   * host that has never answered is given up at its first such timeout
   * (`no response after 10000 ms (host:443)`), or after 3 refusals.
   * @default {10000}
   */
  readonly connectTimeoutMs?: number;
  /**
   * A budget for the whole call, in milliseconds. When it runs out, requests
   * in flight are aborted and every sitemap not fetched by then is an
   * `InvalidSitemap("Not fetched: the crawl's deadline of 90 s was reached")`;
   * the tree is returned, not rejected, and `stats.deadlineReached` says so.
   * Documents already downloaded are still parsed. `null`: no deadline. At
   * most 2147483647 (the timers' limit, about 24.8 days).
   * @default {null (`sitemapTreesForHomepages`, `batch` and the queue worker: SITE_DEADLINE_MS, 30 minutes, per site)}
   */
  readonly deadlineMs?: number | null;
  /** Aborts everything; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Retries for network errors, 408, 429 and 5xx (`Retry-After` honoured, capped). @default {2} */
  readonly retries?: number;
  /** Compressed bytes read per sitemap; the download stops there. @default {52428800} */
  readonly maxDownloadBytes?: number;
  /** Decompressed bytes per sitemap (the protocol's limit). @default {52428800} */
  readonly maxSitemapBytes?: number;
  /**
   * The most sitemap documents a call reads (robots.txt, indexes, urlsets,
   * feeds and text sitemaps), each URL once however many parents name it: a
   * duplicate index's children are not counted twice, and a well-known path
   * counts only when it holds a sitemap (its quiet 404 probes do not). Each
   * URL past it is an `InvalidSitemap("Not fetched: the crawl's limit of
   * 10000 sitemaps (maxSitemaps) was reached")`. The tree shows a sitemap
   * under every parent naming it until it holds 10 × `maxSitemaps` nodes;
   * past that, one already in the tree is `InvalidSitemap("Left out: …")`
   * where it is named again. A guard against crawl traps.
   * @default {10000}
   */
  readonly maxSitemaps?: number;
  /** Keep only pages whose lastmod is at or after this instant, or that have none. */
  readonly since?: Date | string;
  /** Parse workers; 0 parses on the calling thread. @default {Math.min(4, navigator.hardwareConcurrency)} */
  readonly workers?: number;
  /**
   * Parse on these already started workers instead of starting `workers` new
   * ones for this call (`workers` is then ignored). The call leaves the pool
   * open; its owner closes it.
   */
  readonly pool?: SitemapParserPool;
  /**
   * Whether sitemaps on loopback, private, link-local or metadata addresses
   * may be fetched: `"if-homepage-is"` allows them only when the homepage is
   * on such an address itself. @default {"if-homepage-is"}
   */
  readonly allowPrivateNetworks?: boolean | "if-homepage-is";
  /** Called once per sitemap fetched, parsed or found invalid. */
  readonly onProgress?: (event: SitemapProgressEvent) => void;
  /**
   * Where to keep each sitemap's validators (`ETag`, `Last-Modified`) and
   * parsed result between calls: a {@linkcode MemorySitemapCache}, a
   * {@linkcode FileSitemapCache} or any {@linkcode SitemapCache}. With it,
   * requests are conditional and a `304 Not Modified` reuses the stored result
   * without parsing (`stats.notModified`). The stored result is the unfiltered
   * parse, so `since` may differ from call to call; a 304 sitemap's pages are
   * left out when `since` is at or after the time its content was downloaded
   * (nothing in it changed since), and filtered by lastmod otherwise.
   * Unreadable entries are ignored and listed in `stats.cacheErrors`.
   */
  readonly cache?: SitemapCache;
  /**
   * With `since`: a child whose index `<lastmod>` is before `since` is not
   * fetched at all. It appears as a pages node with `unchanged: true`, holding
   * the cached pages that pass `since` (none without a cache entry); a cached
   * nested index is followed without fetching it. A cached copy older than
   * that `<lastmod>` is known to be stale, so that child is fetched after all.
   * Index lastmods are the site's word, not verified: leave this off when a
   * missed change would cost more than a download. @default {false}
   */
  readonly skipUnchangedSitemaps?: boolean;
  /**
   * Read the homepage's HTML for `<link rel="alternate">` RSS and Atom feeds
   * and add each feed not already found as a child of the root, after
   * robots.txt and the well-known paths. @default {true}
   */
  readonly useFeeds?: boolean;
  /**
   * When a urlset's image, video, news and hreflang blocks are decoded:
   * `"lazy"` keeps them as compressed bytes and decodes a sitemap's blocks on
   * the first read of any of its pages' extensions, on the reading thread;
   * `"eager"` has the parse workers decode them. The pages are the same
   * either way. Choose `"eager"` when the program reads every page's
   * extensions (it serialises them, say): the decoding then runs in parallel
   * on the workers instead of on the calling thread. Results served from
   * `cache` keep the form they were stored in. @default {"lazy"}
   */
  readonly extensions?: "lazy" | "eager";
}

/** The 14 well-known paths ultimate-sitemap-parser probes, in its order. */
export const KNOWN_PATHS: readonly string[] = [
  "sitemap.xml",
  "sitemap.xml.gz",
  "sitemap_index.xml",
  "sitemap-index.xml",
  "sitemap_index.xml.gz",
  "sitemap-index.xml.gz",
  ".sitemap.xml",
  "sitemap",
  "admin/config/search/xmlsitemap",
  "sitemap/sitemap-index.xml",
  "sitemap_news.xml",
  "sitemap-news.xml",
  "sitemap_news.xml.gz",
  "sitemap-news.xml.gz",
];

/** The default `User-Agent`. */
export const DEFAULT_USER_AGENT = `@sitemap/tree/${VERSION} (+https://jsr.io/@sitemap/tree)`;

/** The numeric limits among the options: depth, times, sizes, counts. */
type LimitOption =
  | "maxDepth"
  | "timeoutMs"
  | "connectTimeoutMs"
  | "deadlineMs"
  | "retries"
  | "maxDownloadBytes"
  | "maxSitemapBytes"
  | "maxSitemaps";

/**
 * The type of {@linkcode DEFAULTS}: each option that has a fixed default,
 * under its {@linkcode SitemapTreeOptions} name, plus the two defaults of
 * many-sites runs (`sitemapTreesForHomepages`, `batch`, the queue worker).
 */
export interface SitemapTreeDefaults extends
  Readonly<
    Required<
      Omit<
        SitemapTreeOptions,
        // No fixed default: none, the machine's, or the runtime's.
        | "recurseCallback"
        | "recurseListCallback"
        | "fetch"
        | "proxy"
        | "signal"
        | "since"
        | "workers"
        | "pool"
        | "onProgress"
        | "cache"
      >
    >
  > {
  /** Sites crawled at once in a many-sites run (`SitemapTreesOptions.siteConcurrency`). */
  readonly siteConcurrency: number;
  /**
   * `maxConnections` of a many-sites run (`SitemapTreesOptions.maxConnections`):
   * `siteConcurrency` sites x `concurrency` requests each.
   */
  readonly siteMaxConnections: number;
  /** Each site's `deadlineMs` in a many-sites run, in milliseconds (`SITE_DEADLINE_MS`). */
  readonly siteDeadlineMs: number;
}

/**
 * The defaults of the options, in one place: `resolveOptions` applies them,
 * and the `@default` tags, the option table of docs/api.md and the command
 * line's help say the same (a test compares them). Durations are in milliseconds,
 * sizes in bytes. Options whose default depends on the machine or is "none"
 * are not here: `workers` (`Math.min(4, cores)`), `fetch` (the global one),
 * the callbacks, `signal`, `since`, `pool`, `cache` and `proxy`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { DEFAULTS } from "./options.ts";
 *
 * strictEqual(DEFAULTS.maxSitemapBytes, 50 * 1024 * 1024);
 * strictEqual(Object.isFrozen(DEFAULTS), true);
 * ```
 */
export const DEFAULTS: SitemapTreeDefaults = Object.freeze({
  useRobots: true,
  useKnownPaths: true,
  extraKnownPaths: Object.freeze([]),
  normalizeHomepageUrl: true,
  userAgent: DEFAULT_USER_AGENT,
  headers: Object.freeze({}),
  ...SCHEDULING_DEFAULTS,
  maxDepth: 11,
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  deadlineMs: null,
  retries: 2,
  maxDownloadBytes: 50 * 1024 * 1024,
  maxSitemapBytes: 50 * 1024 * 1024,
  maxSitemaps: 10_000,
  allowPrivateNetworks: "if-homepage-is",
  skipUnchangedSitemaps: false,
  useFeeds: true,
  extensions: "lazy",
  // A site takes 5-6 round trips in sequence (robots.txt, then its index,
  // homepage and known paths 4 at a time, then its urlsets), so sites per
  // second ~ siteConcurrency / (6 x latency): 128 sites reach 100 sites/s at
  // 200 ms round trips within ~300 MiB (bench/README.md#batch-at-real-internet-latency).
  siteConcurrency: 128,
  siteMaxConnections: 128 * 4,
  siteDeadlineMs: 30 * 60_000,
});

/** Options with every default applied and every value checked. */
export interface ResolvedOptions {
  readonly homepage: URL;
  readonly useRobots: boolean;
  readonly useKnownPaths: boolean;
  readonly extraKnownPaths: readonly string[];
  readonly recurseCallback: RecurseCallback | null;
  readonly recurseListCallback: RecurseListCallback | null;
  readonly fetch: typeof fetch | null;
  readonly proxy: string | null;
  readonly userAgent: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly concurrency: number;
  readonly maxConnections: number;
  readonly delayMs: number;
  readonly respectCrawlDelay: boolean;
  readonly maxDepth: number;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Null when the call has none. */
  readonly deadlineMs: number | null;
  readonly signal: AbortSignal | null;
  readonly retries: number;
  readonly maxDownloadBytes: number;
  readonly maxSitemapBytes: number;
  readonly maxSitemaps: number;
  /** Epoch ms, NaN when not given. */
  readonly since: number;
  readonly workers: number;
  readonly pool: SitemapParserPool | null;
  readonly allowPrivateNetworks: boolean | "if-homepage-is";
  readonly onProgress: ((event: SitemapProgressEvent) => void) | null;
  readonly cache: SitemapCache | null;
  readonly skipUnchangedSitemaps: boolean;
  readonly useFeeds: boolean;
  readonly extensions: "lazy" | "eager";
}

function flag(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new TypeError(`Option "${name}" must be a boolean, got ${JSON.stringify(value)}`);
  }
  return value;
}

function fn<T>(name: string, value: T | undefined): T | null {
  if (value === undefined) return null;
  if (typeof value !== "function") {
    throw new TypeError(`Option "${name}" must be a function, got ${typeof value}`);
  }
  return value;
}

/** Parses a `since` option value to epoch ms (NaN when absent). */
export function sinceToEpoch(since: Date | string | undefined): number {
  if (since === undefined) return NaN;
  const ms = since instanceof Date ? since.getTime() : Date.parse(String(since));
  if (Number.isNaN(ms)) {
    throw new RangeError(
      `Option "since" must be a valid date, got ${JSON.stringify(String(since))}`,
    );
  }
  return ms;
}

/** The homepage URL as given, checked to be http(s). */
export function parseHomepage(homepageUrl: string | URL, normalize: boolean): URL {
  const url = httpUrl(homepageUrl, "Homepage URL");
  if (normalize) {
    url.pathname = "/";
    url.search = "";
  }
  return url;
}

/** The sitemap URL without its fragment; a TypeError naming it when it is not http(s). */
export function checkSitemapUrl(sitemapUrl: string | URL): URL {
  return httpUrl(sitemapUrl, "Sitemap URL");
}

function httpUrl(value: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(`${what} is not a valid URL: ${JSON.stringify(String(value))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${what} must be http(s), got ${JSON.stringify(url.href)}`);
  }
  url.hash = "";
  return url;
}

/**
 * Applies {@linkcode DEFAULTS} and checks every option, in a fixed order (so
 * the first bad value is the one named): the homepage, the objects, the
 * callbacks, the scheduling and the limits.
 *
 * @param homepageUrl The homepage (or sitemap) URL the call starts from.
 * @param options The caller's options.
 * @param defaultWorkers The `workers` default of this machine.
 * @returns Every option set.
 * @throws {TypeError} When an option has the wrong type, naming it.
 * @throws {RangeError} When an option is out of range, naming it.
 */
export function resolveOptions(
  homepageUrl: string | URL,
  options: SitemapTreeOptions,
  defaultWorkers: number,
): ResolvedOptions {
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `Options must be an object, got ${options === null ? "null" : typeof options}`,
    );
  }
  const d = DEFAULTS;
  const homepage = parseHomepage(
    homepageUrl,
    options.normalizeHomepageUrl ?? d.normalizeHomepageUrl,
  );
  const objects = checkObjects(options);
  return {
    homepage,
    useRobots: options.useRobots ?? d.useRobots,
    useKnownPaths: options.useKnownPaths ?? d.useKnownPaths,
    extraKnownPaths: objects.extraKnownPaths,
    recurseCallback: fn("recurseCallback", options.recurseCallback),
    recurseListCallback: fn("recurseListCallback", options.recurseListCallback),
    fetch: fn("fetch", options.fetch),
    proxy: objects.proxy,
    userAgent: options.userAgent ?? d.userAgent,
    headers: objects.headers,
    ...resolveScheduling(options),
    ...resolveLimits(options),
    signal: objects.signal,
    since: sinceToEpoch(options.since),
    workers: integerOption("workers", options.workers, defaultWorkers, 0),
    pool: objects.pool,
    allowPrivateNetworks: objects.allowPrivateNetworks,
    onProgress: fn("onProgress", options.onProgress),
    cache: objects.cache,
    skipUnchangedSitemaps: flag(
      "skipUnchangedSitemaps",
      options.skipUnchangedSitemaps,
      d.skipUnchangedSitemaps,
    ),
    useFeeds: flag("useFeeds", options.useFeeds, d.useFeeds),
    extensions: extensionsOption(options.extensions),
  };
}

/**
 * The `extensions` option, checked.
 *
 * @param value The option as given.
 * @returns It, or the default when absent.
 * @throws {RangeError} When it is neither `"lazy"` nor `"eager"`.
 */
export function extensionsOption(value: "lazy" | "eager" | undefined): "lazy" | "eager" {
  if (value === undefined) return DEFAULTS.extensions;
  if (value !== "lazy" && value !== "eager") {
    throw new RangeError(
      `Option "extensions" must be "lazy" or "eager", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** A header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A header value `Headers` refuses: a NUL, a character past U+00FF (not a
 * byte), or a line break with text on both sides (leading and trailing
 * whitespace is trimmed; RFC 9110 §5.5).
 */
const BAD_HEADER_VALUE = /\0|[^\0-\xff]|[^\t\n\r ][^]*[\r\n][^]*[^\t\n\r ]/;

/**
 * The `headers` option, checked here as `Headers` would check it: requests
 * carry them as a plain object (see `WebClient`), so a bad name or value
 * would otherwise only fail every request.
 */
function checkHeaders(headers: unknown): Readonly<Record<string, string>> {
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) {
    throw new TypeError(`Option "headers" must be an object of header names to values`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw new TypeError(`Option "headers": ${JSON.stringify(name)} is not a header name`);
    }
    if (typeof value !== "string" || BAD_HEADER_VALUE.test(value)) {
      throw new TypeError(
        `Option "headers": the value of ${name} must be a string without line breaks or NUL`,
      );
    }
  }
  return headers as Readonly<Record<string, string>>;
}

/** The object-valued options (and the private-network policy), checked. */
function checkObjects(options: SitemapTreeOptions): Pick<
  ResolvedOptions,
  "allowPrivateNetworks" | "extraKnownPaths" | "headers" | "signal" | "cache" | "proxy" | "pool"
> {
  const allowPrivateNetworks = options.allowPrivateNetworks ?? DEFAULTS.allowPrivateNetworks;
  if (
    allowPrivateNetworks !== true && allowPrivateNetworks !== false &&
    allowPrivateNetworks !== "if-homepage-is"
  ) {
    throw new RangeError(
      `Option "allowPrivateNetworks" must be true, false or "if-homepage-is", got ${
        JSON.stringify(allowPrivateNetworks)
      }`,
    );
  }
  const extraKnownPaths = options.extraKnownPaths ?? DEFAULTS.extraKnownPaths;
  if (!Array.isArray(extraKnownPaths) || extraKnownPaths.some((p) => typeof p !== "string")) {
    throw new TypeError(`Option "extraKnownPaths" must be an array of strings`);
  }
  const headers = checkHeaders(options.headers ?? DEFAULTS.headers);
  const signal = options.signal ?? null;
  if (signal !== null && !(signal instanceof AbortSignal)) {
    throw new TypeError(`Option "signal" must be an AbortSignal`);
  }
  return {
    allowPrivateNetworks,
    extraKnownPaths,
    headers,
    signal,
    cache: checkCache(options.cache),
    proxy: checkProxy(options),
    pool: checkPool(options.pool),
  };
}

function checkCache(cache: SitemapCache | undefined): SitemapCache | null {
  if (cache === undefined || cache === null) return null;
  if (
    typeof cache !== "object" || typeof cache.get !== "function" || typeof cache.set !== "function"
  ) {
    throw new TypeError(`Option "cache" must be an object with get() and set() methods`);
  }
  return cache;
}

function checkProxy(options: SitemapTreeOptions): string | null {
  const proxy = options.proxy === undefined ? null : checkProxyUrl(options.proxy);
  if (proxy !== null && options.fetch !== undefined) {
    throw new TypeError(
      `Options "proxy" and "fetch" exclude each other: route the injected fetch through the proxy`,
    );
  }
  return proxy;
}

function checkPool(pool: SitemapParserPool | undefined): SitemapParserPool | null {
  if (pool === undefined || pool === null) return null;
  if (!(pool instanceof SitemapParserPool)) {
    throw new TypeError(`Option "pool" must be a SitemapParserPool`);
  }
  return pool;
}

/** The numeric limits, each an integer in its range, in milliseconds or bytes. */
function resolveLimits(options: SitemapTreeOptions): Pick<ResolvedOptions, LimitOption> {
  const d = DEFAULTS;
  const deadline = options.deadlineMs ?? d.deadlineMs;
  return {
    maxDepth: integerOption("maxDepth", options.maxDepth, d.maxDepth, 0),
    timeoutMs: integerOption("timeoutMs", options.timeoutMs, d.timeoutMs, 1),
    connectTimeoutMs: integerOption(
      "connectTimeoutMs",
      options.connectTimeoutMs,
      d.connectTimeoutMs,
      1,
    ),
    deadlineMs: deadline === null
      ? null
      : integerOption("deadlineMs", deadline, 0, 1, MAX_TIMER_MS),
    retries: integerOption("retries", options.retries, d.retries, 0),
    maxDownloadBytes: integerOption(
      "maxDownloadBytes",
      options.maxDownloadBytes,
      d.maxDownloadBytes,
      1,
    ),
    maxSitemapBytes: integerOption(
      "maxSitemapBytes",
      options.maxSitemapBytes,
      d.maxSitemapBytes,
      1,
    ),
    maxSitemaps: integerOption("maxSitemaps", options.maxSitemaps, d.maxSitemaps, 1),
  };
}
