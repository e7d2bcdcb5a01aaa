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
import { type CacheEntry, decodeCacheEntry } from "./_cache_entry.ts";
import { filterPagesSince } from "./_pages_since.ts";
import { AbortWaiters } from "./_abortable.ts";
import { errorMessage } from "./_error_message.ts";
import { decompressIfGzip } from "./decompress.ts";
import { type FetchResult, WebClient } from "./fetch.ts";
import { RequestScheduler } from "./schedule.ts";
import { createUrlGuard, defaultResolver } from "./guard.ts";
import { proxyFor } from "./_proxy.ts";
import { createProxyFetch } from "./runtime/mod.ts";
import { isRobotsUrl } from "./parse/_detect.ts";
import { parseRobotsTxt } from "./parse/robots_txt.ts";
import { decodeHtml, findFeedLinks } from "./parse/html_feeds.ts";
import { KNOWN_PATHS, type ResolvedOptions } from "./options.ts";
import type { IndexEntry, PackedPages, PagesFormat, ParseResult } from "./parse/_result.ts";
import { type AbstractSitemap, IndexWebsiteSitemap, InvalidSitemap } from "./objects/sitemap.ts";
import type { ParsePool } from "./workers/_parse_pool.ts";
import { indexSitemap, pagesSitemap } from "./objects/_build.ts";
import { type ParseJob, runParseJob } from "./workers/_job.ts";
import { type SitemapTreeStats, StatsCollector } from "./stats.ts";
import { TimeSlicer } from "./_time_slicer.ts";

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

/** A response with a body, as the web client returns it. */
type FetchedBody = Extract<FetchResult, { ok: true }>;

