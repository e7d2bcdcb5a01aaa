/**
 * One pages node's columns ({@linkcode PackedPages}) in a snapshot, and back.
 *
 * - URLs: front-coded, each as the bytes it shares with the one before
 *   (a varint), then the rest (its length, then its bytes). Sitemaps list
 *   URLs of one site, often in order, so most of each URL is shared.
 * - Lastmods: one unit for the node (days, seconds or milliseconds: the
 *   coarsest every value is a whole number of), then per page the zigzag
 *   difference from the previous lastmod in that unit, plus one (0 for
 *   none); raw float64s when a value fits no unit.
 * - Change frequency and priority: one byte per page (the frequency's code,
 *   and the priority as tenths, or an escape followed by its float64), or
 *   one byte for the node when every page has the same.
 * - Extensions: the packed extras columns as they are (dictionary, stream),
 *   with each page's share of the stream as a length.
 *
 * @module
 */
import type { KeptCodec, KeptExtras, PackedExtras, PackedPages } from "./parse/_result.ts";
import { urlByteEnds } from "./parse/_url_bytes.ts";
import { packPageObjects } from "./objects/_columns.ts";
import { type ByteReader, type ByteWriter, malformed } from "./_snapshot_io.ts";

const DAY_MS = 86_400_000;
/** Lastmod modes, and the unit of the three that have one. */
const L_NONE = 0;
const L_DAYS = 1;
const L_SECONDS = 2;
const L_MS = 3;
const L_RAW = 4;
const UNIT = [0, DAY_MS, 1000, 1];
/** Past this many units, differences could leave the integers a float64 holds exactly. */
const MAX_UNITS = 2 ** 50;

/** Priority codes: tenths 0..10, or this escape and a float64. */
const P_ESCAPE = 11;
const PRIORITIES = Array.from({ length: 11 }, (_, k) => k / 10);
const C_SAME = 0;
const C_EACH = 1;

/**
 * Appends a node's pages.
 *
 * @param w The snapshot being written.
 * @param p The columns.
 */
export function writePages(w: ByteWriter, p: PackedPages): void {
  const n = p.count;
  w.varint(n);
  if (n === 0) return;
  const ends = urlByteEnds(p);
  w.varint(ends[n - 1]!);
  writeUrls(w, p.urlBytes, ends, n);
  writeLastModified(w, p.lastModified, n);
  writeCodes(w, p.priority, p.changeFrequency, n);
  writeExtras(w, p.extras, n);
}

function writeUrls(w: ByteWriter, bytes: Uint8Array, ends: Uint32Array, n: number): void {
  let out = w.buffer;
  let o = w.length;
  let previous = 0;
  let previousEnd = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = ends[i]!;
    const length = end - start;
    const limit = Math.min(length, previousEnd - previous);
    let shared = 0;
    while (shared < limit && bytes[start + shared] === bytes[previous + shared]) shared++;
    const rest = length - shared;
    if (o + rest + 10 > out.length) {
      w.length = o;
      out = w.room(rest + 10);
    }
    for (let v = shared; true; v >>>= 7) {
      if (v < 0x80) {
        out[o++] = v;
        break;
      }
      out[o++] = (v & 0x7f) | 0x80;
    }
    for (let v = rest; true; v >>>= 7) {
      if (v < 0x80) {
        out[o++] = v;
        break;
      }
      out[o++] = (v & 0x7f) | 0x80;
    }
    for (let j = start + shared; j < end; j++) out[o++] = bytes[j]!;
    previous = start;
    previousEnd = end;
    start = end;
  }
  w.length = o;
}

/** The coarsest mode that holds every lastmod exactly. */
function lastModifiedMode(values: Float64Array, n: number): number {
  let any = false;
  let days = true;
  let seconds = true;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    any = true;
    if (!(Math.abs(v) <= MAX_UNITS) || v % 1 !== 0) return L_RAW;
    if (v % 1000 !== 0) seconds = days = false;
    else if (v % DAY_MS !== 0) days = false;
  }
  return !any ? L_NONE : days ? L_DAYS : seconds ? L_SECONDS : L_MS;
}

function writeLastModified(w: ByteWriter, values: Float64Array, n: number): void {
  const mode = lastModifiedMode(values, n);
  w.byte(mode);
  if (mode === L_NONE) return;
  if (mode === L_RAW) {
    for (let i = 0; i < n; i++) w.f64(values[i]!);
    return;
  }
  const unit = UNIT[mode]!;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v !== v) {
      w.byte(0);
      continue;
    }
    const q = v / unit;
    const d = q - previous;
    previous = q;
    w.varint((d >= 0 ? d * 2 : -d * 2 - 1) + 1);
  }
}

