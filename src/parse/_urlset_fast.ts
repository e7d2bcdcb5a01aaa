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
import { parseW3cDateBytes } from "./_dates.ts";
import { Ns } from "./_ns.ts";
import { decodeRawText, PackedPagesBuilder, parseDateText } from "./_pack.ts";
import { MAX_FIELD_LENGTH, type Mutable, parsePriority } from "./_reader.ts";
import {
  type AlternateData,
  CHANGE_FREQUENCIES,
  type ImageData,
  type NewsStoryData,
  type ParseResult,
  type VideoData,
} from "./_result.ts";
import {
  alternateOf,
  changeFrequencyCode,
  extrasOf,
  IMAGE_FIELDS,
  newImage,
  newNews,
  NEWS_FIELDS,
  NEWS_PUBLICATION_FIELDS,
  newVideo,
  setImageField,
  setNewsField,
  setVideoField,
  VIDEO_FIELDS,
  type VideoBeingRead,
} from "./_urlset.ts";
import {
  attributeValue,
  type ByteReader,
  type ElementName,
  isCoreName,
  isSpace,
  readXmlBytes,
  runText,
  textEnd,
} from "./_xml_bytes.ts";

// Fields of the core elements; extension fields use the codes of _urlset.ts (10 and up).
const F_LOC = 1;
const F_LASTMOD = 2;
const F_PRIORITY = 3;
const F_CHANGEFREQ = 4;

// Local names, in the low byte of a name's code.
const L_OTHER = 0;
const L_URL = 1;
const L_LOC = 2;
const L_LASTMOD = 3;
const L_PRIORITY = 4;
const L_CHANGEFREQ = 5;
const L_NEWS = 6;
const L_IMAGE = 7;
const L_VIDEO = 8;
const L_LINK = 9;
const L_PUBLICATION = 10;
/** Set when the name is in the root's (or the sitemaps.org, or no) namespace. */
const CORE = 0x40;
/** Set when a news/image/video/link name is in its extension's namespace (or none). */
const EXT = 0x80;

const LOCALS = new Map<string, number>([
  ["url", L_URL],
  ["loc", L_LOC],
  ["lastmod", L_LASTMOD],
  ["priority", L_PRIORITY],
  ["changefreq", L_CHANGEFREQ],
  ["news", L_NEWS],
  ["image", L_IMAGE],
  ["video", L_VIDEO],
  ["link", L_LINK],
  ["publication", L_PUBLICATION],
]);

const EXT_KIND: number[] = [];
EXT_KIND[L_NEWS] = Ns.News;
EXT_KIND[L_IMAGE] = Ns.Image;
EXT_KIND[L_VIDEO] = Ns.Video;
EXT_KIND[L_LINK] = Ns.Xhtml;

/**
 * A name's code: local name id, CORE and EXT flags in the low byte; news,
 * image and video field codes (by local name alone, as the general reader
 * matches them) in the next three; the publication field above.
 */
function codeOf(name: ElementName, rootNs: string): number {
  const local = LOCALS.get(name.local) ?? L_OTHER;
  let code = local;
  if (isCoreName(name, rootNs)) code |= CORE;
  const ext = EXT_KIND[local];
  if (ext !== undefined && (name.kind === ext || name.kind === Ns.None)) code |= EXT;
  code += (NEWS_FIELDS.get(name.local) ?? 0) * 0x100;
  code += (IMAGE_FIELDS.get(name.local) ?? 0) * 0x10000;
  code += (VIDEO_FIELDS.get(name.local) ?? 0) * 0x1000000;
  code += (NEWS_PUBLICATION_FIELDS.get(name.local) ?? 0) * 0x100000000;
  return code;
}

const C_NONE = 0;
const C_NEWS = 1;
const C_IMAGE = 2;
const C_VIDEO = 3;

/** Which `<loc>` a `<url>` has: none yet, one run of bytes, or decoded text. */
const LOC_NONE = 0;
const LOC_RAW = 1;
const LOC_TEXT = 2;

/** Whether `b[a, e)` is short ASCII without references or control bytes other than whitespace. */
function plainAscii(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) {
    const c = b[i]!;
    if (c >= 0x7f || c === 0x26 || (c < 0x20 && !isSpace(c))) return false;
  }
  return true;
}

