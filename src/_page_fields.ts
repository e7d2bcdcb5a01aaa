/**
 * Which fields of one page differ between two trees, read from the packed
 * columns: numbers compared in place, extensions by their bytes when both
 * sitemaps share a dictionary, else decoded and compared by value.
 *
 * @module
 */
import { extrasReader, KeptBytes, type PageExtrasReader } from "./parse/_kept_extras.ts";
import type { PackedExtras, PackedPages } from "./parse/_result.ts";

/** The bits of a page's changed fields, in the order of `PAGE_CHANGE_FIELDS`. */
export const F_LAST_MODIFIED = 1;
export const F_CHANGE_FREQUENCY = 2;
export const F_PRIORITY = 4;
export const F_IMAGES = 8;
export const F_VIDEOS = 16;
export const F_ALTERNATES = 32;
export const F_NEWS_STORY = 64;
export const F_SITEMAP = 128;

function sameNumber(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/** Codes past the known frequencies read as none. */
function frequency(code: number): number {
  return code <= 7 ? code : 0;
}

/** Deep equality of extension data: plain objects, arrays, strings, numbers (NaN equal to NaN). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return a !== a && b !== b;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const key of ka) {
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) {
      return false;
    }
  }
  return true;
}

const NONE: readonly never[] = [];

/** Compares pages across two sets of columns, keeping per-sitemap readers and answers. */
export class FieldComparer {
  readonly #readers = new Map<PackedExtras, PageExtrasReader>();
  /** Kept extensions' inflated bytes, for comparing their spans. */
  readonly #kept = new KeptBytes();
  #lastA: PackedExtras | null = null;
  #lastB: PackedExtras | null = null;
  #lastSame = false;

  /**
   * The bits of the fields (all but `sitemap`) that differ between page
   * `ia` of `a` and page `ib` of `b`.
   */
  compare(a: PackedPages, ia: number, b: PackedPages, ib: number): number {
    let bits = 0;
    if (!sameNumber(a.lastModified[ia]!, b.lastModified[ib]!)) bits |= F_LAST_MODIFIED;
    if (frequency(a.changeFrequency[ia]!) !== frequency(b.changeFrequency[ib]!)) {
      bits |= F_CHANGE_FREQUENCY;
    }
    if (!sameNumber(a.priority[ia]!, b.priority[ib]!)) bits |= F_PRIORITY;
    const xa = a.extras;
    const xb = b.extras;
    const hasA = xa !== null && xa.pageStarts[ia + 1]! > xa.pageStarts[ia]!;
    const hasB = xb !== null && xb.pageStarts[ib + 1]! > xb.pageStarts[ib]!;
    if (!hasA && !hasB) return bits;
    if (
      hasA && hasB && this.#sameDictionary(xa, xb) && sameRange(xa, ia, xb, ib, this.#kept)
    ) return bits;
    return bits | this.#compareExtras(hasA ? xa : null, ia, hasB ? xb : null, ib);
  }

  #compareExtras(xa: PackedExtras | null, ia: number, xb: PackedExtras | null, ib: number): number {
    const ea = xa === null ? null : this.#reader(xa).page(ia);
    const eb = xb === null ? null : this.#reader(xb).page(ib);
    let bits = 0;
    if (!sameValue(ea?.images ?? NONE, eb?.images ?? NONE)) bits |= F_IMAGES;
    if (!sameValue(ea?.videos ?? NONE, eb?.videos ?? NONE)) bits |= F_VIDEOS;
    if (!sameValue(ea?.alternates ?? NONE, eb?.alternates ?? NONE)) bits |= F_ALTERNATES;
    if (!sameValue(ea?.newsStory ?? null, eb?.newsStory ?? null)) bits |= F_NEWS_STORY;
    return bits;
  }

  #reader(x: PackedExtras): PageExtrasReader {
    let reader = this.#readers.get(x);
    if (reader === undefined) this.#readers.set(x, reader = extrasReader(x));
    return reader;
  }

  /**
   * Whether equal bytes of two sitemaps' pages mean equal values: the same
   * dictionary (encoded), or the same root tag and base (kept spans).
   */
  #sameDictionary(xa: PackedExtras, xb: PackedExtras): boolean {
    if (xa === this.#lastA && xb === this.#lastB) return this.#lastSame;
    this.#lastA = xa;
    this.#lastB = xb;
    if (xa === xb) return this.#lastSame = true;
    if (xa.kind === "kept" || xb.kind === "kept") {
      return this.#lastSame = xa.kind === "kept" && xb.kind === "kept" && xa.base === xb.base &&
        sameArray(xa.root, xb.root);
    }
    return this.#lastSame = sameArray(xa.dictText, xb.dictText) &&
      sameArray(xa.dictEnds, xb.dictEnds);
  }
}

function sameArray(a: Uint8Array | Uint32Array, b: Uint8Array | Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameRange(
  xa: PackedExtras,
  ia: number,
  xb: PackedExtras,
  ib: number,
  kept: KeptBytes,
): boolean {
  let as = xa.pageStarts[ia]!;
  const n = xa.pageStarts[ia + 1]! - as;
  let bs = xb.pageStarts[ib]!;
  if (xb.pageStarts[ib + 1]! - bs !== n) return false;
  let da = xa.data;
  let db = xb.data;
  if (xa.kind === "kept" && xb.kind === "kept") {
    // The same span bytes under the same root and base read the same.
    da = kept.of(xa);
    db = kept.of(xb);
    as = xa.spanAt[ia]!;
    bs = xb.spanAt[ib]!;
  }
  for (let i = 0; i < n; i++) if (da[as + i] !== db[bs + i]) return false;
  return true;
}
