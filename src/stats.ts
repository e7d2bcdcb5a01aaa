/**
 * Diagnostics of one call: what the reference calls its "diagnostic hook".
 * The library never prints; everything it could say is here or in progress
 * events.
 *
 * @module
 */
import type { ParseResult } from "./parse/_result.ts";

/** An invalid sitemap and why, as listed in {@linkcode SitemapTreeStats.invalid}. */
export interface InvalidSitemapStat {
  /** The invalid sitemap's URL (after redirects, when it got that far). */
  readonly url: string;
  /** Why it is invalid, as the tree's node says. */
  readonly reason: string;
}

/** A sitemap that was read only in part, and why. */
export interface SitemapWarningStat {
  /** The sitemap's URL. */
  readonly url: string;
  /** Why reading stopped early (truncation, size cap). */
  readonly warning: string;
}

/** A cache entry that could not be read or written, and why (the crawl went on without it). */
export interface CacheErrorStat {
  /** The sitemap URL the entry is for. */
  readonly url: string;
  /** Why it was ignored, e.g. `Cache entry is corrupt: checksum mismatch`. */
  readonly reason: string;
}

/**
 * How one sitemap URL was obtained, in the order the requests finished: one
 * record per URL requested (well-known paths that do not exist included),
 * however often the tree names it.
 */
export interface SitemapFetchStat {
  /** The URL as requested (normalised, no fragment). */
  readonly url: string;
  /** Where it ended up after redirects (the requested URL when not fetched). */
  readonly finalUrl: string;
  /** The last HTTP status (200, 304, 404 …), or null when no response arrived or nothing was requested. */
  readonly status: number | null;
  /** Whether a redirect was followed. */
  readonly redirected: boolean;
  /**
   * `parsed`: downloaded and parsed; `not-modified`: a 304 reused the cached
   * result; `skipped`: not requested (`skipUnchangedSitemaps`); `failed`: no
   * usable response (see the tree's invalid node, or a quiet well-known-path miss).
   */
  readonly outcome: "parsed" | "not-modified" | "skipped" | "failed";
  /** Body bytes as they came over the wire (0 unless parsed). */
  readonly downloadedBytes: number;
  /** Size after decompression (for reused results: as stored). */
  readonly decompressedBytes: number;
  /** Pages (before `since`) or index children the document holds; 0 when none were read. */
  readonly entries: number;
  /** The response's `ETag` header (for a 304: the cached one), or null. */
  readonly etag: string | null;
  /** The response's `Last-Modified` header as sent (for a 304: the cached one), or null. */
  readonly lastModified: string | null;
  /** When the body was requested (epoch ms; for a 304 or skip: when the cached copy was), or null. */
  readonly fetchedAt: number | null;
}

/** A fetch record as the crawler notes it; the response details default to null. */
export type FetchRecord =
  & Omit<SitemapFetchStat, "etag" | "lastModified" | "fetchedAt">
  & Partial<Pick<SitemapFetchStat, "etag" | "lastModified" | "fetchedAt">>;

/**
 * How a crawl ended, in one word:
 *
 * - `"ok"`: at least one sitemap was read. The tree holds a sitemap other than
 *   an empty robots.txt; invalid sitemaps a robots.txt or index names are part
 *   of the answer.
 * - `"no-sitemaps"`: the site answered (at least one HTTP response, of any
 *   status) but no sitemap was read: robots.txt missing (404), an HTML page
 *   or without `Sitemap:` lines, no well-known path answered, or they answered
 *   with HTML soft-404s.
 * - `"unreachable"`: no request got an HTTP response: every one failed at the
 *   network, DNS, TLS or permission level, or was refused by the
 *   private-network guard.
 * - `"blocked"`: no sitemap was read, and a bot-protection vendor's
 *   challenge or block page (Cloudflare, Akamai, DataDome, HUMAN, Sucuri,
 *   Imperva) answered at least one request (robots.txt, a well-known path,
 *   the homepage): what the site publishes is behind the wall, not absent.
 */
export type SitemapTreeOutcome = "ok" | "no-sitemaps" | "unreachable" | "blocked";

