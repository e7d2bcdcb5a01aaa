/**
 * Parse workers that outlive one call: started once, at a program's start-up,
 * and handed to every call through the `pool` option.
 *
 * @module
 */
import { sitemapTreeForHomepage } from "../sitemap_tree.ts";
import { createParsePool, defaultWorkerCount, type ParsePool } from "./pool.ts";

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
 * network) makes the runtime load its fetch, streams and abort code, which
 * Deno loads on first use (that held the calling thread ~30-40 ms inside a
 * first call's first request, measured on Deno 2.9.6); then a crawl of a
 * three-document site held in memory (an injected `fetch`, parsing on this
 * thread) makes V8 compile the crawler, which it does on first use too
 * (5-14 ms before the first call's first request). Never rejects.
 */
async function prepareCallingThread(): Promise<void> {
  try {
    const controller = new AbortController();
    controller.signal.addEventListener("abort", () => {});
    const response = await fetch("data:text/plain,sitemap", { signal: controller.signal });
    const reader = response.body?.getReader();
    while (reader !== undefined && !(await reader.read()).done);
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
    // Only a head start: a runtime without data: URLs loads its fetch later.
  }
}

/**
 * A set of parse workers to share between calls of `sitemapTreeForHomepage`
 * and `streamPages` (option `pool`), instead of each call starting and
 * closing its own.
 *
 * Starting a worker holds the calling thread while the runtime sets it up
 * (measured ~25–35 ms per worker in Deno 2.9, ~4 ms in Bun); a program that
 * reads sitemaps while serving other work, or reads many sites one after
 * another, pays that once here, at start-up, rather than in every call.
 * The workers start at once. They keep the process alive until
 * {@linkcode SitemapParserPool.close} (or `using`) ends them.
 *
 * @example Share the workers between calls
 * ```ts ignore
 * import { SitemapParserPool, sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * using pool = new SitemapParserPool();
 * for (const site of ["https://a.example/", "https://b.example/"]) {
 *   const tree = await sitemapTreeForHomepage(site, { pool });
 *   console.log(site, [...tree.allPages()].length);
 * }
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
    this.#inner = createParsePool({ workers, jobTimeoutMs, warmUp: "full" });
    this.#inner.warm();
    this.#runtimeReady = prepareCallingThread();
  }

  readonly #runtimeReady: Promise<void>;

  /**
   * Resolves once every worker has started and warmed up (each parses
   * ~28,500 synthetic URLs so that the runtime has compiled the parser;
   * ~0.3-0.5 s on 2 cores) and the runtime has loaded its fetch
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

/**
 * The workers for one call: the caller's shared pool, or new ones started now
 * (while robots.txt is on the wire), unless a cache makes it likely that
 * nothing needs parsing (a repeat run answered by 304s).
 *
 * @param options The call's resolved options.
 * @returns The pool, and whether the call must close it.
 */
export function poolForCall(
  options: {
    readonly pool: SitemapParserPool | null;
    readonly workers: number;
    readonly timeoutMs: number;
    readonly cache: unknown;
  },
): CallPool {
  if (options.pool !== null) return { pool: parsePoolOf(options.pool), own: false };
  const pool = createParsePool({ workers: options.workers, jobTimeoutMs: options.timeoutMs });
  if (options.cache === null) pool.warm();
  return { pool, own: true };
}
