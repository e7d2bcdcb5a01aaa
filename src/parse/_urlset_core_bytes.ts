/**
 * A byte-level reader for the shape nearly every large sitemap has: a UTF-8
 * `<urlset>` of `<url>` elements holding only `<loc>`, `<lastmod>`,
 * `<changefreq>` and `<priority>`. It reads the bytes in place, without
 * decoding the document to text or tokenizing it, and hands each `<loc>`'s
 * bytes straight to the page builder, which copies and checks them where
 * they land, in a fraction of the general path's time
 * (bench/parse_bench.ts: bench/README.md#other-figures).
 *
 * It accepts a strict subset of what the general path (decoder, tokenizer,
 * {@linkcode UrlsetReader}) reads, and for that subset gives the same result:
 * same pages, same order, same values. On anything else — another element,
 * an attribute inside the root, CDATA, a DOCTYPE, text where markup is
 * expected, a prefixed root, a value too long, a document that does not
 * close its root — it returns null and the caller reads the document with
 * the byte-level reader of every common shape (`_urlset_bytes.ts`, about half
 * as fast on this shape), then the general way. Differential tests hold the
 * paths together.
 *
 * @module
 */
import { type Checkpoint, CHECKPOINT_BYTES, NO_CHECKPOINT } from "../_checkpoint.ts";
import { atAscii, isSpace } from "./_ascii_bytes.ts";
import { PackedPagesBuilder, V_LAST_MODIFIED, V_PRIORITY } from "./_pack.ts";
import { MAX_FIELD_LENGTH } from "./_reader.ts";
import type { ParseResult } from "./_result.ts";
import {
  frequencyOf,
  lastModifiedInto,
  plainFrequencyOf,
  plainPriorityInto,
  priorityInto,
} from "./_urlset_fields.ts";
import { prologEnd, rootTag, skipMarkup, textEnd } from "./_xml_bytes.ts";

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const END_URLSET = enc("/urlset>");
const TMOD_END = enc("tmod>");
const PRIORITY = enc("priority>");
const END_PRIORITY = enc("/priority>");
const CHANGEFREQ = enc("changefreq>");
const END_CHANGEFREQ = enc("/changefreq>");

/** Whether `b` holds `word` at `i`. */
function at(b: Uint8Array, i: number, word: Uint8Array): boolean {
  if (i + word.length > b.length) return false;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return false;
  return true;
}

