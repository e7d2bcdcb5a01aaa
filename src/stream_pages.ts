/**
 * `streamPages()`: the whole site's pages as they are parsed, without keeping
 * the tree, so memory stays flat however large the site is.
 *
 * @module
 */
import { Crawler, type PagesSink } from "./discover.ts";
import { Slots } from "./fetch.ts";
import { detachPackedPages } from "./_detach.ts";
import { iteratePages } from "./objects/_packed_pages.ts";
import type { SitemapPage } from "./objects/page.ts";
import { checkSitemapUrl, resolveOptions, type SitemapTreeOptions } from "./options.ts";
import type { PackedPages } from "./parse/_result.ts";
import { poolForCall } from "./workers/parser_pool.ts";
import type { SitemapTreeStats } from "./stats.ts";
import { defaultWorkerCount } from "./workers/_parse_pool.ts";

/** Parsed sitemaps that may wait for the consumer, beyond the downloads in flight. */
const QUEUE_LIMIT = 2;

/**
 * Yields every page of a website's sitemaps, sitemap by sitemap as each one
 * is parsed (so in completion order, not tree order), with the same
 * discovery, options and guards as {@linkcode sitemapTreeForHomepage}. Pages
 * are not kept: a site of millions of URLs streams in constant memory. A
 * sitemap the tree would list twice is streamed once. Breaking out of the
 * loop stops the crawl and its workers.
 *
 * @param homepageUrl The site's homepage.
 * @param options As for {@linkcode sitemapTreeForHomepage}.
 * @returns An async iterable of pages.
 * @throws {TypeError} When the homepage is not an http(s) URL or an option has the wrong type (on the first `next()`).
 * @throws {RangeError} When an option is out of range (on the first `next()`).
 *
 * @example Count a site's pages without keeping them
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { streamPages } from "@sitemap/tree";
 *
 * // A site served from memory (leave `fetch` out to use the network).
 * const site = new Map([
 *   ["https://www.example.com/robots.txt", "Sitemap: https://www.example.com/sitemap.xml\n"],
 *   [
 *     "https://www.example.com/sitemap.xml",
 *     `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *       <url><loc>https://www.example.com/a</loc><lastmod>2025-01-31</lastmod></url>
 *       <url><loc>https://www.example.com/b</loc></url>
 *     </urlset>`,
 *   ],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 *
 * let dated = 0;
 * for await (const page of streamPages("https://www.example.com/", { fetch })) {
 *   if (page.lastModified) dated++;
 * }
 * strictEqual(dated, 1);
 * ```
 */
export function streamPages(
  homepageUrl: string | URL,
  options: SitemapTreeOptions = {},
): PageStream {
  return new PageStream(homepageUrl, options, "homepage");
}

/**
 * {@linkcode streamPages} for one sitemap and what is below it, without
 * discovery, as `sitemapTreeForSitemap()` reads it.
 *
 * @param sitemapUrl The sitemap's URL.
 * @param options As for `sitemapTreeForSitemap()`.
 * @returns An async iterable of pages, which also tells which sitemap listed each.
 * @throws {TypeError} When the URL is not an http(s) URL or an option has the wrong type (on the first `next()`).
 * @throws {RangeError} When an option is out of range (on the first `next()`).
 *
 * @example Which sitemap lists each page
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { streamSitemapPages } from "@sitemap/tree";
 *
 * // A site served from memory: one text sitemap, and 404 for anything else.
 * const fetch = (input: RequestInfo | URL): Promise<Response> =>
 *   Promise.resolve(
 *     (input instanceof Request ? input.url : String(input)) === "https://www.example.com/urls.txt"
 *       ? new Response("https://www.example.com/a\nhttps://www.example.com/b\n")
 *       : new Response(null, { status: 404 }),
 *   );
 * const stream = streamSitemapPages("https://www.example.com/urls.txt", { fetch, workers: 0 });
 * const seen: string[] = [];
 * for await (const page of stream) seen.push(`${page.url} in ${stream.sitemapUrl}`);
 * deepStrictEqual(seen, [
 *   "https://www.example.com/a in https://www.example.com/urls.txt",
 *   "https://www.example.com/b in https://www.example.com/urls.txt",
 * ]);
 * strictEqual(stream.stats?.requests, 1);
 * ```
 */
export function streamSitemapPages(
  sitemapUrl: string | URL,
  options: SitemapTreeOptions = {},
): PageStream {
  return new PageStream(sitemapUrl, options, "sitemap");
}

