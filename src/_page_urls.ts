/**
 * Page URLs read from a pages node's columns without building pages: the
 * URL strings a check needs (decoded a stretch at a time, as a traversal
 * does), and their origins, looked up once per distinct origin.
 *
 * @module
 */
import type { PackedPages } from "./parse/_result.ts";

/** `ignoreBOM`: a leading U+FEFF is part of the first URL, as the offsets count it. */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Bytes of URLs decoded at a time when they are ASCII. */
const STRETCH_BYTES = 16 << 10;

/** The URL strings of one pages node, by page index; cheapest in order. */
export class ColumnUrls {
  readonly #bytes: Uint8Array;
  readonly #ends: Uint32Array;
  /** Whether bytes and UTF-16 units agree (ASCII): then stretches decode alone. */
  readonly #ascii: boolean;
  #text = "";
  #textStart = 0;
  #textEnd = 0;

  /**
   * @param columns The node's columns.
   * @param byteEnds Where each URL ends in `columns.urlBytes` (`urlByteEnds()`).
   */
  constructor(columns: PackedPages, byteEnds: Uint32Array) {
    this.#bytes = columns.urlBytes;
    this.#ascii = byteEnds === columns.urlEnds;
    this.#ends = columns.urlEnds;
    if (!this.#ascii) {
      this.#text = decoder.decode(columns.urlBytes);
      this.#textEnd = this.#text.length;
    }
  }

  /**
   * Page `i`'s URL.
   *
   * @param i The page's index.
   * @returns The URL.
   */
  at(i: number): string {
    const start = i === 0 ? 0 : this.#ends[i - 1]!;
    const end = this.#ends[i]!;
    if (this.#ascii && (start < this.#textStart || end > this.#textEnd)) {
      const stop = Math.min(this.#bytes.length, Math.max(end, start + STRETCH_BYTES));
      this.#text = decoder.decode(this.#bytes.subarray(start, stop));
      this.#textStart = start;
      this.#textEnd = stop;
    }
    return this.#text.slice(start - this.#textStart, end - this.#textStart);
  }
}

/**
 * `https://host:port` of a URL, as `new URL(url)` gives it (`protocol//host`),
 * or null when it is not a URL.
 *
 * @param url The URL.
 * @returns Its origin, or null.
 */
export function originOf(url: string): string | null {
  const parsed = URL.parse(url);
  return parsed === null ? null : `${parsed.protocol}//${parsed.host}`;
}

/** The origins of URLs given as bytes, each distinct scheme and authority parsed once. */
export class UrlOrigins {
  readonly #cache = new Map<string, string | null>();
  /** The bytes before the path of the last URL looked up, and its origin: pages come in runs. */
  #lastKey = new Uint8Array(0);
  #lastOrigin: string | null = null;

  /**
   * The origin of the URL `bytes[s, e)`, as {@linkcode originOf} gives it.
   *
   * @param bytes UTF-8 bytes.
   * @param s Where the URL starts.
   * @param e Where it ends.
   * @returns Its origin, or null when it is not a URL.
   */
  of(bytes: Uint8Array, s: number, e: number): string | null {
    const end = authorityEnd(bytes, s, e);
    if (end < 0) return originOf(decoder.decode(bytes.subarray(s, e)));
    const last = this.#lastKey;
    if (end - s === last.length) {
      let same = true;
      // Backwards: hosts of one site differ at their end, if anywhere.
      for (let j = last.length - 1; j >= 0; j--) {
        if (bytes[s + j] !== last[j]) {
          same = false;
          break;
        }
      }
      if (same) return this.#lastOrigin;
    }
    const key = decoder.decode(bytes.subarray(s, end));
    let origin = this.#cache.get(key);
    if (origin === undefined) this.#cache.set(key, origin = originOf(key + "/"));
    this.#lastKey = bytes.slice(s, end);
    this.#lastOrigin = origin;
    return origin;
  }
}

/** Where the authority of `scheme://authority…` ends in `b[s, e)`, or -1 when it has none. */
function authorityEnd(b: Uint8Array, s: number, e: number): number {
  let p = s;
  // A scheme: a letter, then letters, digits, `+`, `-`, `.`, then `://`.
  while (p < e && p - s < 32) {
    const c = b[p]! | 0x20;
    if (
      (c >= 0x61 && c <= 0x7a) || (b[p]! >= 0x30 && b[p]! <= 0x39 && p > s) || c === 0x2b ||
      c === 0x2d || c === 0x2e
    ) {
      p++;
      continue;
    }
    break;
  }
  if (p === s || p + 3 > e || b[p] !== 0x3a || b[p + 1] !== 0x2f || b[p + 2] !== 0x2f) return -1;
  for (p += 3; p < e; p++) {
    const c = b[p]!;
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c) break;
  }
  return p;
}
