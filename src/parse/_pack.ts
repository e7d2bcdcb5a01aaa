/**
 * Collects the pages of one sitemap into {@linkcode PackedPages}.
 *
 * Pages are added with their raw `<loc>` (and raw `<lastmod>` text) and
 * processed in batches: the batch's strings are joined and encoded to UTF-8
 * with one native call, then a single loop over those bytes trims each URL,
 * checks that the WHATWG parser would leave it unchanged, hashes it and
 * copies it into the output buffer; lastmods are parsed from bytes the same
 * way. Measured on a 50,000-URL sitemap, `charCodeAt` loops and regular
 * expressions over substrings of a large decoded chunk cost several times
 * more than this, and V8's own string hashing (a `Set<string>`) about as
 * much as tokenizing. Nothing of the document is retained past a batch: V8
 * substrings point into the chunk they were cut from, so holding them until
 * the end would keep the whole decoded document alive.
 *
 * @module
 */
import { parseRfc822Date, parseW3cDateBytes } from "./_dates.ts";
import type { PackedPages, PageExtrasData } from "./_result.ts";
import { resolvePageUrl } from "./_url.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Pages processed per batch: big enough to amortise the joins, small enough to hold little. */
const BATCH = 1024;

/** FNV-1a's prime; the basis is random per builder. */
const FNV_PRIME = 0x01000193;

/** Host name bytes the WHATWG parser keeps as they are: `a-z 0-9 -` (`.` handled apart). */
const HOST_OK = new Uint8Array(128);
/** Path and query bytes it keeps as they are (`/` handled apart). */
const PATH_OK = new Uint8Array(128);
for (let c = 0x61; c <= 0x7a; c++) HOST_OK[c] = 1;
for (let c = 0x30; c <= 0x39; c++) HOST_OK[c] = 1;
HOST_OK[0x2d] = 1;
for (let c = 0x21; c <= 0x7e; c++) PATH_OK[c] = 1;
// Percent-encoded by the path or special-query sets, a fragment, a backslash
// (a slash in http URLs), or the segment separator.
for (const c of `"#'<>\\\`{}/`) PATH_OK[c.charCodeAt(0)] = 0;

