/**
 * Byte offsets of the URLs in {@linkcode PackedPages}: its `urlEnds` count
 * UTF-16 units of the decoded text, while the cache, the snapshots and the
 * tree comparison work on the UTF-8 bytes.
 *
 * @module
 */
import type { PackedPages } from "./_result.ts";

/**
 * The UTF-8 length of the first `count` URLs (the buffer may be longer than they need).
 *
 * @param p The columns.
 * @returns Bytes of `p.urlBytes` the pages use.
 */
export function urlByteLength(p: PackedPages): number {
  if (p.count === 0) return 0;
  const units = p.urlEnds[p.count - 1]!;
  // ASCII bytes are one UTF-16 unit each: the usual case costs a word scan, not a walk.
  if (isAsciiPrefix(p.urlBytes, units)) return units;
  return utf8Offset(p.urlBytes, 0, 0, units);
}

/**
 * Whether the first `n` bytes are all below 0x80, tested four at a time.
 *
 * @param bytes The bytes.
 * @param n How many to test.
 * @returns False also when there are fewer than `n` bytes.
 */
export function isAsciiPrefix(bytes: Uint8Array, n: number): boolean {
  if (n > bytes.length) return false;
  let i = 0;
  while (i < n && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i]! >= 0x80) return false;
    i++;
  }
  const words = (n - i) >>> 2;
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
  for (let w = 0; w < words; w++) if ((view[w]! & 0x80808080) !== 0) return false;
  for (i += words * 4; i < n; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/**
 * Walks UTF-8 bytes from `byte` (at UTF-16 offset `unit`) to UTF-16 offset
 * `targetUnit`; returns the byte offset there. ASCII costs one step a byte.
 *
 * @param bytes Valid UTF-8.
 * @param byte Where to start, in bytes.
 * @param unit Where to start, in UTF-16 units.
 * @param targetUnit Where to stop, in UTF-16 units.
 * @returns The byte offset of `targetUnit` (at most `bytes.length`).
 */
export function utf8Offset(
  bytes: Uint8Array,
  byte: number,
  unit: number,
  targetUnit: number,
): number {
  const length = bytes.length;
  while (unit < targetUnit && byte < length) {
    const b = bytes[byte]!;
    if (b < 0x80) {
      byte += 1;
      unit += 1;
    } else if (b < 0xe0) {
      byte += 2;
      unit += 1;
    } else if (b < 0xf0) {
      byte += 3;
      unit += 1;
    } else {
      byte += 4;
      unit += 2;
    }
  }
  return Math.min(byte, length);
}

/**
 * Where each page's URL ends in `p.urlBytes`, in bytes: `p.urlEnds` itself
 * when the URLs are ASCII (units and bytes agree), else a new array.
 *
 * @param p The columns.
 * @returns `count` byte offsets, ascending.
 */
export function urlByteEnds(p: PackedPages): Uint32Array {
  const n = p.count;
  const ends = p.urlEnds;
  if (n === 0 || isAsciiPrefix(p.urlBytes, ends[n - 1]!)) return ends;
  const out = new Uint32Array(n);
  for (let i = 0, byte = 0, unit = 0; i < n; i++) {
    byte = utf8Offset(p.urlBytes, byte, unit, unit = ends[i]!);
    out[i] = byte;
  }
  return out;
}
