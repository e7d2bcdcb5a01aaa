/**
 * Discovery and the crawl scheduler: robots.txt, the well-known paths, the
 * homepage's feed links, and the recursion through indexes, with every
 * per-call guard (fetch once, recursion, depth, sitemap count, deadline,
 * callbacks). It
 * fetches through {@linkcode WebClient} and parses through a
 * {@linkcode ParsePool}; sitemap bytes are only handed on. With a cache it
 * makes conditional requests and reuses stored results on `304`, and with
 * `skipUnchangedSitemaps` it leaves out children an index says are unchanged.
 *
 * @module
 */
import { type CacheEntry, decodeCacheEntry, filterPagesSince } from "./cache.ts";
import { AbortWaiters } from "./_abortable.ts";
import { decompressIfGzip } from "./decompress.ts";
import { WebClient } from "./fetch.ts";
import { crawlDelayOf, RequestScheduler } from "./schedule.ts";
import { createUrlGuard, defaultResolver } from "./guard.ts";
import { proxyFor } from "./_proxy.ts";
import { createProxyFetch } from "./runtime/mod.ts";
import { isRobotsUrl } from "./parse/_detect.ts";
import { KNOWN_PATHS, type ResolvedOptions } from "./options.ts";
import type { IndexEntry, PackedPages, PagesFormat, ParseResult } from "./parse/_result.ts";
import { type AbstractSitemap, IndexWebsiteSitemap, InvalidSitemap } from "./objects/sitemap.ts";
import type { ParsePool } from "./workers/pool.ts";
import { indexSitemap, pagesSitemap } from "./objects/_build.ts";
import { type ParseJob, runParseJob } from "./workers/_job.ts";
import { type SitemapTreeStats, StatsCollector } from "./stats.ts";
import { TimeSlicer } from "./_slice.ts";

/** Plain bodies up to this size are parsed on this thread (see #load). */
const IN_THREAD_BYTES = 64 * 1024;

/** Aborts a crawl's own controller when its caller's signal aborts (one listener per signal). */
const CALLER_STOPS = new AbortWaiters<AbortController>((stop, reason) => stop.abort(reason));

/** Why a sitemap the tree names was not fetched: a limit of the call, not the site. */
type Cut = "maxSitemaps" | "deadline";

/** A fetched and parsed document, shared by every place in the tree that names its URL. */
type Doc =
  | {
    readonly ok: true;
    readonly url: string;
    readonly result: ParseResult;
    /** Reused from the cache (304) or skipped: not parsed in this call. */
    readonly unchanged: boolean;
  }
  | {
    readonly ok: false;
    readonly url: string;
    readonly reason: string;
    readonly status: number | null;
    /** A robots.txt that answered with an HTML page (a soft 404). */
    readonly html?: true;
  };

/** Receives each pages sitemap's pages as soon as they are parsed (for streaming). */
export interface PagesSink {
  /**
   * Waits for a download slot: the crawl takes one before every download, so
   * that a consumer slower than the workers holds back the fetching and parsed
   * pages do not pile up in memory. Rejects when the crawl's signal aborts.
   */
  acquire(signal: AbortSignal): Promise<void>;
  /** Gives back the slot of a download that yielded no pages to push. */
  release(): void;
  /**
   * Takes one sitemap's pages, and with them its download slot, which the
   * consumer gives back. `owned`: the columns were parsed in this call and
   * are nobody else's (not views of a cache entry), so they may be freed.
   */
  push(url: string, format: PagesFormat, pages: PackedPages, owned: boolean): void;
}

/**
 * Sees each downloaded sitemap body (a copy, maybe gzipped) before it is
 * parsed, with its final URL; for tools that check raw documents (`lint`).
 */
export type DocumentInspector = (url: string, bytes: Uint8Array, robots: boolean) => void;

/** The key under which a sitemap URL counts as "the same URL": WHATWG-normalised, no fragment. */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href;
  } catch {
    return url;
  }
}

const EMPTY_PACKED: PackedPages = {
  count: 0,
  urlBytes: new Uint8Array(0),
  urlEnds: new Uint32Array(0),
  lastModified: new Float64Array(0),
  priority: new Float64Array(0),
  changeFrequency: new Uint8Array(0),
  extras: null,
};

/**
 * Nodes the tree may hold per `maxSitemaps` before a sitemap already in it
 * is no longer shown again: a sitemap named by several parents appears under
 * each (its document fetched once), and indexes that name each other's
 * children over and over would otherwise grow the tree exponentially from a
 * few documents. A sitemap's first place is always shown.
 */
export const TREE_NODES_PER_SITEMAP = 10;

/** Feed links read from the homepage at most (a guard against pages listing thousands). */
export const MAX_FEED_LINKS = 20;

const NO_CHANGE_RESULT: ParseResult = {
  kind: "pages",
  format: "urlset",
  pages: EMPTY_PACKED,
  found: 0,
  warning: null,
};

