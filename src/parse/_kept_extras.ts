/**
 * The reading side of kept extensions ({@linkcode KeptExtras}): the first
 * read of any page's extensions in a sitemap decodes the whole sitemap's
 * extensions once, into the columns the general path writes
 * ({@linkcode EncodedExtras}, one set per megabyte of spans), which then
 * serve every later read. A sitemap whose extensions are never read never
 * decodes them.
 *
 * Decoding reads the kept spans as urlsets of their own — the root's start
 * tag, then one `<url>` per page with a span — with the byte-level reader
 * (blocks decoded as it decoded them before they were kept), or with the
 * general reader when that one declines; either reads the blocks as the
 * general reader would have read the original document.
 *
 * @module
 */
import { NO_CHECKPOINT } from "../_checkpoint.ts";
import { extrasEntries, ExtrasReader } from "./_extras.ts";
import type { EncodedExtras, KeptExtras, PackedExtras, PageExtrasData } from "./_result.ts";
import { ownBytes, syncZlib } from "./_sync_zlib.ts";
import { parseBase } from "./_url.ts";
import { readUrlsetBytes } from "./_urlset_bytes.ts";
import { parseSitemapGeneral } from "./parse_sitemap.ts";

/** How many sitemaps' kept extensions have been decoded: for tests and benchmarks. */
export const keptExtrasStats: { decodes: number } = { decodes: 0 };

/** Reads pages' extensions by page index, in any order. */
export interface PageExtrasReader {
  /** Whether page `i` has any extension data. */
  has(i: number): boolean;
  /** Page `i`'s extensions as fresh objects, or null when it has none. */
  page(i: number): PageExtrasData | null;
}

const decoded = new WeakMap<KeptExtras, PageExtrasReader>();

/**
 * A reader of a sitemap's extensions: over the encoded columns, or over its
 * kept bytes decoded (once, on this first call; later calls return the
 * same reader, over the same decoded columns).
 *
 * @param x The extensions in either form.
 * @returns The reader, page indices as in `x`.
 * @throws {Error} When the kept bytes cannot be read (damaged, or no
 * `node:zlib` to inflate them).
 */
export function extrasReader(x: PackedExtras): PageExtrasReader {
  if (x.kind !== "kept") return new ExtrasReader(x);
  let reader = decoded.get(x);
  if (reader === undefined) {
    reader = decodeKept(x);
    decoded.set(x, reader);
    keptExtrasStats.decodes++;
  }
  return reader;
}

/**
 * Every page's extensions, `[pageIndex, extras][]` in page order, pages
 * without any left out (as {@linkcode extrasEntries} lists encoded ones).
 *
 * @param x The extensions in either form, or null.
 * @returns The list (empty for null).
 */
export function pageExtrasEntries(x: PackedExtras | null): [number, PageExtrasData][] {
  if (x === null) return [];
  if (x.kind !== "kept") return extrasEntries(x);
  const reader = extrasReader(x);
  const out: [number, PageExtrasData][] = [];
  for (let i = 0; i + 1 < x.pageStarts.length; i++) {
    const extras = reader.page(i);
    if (extras !== null) out.push([i, extras]);
  }
  return out;
}

/**
 * The bytes kept extensions' spans are offsets in (`spanAt`), inflated, for
 * a reader that compares two sitemaps' spans page by page: the last two
 * are remembered, for as long as the cache lives.
 */
export class KeptBytes {
  readonly #entries: { x: KeptExtras; bytes: Uint8Array }[] = [];