/** Ends the FNV state so the low bits, which pick the slot, depend on every byte. */
function finalMix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function grown<T extends Uint8Array | Uint32Array | Float64Array>(a: T, min: number): T {
  let size = Math.max(1024, a.length * 2);
  while (size < min) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** Limits of {@linkcode PackedPagesBuilder}'s dedup table. */
export interface DedupLimits {
  /** Probes allowed per entry before dedup moves to a Set. @default 16 */
  readonly probesPerEntry?: number;
  /** Probes allowed on top. @default 4096 */
  readonly probeSlack?: number;
  /**
   * Bytes of the document, to size the buffers once instead of doubling
   * them (URLs are typically half a urlset). @default 0
   */
  readonly sizeHint?: number;
}

/** Appends pages, drops invalid URLs, duplicates and pages older than `since`, and packs them. */
export class PackedPagesBuilder {
  readonly #base: URL | null;
  readonly #since: number;
  readonly #probesPerEntry: number;
  readonly #probeSlack: number;
  readonly #seed = (Math.random() * 0x1_0000_0000) >>> 0;

  // The batch waiting to be processed.
  #pUrls: string[] = [];
  #pLastModified = new Float64Array(BATCH);
  #pPriority = new Float64Array(BATCH);
  #pChangeFrequency = new Uint8Array(BATCH);
  #pExtras: (PageExtrasData | null)[] = [];
  /** Raw lastmod texts of the batch, and the page each belongs to. */
  #pDates: string[] = [];
  #pDateOf = new Int32Array(BATCH);
  #scratch = new Uint8Array(4096);

  // Every distinct URL, kept or not (a later duplicate of a filtered page is
  // still a duplicate): ASCII bytes, end offsets and hashes.
  #bytes = new Uint8Array(64 << 10);
  #used = 0;
  #entryEnds = new Uint32Array(1024);
  #entryHashes = new Uint32Array(1024);
  #distinct = 0;
  /** Open addressing, linear probing; slot i is [hash, entry index + 1 or 0 when empty]. */
  #table = new Int32Array(4096);
  #probes = 0;
  /** Hash of the URL just checked by `#isNormal` or written by `#writeString`. */
  #hash = 0;
  /**
   * Takes over from the table if probing ever gets long (hash flooding by a
   * hostile document): V8's Set has its own seeded hash and bounded cost.
   */
  #fallback: Set<string> | null = null;

  // The kept pages.
  #count = 0;
  #keptEntries = new Uint32Array(1024);
  #urlEnds = new Uint32Array(1024);
  #lastModified = new Float64Array(1024);
  #priority = new Float64Array(1024);
  #changeFrequency = new Uint8Array(1024);
  #extras: string[] = [];

  /**
   * @param base The sitemap URL that relative URLs resolve against, or null
   * to accept absolute URLs only.
   * @param since Keep only pages whose lastmod is >= this (epoch ms) or
   * missing; NaN keeps all.
   * @param limits When to give up the dedup table for a Set (tests lower them).
   */
  constructor(base: URL | null, since: number = NaN, limits: DedupLimits = {}) {
    this.#base = base;
    this.#since = since;
    this.#probesPerEntry = limits.probesPerEntry ?? 16;
    this.#probeSlack = limits.probeSlack ?? 4096;
    const hint = Math.min(limits.sizeHint ?? 0, 64 << 20);
    if (hint > 2 << 20) {
      // Untouched pages of a large typed array cost no memory until written.
      this.#bytes = new Uint8Array((hint >> 1) + (hint >> 3));
      const entries = hint >> 6;
      this.#entryEnds = new Uint32Array(entries);
      this.#entryHashes = new Uint32Array(entries);
      this.#keptEntries = new Uint32Array(entries);
      this.#urlEnds = new Uint32Array(entries);
      this.#lastModified = new Float64Array(entries);
      this.#priority = new Float64Array(entries);
      this.#changeFrequency = new Uint8Array(entries);
      // Load at most 1/2 for the ~hint/96 entries a urlset of that size holds.
      let slots = 2048;
      while (slots < hint / 48) slots *= 2;
      this.#table = new Int32Array(slots * 2);
    }
  }

  /** Distinct valid pages added so far, before the `since` filter. */
  get found(): number {
    this.#flush();
    return this.#distinct;
  }

  /** Pages kept so far. */
  get count(): number {
    this.#flush();
    return this.#count;
  }

  /** Whether dedup has moved to a Set after too many probes. */
  get floodFallback(): boolean {
    this.#flush();
    return this.#fallback !== null;
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
    const i = this.#pUrls.length;
    this.#pUrls.push(url);
    if (typeof lastModified === "number") {
      this.#pLastModified[i] = lastModified;
    } else {
      this.#pDateOf[this.#pDates.length] = i;
      this.#pDates.push(lastModified);
      this.#pLastModified[i] = NaN;
    }
    this.#pPriority[i] = priority;
    this.#pChangeFrequency[i] = changeFrequency;
    this.#pExtras.push(extras);
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
    if (dates.length === 0) return;
    const joined = dates.join("");
    const written = this.#encode(joined);
    const ascii = written === joined.length;
    const scratch = this.#scratch;
    let off = 0;
    for (let k = 0; k < dates.length; k++) {
      const text = dates[k]!;
      const end = off + text.length;
      let ms = ascii ? parseW3cDateBytes(scratch, off, end) : NaN;
      // RSS-style dates in a sitemap, or non-ASCII text: the slow, rare path.
      if (Number.isNaN(ms)) ms = ascii ? parseRfc822Date(text) : parseAnyDate(text);
      this.#pLastModified[this.#pDateOf[k]!] = ms;
      off = end;
    }
    this.#pDates = [];
  }

  #flush(): void {
    const urls = this.#pUrls;
    const n = urls.length;
    if (n === 0) return;
    this.#flushDates();
    this.#pUrls = [];
    const joined = urls.join("");
    // The batch is encoded straight into the output after the kept bytes;
    // each URL then stays in place, or moves left over what was dropped.
    const need = this.#used + joined.length;
    if (need > this.#bytes.length) this.#bytes = grown(this.#bytes, need);
    const { read, written } = encoder.encodeInto(joined, this.#bytes.subarray(this.#used, need));
    if (read !== joined.length || written !== joined.length) {
      // Non-ASCII somewhere: string offsets are not byte offsets; go one by one.
      for (let i = 0; i < n; i++) {
        const url = resolvePageUrl(urls[i]!, this.#base);
        if (url !== null) this.#commit(this.#writeString(url), i);
      }
      this.#pExtras = [];
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
      const url = resolvePageUrl(raw, this.#base);
      if (url === null) continue;
      const room = next - this.#used;
      if (url.length > room) {
        // Make room by moving the rest of the batch right.
        const delta = url.length - room;
        if (batchEnd + delta > this.#bytes.length) {
          this.#bytes = grown(this.#bytes, batchEnd + delta);
        }
        this.#bytes.copyWithin(next + delta, next, batchEnd);
        next += delta;
        batchEnd += delta;
      }
      this.#commit(this.#writeString(url), i);
    }
    this.#pExtras = [];
  }

  /**
   * Whether output bytes [a, b) are an absolute http(s) URL that the WHATWG
   * parser would return unchanged (hashing them on the way, into `#hash`):
   * lower-case scheme and host (last label starting with a letter, so never
   * an IPv4 address), no port or user info, a path of bytes it does not
   * percent-encode, no `.` or `%2e` segment, no fragment. When false, the
   * slow path decides.
   */
  #isNormal(a: number, b: number): boolean {
    const src = this.#bytes;
    if (b - a < 10) return false;
    if (src[a] !== 0x68 || src[a + 1] !== 0x74 || src[a + 2] !== 0x74 || src[a + 3] !== 0x70) {
      return false;
    }
    let i = a + 4;
    if (src[i] === 0x73) i++;
    if (src[i] !== 0x3a || src[i + 1] !== 0x2f || src[i + 2] !== 0x2f) return false;
    i += 3;
    let h = this.#seed;
    for (let k = a; k < i; k++) h = Math.imul(h ^ src[k]!, FNV_PRIME);
    let label = i;
    for (; i < b; i++) {
      const c = src[i]!;
      if (c === 0x2f) break;
      if (c === 0x2e) {
        if (i === label) return false;
        label = i + 1;
      } else if (c > 0x7f || HOST_OK[c] === 0) {
        return false;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    // No path (the parser adds "/"), an empty or trailing-dot label, or a
    // last label that could make the host an IPv4 address.
    if (i === b || i === label || src[label]! < 0x61) return false;
    for (; i < b; i++) {
      const c = src[i]!;
      if (c === 0x2f) {
        if (i + 1 < b) {
          const d = src[i + 1];
          if (d === 0x2e) return false;
          if (d === 0x25 && i + 3 < b && src[i + 2] === 0x32 && (src[i + 3]! | 0x20) === 0x65) {
            return false;
          }
        }
      } else if (c > 0x7f || PATH_OK[c] === 0) {
        return false;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    this.#hash = finalMix(h);
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
    let h = this.#seed;
    for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k]!, FNV_PRIME);
    this.#hash = finalMix(h);
    return end;
  }

  /** Dedups the URL written at [#used, end) (hash in `#hash`) and keeps batch page `i` if it passes. */
  #commit(end: number, i: number): void {
    const start = this.#used;
    const h = this.#hash;
    if (this.#isDuplicate(start, end, h)) return;
    const e = this.#distinct;
    if (e === this.#entryEnds.length) {
      this.#entryEnds = grown(this.#entryEnds, e + 1);
      this.#entryHashes = grown(this.#entryHashes, e + 1);
    }
    this.#entryEnds[e] = end;
    this.#entryHashes[e] = h;
    this.#distinct = e + 1;
    this.#used = end;

    const lastModified = this.#pLastModified[i]!;
    if (lastModified < this.#since) return;
    const k = this.#count;
    if (k === this.#keptEntries.length) this.#growKept();
    this.#keptEntries[k] = e;
    // URLs here are ASCII, so UTF-16 ends equal byte ends within the kept bytes.
    this.#urlEnds[k] = (k === 0 ? 0 : this.#urlEnds[k - 1]!) + (end - start);
    this.#lastModified[k] = lastModified;
    this.#priority[k] = this.#pPriority[i]!;
    this.#changeFrequency[k] = this.#pChangeFrequency[i]!;
    const extras = this.#pExtras[i];
    // NaN dates become null in JSON, which readers map back to "absent".
    if (extras) this.#extras.push(JSON.stringify([k, extras]));
    this.#count = k + 1;
  }

  /**
   * Whether bytes [start, end) equal an earlier entry; otherwise records the
   * new entry (index `#distinct`) in the table. Slots hold the hash beside
   * the entry so that a probe touches one cache line.
   */
  #isDuplicate(start: number, end: number, h: number): boolean {
    if (this.#fallback !== null) {
      const size = this.#fallback.size;
      this.#fallback.add(decoder.decode(this.#bytes.subarray(start, end)));
      return this.#fallback.size === size;
    }
    if ((this.#distinct + 1) * 4 > this.#table.length) this.#rehash(this.#table.length);
    const table = this.#table;
    const mask = (table.length >> 1) - 1;
    const bytes = this.#bytes;
    const len = end - start;
    let slot = h & mask;
    for (;;) {
      const v = table[2 * slot + 1]!;
      if (v === 0) break;
      if (table[2 * slot] === (h | 0)) {
        const e = v - 1;
        const eEnd = this.#entryEnds[e]!;
        const eStart = e === 0 ? 0 : this.#entryEnds[e - 1]!;
        if (eEnd - eStart === len) {
          let k = 0;
          while (k < len && bytes[eStart + k] === bytes[start + k]) k++;
          if (k === len) return true;
        }
      }
      slot = (slot + 1) & mask;
      this.#probes++;
    }
    table[2 * slot] = h;
    table[2 * slot + 1] = this.#distinct + 1;
    if (this.#probes > this.#probesPerEntry * this.#distinct + this.#probeSlack) {
      this.#switchToSet(start, end);
    }
    return false;
  }

  /** Doubles the table (`length` Int32s now: two per slot). */
  #rehash(length: number): void {
    const table = new Int32Array(length * 2);
    const mask = length - 1;
    const hashes = this.#entryHashes;
    for (let e = 0; e < this.#distinct; e++) {
      const h = hashes[e]!;
      let slot = h & mask;
      while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = h;
      table[2 * slot + 1] = e + 1;
    }
    this.#table = table;
  }

  /** Moves every entry so far, plus bytes [start, end) being added, into a Set. */
  #switchToSet(start: number, end: number): void {
    const set = new Set<string>();
    let prev = 0;
    for (let e = 0; e < this.#distinct; e++) {
      const entryEnd = this.#entryEnds[e]!;
      set.add(decoder.decode(this.#bytes.subarray(prev, entryEnd)));
      prev = entryEnd;
    }
    set.add(decoder.decode(this.#bytes.subarray(start, end)));
    this.#fallback = set;
    this.#table = new Int32Array(0);
  }

  #growKept(): void {
    const min = this.#count + 1;
    this.#keptEntries = grown(this.#keptEntries, min);
    this.#urlEnds = grown(this.#urlEnds, min);
    this.#lastModified = grown(this.#lastModified, min);
    this.#priority = grown(this.#priority, min);
    this.#changeFrequency = grown(this.#changeFrequency, min);
  }

  /**
   * Packs the pages kept so far; every typed array gets its own exactly
   * sized buffer, ready for a transfer list. The builder is emptied.
   *
   * @returns The packed pages.
   */
  build(): PackedPages {
    this.#flush();
    const count = this.#count;
    let urlBytes: Uint8Array;
    if (count === this.#distinct) {
      urlBytes = this.#bytes.slice(0, this.#used);
    } else {
      urlBytes = new Uint8Array(count === 0 ? 0 : this.#urlEnds[count - 1]!);
      let at = 0;
      for (let k = 0; k < count; k++) {
        const e = this.#keptEntries[k]!;
        const piece = this.#bytes.subarray(
          e === 0 ? 0 : this.#entryEnds[e - 1]!,
          this.#entryEnds[e],
        );
        urlBytes.set(piece, at);
        at += piece.length;
      }
    }
    const pages: PackedPages = {
      count,
      urlBytes,
      urlEnds: this.#urlEnds.slice(0, count),
      lastModified: this.#lastModified.slice(0, count),
      priority: this.#priority.slice(0, count),
      changeFrequency: this.#changeFrequency.slice(0, count),
      extras: this.#extras.length === 0 ? "" : `[${this.#extras.join(",")}]`,
    };
    this.#reset();
    return pages;
  }

  #reset(): void {
    this.#scratch = new Uint8Array(0);
    this.#bytes = new Uint8Array(0);
    this.#used = 0;
    this.#entryEnds = new Uint32Array(1024);
    this.#entryHashes = new Uint32Array(1024);
    this.#distinct = 0;
    this.#table = new Int32Array(4096);
    this.#probes = 0;
    this.#fallback = null;
    this.#count = 0;
    this.#extras = [];
  }
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
