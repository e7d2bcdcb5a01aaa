/**
 * Parse workers that outlive one call: started once, at a program's start-up,
 * and handed to every call through the `pool` option.
 *
 * @module
 */
import { runtime } from "../runtime/mod.ts";
import { createParsePool, defaultWorkerCount, type ParsePool } from "./_parse_pool.ts";
import type { WarmUp } from "./_job.ts";

/** Options of {@linkcode SitemapParserPool}. */
export interface SitemapParserPoolOptions {
  /** Parse workers to start; 0 parses on the calling thread. @default {Math.min(4, navigator.hardwareConcurrency)} */
  readonly workers?: number;
  /**
   * How long one sitemap may take to decompress and parse before its worker
   * is replaced and the sitemap becomes invalid. @default {30000}
   */
  readonly jobTimeoutMs?: number;
}

let innerOf: (pool: SitemapParserPool) => ParsePool;

/** Readies the calling thread for a first call; never rejects. */
export type CallingThreadWarmUp = () => Promise<void>;

let callingThreadWarmUp: CallingThreadWarmUp = () => Promise.resolve();

/**
 * Sets what {@linkcode SitemapParserPool} runs on the calling thread while
 * its workers warm up. Injected by the API module (sitemap_tree.ts), which
 * crawls a site held in memory: the worker layer does not import the API it
 * serves.
 *
 * @param warmUp The warm-up; it must never reject.
 */
export function setCallingThreadWarmUp(warmUp: CallingThreadWarmUp): void {
  callingThreadWarmUp = warmUp;
}

/**
 * A set of parse workers to share between calls of `sitemapTreeForHomepage`
 * and `streamPages` (option `pool`), instead of each call starting and
 * closing its own.
 *
 * Starting a worker holds the calling thread while the runtime sets it up
 * (tens of milliseconds per worker in Deno:
 * bench/README.md#workers-start-up-warm-up-and-cancellation); a program that
 * reads sitemaps while serving other work, or reads many sites one after
 * another, pays that once here, at start-up, rather than in every call.
 * The workers start at once. They keep the process alive until
 * {@linkcode SitemapParserPool.close} (or `using`) ends them.
 *
 * @example Share the workers between calls
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { SitemapParserPool, sitemapTreeForSitemap } from "@sitemap/tree";
 *
 * // Two sitemaps served from memory (leave `fetch` out to use the network).
 * const site = new Map([
 *   ["https://a.example/sitemap.txt", "https://a.example/1\nhttps://a.example/2\n"],
 *   ["https://b.example/sitemap.txt", "https://b.example/1\n"],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * using pool = new SitemapParserPool({ workers: 1 });
 * const pages: number[] = [];
 * for (const url of ["https://a.example/sitemap.txt", "https://b.example/sitemap.txt"]) {
 *   const tree = await sitemapTreeForSitemap(url, { fetch, pool });
 *   pages.push([...tree.allPages()].length);
 * }
 * deepStrictEqual(pages, [2, 1]);
 * ```
 */
export class SitemapParserPool implements Disposable {
  readonly #inner: ParsePool;

  static {
    innerOf = (pool) => pool.#inner;
  }

  /**
   * Starts the workers.
   *
   * @param options How many workers, and how long one sitemap may take.
   * @throws {RangeError} When `workers` is not a non-negative integer or
   * `jobTimeoutMs` is not a positive number.
   */
  constructor(options: SitemapParserPoolOptions = {}) {
    const workers = options.workers ?? defaultWorkerCount();
    const jobTimeoutMs = options.jobTimeoutMs ?? 30_000;
    this.#inner = createParsePool({ workers, jobTimeoutMs, warmUp: "full", grow: "at-once" });
    this.#inner.warm();
    this.#runtimeReady = callingThreadWarmUp();
  }

  readonly #runtimeReady: Promise<void>;

