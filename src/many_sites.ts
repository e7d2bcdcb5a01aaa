/**
 * `sitemapTreesForHomepages()`: many sites on one machine, a bounded number
 * at a time, sharing one parse pool, one request scheduler (so one global
 * connection cap and per-host politeness across all sites) and one cache.
 *
 * @module
 */
import { abortable } from "./_abortable.ts";
import { integerOption } from "./_option_checks.ts";
import { Crawler } from "./discover.ts";
import type { IndexWebsiteSitemap } from "./objects/sitemap.ts";
import { DEFAULTS, resolveOptions, type SitemapTreeOptions } from "./options.ts";
import { environmentProxy } from "./_proxy.ts";
import { openConnections } from "./runtime/mod.ts";
import { RequestScheduler } from "./schedule.ts";
import { poolForCall } from "./workers/parser_pool.ts";
import { defaultWorkerCount, type ParsePool } from "./workers/_parse_pool.ts";

/**
 * The `deadlineMs` each site gets in {@linkcode sitemapTreesForHomepages}
 * (and `batch`, and the queue worker) unless the options set one (`null`:
 * none): 30 minutes. A site at `maxSitemaps` (10,000 sitemaps, 4 at a time)
 * whose sitemaps answer in under ~0.7 s each fits in it; a site whose
 * sitemaps trickle in byte by byte, each within `timeoutMs`, would otherwise
 * hold its slot for a day (10,000 x 30 s / 4).
 */
export const SITE_DEADLINE_MS: number = DEFAULTS.siteDeadlineMs;

/** Options of {@linkcode sitemapTreesForHomepages}. */
export interface SitemapTreesOptions extends SitemapTreeOptions {
  /**
   * A budget for each site's whole crawl (see `SitemapTreeOptions.deadlineMs`);
   * `null`: none. @default {SITE_DEADLINE_MS (30 minutes)}
   */
  readonly deadlineMs?: number | null;
  /**
   * Requests in flight across all sites of the run: room for
   * `siteConcurrency` sites at `concurrency` requests each.
   * @default {512}
   */
  readonly maxConnections?: number;
  /**
   * Sites crawled at once. Results a consumer has not taken yet count
   * against it, so memory is bounded by this, not by the number of sites.
   * @default {128}
   */
  readonly siteConcurrency?: number;
}

/** One site's outcome from {@linkcode sitemapTreesForHomepages}. */
export type SiteResult =
  | {
    /** The homepage as given. */
    readonly homepage: string;
    /** The site's tree; `tree.stats` says whether it was reachable. */
    readonly tree: IndexWebsiteSitemap;
    readonly error?: undefined;
  }
  | {
    /** The homepage as given. */
    readonly homepage: string;
    readonly tree?: undefined;
    /** Why this site was not crawled (a homepage that is not an http(s) URL). */
    readonly error: Error;
  };

/** Stands in for the homepage while the shared options are checked. */
const PROBE_HOMEPAGE = "http://127.0.0.1/";

/**
 * Crawls many websites, up to `siteConcurrency` at a time, and yields each
 * site's tree as soon as it is finished (so in completion order). All sites
 * share one parse pool, one connection cap (`maxConnections` spans the whole
 * run), per-host `concurrency` and delays, and the `cache`. Each site has
 * `deadlineMs` (30 minutes unless set), so that no site holds its slot for
 * hours; what it did not fetch by then is an `InvalidSitemap` naming the
 * deadline. A homepage that
 * is not an http(s) URL yields `{ homepage, error }` and the run goes on; an
 * unreachable site yields its tree, whose `stats` say so. The input may be an
 * async iterable, read only as sites are started, so a list of millions
 * streams in. Breaking out of the loop stops every crawl in flight.
 *
 * @param homepages The sites' homepages, any iterable or async iterable.
 * @param options As for `sitemapTreeForHomepage`, plus `siteConcurrency`.
 * @returns An async iterable of one result per homepage.
 * @throws {TypeError} When an option has the wrong type (on the first `next()`).
 * @throws {RangeError} When an option is out of range (on the first `next()`).
 * @throws The signal's reason, when `signal` aborts.
 *
 * @example Page counts of a list of sites
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapTreesForHomepages } from "@sitemap/tree";
 *
 * // Two sites served from memory (leave `fetch` out to use the network).
 * const site = new Map([
 *   ["https://a.example/robots.txt", "Sitemap: https://a.example/urls.txt\n"],
 *   ["https://a.example/urls.txt", "https://a.example/1\nhttps://a.example/2\n"],
 *   ["https://b.example/robots.txt", "Sitemap: https://b.example/urls.txt\n"],
 *   ["https://b.example/urls.txt", "https://b.example/1\n"],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * const sites = ["https://a.example/", "https://b.example/", "not a url"];
 * const pages: Record<string, number | string> = {};
 * for await (const result of sitemapTreesForHomepages(sites, { fetch, siteConcurrency: 8 })) {
 *   if (result.error) pages[result.homepage] = result.error.name;
 *   else pages[result.homepage] = [...result.tree.allPages()].length;
 * }
 * deepStrictEqual(pages, {
 *   "https://a.example/": 2,
 *   "https://b.example/": 1,
 *   "not a url": "TypeError",
 * });
 * ```
 */