/** One crawl of one website: create, `crawlWebsite()` once. */
export class Crawler {
  readonly #o: ResolvedOptions;
  readonly #client: WebClient;
  readonly #scheduler: RequestScheduler;
  /** The homepage's robots.txt URL while its host is held for its Crawl-delay. */
  #robotsHold: URL | null = null;
  readonly #pool: ParsePool;
  readonly #slice = new TimeSlicer();
  readonly #sink: PagesSink | null;
  readonly #inspect: DocumentInspector | null;
  readonly #docs = new Map<string, Promise<Doc>>();
  readonly #streamed = new Set<string>();
  /** Documents of pages whose download slot (see {@linkcode PagesSink}) is not handed on yet. */
  readonly #holdingSlot = new WeakSet<Doc>();
  /** Cache writes in flight; the crawl waits for them before it returns. */
  readonly #writes: Promise<void>[] = [];
  readonly stats: StatsCollector;
  /** Sitemap URLs that took a place under `maxSitemaps` (see {@linkcode Crawler.#admit}). */
  readonly #counted = new Set<string>();
  /** Well-known paths being probed: each holds a place until it is known to hold a sitemap or not. */
  readonly #probing = new Set<string>();
  /** Settles when the next probe does, for URLs waiting for a place (see #admit). */
  #probeSettled: { readonly promise: Promise<void>; readonly resolve: () => void } | null = null;
  /** URLs left unfetched by a limit of the call, by key: what `stats.notFetched` counts. */
  readonly #cut = new Map<string, Cut>();
  /** Nodes placed in the tree so far (see {@linkcode TREE_NODES_PER_SITEMAP}). */
  #treeNodes = 0;
  /** URLs that have a node in the tree. */
  readonly #placed = new Set<string>();
  /** The nodes left out because the tree was full. */
  readonly #leftOut = new WeakSet<AbstractSitemap>();
  /**
   * Aborted by the caller's signal or when `deadlineMs` runs out: every
   * request, wait and retry of the crawl listens to it.
   */
  readonly #stop = new AbortController();
  #deadlineReached = false;
  /** URLs finished (parsed or invalid): what `sitemapsDone` counts. */
  readonly #finished = new Set<string>();
  /** Progress events already sent, by kind, URL and reason. */
  readonly #reported = new Set<string>();

