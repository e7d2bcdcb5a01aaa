/**
 * Whether gzip data inflates past a bound, found without producing the
 * output: the deflate stream (RFC 1951) is decoded symbol by symbol and only
 * its length is counted, so a bomb is refused in memory of a few KiB, where
 * inflating it to the bound holds the bound (50 MiB by default) for as long
 * as it takes. Used only for data whose gzip trailer already claims more
 * than the bound at a bomb's compression ratio (see `decompress.ts`): the
 * count confirms the claim, which anyone can forge, before the data is
 * refused.
 *
 * @module
 */

/** Length of the match for length symbols 257..285 (RFC 1951 §3.2.5), and its extra bits. */
const LENGTH_BASE = [
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  13,
  15,
  17,
  19,
  23,
  27,
  31,
  35,
  43,
  51,
  59,
  67,
  83,
  99,
  115,
  131,
  163,
  195,
  227,
  258,
];
const LENGTH_EXTRA = [
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  1,
  1,
  1,
  1,
  2,
  2,
  2,
  2,
  3,
  3,
  3,
  3,
  4,
  4,
  4,
  4,
  5,
  5,
  5,
  5,
  0,
];
/** Distance for distance symbols 0..29, and its extra bits. */
const DISTANCE_BASE = [
  1,
  2,
  3,
  4,
  5,
  7,
  9,
  13,
  17,
  25,
  33,
  49,
  65,
  97,
  129,
  193,
  257,
  385,
  513,
  769,
  1025,
  1537,
  2049,
  3073,
  4097,
  6145,
  8193,
  12289,
  16385,
  24577,
];
const DISTANCE_EXTRA = [
  0,
  0,
  0,
  0,
  1,
  1,
  2,
  2,
  3,
  3,
  4,
  4,
  5,
  5,
  6,
  6,
  7,
  7,
  8,
  8,
  9,
  9,
  10,
  10,
  11,
  11,
  12,
  12,
  13,
  13,
];
/** The order in which a dynamic block sends its code-length code lengths. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const MAX_BITS = 15;

/** Data this reader cannot vouch for: zlib reads it and says what is wrong. */
class Unreadable extends Error {}

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
interface Code {
  readonly counts: Uint16Array;
  readonly symbols: Uint16Array;
}

function codeOf(lengths: ArrayLike<number>, from: number, n: number): Code {
  const counts = new Uint16Array(MAX_BITS + 1);
  for (let i = 0; i < n; i++) counts[lengths[from + i]!]!++;
  counts[0] = 0;
  let left = 1;
  for (let len = 1; len <= MAX_BITS; len++) {
    left = (left << 1) - counts[len]!;
    if (left < 0) throw new Unreadable("Over-subscribed code");
  }
  const offsets = new Uint16Array(MAX_BITS + 2);
  for (let len = 1; len <= MAX_BITS; len++) offsets[len + 1] = offsets[len]! + counts[len]!;
  const symbols = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const len = lengths[from + i]!;
    if (len !== 0) symbols[offsets[len]!++] = i;
  }
  return { counts, symbols };
}

let fixedCodes: { readonly literals: Code; readonly distances: Code } | null = null;

function fixed(): { readonly literals: Code; readonly distances: Code } {
  if (fixedCodes !== null) return fixedCodes;
  const lengths = new Uint8Array(288 + 30);
  lengths.fill(8, 0, 144);
  lengths.fill(9, 144, 256);
  lengths.fill(7, 256, 280);
  lengths.fill(8, 280, 288);
  lengths.fill(5, 288);
  fixedCodes = { literals: codeOf(lengths, 0, 288), distances: codeOf(lengths, 288, 30) };
  return fixedCodes;
}

/** Reads the deflate bit stream, least significant bit first (RFC 1951 §3.1.1). */
class Bits {
  readonly #bytes: Uint8Array;
  #at: number;
  #buffer = 0;
  #count = 0;

  constructor(bytes: Uint8Array, at: number) {
    this.#bytes = bytes;
    this.#at = at;
  }

  /** Up to 16 bits. */
  take(n: number): number {
    while (this.#count < n) {
      if (this.#at >= this.#bytes.length) throw new Unreadable("Ends early");
      this.#buffer |= this.#bytes[this.#at++]! << this.#count;
      this.#count += 8;
    }
    const value = this.#buffer & ((1 << n) - 1);
    this.#buffer >>>= n;
    this.#count -= n;
    return value;
  }

  /** The next symbol of `code`, its bits read one at a time (codes are packed from their first bit). */
  symbol(code: Code): number {
    let value = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len <= MAX_BITS; len++) {
      value |= this.take(1);
      const count = code.counts[len]!;
      if (value - first < count) return code.symbols[index + value - first]!;
      index += count;
      first = (first + count) << 1;
      value <<= 1;
    }
    throw new Unreadable("No such code");
  }

  /** Drops the rest of the current byte; returns the offset of the next whole byte. */
  align(): number {
    const whole = this.#count >>> 3;
    this.#buffer = 0;
    this.#count = 0;
    this.#at -= whole;
    return this.#at;
  }

  skipTo(at: number): void {
    this.#at = at;
  }
}