export async function* sitemapTreesForHomepages(
  homepages: Iterable<string | URL> | AsyncIterable<string | URL>,
  options: SitemapTreesOptions = {},
): AsyncGenerator<SiteResult, void, undefined> {
  const { siteConcurrency: given, ...treeOptions } = options ?? {};
  const siteConcurrency = integerOption(
    "siteConcurrency",
    given,
    DEFAULTS.siteConcurrency,
    1,
  );
  const source = iteratorOf(homepages);
  const crawler = new SiteCrawler(treeOptions);
  const signal = crawler.signal;
  const finished: SiteResult[] = [];
  let running = 0;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  let pending: Promise<IteratorResult<string | URL>> | null = null;
  let exhausted = false;

  const start = (input: string | URL): void => {
    running++;
    crawler.crawl(input).then(
      (result) => finished.push(result),
      // Only an abort rejects, and it ends the run below.
      () => {},
    ).finally(() => {
      running--;
      notify();
    });
  };

  try {
    for (;;) {
      signal.throwIfAborted();
      if (finished.length > 0) {
        yield finished.shift()!;
        continue;
      }
      if (!exhausted && pending === null && running + finished.length < siteConcurrency) {
        pending = source.next();
      }
      if (pending === null && running === 0) {
        if (exhausted) return;
        continue;
      }
      const woken = new Promise<"wake">((resolve) => wake = () => resolve("wake"));
      const next = await abortable(
        pending === null ? woken : Promise.race([pending, woken]),
        signal,
      );
      if (next !== "wake") {
        pending = null;
        if (next.done) exhausted = true;
        else start(next.value);
      }
    }
  } finally {
    wake = null;
    crawler.close();
    if (!exhausted) await source.return?.();
  }
}

/**
 * Crawls sites one call at a time, all sharing one parse pool, one request
 * scheduler and the options' cache: the engine of
 * {@linkcode sitemapTreesForHomepages}, and of a queue worker whose jobs
 * arrive one by one. Each site gets `deadlineMs`, {@linkcode SITE_DEADLINE_MS}
 * unless the options say otherwise.
 */
export class SiteCrawler {
  /** Aborts when the options' signal does or {@linkcode SiteCrawler.close} is called. */
  readonly signal: AbortSignal;
  readonly #options: SitemapTreeOptions;
  readonly #workers: number;
  readonly #stop = new AbortController();
  readonly #scheduler: RequestScheduler;
  readonly #pool: ParsePool;
  readonly #own: boolean;
  readonly #envProxy = environmentProxy();

  /**
   * Checks the options and starts the parse pool (unless `pool` is given).
   *
   * @param given As for `sitemapTreeForHomepage`; `maxConnections` defaults
   * to `DEFAULTS.siteMaxConnections`, the cap of a many-sites run.
   * @throws {TypeError} When an option has the wrong type.
   * @throws {RangeError} When an option is out of range.
   */
  constructor(given: SitemapTreeOptions) {
    // The run's connection cap spans every site: a many-sites default of its own.
    const options = {
      ...given,
      maxConnections: given.maxConnections ?? DEFAULTS.siteMaxConnections,
    };
    this.#workers = defaultWorkerCount();
    const shared = resolveOptions(PROBE_HOMEPAGE, options, this.#workers);
    shared.signal?.throwIfAborted();
    this.signal = shared.signal === null
      ? this.#stop.signal
      : AbortSignal.any([shared.signal, this.#stop.signal]);
    this.#options = {
      ...options,
      signal: this.signal,
      deadlineMs: options.deadlineMs === undefined ? SITE_DEADLINE_MS : options.deadlineMs,
    };
    this.#scheduler = new RequestScheduler(shared);
    // Not warmed: small sites parse on this thread (discover.ts) and never
    // need a worker, whose isolate costs memory for the whole batch
    // (bench/README.md#batch-memory); a document that needs one starts it.
    const { pool, own } = poolForCall(shared, false);
    this.#pool = pool;
    this.#own = own;
  }

  /**
   * Crawls one site.
   *
   * @param input The homepage.
   * @returns The tree, or the error of a homepage that is not an http(s) URL.
   * @throws The signal's reason, when the crawler's signal aborts.
   */
  async crawl(input: string | URL): Promise<SiteResult> {
    const homepage = String(input);
    this.signal.throwIfAborted();
    let resolved;
    try {
      resolved = resolveOptions(input, this.#options, this.#workers);
    } catch (error) {
      return { homepage, error: asError(error) };
    }
    // A site's connections end with it (none idle to thousands of finished
    // hosts); an environment proxy is left to the default transport (the
    // runtime's fetch, or on Node its node:http transport routed by the variables).
    const connections = resolved.fetch === null && resolved.proxy === null && !this.#envProxy
      ? openConnections()
      : null;
    const crawler = new Crawler(resolved, this.#pool, null, null, {
      scheduler: this.#scheduler,
      fetch: connections?.fetch ?? null,
    });
    try {
      return { homepage, tree: await abortable(crawler.crawlWebsite(), this.signal) };
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      return { homepage, error: asError(error) };
    } finally {
      connections?.close();
    }
  }

  /** Stops every crawl in flight and closes the parse pool it started. */
  close(): void {
    if (!this.#stop.signal.aborted) {
      this.#stop.abort(new DOMException("The run was stopped", "AbortError"));
    }
    if (this.#own) this.#pool.close();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function iteratorOf(
  items: Iterable<string | URL> | AsyncIterable<string | URL>,
): AsyncIterator<string | URL> {
  if (items !== null && typeof items === "object" && Symbol.asyncIterator in items) {
    return items[Symbol.asyncIterator]();
  }
  if (items !== null && typeof items === "object" && Symbol.iterator in items) {
    const it = items[Symbol.iterator]();
    return {
      next: () => Promise.resolve(it.next()),
      return: () => Promise.resolve(it.return?.() ?? { done: true, value: undefined }),
    };
  }
  throw new TypeError("Homepages must be an iterable or async iterable of URLs");
}
