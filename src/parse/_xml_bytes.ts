/**
 * A byte-level XML reader for well-formed UTF-8 sitemap documents: it walks
 * the bytes in place and reports elements, with names resolved to namespace
 * URIs, and the text of the elements a {@linkcode ByteReader} asks for,
 * either as a byte range (one plain run, the common case: the reader decodes
 * it, or not at all) or as the string the tokenizer would have given.
 *
 * It reads a strict subset of what the general path (decoder,
 * {@linkcode XmlTokenizer}, readers) reads, and gives the same events for it.
 * Namespace prefixes are bound on the root only: any other element that
 * declares one, a DOCTYPE, an end tag that does not close the innermost
 * element, an element inside a captured field, a token or field longer than
 * the limits, a document that does not close its root — each makes it return
 * null, and the caller reads the document the general way, from the start.
 *
 * @module
 */
import { type Checkpoint, CHECKPOINT_BYTES } from "../_checkpoint.ts";
import { atAscii, byteIndex, isSpace } from "./_ascii_bytes.ts";
import { fnv1a, mixHash } from "./_fnv.ts";
import { Ns, type NsKind, nsKind } from "./_ns.ts";
import { MAX_FIELD_LENGTH } from "./_reader.ts";
import type { ParseResult } from "./_result.ts";
import { decodeEntities, normalizeNewlines } from "./_tokenizer.ts";

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const AMP = 0x26;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const EQUALS = 0x3d;

/** Longest tag, comment, processing instruction or ignored text run; longer goes the general way. */
export const MAX_MARKUP = 64 << 10;
/** Deepest nesting read here (the tokenizer's default limit is 256). */
const MAX_DEPTH = 128;

const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";

const rawDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** An element name, resolved once per document. */
export interface ElementName {
  /** The qualified name's bytes. */
  readonly bytes: Uint8Array;
  /** Local name. */
  readonly local: string;
  /** Namespace URI, "" for none. */
  readonly ns: string;
  /** What the namespace stands for. */
  readonly kind: NsKind;
  /** Free for the reader: a code it derives from the name once. */
  code: number;
  /** The name of the start tag that followed this one last time: usually the next one too. */
  next: ElementName | null;
}

/** What the byte-level walk reports to; mirrors a {@linkcode DocumentReader}. */
export interface ByteReader {
  /**
   * An element started at depth `d` (the root's children are at 2); `attrs`
   * holds its attributes as {@linkcode scanAttributes} records them (valid
   * during the call only). Returns the field code whose text to capture, 0
   * for none, or -1 to give up on the document.
   */
  start(d: number, name: ElementName, b: Uint8Array, attrs: readonly number[]): number;
  /**
   * Finds the end of a captured field's first text run from `from`: the
   * index of the `<` after it, or -1 when there is none within
   * {@linkcode MAX_FIELD_LENGTH} bytes. A reader may copy the bytes it
   * passes over.
   */
  scan(field: number, b: Uint8Array, from: number): number;
  /** A captured field that is one run of text `b[a, e)`, as written (references and CRs not decoded). */
  raw(field: number, b: Uint8Array, a: number, e: number): void;
  /** A captured field's text as the tokenizer hands it over (CDATA, comments or a split run). */
  text(field: number, text: string): void;
  /**
   * A captured field that is one CDATA section between whitespace: its
   * content `b[a, e)`, which reads as it stands (line ends aside).
   */
  cdata(field: number, b: Uint8Array, a: number, e: number): void;
  /** An element that was not a captured field ended at depth `d`. */
  end(d: number): void;
  /**
   * Whether to pass over the element starting at depth `d` unread (its
   * extent checked by {@linkcode skipElement}, nothing decoded); absent:
   * never. Asked before its attributes are read.
   */
  skips?(d: number, name: ElementName): boolean;
  /** An element the reader asked to skip spans `b[a, e)` (from its `<` to after its end tag). */
  skipped?(a: number, e: number): void;
  /** The root closed: the result. */
  finish(): ParseResult;
  /** The document goes the general way: drop what was read. */
  discard(): void;
}

/** Index of the first of two bytes `x y` at or after `from`, or -1. */
function find2(b: Uint8Array, from: number, x: number, y: number): number {
  for (let i = b.indexOf(x, from); i !== -1; i = b.indexOf(x, i + 1)) {
    if (b[i + 1] === y) return i;
  }
  return -1;
}

/** Bytes {@linkcode find3} reads in a loop before it calls indexOf, whose call costs more than a short loop. */
const SHORT_FIND = 64;

