/**
 * FNV-1a, the hash of the readers' and the pages builder's open-addressing
 * tables: over bytes one at a time, four at a time (little-endian words),
 * or an ASCII string's characters four at a time (equal to the words over
 * its bytes), then mixed so that the low bits, which pick a slot, depend on
 * every byte.
 *
 * The loops write the prime (0x01000193) as a literal: an exported or
 * imported constant read in a loop is a module-cell load a step, which
 * slowed the plain urlset shapes of bench/shapes.ts
 * (bench/README.md#shared-parse-modules).
 *
 * @module
 */

/** FNV-1a's 32-bit offset basis. */
export const FNV_BASIS = 0x811c9dc5;

/**
 * FNV-1a over `b[a, e)`, a byte a step.
 *
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @param h The state to go on from: {@linkcode FNV_BASIS}, or a seed.
 * @returns The state (not mixed).
 */
export function fnv1a(b: Uint8Array, a: number, e: number, h: number = FNV_BASIS): number {
  for (let i = a; i < e; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h;
}

/**
 * FNV-1a over `b[a, e)` four bytes a step, then byte by byte: `view` is a
 * DataView of the same bytes, whose word reads compile to one load each
 * (bench/README.md#parsing).
 *
 * @param view A DataView of `b`'s bytes.
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @param h The basis: {@linkcode FNV_BASIS}, or a seed.
 * @returns The state (not mixed).
 */
export function fnv1aWords(view: DataView, b: Uint8Array, a: number, e: number, h: number): number {
  let i = a;
  for (const e4 = e - 3; i < e4; i += 4) h = Math.imul(h ^ view.getUint32(i, true), 0x01000193);
  for (; i < e; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h;
}

/**
 * Copies `src[a, e)` to `out` at `o` and returns {@linkcode fnv1aWords}
 * over those bytes, in one pass: a URL copied into the pages builder is
 * hashed as it is copied. One fused loop of byte loads ran at about half the
 * time of a copy loop and a DataView hash on Node 20 (V8 11), and the same
 * on Deno (bench/README.md#workers-and-node).
 *
 * @param src The bytes to copy.
 * @param a Start.
 * @param e End.
 * @param out Where to copy them; the caller has made room.
 * @param o Where in `out`.
 * @param h The basis: {@linkcode FNV_BASIS}, or a seed.
 * @returns The state (not mixed), equal to `fnv1aWords` over the copy.
 */
export function fnv1aWordsCopy(
  src: Uint8Array,
  a: number,
  e: number,
  out: Uint8Array,
  o: number,
  h: number,
): number {
  let i = a;
  for (const e4 = e - 3; i < e4; i += 4, o += 4) {
    const b0 = src[i]!;
    const b1 = src[i + 1]!;
    const b2 = src[i + 2]!;
    const b3 = src[i + 3]!;
    out[o] = b0;
    out[o + 1] = b1;
    out[o + 2] = b2;
    out[o + 3] = b3;
    h = Math.imul(h ^ (b0 | b1 << 8 | b2 << 16 | b3 << 24), 0x01000193);
  }
  for (; i < e; i++, o++) {
    const c = src[i]!;
    out[o] = c;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h;
}

/**
 * {@linkcode fnv1aWords} over an ASCII string's characters: the same state
 * as over the string's bytes.
 *
 * @param s ASCII text.
 * @param h The basis: {@linkcode FNV_BASIS}, or a seed.
 * @returns The state (not mixed).
 */
export function fnv1aWordsAscii(s: string, h: number): number {
  let i = 0;
  for (const e4 = s.length - 3; i < e4; i += 4) {
    const w = s.charCodeAt(i) | s.charCodeAt(i + 1) << 8 | s.charCodeAt(i + 2) << 16 |
      s.charCodeAt(i + 3) << 24;
    h = Math.imul(h ^ w, 0x01000193);
  }
  for (; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Ends an FNV state so that its low bits depend on every byte.
 *
 * @param h The state.
 * @returns The hash, an unsigned 32-bit integer.
 */
export function mixHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
