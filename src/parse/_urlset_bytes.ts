/**
 * A byte-level reader for UTF-8 `<urlset>` documents: every common shape
 * (loc/lastmod/changefreq/priority, Google Image, Video and News blocks,
 * `xhtml:link` alternates, any namespace prefix, pretty-printing, comments,
 * CDATA, references) read from the bytes in place by
 * {@linkcode readXmlBytes}, without decoding the document to text or
 * tokenizing it. Each `<loc>`'s bytes go straight to the page builder, which
 * copies and checks them where they land; extension values are decoded one
 * by one, as the general reader's are.
 *
 * It mirrors {@linkcode UrlsetReader} event for event (same depths, same
 * names, same fields, the same helpers for extension values), so for what
 * it accepts it gives the same result: same pages, order and values. What
 * it declines (see {@linkcode readXmlBytes}) goes the general way. A
 * differential test and a fuzzer hold the two paths together.
 *
 * @module
 */
import { type Checkpoint, NO_CHECKPOINT } from "../_checkpoint.ts";
import { atAscii, plainAscii, skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";
import { parseW3cDateBytes } from "./_dates.ts";
import { EXTRAS_MASK, type ExtrasWriter } from "./_extras.ts";
import {
  isNormalUrlBytes,
  isNormalUrlText,
  normalRawUrl,
  PackedPagesBuilder,
  parseDateText,
  V_LAST_MODIFIED,
  V_PRIORITY,
} from "./_pack.ts";
import { MAX_FIELD_LENGTH, type Mutable, parsePriority, textOrNull } from "./_reader.ts";
import { resolveDataUrl } from "./_url.ts";
import {
  KEEP_FRAGMENT,
  type NormalBase,
  normalBase,
  normalizedRoom,
  normalizeUrlBytes,
  RAW_XML,
} from "./_normalize_url.ts";
import type { NewsStoryData, ParseResult, VideoData } from "./_result.ts";
import {
  changeFrequencyCode,
  F_CHANGEFREQ,
  F_IMAGE_LICENSE,
  F_IMAGE_LOC,
  F_LASTMOD,
  F_LOC,
  F_NEWS_DATE,
  F_NEWS_GENRES,
  F_NEWS_KEYWORDS,
  F_NEWS_TICKERS,
  F_PRIORITY,
  F_VIDEO_CONTENT,
  F_VIDEO_DURATION,
  F_VIDEO_EXPIRATION,
  F_VIDEO_PLAYER,
  F_VIDEO_PUBLISHED,
  F_VIDEO_THUMBNAIL,
  frequencyOf,
  lastModifiedInto,
  newNews,
  newVideo,
  priorityInto,
  setNewsField,
  setVideoField,
  type VideoBeingRead,
} from "./_urlset_fields.ts";
import { isExtensionBlock, LINK, nameCode, UrlNesting } from "./_urlset_nesting.ts";
import type { KeepExtensions } from "./_kept_pack.ts";
import {
  type ByteReader,
  cdataText,
  type DocumentText,
  type ElementName,
  isCoreName,
  readXmlBytes,
  textEnd,
  TextWindow,
} from "./_xml_bytes.ts";

/**
 * Whether `b[a, e)` is ASCII without control bytes (tabs and line breaks
 * included) and without references other than `&amp;`.
 */
function plainBytes(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) {
    const c = b[i]!;
    if (c >= 0x7f || c < 0x20) return false;
    if (c === 0x26) {
      if (i + 5 > e || b[i + 1] !== 0x61 || b[i + 2] !== 0x6d || b[i + 3] !== 0x70) return false;
      if (b[i + 4] !== 0x3b) return false;
      i += 4;
    }
  }
  return true;
}

/** hreflang values remembered by {@linkcode UrlsetBytes}. */
const LANG_SLOTS = 8;

/** Which `<loc>` a `<url>` has: none yet, one run of bytes, or decoded text. */
const LOC_NONE = 0;
const LOC_RAW = 1;
const LOC_TEXT = 2;
const LOC_CDATA = 3;