/** Whether `b` holds the ASCII `word` at `i`. */
function isAscii(b: Uint8Array, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** A `<priority>`'s value from plain ASCII bytes, as {@linkcode parsePriority} reads its text. */
function priorityOf(b: Uint8Array, a: number, e: number): number {
  let i = a;
  while (i < e && isSpace(b[i]!)) i++;
  let end = e;
  while (end > i && isSpace(b[end - 1]!)) end--;
  let value = 0;
  let digits = 0;
  let scale = 1;
  let dot = false;
  for (let k = i; k < end; k++) {
    const c = b[k]!;
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      digits++;
      if (dot) scale *= 10;
    } else if (c === 0x2e && !dot) {
      dot = true;
    } else {
      return 0.5;
    }
  }
  if (digits === 0) return 0.5;
  // Both are exact below 2^53, so one division rounds as Number() would.
  if (digits > 15) return parsePriority(decodeRawText(b, a, e));
  const n = value / scale;
  return n <= 1 ? n : 0.5;
}

const FREQUENCY_NAMES = CHANGE_FREQUENCIES.map((f) => new TextEncoder().encode(f));

/** A `<changefreq>`'s code from plain ASCII bytes: 1 + index in CHANGE_FREQUENCIES, or 0. */
function frequencyOf(b: Uint8Array, a: number, e: number): number {
  while (a < e && isSpace(b[a]!)) a++;
  while (e > a && isSpace(b[e - 1]!)) e--;
  next: for (let f = 0; f < FREQUENCY_NAMES.length; f++) {
    const name = FREQUENCY_NAMES[f]!;
    if (name.length !== e - a) continue;
    for (let k = 0; k < name.length; k++) {
      const c = b[a + k]!;
      if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name[k]) continue next;
    }
    return f + 1;
  }
  return 0;
}

/** The `<urlset>` reader's state, driven by {@linkcode readXmlBytes}. */
class UrlsetBytes implements ByteReader {
  readonly #builder: PackedPagesBuilder;
  readonly #base: URL | null;
  readonly #rootNs: string;
  #inUrl = false;
  #container = C_NONE;
  #inPublication = false;

  #locKind = LOC_NONE;
  #locStart = 0;
  #locEnd = 0;
  #locText = "";
  #lastModified = NaN;
  #priority = 0.5;
  #changeFrequency = 0;
  #news: Mutable<NewsStoryData> | null = null;
  #images: ImageData[] | null = null;
  #image: Mutable<ImageData> | null = null;
  #videos: VideoData[] | null = null;
  #video: VideoBeingRead | null = null;
  #alternates: AlternateData[] | null = null;

  readonly #doc: Uint8Array;
  readonly #since: number;

  constructor(rootNs: string, base: URL | null, since: number, doc: Uint8Array) {
    this.#rootNs = rootNs;
    this.#base = base;
    this.#doc = doc;
    this.#since = since;
    this.#builder = new PackedPagesBuilder(base, since, { sizeHint: doc.length });
  }

