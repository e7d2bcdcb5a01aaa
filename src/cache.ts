/**
 * The cache behind incremental crawls: what `sitemapTreeForHomepage()` keeps
 * per sitemap URL between calls, and the two stores that keep it.
 *
 * An entry holds the response's `ETag` and `Last-Modified`, when it was
 * fetched, where it ended up after redirects, and the parse result in its
 * compact column form (the typed arrays of `PackedPages`, stored as binary, not
 * page objects). The next call sends `If-None-Match` / `If-Modified-Since`;
 * a `304 Not Modified` reuses the stored result without downloading or parsing.
 *
 * The stored result is always the unfiltered parse: `since` is applied when an
 * entry is reused, so one cache serves calls with any `since`, or none.
 *
 * Entries are binary (see {@linkcode encodeCacheEntry}): a magic number, a
 * format version, a checksum over the rest, a small JSON header and the page
 * columns 8-byte aligned, so reading one back costs a checksum pass and typed
 * array views, no parse. A store may lose, truncate or garble entries (a
 * process killed mid-write, a disk filled, another program's file): every
 * entry is checked on the way in, and a bad one is ignored and reported in
 * `stats.cacheErrors`, never thrown.
 *
 * @module
 */
import { checksum } from "./_checksum.ts";
import { extrasEntries, packExtras } from "./parse/_extras.ts";
import { urlByteLength, utf8Offset } from "./parse/_url_bytes.ts";
import type {
  IndexEntry,
  PackedExtras,
  PackedPages,
  PageExtrasData,
  PagesFormat,
  ParseResult,
} from "./parse/_result.ts";

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
 * import type { SitemapCache } from "./cache.ts";
 *
 * const map = new Map<string, Uint8Array>();
 * const cache: SitemapCache = {
 *   get: (url) => map.get(url) ?? null,
 *   set: (url, entry) => void map.set(url, entry),
 * };
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
 * ```ts ignore
 * import { MemorySitemapCache, sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * const cache = new MemorySitemapCache();
 * await sitemapTreeForHomepage("https://www.example.com/", { cache });
 * const again = await sitemapTreeForHomepage("https://www.example.com/", { cache });
 * console.log(again.stats.notModified);
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
 * ```ts ignore
 * import { FileSitemapCache, sitemapTreeForHomepage } from "@sitemap/tree";
 *
 * const cache = new FileSitemapCache(".sitemap-cache");
 * const tree = await sitemapTreeForHomepage("https://www.example.com/", { cache });
 * console.log(tree.stats.notModified, "sitemaps unchanged since the last run");
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
    const { readFile } = await import("node:fs/promises");
    try {
      const data = await readFile(await this.#path(url));
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
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
    const { mkdir, rename, rm, writeFile } = await import("node:fs/promises");
    this.#made ??= mkdir(this.directory, { recursive: true });
    await this.#made;
    const path = await this.#path(url);
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await writeFile(temporary, entry);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
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

/** What the crawler keeps per sitemap URL. */
export interface CacheEntry {
  /** The URL as requested (the store's key), normalised. */
  readonly url: string;
  /** Where the response came from after redirects. */
  readonly finalUrl: string;
  /** The response's `ETag`, or null. */
  readonly etag: string | null;
  /** The response's `Last-Modified`, as sent, or null. */
  readonly lastModified: string | null;
  /** When the body was downloaded (epoch ms): the stored content is as of then. */
  readonly fetchedAt: number;
  /** The response's status (2xx). */
  readonly status: number;
  /** Whether the request was redirected. */
  readonly redirected: boolean;
  /** Bytes downloaded (compressed, if the server compressed). */
  readonly downloadedBytes: number;
  /** Size of the document after decompression. */
  readonly decompressedBytes: number;
  /** The unfiltered parse (never `invalid`). */
  readonly result: Exclude<ParseResult, { kind: "invalid" }>;
}

const MAGIC = [0x53, 0x4d, 0x54, 0x52, 0x45, 0x45, 0x43, 0x31]; // "SMTREEC1"
/** Bumped whenever the layout or the meaning of a field changes; other versions are ignored. */
const VERSION = 1;
/** magic (8) + version (4) + header length (4) + checksum (4) + total length (4). */
const PREFIX_BYTES = 24;
const PAGES_FORMATS: readonly PagesFormat[] = ["urlset", "text", "rss", "atom"];

/** The JSON header: the entry but its result, then what the result needs beside its columns. */
interface Header extends Omit<CacheEntry, "result"> {
  readonly kind: "pages" | "index";
  readonly format: string;
  readonly warning: string | null;
  /** Pages: */
  readonly count?: number;
  readonly found?: number;
  readonly urlByteLength?: number;
  readonly extras?: string;
  /** Index: each child as `[url, lastmod epoch ms or null]`. */
  readonly children?: readonly (readonly [string, number | null])[];
}

function pad8(n: number): number {
  return (n + 7) & ~7;
}

/**
 * Serialises an entry: 24 bytes of prefix (magic `SMTREEC1`, version, header
 * length, checksum, total length), a UTF-8 JSON header padded to 8 bytes, then
 * for pages the columns `urlEnds` (u32), `lastModified` and `priority` (f64),
 * `changeFrequency` (u8) and the URL bytes, each starting 8-byte aligned,
 * little-endian.
 *
 * @param entry The entry.
 * @returns Its bytes, in a buffer of their own.
 *
 * @example Round trip
 * ```ts
 * import { decodeCacheEntry, encodeCacheEntry } from "./cache.ts";
 *
 * const bytes = encodeCacheEntry({
 *   url: "https://example.com/robots.txt", finalUrl: "https://example.com/robots.txt",
 *   etag: '"v1"', lastModified: null, fetchedAt: 0, status: 200, redirected: false,
 *   downloadedBytes: 40, decompressedBytes: 40,
 *   result: { kind: "index", format: "robots", children: [], warning: null },
 * });
 * const entry = decodeCacheEntry(bytes, "https://example.com/robots.txt");
 * ```
 */
export function encodeCacheEntry(entry: CacheEntry): Uint8Array {
  const r = entry.result;
  const base = {
    url: entry.url,
    finalUrl: entry.finalUrl,
    etag: entry.etag,
    lastModified: entry.lastModified,
    fetchedAt: entry.fetchedAt,
    status: entry.status,
    redirected: entry.redirected,
    downloadedBytes: entry.downloadedBytes,
    decompressedBytes: entry.decompressedBytes,
    kind: r.kind,
    format: r.format,
    warning: r.warning,
  };
  const header: Header = r.kind === "pages"
    ? {
      ...base,
      count: r.pages.count,
      found: r.found,
      urlByteLength: urlByteLength(r.pages),
      // The extras keep the JSON form of format version 1: [pageIndex, extras][].
      extras: r.pages.extras === null ? "" : JSON.stringify(extrasEntries(r.pages.extras)),
    }
    : {
      ...base,
      children: r.children.map((c) =>
        [c.url, Number.isNaN(c.lastModified) ? null : c.lastModified] as const
      ),
    };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const headerEnd = PREFIX_BYTES + pad8(headerBytes.byteLength);
  const layout = r.kind === "pages"
    ? columnLayout(headerEnd, r.pages.count, header.urlByteLength!)
    : null;
  const total = layout === null ? headerEnd : layout.end;
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, VERSION, true);
  view.setUint32(12, headerBytes.byteLength, true);
  view.setUint32(20, total, true);
  out.set(headerBytes, PREFIX_BYTES);
  if (layout !== null && r.kind === "pages") {
    const p = r.pages;
    const n = p.count;
    new Uint32Array(out.buffer, layout.urlEnds, n).set(p.urlEnds.subarray(0, n));
    new Float64Array(out.buffer, layout.lastModified, n).set(p.lastModified.subarray(0, n));
    new Float64Array(out.buffer, layout.priority, n).set(p.priority.subarray(0, n));
    out.set(p.changeFrequency.subarray(0, n), layout.changeFrequency);
    out.set(p.urlBytes.subarray(0, header.urlByteLength!), layout.urlBytes);
  }
  view.setUint32(16, checksum(out, PREFIX_BYTES), true);
  return out;
}

/** Where each column starts; every offset is 8-byte aligned. */
function columnLayout(start: number, count: number, urlBytes: number): {
  urlEnds: number;
  lastModified: number;
  priority: number;
  changeFrequency: number;
  urlBytes: number;
  end: number;
} {
  const urlEnds = start;
  const lastModified = urlEnds + pad8(count * 4);
  const priority = lastModified + count * 8;
  const changeFrequency = priority + count * 8;
  const urlBytesAt = changeFrequency + pad8(count);
  return {
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    urlBytes: urlBytesAt,
    end: urlBytesAt + pad8(urlBytes),
  };
}

/**
 * Reads an entry back, checking everything: magic, version, lengths,
 * checksum, header fields, that the entry belongs to `url`, and the columns.
 * The page columns are views into `bytes` when it is 8-byte aligned (one
 * copy otherwise), so the caller must not change `bytes` afterwards.
 *
 * @param bytes What the store returned.
 * @param url The key it was stored under; an entry for another URL is refused.
 * @returns The entry, or a sentence saying why it cannot be used.
 *
 * @example A foreign file is refused
 * ```ts
 * import { decodeCacheEntry } from "./cache.ts";
 *
 * decodeCacheEntry(new TextEncoder().encode("hello"), "https://example.com/sitemap.xml");
 * // "Not a sitemap cache entry (5 bytes, no SMTREEC1 header)"
 * ```
 */
export function decodeCacheEntry(bytes: Uint8Array, url: string): CacheEntry | string {
  if (!(bytes instanceof Uint8Array)) {
    return `Not a sitemap cache entry (the store returned ${typeof bytes}, not bytes)`;
  }
  if (bytes.byteLength < PREFIX_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) {
    return `Not a sitemap cache entry (${bytes.byteLength} bytes, no SMTREEC1 header)`;
  }
  // A copy, not `slice()`: a Node Buffer (what a Redis client returns) answers that with a view.
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== VERSION) {
    return `Cache entry has format version ${version}, this library reads version ${VERSION}`;
  }
  const total = view.getUint32(20, true);
  if (bytes.byteLength !== total) {
    return `Cache entry is truncated or padded: ${bytes.byteLength} bytes, its header says ${total}`;
  }
  if ((total - PREFIX_BYTES) % 8 !== 0) return `Cache entry has a bad length: ${total} bytes`;
  if (checksum(bytes, PREFIX_BYTES) !== view.getUint32(16, true)) {
    return "Cache entry is corrupt: checksum mismatch";
  }
  const headerLength = view.getUint32(12, true);
  const headerEnd = PREFIX_BYTES + pad8(headerLength);
  if (headerEnd > total) return "Cache entry is corrupt: header runs past the end";
  let header: Header;
  try {
    header = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength),
      ),
    );
  } catch {
    return "Cache entry is corrupt: unreadable header";
  }
  const problem = checkHeader(header);
  if (problem !== null) return `Cache entry is corrupt: ${problem}`;
  if (header.url !== url) {
    return `Cache entry belongs to ${header.url}, not ${url}`;
  }
  const common = {
    url: header.url,
    finalUrl: header.finalUrl,
    etag: header.etag,
    lastModified: header.lastModified,
    fetchedAt: header.fetchedAt,
    status: header.status,
    redirected: header.redirected,
    downloadedBytes: header.downloadedBytes,
    decompressedBytes: header.decompressedBytes,
  };
  if (header.kind === "index") {
    if (headerEnd !== total) return "Cache entry is corrupt: bytes after an index entry";
    const children: IndexEntry[] = header.children!.map(([childUrl, lastModified]) => ({
      url: childUrl,
      lastModified: lastModified ?? NaN,
    }));
    return {
      ...common,
      result: {
        kind: "index",
        format: header.format as "index" | "robots",
        children,
        warning: header.warning,
      },
    };
  }
  const count = header.count!;
  let extras: PackedExtras | null;
  try {
    extras = header.extras === "" ? null : packExtras(JSON.parse(header.extras!), count);
  } catch (e) {
    return `Cache entry is corrupt: unreadable extras (${e instanceof Error ? e.message : e})`;
  }
  const layout = columnLayout(headerEnd, count, header.urlByteLength!);
  if (layout.end !== total) {
    return `Cache entry is corrupt: ${count} pages need ${layout.end} bytes, the entry has ${total}`;
  }
  const buffer = bytes.buffer;
  const at = bytes.byteOffset;
  const pages: PackedPages = {
    count,
    urlBytes: new Uint8Array(buffer, at + layout.urlBytes, header.urlByteLength!),
    urlEnds: new Uint32Array(buffer, at + layout.urlEnds, count),
    lastModified: new Float64Array(buffer, at + layout.lastModified, count),
    priority: new Float64Array(buffer, at + layout.priority, count),
    changeFrequency: new Uint8Array(buffer, at + layout.changeFrequency, count),
    extras,
  };
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const end = pages.urlEnds[i]!;
    if (end < previous || end > pages.urlBytes.length) {
      return `Cache entry is corrupt: URL offsets out of order at page ${i}`;
    }
    previous = end;
  }
  return {
    ...common,
    result: {
      kind: "pages",
      format: header.format as PagesFormat,
      pages,
      found: header.found!,
      warning: header.warning,
    },
  };
}

