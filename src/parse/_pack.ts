/**
 * Collects the pages of one sitemap into {@linkcode PackedPages}.
 *
 * Pages are added with their raw `<loc>` (and raw `<lastmod>` text) and
 * processed in batches: the batch's strings are joined and encoded to UTF-8
 * with one native call, then a single loop over those bytes trims each URL,
 * checks that the WHATWG parser would leave it unchanged and hashes it, in
 * place in the output buffer; lastmods are parsed from bytes the same way.
 * Duplicates are found once, at the end, by a stable radix sort of the
 * entries by hash (a few sequential passes; a hash table's random probes
 * into a megabyte-sized table cost more). `charCodeAt` loops and regular
 * expressions over substrings of a large decoded chunk cost several times
 * more than this, and V8's own string hashing (a `Set<string>`) about as
 * much as tokenizing (bench/README.md#parsing). Nothing of the document is
 * retained past a batch: V8 substrings point into the chunk they were cut
 * from, so holding them until the end would keep the whole decoded document
 * alive.
 *
 * @module
 */
import { parseRfc822Date, parseW3cDateBytes } from "./_dates.ts";
import { type ExtrasSource, ExtrasWriter } from "./_extras.ts";
import { fnv1aWords, fnv1aWordsCopy, mixHash } from "./_fnv.ts";
import type { PackedPages, PageExtrasData } from "./_result.ts";
import { detachBuffer } from "../_detach.ts";
import { decodeEntities, normalizeNewlines } from "./_tokenizer.ts";
import {
  KEEP_FRAGMENT,
  type NormalBase,
  normalBase,
  normalizedRoom,
  normalizeUrlBytes,
  normalizeUrlBytesFrom,
  RAW_XML,
} from "./_normalize_url.ts";
import { NotUrlCounter, resolvePageUrl } from "./_url.ts";

const encoder = new TextEncoder();
/**
 * `ignoreBOM`: a U+FEFF that starts a URL or a value is part of it, as the
 * document's streaming decoder keeps it.
 */
const rawDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The text of an element as the tokenizer hands it to a reader, from the
 * bytes between its tags in a UTF-8 document: decoded, CRs normalised,
 * entity references replaced.
 *
 * @param src The document's bytes.
 * @param a Start of the text.
 * @param b End of the text.
 * @returns The text.
 */
export function decodeRawText(src: Uint8Array, a: number, b: number): string {
  let text = normalizeNewlines(rawDecoder.decode(src.subarray(a, b)));
  const amp = text.indexOf("&");
  if (amp !== -1) text = decodeEntities(text, amp);
  return text;
}

/** Pages processed per batch: big enough to amortise the joins, small enough to hold little. */
const BATCH = 1024;

/** Host name bytes the WHATWG parser keeps as they are: `a-z 0-9 -` (`.` handled apart; `xn--` labels are not). */
const HOST_OK = new Uint8Array(256);
/**
 * Path and query bytes it keeps as they are (`/` handled apart). 256 entries,
 * so that a byte needs one lookup and no range check.
 */
const PATH_OK = new Uint8Array(256);
for (let c = 0x61; c <= 0x7a; c++) HOST_OK[c] = 1;
for (let c = 0x30; c <= 0x39; c++) HOST_OK[c] = 1;
HOST_OK[0x2d] = 1;
for (let c = 0x21; c <= 0x7e; c++) PATH_OK[c] = 1;
// Percent-encoded by the path or special-query sets, a fragment, a backslash
// (a slash in http URLs), the segment separator, or `^` (Bun encodes it in
// paths, Deno does not).
for (const c of `"#'<>\\\`{}/^`) PATH_OK[c.charCodeAt(0)] = 0;
/**
 * The same for URL bytes still as written in the document
 * ({@linkcode PackedPagesBuilder.commitLoc}): an `&` there starts an entity
 * reference, so the text has to be decoded first.
 */
const RAW_PATH_OK = PATH_OK.slice();
RAW_PATH_OK[0x26] = 0;

/**
 * Where an absolute http(s) URL that the WHATWG parser would return unchanged
 * ends, reading from `src[a]` up to `limit`: lower-case scheme and host (last
 * label starting with a letter, so never an IPv4 address), no port or user
 * info, a path of bytes it does not percent-encode (by `pathOk`), no `.` or
 * `%2e` segment, no fragment. Returns the index of the first byte that cannot
 * be part of such a URL (whitespace, `<`, `#`...), or `limit`; -1 when what
 * starts at `a` is not such a URL at all.
 */
function normalUrlEnd(src: Uint8Array, a: number, limit: number, pathOk: Uint8Array): number {
  if (limit - a < 10) return -1;
  if (src[a] !== 0x68 || src[a + 1] !== 0x74 || src[a + 2] !== 0x74 || src[a + 3] !== 0x70) {
    return -1;
  }
  let i = a + 4;
  if (src[i] === 0x73) i++;
  if (src[i] !== 0x3a || src[i + 1] !== 0x2f || src[i + 2] !== 0x2f) return -1;
  i += 3;
  let label = i;
  for (; i < limit; i++) {
    const c = src[i]!;
    if (c === 0x2f) break;
    if (HOST_OK[c] === 0) {
      if (c !== 0x2e || i === label || isXnLabel(src, label)) return -1;
      label = i + 1;
    }
  }
  if (isXnLabel(src, label)) return -1;
  // No path (the parser adds "/"), an empty or trailing-dot label, or a
  // last label that could make the host an IPv4 address.
  if (i >= limit || i === label || src[label]! < 0x61) return -1;
  for (; i < limit; i++) {
    const c = src[i]!;
    if (pathOk[c] === 0) {
      if (c !== 0x2f) return i;
      if (i + 1 < limit) {
        // A `.` or `%2e` segment may go: the URL is canonical up to its slash.
        const d = src[i + 1];
        if (d === 0x2e) return i;
        if (d === 0x25 && i + 3 < limit && src[i + 2] === 0x32 && (src[i + 3]! | 0x20) === 0x65) {
          return i;
        }
      }
    }
  }
  return limit;
}