/**
 * An element name's {@linkcode nameCode}, worked out once per name.
 *
 * @param name The name, as the byte walker resolved it.
 * @param rootNs The root's namespace.
 * @returns Its code.
 */
export function elementCode(name: ElementName, rootNs: string): number {
  const code = name.code;
  if (code !== -1) return code;
  return name.code = nameCode(name.local, name.kind, isCoreName(name, rootNs));
}

/**
 * Whether `b[a, e)` holds a tab, LF or CR.
 *
 * @param b The bytes.
 * @param a Start.
 * @param e End.
 * @returns Whether one is there.
 */
export function hasTabOrBreak(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) {
    const c = b[i];
    if (c === 0x09 || c === 0x0a || c === 0x0d) return true;
  }
  return false;
}

/** Whether `b[a, e)` holds an `&` (a loop: a subarray's allocation costs more). */
function hasAmp(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) if (b[i] === 0x26) return true;
  return false;
}

/**
 * Where an `xhtml:link`'s `hreflang` and `href` are among its attributes
 * (as {@linkcode scanAttributes} records them, the first of each name
 * counting, as in the general reader) when it is an alternate: its `rel`
 * reads "alternate".
 *
 * @param b The document's bytes.
 * @param out The link's attribute records.
 * @param text The document's text.
 * @returns -1 when an attribute is prefixed (left to the general path), 0
 * when the link is no alternate, else `1 + hreflang + (href << 16)`, each
 * the index of its record in `out`.
 */
export function alternateLink(b: Uint8Array, out: readonly number[], text: DocumentText): number {
  let rel = -1;
  let hreflang = -1;
  let href = -1;
  for (let k = 0; k < out.length; k += 4) {
    const a = out[k]!;
    const e = out[k + 1]!;
    const len = e - a;
    for (let m = a; m < e; m++) if (b[m] === 0x3a) return -1;
    if (len === 3 && atAscii(b, a, "rel")) {
      if (rel === -1) rel = k;
    } else if (len === 4 && atAscii(b, a, "href")) {
      if (href === -1) href = k;
    } else if (len === 8 && atAscii(b, a, "hreflang")) {
      if (hreflang === -1) hreflang = k;
    }
  }
  if (rel === -1 || hreflang === -1 || href === -1) return 0;
  const relA = out[rel + 2]!;
  const relE = out[rel + 3]!;
  if (
    !(relE - relA === 9 && atAscii(b, relA, "alternate")) &&
    text.attribute(relA, relE).trim().toLowerCase() !== "alternate"
  ) {
    return 0;
  }
  return 1 + hreflang + (href << 16);
}

/** The `<urlset>` reader's state, driven by {@linkcode readXmlBytes}. */
class UrlsetBytes extends UrlNesting implements ByteReader {
  readonly #builder: PackedPagesBuilder;
  readonly #base: URL | null;
  readonly #rootNs: string;

  #locKind = LOC_NONE;
  #locStart = 0;
  #locEnd = 0;
  #locText = "";
  /** The `<url>`'s lastmod and priority: the builder's {@linkcode PackedPagesBuilder.values}. */
  readonly #values: Float64Array;
  #changeFrequency = 0;
  #news: Mutable<NewsStoryData> | null = null;
  #videos: VideoData[] | null = null;
  #video: VideoBeingRead | null = null;
  /**
   * The `<url>`'s images and alternates as references into the builder's
   * string table: five per image (loc, caption, geo location, title,
   * license), two per alternate (hreflang, href). Strings go into the table
   * as they are read, bytes copied as they stand when they need no decoding.
   */
  readonly #imageRefs: number[] = [];
  readonly #alternateRefs: number[] = [];
  /** The open `<image:image>`'s references, while one is open. */
  readonly #image = [0, 0, 0, 0, 0];
  #inImage = false;
  readonly #writer: ExtrasWriter;

