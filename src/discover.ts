/**
 * Discovery and the crawl scheduler: robots.txt, the well-known paths, and
 * the recursion through indexes, with every per-call guard (fetch once,
 * recursion, depth, sitemap count, callbacks). It fetches through
 * {@linkcode WebClient} and parses through a {@linkcode ParsePool}; it never
 * touches bytes itself.
 *
 * @module
 */
import { WebClient } from "./fetch.ts";
import { createUrlGuard, defaultResolver } from "./guard.ts";
import { KNOWN_PATHS, type ResolvedOptions } from "./options.ts";
import type { IndexEntry, PackedPages, PagesFormat, ParseResult } from "./parse/_result.ts";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesAtomSitemap,
  PagesRSSSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "./objects/sitemap.ts";
import type { ParsePool } from "./workers/pool.ts";
import { StatsCollector } from "./stats.ts";

/** A fetched and parsed document, shared by every place in the tree that names its URL. */
type Doc =
  | { readonly ok: true; readonly url: string; readonly result: ParseResult }
  | {
    readonly ok: false;
    readonly url: string;
    readonly reason: string;
    readonly status: number | null;
  };

/** Receives each pages sitemap's pages as soon as they are parsed (for streaming). */
export type PagesSink = (
  url: string,
  format: PagesFormat,
  pages: PackedPages,
) => Promise<void> | void;

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

function isRobotsUrl(url: string): boolean {
  try {
    return new URL(url).pathname.endsWith("/robots.txt");
  } catch {
    return false;
  }
}

const EMPTY_PACKED: PackedPages = {
  count: 0,
  urlBytes: new Uint8Array(0),
  urlEnds: new Uint32Array(0),
  lastModified: new Float64Array(0),
  priority: new Float64Array(0),
  changeFrequency: new Uint8Array(0),
  extras: "",
};

const PAGES_CLASSES = {
  urlset: PagesXMLSitemap,
  text: PagesTextSitemap,
  rss: PagesRSSSitemap,
  atom: PagesAtomSitemap,
} as const;

/** One crawl of one website: create, `crawlWebsite()` once. */
export class Crawler {
  readonly #o: ResolvedOptions;
  readonly #client: WebClient;
  readonly #pool: ParsePool;
  readonly #sink: PagesSink | null;
  readonly #docs = new Map<string, Promise<Doc>>();
  readonly #streamed = new Set<string>();
  readonly stats: StatsCollector;
  #nodes = 0;

  constructor(options: ResolvedOptions, pool: ParsePool, sink: PagesSink | null = null) {
    this.#o = options;
    this.#pool = pool;
    this.#sink = sink;
    this.stats = new StatsCollector();
    const guard = createUrlGuard(options.homepage, options.allowPrivateNetworks, {
      // An injected fetch decides itself where it connects, so resolving names
      // here would only send DNS queries that say nothing about its target.
      resolve: options.fetch === null ? defaultResolver : null,
    });
    this.#client = new WebClient({
      ...(options.fetch === null ? {} : { fetch: options.fetch }),
      userAgent: options.userAgent,
      headers: options.headers,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      maxDownloadBytes: options.maxDownloadBytes,
      concurrency: options.concurrency,
      ...(options.signal === null ? {} : { signal: options.signal }),
      checkUrl: guard,
    });
  }

  /** Builds the whole tree: robots.txt first, then each well-known sitemap not found through it. */
  async crawlWebsite(): Promise<IndexWebsiteSitemap> {
    const o = this.#o;
    const home = o.homepage;
    const robots = o.useRobots
      ? this.#node(new URL("/robots.txt", home).href, 0, [], true)
      : Promise.resolve(null);
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
    this.stats.requests = this.#client.stats.requests;
    this.stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    return new IndexWebsiteSitemap(home.href, children, this.stats.snapshot());
  }

  /** Fetches and parses one URL once per call, whoever asks. */
  #doc(url: string, robots: boolean): Promise<Doc> {
    const key = urlKey(url);
    let doc = this.#docs.get(key);
    if (!doc) {
      doc = this.#load(url, robots);
      this.#docs.set(key, doc);
    }
    return doc;
  }

  async #load(url: string, robots: boolean): Promise<Doc> {
    const started = performance.now();
    const fetched = await this.#client.get(url);
    this.stats.requests = this.#client.stats.requests;
    this.stats.bytesDownloaded = this.#client.stats.bytesDownloaded;
    if (!fetched.ok) {
      return { ok: false, url: fetched.url, reason: fetched.reason, status: fetched.status };
    }
    this.#progress("fetched", fetched.url, performance.now() - started, {
      bytes: fetched.bytes.byteLength,
    });
    const outcome = await this.#pool.parse({
      bytes: fetched.bytes,
      url: fetched.url,
      since: this.#o.since,
      robots: robots || isRobotsUrl(fetched.url),
      contentType: fetched.headers.get("content-type"),
      maxSitemapBytes: this.#o.maxSitemapBytes,
    });
    this.stats.recordParse(
      outcome.decompressedBytes,
      outcome.parseMs,
      outcome.result,
      fetched.url,
    );
    return { ok: true, url: fetched.url, result: outcome.result };
  }

  async #node(
    url: string,
    level: number,
    ancestors: readonly string[],
    robots: boolean,
    quiet = false,
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
    if (++this.#nodes > this.#o.maxSitemaps) {
      return this.#invalid(
        url,
        `Sitemap limit reached: maxSitemaps is ${this.#o.maxSitemaps}, ${url} not fetched`,
      );
    }
    this.stats.queued++;
    const started = performance.now();
    let doc: Doc;
    try {
      doc = await this.#doc(url, robots);
    } finally {
      this.stats.queued--;
    }
    if (!doc.ok) {
      if (quiet) return new InvalidSitemap(doc.url, doc.reason);
      return this.#invalid(doc.url, doc.reason, started);
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
        if (!this.#streamed.has(finalKey)) {
          this.#streamed.add(finalKey);
          const emptied: Doc = { ...doc, result: { ...result, pages: EMPTY_PACKED } };
          this.#docs.set(key, Promise.resolve(emptied));
          await this.#sink(doc.url, result.format, result.pages);
        }
      }
      this.stats.recordNode(result.format, result.pages.count);
      this.#progress("parsed", doc.url, performance.now() - started, {
        pages: result.pages.count,
      });
      return new PAGES_CLASSES[result.format](doc.url, pages);
    }
    const lineage = finalKey === key ? [...ancestors, key] : [...ancestors, key, finalKey];
    const entries = await this.#chooseChildren(result.children, level + 1, lineage);
    const children = await Promise.all(
      entries.map((entry) => this.#node(entry.url, level + 1, lineage, isRobotsUrl(entry.url))),
    );
    const lastmods = entries.map((e) =>
      Number.isNaN(e.lastModified) ? null : new Date(e.lastModified)
    );
    this.stats.recordNode(result.format, 0);
    this.#progress("parsed", doc.url, performance.now() - started, { pages: 0 });
    return result.format === "robots"
      ? new IndexRobotsTxtSitemap(doc.url, children, lastmods)
      : new IndexXMLSitemap(doc.url, children, lastmods);
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
    extra: { readonly reason?: string; readonly pages?: number; readonly bytes?: number },
  ): void {
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