  /**
   * @param x Kept extensions.
   * @returns Their inflated bytes.
   */
  of(x: KeptExtras): Uint8Array {
    for (const entry of this.#entries) if (entry.x === x) return entry.bytes;
    const bytes = inflate(x);
    this.#entries.unshift({ x, bytes });
    if (this.#entries.length > 2) this.#entries.pop();
    return bytes;
  }
}

function inflate(x: KeptExtras): Uint8Array {
  if (x.codec === "none") return x.data;
  const zlib = syncZlib();
  if (zlib === null) {
    throw new Error(`Reading kept extensions needs node:zlib, which this runtime does not provide`);
  }
  const bytes = x.codec === "gzip" ? zlib.gunzipSync(x.data) : zlib.inflateRawSync(x.data);
  if (bytes.length !== x.size) {
    throw new Error(
      `Kept extensions are damaged: they inflate to ${bytes.length} bytes, not ${x.size}`,
    );
  }
  return ownBytes(bytes);
}

const encoder = new TextEncoder();
const URL_OPEN = encoder.encode("<url><loc>https://kept.invalid/");
const LOC_CLOSE = encoder.encode("</loc>");
const URL_CLOSE = encoder.encode("</url>\n");

/** The qualified name of the root whose start tag is `root`. */
function rootName(root: Uint8Array): Uint8Array {
  let e = 1;
  while (e < root.length && root[e]! > 0x20 && root[e] !== 0x3e && root[e] !== 0x2f) e++;
  return root.subarray(1, e);
}

/** Frees a buffer of this module's own now rather than at the next collection. */
function free(bytes: ArrayBufferView): void {
  (bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}

/**
 * Span bytes decoded at a time: each run of pages is read as a small
 * document of its own, so decoding never holds a sitemap-sized copy.
 */
const CHUNK_BYTES = 1 << 20;

/** Decoded extensions, one encoded column set per run of pages. */
class ChunkedExtras implements PageExtrasReader {
  readonly #firsts: number[];
  readonly #readers: ExtrasReader[];
  #last = 0;

  constructor(firsts: number[], readers: ExtrasReader[]) {
    this.#firsts = firsts;
    this.#readers = readers;
  }

  /** The run holding page i, found from the last one (pages are mostly read in order). */
  #run(i: number): number {
    const firsts = this.#firsts;
    let c = this.#last;
    if (c >= firsts.length || firsts[c]! > i) c = 0;
    while (c + 1 < firsts.length && firsts[c + 1]! <= i) c++;
    return this.#last = c;
  }

  has(i: number): boolean {
    if (this.#readers.length === 0 || i < 0) return false;
    const c = this.#run(i);
    return this.#readers[c]!.has(i - this.#firsts[c]!);
  }

  page(i: number): PageExtrasData | null {
    if (this.#readers.length === 0 || i < 0) return null;
    const c = this.#run(i);
    return this.#readers[c]!.page(i - this.#firsts[c]!);
  }
}

function decodeKept(x: KeptExtras): PageExtrasReader {
  const bytes = inflate(x);
  const starts = x.pageStarts;
  const count = starts.length - 1;
  const firsts: number[] = [];
  const readers: ExtrasReader[] = [];
  const base = parseBase(x.base);
  for (let first = 0; first < count;) {
    let end = first;
    while (end < count && starts[end + 1]! - starts[first]! <= CHUNK_BYTES) end++;
    if (end === first) end++;
    firsts.push(first);
    readers.push(new ExtrasReader(decodeRun(x, bytes, first, end, base)));
    first = end;
  }
  // Freed now: a sitemap's inflated bytes are read once here.
  if (bytes !== x.data) free(bytes);
  return new ChunkedExtras(firsts, readers);
}

/** The extensions of pages `[first, end)`, read as a urlset of their own; page indices from `first`. */
function decodeRun(
  x: KeptExtras,
  bytes: Uint8Array,
  first: number,
  end: number,
  base: URL | null,
): EncodedExtras {
  const starts = x.pageStarts;
  const count = end - first;
  const name = rootName(x.root);
  let withSpans = 0;
  for (let p = first; p < end; p++) if (starts[p + 1]! > starts[p]!) withSpans++;
  const perPage = URL_OPEN.length + 10 + LOC_CLOSE.length + URL_CLOSE.length;
  const doc = new Uint8Array(
    x.root.length + starts[end]! - starts[first]! + withSpans * perPage + name.length + 3,
  );
  doc.set(x.root, 0);
  let o = x.root.length;
  let n = 0;
  for (let p = first; p < end; p++) {
    const length = starts[p + 1]! - starts[p]!;
    if (length === 0) continue;
    doc.set(URL_OPEN, o);
    o += URL_OPEN.length;
    // The page's rank among those with spans, so that every <loc> differs.
    for (let v = n++, digits = String(v), k = 0; k < digits.length; k++) {
      doc[o++] = digits.charCodeAt(k);
    }
    doc.set(LOC_CLOSE, o);
    o += LOC_CLOSE.length;
    const a = x.spanAt[p]!;
    doc.set(bytes.subarray(a, a + length), o);
    o += length;
    doc.set(URL_CLOSE, o);
    o += URL_CLOSE.length;
  }
  doc[o++] = 0x3c;
  doc[o++] = 0x2f;
  doc.set(name, o);
  o += name.length;
  doc[o++] = 0x3e;
  const synthetic = doc.subarray(0, o);
  const result = readUrlsetBytes(synthetic, base, NaN, NO_CHECKPOINT) ??
    parseSitemapGeneral(synthetic, { url: x.base });
  free(doc);
  if (result.kind !== "pages" || result.pages.count !== withSpans) {
    throw new Error(
      `Kept extensions are damaged: ${withSpans} pages' blocks read as ${
        result.kind === "pages"
          ? `${result.pages.count} pages`
          : result.kind === "invalid"
          ? result.reason
          : "an index"
      }`,
    );
  }
  const built = result.pages;
  // The synthetic pages' columns (each sliced into a buffer of its own) are not needed.
  for (
    const column of [
      built.urlBytes,
      built.urlEnds,
      built.lastModified,
      built.priority,
      built.changeFrequency,
    ]
  ) free(column);
  const read = built.extras;
  if (read !== null && read.kind === "kept") throw new Error("Kept extensions read as kept");
  // Renumbered from the synthetic pages to the run's.
  const pageStarts = new Uint32Array(count + 1);
  for (let p = 0, rank = 0; p < count; p++) {
    if (starts[first + p + 1]! > starts[first + p]!) {
      rank++;
      pageStarts[p + 1] = read === null ? 0 : read.pageStarts[rank]!;
    } else {
      pageStarts[p + 1] = pageStarts[p]!;
    }
  }
  const empty = new Uint8Array(0);
  return read === null
    ? { dictText: empty, dictEnds: new Uint32Array(0), data: empty, pageStarts }
    : { dictText: read.dictText, dictEnds: read.dictEnds, data: read.data, pageStarts };
}
