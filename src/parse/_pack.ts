/**
 * Collects the pages of one sitemap into {@linkcode PackedPages}: each URL is
 * copied to UTF-8 the moment it is added, deduplicated through a hash table
 * over those bytes, and its columns go into growable typed arrays.
 *
 * Why not a `Set<string>`: V8 keeps a substring pointing into the string it
 * was cut from, so holding URL strings sliced from 1 MiB decoded chunks
 * would keep the whole document alive; copying them costs an allocation
 * each, and V8's string hashing alone took about as long as tokenizing. One
 * pass over each URL's characters here copies, hashes and checks for
 * non-ASCII at once, and nothing of the document is retained.
 *
 * @module
 */
import type { PackedPages, PageExtrasData } from "./_result.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a's prime; the basis is random per builder. */
const FNV_PRIME = 0x01000193;

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

/** Appends pages, drops duplicates and pages older than `since`, and packs them. */
export class PackedPagesBuilder {
  readonly #since: number;
  readonly #probesPerEntry: number;
  readonly #probeSlack: number;
  readonly #seed = (Math.random() * 0x1_0000_0000) >>> 0;

  // Every distinct URL, kept or not (a later duplicate of a filtered page is
  // still a duplicate): UTF-8 bytes, end offsets and hashes.
  #bytes = new Uint8Array(64 << 10);
  #used = 0;
  #entryEnds = new Uint32Array(1024);
  #entryHashes = new Uint32Array(1024);
  #distinct = 0;
  /** Open addressing, linear probing: 0 empty, else entry index + 1. */
  #table = new Int32Array(2048);
  #probes = 0;
  /**
   * Taken over from the table if probing ever gets long (hash flooding from a
   * hostile document): V8's Set has its own seeded hash and bounded cost.
   */
  #fallback: Set<string> | null = null;

  // The kept pages.
  #count = 0;
  #keptEntries = new Uint32Array(1024);
  #urlEnds = new Uint32Array(1024);
  #utf16 = 0;
  #lastModified = new Float64Array(1024);
  #priority = new Float64Array(1024);
  #changeFrequency = new Uint8Array(1024);
  #extras: string[] = [];

  /**
   * @param since Keep only pages whose lastmod is >= this (epoch ms) or
   * missing; NaN keeps all.
   * @param limits When probing has cost more than `probesPerEntry` per entry
   * plus `probeSlack`, dedup moves to a Set (tests lower these to force it).
   */
  constructor(
    since: number = NaN,
    limits: { readonly probesPerEntry?: number; readonly probeSlack?: number } = {},
  ) {
    this.#since = since;
    this.#probesPerEntry = limits.probesPerEntry ?? 16;
    this.#probeSlack = limits.probeSlack ?? 4096;
  }

  /** Whether dedup has moved to a Set after too many probes. */
  get floodFallback(): boolean {
    return this.#fallback !== null;
  }

  /** Distinct pages added so far, before the `since` filter. */
  get found(): number {
    return this.#distinct;
  }