function checkHeader(h: Header): string | null {
  if (typeof h !== "object" || h === null) return "header is not an object";
  const strings = ["url", "finalUrl"] as const;
  for (const key of strings) if (typeof h[key] !== "string") return `"${key}" is not a string`;
  for (const key of ["etag", "lastModified", "warning"] as const) {
    if (h[key] !== null && typeof h[key] !== "string") return `"${key}" is not a string or null`;
  }
  for (const key of ["fetchedAt", "status", "downloadedBytes", "decompressedBytes"] as const) {
    if (typeof h[key] !== "number" || !Number.isFinite(h[key])) return `"${key}" is not a number`;
  }
  if (typeof h.redirected !== "boolean") return `"redirected" is not a boolean`;
  if (h.kind === "index") {
    if (h.format !== "index" && h.format !== "robots") return `unknown index format ${h.format}`;
    if (
      !Array.isArray(h.children) ||
      !h.children.every((c) =>
        Array.isArray(c) && typeof c[0] === "string" &&
        (c[1] === null || typeof c[1] === "number")
      )
    ) return `"children" is not a list of [url, lastmod]`;
    return null;
  }
  if (h.kind !== "pages") return `unknown kind ${JSON.stringify(h.kind)}`;
  if (!PAGES_FORMATS.includes(h.format as PagesFormat)) return `unknown pages format ${h.format}`;
  for (const key of ["count", "found", "urlByteLength"] as const) {
    const value = h[key];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      return `"${key}" is not a count`;
    }
  }
  if (typeof h.extras !== "string") return `"extras" is not a string`;
  return null;
}