/** Counters of one `sitemapTreeForHomepage()` or `streamPages()` call. */
export interface SitemapTreeStats {
  /**
   * How the crawl ended: `"ok"`, `"no-sitemaps"` (the site answered, but
   * publishes no sitemap), `"unreachable"` (no request got a response) or
   * `"blocked"` (a bot wall answered instead); see
   * {@linkcode SitemapTreeOutcome}. Trees built by hand or from JSON say `"ok"`.
   */
  readonly outcome: SitemapTreeOutcome;
  /**
   * One line naming the cause when `outcome` is not `"ok"`:
   * `connection refused (127.0.0.1:59999)`, `host not found (nonexistent.invalid)`,
   * `TLS failure (host:443: …)`, `timeout after 30000 ms (host:443)`,
   * `no response before the crawl's deadline of 90 s`,
   * `permission denied: run Deno with --allow-net`,
   * `no sitemap found (robots.txt 404; no well-known path answered)`, or
   * `blocked by a Cloudflare challenge (robots.txt and 15 other requests)`. When
   * `"ok"` but a limit of the call left sitemaps unfetched (see
   * `notFetched`) or out of the tree, what it cut: `3 sitemaps not fetched:
   * the crawl's limit of 10000 sitemaps (maxSitemaps) was reached`. Else null.
   */
  readonly outcomeReason: string | null;
  /**
   * True when `deadlineMs` ran out before the crawl was done: the deadline
   * ended it. Requests in flight were aborted, and every sitemap not fetched
   * by then is an `InvalidSitemap` whose reason names the deadline.
   */
  readonly deadlineReached: boolean;
  /**
   * Sitemaps the tree names (or a failed robots.txt) that were not fetched
   * because `maxSitemaps` was reached or `deadlineMs` ran out, each URL once;
   * each is an `InvalidSitemap` whose reason says which.
   */
  readonly notFetched: number;
  /** Sitemap nodes the tree shows, by `type` (`robots`, `index`, `urlset`, `text`, `rss`, `atom`, `invalid`). */
  readonly sitemapsByType: Readonly<Record<string, number>>;
  /**
   * Every invalid sitemap in the tree with its reason, in tree order, after a
   * robots.txt that failed other than by being absent (a 5xx, a timeout, too
   * big: the tree leaves a failed robots.txt out; a 404, 410 or HTML page is
   * no robots.txt and not listed).
   */
  readonly invalid: readonly InvalidSitemapStat[];
  /** Sitemaps kept whose documents were truncated or cut, with the reason. */
  readonly warnings: readonly SitemapWarningStat[];
  /** HTTP requests made, retries and redirect hops included. */
  readonly requests: number;
  /** Response body bytes read (as they came over the wire, before gzip). */
  readonly bytesDownloaded: number;
  /** Bytes of sitemap documents after decompression. */
  readonly bytesDecompressed: number;
  /** Pages found in all parsed documents (each document counted once), before `since`. */
  readonly pagesFound: number;
  /** Pages kept after `since` (each document counted once). */
  readonly pagesKept: number;
  /** Milliseconds spent decompressing and parsing, summed over all documents (in workers). */
  readonly parseMs: number;
  /** Wall-clock milliseconds of the whole call. */
  readonly elapsedMs: number;
  /** Documents decompressed and parsed (each URL once). */
  readonly parsed: number;
  /** Sitemaps reused without parsing: `notModified` plus `skipped`. */
  readonly unchanged: number;
  /** `304 Not Modified` responses whose cached result was reused. */
  readonly notModified: number;
  /** Children not requested at all because their index lastmod is before `since` (`skipUnchangedSitemaps`). */
  readonly skipped: number;
  /** Cache entries ignored (corrupt, foreign, unreadable) or not written, with the reason. */
  readonly cacheErrors: readonly CacheErrorStat[];
  /** How each sitemap URL was obtained: status, redirects, sizes (what `validateSitemapTree()` reads). */
  readonly fetches: readonly SitemapFetchStat[];
}

/** The stats of a tree that no call built (by hand, or from JSON). */
export const EMPTY_STATS: SitemapTreeStats = Object.freeze({
  outcome: "ok",
  outcomeReason: null,
  deadlineReached: false,
  notFetched: 0,
  sitemapsByType: Object.freeze({}),
  invalid: Object.freeze([]),
  warnings: Object.freeze([]),
  requests: 0,
  bytesDownloaded: 0,
  bytesDecompressed: 0,
  pagesFound: 0,
  pagesKept: 0,
  parseMs: 0,
  elapsedMs: 0,
  parsed: 0,
  unchanged: 0,
  notModified: 0,
  skipped: 0,
  cacheErrors: Object.freeze([]),
  fetches: Object.freeze([]),
});