function priorityCode(p: number): number {
  const k = Math.round(p * 10);
  return k >= 0 && k <= 10 && PRIORITIES[k] === p && !Object.is(p, -0) ? k : P_ESCAPE;
}

function writeCodes(w: ByteWriter, priority: Float64Array, frequency: Uint8Array, n: number): void {
  // Codes past the known frequencies read as none, so they are written as none.
  const code = (i: number): number =>
    (frequency[i]! <= 7 ? frequency[i]! : 0) | (priorityCode(priority[i]!) << 3);
  const first = code(0);
  let same = true;
  for (let i = 1; i < n && same; i++) {
    same = code(i) === first && Object.is(priority[i], priority[0]);
  }
  if (same) {
    w.byte(C_SAME);
    w.byte(first);
    if (first >> 3 === P_ESCAPE) w.f64(priority[0]!);
    return;
  }
  w.byte(C_EACH);
  for (let i = 0; i < n; i++) {
    const c = code(i);
    w.byte(c);
    if (c >> 3 === P_ESCAPE) w.f64(priority[i]!);
  }
}

/** The extensions flag: none, encoded columns, kept bytes (format version 3). */
const X_NONE = 0;
const X_ENCODED = 1;
const X_KEPT = 2;
const KEPT_CODECS: readonly KeptCodec[] = ["none", "deflate-raw", "gzip"];

function writeExtras(w: ByteWriter, x: PackedExtras | null, n: number): void {
  w.byte(x === null ? X_NONE : x.kind === "kept" ? X_KEPT : X_ENCODED);
  if (x === null) return;
  if (x.kind === "kept") return writeKept(w, x, n);
  w.varint(x.dictText.length);
  w.bytes(x.dictText);
  w.varint(x.dictEnds.length);
  for (let k = 0, previous = 0; k < x.dictEnds.length; k++) {
    w.varint(x.dictEnds[k]! - previous);
    previous = x.dictEnds[k]!;
  }
  const starts = x.pageStarts;
  w.varint(starts[n]! - starts[0]!);
  w.bytes(x.data.subarray(starts[0]!, starts[n]!));
  for (let i = 0; i < n; i++) w.varint(starts[i + 1]! - starts[i]!);
}

/**
 * Reads a node's pages back.
 *
 * @param r The snapshot being read, at the node's pages.
 * @param kept Whether the format holds kept extensions (version 3 on).
 * @returns The columns, each in a buffer of its own.
 */
export function readPages(r: ByteReader, kept: boolean): PackedPages {
  // Every page takes two bytes at least (the two varints of its URL).
  const n = r.count("page count", 2);
  if (n === 0) return packPageObjects([]);
  const total = r.varint("URL bytes");
  if (total > 0x7fff_ffff) malformed(`${total} URL bytes`);
  const urlBytes = new Uint8Array(total);
  const urlEnds = new Uint32Array(n);
  readUrls(r, urlBytes, urlEnds, n);
  const lastModified = readLastModified(r, n);
  const { priority, changeFrequency } = readCodes(r, n);
  return {
    count: n,
    urlBytes,
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    extras: readExtras(r, n, kept),
  };
}

/**
 * Rebuilds the URL bytes and their ends in UTF-16 units. A URL's units are
 * its bytes when it has no byte past 0x7f (the usual case); the others are
 * walked, and checked to be UTF-8, from their first such byte.
 */