  start(d: number, name: ElementName, b: Uint8Array, attrs: readonly number[]): number {
    let code = name.code;
    if (code === -1) code = name.code = codeOf(name, this.#rootNs);
    if (d === 2) {
      if ((code & 0x7f) === (L_URL | CORE)) this.#startUrl();
      return 0;
    }
    if (!this.#inUrl) return 0;
    if (d === 3) return this.#startUrlChild(code, b, attrs);
    if (d === 4) {
      if (this.#container === C_NEWS) {
        if ((code & 0x3f) === L_PUBLICATION) {
          this.#inPublication = true;
          return 0;
        }
        return (code >>> 8) & 0xff;
      }
      if (this.#container === C_IMAGE) return (code >>> 16) & 0xff;
      if (this.#container === C_VIDEO) return code >>> 24;
      return 0;
    }
    if (d === 5 && this.#inPublication) return Math.floor(code / 0x100000000);
    return 0;
  }

  #startUrl(): void {
    this.#inUrl = true;
    this.#locKind = LOC_NONE;
    this.#lastModified = NaN;
    this.#priority = 0.5;
    this.#changeFrequency = 0;
    this.#news = null;
    this.#images = null;
    this.#videos = null;
    this.#alternates = null;
  }

  #startUrlChild(code: number, b: Uint8Array, attrs: readonly number[]): number {
    const local = code & 0x3f;
    if (local >= L_LOC && local <= L_CHANGEFREQ) return (code & CORE) === 0 ? 0 : local - 1;
    if ((code & EXT) === 0) return 0;
    if (local === L_NEWS) {
      this.#container = C_NEWS;
      // A second <news:news> in one <url> adds to the first rather than replacing it.
      this.#news ??= newNews();
    } else if (local === L_IMAGE) {
      this.#container = C_IMAGE;
      this.#image = newImage();
    } else if (local === L_VIDEO) {
      this.#container = C_VIDEO;
      this.#video = newVideo();
    } else if (local === L_LINK) {
      return this.#link(b, attrs);
    }
    return 0;
  }

  /** Reads an `xhtml:link`'s attributes; -1 when one is prefixed (left to the general path). */
  #link(b: Uint8Array, out: readonly number[]): number {
    let rel: string | null = null;
    let hreflang: string | null = null;
    let href: string | null = null;
    for (let k = 0; k < out.length; k += 4) {
      const a = out[k]!;
      const e = out[k + 1]!;
      const len = e - a;
      for (let m = a; m < e; m++) if (b[m] === 0x3a) return -1;
      // The first attribute of each name counts, as in the general reader.
      if (len === 3 && isAscii(b, a, "rel")) {
        rel ??= attributeValue(b, out[k + 2]!, out[k + 3]!);
      } else if (len === 4 && isAscii(b, a, "href")) {
        href ??= attributeValue(b, out[k + 2]!, out[k + 3]!);
      } else if (len === 8 && isAscii(b, a, "hreflang")) {
        hreflang ??= attributeValue(b, out[k + 2]!, out[k + 3]!);
      }
    }
    const alternate = alternateOf(rel, hreflang, href, this.#base);
    if (alternate !== null) (this.#alternates ??= []).push(alternate);
    return 0;
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
      case F_LASTMOD: {
        let ms = parseW3cDateBytes(b, a, e);
        if (Number.isNaN(ms)) ms = parseDateText(decodeRawText(b, a, e));
        this.#lastModified = ms;
        return;
      }
      case F_PRIORITY:
        this.#priority = plainAscii(b, a, e)
          ? priorityOf(b, a, e)
          : parsePriority(decodeRawText(b, a, e));
        return;
      case F_CHANGEFREQ:
        this.#changeFrequency = plainAscii(b, a, e)
          ? frequencyOf(b, a, e)
          : changeFrequencyCode(decodeRawText(b, a, e));
        return;
    }
    this.#extensionField(field, runText(b, a, e));
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
        this.#lastModified = parseDateText(text);
        return;
      case F_PRIORITY:
        this.#priority = parsePriority(text);
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
      if (this.#image !== null) setImageField(this.#image, field, text, this.#base);
    } else if (this.#video !== null) {
      setVideoField(this.#video, field, text, this.#base);
    }
  }

  end(d: number): void {
    if (!this.#inUrl) return;
    if (d === 2) {
      this.#inUrl = false;
      this.#commit();
    } else if (d === 3) {
      if (this.#container === C_IMAGE) {
        const image = this.#image;
        if (image !== null && image.loc !== "") (this.#images ??= []).push(image);
        this.#image = null;
      } else if (this.#container === C_VIDEO) {
        if (this.#video !== null) (this.#videos ??= []).push(this.#video);
        this.#video = null;
      }
      this.#container = C_NONE;
      this.#inPublication = false;
    } else if (d === 4) {
      this.#inPublication = false;
    }
  }

  #commit(): void {
    if (this.#locKind === LOC_NONE) return;
    if (this.#lastModified < this.#since) {
      // Never copied, checked or hashed.
      this.#builder.countOld();
      this.#locText = "";
      return;
    }
    const extras = extrasOf(this.#news, this.#images, this.#videos, this.#alternates);
    if (this.#locKind === LOC_RAW) {
      if (this.#since === this.#since) {
        this.#builder.copyLoc(this.#doc, this.#locStart, MAX_FIELD_LENGTH);
      }
      this.#builder.commitLoc(
        this.#doc,
        this.#locStart,
        this.#locEnd,
        this.#lastModified,
        this.#priority,
        this.#changeFrequency,
        extras,
      );
    } else {
      this.#builder.add(
        this.#locText,
        this.#lastModified,
        this.#priority,
        this.#changeFrequency,
        extras,
      );
      this.#locText = "";
    }
  }

  finish(): ParseResult {
    const { pages, found } = this.#builder.build();
    return { kind: "pages", format: "urlset", pages, found, warning: null };
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
 * @returns The same result the general path gives, or null when the document
 * is not of the shape read here (then nothing has been kept).
 */
export function readUrlsetBytes(
  b: Uint8Array,
  base: URL | null,
  since: number,
): ParseResult | null {
  return readXmlBytes(b, "urlset", (rootNs) => new UrlsetBytes(rootNs, base, since, b));
}
