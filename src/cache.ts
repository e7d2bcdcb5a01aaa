/**
 * The stores behind incremental crawls: where `sitemapTreeForHomepage()`
 * keeps one entry per sitemap URL between calls ({@linkcode SitemapCache}),
 * in memory or in a directory.
 *
 * An entry holds the response's `ETag` and `Last-Modified`, when it was
 * fetched, where it ended up after redirects, and the unfiltered parse
 * result in its compact column form; the next call sends `If-None-Match` /
 * `If-Modified-Since`, and a `304 Not Modified` reuses the stored result
 * without downloading or parsing. The stores keep opaque bytes: the entry's
 * binary form, and every check on the way back in, live in `_cache_entry.ts`.
 *
 * @module
 */
import { replaceFile, runtime } from "./runtime/mod.ts";

/**
 * Where `sitemapTreeForHomepage()` keeps one entry per sitemap URL between
 * calls. Values are opaque bytes the library writes and checks itself, so a
 * store only has to keep them: a `Map`, files, a key-value database.
 *
 * Both methods may be synchronous or return promises. A `get` that throws or
 * rejects counts as a miss; a `set` that throws or rejects is reported in
 * `stats.cacheErrors`. Neither fails the crawl.
 *
 * @example A store over a Map
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import type { SitemapCache } from "@sitemap/tree";
 *
 * const map = new Map<string, Uint8Array>();
 * const cache: SitemapCache = {
 *   get: (url) => map.get(url) ?? null,
 *   set: (url, entry) => void map.set(url, entry),
 * };
 * await cache.set("https://www.example.com/sitemap.xml", new Uint8Array([1, 2, 3]));
 * strictEqual((await cache.get("https://www.example.com/sitemap.xml"))?.length, 3);
 * ```
 */
export interface SitemapCache {
  /**
   * The entry last stored for `url`, or null (or undefined) when there is none.
   *
   * @param url The sitemap's URL as requested, WHATWG-normalised, without fragment.
   */
  get(url: string): Uint8Array | null | undefined | Promise<Uint8Array | null | undefined>;
  /**
   * Stores the entry for `url`, replacing any earlier one.
   *
   * @param url The sitemap's URL as requested, WHATWG-normalised, without fragment.
   * @param entry The bytes to keep; the library does not touch them afterwards.
   */
  set(url: string, entry: Uint8Array): void | Promise<void>;
}

/**
 * A {@linkcode SitemapCache} in memory, for repeated calls in one process.
 *
 * @example Two calls, the second one cheap
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { MemorySitemapCache, sitemapTreeForSitemapWithStats } from "@sitemap/tree";
 *
 * // One text sitemap served from memory with an ETag, answering 304 when it is sent back.
 * const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
 *   const url = input instanceof Request ? input.url : String(input);
 *   if (url !== "https://www.example.com/sitemap.txt") {
 *     return Promise.resolve(new Response(null, { status: 404 }));
 *   }
 *   return Promise.resolve(
 *     new Headers(init?.headers).get("if-none-match") === '"v1"'
 *       ? new Response(null, { status: 304 })
 *       : new Response("https://www.example.com/a\n", { headers: { etag: '"v1"' } }),
 *   );
 * };
 *
 * const cache = new MemorySitemapCache();
 * const url = "https://www.example.com/sitemap.txt";
 * const first = await sitemapTreeForSitemapWithStats(url, { fetch, cache });
 * const again = await sitemapTreeForSitemapWithStats(url, { fetch, cache });
 * // The second call sent the ETag back, got 304 and reused the parse.
 * deepStrictEqual([first.stats.notModified, again.stats.notModified], [0, 1]);
 * deepStrictEqual(again.root.pages.map((page) => page.url), ["https://www.example.com/a"]);
 * ```
 */
export class MemorySitemapCache implements SitemapCache {
  readonly #entries = new Map<string, Uint8Array>();

  /**
   * The entry stored for `url`.
   *
   * @param url The sitemap URL.
   * @returns The entry's bytes, or null.
   */
  get(url: string): Uint8Array | null {
    return this.#entries.get(url) ?? null;
  }