  constructor(
    options: ResolvedOptions,
    pool: ParsePool,
    sink: PagesSink | null = null,
    inspect: DocumentInspector | null = null,
    shared: {
      /** Shared with other crawls: one connection cap and per-host politeness for all. */
      readonly scheduler?: RequestScheduler;
      /** The default fetch on a connection pool of this crawl's own (see `openConnections`). */
      readonly fetch?: typeof globalThis.fetch | null;
    } = {},
  ) {
    this.#o = options;
    this.#pool = pool;
    this.#sink = sink;
    this.#inspect = inspect;
    this.stats = new StatsCollector();
    this.#scheduler = shared.scheduler ?? new RequestScheduler(options);
    const guard = createUrlGuard(options.homepage, options.allowPrivateNetworks, {
      // An injected fetch decides itself where it connects, so resolving names
      // here would only send DNS queries that say nothing about its target.
      resolve: options.fetch === null ? defaultResolver : null,
      // Behind a proxy only the proxy resolves names (they may not exist here).
      proxied: (url) => proxyFor(url, options.proxy) !== null,
    });
    const fetch = options.proxy !== null
      ? createProxyFetch(options.proxy)
      : options.fetch ?? shared.fetch ?? null;
    this.#client = new WebClient({
      ...(fetch === null ? {} : { fetch }),
      userAgent: options.userAgent,
      headers: options.headers,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      maxDownloadBytes: options.maxDownloadBytes,
      concurrency: options.concurrency,
      connectTimeoutMs: options.connectTimeoutMs,
      scheduler: this.#scheduler,
      signal: this.#stop.signal,
      checkUrl: guard,
    });
  }

  /** Builds the whole tree: robots.txt first, then each well-known sitemap not found through it. */
  async crawlWebsite(): Promise<IndexWebsiteSitemap> {
    const end = this.#begin();
    try {
      return await this.#website();
    } finally {
      end();
    }
  }

  /**
   * Starts the call's clock and ties its controller to the caller's signal;
   * returns what undoes both once the crawl is over.
   */
  #begin(): () => void {
    const stop = this.#stop;
    const caller = this.#o.signal;
    if (caller !== null) {
      if (caller.aborted) stop.abort(caller.reason);
      else CALLER_STOPS.add(caller, stop);
    }
    const ms = this.#o.deadlineMs;
    const timer = ms === null ? undefined : setTimeout(() => {
      if (stop.signal.aborted) return;
      this.#deadlineReached = true;
      stop.abort(new DOMException(this.#cutReason("deadline"), "TimeoutError"));
    }, ms);
    return () => {
      clearTimeout(timer);
      if (caller !== null) CALLER_STOPS.delete(caller, stop);
    };
  }

  /** Whether `error` is the deadline's abort (not the caller's, nor anything else). */
  #isDeadline(error: unknown): boolean {
    return this.#deadlineReached && error === this.#stop.signal.reason;
  }

  async #website(): Promise<IndexWebsiteSitemap> {
    const o = this.#o;
    const home = o.homepage;
    let robots: Promise<AbstractSitemap | null> = Promise.resolve(null);
    if (o.useRobots) {
      const robotsUrl = new URL("/robots.txt", home);
      if (o.respectCrawlDelay) {
        // Nothing else goes to the host before its Crawl-delay is known.
        this.#scheduler.holdForRobots(robotsUrl);
        this.#robotsHold = robotsUrl;
      }
      robots = this.#node(robotsUrl.href, 0, [], true).finally(() => this.#openRobotsHold(null));
    }
    const base = home.href.endsWith("/") ? home.href : home.href + "/";
    const paths = o.useKnownPaths ? [...KNOWN_PATHS, ...o.extraKnownPaths] : [];
    const knownUrls: string[] = [];
    const knownKeys = new Set<string>();
    for (const path of paths) {
      let url: string;
      try {
        url = new URL(path.replace(/^\/+/, ""), base).href;
      } catch {
        continue;
      }
      const key = urlKey(url);
      if (knownKeys.has(key)) continue;
      knownKeys.add(key);
      knownUrls.push(url);
    }
    const known = knownUrls.map((url) => this.#node(url, 0, [], isRobotsUrl(url), true));
    const feeds = o.useFeeds ? this.#homepageFeeds() : Promise.resolve([]);
    // Awaited below; until then an abort must not surface as an unhandled rejection.
    feeds.catch(() => {});
    const [robotsNode, ...knownNodes] = await Promise.all([robots, ...known]);

    const children: AbstractSitemap[] = [];
    const seen = new Set<string>();
    const remember = (node: AbstractSitemap): void => {
      seen.add(urlKey(node.url));
      for (const sub of node.allSitemaps()) seen.add(urlKey(sub.url));
    };
    if (robotsNode && !(robotsNode instanceof InvalidSitemap)) {
      children.push(robotsNode);
      remember(robotsNode);
    }
    for (let i = 0; i < knownNodes.length; i++) {
      const node = knownNodes[i];
      if (!node || node instanceof InvalidSitemap) continue;
      if (seen.has(urlKey(node.url)) || seen.has(urlKey(knownUrls[i]!))) continue;
      children.push(node);
      remember(node);
    }
    // Feeds come last and only when nothing above already holds them.
    const feedUrls = (await feeds).filter((url) => !seen.has(urlKey(url)));
    const feedNodes = await Promise.all(
      feedUrls.map((url) => this.#node(url, 0, [], isRobotsUrl(url))),
    );
    for (const node of feedNodes) {
      if (seen.has(urlKey(node.url))) continue;
      children.push(node);
      remember(node);
    }
    await this.#decideOutcome(children, knownUrls);
    // The counts are those of the tree as shown. A failed robots.txt is left
    // out of the tree (as USP does); one that failed for a reason other than
    // being absent (404, 410, an HTML page) is still listed as invalid.
    const counted: AbstractSitemap[] = [];
    for (const child of children) counted.push(child, ...child.allSitemaps());
    const failed: { url: string; reason: string }[] = [];
    if (robotsNode instanceof InvalidSitemap) {
      const doc = await this.#docs.get(urlKey(new URL("/robots.txt", home).href));
      const absent = doc !== undefined && !doc.ok &&
        (doc.html === true || doc.status === 404 || doc.status === 410);
      if (!absent) failed.push({ url: robotsNode.url, reason: robotsNode.reason });
    }
    return new IndexWebsiteSitemap(home.href, children, await this.#finish(counted, failed));
  }

  /**
   * Reads one sitemap (index, urlset, feed, text or robots.txt) and
   * everything below it, without discovery: the root of the result is that
   * sitemap's own node. Its counters are the crawler's {@linkcode stats}; the
   * outcome is "unreachable" when no request got an answer, "no-sitemaps"
   * (with the node's reason) when the sitemap answered but could not be read.
   */
  async crawlSitemap(url: string): Promise<{ root: AbstractSitemap; stats: SitemapTreeStats }> {
    const end = this.#begin();
    try {
      const root = await this.#node(url, 0, [], isRobotsUrl(url));
      if (root instanceof InvalidSitemap) {
        const cause = this.#unreachableCause();
        this.stats.outcome = cause === null ? "no-sitemaps" : "unreachable";
        this.stats.outcomeReason = cause ?? root.reason;
      }
      return { root, stats: await this.#finish([root, ...root.allSitemaps()], []) };
    } finally {
      end();
    }
  }

  /** Why the site counts as unreachable (no request got a response), or null when it answered. */
  #unreachableCause(): string | null {
    if (this.#client.responses > 0) return null;
    const failure = this.#client.firstFailure;
    if (failure !== null) return failure.cause;
    if (this.#deadlineReached) {
      return `no response before the crawl's deadline of ${formatMs(this.#o.deadlineMs!)}`;
    }
    return null;
  }

  /** Waits for cache writes and takes the call's counters for the finished tree. */
  async #finish(
    counted: readonly AbstractSitemap[],
    failed: readonly { url: string; reason: string }[],
  ): Promise<SitemapTreeStats> {
    await Promise.all(this.#writes);
    const stats = this.stats;
    stats.requests = this.#client.stats.requests;
    stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    // Reported once per call: every sitemap was parsed on this thread instead.
    const failure = this.#pool.startFailure;
    if (failure !== null) stats.recordWarning(this.#o.homepage.href, failure);
    // Each URL the tree (or a failed robots.txt) shows unfetched once, by cause.
    const cut = new Map<string, Cut>();
    const leftOut = new Set<string>();
    const invalid = counted.filter((n) => n instanceof InvalidSitemap);
    for (const node of invalid) if (this.#leftOut.has(node)) leftOut.add(urlKey(node.url));
    for (const { url } of [...invalid, ...failed]) {
      const key = urlKey(url);
      const cause = this.#cut.get(key);
      if (cause !== undefined) cut.set(key, cause);
    }
    stats.notFetched = cut.size;
    stats.deadlineReached = this.#deadlineReached;
    if (stats.outcome === "ok" && cut.size + leftOut.size > 0) {
      const sitemaps = (n: number): string => `${n} ${n === 1 ? "sitemap" : "sitemaps"}`;
      const lines: string[] = [];
      for (const cause of ["maxSitemaps", "deadline"] as const) {
        const n = [...cut.values()].filter((c) => c === cause).length;
        if (n === 0) continue;
        lines.push(`${sitemaps(n)} not fetched: ${this.#limitReached(cause)}`);
      }
      if (leftOut.size > 0) {
        lines.push(
          `${sitemaps(leftOut.size)} left out where named again: ${this.#limitReached("tree")}`,
        );
      }
      stats.outcomeReason = lines.join("; ");
    }
    return stats.snapshot(counted, failed);
  }

  /** Which limit of the call was reached, in words (the end of an invalid node's reason). */
  #limitReached(limit: Cut | "tree"): string {
    const o = this.#o;
    if (limit === "deadline") {
      return `the crawl's deadline of ${formatMs(o.deadlineMs!)} was reached`;
    }
    if (limit === "maxSitemaps") {
      return `the crawl's limit of ${o.maxSitemaps} sitemaps (maxSitemaps) was reached`;
    }
    const nodes = o.maxSitemaps * TREE_NODES_PER_SITEMAP;
    return `the tree's limit of ${nodes} nodes (${TREE_NODES_PER_SITEMAP} × maxSitemaps) was reached`;
  }

  /** The reason of a sitemap a limit of the call left unfetched. */
  #cutReason(cause: Cut): string {
    return `Not fetched: ${this.#limitReached(cause)}`;
  }

  /** The document of a URL a limit of the call left unfetched, noted for `stats.notFetched`. */
  #cutDoc(url: string, key: string, cause: Cut): Doc {
    this.#cut.set(key, cause);
    return { ok: false, url, reason: this.#cutReason(cause), status: null };
  }

  /** Sets the stats' `outcome` and `outcomeReason` (see {@linkcode SitemapTreeOutcome}). */
  async #decideOutcome(
    children: readonly AbstractSitemap[],
    knownUrls: readonly string[],
  ): Promise<void> {
    const stats = this.stats;
    const found = children.some((c) => c.type !== "robots" || c.subSitemaps.length > 0);
    if (found) return;
    const unreachable = this.#unreachableCause();
    if (unreachable !== null) {
      stats.outcome = "unreachable";
      stats.outcomeReason = unreachable;
      return;
    }
    stats.outcome = "no-sitemaps";
    const o = this.#o;
    let robots = "robots.txt not read";
    if (o.useRobots) {
      const doc = await this.#docs.get(urlKey(new URL("/robots.txt", o.homepage).href));
      if (doc === undefined) robots = "robots.txt not read";
      else if (!doc.ok && doc.html === true) robots = "robots.txt is an HTML page";
      else if (!doc.ok) {
        robots = doc.status === null || (doc.status >= 200 && doc.status < 300)
          ? `robots.txt: ${doc.reason}`
          : `robots.txt ${doc.status}`;
      } else if (doc.result.kind === "invalid") robots = `robots.txt: ${doc.result.reason}`;
      else robots = "robots.txt lists no sitemap";
    }
    let known = "well-known paths not probed";
    if (o.useKnownPaths) {
      const docs = await Promise.all(knownUrls.map((url) => this.#docs.get(urlKey(url))));
      known = docs.some((doc) => doc?.ok === true)
        ? "no well-known path holds a sitemap"
        : "no well-known path answered";
    }
    stats.outcomeReason = `no sitemap found (${robots}; ${known})`;
  }

  /**
   * Fetches and parses one URL once per call, whoever asks. `skipBefore` is
   * the index lastmod of a child that may be skipped (NaN: fetch); `probe`:
   * a well-known path, which counts under `maxSitemaps` only if it holds a sitemap.
   */
  #doc(url: string, robots: boolean, skipBefore = NaN, probe = false): Promise<Doc> {
    const key = urlKey(url);
    const known = this.#docs.get(key);
    if (known !== undefined) return known;
    const place = this.#admit(key, probe);
    if (place === false && probe) {
      // Not probed, and not remembered: a parent naming this URL once the
      // other probes have given their places back may still get one.
      return Promise.resolve({ ok: false, url, reason: "Not probed", status: null });
    }
    const placed = (ok: boolean): Promise<Doc> =>
      ok
        ? this.#load(url, key, robots, skipBefore)
        : Promise.resolve(this.#cutDoc(url, key, "maxSitemaps"));
    const doc = typeof place === "boolean" ? placed(place) : place.then(placed);
    if (probe) {
      doc.then(
        (d) => this.#settleProbe(key, d.ok && d.result.kind !== "invalid"),
        () => this.#settleProbe(key, false),
      );
    }
    this.#docs.set(key, doc);
    return doc;
  }

  /**
   * Gives a new URL its place under `maxSitemaps`, the most sitemaps a call
   * reads: true (it counts from now on), false (the limit is reached), or,
   * while well-known paths still hold places, a promise of the answer once
   * they are known (a probe that finds nothing gives its place back, so the
   * cut is exact whatever order the answers come in). A probe takes a place
   * if one is free and never waits.
   */
  #admit(key: string, probe: boolean): boolean | Promise<boolean> {
    if (this.#counted.size + this.#probing.size < this.#o.maxSitemaps) {
      (probe ? this.#probing : this.#counted).add(key);
      return true;
    }
    if (probe || this.#probing.size === 0) return false;
    if (this.#probeSettled === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => resolve = r);
      this.#probeSettled = { promise, resolve };
    }
    return this.#probeSettled.promise.then(() => this.#admit(key, false));
  }

  /** A probe is answered: its place counts if it holds a sitemap, else it is free again. */
  #settleProbe(key: string, holdsSitemap: boolean): void {
    this.#probing.delete(key);
    if (holdsSitemap) this.#counted.add(key);
    const settled = this.#probeSettled;
    this.#probeSettled = null;
    settled?.resolve();
  }

  /** {@linkcode Crawler.#fetchDoc}, or a document saying the deadline came first. */
  async #load(url: string, key: string, robots: boolean, skipBefore: number): Promise<Doc> {
    try {
      return await this.#fetchDoc(url, key, robots, skipBefore);
    } catch (error) {
      if (this.#isDeadline(error)) return this.#cutDoc(url, key, "deadline");
      throw error;
    }
  }

  async #fetchDoc(url: string, key: string, robots: boolean, skipBefore: number): Promise<Doc> {
    const sink = this.#sink;
    if (sink === null) return this.#download(url, key, robots, skipBefore);
    await sink.acquire(this.#stop.signal);
    let doc: Doc;
    try {
      doc = await this.#download(url, key, robots, skipBefore);
    } catch (error) {
      sink.release();
      throw error;
    }
    // Pages keep the slot until their node hands them to the sink (#node).
    if (doc.ok && doc.result.kind === "pages") this.#holdingSlot.add(doc);
    else sink.release();
    return doc;
  }

  async #download(url: string, key: string, robots: boolean, skipBefore: number): Promise<Doc> {
    const started = performance.now();
    const cache = this.#o.cache;
    const entry = cache === null ? null : await this.#readCache(key);
    // A cached copy older than the lastmod is known to be stale: fetch it after all.
    if (!Number.isNaN(skipBefore) && (entry === null || entry.fetchedAt >= skipBefore)) {
      return this.#skip(key, entry);
    }
    const requestedAt = Date.now();
    const hold = this.#robotsHold;
    const ungated = hold !== null && key === hold.href;
    const fetched = await this.#client.get(url, {
      ...(entry === null ? {} : conditional(entry)),
      ...(ungated ? { ungated } : {}),
    });
    if (ungated) {
      const text = fetched.ok && !(fetched.bytes[0] === 0x1f && fetched.bytes[1] === 0x8b)
        ? new TextDecoder().decode(fetched.bytes)
        : "";
      this.#openRobotsHold(crawlDelayOf(text, this.#o.userAgent));
    }
    this.stats.requests = this.#client.stats.requests;
    this.stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    if (!fetched.ok) {
      if (fetched.status === 304 && entry !== null) {
        return this.#reuse(key, entry, fetched.url, started);
      }
      this.stats.recordFetch({
        url: key,
        finalUrl: fetched.url,
        status: fetched.status,
        redirected: urlKey(fetched.url) !== key,
        outcome: "failed",
        downloadedBytes: 0,
        decompressedBytes: 0,
        entries: 0,
      });
      return { ok: false, url: fetched.url, reason: fetched.reason, status: fetched.status };
    }
    const downloadedBytes = fetched.bytes.byteLength;
    this.#progress("fetched", fetched.url, performance.now() - started, {
      bytes: downloadedBytes,
    });
    // A copy: the pool takes the body's buffer.
    const asRobots = robots || isRobotsUrl(fetched.url);
    if (asRobots && looksLikeMarkup(fetched.bytes)) {
      // A site without robots.txt that answers every path with its HTML page:
      // no robots.txt at all, as a 404 would have said.
      this.stats.recordFetch({
        url: key,
        finalUrl: fetched.url,
        status: fetched.status,
        redirected: fetched.redirected,
        outcome: "failed",
        downloadedBytes,
        decompressedBytes: 0,
        entries: 0,
      });
      return {
        ok: false,
        url: fetched.url,
        reason: `Not a robots.txt: ${fetched.url} is an HTML page (a soft 404)`,
        status: fetched.status,
        html: true,
      };
    }
    this.#inspect?.(fetched.url, fetched.bytes.slice(), asRobots);
    const since = this.#o.since;
    const job: ParseJob = {
      bytes: fetched.bytes,
      url: fetched.url,
      since,
      robots: asRobots,
      contentType: fetched.headers.get("content-type"),
      maxSitemapBytes: this.#o.maxSitemapBytes,
      // The worker encodes the entry from the unfiltered parse (so later calls
      // may use any `since`), then filters: the main thread does neither.
      ...(cache === null ? {} : {
        cache: {
          url: key,
          finalUrl: fetched.url,
          etag: fetched.headers.get("etag"),
          lastModified: fetched.headers.get("last-modified"),
          fetchedAt: requestedAt,
          status: fetched.status,
          redirected: fetched.redirected,
          downloadedBytes,
        },
      }),
    };
    // robots.txt and most indexes are a few kilobytes: parsing them here costs
    // less than waiting for a worker, and discovery goes on sooner. Anything
    // gzipped goes to a worker, however small, since it may be a bomb.
    const small = fetched.bytes.byteLength <= IN_THREAD_BYTES &&
      !(fetched.bytes[0] === 0x1f && fetched.bytes[1] === 0x8b);
    const outcome = small ? await runParseJob(job) : await this.#pool.parse(job, this.#o.signal);
    const result = outcome.result;
    if (outcome.cacheEntry !== undefined) this.#writeCache(key, outcome.cacheEntry);
    this.stats.recordParse(outcome.decompressedBytes, outcome.parseMs, result, fetched.url);
    this.stats.recordFetch({
      url: key,
      finalUrl: fetched.url,
      status: fetched.status,
      redirected: fetched.redirected,
      outcome: result.kind === "invalid" ? "failed" : "parsed",
      downloadedBytes,
      decompressedBytes: outcome.decompressedBytes,
      entries: entriesOf(result),
      etag: fetched.headers.get("etag"),
      lastModified: fetched.headers.get("last-modified"),
      fetchedAt: requestedAt,
    });
    return { ok: true, url: fetched.url, result, unchanged: false };
  }

  /** Lets the held homepage host go, with its robots.txt Crawl-delay (null: none). */
  #openRobotsHold(seconds: number | null): void {
    const hold = this.#robotsHold;
    if (hold === null) return;
    this.#robotsHold = null;
    this.#scheduler.setCrawlDelay(hold, seconds);
  }

  /**
   * A `304` for a cached sitemap: its stored result, unparsed. With `since`,
   * its pages are all left out when `since` is at or after the download the
   * stored content came from (the server says nothing changed since then);
   * otherwise pages between `since` and that download may be news to the
   * caller, so the stored pages are filtered by lastmod like a fresh parse.
   */
  #reuse(key: string, entry: CacheEntry, finalUrl: string, started: number): Doc {
    this.stats.notModified++;
    let result: ParseResult = entry.result;
    const since = this.#o.since;
    if (result.kind === "pages" && !Number.isNaN(since)) {
      const pages = since >= entry.fetchedAt ? EMPTY_PACKED : filterPagesSince(result.pages, since);
      result = { ...result, pages };
    }
    this.stats.recordPages(result);
    this.stats.recordFetch({
      url: key,
      finalUrl,
      status: 304,
      redirected: urlKey(finalUrl) !== key,
      outcome: "not-modified",
      downloadedBytes: 0,
      decompressedBytes: entry.decompressedBytes,
      entries: entriesOf(result),
      etag: entry.etag,
      lastModified: entry.lastModified,
      fetchedAt: entry.fetchedAt,
    });
    this.#progress("fetched", finalUrl, performance.now() - started, {
      bytes: 0,
      unchanged: true,
    });
    return { ok: true, url: finalUrl, result, unchanged: true };
  }

  /**
   * A child not fetched because its index lastmod is before `since`: the
   * cached pages that pass `since` (the index's word saves the download, it
   * never hides a page whose own lastmod says it changed), the cached child
   * list of a nested index (whose children are then judged one by one), or an
   * empty pages node when nothing is cached.
   */
  #skip(key: string, entry: CacheEntry | null): Doc {
    this.stats.skipped++;
    let result: ParseResult = NO_CHANGE_RESULT;
    if (entry !== null) {
      result = entry.result.kind === "pages"
        ? { ...entry.result, pages: filterPagesSince(entry.result.pages, this.#o.since) }
        : entry.result;
    }
    this.stats.recordPages(result);
    this.stats.recordFetch({
      url: key,
      finalUrl: entry?.finalUrl ?? key,
      status: null,
      redirected: false,
      outcome: "skipped",
      downloadedBytes: 0,
      decompressedBytes: entry?.decompressedBytes ?? 0,
      entries: entriesOf(result),
    });
    return { ok: true, url: entry?.finalUrl ?? key, result, unchanged: true };
  }

  /** The usable cache entry for `key`, or null; unusable ones are noted in the stats. */
  async #readCache(key: string): Promise<CacheEntry | null> {
    let bytes: Uint8Array | null | undefined;
    try {
      bytes = await this.#o.cache!.get(key);
    } catch (error) {
      this.stats.recordCacheError(key, `Cache read failed: ${messageOf(error)}`);
      return null;
    }
    if (bytes === null || bytes === undefined) return null;
    const entry = decodeCacheEntry(bytes, key);
    if (typeof entry === "string") {
      this.stats.recordCacheError(key, entry);
      return null;
    }
    // Stored under a larger size limit than this call allows: read it afresh.
    if (entry.decompressedBytes > this.#o.maxSitemapBytes) return null;
    return entry;
  }

  #writeCache(key: string, entry: Uint8Array): void {
    const cache = this.#o.cache!;
    const write = (async (): Promise<void> => {
      try {
        await cache.set(key, entry);
      } catch (error) {
        this.stats.recordCacheError(key, `Cache write failed: ${messageOf(error)}`);
      }
    })();
    this.#writes.push(write);
  }

  /**
   * The RSS and Atom feeds the homepage's HTML links to (`<link
   * rel="alternate">`), already being fetched. The homepage is read under the
   * same download, size and time limits as a sitemap; any failure means no feeds.
   */
  async #homepageFeeds(): Promise<string[]> {
    let fetched;
    try {
      fetched = await this.#client.get(this.#o.homepage.href);
    } catch (error) {
      if (this.#isDeadline(error)) return [];
      throw error;
    }
    this.stats.requests = this.#client.stats.requests;
    this.stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    if (!fetched.ok) return [];
    const inflated = await decompressIfGzip(fetched.bytes, this.#o.maxSitemapBytes);
    if (!inflated.ok) return [];
    const html = decodeHtml(inflated.bytes, fetched.headers.get("content-type"));
    const urls = findFeedLinks(html, fetched.url);
    // Started now, so they download while robots.txt and the well-known paths
    // finish; not when streaming, where a download holds one of the sink's
    // slots until its node hands the pages on, and a feed that turns out to
    // be listed elsewhere would never get a node.
    if (this.#sink === null) {
      for (const url of urls) this.#doc(url, isRobotsUrl(url)).catch(() => {});
    }
    return urls;
  }

  async #node(
    url: string,
    level: number,
    ancestors: readonly string[],
    robots: boolean,
    quiet = false,
    indexLastmod = NaN,
  ): Promise<AbstractSitemap> {
    this.#o.signal?.throwIfAborted();
    const key = urlKey(url);
    if (ancestors.includes(key)) {
      return this.#invalid(url, `Recursion detected in URL ${url}`);
    }
    if (level > this.#o.maxDepth) {
      return this.#invalid(
        url,
        `Recursion level exceeded: ${url} is ${level} levels deep (maxDepth is ${this.#o.maxDepth})`,
      );
    }
    if (!quiet) {
      const full = this.#treeNodes >= this.#o.maxSitemaps * TREE_NODES_PER_SITEMAP;
      if (full && this.#placed.has(key)) {
        const node = this.#invalid(
          url,
          `Left out: already in the tree, and ${this.#limitReached("tree")}`,
        );
        this.#leftOut.add(node);
        return node;
      }
      this.#treeNodes++;
      this.#placed.add(key);
    }
    this.stats.queued++;
    const started = performance.now();
    let doc: Doc;
    try {
      const o = this.#o;
      const skip = o.skipUnchangedSitemaps && indexLastmod < o.since;
      doc = await this.#doc(url, robots, skip ? indexLastmod : NaN, quiet);
    } finally {
      this.stats.queued--;
    }
    if (!doc.ok) {
      // Named as the parent listed it: a redirect loop or a failed hop ends on
      // another URL, and the tree would otherwise lose the listed one.
      const reason = doc.url === url || doc.reason.includes(doc.url)
        ? doc.reason
        : `${doc.reason} (redirected to ${doc.url})`;
      if (quiet) return new InvalidSitemap(url, reason);
      return this.#invalid(url, reason, started);
    }
    const finalKey = urlKey(doc.url);
    if (finalKey !== key && ancestors.includes(finalKey)) {
      return this.#invalid(doc.url, `Recursion detected in URL ${url} (redirects to ${doc.url})`);
    }
    const result = doc.result;
    if (result.kind === "invalid") {
      if (quiet) return new InvalidSitemap(doc.url, result.reason);
      return this.#invalid(doc.url, result.reason, started);
    }
    if (result.kind === "pages") {
      let pages = result.pages;
      if (this.#sink) {
        // Streamed once, then forgotten: the cache keeps only an empty copy so
        // memory stays flat and a second occurrence adds no pages.
        pages = EMPTY_PACKED;
        // The first node of a document hands its pages (and slot) over; a
        // second URL redirected to an already streamed one gives its slot back.
        const holding = this.#holdingSlot.delete(doc);
        if (!this.#streamed.has(finalKey)) {
          this.#streamed.add(finalKey);
          const emptied: Doc = { ...doc, result: { ...result, pages: EMPTY_PACKED } };
          this.#docs.set(key, Promise.resolve(emptied));
          if (holding) this.#sink.push(doc.url, result.format, result.pages, !doc.unchanged);
        } else if (holding) {
          this.#sink.release();
        }
      }
      this.stats.recordNode(result.format);
      this.#progress("parsed", doc.url, performance.now() - started, {
        pages: result.pages.count,
        ...(doc.unchanged ? { unchanged: true } : {}),
      });
      return pagesSitemap(result.format, doc.url, pages, { unchanged: doc.unchanged });
    }
    const lineage = finalKey === key ? [...ancestors, key] : [...ancestors, key, finalKey];
    const entries = await this.#chooseChildren(result.children, level + 1, lineage);
    const pending: Promise<AbstractSitemap>[] = [];
    for (const entry of entries) {
      // Starting a child (its node, its request) costs up to a millisecond of
      // this thread; an index of 20 held it ~10-20 ms in one go. Let other
      // work run between slices.
      await this.#slice.yieldIfBusy();
      pending.push(
        this.#node(
          entry.url,
          level + 1,
          lineage,
          isRobotsUrl(entry.url),
          false,
          entry.lastModified,
        ),
      );
    }
    const children = await Promise.all(pending);
    this.stats.recordNode(result.format);
    this.#progress("parsed", doc.url, performance.now() - started, { pages: 0 });
    return indexSitemap(result.format, doc.url, children, entries);
  }

  async #chooseChildren(
    entries: readonly IndexEntry[],
    level: number,
    parents: readonly string[],
  ): Promise<IndexEntry[]> {
    const listCallback = this.#o.recurseListCallback;
    const callback = this.#o.recurseCallback;
    let chosen: IndexEntry[] = [...entries];
    if (listCallback) {
      const byUrl = new Map(entries.map((e) => [e.url, e]));
      const urls = await listCallback(entries.map((e) => e.url), level, parents);
      chosen = urls.map((url) => byUrl.get(url) ?? { url, lastModified: NaN });
    }
    if (callback) {
      const keep = await Promise.all(chosen.map((e) => callback(e.url, level, parents)));
      chosen = chosen.filter((_, i) => keep[i] !== false);
    }
    return chosen;
  }

  #invalid(url: string, reason: string, started = performance.now()): InvalidSitemap {
    this.stats.recordInvalid(url, reason);
    this.#progress("invalid", url, performance.now() - started, { reason });
    return new InvalidSitemap(url, reason);
  }

  #progress(
    kind: "fetched" | "parsed" | "invalid",
    url: string,
    ms: number,
    extra: {
      readonly reason?: string;
      readonly pages?: number;
      readonly bytes?: number;
      readonly unchanged?: boolean;
    },
  ): void {
    if (kind !== "fetched") {
      // A sitemap two parents name (or a well-known path robots.txt also
      // lists) is walked twice, but finishes once: one count, one event.
      const key = urlKey(url);
      if (!this.#finished.has(key)) {
        this.#finished.add(key);
        this.stats.sitemapsDone++;
      }
      const event = `${kind} ${key} ${extra.reason ?? ""}`;
      if (this.#reported.has(event)) return;
      this.#reported.add(event);
    }
    const listener = this.#o.onProgress;
    if (!listener) return;
    const s = this.stats;
    listener({
      kind,
      url,
      ...extra,
      ms,
      sitemapsDone: s.sitemapsDone,
      sitemapsQueued: s.queued,
      pagesFound: s.pagesKept,
      bytesDownloaded: this.#client.stats.bytesDownloaded,
      elapsedMs: s.elapsedMs(),
    });
  }
}

