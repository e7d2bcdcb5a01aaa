/**
 * The binary form of a cache entry (see `cache.ts` for the stores): what the
 * crawler keeps per sitemap URL, written by the parse worker and read back
 * by the crawler.
 *
 * The stored result is always the unfiltered parse: `since` is applied when
 * an entry is reused, so one cache serves calls with any `since`, or none.
 *
 * An entry is a magic number, a format version, a checksum over the rest, a
 * small JSON header and the page columns 8-byte aligned, so reading one back
 * costs a checksum pass and typed array views, no parse. A store may lose,
 * truncate or garble entries (a process killed mid-write, a disk filled,
 * another program's file): every entry is checked on the way in, and a bad
 * one is refused with a sentence saying why, never thrown.
 *
 * @module
 */
import { checksum } from "./_checksum.ts";
import { errorMessage } from "./_error_message.ts";
import { extrasEntries, packExtras } from "./parse/_extras.ts";
import { urlByteLength } from "./parse/_url_bytes.ts";
import type {
  IndexEntry,
  KeptCodec,
  KeptExtras,
  PackedExtras,
  PackedPages,
  PagesFormat,
  ParseResult,
} from "./parse/_result.ts";

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
/** 2: kept extensions are stored as bytes after the URL bytes. */
const VERSION = 2;
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
  /** Kept extensions (their byte columns follow the URL bytes), when `extras` is "". */
  readonly kept?: KeptHeader;
  /** Index: each child as `[url, lastmod epoch ms or null]`. */
  readonly children?: readonly (readonly [string, number | null])[];
  /** robots.txt: its text, whose rules the tree keeps. */
  readonly robotsText?: string;
}

/** What a kept-extensions column set needs beside its bytes. */
interface KeptHeader {
  readonly codec: KeptCodec;
  readonly size: number;
  readonly base: string;
  readonly rootLength: number;
  readonly dataLength: number;
}

const KEPT_CODECS: readonly KeptCodec[] = ["none", "deflate-raw", "gzip"];

function pad8(n: number): number {
  return (n + 7) & ~7;
}

/**
 * Serialises an entry: 24 bytes of prefix (magic `SMTREEC1`, version, header
 * length, checksum, total length), a UTF-8 JSON header padded to 8 bytes, then
 * for pages the columns `urlEnds` (u32), `lastModified` and `priority` (f64),
 * `changeFrequency` (u8) and the URL bytes, then, when the extensions are
 * kept as bytes, the root tag, the kept bytes, `pageStarts` and `spanAt`
 * (u32), each starting 8-byte aligned, little-endian.
 *
 * @param entry The entry.
 * @returns Its bytes, in a buffer of their own.
 *
 * @example Round trip
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { type CacheEntry, decodeCacheEntry, encodeCacheEntry } from "./_cache_entry.ts";
 *
 * const entry: CacheEntry = {
 *   url: "https://example.com/robots.txt", finalUrl: "https://example.com/robots.txt",
 *   etag: '"v1"', lastModified: null, fetchedAt: 0, status: 200, redirected: false,
 *   downloadedBytes: 40, decompressedBytes: 40,
 *   result: {
 *     kind: "index", format: "robots", children: [], warning: null,
 *     robotsText: "User-agent: *\nDisallow: /private/\n",
 *   },
 * };
 * const bytes = encodeCacheEntry(entry);
 * deepStrictEqual(decodeCacheEntry(bytes, "https://example.com/robots.txt"), entry);
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
      // Encoded extras keep the JSON form of format version 1: [pageIndex, extras][].
      extras: r.pages.extras === null || r.pages.extras.kind === "kept"
        ? ""
        : JSON.stringify(extrasEntries(r.pages.extras)),
      ...(r.pages.extras?.kind === "kept" ? { kept: keptHeader(r.pages.extras) } : {}),
    }
    : {
      ...base,
      children: r.children.map((c) =>
        [c.url, Number.isNaN(c.lastModified) ? null : c.lastModified] as const
      ),
      ...(r.robotsText === undefined ? {} : { robotsText: r.robotsText }),
    };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const headerEnd = PREFIX_BYTES + pad8(headerBytes.byteLength);
  const layout = r.kind === "pages"
    ? columnLayout(headerEnd, r.pages.count, header.urlByteLength!, header.kept)
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
    const x = p.extras;
    if (x !== null && x.kind === "kept") {
      out.set(x.root, layout.keptRoot);
      out.set(x.data, layout.keptData);
      new Uint32Array(out.buffer, layout.keptStarts, n + 1).set(x.pageStarts.subarray(0, n + 1));
      new Uint32Array(out.buffer, layout.keptAt, n).set(x.spanAt.subarray(0, n));
    }
  }
  view.setUint32(16, checksum(out, PREFIX_BYTES), true);
  return out;
}

/** Where each column starts; every offset is 8-byte aligned. */
function keptHeader(x: KeptExtras): KeptHeader {
  return {
    codec: x.codec,
    size: x.size,
    base: x.base,
    rootLength: x.root.length,
    dataLength: x.data.length,
  };
}