  readonly #doc: Uint8Array;
  readonly #since: number;
  readonly #normalBase: NormalBase | null;
  /** Where extension URLs are normalised from their bytes. */
  #normalized = new Uint8Array(1024);
  /** The document's text, cut from decoded windows. */
  readonly #window: TextWindow;
  /** The last {@linkcode LANG_SLOTS} hreflang values: bytes (start, end in the document) and text. */
  readonly #langStarts = new Int32Array(LANG_SLOTS);
  readonly #langEnds = new Int32Array(LANG_SLOTS);
  readonly #langs: string[] = new Array(LANG_SLOTS).fill("");
  #langNext = 0;
  /** Each extension field's last run of bytes and its text (by field code). */
  readonly #lastStart = new Int32Array(64);
  readonly #lastEnd = new Int32Array(64);
  readonly #lastText: string[] = new Array(64).fill("");
  /**
   * When extensions are kept: the open `<url>`'s extension blocks span
   * `doc[#spanStart, #spanEnd)`; -1 when it has none (yet).
   */
  #spanStart = -1;
  #spanEnd = 0;
  /** Whether extension blocks are kept rather than read (see {@linkcode ByteReader.skips}). */
  readonly #keeps: boolean;

  constructor(
    rootNs: string,
    base: URL | null,
    since: number,
    doc: Uint8Array,
    root: Uint8Array,
    keep: KeepExtensions | null,
  ) {
    super();
    this.#rootNs = rootNs;
    this.#base = base;
    this.#doc = doc;
    this.#since = since;
    this.#window = new TextWindow(doc);
    this.#normalBase = normalBase(base);
    this.#builder = new PackedPagesBuilder(base, since, { sizeHint: doc.length });
    this.#writer = this.#builder.extrasWriter;
    this.#values = this.#builder.values;
    this.#keeps = keep !== null;
    if (keep !== null) {
      this.#writer.keep({ ...keep, doc, root, base: base === null ? "" : base.href });
    }
  }

  // Methods rather than closures set per reader: every document's reader
  // then has the same map and the same call targets, so the byte walk's
  // optimised code stays valid from one document to the next.
  skips(d: number, name: ElementName): boolean {
    return this.#keeps && d === 3 && this.inUrl && isExtensionBlock(this.#code(name));
  }