  /** Pages kept so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Adds one page unless its URL was already added (the first one wins) or
   * its lastmod is before `since`.
   *
   * @param url An absolute, normalised URL.
   * @param lastModified Epoch ms, or NaN.
   * @param priority Already in [0, 1].
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null.
   * @returns Whether the page was kept.
   */
  add(
    url: string,
    lastModified: number,
    priority: number,
    changeFrequency: number,
    extras: PageExtrasData | null,
  ): boolean {
    const start = this.#used;
    const n = url.length;
    if (start + n * 3 > this.#bytes.length) this.#bytes = grown(this.#bytes, start + n * 3);
    const bytes = this.#bytes;
    let h = this.#seed;
    let end = start;
    for (let i = 0; i < n; i++) {
      const c = url.charCodeAt(i);
      if (c > 0x7f) {
        end = -1;
        break;
      }
      bytes[end++] = c;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    if (end < 0) {
      // Normalised URLs are ASCII; this is for callers that pass anything else.
      end = start + encoder.encodeInto(url, bytes.subarray(start)).written;
      h = this.#seed;
      for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
    }
    h = finalMix(h);

    if (this.#isDuplicate(start, end, h)) return false;
    const e = this.#distinct;
    if (e === this.#entryEnds.length) {
      this.#entryEnds = grown(this.#entryEnds, e + 1);
      this.#entryHashes = grown(this.#entryHashes, e + 1);
    }
    this.#entryEnds[e] = end;
    this.#entryHashes[e] = h;
    this.#distinct = e + 1;
    this.#used = end;

    if (lastModified < this.#since) return false;
    const i = this.#count;
    if (i === this.#keptEntries.length) this.#growKept();
    this.#keptEntries[i] = e;
    this.#utf16 += n;
    this.#urlEnds[i] = this.#utf16;
    this.#lastModified[i] = lastModified;
    this.#priority[i] = priority;
    this.#changeFrequency[i] = changeFrequency;
    // Serialising now copies every string out of the document; NaN dates
    // become null, which readers map back to "absent".
    if (extras !== null) this.#extras.push(JSON.stringify([i, extras]));
    this.#count = i + 1;
    return true;
  }

  /**
   * Whether bytes [start, end) equal an earlier entry; otherwise records the
   * new entry (index `#distinct`) in the table.
   */
  #isDuplicate(start: number, end: number, h: number): boolean {
    if (this.#fallback !== null) {
      const size = this.#fallback.size;
      this.#fallback.add(decoder.decode(this.#bytes.subarray(start, end)));
      return this.#fallback.size === size;
    }
    if ((this.#distinct + 1) * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    const table = this.#table;
    const mask = table.length - 1;
    const bytes = this.#bytes;
    const len = end - start;
    let slot = h & mask;
    for (;;) {
      const v = table[slot]!;
      if (v === 0) break;
      const e = v - 1;
      if (this.#entryHashes[e] === h) {
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
    table[slot] = this.#distinct + 1;
    if (this.#probes > this.#probesPerEntry * this.#distinct + this.#probeSlack) {
      this.#switchToSet(start, end);
    }
    return false;
  }

  #rehash(size: number): void {
    const table = new Int32Array(size);
    const mask = size - 1;
    const hashes = this.#entryHashes;
    for (let e = 0; e < this.#distinct; e++) {
      let slot = hashes[e]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = e + 1;
    }
    this.#table = table;
  }

  /** Moves every entry so far, plus bytes [start, end) being added, into a Set. */
  #switchToSet(start: number, end: number): void {
    const set = new Set<string>();
    let prev = 0;
    for (let e = 0; e < this.#distinct; e++) {
      const end = this.#entryEnds[e]!;
      set.add(decoder.decode(this.#bytes.subarray(prev, end)));
      prev = end;
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
    const count = this.#count;
    let urlBytes: Uint8Array;
    if (count === this.#distinct) {
      urlBytes = this.#bytes.slice(0, this.#used);
    } else {
      let total = 0;
      for (let i = 0; i < count; i++) {
        const e = this.#keptEntries[i]!;
        total += this.#entryEnds[e]! - (e === 0 ? 0 : this.#entryEnds[e - 1]!);
      }
      urlBytes = new Uint8Array(total);
      let at = 0;
      for (let i = 0; i < count; i++) {
        const e = this.#keptEntries[i]!;
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
    this.#bytes = new Uint8Array(0);
    this.#used = 0;
    this.#entryEnds = new Uint32Array(1024);
    this.#entryHashes = new Uint32Array(1024);
    this.#distinct = 0;
    this.#table = new Int32Array(2048);
    this.#probes = 0;
    this.#fallback = null;
    this.#count = 0;
    this.#utf16 = 0;
    this.#extras = [];
  }
}