function readUrls(r: ByteReader, out: Uint8Array, ends: Uint32Array, n: number): void {
  const b = r.buffer;
  const stop = r.end;
  const total = out.length;
  const words = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let at = r.at;
  let o = 0;
  let units = 0;
  let previous = 0;
  /** Where the previous URL's first byte past 0x7f is, from its start; -1 when none. */
  let previousHigh = -1;
  for (let i = 0; i < n; i++) {
    // Two varints of at most four bytes each (a URL is shorter than 2^28 bytes).
    if (stop - at < 8 && !varintsFit(b, at, stop)) {
      malformed(`page ${i}'s URL runs past the end`);
    }
    let shared = b[at]!;
    if (shared < 0x80) at++;
    else shared = longVarint(b, at, i), at = varintEnd;
    let rest = b[at]!;
    if (rest < 0x80) at++;
    else rest = longVarint(b, at, i), at = varintEnd;
    if (shared > o - previous) malformed(`page ${i}'s URL shares more than the one before holds`);
    if (rest > stop - at || o + shared + rest > total) {
      malformed(`page ${i}'s URL runs past the end`);
    }
    const start = o;
    // Four bytes a step: the shared part is most of the bytes (bench/compare.ts times decoding).
    let j = 0;
    for (; j + 4 <= shared; j += 4) words.setInt32(o + j, words.getInt32(previous + j, true), true);
    for (; j < shared; j++) out[o + j] = out[previous + j]!;
    o += shared;
    let high = previousHigh >= 0 && previousHigh < shared ? previousHigh : -1;
    let any = 0;
    if (rest > 64) {
      out.set(b.subarray(at, at + rest), o);
      for (let j = at; j < at + rest; j++) any |= b[j]!;
      o += rest;
      at += rest;
    } else {
      for (let j = 0; j < rest; j++) any |= out[o++] = b[at++]!;
    }
    if (high < 0 && any >= 0x80) {
      high = shared;
      while (out[start + high]! < 0x80) high++;
    }
    units += high < 0 ? o - start : high + utf8Units(out, start + high, o, i);
    ends[i] = units;
    previous = start;
    previousHigh = high;
  }
  if (o !== total) malformed(`the URLs hold ${o} bytes, not the ${total} announced`);
  r.at = at;
}

/** Where the varint {@linkcode longVarint} read last ended. */
let varintEnd = 0;

/** A URL length of two to four varint bytes at `at` (bounds checked by the caller); sets `varintEnd`. */
function longVarint(b: Uint8Array, at: number, page: number): number {
  let v = 0;
  for (let shift = 0;; shift += 7) {
    const c = b[at++]!;
    v |= (c & 0x7f) << shift;
    if (c < 0x80) break;
    if (shift === 21) malformed(`page ${page}'s URL is too long`);
  }
  varintEnd = at;
  return v;
}

/** Whether two varints start at `at` and end by `stop` (the slow check, near the end). */
function varintsFit(b: Uint8Array, at: number, stop: number): boolean {
  for (let k = 0; k < 2; k++) {
    do if (at >= stop) return false; while (b[at++]! >= 0x80);
  }
  return true;
}

/**
 * UTF-16 units of the UTF-8 bytes `[a, e)`, which must be well-formed (the
 * decoder would turn anything else into replacement characters, and the
 * offsets would no longer match).
 */
function utf8Units(b: Uint8Array, a: number, e: number, page: number): number {
  let units = 0;
  let i = a;
  while (i < e) {
    const c = b[i]!;
    let size = 1;
    let low = 0x80;
    let high = 0xbf;
    if (c < 0x80) size = 1;
    else if (c >= 0xc2 && c <= 0xdf) size = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      size = 3;
      if (c === 0xe0) low = 0xa0;
      else if (c === 0xed) high = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      size = 4;
      if (c === 0xf0) low = 0x90;
      else if (c === 0xf4) high = 0x8f;
    } else malformed(`page ${page}'s URL is not UTF-8`);
    if (i + size > e) malformed(`page ${page}'s URL is not UTF-8`);
    for (let k = 1; k < size; k++) {
      const d = b[i + k]!;
      if (d < (k === 1 ? low : 0x80) || d > (k === 1 ? high : 0xbf)) {
        malformed(`page ${page}'s URL is not UTF-8`);
      }
    }
    i += size;
    units += size === 4 ? 2 : 1;
  }
  return units;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function readLastModified(r: ByteReader, n: number): Float64Array {
  const values = new Float64Array(n);
  const mode = r.byte("lastmod mode");
  if (mode === L_NONE) return values.fill(NaN);
  if (mode === L_RAW) {
    for (let i = 0; i < n; i++) values[i] = r.f64("lastmod");
    return values;
  }
  if (mode !== L_DAYS && mode !== L_SECONDS && mode !== L_MS) malformed(`lastmod mode ${mode}`);
  const unit = UNIT[mode]!;
  const b = r.buffer;
  const stop = r.end;
  let at = r.at;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    let x: number;
    const c = at < stop ? b[at]! : 0x80;
    const d = at + 1 < stop ? b[at + 1]! : 0x80;
    if (c < 0x80) {
      // Days apart, or none: one byte.
      x = c;
      at += 1;
    } else if (d < 0x80) {
      x = (c & 0x7f) | (d << 7);
      at += 2;
    } else {
      x = 0;
      let scale = 1;
      for (let k = 0;; k++) {
        if (at >= stop || k > 7) malformed(`page ${i}'s lastmod runs past the end`);
        const e = b[at++]!;
        x += (e & 0x7f) * scale;
        if (e < 0x80) break;
        scale *= 0x80;
      }
    }
    if (x === 0) {
      values[i] = NaN;
      continue;
    }
    const z = x - 1;
    previous += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    values[i] = previous * unit;
  }
  r.at = at;
  return values;
}