function columnLayout(start: number, count: number, urlBytes: number, kept?: KeptHeader): {
  urlEnds: number;
  lastModified: number;
  priority: number;
  changeFrequency: number;
  urlBytes: number;
  keptRoot: number;
  keptData: number;
  keptStarts: number;
  keptAt: number;
  end: number;
} {
  const urlEnds = start;
  const lastModified = urlEnds + pad8(count * 4);
  const priority = lastModified + count * 8;
  const changeFrequency = priority + count * 8;
  const urlBytesAt = changeFrequency + pad8(count);
  // Without kept extensions their columns take no bytes.
  const keptRoot = urlBytesAt + pad8(urlBytes);
  const keptData = keptRoot + pad8(kept?.rootLength ?? 0);
  const keptStarts = keptData + pad8(kept?.dataLength ?? 0);
  const keptAt = keptStarts + (kept === undefined ? 0 : pad8((count + 1) * 4));
  return {
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    urlBytes: urlBytesAt,
    keptRoot,
    keptData,
    keptStarts,
    keptAt,
    end: keptAt + (kept === undefined ? 0 : pad8(count * 4)),
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
 * import { strictEqual } from "node:assert/strict";
 * import { decodeCacheEntry } from "./_cache_entry.ts";
 *
 * strictEqual(
 *   decodeCacheEntry(new TextEncoder().encode("hello"), "https://example.com/sitemap.xml"),
 *   "Not a sitemap cache entry (5 bytes, no SMTREEC1 header)",
 * );
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
  const frame = readFrame(bytes);
  if (typeof frame === "string") return frame;
  const header = readHeader(bytes, frame);
  if (typeof header === "string") return header;
  if (header.url !== url) {
    return `Cache entry belongs to ${header.url}, not ${url}`;
  }
  const result = header.kind === "index"
    ? indexResult(header, frame)
    : pagesResult(bytes, header, frame);
  if (typeof result === "string") return result;
  return {
    url: header.url,
    finalUrl: header.finalUrl,
    etag: header.etag,
    lastModified: header.lastModified,
    fetchedAt: header.fetchedAt,
    status: header.status,
    redirected: header.redirected,
    downloadedBytes: header.downloadedBytes,
    decompressedBytes: header.decompressedBytes,
    result,
  };
}

/** Where an entry's parts lie, read from its prefix. */
interface Frame {
  /** The whole entry's length. */
  readonly total: number;
  /** The JSON header's length, without its padding. */
  readonly headerLength: number;
  /** Where the header's padding ends: the first column, or the end of an index entry. */
  readonly headerEnd: number;
}

/** The prefix checked (version, length, checksum) and read, or why the entry cannot be used. */
function readFrame(bytes: Uint8Array): Frame | string {
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
  return { total, headerLength, headerEnd };
}

/** The JSON header, parsed and checked field by field. */
function readHeader(bytes: Uint8Array, frame: Frame): Header | string {
  let header: Header;
  try {
    header = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + frame.headerLength),
      ),
    );
  } catch {
    return "Cache entry is corrupt: unreadable header";
  }
  const problem = checkHeader(header);
  return problem === null ? header : `Cache entry is corrupt: ${problem}`;
}

/** An index entry's result: its children, all in the header. */
function indexResult(header: Header, frame: Frame): CacheEntry["result"] | string {
  if (frame.headerEnd !== frame.total) return "Cache entry is corrupt: bytes after an index entry";
  const children: IndexEntry[] = header.children!.map(([childUrl, lastModified]) => ({
    url: childUrl,
    lastModified: lastModified ?? NaN,
  }));
  return {
    kind: "index",
    format: header.format as "index" | "robots",
    children,
    warning: header.warning,
    ...(header.robotsText === undefined ? {} : { robotsText: header.robotsText }),
  };
}