  /**
   * Resolves once every worker has started and warmed up (each parses
   * ~28,500 synthetic URLs so that the runtime has compiled the parser;
   * well under a second) and the runtime has loaded its fetch
   * implementation (Deno loads it on first use), so that a program can
   * finish its start-up before it begins reading sitemaps. A call made
   * sooner is not held up: a worker stops warming up at its first job.
   * Never rejects: a worker that cannot start leaves the pool parsing on the
   * calling thread.
   *
   * @returns A promise of nothing.
   */
  async ready(): Promise<void> {
    await Promise.all([this.#inner.ready(), this.#runtimeReady]);
  }

  /** How many workers parse; 0 when parsing happens on the calling thread. */
  get size(): number {
    return this.#inner.size;
  }

  /**
   * Ends the workers. Sitemaps still being parsed become invalid nodes
   * ("Parser pool was closed"); calls made afterwards with this pool get
   * invalid nodes too. Closing twice does nothing.
   */
  close(): void {
    this.#inner.close();
  }

  /** Same as {@linkcode SitemapParserPool.close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}

/**
 * The parse pool behind a {@linkcode SitemapParserPool}.
 *
 * @param pool A pool made by the constructor.
 * @returns Its workers.
 */
export function parsePoolOf(pool: SitemapParserPool): ParsePool {
  return innerOf(pool);
}

/** The workers one call parses on, and whether the call owns (so closes) them. */
export interface CallPool {
  readonly pool: ParsePool;
  /** The call started these workers and closes them when it ends. */
  readonly own: boolean;
}

/** How a call's own pool starts its workers ({@linkcode poolForCall}). */
export interface CallPoolPlan {
  /** Start workers ahead of the first document. */
  readonly ahead: boolean;
  /** How long after the call's start (`Runtime.callWarmDelayMs`). */
  readonly delayMs: number;
  /** How many start ahead. */
  readonly warmWorkers: number;
  /** What each parses before its first job. */
  readonly warmUp: WarmUp;
  /** Cheap documents parse on the calling thread until one needs a worker. */
  readonly callingThreadFirst: boolean;
}

/**
 * How a call's own pool starts its workers:
 * - a plain call starts its first worker (on Node the first two:
 *   `Runtime.callWarmWorkers`) ahead, once its first requests have gone out
 *   (`Runtime.callWarmDelayMs`; the crawler's first answer hurries it), and
 *   warms it up fully while robots.txt and
 *   the index are on the wire, so that a crawl's first urlsets meet optimised
 *   parse code;
 * - a call with `since` starts none ahead: it parses its documents on the
 *   calling thread while each is cheap there (a plain urlset takes ~6 ms when
 *   only the pages since the date are kept), and starts a worker, unwarmed,
 *   for the first that is not (`ParsePoolOptions.callingThreadFirst`;
 *   bench/README.md#issue-24-since-on-the-calling-thread): a worker's start
 *   and memory cost more than a small result's whole parse;
 * - a call with a cache (a repeat run is likely answered by 304s, with nothing
 *   to parse) or `warm` false starts each worker once a document needs it.
 *
 * @param options The call's resolved options.
 * @param warm False starts each worker once a document needs it.
 * @returns The plan.
 */
export function callPoolPlan(
  options: { readonly cache: unknown; readonly since?: number },
  warm = true,
): CallPoolPlan {
  const since = !Number.isNaN(options.since ?? NaN);
  return {
    ahead: warm && options.cache === null,
    delayMs: runtime.callWarmDelayMs,
    warmWorkers: since ? 1 : runtime.callWarmWorkers,
    warmUp: since ? "none" : "full",
    callingThreadFirst: since,
  };
}

/**
 * The workers for one call: the caller's shared pool, or new ones started as
 * {@linkcode callPoolPlan} says.
 *
 * @param options The call's resolved options.
 * @param warm Start workers ahead of the first document; false starts each
 * once a document needs it.
 * @returns The pool, and whether the call must close it.
 */
export function poolForCall(
  options: {
    readonly pool: SitemapParserPool | null;
    readonly workers: number;
    readonly timeoutMs: number;
    readonly cache: unknown;
    readonly since?: number;
  },
  warm = true,
): CallPool {
  if (options.pool !== null) return { pool: parsePoolOf(options.pool), own: false };
  const plan = callPoolPlan(options, warm);
  const pool = createParsePool({
    workers: options.workers,
    jobTimeoutMs: options.timeoutMs,
    warmUp: plan.warmUp,
    warmWorkers: plan.warmWorkers,
    callingThreadFirst: plan.callingThreadFirst,
  });
  if (plan.ahead) pool.warm(plan.delayMs);
  return { pool, own: true };
}