/** A document that was fetched (or reused) and parsed. */
type ParsedDoc = Extract<Doc, { ok: true }>;

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

  /**
   * The root: robots.txt, the well-known paths and the homepage's feeds
   * started together; then the children in that order, each sitemap shown
   * once among them, and the call's outcome and counters.
   */
  async #website(): Promise<IndexWebsiteSitemap> {
    const o = this.#o;
    const home = o.homepage;
    const robots = o.useRobots ? this.#robotsNode() : Promise.resolve(null);
    const knownUrls = o.useKnownPaths
      ? knownPathUrls(home, [...KNOWN_PATHS, ...o.extraKnownPaths])
      : [];
    const known = knownUrls.map((url) => this.#node(url, 0, [], isRobotsUrl(url), true));
    const feeds = o.useFeeds ? this.#homepageFeeds() : Promise.resolve([]);
    // Awaited below; until then an abort must not surface as an unhandled rejection.
    feeds.catch(() => {});
    const [robotsNode, ...knownNodes] = await Promise.all([robots, ...known]);

    const children = new RootChildren();
    if (robotsNode && !(robotsNode instanceof InvalidSitemap)) children.add(robotsNode);
    for (let i = 0; i < knownNodes.length; i++) {
      const node = knownNodes[i];
      if (!node || node instanceof InvalidSitemap) continue;
      if (children.holds(node.url) || children.holds(knownUrls[i]!)) continue;
      children.add(node);
    }
    // Feeds come last and only when nothing above already holds them.
    const feedUrls = (await feeds).filter((url) => !children.holds(url));
    const feedNodes = await Promise.all(
      feedUrls.map((url) => this.#node(url, 0, [], isRobotsUrl(url))),
    );
    for (const node of feedNodes) if (!children.holds(node.url)) children.add(node);
    const nodes = children.nodes;
    await this.#decideOutcome(nodes, knownUrls);
    // The counts are those of the tree as shown.
    const counted: AbstractSitemap[] = [];
    for (const child of nodes) counted.push(child, ...child.allSitemaps());
    const failed = await this.#failedRobots(robotsNode);
    return new IndexWebsiteSitemap(home.href, nodes, await this.#finish(counted, failed));
  }

  /** The homepage's robots.txt node; with `respectCrawlDelay`, its host is held until it answers. */
  #robotsNode(): Promise<AbstractSitemap> {
    const robotsUrl = new URL("/robots.txt", this.#o.homepage);
    if (this.#o.respectCrawlDelay) {
      // Nothing else goes to the host before its Crawl-delay is known.
      this.#scheduler.holdForRobots(robotsUrl);
      this.#robotsHold = robotsUrl;
    }
    return this.#node(robotsUrl.href, 0, [], true).finally(() => this.#openRobotsHold(null));
  }

  /**
   * A failed robots.txt is left out of the tree (as USP does); one that
   * failed for a reason other than being absent (404, 410, an HTML page) is
   * still listed in the stats as invalid.
   */
  async #failedRobots(
    robotsNode: AbstractSitemap | null,
  ): Promise<{ url: string; reason: string }[]> {
    if (!(robotsNode instanceof InvalidSitemap)) return [];
    const doc = await this.#docs.get(urlKey(new URL("/robots.txt", this.#o.homepage).href));
    const absent = doc !== undefined && !doc.ok &&
      (doc.html === true || doc.status === 404 || doc.status === 410);
    return absent ? [] : [{ url: robotsNode.url, reason: robotsNode.reason }];
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
        const unreachable = this.#unreachableCause();
        const blocked = unreachable === null ? this.#blockedCause() : null;
        this.stats.outcome = unreachable !== null
          ? "unreachable"
          : blocked !== null
          ? "blocked"
          : "no-sitemaps";
        this.stats.outcomeReason = unreachable ?? blocked ?? root.reason;
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

  /**
   * Why the site counts as blocked (a bot wall answered at least one
   * request), in words: `blocked by a Cloudflare challenge (robots.txt and
   * 15 other requests)`; null when no wall was met.
   */
  #blockedCause(): string | null {
    const walls = this.#client.challenges;
    if (walls.size === 0) return null;
    // "Blocked by a Cloudflare challenge (403)" reads "blocked by a Cloudflare challenge".
    const phrases = new Set(
      [...walls.values()].map((wall) => wall.reason.replace(/\s*\([^)]*\)$/, "")),
    );
    const vendors = new Set([...walls.values()].map((wall) => wall.vendor));
    const by = phrases.size === 1
      ? [...phrases][0]!.replace(/^Blocked/, "blocked")
      : `blocked by bot walls (${[...vendors].join(", ")})`;
    const n = walls.size;
    const requests = (k: number): string => `${k} ${k === 1 ? "request" : "requests"}`;
    const robots = new URL("/robots.txt", this.#o.homepage).href;
    let which = requests(n);
    if (walls.has(robots)) {
      which = n === 1
        ? "robots.txt"
        : `robots.txt and ${n - 1} other ${n === 2 ? "request" : "requests"}`;
    }
    return `${by} (${which})`;
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
    const blocked = this.#blockedCause();
    if (blocked !== null) {
      stats.outcome = "blocked";
      stats.outcomeReason = blocked;
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

  /**
   * One document from the network (or the cache): read the cache entry,
   * skip the child or request it (conditionally with an entry), then reuse
   * a 304, refuse an HTML robots.txt, or parse the body.
   */
  async #download(url: string, key: string, robots: boolean, skipBefore: number): Promise<Doc> {
    const started = performance.now();
    const entry = this.#o.cache === null ? null : await this.#readCache(key);
    // A cached copy older than the lastmod is known to be stale: fetch it after all.
    if (!Number.isNaN(skipBefore) && (entry === null || entry.fetchedAt >= skipBefore)) {
      return this.#skip(key, entry);
    }
    const requestedAt = Date.now();
    const fetched = await this.#request(url, key, entry);
    // An answer before the workers' delayed start (a fast site) starts them
    // now, or its next documents would wait for them; a no-op after that.
    this.#pool.hurry();
    if (!fetched.ok) {
      if (fetched.status === 304 && entry !== null) {
        return this.#reuse(key, entry, fetched.url, started);
      }
      return this.#failedFetch(key, fetched);
    }
    this.#progress("fetched", fetched.url, performance.now() - started, {
      bytes: fetched.bytes.byteLength,
    });
    const asRobots = robots || isRobotsUrl(fetched.url);
    if (asRobots && looksLikeMarkup(fetched.bytes)) return this.#htmlRobots(key, fetched);
    // A copy: the pool takes the body's buffer.
    this.#inspect?.(fetched.url, fetched.bytes.slice(), asRobots);
    return await this.#parse(key, fetched, asRobots, requestedAt);
  }

  /**
   * The request of one document, conditional when a cache entry is known;
   * the homepage's robots.txt, while its host is held, lets the host go
   * with its Crawl-delay once it has answered. A well-known path waits
   * while sitemaps that the site names wait for its host: probes that
   * mostly answer 404 no longer hold the first urlsets back (14 of them at
   * four connections were 3–4 round trips before a robots.txt index's
   * children), and the urlsets' parse then overlaps the probes.
   */
  async #request(url: string, key: string, entry: CacheEntry | null): Promise<FetchResult> {
    const hold = this.#robotsHold;
    const ungated = hold !== null && key === hold.href;
    const later = this.#probing.has(key);
    const fetched = await this.#client.get(url, {
      ...(entry === null ? {} : conditional(entry)),
      ...(ungated ? { ungated } : {}),
      ...(later ? { later } : {}),
    });
    if (ungated) {
      const text = fetched.ok && !(fetched.bytes[0] === 0x1f && fetched.bytes[1] === 0x8b)
        ? new TextDecoder().decode(fetched.bytes)
        : "";
      this.#openRobotsHold(parseRobotsTxt(text, fetched.url).crawlDelay(this.#o.userAgent));
    }
    this.stats.requests = this.#client.stats.requests;
    this.stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    return fetched;
  }

  /** A request that got no usable answer (an error status, a network failure): noted, as a failed document. */
  #failedFetch(key: string, fetched: Extract<FetchResult, { ok: false }>): Doc {
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

  /**
   * A site without robots.txt that answers every path with its HTML page:
   * no robots.txt at all, as a 404 would have said.
   */
  #htmlRobots(key: string, fetched: FetchedBody): Doc {
    this.stats.recordFetch({
      url: key,
      finalUrl: fetched.url,
      status: fetched.status,
      redirected: fetched.redirected,
      outcome: "failed",
      downloadedBytes: fetched.bytes.byteLength,
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

  /** Parses a downloaded body, here or on a worker, and notes the result (and its cache entry). */
  async #parse(
    key: string,
    fetched: FetchedBody,
    robots: boolean,
    requestedAt: number,
  ): Promise<Doc> {
    // Read now: the parse takes the body's buffer.
    const downloadedBytes = fetched.bytes.byteLength;
    const job = this.#parseJob(key, fetched, robots, requestedAt);
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

  /** The parse job of a body; with a cache, the worker also encodes the entry to store. */
  #parseJob(key: string, fetched: FetchedBody, robots: boolean, requestedAt: number): ParseJob {
    const cache = this.#o.cache;
    return {
      bytes: fetched.bytes,
      url: fetched.url,
      since: this.#o.since,
      robots,
      contentType: fetched.headers.get("content-type"),
      maxSitemapBytes: this.#o.maxSitemapBytes,
      extensions: this.#o.extensions,
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
          downloadedBytes: fetched.bytes.byteLength,
        },
      }),
    };
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
      this.stats.recordCacheError(key, `Cache read failed: ${errorMessage(error)}`);
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
        this.stats.recordCacheError(key, `Cache write failed: ${errorMessage(error)}`);
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
      // Speculative, as a well-known path is (see #request).
      fetched = await this.#client.get(this.#o.homepage.href, { later: true });
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

  /**
   * The node of one sitemap where the tree names it: refused in place
   * (recursion, depth, a full tree), invalid, or built from its document,
   * which is fetched and parsed once per call whoever names it.
   */
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
    const refused = this.#place(url, key, level, ancestors, quiet);
    if (refused !== null) return refused;
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
    if (result.kind === "pages") return this.#pagesNode(doc, result, key, finalKey, started);
    const lineage = finalKey === key ? [...ancestors, key] : [...ancestors, key, finalKey];
    return await this.#indexNode(doc.url, result, level, lineage, started);
  }

  /**
   * Whether a sitemap may have a node here: the invalid node standing in its
   * place when it is its own ancestor, too deep, or already in a full tree;
   * null (and the place counted, unless `quiet`) when it may.
   */
  #place(
    url: string,
    key: string,
    level: number,
    ancestors: readonly string[],
    quiet: boolean,
  ): InvalidSitemap | null {
    if (ancestors.includes(key)) {
      return this.#invalid(url, `Recursion detected in URL ${url}`);
    }
    if (level > this.#o.maxDepth) {
      return this.#invalid(
        url,
        `Recursion level exceeded: ${url} is ${level} levels deep (maxDepth is ${this.#o.maxDepth})`,
      );
    }
    if (quiet) return null;
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
    return null;
  }

  /** A pages node; when streaming, its pages go to the sink instead (see {@linkcode Crawler.#stream}). */
  #pagesNode(
    doc: ParsedDoc,
    result: Extract<ParseResult, { kind: "pages" }>,
    key: string,
    finalKey: string,
    started: number,
  ): AbstractSitemap {
    const pages = this.#sink === null ? result.pages : this.#stream(doc, result, key, finalKey);
    this.stats.recordNode(result.format);
    this.#progress("parsed", doc.url, performance.now() - started, {
      pages: result.pages.count,
      ...(doc.unchanged ? { unchanged: true } : {}),
    });
    return pagesSitemap(result.format, doc.url, pages, { unchanged: doc.unchanged });
  }

  /**
   * Hands a document's pages (and its download slot) to the sink, once per
   * final URL; returns the pages the node keeps: none.
   */
  #stream(
    doc: ParsedDoc,
    result: Extract<ParseResult, { kind: "pages" }>,
    key: string,
    finalKey: string,
  ): PackedPages {
    const sink = this.#sink!;
    // The first node of a document hands its pages (and slot) over; a
    // second URL redirected to an already streamed one gives its slot back.
    const holding = this.#holdingSlot.delete(doc);
    if (!this.#streamed.has(finalKey)) {
      this.#streamed.add(finalKey);
      // Streamed once, then forgotten: the cache keeps only an empty copy so
      // memory stays flat and a second occurrence adds no pages.
      const emptied: Doc = { ...doc, result: { ...result, pages: EMPTY_PACKED } };
      this.#docs.set(key, Promise.resolve(emptied));
      if (holding) sink.push(doc.url, result.format, result.pages, !doc.unchanged);
    } else if (holding) {
      sink.release();
    }
    return EMPTY_PACKED;
  }

  /** An index node: its chosen children, each started in turn and awaited together. */
  async #indexNode(
    url: string,
    result: Extract<ParseResult, { kind: "index" }>,
    level: number,
    lineage: readonly string[],
    started: number,
  ): Promise<AbstractSitemap> {
    const entries = await this.#chooseChildren(result.children, level + 1, lineage);
    const pending: Promise<AbstractSitemap>[] = [];
    for (const entry of entries) {
      // Starting a child (its node, its request) costs this thread a little;
      // a whole index of them in one go stalls its event loop
      // (bench/README.md#the-calling-threads-event-loop). Let other work run
      // between slices.
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
    this.#progress("parsed", url, performance.now() - started, { pages: 0 });
    return indexSitemap(result.format, url, children, entries, result.robotsText);
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

/** The root's children in order, and the sitemaps (theirs and below them) they hold. */
class RootChildren {
  readonly nodes: AbstractSitemap[] = [];
  readonly #held = new Set<string>();

  /** Adds a child; it and every sitemap below it are held from now on. */
  add(node: AbstractSitemap): void {
    this.nodes.push(node);
    this.#held.add(urlKey(node.url));
    for (const sub of node.allSitemaps()) this.#held.add(urlKey(sub.url));
  }

  /** Whether a child added already is, or holds, this URL. */
  holds(url: string): boolean {
    return this.#held.has(urlKey(url));
  }
}

/** The well-known paths resolved against the homepage, each URL once; unusable paths are skipped. */
function knownPathUrls(home: URL, paths: readonly string[]): string[] {
  const base = home.href.endsWith("/") ? home.href : home.href + "/";
  const urls: string[] = [];
  const keys = new Set<string>();
  for (const path of paths) {
    let url: string;
    try {
      url = new URL(path.replace(/^\/+/, ""), base).href;
    } catch {
      continue;
    }
    const key = urlKey(url);
    if (keys.has(key)) continue;
    keys.add(key);
    urls.push(url);
  }
  return urls;
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