/** Index of the first of three bytes `x y z` at or after `from`, or -1. */
function find3(b: Uint8Array, from: number, x: number, y: number, z: number): number {
  const short = Math.min(b.length, from + SHORT_FIND);
  let i = from;
  for (; i < short; i++) if (b[i] === x && b[i + 1] === y && b[i + 2] === z) return i;
  for (i = b.indexOf(x, i); i !== -1; i = b.indexOf(x, i + 1)) {
    if (b[i + 1] === y && b[i + 2] === z) return i;
  }
  return -1;
}

/**
 * Skips the comment or processing instruction at `i` (`<!--` or `<?`):
 * returns the index after it, or -1 when it is something else, unterminated
 * or too long.
 */
export function skipMarkup(b: Uint8Array, i: number): number {
  let end: number;
  if (b[i + 1] === QUESTION) {
    const e = find2(b, i + 2, QUESTION, GT);
    end = e === -1 ? -1 : e + 2;
  } else if (b[i + 1] === BANG && b[i + 2] === 0x2d && b[i + 3] === 0x2d) {
    const e = find3(b, i + 4, 0x2d, 0x2d, GT);
    end = e === -1 ? -1 : e + 3;
  } else {
    return -1; // a DOCTYPE, CDATA or other declaration
  }
  return end === -1 || end - i > MAX_MARKUP ? -1 : end;
}

/**
 * Finds the `>` of a start tag from `from` (just after its name), as the
 * tokenizer's attribute scan does: a quote outside a value opens a quoted
 * stretch too. With `out`, records each attribute as four offsets (name
 * start, name end, value start, value end; quotes excluded); without, gives
 * up at an attribute named `xmlns…` (a namespace declaration, which the
 * callers leave to the general path). Returns the index of the `>`, or -1
 * when there is none within {@linkcode MAX_MARKUP} (or at such a name).
 *
 * The tokenizer's `scanAttributes` (_tokenizer.ts) is the same grammar over
 * a decoded string, resumable at a chunk's end. They stay two: one body for
 * both, recording offsets for the tokenizer to cut its strings from, slowed
 * the general path on attribute-heavy documents
 * (bench/README.md#shared-parse-modules). The differential tests and fuzzers hold them together.
 */
export function scanAttributes(b: Uint8Array, from: number, out: number[] | null): number {
  const n = Math.min(b.length, from + MAX_MARKUP);
  let p = from;
  for (;;) {
    if (p >= n) return -1;
    let c = b[p]!;
    if (c === GT) return p;
    if (c <= 0x20 || c === SLASH) {
      p++;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      const close = byteIndex(b, c, p + 1, n);
      if (close === -1) return -1;
      p = close + 1;
      continue;
    }
    const nameStart = p;
    for (; p < n; p++) {
      c = b[p]!;
      if (c <= 0x20 || c === EQUALS || c === GT || c === SLASH || c === DQUOTE || c === SQUOTE) {
        break;
      }
    }
    const nameEnd = p;
    while (p < n && (c = b[p]!) <= 0x20) p++;
    if (p >= n) return -1;
    if (c !== EQUALS) continue;
    p++;
    while (p < n && (c = b[p]!) <= 0x20) p++;
    if (p >= n) return -1;
    let valueStart: number;
    let valueEnd: number;
    if (c === DQUOTE || c === SQUOTE) {
      const close = byteIndex(b, c, p + 1, n);
      if (close === -1) return -1;
      valueStart = p + 1;
      valueEnd = close;
      p = close + 1;
    } else if (c === GT) {
      continue;
    } else {
      valueStart = p;
      for (; p < n; p++) {
        c = b[p]!;
        if (c <= 0x20 || c === DQUOTE || c === SQUOTE || c === GT) break;
        if (c === SLASH && b[p + 1] === GT) break;
      }
      if (p >= n) return -1;
      valueEnd = p;
    }
    if (nameEnd === nameStart) continue;
    if (out !== null) out.push(nameStart, nameEnd, valueStart, valueEnd);
    // A name is followed by a byte that ends it, so a shorter one never matches.
    else if (atAscii(b, nameStart, "xmlns")) return -1;
  }
}

/**
 * The UTF-8 text of `b[a, e)`. Short ASCII runs (most values) are built
 * directly: the decoder's call costs more than such a run.
 */
export function decodeBytes(b: Uint8Array, a: number, e: number): string {
  const n = e - a;
  if (n <= 4) {
    // The commonest short values (languages, yes/no): no subarray to make.
    if (n === 2 && b[a]! < 0x80 && b[a + 1]! < 0x80) return String.fromCharCode(b[a]!, b[a + 1]!);
    if (n === 0) return "";
  }
  if (n <= 128) {
    let i = a;
    while (i < e && b[i]! < 0x80) i++;
    if (i === e) return String.fromCharCode.apply(null, b.subarray(a, e) as unknown as number[]);
  }
  return rawDecoder.decode(b.subarray(a, e));
}

