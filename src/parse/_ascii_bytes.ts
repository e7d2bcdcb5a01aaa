/**
 * Byte tests the byte-level readers and the date parser share: XML
 * whitespace, an ASCII word at an offset, runs whose text is their bytes.
 *
 * @module
 */

/**
 * Whether `c` is XML whitespace: space, tab, LF or CR.
 *
 * @param c A byte (or UTF-16 unit).
 * @returns Whether it is whitespace.
 */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/**
 * The start of `b[a, e)` past its leading whitespace.
 *
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @returns The index of the first byte that is not whitespace, or `e`.
 */
export function skipSpace(b: Uint8Array, a: number, e: number): number {
  while (a < e && isSpace(b[a]!)) a++;
  return a;
}

/**
 * The end of `b[a, e)` before its trailing whitespace.
 *
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @returns The index after the last byte that is not whitespace, or `a`.
 */
export function trimSpaceEnd(b: Uint8Array, a: number, e: number): number {
  while (e > a && isSpace(b[e - 1]!)) e--;
  return e;
}

/**
 * Whether `b` holds the ASCII `word` at `i` (false past the end).
 *
 * @param b The bytes.
 * @param i Where the word would start.
 * @param word ASCII text.
 * @returns Whether the bytes there are the word's.
 */
export function atAscii(b: Uint8Array, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Index of the byte `x` in `b[from, end)`, or -1: for the short runs of a
 * document (values, URLs, the text between tags), where a loop beats
 * `indexOf`'s call. Eight bytes a step, one branch for the eight: Node 20's
 * V8 (11.3, which unrolls no loop itself) pays each step of a byte loop
 * nearly twice what Deno's does (bench/README.md#issue-24-nodes-parse-what-was-left).
 *
 * @param b The bytes.
 * @param x The byte to find.
 * @param from Start.
 * @param end End (at most `b.length`).
 * @returns Its first index in the range, or -1.
 */
export function byteIndex(b: Uint8Array, x: number, from: number, end: number): number {
  let i = from;
  for (const end8 = end - 7; i < end8; i += 8) {
    if (
      b[i] === x || b[i + 1] === x || b[i + 2] === x || b[i + 3] === x ||
      b[i + 4] === x || b[i + 5] === x || b[i + 6] === x || b[i + 7] === x
    ) break;
  }
  for (; i < end; i++) if (b[i] === x) return i;
  return -1;
}

/**
 * Whether `b[a, e)` is ASCII without references or control bytes other than
 * whitespace, and without the byte `not` (0x0d to refuse CRs too: then its
 * text is its bytes as they stand).
 *
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @param not A byte to refuse as well, or -1.
 * @returns Whether the run is such plain ASCII.
 */
export function plainAscii(b: Uint8Array, a: number, e: number, not = -1): boolean {
  for (let i = a; i < e; i++) {
    const c = b[i]!;
    if (c >= 0x7f || c === 0x26 || (c < 0x20 && !isSpace(c)) || c === not) return false;
  }
  return true;
}