/** Whether the host label at `src[i]` starts with `xn--`: its Punycode is the parser's to check. */
function isXnLabel(src: Uint8Array, i: number): boolean {
  return src[i] === 0x78 && src[i + 1] === 0x6e && src[i + 2] === 0x2d && src[i + 3] === 0x2d;
}

/**
 * FNV-1a over `bytes[a, b)` with `seed` (random per builder) as basis, four
 * bytes a step through `view`, a DataView of the same bytes; mixed.
 */
function hashBytes(view: DataView, bytes: Uint8Array, a: number, b: number, seed: number): number {
  return mixHash(fnv1aWords(view, bytes, a, b, seed));
}

const NO_VIEW = new DataView(new ArrayBuffer(0));

function grown<T extends Uint8Array | Uint32Array | Float64Array>(a: T, min: number): T {
  let size = Math.max(1024, a.length * 2);
  while (size < min) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** A builder's working arrays. */
interface Working {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly ends: Uint32Array<ArrayBuffer>;
  readonly hashes: Uint32Array<ArrayBuffer>;
  readonly lastModified: Float64Array<ArrayBuffer>;
  readonly priority: Float64Array<ArrayBuffer>;
  readonly changeFrequency: Uint8Array<ArrayBuffer>;
}

/**
 * The last finished builder's working arrays, for the next one: a worker
 * parses file after file, and writing to freshly allocated memory costs a
 * page fault per 4 KiB, about as much as copying it (bench/README.md#parsing).
 * At most {@linkcode POOL_MAX_BYTES} of URL bytes are kept: the last
 * document's, not the largest seen, and freed at once when the next document
 * needs more (bench/README.md#workers-and-node).
 */
let pool: Working | null = null;
const POOL_MAX_BYTES = 16 << 20;

/**
 * What the last document built in this thread used per byte of document:
 * URL bytes and entries. A site's sitemaps look alike, so the next one is
 * sized from it rather than from a guess for the plainest urlset (URL bytes
 * are ~15% of a urlset heavy with extensions, ~45% of a plain one).
 */
let usedPerByte: { readonly bytes: number; readonly entries: number } | null = null;

/** Headroom over the last document's use: past it the arrays double (a copy). */
const SIZE_HEADROOM = 1.25;
/** Entries a document needs before {@linkcode usedPerByte} is learnt from it. */
const LEARN_MIN_ENTRIES = 1000;

/** Frees the working arrays now: left to the collector, a worker held them between documents. */
function freeWorking(w: Working): void {
  for (const column of [w.bytes, w.ends, w.hashes, w.lastModified, w.priority, w.changeFrequency]) {
    detachBuffer(column);
  }
}

/** A builder's entry columns, as {@linkcode compact} reads and rewrites them. */
interface EntryColumns {
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  readonly lastModified: Float64Array;
  readonly priority: Float64Array;
  readonly changeFrequency: Uint8Array;
}

/**
 * Which entries have extras (ascending) and where each one's are in the
 * writer: `(entry, from, to)` three words each, `used` of them written.
 */
interface EntryExtras {
  readonly at: Uint32Array;
  readonly used: number;
}

/**
 * Compacts a builder's `n` entries in place, dropping duplicates (`dup[e]`
 * is 1) and entries last modified before `since`: page `count` lands at or
 * before entry `e`, its bytes at or before where they are, its end in
 * `ends[count]` (so each entry's start is carried in `start`, read before it
 * can be overwritten), its extras' range in `extrasFrom`/`extrasTo`.
 *
 * A function of its own rather than `build`'s loop, returning a local: V8
 * compiles the loop alone (on-stack replacement) before the code after it has
 * ever run, reuses that code for each document, and anything after the loop
 * that needs type feedback (a call, a property store) then deoptimised it on
 * every document (Node 20; bench/README.md#issue-24-node-within-115-node24c).
 *
 * @returns How many pages are left.
 */
function compact(
  n: number,
  dup: Uint8Array,
  since: number,
  c: EntryColumns,
  extras: EntryExtras,
  extrasFrom: Uint32Array | null,
  extrasTo: Uint32Array | null,
): number {
  const { bytes, ends, lastModified: lastModifieds, priority: priorities } = c;
  const changeFrequencies = c.changeFrequency;
  const extrasAt = extras.at;
  const extrasUsed = extras.used;
  let count = 0;
  let at = 0;
  let x = 0;
  let start = 0;
  for (let e = 0; e < n; e++) {
    const end = ends[e]!;
    const from = start;
    start = end;
    if (dup[e] === 1) continue;
    const lastModified = lastModifieds[e]!;
    if (lastModified < since) continue;
    if (from !== at) bytes.copyWithin(at, from, end);
    at += end - from;
    // URLs here are ASCII, so UTF-16 ends equal byte ends.
    ends[count] = at;
    if (count !== e) {
      lastModifieds[count] = lastModified;
      priorities[count] = priorities[e]!;
      changeFrequencies[count] = changeFrequencies[e]!;
    }
    if (x < extrasUsed) {
      while (x < extrasUsed && extrasAt[x]! < e) x += 3;
      // Not read past the end: an out-of-bounds read deoptimises this loop.
      if (x < extrasUsed && extrasAt[x] === e) {
        extrasFrom![count] = extrasAt[x + 1]!;
        extrasTo![count] = extrasAt[x + 2]!;
      }
    }
    count++;
  }
  return count;
}

/** How many of the first `n` entries `dup` marks (1). */
function countMarked(dup: Uint8Array, n: number): number {
  let marked = 0;
  for (let e = 0; e < n; e++) marked += dup[e]!;
  return marked;
}

/** Options of {@linkcode PackedPagesBuilder}. */
export interface BuilderOptions {
  /**
   * Bytes of the document, to size the buffers once instead of doubling
   * them (URLs are typically half a urlset). @default 0
   */
  readonly sizeHint?: number;
  /** ANDed into every hash; tests set 0 to force collisions. @default 0xffffffff */
  readonly hashMask?: number;
}

/** What {@linkcode PackedPagesBuilder.build} returns. */
export interface BuiltPages {
  /** The kept pages. */
  readonly pages: PackedPages;
  /**
   * Pages before the `since` filter: the distinct valid pages kept, plus
   * every page dropped for its lastmod (those are never checked or
   * compared, so a duplicate or invalid one among them counts too).
   */
  readonly found: number;
  /**
   * How many values were dropped for not being URLs (docs/design.md#values-that-are-not-urls),
   * with the first; null for none.
   */
  readonly warning: string | null;
}

/** {@linkcode PackedPagesBuilder.values}' index of the next page's lastmod. */
export const V_LAST_MODIFIED = 0;
/** {@linkcode PackedPagesBuilder.values}' index of the next page's priority. */
export const V_PRIORITY = 1;

/** Equal-hash groups longer than this are deduplicated with a Set, so that collisions stay linear. */
const LONG_RUN = 16;

/** Appends pages, drops invalid URLs, duplicates and pages older than `since`, and packs them. */
export class PackedPagesBuilder {
  readonly #base: URL | null;
  readonly #normalBase: NormalBase | null;
  /** Values dropped for not being URLs. */
  #notUrls = new NotUrlCounter();
  readonly #since: number;
  readonly #seed = (Math.random() * 0x1_0000_0000) >>> 0;
  readonly #hashMask: number;

  /**
   * The lastmod (epoch ms, NaN for none; index {@linkcode V_LAST_MODIFIED})
   * and priority ({@linkcode V_PRIORITY}) of the page that
   * {@linkcode commitLoc}, {@linkcode commitBytes} or {@linkcode commitText}
   * adds next, written here by the reader. A number passed as an argument to
   * a call that is not inlined is boxed, a heap object per page and value:
   * most of what a parse worker's JavaScript allocated
   * (bench/README.md#issue-24-realistic-peak-margin-mem24c).
   */
  readonly values: Float64Array<ArrayBuffer> = new Float64Array(2);

  // The batch waiting to be processed.
  // Fixed arrays filled by index and cleared after each batch: pushing onto
  // fresh arrays cost about as much as the rest of add().
  #pUrls: string[] = new Array<string>(BATCH).fill("");
  #pN = 0;
  #pLastModified = new Float64Array(BATCH);
  #pPriority = new Float64Array(BATCH);
  #pChangeFrequency = new Uint8Array(BATCH);
  #pExtras: (PageExtrasData | null)[] = new Array<PageExtrasData | null>(BATCH).fill(null);
  #pAnyExtras = false;
  /** Raw lastmod texts of the batch, and the page each belongs to. */
  #pDates: string[] = new Array<string>(BATCH).fill("");
  #pDN = 0;
  #pDateOf = new Int32Array(BATCH);
  #scratch = new Uint8Array(4096);
  /** Where {@linkcode #normalize} writes. */
  #normalized = new Uint8Array(1024);
  /** How far the URL `#isNormal` last checked is canonical, or -1. */
  #canonicalEnd = -1;

  // Every valid URL added, duplicates included until build(): ASCII bytes,
  // end offsets, hashes and columns.
  #bytes: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #used = 0;
  #n = 0;
  #ends: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  #hashes: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  #lastModified: Float64Array<ArrayBuffer> = new Float64Array(0);
  #priority: Float64Array<ArrayBuffer> = new Float64Array(0);
  #changeFrequency: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  /**
   * Entries with extras, ascending, and where each one's records start and
   * end: three words each, `#extrasUsed` of them written. A typed array: the
   * growing backing stores of three arrays were a worker's largest JavaScript
   * allocation after the lastmods on pages with extensions.
   */
  #extrasAt: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  #extrasUsed = 0;
  #extras: ExtrasWriter | null = null;
  /** A view of `#bytes` for word reads, made when `#bytes` changes. */
  #view = NO_VIEW;
  #viewOf: Uint8Array | null = null;
  /** Pages dropped for their lastmod before their URL was read; counted in `found`. */
  #filtered = 0;
  /** The document's size as hinted, 0 when unknown: {@linkcode usedPerByte} is learnt from it. */
  readonly #hint: number;
  /** Hash of the URL just checked by `#isNormal` or written by `#writeString`. */
  #hash = 0;
  /** End of the `<loc>` {@linkcode copyLoc} copied, or -1 when it was not a normal URL. */
  #locEnd = -1;

  /**
   * @param base The sitemap URL that relative URLs resolve against, or null
   * to accept absolute URLs only.
   * @param since Keep only pages whose lastmod is >= this (epoch ms) or
   * missing; NaN keeps all.
   * @param options Sizing.
   */
  constructor(base: URL | null, since: number = NaN, options: BuilderOptions = {}) {
    this.#base = base;
    this.#normalBase = normalBase(base);
    this.#since = since;
    this.#hashMask = options.hashMask ?? 0xffffffff;
    const hint = Math.min(options.sizeHint ?? 0, 64 << 20);
    this.#hint = hint;
    const learnt = usedPerByte;
    const bytes = learnt === null
      ? (hint >> 1) + (hint >> 3)
      : Math.ceil(hint * learnt.bytes * SIZE_HEADROOM);
    const entries = learnt === null ? hint >> 6 : Math.ceil(hint * learnt.entries * SIZE_HEADROOM);
    const w = pool;
    pool = null;
    // Too small for this document: freed now rather than held beside new arrays.
    if (w !== null && (w.bytes.length < bytes || w.ends.length < entries)) freeWorking(w);
    if (w !== null && w.bytes.length >= bytes && w.ends.length >= entries) {
      this.#bytes = w.bytes;
      this.#ends = w.ends;
      this.#hashes = w.hashes;
      this.#lastModified = w.lastModified;
      this.#priority = w.priority;
      this.#changeFrequency = w.changeFrequency;
    } else {
      // Sized from the document when its size is known: a sitemap of a few
      // pages (most of a batch of small sites) needs a few KiB, not the
      // 64 KiB and 1,024 entries a document of unknown size starts with.
      // Untouched pages of a large typed array cost no memory until written.
      const size = hint > 0 ? Math.max(4 << 10, bytes) : 64 << 10;
      const count = hint > 0 ? Math.max(64, entries) : 1024;
      this.#bytes = new Uint8Array(size);
      this.#ends = new Uint32Array(count);
      this.#hashes = new Uint32Array(count);
      this.#lastModified = new Float64Array(count);
      this.#priority = new Float64Array(count);
      this.#changeFrequency = new Uint8Array(count);
    }
  }

  /**
   * Adds one page. It is dropped later if its URL does not resolve to an
   * http(s) URL, was already added (the first one wins), or its lastmod is
   * before `since`.
   *
   * @param url The `<loc>` text as read: untrimmed, maybe relative.
   * @param lastModified Epoch ms (NaN for none), or the raw text of a date
   * to parse (W3C datetime or RFC 822).
   * @param priority Already in [0, 1].
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null.
   */
  add(
    url: string,
    lastModified: number | string,
    priority: number,
    changeFrequency: number,
    extras: PageExtrasData | null,
  ): void {
    const i = this.#pN;
    this.#pUrls[i] = url;
    if (typeof lastModified === "number") {
      this.#pLastModified[i] = lastModified;
    } else {
      const k = this.#pDN++;
      this.#pDateOf[k] = i;
      this.#pDates[k] = lastModified;
      this.#pLastModified[i] = NaN;
    }
    this.#pPriority[i] = priority;
    this.#pChangeFrequency[i] = changeFrequency;
    if (extras !== null) {
      this.#pExtras[i] = extras;
      this.#pAnyExtras = true;
    }
    this.#pN = i + 1;
    if (i + 1 === BATCH) this.#flush();
  }

  /** Encodes `joined` into the scratch buffer (for dates); returns the byte count. */
  #encode(joined: string): number {
    if (joined.length * 3 > this.#scratch.length) {
      this.#scratch = new Uint8Array(joined.length * 3);
    }
    return encoder.encodeInto(joined, this.#scratch).written;
  }

  #flushDates(): void {
    const dates = this.#pDates;
    const count = this.#pDN;
    if (count === 0) return;
    const joined = count === BATCH ? dates.join("") : dates.slice(0, count).join("");
    const written = this.#encode(joined);
    const ascii = written === joined.length;
    const scratch = this.#scratch;
    let off = 0;
    for (let k = 0; k < count; k++) {
      const text = dates[k]!;
      const end = off + text.length;
      let ms = ascii ? parseW3cDateBytes(scratch, off, end) : NaN;
      // RSS-style dates in a sitemap, or non-ASCII text: the slow, rare path.
      if (Number.isNaN(ms)) ms = ascii ? parseRfc822Date(text) : parseAnyDate(text);
      this.#pLastModified[this.#pDateOf[k]!] = ms;
      off = end;
    }
    // Drops the references into the document.
    dates.fill("", 0, count);
    this.#pDN = 0;
  }

  /**
   * {@linkcode #flush}es the batch before a page the reader commits at once,
   * keeping that page's lastmod and priority in {@linkcode values}: the
   * batch's pages pass theirs through `values` too.
   */
  #flushBefore(): void {
    const lastModified = this.values[V_LAST_MODIFIED]!;
    const priority = this.values[V_PRIORITY]!;
    this.#flush();
    this.values[V_LAST_MODIFIED] = lastModified;
    this.values[V_PRIORITY] = priority;
  }

  #flush(): void {
    let n = this.#pN;
    if (n === 0) return;
    this.#flushDates();
    // Pages older than `since` leave before their URLs are encoded, checked or hashed.
    if (this.#since === this.#since) n = this.#dropOld(n);
    this.#commitBatch(this.#pUrls, n);
    // Drops the references into the document.
    this.#pUrls.fill("", 0, this.#pN);
    if (this.#pAnyExtras) {
      this.#pExtras.fill(null, 0, this.#pN);
      this.#pAnyExtras = false;
    }
    this.#pN = 0;
  }

  /**
   * Moves the batch's pages whose lastmod passes `since` to its front, in
   * order, and counts the others; returns how many are left. The slots past
   * the new end are cleared by the caller as usual.
   */
  #dropOld(n: number): number {
    const since = this.#since;
    const urls = this.#pUrls;
    const lastModified = this.#pLastModified;
    const extras = this.#pExtras;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const ms = lastModified[i]!;
      if (ms < since) continue;
      if (kept !== i) {
        urls[kept] = urls[i]!;
        lastModified[kept] = ms;
        this.#pPriority[kept] = this.#pPriority[i]!;
        this.#pChangeFrequency[kept] = this.#pChangeFrequency[i]!;
        extras[kept] = extras[i]!;
      }
      kept++;
    }
    this.#filtered += n - kept;
    return kept;
  }

  /**
   * Counts a page the caller dropped, unread, for a lastmod before `since`
   * (the byte-level reader decides that before copying its URL).
   */
  countOld(): void {
    this.#filtered++;
  }

  /** Checks, resolves and commits the batch's `n` URLs. */
  #commitBatch(urls: string[], n: number): void {
    const joined = n === BATCH ? urls.join("") : urls.slice(0, n).join("");
    // The batch is encoded straight into the output after the kept bytes;
    // each URL then stays in place, or moves left over what was dropped.
    const need = this.#used + joined.length;
    if (need > this.#bytes.length) this.#bytes = grown(this.#bytes, need);
    const { read, written } = encoder.encodeInto(joined, this.#bytes.subarray(this.#used, need));
    if (read !== joined.length || written !== joined.length) {
      // Non-ASCII somewhere: string offsets are not byte offsets; go one by one.
      for (let i = 0; i < n; i++) {
        const url = this.#resolve(urls[i]!);
        if (url !== null) this.#commit(this.#writeString(url), i);
      }
      return;
    }
    let next = this.#used;
    let batchEnd = this.#used + written;
    for (let i = 0; i < n; i++) {
      const raw = urls[i]!;
      let a = next;
      let b = next + raw.length;
      next = b;
      const bytes = this.#bytes;
      while (a < b && bytes[a]! <= 0x20) a++;
      while (b > a && bytes[b - 1]! <= 0x20) b--;
      if (this.#isNormal(a, b)) {
        if (a !== this.#used) bytes.copyWithin(this.#used, a, b);
        this.#commit(this.#used + (b - a), i);
        continue;
      }
      // Not canonical: normalised here, or by URL.parse when that declines.
      const length = this.#normalize(a, b);
      const url = length === -1 ? this.#resolve(raw) : null;
      if (length === -1 && url === null) continue;
      const room = next - this.#used;
      const need = length === -1 ? url!.length : length;
      if (need > room) {
        // Make room by moving the rest of the batch right.
        const delta = need - room;
        if (batchEnd + delta > this.#bytes.length) {
          this.#bytes = grown(this.#bytes, batchEnd + delta);
        }
        this.#bytes.copyWithin(next + delta, next, batchEnd);
        next += delta;
        batchEnd += delta;
      }
      this.#commit(url === null ? this.#writeNormalized(length) : this.#writeString(url), i);
    }
  }

  /**
   * Normalises output bytes [a, b) into `#normalized` without `URL.parse`
   * (src/parse/_normalize_url.ts). Returns the length, or -1 when the slow
   * path has to decide.
   */
  #normalize(a: number, b: number): number {
    const room = normalizedRoom(b - a, this.#normalBase);
    if (this.#normalized.length < room) this.#normalized = new Uint8Array(room * 2);
    const j = this.#canonicalEnd;
    const out = this.#normalized;
    const end = j === -1
      ? normalizeUrlBytes(this.#bytes, a, b, out, 0, this.#normalBase, KEEP_FRAGMENT)
      : normalizeUrlBytesFrom(this.#bytes, a, j, b, out, 0, this.#normalBase, KEEP_FRAGMENT);
    return end < 0 ? -1 : end;
  }

  /** Writes the `length` bytes {@linkcode #normalize} left at `#used`; the caller has made room. Returns the end. */
  #writeNormalized(length: number): number {
    const start = this.#used;
    this.#hash = mixHash(
      fnv1aWordsCopy(this.#normalized, 0, length, this.#bytes, start, this.#seed),
    );
    return start + length;
  }

  /** {@linkcode resolvePageUrl}, counting the values dropped for not being URLs. */
  #resolve(raw: string): string | null {
    const url = resolvePageUrl(raw, this.#base);
    if (url === null) this.noteDropped(raw);
    return url;
  }

  /**
   * Counts, for {@linkcode BuiltPages.warning}, a value that did not resolve
   * to a page URL, when it is prose or markup rather than a URL
   * (docs/design.md#values-that-are-not-urls); readers that resolve their
   * own values (feeds) call it.
   *
   * @param raw The value as read.
   */
  noteDropped(raw: string): void {
    this.#notUrls.note(raw);
  }

  /**
   * Whether output bytes [a, b) are an absolute http(s) URL that the WHATWG
   * parser would return unchanged ({@linkcode normalUrlEnd}); if so, hashes
   * them into `#hash`. When false, the slow path decides.
   */
  #isNormal(a: number, b: number): boolean {
    const j = normalUrlEnd(this.#bytes, a, b, PATH_OK);
    this.#canonicalEnd = j;
    if (j !== b) return false;
    this.#hash = hashBytes(this.#bytesView(), this.#bytes, a, b, this.#seed);
    return true;
  }

  /**
   * Writes a normalised (so ASCII, one byte per character) URL at `#used`;
   * the caller has made room for it. Returns its end.
   */
  #writeString(url: string): number {
    const need = this.#used + url.length * 3;
    if (need > this.#bytes.length) this.#bytes = grown(this.#bytes, need);
    const bytes = this.#bytes;
    const start = this.#used;
    const end = start + encoder.encodeInto(url, bytes.subarray(start, start + url.length * 3))
      .written;
    this.#hash = hashBytes(this.#bytesView(), bytes, start, end, this.#seed);
    return end;
  }

  /** Records the URL written at [#used, end) (hash in `#hash`) as batch page `i`. */
  #commit(end: number, i: number): void {
    const extras = this.#pExtras[i];
    if (extras) this.#recordExtras(extras);
    this.values[V_LAST_MODIFIED] = this.#pLastModified[i]!;
    this.values[V_PRIORITY] = this.#pPriority[i]!;
    this.#commitValues(end, this.#pChangeFrequency[i]!);
  }

  /** Keeps the extras of the entry about to be recorded. */
  #recordExtras(extras: PageExtrasData | ExtrasSource): void {
    // Writing the columns now copies the strings out of the document.
    const writer = this.#extras ??= new ExtrasWriter();
    const x = this.#extrasUsed;
    if (x + 3 > this.#extrasAt.length) {
      const old = this.#extrasAt;
      this.#extrasAt = grown(old, x + 3);
      detachBuffer(old);
    }
    const at = this.#extrasAt;
    at[x] = this.#n;
    at[x + 1] = writer.length;
    writer.write(extras);
    at[x + 2] = writer.length;
    this.#extrasUsed = x + 3;
  }

  /** Records the URL written at [#used, end) (hash in `#hash`) with {@linkcode values} and this frequency. */
  #commitValues(end: number, changeFrequency: number): void {
    const e = this.#n;
    if (e === this.#ends.length) this.#grow(e + 1);
    this.#ends[e] = end;
    this.#hashes[e] = this.#hash & this.#hashMask;
    this.#lastModified[e] = this.values[V_LAST_MODIFIED]!;
    this.#priority[e] = this.values[V_PRIORITY]!;
    this.#changeFrequency[e] = changeFrequency;
    this.#n = e + 1;
    this.#used = end;
  }

  /**
   * Reads the text of a `<loc>` in a UTF-8 document, exactly as it stands
   * there (entity references and CRs not decoded yet), up to the `<` that
   * ends it; when it is a normal URL (see {@linkcode normalUrlEnd}; leading
   * and trailing whitespace aside) copies and hashes it where the next URL
   * goes, in one pass. {@linkcode commitLoc} then records it; until then
   * nothing else may be added.
   *
   * @param src The document's bytes.
   * @param from Start of the `<loc>` text.
   * @param maxLength Longest text accepted.
   * @returns The index of the `<` after the text, or -1 when there is none
   * within `maxLength` bytes.
   */
  copyLoc(src: Uint8Array, from: number, maxLength: number): number {
    if (this.#pN !== 0) this.#flushBefore();
    const limit = Math.min(src.length, from + maxLength + 1);
    let i = from;
    while (i < limit && src[i]! <= 0x20) i++;
    const j = normalUrlEnd(src, i, limit, RAW_PATH_OK);
    let e = j;
    if (j !== -1) { while (e < limit && src[e]! <= 0x20) e++; }
    if (j === -1 || src[e] !== 0x3c) {
      this.#locEnd = -1;
      for (e = j === -1 ? i : e; e < limit; e++) if (src[e] === 0x3c) break;
      if (e >= limit) return -1;
      // Not canonical: normalised from the bytes, unless that declines.
      const room = this.#used + normalizedRoom(e - i, this.#normalBase);
      if (room > this.#bytes.length) this.#bytes = grown(this.#bytes, room);
      const flags = RAW_XML | KEEP_FRAGMENT;
      const out = this.#bytes;
      const end = j === -1
        ? normalizeUrlBytes(src, i, e, out, this.#used, this.#normalBase, flags)
        : normalizeUrlBytesFrom(src, i, j, e, out, this.#used, this.#normalBase, flags);
      if (end >= 0) {
        this.#hash = hashBytes(this.#bytesView(), this.#bytes, this.#used, end, this.#seed);
        this.#locEnd = end;
      }
      return e;
    }
    const used = this.#used;
    const end = used + (j - i);
    if (end > this.#bytes.length) this.#bytes = grown(this.#bytes, end);
    this.#hash = mixHash(fnv1aWordsCopy(src, i, j, this.#bytes, used, this.#seed));
    this.#locEnd = end;
    return e;
  }

  /**
   * Adds, as a page, the `<loc>` text `src[a, b)` that
   * {@linkcode copyLoc} read: as copied when it was a normal URL, else
   * decoded as the tokenizer would ({@linkcode decodeRawText}) and resolved
   * like {@linkcode add}'s, with the lastmod and priority in
   * {@linkcode values}. Pages added this way and with `add` keep their
   * order.
   *
   * @param src The document's bytes.
   * @param a Start of the `<loc>` text.
   * @param b End of the `<loc>` text (its `<`).
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null; an {@linkcode ExtrasSource}
   * writes into {@linkcode extrasWriter} during this call.
   */
  commitLoc(
    src: Uint8Array,
    a: number,
    b: number,
    changeFrequency: number,
    extras: PageExtrasData | ExtrasSource | null = null,
  ): void {
    if (this.#locEnd !== -1) {
      if (extras !== null) this.#recordExtras(extras);
      this.#commitValues(this.#locEnd, changeFrequency);
      return;
    }
    const url = this.#resolve(decodeRawText(src, a, b));
    if (url !== null) {
      const end = this.#writeString(url);
      if (extras !== null) this.#recordExtras(extras);
      this.#commitValues(end, changeFrequency);
    }
  }

  /**
   * The writer of this builder's extras columns, for a reader that adds
   * strings to the table as it reads them (see {@linkcode ExtrasSource}).
   */
  get extrasWriter(): ExtrasWriter {
    return this.#extras ??= new ExtrasWriter();
  }

  /**
   * Adds, as a page, the text `src[a, b)` of a UTF-8 document as it stands
   * (a CDATA section's content: nothing to decode but line ends): kept as
   * copied when it is a normal URL ({@linkcode normalUrlEnd}, ends trimmed),
   * else normalised from the bytes, or, when the normaliser declines,
   * decoded and resolved as {@linkcode commitText} does; the lastmod and
   * priority are in {@linkcode values}.
   *
   * @param src The document's bytes.
   * @param a Start of the text.
   * @param b End of the text.
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null.
   */
  commitBytes(
    src: Uint8Array,
    a: number,
    b: number,
    changeFrequency: number,
    extras: PageExtrasData | ExtrasSource | null,
  ): void {
    let i = a;
    let e = b;
    while (i < e && src[i]! <= 0x20) i++;
    while (e > i && src[e - 1]! <= 0x20) e--;
    if (this.#pN !== 0) this.#flushBefore();
    if (e - i < 10 || normalUrlEnd(src, i, e, PATH_OK) !== e) {
      // Not canonical: normalised from the bytes (nothing to decode: a CR,
      // like the LF it would become, is removed), unless that declines or
      // finds no URL, which the decoded text's resolution settles and counts.
      const room = this.#used + normalizedRoom(e - i, this.#normalBase);
      if (room > this.#bytes.length) this.#bytes = grown(this.#bytes, room);
      const start = this.#used;
      const end = normalizeUrlBytes(src, i, e, this.#bytes, start, this.#normalBase, KEEP_FRAGMENT);
      if (end < 0) {
        const text = normalizeNewlines(rawDecoder.decode(src.subarray(a, b)));
        this.commitText(text, changeFrequency, extras);
        return;
      }
      this.#hash = hashBytes(this.#bytesView(), this.#bytes, start, end, this.#seed);
      if (extras !== null) this.#recordExtras(extras);
      this.#commitValues(end, changeFrequency);
      return;
    }
    const used = this.#used;
    const end = used + (e - i);
    if (end > this.#bytes.length) this.#bytes = grown(this.#bytes, end);
    this.#hash = mixHash(fnv1aWordsCopy(src, i, e, this.#bytes, used, this.#seed));
    if (extras !== null) this.#recordExtras(extras);
    this.#commitValues(end, changeFrequency);
  }

  /**
   * Adds, as a page, a `<loc>`'s decoded text (resolved like
   * {@linkcode add}'s; lastmod and priority in {@linkcode values}) at once
   * rather than in a batch, after the pages
   * added before it: for a reader that commits its other pages with
   * {@linkcode commitLoc}, between which a batch of one would be flushed
   * each time.
   *
   * @param text The `<loc>` text, decoded.
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null.
   */
  commitText(
    text: string,
    changeFrequency: number,
    extras: PageExtrasData | ExtrasSource | null,
  ): void {
    if (this.#pN !== 0) this.#flushBefore();
    const url = this.#resolve(text);
    if (url === null) return;
    const end = this.#writeString(url);
    if (extras !== null) this.#recordExtras(extras);
    this.#commitValues(end, changeFrequency);
  }

  /**
   * Gives up on the pages added so far (the caller reads the document
   * another way); the working arrays go back for the next builder.
   */
  discard(): void {
    this.#recycle();
    this.#reset();
  }

  #bytesView(): DataView {
    const bytes = this.#bytes;
    if (this.#viewOf !== bytes) {
      this.#viewOf = bytes;
      this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return this.#view;
  }

  #grow(min: number): void {
    this.#ends = grown(this.#ends, min);
    this.#hashes = grown(this.#hashes, min);
    this.#lastModified = grown(this.#lastModified, min);
    this.#priority = grown(this.#priority, min);
    this.#changeFrequency = grown(this.#changeFrequency, min);
  }

  /**
   * Marks every entry that repeats an earlier one's URL: one stable counting
   * sort of the entries by the low bits of their hash into about one bucket
   * per entry (so equal URLs share a bucket, in the order they came), then
   * compares hashes and bytes within each bucket; the first of a URL is never
   * marked. Buckets hold about one entry each; a big one (a hostile file, or
   * a forced collision) is sorted by hash so that the work stays n log n.
   */
  #duplicates(): Uint8Array {
    const n = this.#n;
    const dup = new Uint8Array(n);
    if (n < 2) return dup;
    const hashes = this.#hashes;
    let size = 256;
    while (size < n) size *= 2;
    const mask = size - 1;
    const starts = new Uint32Array(size + 1);
    for (let e = 0; e < n; e++) starts[(hashes[e]! & mask) + 1]!++;
    for (let b = 1; b <= size; b++) starts[b]! += starts[b - 1]!;
    const order = new Uint32Array(n);
    const fill = starts.slice(0, size);
    for (let e = 0; e < n; e++) order[fill[hashes[e]! & mask]!++] = e;
    // No loop nests inside this one: a loop nest here was compiled on stack
    // replacement for an inner loop, and every exit from that loop threw the
    // code away again (V8: ~5,600 deopts over 20 files, ~10 recompilations
    // of this method per worker).
    for (let b = 0; b < size; b++) {
      const i = starts[b]!;
      const j = starts[b + 1]!;
      if (j - i < 2) continue;
      if (j - i > LONG_RUN) this.#markBucket(order, i, j, dup);
      else this.#markSmallBucket(order, i, j, dup);
    }
    // Freed now (0.7 MB for 50,000 entries): a worker that no longer fills
    // its young generation with garbage collects rarely, and left to the
    // collector these piled up document after document
    // (bench/README.md#issue-24-realistic-peak-margin-mem24c).
    detachBuffer(starts);
    detachBuffer(order);
    detachBuffer(fill);
    return dup;
  }

  /**
   * Marks duplicates among the entries order[i, j), few and in index order:
   * a small bucket, or a short run of one hash.
   */
  #markSmallBucket(order: Uint32Array, i: number, j: number, dup: Uint8Array): void {
    const hashes = this.#hashes;
    for (let k = i + 1; k < j; k++) {
      const e = order[k]!;
      const h = hashes[e];
      for (let m = i; m < k; m++) {
        const f = order[m]!;
        if (hashes[f] === h && dup[f] === 0 && this.#sameUrl(e, f)) {
          dup[e] = 1;
          break;
        }
      }
    }
  }

  /** Marks duplicates among the entries of a big bucket order[i, j), which are in index order. */
  #markBucket(order: Uint32Array, i: number, j: number, dup: Uint8Array): void {
    const hashes = this.#hashes;
    const bucket = order.subarray(i, j);
    bucket.sort((e, f) => hashes[e]! - hashes[f]! || e - f);
    let k = 0;
    while (k < bucket.length) {
      const h = hashes[bucket[k]!];
      let l = k + 1;
      while (l < bucket.length && hashes[bucket[l]!] === h) l++;
      if (l - k > 1) this.#markRun(bucket, k, l, dup);
      k = l;
    }
  }

  /** Marks duplicates among entries order[i, j), which share a hash and are in index order. */
  #markRun(order: Uint32Array, i: number, j: number, dup: Uint8Array): void {
    if (j - i > LONG_RUN) {
      // Mostly many copies of one URL (a generator bug or a hostile file):
      // compare with the run's first, and only strings for the rest.
      const first = order[i]!;
      let seen: Set<string> | null = null;
      for (let k = i + 1; k < j; k++) {
        const e = order[k]!;
        if (this.#sameUrl(e, first)) {
          dup[e] = 1;
          continue;
        }
        seen ??= new Set<string>();
        const url = rawDecoder.decode(this.#bytes.subarray(this.#start(e), this.#ends[e]));
        if (seen.has(url)) dup[e] = 1;
        else seen.add(url);
      }
      return;
    }
    this.#markSmallBucket(order, i, j, dup);
  }

  #start(e: number): number {
    return e === 0 ? 0 : this.#ends[e - 1]!;
  }

  #sameUrl(e: number, f: number): boolean {
    const a = this.#start(e);
    const b = this.#start(f);
    const len = this.#ends[e]! - a;
    if (this.#ends[f]! - b !== len) return false;
    const bytes = this.#bytes;
    for (let k = 0; k < len; k++) if (bytes[a + k] !== bytes[b + k]) return false;
    return true;
  }

  /**
   * Drops duplicates (the first of a URL wins) and pages older than `since`,
   * and packs the rest; every typed array gets its own exactly sized buffer,
   * ready for a transfer list. The builder is emptied.
   *
   * @returns The packed pages and how many distinct pages there were.
   */
  build(): BuiltPages {
    this.#flush();
    const n = this.#n;
    const dup = this.#duplicates();
    const bytes = this.#bytes;
    const ends = this.#ends;
    const extrasAt = this.#extrasAt;
    const writer = this.#extras;
    const extrasFrom = writer === null ? null : new Uint32Array(n);
    const extrasTo = writer === null ? null : new Uint32Array(n);
    const count = compact(
      n,
      dup,
      this.#since,
      {
        bytes,
        ends,
        lastModified: this.#lastModified,
        priority: this.#priority,
        changeFrequency: this.#changeFrequency,
      },
      { at: extrasAt, used: this.#extrasUsed },
      extrasFrom,
      extrasTo,
    );
    // Page `count - 1` ends where the compacted bytes do.
    const at = count === 0 ? 0 : ends[count - 1]!;
    const distinct = n - countMarked(dup, n) + this.#filtered;
    // Packed first: a kept document may be freed by then (see
    // `spareDocument`), before the columns below are copied out.
    const extras = writer === null ? null : writer.pack(count, extrasFrom!, extrasTo!);
    const pages: PackedPages = {
      count,
      urlBytes: bytes.slice(0, at),
      urlEnds: ends.slice(0, count),
      lastModified: this.#lastModified.slice(0, count),
      priority: this.#priority.slice(0, count),
      changeFrequency: this.#changeFrequency.slice(0, count),
      extras,
    };
    const warning = this.#notUrls.warning();
    detachBuffer(dup);
    detachBuffer(extrasAt);
    if (extrasFrom !== null) detachBuffer(extrasFrom);
    if (extrasTo !== null) detachBuffer(extrasTo);
    // Learnt from documents big enough to be typical of their site, not from an empty one.
    if (this.#hint > 0 && n >= LEARN_MIN_ENTRIES) {
      usedPerByte = { bytes: this.#used / this.#hint, entries: n / this.#hint };
    }
    this.#recycle();
    this.#reset();
    return { pages, found: distinct, warning };
  }

  /** Offers the working arrays to the next builder, or frees them. */
  #recycle(): void {
    const w: Working = {
      bytes: this.#bytes,
      ends: this.#ends,
      hashes: this.#hashes,
      lastModified: this.#lastModified,
      priority: this.#priority,
      changeFrequency: this.#changeFrequency,
    };
    if (w.bytes.length > POOL_MAX_BYTES || w.ends.length > POOL_MAX_BYTES >> 4) {
      freeWorking(w);
      return;
    }
    // Another builder (one nested in this document's reading) left its arrays: the latest wins.
    if (pool !== null) freeWorking(pool);
    pool = w;
  }

  #reset(): void {
    this.#scratch = new Uint8Array(0);
    this.#bytes = new Uint8Array(0);
    this.#view = NO_VIEW;
    this.#viewOf = null;
    this.#used = 0;
    this.#n = 0;
    this.#ends = new Uint32Array(0);
    this.#hashes = new Uint32Array(0);
    this.#lastModified = new Float64Array(0);
    this.#priority = new Float64Array(0);
    this.#changeFrequency = new Uint8Array(0);
    this.#extrasAt = new Uint32Array(0);
    this.#extrasUsed = 0;
    this.#extras = null;
    this.#filtered = 0;
    this.#notUrls = new NotUrlCounter();
  }
}

/**
 * A lastmod's epoch ms from its decoded text, as the builder reads the dates
 * passed to `add` (W3C datetime first when the text is ASCII, then RFC 822).
 *
 * @param text The element's text.
 * @returns Epoch ms, or NaN.
 */
export function parseDateText(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (!ascii) return parseAnyDate(text);
  const bytes = encoder.encode(text);
  const ms = parseW3cDateBytes(bytes, 0, bytes.length);
  return Number.isNaN(ms) ? parseRfc822Date(text) : ms;
}

function parseAnyDate(text: string): number {
  const ms = parseRfc822Date(text);
  if (!Number.isNaN(ms)) return ms;
  // Non-ASCII around an otherwise valid date (a no-break space, say).
  const w3c = text.trim();
  if (w3c.length > 64) return NaN;
  const bytes = encoder.encode(w3c);
  return parseW3cDateBytes(bytes, 0, bytes.length);
}

/**
 * Whether `src[a, e)`, bytes as written in a UTF-8 document with no
 * reference in them, is an absolute http(s) URL the WHATWG parser returns
 * unchanged ({@linkcode normalUrlEnd}), so it can be kept as it is.
 *
 * @param src The document's bytes.
 * @param a Start of the URL.
 * @param e End of the URL.
 * @returns True when it needs no normalising.
 */
export function isNormalUrlBytes(src: Uint8Array, a: number, e: number): boolean {
  return normalUrlEnd(src, a, e, RAW_PATH_OK) === e;
}

/**
 * Whether decoded text bytes `src[a, e)` are an absolute http(s) URL the
 * WHATWG parser returns unchanged ({@linkcode normalUrlEnd}; `&` allowed).
 *
 * @param src The bytes.
 * @param a Start of the URL.
 * @param e End of the URL.
 * @returns True when it needs no normalising.
 */
export function isNormalUrlText(src: Uint8Array, a: number, e: number): boolean {
  return normalUrlEnd(src, a, e, PATH_OK) === e;
}

/**
 * Whether `src[a, e)`, URL bytes as written in a UTF-8 document, read as an
 * absolute http(s) URL the WHATWG parser returns unchanged
 * ({@linkcode normalUrlEnd}) once each `&amp;` in them is read as `&`; in one
 * pass, where {@linkcode isNormalUrlBytes} and then
 * {@linkcode isNormalUrlText} on the unescaped copy took three.
 *
 * @param src The document's bytes.
 * @param a Start of the URL (trimmed).
 * @param e End of the URL (trimmed).
 * @returns 1 when normal and free of references, 2 when normal with `&amp;`
 * in it (and no other reference), 0 otherwise.
 */
export function normalRawUrl(src: Uint8Array, a: number, e: number): number {
  const j = normalUrlEnd(src, a, e, RAW_PATH_OK);
  if (j === e) return 1;
  if (j === -1 || src[j] !== 0x26) return 0;
  for (let i = j; i < e; i++) {
    const c = src[i]!;
    if (c === 0x26) {
      if (
        i + 5 > e || src[i + 1] !== 0x61 || src[i + 2] !== 0x6d || src[i + 3] !== 0x70 ||
        src[i + 4] !== 0x3b
      ) {
        return 0;
      }
      i += 4;
    } else if (PATH_OK[c] === 0) {
      // As normalUrlEnd: a `.` or `%2e` segment after a slash may go.
      if (c !== 0x2f) return 0;
      const d = src[i + 1];
      if (i + 1 < e && d === 0x2e) return 0;
      if (
        d === 0x25 && i + 3 < e && src[i + 2] === 0x32 && (src[i + 3]! | 0x20) === 0x65
      ) {
        return 0;
      }
    }
  }
  return 2;
}