  skipped(a: number, e: number): void {
    if (this.#spanStart === -1) this.#spanStart = a;
    this.#spanEnd = e;
  }

  #code(name: ElementName): number {
    return elementCode(name, this.#rootNs);
  }

  start(d: number, name: ElementName, b: Uint8Array, attrs: readonly number[]): number {
    const field = this.nestedStart(d, this.#code(name));
    return field !== LINK ? field : this.#link(b, attrs);
  }

  protected override openUrl(): void {
    this.#spanStart = -1;
    this.#locKind = LOC_NONE;
    this.#values[V_LAST_MODIFIED] = NaN;
    this.#values[V_PRIORITY] = 0.5;
    this.#changeFrequency = 0;
    this.#news = null;
    this.#videos = null;
    // Setting an array's length is a runtime call: only when there is something to drop.
    if (this.#imageRefs.length !== 0) this.#imageRefs.length = 0;
    if (this.#alternateRefs.length !== 0) this.#alternateRefs.length = 0;
  }

  protected override openNews(): void {
    this.#news ??= newNews();
  }

  protected override openImage(): void {
    this.#image.fill(0);
    this.#inImage = true;
  }

  protected override openVideo(): void {
    this.#video = newVideo();
  }

  /** Reads an `xhtml:link`'s attributes; -1 when one is prefixed (left to the general path). */
  #link(b: Uint8Array, out: readonly number[]): number {
    const found = alternateLink(b, out, this.#window);
    if (found <= 0) return found;
    const hreflang = (found & 0xffff) - 1;
    const href = found >>> 16;
    const lang = this.#lang(b, out[hreflang + 2]!, out[hreflang + 3]!);
    if (lang === "") return 0;
    const hrefA = out[href + 2]!;
    const hrefE = out[href + 3]!;
    const ref = this.#dataUrlRef(b, hrefA, hrefE, true);
    if (ref !== 0) this.#alternateRefs.push(this.#writer.ref(lang), ref);
    return 0;
  }

  /**
   * An `hreflang` value, trimmed; a document has a handful of them, so the
   * last few are kept by their bytes and come back as the same strings.
   */
  #lang(b: Uint8Array, a: number, e: number): string {
    const n = e - a;
    const starts = this.#langStarts;
    if (n <= 16) {
      for (let k = 0; k < LANG_SLOTS; k++) {
        const pa = starts[k]!;
        if (this.#langEnds[k]! - pa !== n) continue;
        let i = 0;
        while (i < n && b[pa + i] === b[a + i]) i++;
        if (i === n) return this.#langs[k]!;
      }
    }
    const lang = this.#window.attribute(a, e).trim();
    if (n <= 16) {
      const k = this.#langNext;
      this.#langNext = (k + 1) % LANG_SLOTS;
      starts[k] = a;
      this.#langEnds[k] = e;
      this.#langs[k] = lang;
    }
    return lang;
  }

  /**
   * The reference of an extension URL from an element's text or an
   * attribute's value as written (`attribute` says which), as
   * {@linkcode resolveDataUrl} gives it: copied as it stands (`&amp;`
   * unescaped) when it is a normal URL, which one pass over the bytes tells,
   * else by {@linkcode #urlRef} or from its text.
   */
  #dataUrlRef(b: Uint8Array, a: number, e: number, attribute: boolean): number {
    const s = skipSpace(b, a, e);
    const t = trimSpaceEnd(b, s, e);
    if (s < t) {
      const kind = normalRawUrl(b, s, t);
      if (kind === 1) return this.#writer.bytes(b, s, t);
      if (kind === 2) return this.#writer.unescapedBytes(b, s, t);
    }
    // Else normalised from the bytes as the builder does <loc>s, unless an
    // attribute's tabs or line breaks (read as spaces there) are in it.
    if (!attribute || !hasTabOrBreak(b, a, e)) {
      const room = normalizedRoom(e - a, this.#normalBase);
      if (this.#normalized.length < room) this.#normalized = new Uint8Array(room * 2);
      const out = this.#normalized;
      const end = normalizeUrlBytes(b, a, e, out, 0, this.#normalBase, RAW_XML | KEEP_FRAGMENT);
      if (end >= 0) return this.#writer.bytes(out, 0, end);
    }
    if (plainBytes(b, a, e)) return this.#urlRef(b, a, e);
    const w = this.#window;
    return this.#writer.ref(
      resolveDataUrl(attribute ? w.attribute(a, e) : w.run(a, e), this.#base),
    );
  }

  /**
   * The reference of an extension URL from bytes with no reference or
   * control byte in them, as {@linkcode resolveDataUrl} gives it: copied as
   * they stand when already normal, else resolved from their text.
   */
  #urlRef(b: Uint8Array, a: number, e: number): number {
    a = skipSpace(b, a, e);
    e = trimSpaceEnd(b, a, e);
    if (a === e) return 0;
    const w = this.#writer;
    if (hasAmp(b, a, e)) {
      // `&amp;` in a query (Shopify's `?v=…&amp;width=…`): unescaped as copied.
      const ref = w.unescapedBytes(b, a, e);
      if (isNormalUrlText(w.textBytes, w.startOf(ref), w.textUsed)) return ref;
      w.dropLast();
    } else if (isNormalUrlBytes(b, a, e)) {
      return w.bytes(b, a, e);
    }
    return w.ref(resolveDataUrl(this.#window.run(a, e), this.#base));
  }

  /** The reference of a text field from one run of bytes, as {@linkcode textOrNull} gives it. */
  #textRef(b: Uint8Array, a: number, e: number): number {
    // A CR inside would read as LF: such text goes the string way.
    if (!plainAscii(b, a, e, 0x0d)) return this.#writer.ref(textOrNull(this.#window.run(a, e)));
    a = skipSpace(b, a, e);
    e = trimSpaceEnd(b, a, e);
    if (a === e) return 0;
    // Short values (languages, names) repeat: the string form is stored once.
    return e - a <= 8 ? this.#writer.ref(this.#window.decode(a, e)) : this.#writer.bytes(b, a, e);
  }

  scan(field: number, b: Uint8Array, from: number): number {
    // The first <loc> counts: its bytes are copied and checked as they are
    // passed, unless a `since` filter may drop the page (then at its end).
    if (field === F_LOC && this.#locKind === LOC_NONE && this.#since !== this.#since) {
      return this.#builder.copyLoc(b, from, MAX_FIELD_LENGTH);
    }
    return textEnd(b, from);
  }

  raw(field: number, b: Uint8Array, a: number, e: number): void {
    switch (field) {
      case F_LOC:
        if (this.#locKind === LOC_NONE) {
          this.#locKind = LOC_RAW;
          this.#locStart = a;
          this.#locEnd = e;
        }
        return;
      case F_LASTMOD:
        lastModifiedInto(b, a, e, this.#values, V_LAST_MODIFIED);
        return;
      case F_PRIORITY:
        priorityInto(b, a, e, this.#values, V_PRIORITY);
        return;
      case F_CHANGEFREQ:
        this.#changeFrequency = frequencyOf(b, a, e);
        return;
    }
    if (field >= F_IMAGE_LOC && field <= F_IMAGE_LICENSE) {
      this.#imageField(field, b, a, e);
    } else if (
      !(field >= F_VIDEO_THUMBNAIL && this.#video !== null && this.#videoField(field, b, a, e)) &&
      !this.#dateField(field, b, a, e) && !this.#newsListField(field, b, a, e)
    ) {
      this.#extensionField(field, this.#fieldText(field, b, a, e));
    }
  }

  /** Sets an image's field from its bytes: a URL's or a text's reference. */
  #imageField(field: number, b: Uint8Array, a: number, e: number): void {
    if (!this.#inImage) return;
    const slot = field - F_IMAGE_LOC;
    this.#image[slot] = slot === 0 || slot === 4
      ? this.#dataUrlRef(b, a, e, false)
      : this.#textRef(b, a, e);
  }

  /**
   * Sets a news or video date straight from its bytes when they hold a W3C
   * date, which parseDate reads from the same bytes first (text this short
   * is not trimmed first). False leaves the field to the text.
   */
  #dateField(field: number, b: Uint8Array, a: number, e: number): boolean {
    if (field !== F_NEWS_DATE && field !== F_VIDEO_PUBLISHED && field !== F_VIDEO_EXPIRATION) {
      return false;
    }
    const ms = e - a <= 64 && plainAscii(b, a, e, 0x0d) ? parseW3cDateBytes(b, a, e) : NaN;
    if (ms !== ms) return false;
    if (field === F_NEWS_DATE) {
      if (this.#news !== null) this.#news.publishDate = ms;
    } else if (this.#video !== null) {
      if (field === F_VIDEO_PUBLISHED) this.#video.publicationDate = ms;
      else this.#video.expirationDate = ms;
    }
    return true;
  }

  /**
   * Sets a news story's genres, keywords or tickers straight from their
   * bytes when they hold no reference or CR: then the text is the bytes,
   * and its only whitespace is what isSpace takes, as commaList reads it.
   * False leaves the field to the text.
   */
  #newsListField(field: number, b: Uint8Array, a: number, e: number): boolean {
    if (field < F_NEWS_GENRES || field > F_NEWS_TICKERS || !plainAscii(b, a, e, 0x0d)) {
      return false;
    }
    const news = this.#news;
    if (news === null) return true;
    const list: string[] = [];
    let from = a;
    for (;;) {
      let comma = from;
      while (comma < e && b[comma] !== 0x2c) comma++;
      const s = skipSpace(b, from, comma);
      const t = trimSpaceEnd(b, s, comma);
      if (s < t) list.push(this.#window.decode(s, t));
      if (comma === e) break;
      from = comma + 1;
    }
    if (field === F_NEWS_GENRES) news.genres = list;
    else if (field === F_NEWS_KEYWORDS) news.keywords = list;
    else news.stockTickers = list;
    return true;
  }

  /**
   * Sets a video's URL or duration straight from its bytes when they need
   * nothing of what setVideoField does to text: a URL already in normal form
   * (resolveDataUrl gives it back trimmed), a duration of plain digits
   * (decimalOrNull's Number() of them). False leaves the field to the text.
   */
  #videoField(field: number, b: Uint8Array, a: number, e: number): boolean {
    const video = this.#video!;
    const s = skipSpace(b, a, e);
    const t = trimSpaceEnd(b, s, e);
    if (field === F_VIDEO_DURATION) {
      if (t === s || t - s > 15) return false;
      let n = 0;
      for (let i = s; i < t; i++) {
        const d = b[i]! - 0x30;
        if (d < 0 || d > 9) return false;
        n = n * 10 + d;
      }
      video.duration = n;
      return true;
    }
    if (field !== F_VIDEO_THUMBNAIL && field !== F_VIDEO_CONTENT && field !== F_VIDEO_PLAYER) {
      return false;
    }
    if (normalRawUrl(b, s, t) !== 1) return false;
    const url = this.#window.decode(s, t);
    if (field === F_VIDEO_THUMBNAIL) video.thumbnailLoc = url;
    else if (field === F_VIDEO_CONTENT) video.contentLoc = url;
    else video.playerLoc = url;
    return true;
  }

  /**
   * A field's text from one run of bytes; the same string as last time when
   * the bytes are the same (a publication's name, a language, a tag), whose
   * hash the string table's lookup then has already.
   */
  #fieldText(field: number, b: Uint8Array, a: number, e: number): string {
    const k = field & 63;
    const pa = this.#lastStart[k]!;
    const n = e - a;
    if (this.#lastEnd[k]! - pa === n && n <= 64) {
      let i = 0;
      while (i < n && b[pa + i] === b[a + i]) i++;
      if (i === n) return this.#lastText[k]!;
    }
    const text = this.#window.run(a, e);
    this.#lastStart[k] = a;
    this.#lastEnd[k] = e;
    this.#lastText[k] = text;
    return text;
  }

  cdata(field: number, b: Uint8Array, a: number, e: number): void {
    if (field !== F_LOC) {
      this.text(field, cdataText(b, a, e));
    } else if (this.#locKind === LOC_NONE) {
      this.#locKind = LOC_CDATA;
      this.#locStart = a;
      this.#locEnd = e;
    }
  }

  text(field: number, text: string): void {
    switch (field) {
      case F_LOC:
        if (this.#locKind === LOC_NONE) {
          this.#locKind = LOC_TEXT;
          this.#locText = text;
        }
        return;
      case F_LASTMOD:
        this.#values[V_LAST_MODIFIED] = parseDateText(text);
        return;
      case F_PRIORITY:
        this.#values[V_PRIORITY] = parsePriority(text);
        return;
      case F_CHANGEFREQ:
        this.#changeFrequency = changeFrequencyCode(text);
        return;
    }
    this.#extensionField(field, text);
  }

  #extensionField(field: number, text: string): void {
    if (field < 20) {
      if (this.#news !== null) setNewsField(this.#news, field, text);
    } else if (field < 30) {
      if (!this.#inImage) return;
      const slot = field - F_IMAGE_LOC;
      this.#image[slot] = this.#writer.ref(
        slot === 0 || slot === 4 ? resolveDataUrl(text, this.#base) : textOrNull(text),
      );
    } else if (this.#video !== null) {
      setVideoField(this.#video, field, text, this.#base);
    }
  }

  end(d: number): void {
    this.nestedEnd(d);
  }

  protected override closeImage(): void {
    // An image without a loc is dropped, as in the general reader.
    if (this.#inImage && this.#image[0] !== 0) this.#imageRefs.push(...this.#image);
    this.#inImage = false;
  }

  protected override closeVideo(): void {
    if (this.#video !== null) (this.#videos ??= []).push(this.#video);
    this.#video = null;
  }

  protected override closeUrl(): void {
    if (this.#locKind === LOC_NONE) return;
    if (this.#values[V_LAST_MODIFIED]! < this.#since) {
      // Never copied, checked or hashed.
      this.#builder.countOld();
      this.#locText = "";
      return;
    }
    const any = this.#spanStart !== -1 || this.#news !== null || this.#videos !== null ||
      this.#imageRefs.length > 0 || this.#alternateRefs.length > 0;
    const extras = any ? this : null;
    const builder = this.#builder;
    const doc = this.#doc;
    const start = this.#locStart;
    const end = this.#locEnd;
    const frequency = this.#changeFrequency;
    if (this.#locKind === LOC_RAW) {
      if (this.#since === this.#since) builder.copyLoc(doc, start, MAX_FIELD_LENGTH);
      builder.commitLoc(doc, start, end, frequency, extras);
    } else if (this.#locKind === LOC_CDATA) {
      builder.commitBytes(doc, start, end, frequency, extras);
    } else {
      builder.commitText(this.#locText, frequency, extras);
      this.#locText = "";
    }
  }

  /** Writes the `<url>`'s extras as records (called inside `commitLoc` or `commitText`). */
  writeTo(w: ExtrasWriter): void {
    if (this.#spanStart !== -1) {
      // Kept: every extension block was skipped, so there is nothing else to write.
      w.word(this.#spanStart);
      w.word(this.#spanEnd);
      return;
    }
    const images = this.#imageRefs;
    const alternates = this.#alternateRefs;
    w.word(
      (this.#news !== null ? EXTRAS_MASK.news : 0) |
        (images.length > 0 ? EXTRAS_MASK.images : 0) |
        (this.#videos !== null ? EXTRAS_MASK.videos : 0) |
        (alternates.length > 0 ? EXTRAS_MASK.alternates : 0),
    );
    if (this.#news !== null) w.news(this.#news);
    if (images.length > 0) {
      w.word(images.length / 5);
      for (const ref of images) w.word(ref);
    }
    if (this.#videos !== null) {
      w.word(this.#videos.length);
      for (const video of this.#videos) w.video(video);
    }
    if (alternates.length > 0) {
      w.word(alternates.length / 2);
      for (const ref of alternates) w.word(ref);
    }
  }

  finish(): ParseResult {
    const { pages, found, warning } = this.#builder.build();
    return { kind: "pages", format: "urlset", pages, found, warning };
  }

  discard(): void {
    this.#builder.discard();
  }
}

/**
 * Reads a UTF-8 `<urlset>` straight from its bytes.
 *
 * @param b The decompressed document, known to be UTF-8.
 * @param base The sitemap URL, for relative `<loc>`s; null if unknown.
 * @param since Keep pages whose lastmod is >= this (epoch ms) or missing; NaN keeps all.
 * @param checkpoint Called with the offset every ~1 MiB; may throw to cancel.
 * @param keep When set, extension blocks are passed over and kept as bytes
 * ({@linkcode KeptExtras}), decoded when first read; null decodes them now.
 * @returns The same result the general path gives, or null when the document
 * is not of the shape read here (then nothing has been kept).
 */
export function readUrlsetBytes(
  b: Uint8Array,
  base: URL | null,
  since: number,
  checkpoint: Checkpoint = NO_CHECKPOINT,
  keep: KeepExtensions | null = null,
): ParseResult | null {
  return readXmlBytes(
    b,
    "urlset",
    (rootNs, root) => new UrlsetBytes(rootNs, base, since, b, root, keep),
    checkpoint,
  );
}