/** Offset of the deflate data after a gzip member's header at `at` (RFC 1952 §2.3). */
function afterHeader(bytes: Uint8Array, at: number): number {
  if (bytes.length - at < 18 || bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b) {
    throw new Unreadable("No gzip header");
  }
  const flags = bytes[at + 3]!;
  if (bytes[at + 2] !== 8 || (flags & 0xe0) !== 0) throw new Unreadable("Not deflate");
  let p = at + 10;
  if ((flags & 4) !== 0) p += 2 + (bytes[p]! | (bytes[p + 1]! << 8));
  for (const flag of [8, 16]) {
    if ((flags & flag) === 0) continue;
    while (p < bytes.length && bytes[p] !== 0) p++;
    p++;
  }
  if ((flags & 2) !== 0) p += 2;
  if (p >= bytes.length) throw new Unreadable("Ends in the header");
  return p;
}

/** Reads a dynamic block's two codes (RFC 1951 §3.2.7). */
function dynamicCodes(bits: Bits): { readonly literals: Code; readonly distances: Code } {
  const literalCount = bits.take(5) + 257;
  const distanceCount = bits.take(5) + 1;
  const lengthCodeCount = bits.take(4) + 4;
  if (literalCount > 286 || distanceCount > 30) throw new Unreadable("Too many codes");
  const lengthLengths = new Uint8Array(19);
  for (let i = 0; i < lengthCodeCount; i++) lengthLengths[CODE_LENGTH_ORDER[i]!] = bits.take(3);
  const lengthCode = codeOf(lengthLengths, 0, 19);
  const lengths = new Uint8Array(literalCount + distanceCount);
  for (let i = 0; i < lengths.length;) {
    const symbol = bits.symbol(lengthCode);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    let repeat: number;
    let value = 0;
    if (symbol === 16) {
      if (i === 0) throw new Unreadable("Repeat with nothing before");
      value = lengths[i - 1]!;
      repeat = 3 + bits.take(2);
    } else if (symbol === 17) {
      repeat = 3 + bits.take(3);
    } else {
      repeat = 11 + bits.take(7);
    }
    if (i + repeat > lengths.length) throw new Unreadable("Too many lengths");
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (lengths[256] === 0) throw new Unreadable("No end-of-block code");
  return {
    literals: codeOf(lengths, 0, literalCount),
    distances: codeOf(lengths, literalCount, distanceCount),
  };
}

/**
 * Whether the gzip data (every concatenated member, as zlib reads them)
 * inflates to more than `limit` bytes.
 *
 * @param bytes Gzip data, starting with its magic bytes.
 * @param limit The most bytes the output may have.
 * @returns true as soon as the count passes `limit`; false when the data ends
 *   within it; null when the data is damaged or cut before that (zlib then
 *   reads it and says what is wrong).
 *
 * @example A bomb is over its bound; a small document is not
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { gzipOutputExceeds } from "./_gzip_size.ts";
 *
 * const bomb = gzipSync(new Uint8Array(10_000_000));
 * strictEqual(gzipOutputExceeds(bomb, 1_000_000), true);
 * strictEqual(gzipOutputExceeds(gzipSync("<urlset/>"), 1_000_000), false);
 * ```
 */
export function gzipOutputExceeds(bytes: Uint8Array, limit: number): boolean | null {
  let total = 0;
  let at = 0;
  try {
    for (;;) {
      const bits = new Bits(bytes, afterHeader(bytes, at));
      /** Bytes this member has produced: a match may not reach before its start. */
      let member = 0;
      let last = 0;
      while (last === 0) {
        last = bits.take(1);
        const type = bits.take(2);
        if (type === 0) {
          const p = bits.align();
          if (p + 4 > bytes.length) throw new Unreadable("Ends in a stored block");
          const length = bytes[p]! | (bytes[p + 1]! << 8);
          if ((length ^ (bytes[p + 2]! | (bytes[p + 3]! << 8))) !== 0xffff) {
            throw new Unreadable("Stored length mismatch");
          }
          if (p + 4 + length > bytes.length) throw new Unreadable("Ends in a stored block");
          bits.skipTo(p + 4 + length);
          member += length;
          if (total + member > limit) return true;
          continue;
        }
        if (type === 3) throw new Unreadable("Reserved block type");
        const { literals, distances } = type === 1 ? fixed() : dynamicCodes(bits);
        for (;;) {
          const symbol = bits.symbol(literals);
          if (symbol < 256) {
            member++;
          } else if (symbol === 256) {
            break;
          } else {
            const index = symbol - 257;
            if (index >= 29) throw new Unreadable("Bad length symbol");
            const length = LENGTH_BASE[index]! + bits.take(LENGTH_EXTRA[index]!);
            const code = bits.symbol(distances);
            if (code >= 30) throw new Unreadable("Bad distance symbol");
            const distance = DISTANCE_BASE[code]! + bits.take(DISTANCE_EXTRA[code]!);
            if (distance > member) throw new Unreadable("Distance too far back");
            member += length;
          }
          if (total + member > limit) return true;
        }
      }
      total += member;
      at = bits.align() + 8;
      // Another member follows only when it starts with the magic bytes.
      if (at + 2 > bytes.length || bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b) return false;
    }
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
}
