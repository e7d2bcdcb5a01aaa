/**
 * Decodes kept extension blocks ({@linkcode KeptExtras}) straight into what
 * a reader hands out — the public objects, or plain data — with no records,
 * string table or packed columns in between: the byte walker
 * ({@linkcode readXmlBytes}) reads a run of pages' spans under the root's
 * start tag and the `<url>` automaton ({@linkcode UrlNesting}) that the
 * other urlset readers share, and each field's value comes from the same
 * value readers (`_urlset_fields.ts`) applied to the same text. A run the
 * walker declines is read by the caller the general way.
 *
 * @module
 */
import { NO_CHECKPOINT } from "../_checkpoint.ts";
import { plainAscii, skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";
import { alternateLink, elementCode, hasTabOrBreak } from "./_urlset_bytes.ts";
import {
  KEEP_FRAGMENT,
  type NormalBase,
  normalBase,
  normalizedRoom,
  normalizeUrlBytes,
  RAW_XML,
} from "./_normalize_url.ts";
import { normalRawUrl } from "./_pack.ts";
import { type Mutable, textOrNull } from "./_reader.ts";
import type { NewsStoryData, PageExtrasData, ParseResult, VideoData } from "./_result.ts";
import { resolveDataUrl } from "./_url.ts";
import {
  F_IMAGE_LICENSE,
  F_IMAGE_LOC,
  newNews,
  newVideo,
  setNewsField,
  setVideoField,
  type VideoBeingRead,
} from "./_urlset_fields.ts";
import { LINK, UrlNesting } from "./_urlset_nesting.ts";
import {
  type ByteReader,
  cdataText,
  type DocumentText,
  type ElementName,
  readXmlBytes,
  textEnd,
  TextWindow,
  WholeText,
} from "./_xml_bytes.ts";

/**
 * What a decoded page's extensions are made of: the caller's own objects
 * (the public classes, or plain data), built as each block closes.
 */
export interface KeptFactory<E, N = unknown, I = unknown, V = unknown, A = unknown> {
  /** An image with a location. */
  image(
    loc: string,
    caption: string | null,
    geoLocation: string | null,
    title: string | null,
    license: string | null,
  ): I;
  /** An alternate. */
  alternate(hreflang: string, href: string): A;
  /** A news story (its data is not reused). */
  news(data: NewsStoryData): N;
  /** A video (its data is not reused). */
  video(data: VideoData): V;
  /** A page's extensions; lists are null when empty, and fresh otherwise. */
  page(news: N | null, images: I[] | null, videos: V[] | null, alternates: A[] | null): E;
  /** A page's extensions from data read the general way (the fallback). */
  fromData(data: PageExtrasData): E;
}

/** The pages of a run, each its extensions or null when it has none. */
export type DecodedPages<E> = (E | null)[];

/** What {@linkcode KeptReader.finish} tells the walker. */
const DONE: ParseResult = { kind: "invalid", reason: "decoded" };

/** Reads a synthetic urlset of spans into one entry per `<url>`. */
class KeptReader<E> extends UrlNesting implements ByteReader {
  readonly #f: KeptFactory<E>;
  readonly #rootNs: string;
  readonly #base: URL | null;
  readonly #normalBase: NormalBase | null;
  readonly #window: DocumentText;
  #normalized = new Uint8Array(1024);
  readonly out: DecodedPages<E>;

  #news: Mutable<NewsStoryData> | null = null;
  #images: unknown[] | null = null;
  #videos: unknown[] | null = null;
  #alternates: unknown[] | null = null;
  #video: VideoBeingRead | null = null;
  #inImage = false;
  #loc: string | null = null;
  #caption: string | null = null;
  #geo: string | null = null;
  #title: string | null = null;
  #license: string | null = null;

  constructor(
    f: KeptFactory<E>,
    rootNs: string,
    base: URL | null,
    doc: Uint8Array,
    out: DecodedPages<E>,
  ) {
    super();
    this.#f = f;
    this.#rootNs = rootNs;
    this.#base = base;
    this.#normalBase = normalBase(base);
    this.#window = WholeText.of(doc) ?? new TextWindow(doc);
    this.out = out;
  }

  start(d: number, name: ElementName, b: Uint8Array, attrs: readonly number[]): number {
    const field = this.nestedStart(d, elementCode(name, this.#rootNs));
    return field !== LINK ? field : this.#link(b, attrs);
  }

  protected override openUrl(): void {
    this.#news = null;
    this.#images = this.#videos = this.#alternates = null;
  }

  protected override openNews(): void {
    this.#news ??= newNews();
  }

  protected override openImage(): void {
    this.#loc =
      this.#caption =
      this.#geo =
      this.#title =
      this.#license =
        null;
    this.#inImage = true;
  }

  protected override openVideo(): void {
    this.#video = newVideo();
  }

  /** An `xhtml:link`'s attributes, read as the byte-level urlset reader reads them. */
  #link(b: Uint8Array, out: readonly number[]): number {
    const w = this.#window;
    const found = alternateLink(b, out, w);
    if (found <= 0) return found;
    const hreflang = (found & 0xffff) - 1;
    const href = found >>> 16;
    const lang = w.attribute(out[hreflang + 2]!, out[hreflang + 3]!).trim();
    if (lang === "") return 0;
    const url = this.#url(b, out[href + 2]!, out[href + 3]!, true);
    if (url !== null) (this.#alternates ??= []).push(this.#f.alternate(lang, url));
    return 0;
  }

  /**
   * An extension URL from an element's text or an attribute's value as
   * written, as {@linkcode resolveDataUrl} gives it from its text: as it
   * stands (`&amp;` unescaped) when it is already normal, else normalised
   * from its bytes, else resolved from its text.
   */
  #url(b: Uint8Array, a: number, e: number, attribute: boolean): string | null {
    const w = this.#window;
    const s = skipSpace(b, a, e);
    const t = trimSpaceEnd(b, s, e);
    if (s < t) {
      const kind = normalRawUrl(b, s, t);
      if (kind === 1) return w.decode(s, t);
      if (kind === 2) return w.decode(s, t).replaceAll("&amp;", "&");
    }
    if (!attribute || !hasTabOrBreak(b, a, e)) {
      const room = normalizedRoom(e - a, this.#normalBase);
      if (this.#normalized.length < room) this.#normalized = new Uint8Array(room * 2);
      const out = this.#normalized;
      const end = normalizeUrlBytes(b, a, e, out, 0, this.#normalBase, RAW_XML | KEEP_FRAGMENT);
      if (end >= 0) return String.fromCharCode.apply(null, out.subarray(0, end) as never);
    }
    return resolveDataUrl(attribute ? w.attribute(a, e) : w.run(a, e), this.#base);
  }

  /** A text field from one run of bytes, as {@linkcode textOrNull} reads its text. */
  #text(b: Uint8Array, a: number, e: number): string | null {
    if (!plainAscii(b, a, e, 0x0d)) return textOrNull(this.#window.run(a, e));
    a = skipSpace(b, a, e);
    e = trimSpaceEnd(b, a, e);
    return a === e ? null : this.#window.decode(a, e);
  }

  scan(_field: number, b: Uint8Array, from: number): number {
    return textEnd(b, from);
  }

  raw(field: number, b: Uint8Array, a: number, e: number): void {
    if (field < 10) return;
    if (field >= F_IMAGE_LOC && field <= F_IMAGE_LICENSE) {
      if (!this.#inImage) return;
      if (field === F_IMAGE_LOC) this.#loc = this.#url(b, a, e, false);
      else if (field === F_IMAGE_LICENSE) this.#license = this.#url(b, a, e, false);
      else this.#imageText(field, this.#text(b, a, e));
      return;
    }
    this.#field(field, this.#window.run(a, e));
  }

  #imageText(field: number, value: string | null): void {
    if (field === F_IMAGE_LOC + 1) this.#caption = value;
    else if (field === F_IMAGE_LOC + 2) this.#geo = value;
    else this.#title = value;
  }

  cdata(field: number, b: Uint8Array, a: number, e: number): void {
    this.text(field, cdataText(b, a, e));
  }

  text(field: number, text: string): void {
    if (field < 10) return;
    this.#field(field, text);
  }

  /** Any extension field from its text. */
  #field(field: number, text: string): void {
    if (field < 20) {
      if (this.#news !== null) setNewsField(this.#news, field, text);
    } else if (field < 30) {
      if (!this.#inImage) return;
      if (field === F_IMAGE_LOC) this.#loc = resolveDataUrl(text, this.#base);
      else if (field === F_IMAGE_LICENSE) this.#license = resolveDataUrl(text, this.#base);
      else this.#imageText(field, textOrNull(text));
    } else if (this.#video !== null) {
      setVideoField(this.#video, field, text, this.#base);
    }
  }

  end(d: number): void {
    this.nestedEnd(d);
  }

  protected override closeImage(): void {
    // An image without a loc is dropped, as in the other readers.
    if (this.#inImage && this.#loc !== null) {
      (this.#images ??= []).push(
        this.#f.image(this.#loc, this.#caption, this.#geo, this.#title, this.#license),
      );
    }
    this.#inImage = false;
  }

  protected override closeVideo(): void {
    if (this.#video !== null) (this.#videos ??= []).push(this.#f.video(this.#video));
    this.#video = null;
  }

  protected override closeUrl(): void {
    const news = this.#news;
    this.out.push(
      news === null && this.#images === null && this.#videos === null &&
        this.#alternates === null
        ? null
        : this.#f.page(
          news === null ? null : this.#f.news(news),
          this.#images,
          this.#videos,
          this.#alternates,
        ),
    );
  }

  finish(): ParseResult {
    // The pages are in `out`: the walker only needs to hear that it is done.
    return DONE;
  }

  discard(): void {
    this.out.length = 0;
  }
}

/**
 * Decodes a synthetic urlset of kept spans (the root's start tag, one
 * `<url>` per page with a span, the root's end tag) into one entry per
 * `<url>`, in order.
 *
 * @param doc The synthetic document.
 * @param base The sitemap URL, for relative URLs; null if unknown.
 * @param f Builds the objects.
 * @returns One entry per `<url>` (null for a page whose blocks hold
 * nothing), or null when the walker declines the document.
 */
export function decodeKeptDocument<E>(
  doc: Uint8Array,
  base: URL | null,
  f: KeptFactory<E>,
): DecodedPages<E> | null {
  const out: DecodedPages<E> = [];
  const done = readXmlBytes(
    doc,
    "urlset",
    (rootNs) => new KeptReader(f, rootNs, base, doc, out),
    NO_CHECKPOINT,
  );
  return done === null ? null : out;
}