/** Whether a body starts (after a BOM and white space) with `<`: markup, which no robots.txt is. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || (bytes[i]! >= 0x09 && bytes[i]! <= 0x0d))) i++;
  return bytes[i] === 0x3c;
}

function conditional(entry: CacheEntry): { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (entry.etag !== null) headers["if-none-match"] = entry.etag;
  if (entry.lastModified !== null) headers["if-modified-since"] = entry.lastModified;
  return { headers };
}

function entriesOf(result: ParseResult): number {
  if (result.kind === "pages") return result.found;
  if (result.kind === "index") return result.children.length;
  return 0;
}

/** A duration as the deadline's reason names it: `250 ms`, `90 s`, `1.5 s`, `30 min`. */
function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The homepage as text: the charset its Content-Type names, else UTF-8. */
function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

const FEED_TYPES = new Set(["application/rss+xml", "application/atom+xml"]);
/** Elements whose content is text, not markup: a `<link` inside them is not a link. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noscript", "template"]);
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * The feed URLs an HTML page links to with `<link rel="alternate"
 * type="application/rss+xml">` or `type="application/atom+xml"`, in document
 * order, deduplicated, at most `max`. Attribute names, `rel` tokens and types
 * are matched case-insensitively, in any order and any quoting; character
 * references in values are decoded; hrefs resolve against the first
 * `<base href>` (itself resolved against `pageUrl`), else `pageUrl`. Comments
 * and the content of `script`, `style` and other raw-text elements are
 * skipped. One linear pass; malformed markup ends it early, never in a throw.
 *
 * @param html The page's text.
 * @param pageUrl The page's URL (after redirects).
 * @param max The most feeds returned.
 * @returns Absolute http(s) URLs.
 *
 * @example One RSS feed
 * ```ts
 * import { findFeedLinks } from "./discover.ts";
 *
 * findFeedLinks(
 *   `<head><LINK type='application/rss+xml' REL=alternate href="/feed?a=1&amp;b=2"></head>`,
 *   "https://example.com/",
 * ); // ["https://example.com/feed?a=1&b=2"]
 * ```
 */