function readCodes(
  r: ByteReader,
  n: number,
): { priority: Float64Array; changeFrequency: Uint8Array } {
  const priority = new Float64Array(n);
  const changeFrequency = new Uint8Array(n);
  const mode = r.byte("priority mode");
  if (mode !== C_SAME && mode !== C_EACH) malformed(`priority mode ${mode}`);
  for (let i = 0; i < (mode === C_SAME ? 1 : n); i++) {
    const c = r.byte("priority");
    const k = c >> 3;
    if (k > P_ESCAPE) malformed(`priority code ${k}`);
    priority[i] = k === P_ESCAPE ? r.f64("priority") : PRIORITIES[k]!;
    changeFrequency[i] = c & 7;
  }
  if (mode === C_SAME) {
    priority.fill(priority[0]!);
    changeFrequency.fill(changeFrequency[0]!);
  }
  return { priority, changeFrequency };
}

/** Kept extensions: codec, size, base, root tag, bytes, then each page's span (start, length). */
function writeKept(w: ByteWriter, x: KeptExtras, n: number): void {
  w.byte(KEPT_CODECS.indexOf(x.codec));
  w.varint(x.size);
  w.string(x.base);
  w.varint(x.root.length);
  w.bytes(x.root);
  w.varint(x.data.length);
  w.bytes(x.data);
  for (let i = 0; i < n; i++) {
    const length = x.pageStarts[i + 1]! - x.pageStarts[i]!;
    w.varint(length);
    if (length > 0) w.varint(x.spanAt[i]!);
  }
}

function readKept(r: ByteReader, n: number): KeptExtras {
  const code = r.byte("kept extensions codec");
  const codec = KEPT_CODECS[code];
  if (codec === undefined) malformed(`kept extensions codec ${code}`);
  const size = r.varint("kept extensions size");
  const base = r.string("kept extensions base");
  const root = r.bytes(r.varint("kept extensions root"), "kept extensions root").slice();
  const data = r.bytes(r.varint("kept extensions"), "kept extensions").slice();
  const pageStarts = new Uint32Array(n + 1);
  const spanAt = new Uint32Array(n);
  for (let i = 0, total = 0; i < n; i++) {
    const length = r.varint("page extensions");
    if (length > 0) {
      const at = r.varint("page extensions");
      if (at + length > size) malformed(`page ${i}'s extensions run past the end`);
      spanAt[i] = at;
    }
    pageStarts[i + 1] = total += length;
  }
  return { kind: "kept", codec: codec!, size, base, root, data, pageStarts, spanAt };
}

function readExtras(r: ByteReader, n: number, kept: boolean): PackedExtras | null {
  const flag = r.byte("extensions flag");
  if (flag === X_NONE) return null;
  if (flag === X_KEPT && kept) return readKept(r, n);
  if (flag !== X_ENCODED) malformed(`extensions flag ${flag}`);
  const dictText = r.bytes(r.varint("extensions dictionary"), "extensions dictionary").slice();
  let units: number;
  try {
    units = strictDecoder.decode(dictText).length;
  } catch {
    return malformed("the extensions dictionary is not UTF-8");
  }
  const entries = r.count("extensions dictionary entries");
  const dictEnds = new Uint32Array(entries);
  for (let k = 0, end = 0; k < entries; k++) {
    dictEnds[k] = end += r.varint("extensions dictionary entry");
    if (end > units) malformed("an extensions dictionary entry runs past the dictionary");
  }
  const data = r.bytes(r.varint("extensions"), "extensions").slice();
  const pageStarts = new Uint32Array(n + 1);
  for (let i = 0, start = 0; i < n; i++) {
    pageStarts[i + 1] = start += r.varint("page extensions");
    if (start > data.length) malformed(`page ${i}'s extensions run past the end`);
  }
  if (pageStarts[n] !== data.length) malformed("the pages' extensions do not add up");
  return { dictText, dictEnds, data, pageStarts };
}