/** A parsed sitemap waiting for the consumer, and whether its columns are its own. */
interface Entry {
  readonly url: string;
  readonly pages: PackedPages;
  readonly owned: boolean;
}

const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

/**
 * The pages of {@linkcode streamPages} and {@linkcode streamSitemapPages}:
 * besides each page, it tells which sitemap listed the page last returned
 * and how many of that sitemap's pages are still to come, and it keeps the
 * call's counters once the crawl is over.
 *
 * It is an async iterator written out
 * rather than an async generator, since a generator's `yield` costs more per
 * page on the consumer's side (bench/README.md#page-iteration). While a
 * sitemap's pages last, `next()` builds the next
 * page and returns it in a settled promise; it waits only between sitemaps.
 * Like a generator, nothing starts before the first `next()`, options are
 * checked there, and `return()` (a `break` out of `for await`) or `throw()`
 * stops the crawl and its workers.
 *
 * @example Where each page came from, and how many of its sitemap's pages are left
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { type PageStream, streamSitemapPages } from "@sitemap/tree";
 *
 * // Two text sitemaps under one index, served from memory.
 * const site = new Map([
 *   [
 *     "https://www.example.com/index.xml",
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
 * const stream: PageStream = streamSitemapPages("https://www.example.com/index.xml", { fetch });
 * const seen: [string, string, number][] = [];
 * for await (const page of stream) {
 *   seen.push([page.url.slice(-1), stream.sitemapUrl.slice(-5), stream.sitemapPagesLeft]);
 * }
 * deepStrictEqual(seen, [["1", "a.txt", 1], ["2", "a.txt", 0], ["3", "b.txt", 0]]);
 * deepStrictEqual(stream.stats?.outcome, "ok");
 * ```
 */
export class PageStream implements AsyncGenerator<SitemapPage, void, undefined> {
  readonly #homepage: string | URL;
  readonly #options: SitemapTreeOptions;
  readonly #from: "homepage" | "sitemap";
  #stats: SitemapTreeStats | null = null;
  #left = 0;
  #started = false;
  #closed = false;
  readonly #queue: Entry[] = [];
  /** The sitemap being read, and its entry. */
  #current: Iterator<SitemapPage, void> | null = null;
  #currentEntry: Entry | null = null;
  #finished = false;
  #failure: { readonly error: unknown } | null = null;
  #wake: (() => void) | null = null;
  /** A `next()` that has to wait, and that later calls queue behind. */
  #waiting: Promise<IteratorResult<SitemapPage, void>> | null = null;
  // Set by #start().
  #stop: AbortController | null = null;
  #slots: Slots | null = null;
  #closePool: (() => void) | null = null;
  #crawl: Promise<void> = Promise.resolve();

  /**
   * A stream that starts on its first `next()` (`streamPages()` and
   * `streamSitemapPages()` make one).
   *
   * @param homepage The homepage, or with `from: "sitemap"` the sitemap's URL.
   * @param options As for `sitemapTreeForHomepage()`.
   * @param from Whether to discover the site's sitemaps or read the one sitemap.
   */
  constructor(homepage: string | URL, options: SitemapTreeOptions, from: "homepage" | "sitemap") {
    this.#homepage = homepage;
    this.#options = options;
    this.#from = from;
  }

  /** The URL of the sitemap that listed the page `next()` returned last ("" before the first). */
  get sitemapUrl(): string {
    return this.#currentEntry?.url ?? "";
  }

  /** The call's counters once the stream has ended (null before, or when it was closed early). */
  get stats(): SitemapTreeStats | null {
    return this.#stats;
  }

  /**
   * The stream is its own iterator, read once.
   *
   * @returns The stream.
   */
  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Pages of the current sitemap not yet returned: 0 after its last one. */
  get sitemapPagesLeft(): number {
    return this.#left;
  }