/** The four bytes at `i` as one little-endian number (missing bytes read as 0). */
function word(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

/** The first four bytes of `s` as {@linkcode word} reads them. */
function wordOf(s: string): number {
  return word(enc(s.padEnd(4, "\0")), 0);
}

// The common tags compared four bytes at a time: `at()`'s loop over a
// pattern was a noticeable share of the reader (bench/README.md#parsing).
const W_LOC = wordOf("loc>");
const W_END_LOC = wordOf("/loc");
const W_LAST = wordOf("last");
const W_MOD = wordOf("mod>");
const W_END_LAST = wordOf("/las");
const W_URL = wordOf("url>");
const W_END_URL = wordOf("/url");

/**
 * Reads a UTF-8 `<urlset>` of core entries (loc, lastmod, changefreq, priority) straight from its bytes.
 *
 * @param b The decompressed document, known to be UTF-8.
 * @param base The sitemap URL, for relative `<loc>`s; null if unknown.
 * @param since Keep pages whose lastmod is >= this (epoch ms) or missing; NaN keeps all.
 * @param checkpoint Called with the offset every ~1 MiB; may throw to cancel.
 * @returns The same result the general path gives, or null when the document
 * is not of this shape (then nothing has been kept).
 */
export function readCoreUrlsetBytes(
  b: Uint8Array,
  base: URL | null,
  since: number,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): ParseResult | null {
  const lt = prologEnd(b);
  if (lt === -1) return null;
  // An unprefixed <urlset>: its children are matched by their bytes.
  const root = rootTag(b, lt);
  if (root === null || root.nameLen !== 6 || !atAscii(b, root.nameAt, "urlset")) return null;
  const builder = new PackedPagesBuilder(base, since, { sizeHint: b.length });
  let result: ParseResult | null = null;
  try {
    result = readEntries(b, root.end, builder, since, checkpoint);
  } finally {
    if (result === null) builder.discard();
  }
  return result;
}

function readEntries(
  b: Uint8Array,
  i: number,
  builder: PackedPagesBuilder,
  since: number,
  checkpoint: Checkpoint,
): ParseResult | null {
  let nextCheckpoint = i + CHECKPOINT_BYTES;
  for (;;) {
    if (i >= nextCheckpoint) {
      checkpoint(i);
      nextCheckpoint = i + CHECKPOINT_BYTES;
    }
    while (isSpace(b[i]!)) i++;
    if (b[i] !== LT) return null;
    const c = b[i + 1];
    if (word(b, i + 1) === W_URL) {
      i = readUrl(b, i + 5, builder, since);
      if (i === -1) return null;
    } else if (c === SLASH) {
      if (!at(b, i + 1, END_URLSET)) return null;
      // The general path stops at the root's end tag too: what follows is ignored.
      const { pages, found, warning } = builder.build();
      return { kind: "pages", format: "urlset", pages, found, warning };
    } else if (c === BANG || c === QUESTION) {
      i = skipMarkup(b, i);
      if (i === -1) return null;
    } else {
      return null;
    }
  }
}

/**
 * Reads one `<url>`'s children from `i` (after `<url>`); returns the index
 * after `</url>`, or -1. With a `since` filter the `<loc>` is copied only at
 * `</url>`, once the lastmod has kept the page.
 *
 * The automaton of `UrlNesting` (_urlset_nesting.ts) flattened to the one
 * level this shape has, its four tags matched from their bytes, its values
 * in locals: this reads nearly every large sitemap, and both going through
 * element names (`_urlset_bytes.ts`) and splitting this loop into a function
 * per tag with the values in an object cost the plain rows of
 * bench/shapes.ts (bench/README.md#shared-parse-modules).
 */
function readUrl(b: Uint8Array, i: number, builder: PackedPagesBuilder, since: number): number {
  const copyNow = since !== since;
  let locStart = -1;
  let locEnd = -1;
  // The lastmod and priority go to the builder in its `values`, never through
  // a call's arguments or result: boxed, they were a heap object per page.
  const values = builder.values;
  values[V_LAST_MODIFIED] = NaN;
  values[V_PRIORITY] = 0.5;
  let changeFrequency = 0;
  for (;;) {
    while (isSpace(b[i]!)) i++;
    if (b[i] !== LT) return -1;
    const c = b[i + 1];
    let t: number;
    let e: number;
    if (c === 0x6c && word(b, i + 1) === W_LOC) {
      t = i + 5;
      // The first <loc> counts, as in the general reader.
      e = locStart === -1 && copyNow ? builder.copyLoc(b, t, MAX_FIELD_LENGTH) : textEnd(b, t);
      if (e === -1 || word(b, e + 1) !== W_END_LOC || b[e + 5] !== GT) return -1;
      if (locStart === -1) {
        locStart = t;
        locEnd = e;
      }
      i = e + 6;
    } else if (c === 0x6c) {
      if (word(b, i + 1) !== W_LAST || word(b, i + 5) !== W_MOD) return -1;
      t = i + 9;
      e = textEnd(b, t);
      if (e === -1 || word(b, e + 1) !== W_END_LAST || !at(b, e + 5, TMOD_END)) return -1;
      lastModifiedInto(b, t, e, values, V_LAST_MODIFIED);
      i = e + 10;
    } else if (c === 0x70) {
      if (!at(b, i + 1, PRIORITY)) return -1;
      t = i + 1 + PRIORITY.length;
      e = plainTextEnd(b, t);
      if (e >= 0) plainPriorityInto(b, t, e, values, V_PRIORITY);
      else if (e === NOT_PLAIN && (e = textEnd(b, t)) !== -1) {
        priorityInto(b, t, e, values, V_PRIORITY);
      }
      if (e === -1 || !at(b, e + 1, END_PRIORITY)) return -1;
      i = e + 1 + END_PRIORITY.length;
    } else if (c === 0x63) {
      if (!at(b, i + 1, CHANGEFREQ)) return -1;
      t = i + 1 + CHANGEFREQ.length;
      e = plainTextEnd(b, t);
      if (e >= 0) changeFrequency = plainFrequencyOf(b, t, e);
      else if (e === NOT_PLAIN && (e = textEnd(b, t)) !== -1) {
        changeFrequency = frequencyOf(b, t, e);
      }
      if (e === -1 || !at(b, e + 1, END_CHANGEFREQ)) return -1;
      i = e + 1 + END_CHANGEFREQ.length;
    } else if (c === SLASH) {
      if (word(b, i + 1) !== W_END_URL || b[i + 5] !== GT) return -1;
      if (locStart === -1) return i + 6;
      if (values[V_LAST_MODIFIED]! < since) {
        builder.countOld();
      } else {
        if (!copyNow) builder.copyLoc(b, locStart, MAX_FIELD_LENGTH);
        builder.commitLoc(b, locStart, locEnd, changeFrequency);
      }
      return i + 6;
    } else if (c === BANG || c === QUESTION) {
      i = skipMarkup(b, i);
      if (i === -1) return -1;
    } else {
      return -1;
    }
  }
}

/** {@linkcode plainTextEnd}'s answer for text that needs decoding. */
const NOT_PLAIN = -2;

/**
 * The end of the text from `from` (the index of the `<` after it) when it is
 * short plain ASCII without references, which the plain value readers take
 * as it stands; {@linkcode NOT_PLAIN} when it is not, -1 when no `<` comes
 * within {@linkcode MAX_FIELD_LENGTH}. One pass finds the end and checks
 * the bytes: a second (textEnd, then plainAscii) cost the all-four-fields
 * row of bench/shapes.ts.
 */
function plainTextEnd(b: Uint8Array, from: number): number {
  const limit = Math.min(b.length, from + MAX_FIELD_LENGTH);
  for (let i = from; i < limit; i++) {
    const c = b[i]!;
    if (c === LT) return i;
    if (c >= 0x7f || c === 0x26 || (c < 0x20 && !isSpace(c))) return NOT_PLAIN;
  }
  return -1;
}