/**
 * The pages whose lastmod is at or after `since`, or who have none: the
 * filter the parser applies, run over stored columns. Returns `pages` itself
 * when every page stays.
 *
 * @param pages The columns to filter.
 * @param since Epoch ms; NaN keeps everything.
 * @returns The kept pages in new buffers (or `pages`).
 *
 * @example Keep pages changed in 2025
 * ```ts
 * import { filterPagesSince } from "./cache.ts";
 *
 * const pages = {
 *   count: 2,
 *   urlBytes: new TextEncoder().encode("https://a.test/1https://a.test/2"),
 *   urlEnds: new Uint32Array([16, 32]),
 *   lastModified: new Float64Array([Date.UTC(2024, 0, 1), Date.UTC(2025, 5, 1)]),
 *   priority: new Float64Array([0.5, 0.5]),
 *   changeFrequency: new Uint8Array(2),
 *   extras: null,
 * };
 * filterPagesSince(pages, Date.UTC(2025, 0, 1)).count; // 1
 * ```
 */
export function filterPagesSince(pages: PackedPages, since: number): PackedPages {
  if (Number.isNaN(since)) return pages;
  const n = pages.count;
  const lastModified = pages.lastModified;
  let kept = 0;
  for (let i = 0; i < n; i++) if (!(lastModified[i]! < since)) kept++;
  if (kept === n) return pages;
  const ends = pages.urlEnds;
  const src = pages.urlBytes;
  const totalUnits = n === 0 ? 0 : ends[n - 1]!;
  const ascii = urlByteLength(pages) === totalUnits;
  const urlEnds = new Uint32Array(kept);
  const keptLastModified = new Float64Array(kept);
  const priority = new Float64Array(kept);
  const changeFrequency = new Uint8Array(kept);
  const keptIndex = new Int32Array(n).fill(-1);
  // First pass sizes the URL bytes, second copies them.
  let byte = 0;
  let unit = 0;
  let bytesKept = 0;
  const starts = new Uint32Array(kept + 1);
  const byteEnds = new Uint32Array(kept);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const endUnit = ends[i]!;
    const endByte = ascii ? endUnit : utf8Offset(src, byte, unit, endUnit);
    if (!(lastModified[i]! < since)) {
      starts[k] = byte;
      byteEnds[k] = endByte;
      bytesKept += endByte - byte;
      keptIndex[i] = k;
      k++;
    }
    byte = endByte;
    unit = endUnit;
  }
  const urlBytes = new Uint8Array(bytesKept);
  let out = 0;
  let outUnits = 0;
  unit = 0;
  k = 0;
  for (let i = 0; i < n; i++) {
    const endUnit = ends[i]!;
    const j = keptIndex[i]!;
    if (j >= 0) {
      urlBytes.set(src.subarray(starts[j]!, byteEnds[j]!), out);
      out += byteEnds[j]! - starts[j]!;
      outUnits += endUnit - unit;
      urlEnds[j] = outUnits;
      keptLastModified[j] = lastModified[i]!;
      priority[j] = pages.priority[i]!;
      changeFrequency[j] = pages.changeFrequency[i]!;
    }
    unit = endUnit;
  }
  let extras: PackedExtras | null = null;
  if (pages.extras !== null) {
    const keptExtras: [number, PageExtrasData][] = [];
    for (const [index, data] of extrasEntries(pages.extras)) {
      const j = keptIndex[index];
      if (j !== undefined && j >= 0) keptExtras.push([j, data]);
    }
    extras = packExtras(keptExtras, kept);
  }
  return {
    count: kept,
    urlBytes,
    urlEnds,
    lastModified: keptLastModified,
    priority,
    changeFrequency,
    extras,
  };
}