/** Bytes decoded at a time by a {@linkcode TextWindow}. */
const WINDOW_BYTES = 256 << 10;
/** The least a {@linkcode TextWindow} decodes at a time. */
const MIN_WINDOW_BYTES = 4 << 10;
/** Bytes after a non-ASCII character in which a {@linkcode TextWindow} decodes range by range. */
const RETRY_BYTES = 16 << 10;
/** Text this short is built from its bytes directly ({@linkcode decodeBytes}). */
const SHORT_TEXT = 8;
const NON_ASCII = /[\u0080-\uffff]/;

/** The text of byte ranges of one document: what the byte-level readers cut their values from. */
export abstract class DocumentText {
  /**
   * The UTF-8 text of `b[a, e)`, as {@linkcode decodeBytes} gives it.
   *
   * @param a Start.
   * @param e End.
   * @returns The text.
   */
  abstract decode(a: number, e: number): string;

  /**
   * A field's text from one run of bytes, as {@linkcode runText} gives it.
   *
   * @param a Start.
   * @param e End.
   * @returns The text.
   */
  run(a: number, e: number): string {
    let text = normalizeNewlines(this.decode(a, e));
    const amp = text.indexOf("&");
    if (amp !== -1) text = decodeEntities(text, amp);
    return text;
  }

  /**
   * An attribute value, as {@linkcode attributeValue} gives it.
   *
   * @param a Start.
   * @param e End.
   * @returns The value.
   */
  attribute(a: number, e: number): string {
    return attributeText(this.decode(a, e));
  }
}

/**
 * The text of a whole (small) document decoded at once, ranges cut from it
 * by their bytes' offsets mapped to the string's: one decoder call for the
 * document, however dense its non-ASCII text. Every string cut from it
 * keeps the document's text alive while it lives.
 */
export class WholeText extends DocumentText {
  readonly #text: string;
  /** After byte `#at[k]`, byte offsets run ahead of string offsets by `#lag[k]`. */
  readonly #at: number[] = [];
  readonly #lag: number[] = [];
  #k = 0;

  /**
   * @param text `b` decoded.
   */
  private constructor(text: string) {
    super();
    this.#text = text;
  }

  /**
   * The text of `b`, or null when it holds a replaced (malformed) or
   * replacement character, whose bytes the offsets could not follow.
   *
   * @param b The document.
   * @returns Its text, or null.
   */
  static of(b: Uint8Array): WholeText | null {
    const text = rawDecoder.decode(b);
    if (text.indexOf("\uFFFD") !== -1) return null;
    const whole = new WholeText(text);
    if (text.length === b.length) return whole;
    const at = whole.#at;
    const lags = whole.#lag;
    let lag = 0;
    // Four ASCII bytes at a time where the bytes are aligned for it.
    const words = b.byteOffset % 4 === 0
      ? new Uint32Array(b.buffer, b.byteOffset, b.length >>> 2)
      : null;
    for (let i = 0, n = b.length; i < n;) {
      if (words !== null && (i & 3) === 0 && i + 4 <= n && (words[i >>> 2]! & 0x80808080) === 0) {
        i += 4;
        continue;
      }
      const c = b[i]!;
      if (c < 0xc0) {
        i++;
        continue;
      }
      // A lead byte (the text is well formed): its sequence's bytes less its UTF-16 units.
      const bytes = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      lag += bytes === 4 ? 2 : bytes - 1;
      i += bytes;
      at.push(i);
      lags.push(lag);
    }
    return whole;
  }

  /** The string offset of byte offset `i` (at a character's start). */
  #char(i: number): number {
    const at = this.#at;
    let k = this.#k;
    while (k < at.length && at[k]! <= i) k++;
    while (k > 0 && at[k - 1]! > i) k--;
    this.#k = k;
    return k === 0 ? i : i - this.#lag[k - 1]!;
  }

  override decode(a: number, e: number): string {
    if (this.#at.length === 0) return this.#text.slice(a, e);
    const from = this.#char(a);
    return this.#text.slice(from, this.#char(e));
  }
}

/**
 * The text of byte ranges of one document, cut from a decoded window of it
 * rather than decoded range by range: where a window is ASCII, byte offsets
 * are string offsets, and a slice of the window's string costs a fraction
 * of building a short string from bytes (String.fromCharCode over a
 * subarray, or a TextDecoder call). Strings cut this way keep their window
 * alive while they live; a window is 256 KiB, so that it is allocated where
 * the collector never copies it.
 */
export class TextWindow extends DocumentText {
  readonly #b: Uint8Array;
  #text = "";
  /** The window: `b[start, end)` reads as `#text`, one byte a character. */
  #start = 0;
  #end = 0;
  /** Whether a non-ASCII character comes at `#end`. */
  #cut = false;
  /** Bytes to decode next: smaller where non-ASCII text is dense, so that little is decoded in vain. */
  #size = WINDOW_BYTES;
  /** After a non-ASCII character, ranges before this are decoded one by one. */
  #retryAt = 0;