  /**
   * Stores the entry for `url`.
   *
   * @param url The sitemap URL.
   * @param entry The entry's bytes.
   */
  set(url: string, entry: Uint8Array): void {
    this.#entries.set(url, entry);
  }

  /** How many entries the cache holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }
}

/**
 * A {@linkcode SitemapCache} in one directory, one file per sitemap URL (named
 * by a hash of the URL), for crawls that run again in another process.
 *
 * A write goes to a temporary file in the same directory, which is then
 * renamed over the entry: a reader sees the old entry or the new one, never
 * half of one, even if the process is killed mid-write (a killed write can
 * leave a `*.tmp` file behind; it is never read). The directory is created on
 * the first write. Under Deno it needs `--allow-read` and `--allow-write` for
 * the directory.
 *
 * @example Keep the cache between runs
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { FileSitemapCache, sitemapTreeForSitemapWithStats } from "@sitemap/tree";
 *
 * // One text sitemap served from memory with an ETag, answering 304 when it is sent back.
 * const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
 *   const url = input instanceof Request ? input.url : String(input);
 *   if (url !== "https://www.example.com/sitemap.txt") {
 *     return Promise.resolve(new Response(null, { status: 404 }));
 *   }
 *   return Promise.resolve(
 *     new Headers(init?.headers).get("if-none-match") === '"v1"'
 *       ? new Response(null, { status: 304 })
 *       : new Response("https://www.example.com/a\n", { headers: { etag: '"v1"' } }),
 *   );
 * };
 *
 * const directory = mkdtempSync(join(tmpdir(), "sitemap-cache-"));
 * const url = "https://www.example.com/sitemap.txt";
 * await sitemapTreeForSitemapWithStats(url, { fetch, cache: new FileSitemapCache(directory) });
 * // A later run (another process, say) finds the entry in the directory.
 * const later = new FileSitemapCache(directory);
 * const { stats } = await sitemapTreeForSitemapWithStats(url, { fetch, cache: later });
 * deepStrictEqual([stats.notModified, stats.requests], [1, 1]);
 * rmSync(directory, { recursive: true });
 * ```
 */
export class FileSitemapCache implements SitemapCache {
  /** The directory holding the entries. */
  readonly directory: string;
  #made: Promise<unknown> | null = null;

  /**
   * A store in `directory`; nothing touches the disk until the first read or write.
   *
   * @param directory Where the entries live; created when first written.
   * @throws {TypeError} When `directory` is not a non-empty string.
   */
  constructor(directory: string) {
    if (typeof directory !== "string" || directory === "") {
      throw new TypeError(
        `FileSitemapCache needs a directory path, got ${JSON.stringify(directory)}`,
      );
    }
    this.directory = directory;
  }

  /**
   * Reads the entry for `url`.
   *
   * @param url The sitemap URL.
   * @returns The entry's bytes, or null when there is no file for it.
   * @throws When the file exists but cannot be read (e.g. no permission).
   */
  async get(url: string): Promise<Uint8Array | null> {
    const { readFile } = await runtime.loadFileSystem();
    try {
      return await readFile(await this.#path(url));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return null;
      throw error;
    }
  }

  /**
   * Writes the entry for `url` to a temporary file, then renames it into place.
   *
   * @param url The sitemap URL.
   * @param entry The entry's bytes.
   * @throws When the directory or file cannot be written.
   */
  async set(url: string, entry: Uint8Array): Promise<void> {
    const { mkdir } = await runtime.loadFileSystem();
    this.#made ??= mkdir(this.directory, { recursive: true });
    await this.#made;
    await replaceFile(await this.#path(url), entry);
  }

  async #path(url: string): Promise<string> {
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url)),
    );
    let name = "";
    for (let i = 0; i < 16; i++) name += digest[i]!.toString(16).padStart(2, "0");
    const separator = this.directory.endsWith("/") || this.directory.endsWith("\\") ? "" : "/";
    return `${this.directory}${separator}${name}.sitemap-cache`;
  }
}
