/**
 * Bytes to text, a chunk at a time: charset detection (BOM, XML declaration,
 * Content-Type) and a generator that feeds a streaming `TextDecoder`, so a
 * 50 MB document never exists as one string.
 *
 * @module
 */
import { type Checkpoint, NO_CHECKPOINT } from "../_checkpoint.ts";

/** Decoded text per chunk after the first, in bytes of input. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

/**
 * The first chunk is small so that a document which turns out not to be a
 * sitemap (an HTML page) is rejected after decoding a few KiB, not a MiB.
 */
export const FIRST_CHUNK_BYTES = 16 << 10;

/** Returns the WHATWG name of `label`, or null when no TextDecoder knows it. */
function encodingName(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** The `charset` parameter of a Content-Type header, or null. */
function charsetOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m === null ? null : (m[1] ?? null);
}

/** The `encoding` pseudo-attribute of an XML declaration at the start of `bytes`, or null. */
function declaredEncoding(bytes: Uint8Array): string | null {
  // The declaration is ASCII in every ASCII-compatible encoding; 512 bytes is
  // far more than any real one takes.
  const head = bytes.subarray(0, 512);
  let text = "";
  for (let i = 0; i < head.length; i++) {
    const c = head[i]!;
    if (c === 62 /* > */) break;
    text += String.fromCharCode(c);
  }
  const m = /^\s*<\?xml\s[^?]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(text);
  return m === null ? null : (m[1] ?? null);
}

/** The charset decision for one document. */
export interface EncodingChoice {
  /** A label TextDecoder accepts (its WHATWG name). */
  readonly encoding: string;
  /** What decided it, for diagnostics. */
  readonly source: "bom" | "sniffed" | "declaration" | "content-type" | "default";
}

/**
 * Why `bytes` cannot be decoded at all, or null when they can: UTF-32, by
 * its byte order mark or by `<` in a 4-byte unit, which the Encoding
 * Standard (and so `TextDecoder`) does not support. Checked before
 * {@linkcode chooseEncoding}, which would take `FF FE 00 00` for UTF-16LE
 * and decode NULs between the characters.
 *
 * @param bytes The whole document (only its first 4 bytes are looked at).
 * @returns The reason, or null.
 */
export function undecodableReason(bytes: Uint8Array): string | null {
  if (bytes.length < 4) return null;
  const [b0, b1, b2, b3] = bytes;
  let name: string | null = null;
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) {
    name = "UTF-32LE (byte order mark FF FE 00 00)";
  } else if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) {
    name = "UTF-32BE (byte order mark 00 00 FE FF)";
  } else if (b0 === 0x3c && b1 === 0 && b2 === 0 && b3 === 0) name = "UTF-32LE (3C 00 00 00)";
  else if (b0 === 0 && b1 === 0 && b2 === 0 && b3 === 0x3c) name = "UTF-32BE (00 00 00 3C)";
  if (name === null) return null;
  return `Not a sitemap: the document is encoded as ${name}, which cannot be decoded ` +
    "(the Encoding Standard has no UTF-32); serve it as UTF-8";
}

/**
 * Decides how to decode `bytes`: a byte order mark wins, then UTF-16 sniffed
 * from `<` followed or preceded by a NUL byte, then the XML declaration's
 * `encoding`, then the Content-Type `charset` (a hint: servers often send a
 * default that the document contradicts), then UTF-8. A UTF-16 label on a
 * document that reads as ASCII is a lie and is ignored. Unknown labels are
 * skipped.
 *
 * @param bytes The whole document (only its first bytes are looked at).
 * @param contentType The HTTP Content-Type, if any.
 * @returns The encoding to give `TextDecoder`.
 */
export function chooseEncoding(
  bytes: Uint8Array,
  contentType?: string | null,
): EncodingChoice {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", source: "bom" };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: "utf-16le", source: "bom" };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: "utf-16be", source: "bom" };
  if (b0 === 0x3c && b1 === 0) return { encoding: "utf-16le", source: "sniffed" };
  if (b0 === 0 && b1 === 0x3c) return { encoding: "utf-16be", source: "sniffed" };

  for (
    const [label, source] of [
      [declaredEncoding(bytes), "declaration"],
      [charsetOf(contentType), "content-type"],
    ] as const
  ) {
    if (label === null) continue;
    const name = encodingName(label);
    if (name === null || name.startsWith("utf-16")) continue;
    return { encoding: name, source };
  }
  return { encoding: "utf-8", source: "default" };
}

/**
 * Decodes `bytes` as `encoding` in pieces: about `firstBytes` input bytes for
 * the first piece, then `chunkBytes` each. Invalid sequences become U+FFFD; a
 * BOM matching the encoding is dropped. Stop iterating to stop decoding.
 *
 * @param bytes The document.
 * @param encoding A label `TextDecoder` accepts.
 * @param chunkBytes Input bytes per piece after the first.
 * @param firstBytes Input bytes of the first piece.
 * @param checkpoint Called with the input offset before each piece (so every
 *   reader fed by these pieces is cancellable between two of them).
 * @returns A generator of decoded pieces (possibly empty strings).
 */
export function* decodeChunks(
  bytes: Uint8Array,
  encoding: string,
  chunkBytes: number = DEFAULT_CHUNK_BYTES,
  firstBytes: number = FIRST_CHUNK_BYTES,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): Generator<string, void, undefined> {
  const decoder = new TextDecoder(encoding);
  let pos = 0;
  let size = Math.max(1, firstBytes);
  while (pos < bytes.length) {
    checkpoint(pos);
    const next = Math.min(bytes.length, pos + size);
    yield decoder.decode(bytes.subarray(pos, next), { stream: true });
    pos = next;
    size = Math.max(1, chunkBytes);
  }
  const tail = decoder.decode();
  if (tail !== "") yield tail;
}
