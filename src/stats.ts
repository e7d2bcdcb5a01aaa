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
  readonly url: string;
  readonly reason: string;
}

/** A sitemap that was read only in part, and why. */
export interface SitemapWarningStat {
  readonly url: string;
  readonly warning: string;
}

/** Counters of one `sitemapTreeForHomepage()` or `streamPages()` call. */
export interface SitemapTreeStats {
  /** Sitemap nodes in the tree by `type` (`robots`, `index`, `urlset`, `text`, `rss`, `atom`, `invalid`). */
  readonly sitemapsByType: Readonly<Record<string, number>>;
  /** Every invalid sitemap in the tree with its reason, in the order they failed. */
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
}

/** The stats of a tree that no call built (by hand, or from JSON). */
export const EMPTY_STATS: SitemapTreeStats = Object.freeze({
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
});

/** Mutable counters behind {@linkcode SitemapTreeStats}. */
export class StatsCollector {
  readonly #started = performance.now();
  readonly #byType: Record<string, number> = {};
  readonly #invalid: InvalidSitemapStat[] = [];
  readonly #warnings: SitemapWarningStat[] = [];
  requests = 0;
  bytesDownloaded = 0;
  queued = 0;
  sitemapsDone = 0;
  bytesDecompressed = 0;
  pagesFound = 0;
  pagesKept = 0;
  parseMs = 0;

  /** Milliseconds since the collector was made. */
  elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** Counts one parsed document (once per URL, however often the tree names it). */
  recordParse(decompressedBytes: number, parseMs: number, result: ParseResult, url = ""): void {
    this.bytesDecompressed += decompressedBytes;
    this.parseMs += parseMs;
    if (result.kind === "pages") {
      this.pagesFound += result.found;
      this.pagesKept += result.pages.count;
    }
    if (result.kind !== "invalid" && result.warning !== null) {
      this.#warnings.push({ url, warning: result.warning });
    }
  }

  /** Counts one node placed in the tree. */
  recordNode(type: string, _pages: number): void {
    this.#byType[type] = (this.#byType[type] ?? 0) + 1;
    this.sitemapsDone++;
  }

  /** Counts one invalid node placed in the tree. */
  recordInvalid(url: string, reason: string): void {
    this.#invalid.push({ url, reason });
    this.recordNode("invalid", 0);
  }

  /** A frozen snapshot. */
  snapshot(): SitemapTreeStats {
    return Object.freeze({
      sitemapsByType: Object.freeze({ ...this.#byType }),
      invalid: Object.freeze([...this.#invalid]),
      warnings: Object.freeze([...this.#warnings]),
      requests: this.requests,
      bytesDownloaded: this.bytesDownloaded,
      bytesDecompressed: this.bytesDecompressed,
      pagesFound: this.pagesFound,
      pagesKept: this.pagesKept,
      parseMs: Math.round(this.parseMs * 10) / 10,
      elapsedMs: Math.round(this.elapsedMs() * 10) / 10,
    });
  }
}