export function findFeedLinks(html: string, pageUrl: string, max = MAX_FEED_LINKS): string[] {
  const hrefs: string[] = [];
  let base: string | null = null;
  const n = html.length;
  let i = 0;
  while (i < n && hrefs.length < max) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    let j = lt + 1;
    if (html.charCodeAt(j) === 0x2f /* / */) {
      const end = html.indexOf(">", j);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    const nameStart = j;
    while (j < n && isTagNameChar(html.charCodeAt(j))) j++;
    if (j === nameStart) {
      i = lt + 1;
      continue;
    }
    const name = html.slice(nameStart, j).toLowerCase();
    const tag = readAttributes(html, j);
    i = tag.end;
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, "ig");
      close.lastIndex = i;
      if (close.exec(html) === null) break;
      i = close.lastIndex;
      continue;
    }
    const attrs = tag.attributes;
    if (name === "base" && base === null && attrs.has("href")) {
      base = attrs.get("href")!.trim();
    } else if (name === "link") {
      const rel = (attrs.get("rel") ?? "").toLowerCase().split(/[\t\n\f\r ]+/);
      const type = (attrs.get("type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
      const href = (attrs.get("href") ?? "").trim();
      if (rel.includes("alternate") && FEED_TYPES.has(type) && href !== "") hrefs.push(href);
    }
  }
  let baseUrl = pageUrl;
  if (base !== null && base !== "") {
    try {
      baseUrl = new URL(base, pageUrl).href;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  const urls: string[] = [];
  const keys = new Set<string>();
  for (const href of hrefs) {
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    if (keys.has(url.href)) continue;
    keys.add(url.href);
    urls.push(url.href);
  }
  return urls;
}

function isTagNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x2d || c === 0x5f || c === 0x3a;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Reads a start tag's attributes from `i` to its `>`; the first of repeated names wins. */
function readAttributes(html: string, i: number): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>();
  const n = html.length;
  for (;;) {
    while (i < n && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 0x2f)) i++;
    if (i >= n) return { attributes, end: n };
    if (html.charCodeAt(i) === 0x3e /* > */) return { attributes, end: i + 1 };
    const nameStart = i;
    while (i < n) {
      const c = html.charCodeAt(i);
      if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      i++;
    }
    // A stray `=` where a name should start: take it as part of the name, as HTML does.
    if (i === nameStart) i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    let value = "";
    if (html.charCodeAt(i) === 0x3d /* = */) {
      i++;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      const quote = html.charCodeAt(i);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", i + 1);
        const end = close < 0 ? n : close;
        value = html.slice(i + 1, end);
        i = close < 0 ? n : close + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
        value = html.slice(start, i);
      }
    }
    if (!attributes.has(name)) attributes.set(name, decodeReferences(value));
  }
}

function decodeReferences(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});?/g, (whole, ref) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : "\ufffd";
    }
    return NAMED_REFERENCES[ref] ?? whole;
  });
}
