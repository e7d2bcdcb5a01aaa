/**
 * The byte-level pieces of a tree snapshot (see `snapshot.ts`): a growable
 * writer and a bounds-checked reader of bytes, LEB128 varints, float64s
 * and UTF-8 strings, and the error every damaged snapshot throws.
 *
 * @module
 */

/**
 * Thrown by `decodeSitemapTree()` for bytes that are not a snapshot it can
 * read: another kind of file, a truncated or damaged one, or one written by
 * a newer version of the library. The message says which.
 *
 * @example Tell a damaged snapshot from other failures
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { decodeSitemapTree, SitemapSnapshotError } from "@sitemap/tree";
 *
 * throws(() => decodeSitemapTree(new TextEncoder().encode("<urlset/>")), SitemapSnapshotError);
 * ```
 */
export class SitemapSnapshotError extends Error {
  /**
   * Builds the error.
   *
   * @param message What is wrong with the bytes.
   */
  constructor(message: string) {
    super(message);
    this.name = "SitemapSnapshotError";
  }
}

/** Throws the error for a snapshot whose checksum held but whose content does not add up. */
export function malformed(what: string): never {
  throw new SitemapSnapshotError(`Snapshot is malformed: ${what}`);
}

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** Appends bytes to a buffer that grows as needed. */
export class ByteWriter {
  /** The buffer; valid up to {@linkcode length}. Hot loops write it directly after {@linkcode room}. */
  buffer: Uint8Array = new Uint8Array(1 << 16);
  /** Bytes written so far. */
  length = 0;

  /**
   * Makes room for `n` more bytes.
   *
   * @param n Bytes about to be written.
   * @returns The buffer (a new one when it grew).
   */
  room(n: number): Uint8Array {
    const need = this.length + n;
    if (need > this.buffer.length) {
      const bigger = new Uint8Array(Math.max(need, this.buffer.length * 2));
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
    }
    return this.buffer;
  }

  /** Appends one byte. */
  byte(b: number): void {
    this.room(1)[this.length++] = b;
  }

  /** Appends a non-negative integer (up to 2^53) as a LEB128 varint. */
  varint(v: number): void {
    const b = this.room(8);
    let o = this.length;
    while (v >= 0x80) {
      b[o++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[o++] = v;
    this.length = o;
  }

  /** Appends a float64, little-endian. */
  f64(v: number): void {
    f64[0] = v;
    this.room(8).set(f64Bytes, this.length);
    this.length += 8;
  }

  /** Appends bytes as they are. */
  bytes(bytes: Uint8Array): void {
    this.room(bytes.length).set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Appends a string: its UTF-8 length, then its bytes. */
  string(s: string): void {
    const bytes = encoder.encode(s);
    this.varint(bytes.length);
    this.bytes(bytes);
  }
}

/** Reads what {@linkcode ByteWriter} wrote, throwing a malformed-snapshot error past the end. */
export class ByteReader {
  /** The bytes; hot loops read them directly, then set {@linkcode at}. */
  readonly buffer: Uint8Array;
  /** The next byte to read. */
  at: number;
  /** Where the readable part ends. */
  readonly end: number;

  /**
   * @param buffer The bytes.
   * @param at Where reading starts.
   * @param end Where the readable part ends.
   */
  constructor(buffer: Uint8Array, at: number, end: number) {
    this.buffer = buffer;
    this.at = at;
    this.end = end;
  }

  /** Fails unless `n` more bytes are there. */
  need(n: number, what: string): void {
    if (n > this.end - this.at) malformed(`${what} runs past the end`);
  }

  /** Reads one byte. */
  byte(what: string): number {
    if (this.at >= this.end) malformed(`${what} runs past the end`);
    return this.buffer[this.at++]!;
  }

  /** Reads a varint (at most 2^53). */
  varint(what: string): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte(what);
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
    return malformed(`${what} is not a number`);
  }

  /** Reads a varint that counts something held in the rest of the snapshot (at least `each` bytes apiece). */
  count(what: string, each = 1): number {
    const n = this.varint(what);
    if (n * each > this.end - this.at) malformed(`${what} (${n}) is more than the snapshot holds`);
    return n;
  }

  /** Reads a float64. */
  f64(what: string): number {
    this.need(8, what);
    f64Bytes.set(this.buffer.subarray(this.at, this.at + 8));
    this.at += 8;
    return f64[0]!;
  }

  /** Reads `n` bytes (a view, not a copy). */
  bytes(n: number, what: string): Uint8Array {
    this.need(n, what);
    return this.buffer.subarray(this.at, this.at += n);
  }

  /** Reads a string written by {@linkcode ByteWriter.string}. */
  string(what: string): string {
    const bytes = this.bytes(this.varint(what), what);
    try {
      return strictDecoder.decode(bytes);
    } catch {
      return malformed(`${what} is not UTF-8`);
    }
  }
}