  constructor(b: Uint8Array) {
    super();
    this.#b = b;
  }

  /**
   * The UTF-8 text of `b[a, e)`, as {@linkcode decodeBytes} gives it.
   *
   * @param a Start.
   * @param e End.
   * @returns The text.
   */
  override decode(a: number, e: number): string {
    if (a < this.#start || e > this.#end) {
      // Short text costs little either way; a range across the window's
      // non-ASCII end is decoded as it stands, and so is all text for a
      // while after one, so that a document dense with non-ASCII text does
      // not decode windows it barely uses.
      if (
        e - a <= SHORT_TEXT || e - a > WINDOW_BYTES || a < this.#retryAt ||
        (this.#cut && a >= this.#start && a < this.#end)
      ) {
        return decodeBytes(this.#b, a, e);
      }
      this.#move(a);
      if (e > this.#end) return decodeBytes(this.#b, a, e);
    }
    return this.#text.slice(a - this.#start, e - this.#start);
  }

  #move(a: number): void {
    const b = this.#b;
    const end = Math.min(b.length, a + this.#size);
    let text = rawDecoder.decode(b.subarray(a, end));
    // No step of the decoder reads fewer bytes than it writes characters, so
    // equal lengths mean one character a byte throughout (a stray byte reads
    // as U+FFFD there, in a range decoded alone too). Otherwise: up to the
    // first non-ASCII character.
    this.#cut = text.length !== end - a;
    if (this.#cut) {
      const other = text.search(NON_ASCII);
      text = text.slice(0, other);
      this.#size = Math.max(MIN_WINDOW_BYTES, other * 2);
      this.#retryAt = a + other + RETRY_BYTES;
    } else {
      this.#size = Math.min(WINDOW_BYTES, this.#size * 2);
    }
    this.#text = text;
    this.#start = a;
    this.#end = a + text.length;
  }
}

/**
 * A CDATA section's content as the tokenizer hands it over: decoded, CRs normalised.
 *
 * @param b The document's bytes.
 * @param a Start of the content.
 * @param e End of the content.
 * @returns The text.
 */
export function cdataText(b: Uint8Array, a: number, e: number): string {
  return normalizeNewlines(decodeBytes(b, a, e));
}

/**
 * A field's text from one run of bytes, as the tokenizer hands it over:
 * decoded, CRs normalised, references replaced.
 */
export function runText(b: Uint8Array, a: number, e: number): string {
  let text = normalizeNewlines(decodeBytes(b, a, e));
  const amp = text.indexOf("&");
  if (amp !== -1) text = decodeEntities(text, amp);
  return text;
}

/** An attribute value as the tokenizer decodes it: whitespace normalised, references replaced. */
export function attributeValue(b: Uint8Array, a: number, e: number): string {
  return attributeText(decodeBytes(b, a, e));
}

/** An attribute value's decoded text as the tokenizer gives it. */
function attributeText(v: string): string {
  if (v.indexOf("\n") !== -1 || v.indexOf("\t") !== -1 || v.indexOf("\r") !== -1) {
    v = v.replace(/\r\n?|[\n\t]/g, " ");
  }
  const amp = v.indexOf("&");
  return amp === -1 ? v : decodeEntities(v, amp);
}

/** Prefix bindings of the root, and the names resolved under them. */
class NameTable {
  readonly #defaultNs: string;
  readonly #prefixes: Map<string, string>;
  // Filled so that the array holds objects from the start: a fresh table's
  // array then has the map `get` was optimised for on earlier documents.
  readonly #slots: (ElementName | undefined)[] = new Array(512).fill(undefined);

  constructor(defaultNs: string, prefixes: Map<string, string>) {
    this.#defaultNs = defaultNs;
    this.#prefixes = prefixes;
  }

  /** The name `b[a, e)`, resolved. */
  get(b: Uint8Array, a: number, e: number): ElementName {
    const len = e - a;
    const slot = mixHash(fnv1a(b, a, e)) & 511;
    const cached = this.#slots[slot];
    if (cached !== undefined && cached.bytes.length === len) {
      const bytes = cached.bytes;
      let k = 0;
      while (k < len && bytes[k] === b[a + k]) k++;
      if (k === len) return cached;
    }
    return this.#slots[slot] = this.resolve(b.slice(a, e));
  }

  resolve(bytes: Uint8Array): ElementName {
    const qname = rawDecoder.decode(bytes);
    const colon = qname.indexOf(":");
    let ns: string;
    let local = qname;
    if (colon === -1) {
      ns = this.#defaultNs;
    } else {
      const prefix = qname.slice(0, colon);
      local = qname.slice(colon + 1);
      ns = prefix === "xml"
        ? XML_NAMESPACE
        : prefix === "xmlns"
        ? XMLNS_NAMESPACE
        : this.#prefixes.get(prefix) ?? "";
    }
    return { bytes, local, ns, kind: nsKind(ns), code: -1, next: null };
  }
}

/** Index after the end tag `</name>` (spaces allowed before `>`) at `lt`, or -1. */
function endTagEnd(b: Uint8Array, lt: number, nameAt: number, nameLen: number): number {
  if (b[lt + 1] !== SLASH) return -1;
  const a = lt + 2;
  for (let k = 0; k < nameLen; k++) if (b[a + k] !== b[nameAt + k]) return -1;
  let j = a + nameLen;
  let c = b[j];
  if (c === GT) return j + 1;
  while (c !== undefined && isSpace(c)) c = b[++j];
  return c === GT ? j + 1 : -1;
}

/** Whether `b[a, e)` holds only XML whitespace. */
function onlySpaceBytes(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) if (!isSpace(b[i]!)) return false;
  return true;
}

/** Where the CDATA section {@linkcode cdataOnlyEnd} last accepted ends (its `]]>`). */
let cdataEnd = 0;

/**
 * When a field's content from `from` is whitespace, one CDATA section
 * (starting at `first`), whitespace, and the end tag: the index after the
 * end tag (the section's `]]>` goes to {@linkcode cdataEnd}), else -1. The
 * tokenizer drops the whitespace runs, so the field's text is the section's
 * content.
 */
function cdataOnlyEnd(
  b: Uint8Array,
  from: number,
  first: number,
  nameAt: number,
  nameLen: number,
): number {
  if (
    b[first + 1] !== BANG || !atAscii(b, first + 2, "[CDATA[") || !onlySpaceBytes(b, from, first)
  ) {
    return -1;
  }
  const a = first + 9;
  const e = find3(b, a, 0x5d, 0x5d, GT);
  if (e === -1 || e - a > MAX_FIELD_LENGTH) return -1;
  cdataEnd = e;
  let lt = e + 3;
  while (lt < b.length && isSpace(b[lt]!)) lt++;
  return b[lt] === LT ? endTagEnd(b, lt, nameAt, nameLen) : -1;
}

/**
 * Reads a captured field's content from `from`, where its first text run
 * ends at `first` (a `<`), as the tokenizer's events would give it: runs of
 * only whitespace dropped, the rest decoded; CDATA as it stands; comments
 * and processing instructions skipped. Returns the index after the end tag,
 * or -1 to give up.
 */
function readSplitField(
  b: Uint8Array,
  from: number,
  first: number,
  nameAt: number,
  nameLen: number,
  field: number,
  reader: ByteReader,
): number {
  const limit = Math.min(b.length, from + MAX_FIELD_LENGTH);
  const pieces: string[] = [];
  let i = from;
  let lt = first;
  for (;;) {
    if (lt > i && !onlySpaceBytes(b, i, lt)) {
      let t = normalizeNewlines(decodeBytes(b, i, lt));
      const amp = t.indexOf("&");
      if (amp !== -1) t = decodeEntities(t, amp);
      if (amp === -1 || !/^[ \n\t\r]*$/.test(t)) pieces.push(t);
    }
    const c = b[lt + 1];
    if (c === SLASH) {
      const e = endTagEnd(b, lt, nameAt, nameLen);
      if (e === -1) return -1;
      reader.text(field, pieces.join(""));
      return e;
    }
    if (c === BANG && atAscii(b, lt + 2, "[CDATA[")) {
      const e = find3(b, lt + 9, 0x5d, 0x5d, GT);
      if (e === -1 || e > limit) return -1;
      if (e > lt + 9) pieces.push(normalizeNewlines(decodeBytes(b, lt + 9, e)));
      i = e + 3;
    } else if (c === BANG || c === QUESTION) {
      i = skipMarkup(b, lt);
      if (i === -1) return -1;
    } else {
      return -1; // an element inside the field
    }
    lt = b.indexOf(LT, i);
    if (lt === -1 || lt > limit) return -1;
  }
}

/**
 * Skips a UTF-8 document's BOM and prolog (whitespace, the XML declaration,
 * comments, processing instructions).
 *
 * @param b The document.
 * @returns The index of the root's `<`, or -1 when something else comes first.
 */
export function prologEnd(b: Uint8Array): number {
  let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  for (;;) {
    while (isSpace(b[i]!)) i++;
    if (b[i] !== LT) return -1;
    const c = b[i + 1];
    if (c !== QUESTION && c !== BANG) return i;
    i = skipMarkup(b, i);
    if (i === -1) return -1;
  }
}

/**
 * Reads a UTF-8 document whose root's local name is `rootLocal` from its
 * bytes, reporting to the reader `make` returns for the root's namespace.
 *
 * @param b The document, known to be UTF-8.
 * @param rootLocal The root element's local name ("urlset", "sitemapindex").
 * @param make Makes the reader, given the root's namespace URI.
 * @param checkpoint Called with the offset every ~1 MiB; may throw to cancel
 * (the reader's work is dropped, and the error passes through).
 * @returns The reader's result, or null when the document is not of the
 * subset read here (nothing is kept then).
 */
export function readXmlBytes(
  b: Uint8Array,
  rootLocal: string,
  make: (rootNs: string, rootTag: Uint8Array) => ByteReader,
  checkpoint: Checkpoint,
): ParseResult | null {
  const i = prologEnd(b);
  if (i === -1) return null;
  const tag = rootTag(b, i);
  if (tag === null) return null;
  const names = new NameTable(tag.defaultNs, tag.prefixes);
  const root = names.resolve(b.slice(tag.nameAt, tag.nameAt + tag.nameLen));
  if (root.local !== rootLocal) return null;
  const reader = make(root.ns, b.subarray(i, tag.end));
  // What needs type feedback once per document (the element stacks, the
  // reader's shape, the result) is done here rather than in `walk`: `walk`
  // runs once per document and is first optimised mid-loop, before its
  // entry or exit has run with feedback, so code there would deoptimise it.
  const starts = new Int32Array(MAX_DEPTH + 1);
  const lengths = new Int32Array(MAX_DEPTH + 1);
  starts[1] = tag.nameAt;
  lengths[1] = tag.nameLen;
  const skips = reader.skips !== undefined;
  let result: ParseResult | null = null;
  try {
    if (walk(b, tag.end, names, starts, lengths, reader, skips, checkpoint)) {
      result = reader.finish();
    }
  } finally {
    if (result === null) reader.discard();
  }
  return result;
}

/** Bytes accepted in the root's name and attribute names: `A-Z a-z 0-9 _ : . -`. */
const NAME_CHAR = new Uint8Array(256);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:.-") {
  NAME_CHAR[c.charCodeAt(0)] = 1;
}

/** A root element's start tag, as {@linkcode rootTag} reads it. */
export interface RootTag {
  /** Where its qualified name starts. */
  readonly nameAt: number;
  /** Its name's length in bytes. */
  readonly nameLen: number;
  /** The index after its `>`. */
  readonly end: number;
  /** The default namespace it declares, "" for none. */
  readonly defaultNs: string;
  /** The prefixes it binds. */
  readonly prefixes: Map<string, string>;
}

/**
 * Reads the root's start tag at `i` (its `<`) in the one form read from
 * bytes: a name, then `name="value"` pairs of ASCII names whose values hold
 * no reference, `<` or control byte but whitespace.
 *
 * @param b The document.
 * @param i The index of the root's `<`.
 * @returns The tag, or null when it has another form (left to the general path).
 */
export function rootTag(b: Uint8Array, i: number): RootTag | null {
  const nameAt = i + 1;
  let j = nameAt;
  const limit = Math.min(b.length, i + MAX_MARKUP);
  while (j < limit && NAME_CHAR[b[j]!] === 1) j++;
  const nameLen = j - nameAt;
  if (nameLen === 0) return null;
  const prefixes = new Map<string, string>();
  let defaultNs = "";
  for (;;) {
    const before = j;
    while (j < limit && isSpace(b[j]!)) j++;
    if (j >= limit) return null;
    if (b[j] === GT) return { nameAt, nameLen, end: j + 1, defaultNs, prefixes };
    if (j === before) return null; // `<urlset/>`, or attributes run together
    const name = j;
    while (j < limit && NAME_CHAR[b[j]!] === 1) j++;
    if (j === name) return null;
    const nameEnd = j;
    while (j < limit && isSpace(b[j]!)) j++;
    if (b[j] !== EQUALS) return null;
    j++;
    while (j < limit && isSpace(b[j]!)) j++;
    const quote = b[j];
    if (quote !== DQUOTE && quote !== SQUOTE) return null;
    const valueAt = ++j;
    while (j < limit && b[j] !== quote) {
      const c = b[j]!;
      if (c === LT || c === AMP || (c < 0x20 && !isSpace(c))) return null;
      j++;
    }
    if (j >= limit) return null;
    const attr = rawDecoder.decode(b.subarray(name, nameEnd));
    // Line breaks in a value are common (xsi:schemaLocation); they read as spaces.
    const value = attributeValue(b, valueAt, j);
    j++;
    if (attr === "xmlns") defaultNs = value;
    else if (attr.startsWith("xmlns:")) {
      const prefix = attr.slice(6);
      // Neither reserved prefix can be rebound (Namespaces in XML 1.0, section 3).
      if (prefix !== "" && prefix !== "xml" && prefix !== "xmlns") prefixes.set(prefix, value);
    }
  }
}

/**
 * Walks the document from after the root's start tag (`starts[1]`,
 * `lengths[1]`: its name) to the root's end tag, reporting to `reader`.
 * Returns true when the root closed, false when the document is not of the
 * subset read here.
 */
function walk(
  b: Uint8Array,
  i: number,
  names: NameTable,
  starts: Int32Array,
  lengths: Int32Array,
  reader: ByteReader,
  skips: boolean,
  checkpoint: Checkpoint,
): boolean {
  let depth = 1;
  const scratch: number[] = [];
  // The previous start tag's name: its `next` predicts this one's.
  let previous = null as ElementName | null;
  let nextCheckpoint = CHECKPOINT_BYTES;
  for (;;) {
    if (i >= nextCheckpoint) {
      checkpoint(i);
      nextCheckpoint = i + CHECKPOINT_BYTES;
    }
    let c = b[i];
    while (c === 0x0a || c === 0x20 || c === 0x09 || c === 0x0d) c = b[++i];
    if (c !== LT) {
      // Text outside a captured field: no reader uses it.
      const lt = b.indexOf(LT, i);
      if (lt === -1 || lt - i > MAX_MARKUP) return false;
      i = lt;
    }
    c = b[i + 1];
    if (c === SLASH) {
      const e = endTagEnd(b, i, starts[depth]!, lengths[depth]!);
      if (e === -1) return false;
      if (depth === 1) return true;
      reader.end(depth);
      depth--;
      i = e;
      continue;
    }
    if (c === BANG) {
      if (atAscii(b, i + 2, "[CDATA[")) {
        // Character data outside a captured field: ignored too.
        const e = find3(b, i + 9, 0x5d, 0x5d, GT);
        if (e === -1 || e - i > MAX_MARKUP) return false;
        i = e + 3;
        continue;
      }
      i = skipMarkup(b, i);
      if (i === -1) return false;
      continue;
    }
    if (c === QUESTION) {
      i = skipMarkup(b, i);
      if (i === -1) return false;
      continue;
    }
    // A start tag: the name runs to `>`, `/`, whitespace or a quote.
    const nameAt = i + 1;
    // The name the previous one's `next` predicts, when it stands here
    // followed by a byte that ends a name: one compare instead of a scan
    // and a compare.
    let name: ElementName | null = previous === null ? null : previous.next;
    let j = nameAt;
    if (name !== null) {
      const bytes = name.bytes;
      const n = bytes.length;
      let k = 0;
      while (k < n && bytes[k] === b[nameAt + k]) k++;
      c = b[nameAt + n];
      if (k === n && (c === GT || c === SLASH || c! <= 0x20)) j = nameAt + n;
      else name = null;
    }
    if (name === null) {
      const limit = Math.min(b.length, i + MAX_MARKUP);
      for (; j < limit; j++) {
        c = b[j]!;
        if (c === GT || c === SLASH || c <= 0x20 || c === DQUOTE || c === SQUOTE) break;
      }
      if (j === nameAt || j >= limit || c === DQUOTE || c === SQUOTE) return false;
    }
    if (name === null) {
      name = names.get(b, nameAt, j);
      if (previous !== null) previous.next = name;
    }
    previous = name;
    if (skips && reader.skips!(depth + 1, name)) {
      const e = skipElement(b, i, j);
      if (e === -1) return false;
      reader.skipped!(i, e);
      i = e;
      continue;
    }
    let gt = j;
    // Setting an array's length is a runtime call: only when there is something to drop.
    if (scratch.length !== 0) scratch.length = 0;
    if (c !== GT) {
      gt = scanAttributes(b, j, scratch);
      if (gt === -1) return false;
      // Prefixes are bound on the root only.
      if (hasXmlns(b, scratch)) return false;
    }
    if (depth === MAX_DEPTH) return false;
    const d = ++depth;
    const field = reader.start(d, name, b, scratch);
    if (field === -1) return false;
    if (b[gt - 1] === SLASH && gt > j) {
      if (field !== 0) reader.text(field, "");
      else reader.end(d);
      depth--;
      i = gt + 1;
      continue;
    }
    i = gt + 1;
    if (field === 0) {
      starts[d] = nameAt;
      lengths[d] = j - nameAt;
      continue;
    }
    const first = reader.scan(field, b, i);
    if (first === -1) return false;
    let e = b[first + 1] === SLASH ? endTagEnd(b, first, nameAt, j - nameAt) : -1;
    if (e !== -1) {
      reader.raw(field, b, i, first);
    } else if ((e = cdataOnlyEnd(b, i, first, nameAt, j - nameAt)) !== -1) {
      // One CDATA section between whitespace reads as its content.
      reader.cdata(field, b, first + 9, cdataEnd);
    } else {
      e = readSplitField(b, i, first, nameAt, j - nameAt, field, reader);
    }
    if (e === -1) return false;
    depth--;
    i = e;
  }
}

/**
 * The end of the first text run from `from`: the index of the `<` after it,
 * or -1 when there is none within {@linkcode MAX_FIELD_LENGTH} bytes.
 *
 * @param b The document's bytes.
 * @param from Start of the text.
 * @returns The index of the `<`, or -1.
 */
export function textEnd(b: Uint8Array, from: number): number {
  // Short values and most URLs: a loop beats indexOf's call; past 96 bytes indexOf wins.
  const short = Math.min(b.length, from + 96);
  const i = byteIndex(b, LT, from, short);
  if (i !== -1) return i;
  const lt = b.indexOf(LT, short);
  return lt === -1 || lt > from + MAX_FIELD_LENGTH ? -1 : lt;
}

/** Whether a name is in the sitemaps.org namespace as a reader sees it (or in none). */
export function isCoreName(name: ElementName, rootNs: string): boolean {
  return name.ns === rootNs || name.kind === Ns.Sitemap || name.kind === Ns.None;
}

/** Whether one of the attributes `scanAttributes` recorded is named `xmlns…`. */
function hasXmlns(b: Uint8Array, attrs: readonly number[]): boolean {
  for (let k = 0; k < attrs.length; k += 4) if (atAscii(b, attrs[k]!, "xmlns")) return true;
  return false;
}

/** Deepest nesting inside an element {@linkcode skipElement} passes over. */
const MAX_SKIP_DEPTH = 32;
/** {@linkcode skipElement}'s stack of open elements: where each one's name starts, and its length. */
const skipStackAt = new Int32Array(MAX_SKIP_DEPTH);
const skipStackLen = new Int32Array(MAX_SKIP_DEPTH);

/**
 * The index after the element whose start tag's `<` is at `lt` and whose
 * name ends at `nameEnd`, read as strictly as the walk reads what it does
 * not skip: every start tag's attributes scanned (and no `xmlns` among
 * them), end tags matched to their start tags, comments, processing
 * instructions and CDATA closed, no text run, markup or nesting past the
 * walk's limits, no start tag past the checkpoint interval from `lt`. -1
 * otherwise: the document then goes the general way, as it would have
 * without the skip.
 *
 * @param b The document.
 * @param lt The index of the element's `<`.
 * @param nameEnd The index after its name.
 * @returns The index after its end tag (or after `/>`), or -1.
 */
export function skipElement(b: Uint8Array, lt: number, nameEnd: number): number {
  const stackAt = skipStackAt;
  const stackLen = skipStackLen;
  let top = -1;
  let i = lt;
  let j = nameEnd;
  for (;;) {
    // A start tag at i whose name ends at j.
    let gt = j;
    if (b[j] !== GT) {
      gt = scanAttributes(b, j, null);
      if (gt === -1) return -1;
    }
    if (b[gt - 1] === SLASH && gt > j) {
      if (top === -1) return gt + 1;
    } else {
      if (top === MAX_SKIP_DEPTH - 1) return -1;
      stackAt[++top] = i + 1;
      stackLen[top] = j - i - 1;
    }
    let p = gt + 1;
    // An element longer than the walk's checkpoint interval goes the general
    // way, so that a cancellation is still seen within that much input.
    if (p - lt > CHECKPOINT_BYTES) return -1;
    // Up to the next start tag, closing elements on the way.
    for (;;) {
      // Runs between tags are short: textEnd's loop beats indexOf's call there.
      const l = textEnd(b, p);
      if (l === -1) return -1;
      const c = b[l + 1];
      if (c === SLASH) {
        const e = endTagEnd(b, l, stackAt[top]!, stackLen[top]!);
        if (e === -1) return -1;
        if (top-- === 0) return e;
        p = e;
      } else if (c === BANG && atAscii(b, l + 2, "[CDATA[")) {
        const e = find3(b, l + 9, 0x5d, 0x5d, GT);
        if (e === -1 || e - l > MAX_MARKUP) return -1;
        p = e + 3;
      } else if (c === BANG || c === QUESTION) {
        p = skipMarkup(b, l);
        if (p === -1) return -1;
      } else {
        i = l;
        break;
      }
    }
    // The name runs to `>`, `/` or whitespace; a quote in it is refused, as the walk does.
    const limit = Math.min(b.length, i + MAX_MARKUP);
    let c = 0;
    for (j = i + 1; j < limit; j++) {
      c = b[j]!;
      if (c === GT || c === SLASH || c <= 0x20 || c === DQUOTE || c === SQUOTE) break;
    }
    if (j === i + 1 || j >= limit || c === DQUOTE || c === SQUOTE) return -1;
  }
}