  /**
   * The next page; the first call checks the options and starts the crawl.
   *
   * @returns The next page, or the end once every sitemap is read.
   */
  next(): Promise<IteratorResult<SitemapPage, void>> {
    if (this.#waiting === null && this.#current !== null) {
      const result = this.#current.next();
      if (result.done !== true) {
        this.#left--;
        return Promise.resolve(result);
      }
    }
    const previous = this.#waiting;
    const run = previous === null ? this.#read() : previous.then(() => this.#read());
    this.#waiting = run;
    const clear = (): void => {
      if (this.#waiting === run) this.#waiting = null;
    };
    run.then(clear, clear);
    return run;
  }

  /**
   * Stops the crawl and its workers (what a `break` out of `for await` calls).
   *
   * @returns The end, once the crawl has wound down.
   */
  async return(): Promise<IteratorResult<SitemapPage, void>> {
    await this.#close();
    return DONE;
  }

  /**
   * Stops the crawl and its workers, then throws `error`.
   *
   * @param error What to throw.
   * @returns Never: it rejects with `error`.
   */
  async throw(error: unknown): Promise<IteratorResult<SitemapPage, void>> {
    await this.#close();
    throw error;
  }

  /** Stops the crawl and its workers (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#close();
  }

  /** The next page once one is there, or the end. */
  async #read(): Promise<IteratorResult<SitemapPage, void>> {
    if (this.#closed) return DONE;
    if (!this.#started) this.#start();
    for (;;) {
      if (this.#current !== null) {
        const result = this.#current.next();
        if (result.done !== true) {
          this.#left--;
          return result;
        }
        this.#endCurrent();
      }
      const entry = this.#queue.shift();
      if (entry !== undefined) {
        this.#slots!.release();
        this.#current = iteratePages([entry.pages]);
        this.#left = entry.pages.count;
        this.#currentEntry = entry;
        continue;
      }
      if (this.#finished || this.#closed) {
        const failure = this.#failure;
        await this.#close();
        if (failure !== null) throw failure.error;
        return DONE;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Checks the options and starts the crawl; throws for bad options, as the first `next()` should. */
  #start(): void {
    this.#started = true;
    let resolved: ReturnType<typeof resolveOptions>;
    try {
      const start = this.#from === "sitemap" ? checkSitemapUrl(this.#homepage) : this.#homepage;
      const options = this.#from === "sitemap"
        ? { ...this.#options, normalizeHomepageUrl: true }
        : this.#options;
      resolved = resolveOptions(start, options, defaultWorkerCount());
      resolved.signal?.throwIfAborted();
    } catch (error) {
      this.#closed = true;
      throw error;
    }
    const stop = this.#stop = new AbortController();
    const signal = resolved.signal === null
      ? stop.signal
      : AbortSignal.any([resolved.signal, stop.signal]);
    const { pool, own } = poolForCall(resolved);
    this.#closePool = own ? () => pool.close() : null;
    // Documents downloaded and not yet consumed (in flight, parsing, or queued
    // here): the crawl downloads no more than this ahead of the consumer.
    const slots = this.#slots = new Slots(resolved.concurrency + QUEUE_LIMIT);
    const sink: PagesSink = {
      acquire: (signal) => slots.acquire(signal),
      release: () => slots.release(),
      push: (url: string, _format: string, pages: PackedPages, owned: boolean): void => {
        this.#queue.push({ url, pages, owned });
        this.#notify();
      },
    };
    const crawler = new Crawler({ ...resolved, signal }, pool, sink);
    const crawl = this.#from === "sitemap"
      ? crawler.crawlSitemap(checkSitemapUrl(this.#homepage).href).then((done) => done.stats)
      : crawler.crawlWebsite().then((tree) => tree.stats);
    this.#crawl = crawl.then(
      (stats) => {
        this.#stats = stats;
        this.#finished = true;
        this.#notify();
      },
      (error: unknown) => {
        this.#finished = true;
        this.#failure = { error };
        this.#notify();
      },
    );
  }

  #notify(): void {
    this.#wake?.();
    this.#wake = null;
  }

  /** Done with the sitemap being read: its columns are freed when they are its own. */
  #endCurrent(): void {
    const entry = this.#currentEntry;
    this.#current = null;
    this.#currentEntry = null;
    if (entry?.owned !== true) return;
    // Freed now rather than at this thread's next collection, which a small
    // heap makes rare (bench/README.md#memory-freed-early): the pages yielded
    // hold strings and numbers, not views of these columns.
    detachPackedPages(entry.pages);
  }

  /** Stops the crawl and its workers, and waits for it to wind down. */
  async #close(): Promise<void> {
    if (this.#closed && this.#stop === null) return;
    this.#closed = true;
    this.#endCurrent();
    this.#queue.length = 0;
    const stop = this.#stop;
    this.#stop = null;
    if (stop !== null) {
      stop.abort(new DOMException("streamPages() was closed", "AbortError"));
      this.#closePool?.();
      this.#notify();
    }
    await this.#crawl;
  }
}