/** A pages entry's result: the columns as views into `bytes`, each checked to fit. */
function pagesResult(
  bytes: Uint8Array,
  header: Header,
  frame: Frame,
): CacheEntry["result"] | string {
  const count = header.count!;
  let extras: PackedExtras | null;
  try {
    extras = header.extras === "" ? null : packExtras(JSON.parse(header.extras!), count);
  } catch (e) {
    return `Cache entry is corrupt: unreadable extras (${errorMessage(e)})`;
  }
  const layout = columnLayout(frame.headerEnd, count, header.urlByteLength!, header.kept);
  if (layout.end !== frame.total) {
    return `Cache entry is corrupt: ${count} pages need ${layout.end} bytes, the entry has ${frame.total}`;
  }
  const buffer = bytes.buffer;
  const at = bytes.byteOffset;
  const kept = header.kept;
  if (kept !== undefined) {
    const pageStarts = new Uint32Array(buffer, at + layout.keptStarts, count + 1);
    const spanAt = new Uint32Array(buffer, at + layout.keptAt, count);
    const problem = keptDisorder(pageStarts, spanAt, kept.size);
    if (problem !== null) return `Cache entry is corrupt: ${problem}`;
    extras = {
      kind: "kept",
      codec: kept.codec,
      size: kept.size,
      base: kept.base,
      root: new Uint8Array(buffer, at + layout.keptRoot, kept.rootLength),
      data: new Uint8Array(buffer, at + layout.keptData, kept.dataLength),
      pageStarts,
      spanAt,
    };
  }
  const pages: PackedPages = {
    count,
    urlBytes: new Uint8Array(buffer, at + layout.urlBytes, header.urlByteLength!),
    urlEnds: new Uint32Array(buffer, at + layout.urlEnds, count),
    lastModified: new Float64Array(buffer, at + layout.lastModified, count),
    priority: new Float64Array(buffer, at + layout.priority, count),
    changeFrequency: new Uint8Array(buffer, at + layout.changeFrequency, count),
    extras,
  };
  const disorder = urlEndsDisorder(pages);
  if (disorder !== null) {
    return `Cache entry is corrupt: URL offsets out of order at page ${disorder}`;
  }
  return {
    kind: "pages",
    format: header.format as PagesFormat,
    pages,
    found: header.found!,
    warning: header.warning,
  };
}

/** The first page whose URL end goes backwards or past the URL bytes, or null. */
/** What is wrong with kept spans' offsets, or null. */
function keptDisorder(pageStarts: Uint32Array, spanAt: Uint32Array, size: number): string | null {
  if (pageStarts[0] !== 0) return "kept extensions do not start at 0";
  for (let i = 0; i < spanAt.length; i++) {
    const n = pageStarts[i + 1]! - pageStarts[i]!;
    if (n < 0) return `kept extensions out of order at page ${i}`;
    if (n > 0 && spanAt[i]! + n > size) return `page ${i}'s kept extensions run past the end`;
  }
  return null;
}

function urlEndsDisorder(pages: PackedPages): number | null {
  let previous = 0;
  for (let i = 0; i < pages.count; i++) {
    const end = pages.urlEnds[i]!;
    if (end < previous || end > pages.urlBytes.length) return i;
    previous = end;
  }
  return null;
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
    // Entries written before the tree kept robots.txt rules have no text: fetched afresh.
    if (h.format === "robots" && typeof h.robotsText !== "string") {
      return `the robots.txt entry has no text (written by an older version)`;
    }
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
  const k = h.kept;
  if (k !== undefined) {
    if (typeof k !== "object" || k === null) return `"kept" is not an object`;
    if (!KEPT_CODECS.includes(k.codec)) return `unknown kept codec ${JSON.stringify(k.codec)}`;
    if (typeof k.base !== "string") return `"kept.base" is not a string`;
    for (const key of ["size", "rootLength", "dataLength"] as const) {
      const value = k[key];
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
        return `"kept.${key}" is not a count`;
      }
    }
  }
  return null;
}