/** Mutable counters behind {@linkcode SitemapTreeStats}. */
export class StatsCollector {
  readonly #started = performance.now();
  readonly #byType: Record<string, number> = {};
  readonly #invalid: InvalidSitemapStat[] = [];
  readonly #warnings: SitemapWarningStat[] = [];
  readonly #cacheErrors: CacheErrorStat[] = [];
  readonly #fetches: SitemapFetchStat[] = [];
  requests = 0;
  bytesDownloaded = 0;
  queued = 0;
  /** Distinct sitemap URLs finished, parsed or invalid (counted by the crawler). */
  sitemapsDone = 0;
  bytesDecompressed = 0;
  pagesFound = 0;
  pagesKept = 0;
  parseMs = 0;
  parsed = 0;
  notModified = 0;
  skipped = 0;
  /** Set by the crawl once the tree is complete (see {@linkcode SitemapTreeOutcome}). */
  outcome: SitemapTreeOutcome = "ok";
  outcomeReason: string | null = null;
  /** Set by the crawl (see {@linkcode SitemapTreeStats.deadlineReached}). */
  deadlineReached = false;
  /** Set by the crawl (see {@linkcode SitemapTreeStats.notFetched}). */
  notFetched = 0;

  /** Milliseconds since the collector was made. */
  elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** Counts one parsed document (once per URL, however often the tree names it). */
  recordParse(decompressedBytes: number, parseMs: number, result: ParseResult, url = ""): void {
    this.bytesDecompressed += decompressedBytes;
    this.parseMs += parseMs;
    this.parsed++;
    this.recordPages(result);
    if (result.kind !== "invalid" && result.warning !== null) {
      this.#warnings.push({ url, warning: result.warning });
    }
  }

  /** Notes a warning that is not a document's own (workers that could not start). */
  recordWarning(url: string, warning: string): void {
    this.#warnings.push({ url, warning });
  }

  /** Counts the pages of a result, parsed or reused from the cache. */
  recordPages(result: ParseResult): void {
    if (result.kind === "pages") {
      this.pagesFound += result.found;
      this.pagesKept += result.pages.count;
    }
  }

  /** Notes a cache entry that was ignored or could not be written. */
  recordCacheError(url: string, reason: string): void {
    this.#cacheErrors.push({ url, reason });
  }

  /** Notes how one sitemap URL was obtained. */
  recordFetch(fetch: FetchRecord): void {
    this.#fetches.push({ etag: null, lastModified: null, fetchedAt: null, ...fetch });
  }

  /** Counts one node placed in the tree. */
  recordNode(type: string): void {
    this.#byType[type] = (this.#byType[type] ?? 0) + 1;
  }

  /** Counts one invalid node placed in the tree. */
  recordInvalid(url: string, reason: string): void {
    this.#invalid.push({ url, reason });
    this.recordNode("invalid");
  }

  /**
   * A frozen snapshot. With `tree`, the sitemap counts and the invalid list
   * are those of the finished tree, in tree order (the running counts also
   * saw well-known-path probes that were dropped as duplicates); `failed`
   * are listed as invalid before them without being counted as sitemaps.
   */
  snapshot(
    tree?: Iterable<{ readonly type: string; readonly url: string }>,
    failed: readonly InvalidSitemapStat[] = [],
  ): SitemapTreeStats {
    let byType: Record<string, number> = this.#byType;
    let invalid: InvalidSitemapStat[] = this.#invalid;
    if (tree !== undefined) {
      byType = {};
      invalid = [...failed];
      for (const node of tree) {
        byType[node.type] = (byType[node.type] ?? 0) + 1;
        const reason = (node as { readonly reason?: unknown }).reason;
        if (node.type === "invalid" && typeof reason === "string") {
          invalid.push({ url: node.url, reason });
        }
      }
    }
    return Object.freeze({
      outcome: this.outcome,
      outcomeReason: this.outcomeReason,
      deadlineReached: this.deadlineReached,
      notFetched: this.notFetched,
      sitemapsByType: Object.freeze({ ...byType }),
      invalid: Object.freeze([...invalid]),
      warnings: Object.freeze([...this.#warnings]),
      requests: this.requests,
      bytesDownloaded: this.bytesDownloaded,
      bytesDecompressed: this.bytesDecompressed,
      pagesFound: this.pagesFound,
      pagesKept: this.pagesKept,
      parseMs: Math.round(this.parseMs * 10) / 10,
      elapsedMs: Math.round(this.elapsedMs() * 10) / 10,
      parsed: this.parsed,
      unchanged: this.notModified + this.skipped,
      notModified: this.notModified,
      skipped: this.skipped,
      cacheErrors: Object.freeze([...this.#cacheErrors]),
      fetches: Object.freeze([...this.#fetches]),
    });
  }
}
