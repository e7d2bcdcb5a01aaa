/**
 * The `since` filter over stored page columns: the crawler applies it to a
 * cached result it reuses, the parse worker to a result it stored unfiltered.
 *
 * @module
 */
import { extrasEntries, packExtras } from "./parse/_extras.ts";
import type { KeptExtras, PackedExtras, PackedPages, PageExtrasData } from "./parse/_result.ts";
import { urlByteLength, utf8Offset } from "./parse/_url_bytes.ts";

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
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { filterPagesSince } from "./_pages_since.ts";
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
 * const kept = filterPagesSince(pages, Date.UTC(2025, 0, 1));
 * strictEqual(kept.count, 1);
 * deepStrictEqual(kept.urlEnds, new Uint32Array([16]));
 * ```
 */
export function filterPagesSince(pages: PackedPages, since: number): PackedPages {
  if (Number.isNaN(since)) return pages;
  const n = pages.count;
  const lastModified = pages.lastModified;
  let kept = 0;
  for (let i = 0; i < n; i++) if (!(lastModified[i]! < since)) kept++;
  if (kept === n) return pages;
  const spans = keptUrlSpans(pages, since, kept);
  const columns = copyKept(pages, spans, kept);
  return {
    count: kept,
    ...columns,
    extras: pages.extras === null ? null : keptExtras(pages.extras, spans.keptIndex, kept),
  };
}

/** Where each kept page's URL lies in the URL bytes, and each page's place among the kept. */
interface KeptSpans {
  /** Per page: its index among the kept pages, -1 when left out. */
  readonly keptIndex: Int32Array;
  /** Per kept page: the byte where its URL starts. */
  readonly starts: Uint32Array;
  /** Per kept page: the byte where its URL ends. */
  readonly byteEnds: Uint32Array;
  /** The URL bytes of the kept pages, in all. */
  readonly bytesKept: number;
}

/** The first pass: sizes the kept URL bytes (the URL ends count UTF-16 units, not bytes). */
function keptUrlSpans(pages: PackedPages, since: number, kept: number): KeptSpans {
  const n = pages.count;
  const ends = pages.urlEnds;
  const src = pages.urlBytes;
  const totalUnits = n === 0 ? 0 : ends[n - 1]!;
  const ascii = urlByteLength(pages) === totalUnits;
  const keptIndex = new Int32Array(n).fill(-1);
  const starts = new Uint32Array(kept + 1);
  const byteEnds = new Uint32Array(kept);
  let byte = 0;
  let unit = 0;
  let bytesKept = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const endUnit = ends[i]!;
    const endByte = ascii ? endUnit : utf8Offset(src, byte, unit, endUnit);
    if (!(pages.lastModified[i]! < since)) {
      starts[k] = byte;
      byteEnds[k] = endByte;
      bytesKept += endByte - byte;
      keptIndex[i] = k;
      k++;
    }
    byte = endByte;
    unit = endUnit;
  }
  return { keptIndex, starts, byteEnds, bytesKept };
}

/** The second pass: the kept pages' columns, in new buffers. */
function copyKept(
  pages: PackedPages,
  spans: KeptSpans,
  kept: number,
): Omit<PackedPages, "count" | "extras"> {
  const { keptIndex, starts, byteEnds } = spans;
  const ends = pages.urlEnds;
  const urlBytes = new Uint8Array(spans.bytesKept);
  const urlEnds = new Uint32Array(kept);
  const lastModified = new Float64Array(kept);
  const priority = new Float64Array(kept);
  const changeFrequency = new Uint8Array(kept);
  let out = 0;
  let outUnits = 0;
  let unit = 0;
  for (let i = 0; i < pages.count; i++) {
    const endUnit = ends[i]!;
    const j = keptIndex[i]!;
    if (j >= 0) {
      urlBytes.set(pages.urlBytes.subarray(starts[j]!, byteEnds[j]!), out);
      out += byteEnds[j]! - starts[j]!;
      outUnits += endUnit - unit;
      urlEnds[j] = outUnits;
      lastModified[j] = pages.lastModified[i]!;
      priority[j] = pages.priority[i]!;
      changeFrequency[j] = pages.changeFrequency[i]!;
    }
    unit = endUnit;
  }
  return { urlBytes, urlEnds, lastModified, priority, changeFrequency };
}

/** The extras of the kept pages, renumbered. */
function keptExtras(
  extras: PackedExtras,
  keptIndex: Int32Array,
  kept: number,
): PackedExtras | null {
  if (extras.kind === "kept") return keptSpans(extras, keptIndex, kept);
  const entries: [number, PageExtrasData][] = [];
  for (const [index, data] of extrasEntries(extras)) {
    const j = keptIndex[index];
    if (j !== undefined && j >= 0) entries.push([j, data]);
  }
  return packExtras(entries, kept);
}

/** Kept extensions of the kept pages: their spans, renumbered (the bytes are shared, not copied). */
function keptSpans(x: KeptExtras, keptIndex: Int32Array, kept: number): KeptExtras | null {
  const pageStarts = new Uint32Array(kept + 1);
  const spanAt = new Uint32Array(kept);
  let total = 0;
  for (let i = 0; i < keptIndex.length; i++) {
    const j = keptIndex[i]!;
    if (j < 0) continue;
    total += x.pageStarts[i + 1]! - x.pageStarts[i]!;
    spanAt[j] = x.spanAt[i]!;
    pageStarts[j + 1] = total;
  }
  return total === 0 ? null : { ...x, pageStarts, spanAt };
}
