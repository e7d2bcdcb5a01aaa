/**
 * The general `<urlset>` reader: it reads the tokenizer's events
 * (`XmlTokenizer`, `_tokenizer.ts`), so any encoding and any well-formed shape of
 * sitemaps.org 0.9 and Google's 0.84/0.9, with the Google News, Image and
 * Video extensions and `xhtml:link` alternates. The byte-level readers
 * (`_urlset_core_bytes.ts`, `_urlset_bytes.ts`) take the UTF-8 documents
 * they can and must agree with it.
 *
 * State lives in fields and numbers rather than per-element objects: the
 * common page (`loc` + `lastmod`) costs three comparisons per event.
 *
 * @module
 */
import { PackedPagesBuilder } from "./_pack.ts";
import { Ns, nsKind } from "./_ns.ts";
import { type DocumentReader, FieldText, type Mutable, parsePriority } from "./_reader.ts";
import {
  type AlternateData,
  type ImageData,
  joinWarnings,
  type NewsStoryData,
  type PageExtrasData,
  type ParseResult,
  type VideoData,
} from "./_result.ts";
import type { XmlAttribute } from "./_tokenizer.ts";
import { resolveDataUrl } from "./_url.ts";
import {
  changeFrequencyCode,
  F_CHANGEFREQ,
  F_LASTMOD,
  F_LOC,
  F_PRIORITY,
  newImage,
  newNews,
  newVideo,
  setImageField,
  setNewsField,
  setVideoField,
  type VideoBeingRead,
} from "./_urlset_fields.ts";
import { LINK, nameCode, UrlNesting } from "./_urlset_nesting.ts";

function attr(attrs: readonly XmlAttribute[], local: string): string | null {
  for (const a of attrs) if (a.local === local && a.ns === "") return a.value;
  return null;
}

/**
 * An `xhtml:link`'s alternate from its attributes, or null when it is not a
 * `rel="alternate"` link with a hreflang and a href.
 *
 * @param rel The `rel` attribute's value, or null.
 * @param hreflang The `hreflang` attribute's value, or null.
 * @param rawHref The `href` attribute's value, or null.
 * @param base The sitemap URL, or null.
 * @returns The alternate, or null.
 */
export function alternateOf(
  rel: string | null,
  hreflang: string | null,
  rawHref: string | null,
  base: URL | null,
): AlternateData | null {
  if (rel === null || rel.trim().toLowerCase() !== "alternate") return null;
  if (hreflang === null || rawHref === null || hreflang.trim() === "") return null;
  const href = resolveDataUrl(rawHref, base);
  return href === null ? null : { hreflang: hreflang.trim(), href };
}

/**
 * The extras of a page from what its `<url>` held, or null when nothing.
 *
 * @param news The news story, or null.
 * @param images The images, or null.
 * @param videos The videos, or null.
 * @param alternates The alternates, or null.
 * @returns The extras, or null.
 */
export function extrasOf(
  news: NewsStoryData | null,
  images: readonly ImageData[] | null,
  videos: readonly VideoData[] | null,
  alternates: readonly AlternateData[] | null,
): PageExtrasData | null {
  if (news === null && images === null && videos === null && alternates === null) return null;
  const e: Mutable<PageExtrasData> = {};
  if (news !== null) e.newsStory = news;
  if (images !== null) e.images = images;
  if (videos !== null) e.videos = videos;
  if (alternates !== null) e.alternates = alternates;
  return e;
}

/** Names whose codes {@linkcode UrlsetReader} keeps. */
const NAME_CACHE = 32;

/** Reads a `<urlset>` document into packed pages. */
export class UrlsetReader extends UrlNesting implements DocumentReader {
  readonly #builder: PackedPagesBuilder;
  readonly #base: URL | null;
  readonly #rootNs: string;
  #entries = 0;
  #depth = 0;
  #field = 0;
  #fieldDepth = 0;
  readonly #text = new FieldText();
  readonly #cachedLocal: string[] = new Array(NAME_CACHE).fill("");
  readonly #cachedNs: string[] = new Array(NAME_CACHE).fill("");
  readonly #cachedCode: number[] = new Array(NAME_CACHE).fill(0);

  #loc: string | null = null;
  #lastModified: string | null = null;
  #priority = 0.5;
  #changeFrequency = 0;
  #news: Mutable<NewsStoryData> | null = null;
  #images: ImageData[] | null = null;
  #image: Mutable<ImageData> | null = null;
  #videos: VideoData[] | null = null;
  #video: VideoBeingRead | null = null;
  #alternates: AlternateData[] | null = null;

  /**
   * @param rootNs The root element's namespace: its children are in it, even
   * when it is a misspelling of the sitemaps.org one.
   * @param base The sitemap URL, for relative `<loc>`s; null if unknown.
   * @param since Keep pages whose lastmod is >= this (epoch ms) or missing.
   * @param sizeHint Bytes of the document, to size buffers once.
   */
  constructor(rootNs: string, base: URL | null, since: number, sizeHint: number = 0) {
    super();
    this.#rootNs = rootNs;
    this.#base = base;
    this.#builder = new PackedPagesBuilder(base, since, { sizeHint });
  }

  /** Complete `<url>` elements read so far. */
  get entries(): number {
    return this.#entries;
  }

  #capture(field: number, depth: number): void {
    this.#field = field;
    this.#fieldDepth = depth;
  }

  /** Called by the tokenizer when an element starts. */
  onStart(ns: string, local: string, attrs: readonly XmlAttribute[]): void {
    const d = ++this.#depth;
    // Below a captured field nothing counts; below <url>'s grandchildren neither.
    if (this.#field !== 0 || d < 2 || d > 5) return;
    const field = this.nestedStart(d, this.#code(ns, local));
    if (field > 0) {
      this.#capture(field, d);
    } else if (field === LINK) {
      const alternate = alternateOf(
        attr(attrs, "rel"),
        attr(attrs, "hreflang"),
        attr(attrs, "href"),
        this.#base,
      );
      if (alternate !== null) (this.#alternates ??= []).push(alternate);
    }
  }

  /**
   * The {@linkcode nameCode} of a name, from a small cache: a document
   * repeats a handful of names, and the tokenizer hands them over as the
   * same strings.
   */
  #code(ns: string, local: string): number {
    const k = (local.length * 3 + local.charCodeAt(0)) & (NAME_CACHE - 1);
    if (this.#cachedLocal[k] === local && this.#cachedNs[k] === ns) return this.#cachedCode[k]!;
    const kind = nsKind(ns);
    const core = ns === this.#rootNs || kind === Ns.Sitemap || kind === Ns.None;
    const code = nameCode(local, kind, core);
    this.#cachedLocal[k] = local;
    this.#cachedNs[k] = ns;
    this.#cachedCode[k] = code;
    return code;
  }

  protected override openUrl(): void {
    this.#loc = null;
    this.#lastModified = null;
    this.#priority = 0.5;
    this.#changeFrequency = 0;
    this.#news = null;
    this.#images = null;
    this.#videos = null;
    this.#alternates = null;
  }

  protected override openNews(): void {
    this.#news ??= newNews();
  }

  protected override openImage(): void {
    this.#image = newImage();
  }

  protected override openVideo(): void {
    this.#video = newVideo();
  }

  /** Called by the tokenizer with character data. */
  onText(text: string): void {
    if (this.#field !== 0) this.#text.add(text);
  }

  /** Called by the tokenizer when an element ends. */
  onEnd(_ns: string, _local: string): void {
    const d = this.#depth--;
    if (this.#field !== 0) {
      if (d === this.#fieldDepth) {
        const text = this.#text.take();
        if (text !== null) this.#endField(this.#field, text);
        this.#field = 0;
      }
      return;
    }
    this.nestedEnd(d);
  }

  protected override closeImage(): void {
    const image = this.#image;
    if (image !== null && image.loc !== "") (this.#images ??= []).push(image);
    this.#image = null;
  }

  protected override closeVideo(): void {
    if (this.#video !== null) (this.#videos ??= []).push(this.#video);
    this.#video = null;
  }

  #endField(field: number, text: string): void {
    if (field < 10) {
      switch (field) {
        case F_LOC:
          // The first <loc> of a <url> counts; a second one is a generator bug.
          this.#loc ??= text;
          return;
        case F_LASTMOD:
          this.#lastModified = text;
          return;
        case F_PRIORITY:
          this.#priority = parsePriority(text);
          return;
        case F_CHANGEFREQ:
          this.#changeFrequency = changeFrequencyCode(text);
          return;
      }
      return;
    }
    if (field < 20) this.#endNewsField(field, text);
    else if (field < 30) this.#endImageField(field, text);
    else this.#endVideoField(field, text);
  }

  #endNewsField(field: number, text: string): void {
    const news = this.#news;
    if (news !== null) setNewsField(news, field, text);
  }

  #endImageField(field: number, text: string): void {
    const image = this.#image;
    if (image !== null) setImageField(image, field, text, this.#base);
  }

  #endVideoField(field: number, text: string): void {
    const video = this.#video;
    if (video !== null) setVideoField(video, field, text, this.#base);
  }

  protected override closeUrl(): void {
    this.#entries++;
    const loc = this.#loc;
    if (loc === null) return;
    const extras = extrasOf(this.#news, this.#images, this.#videos, this.#alternates);
    this.#builder.add(
      loc,
      this.#lastModified ?? NaN,
      this.#priority,
      this.#changeFrequency,
      extras,
    );
  }

  /**
   * Packs the pages read.
   *
   * @param warning Why reading stopped early, or null.
   * @returns A pages result of format "urlset".
   */
  finish(warning: string | null): ParseResult {
    const built = this.#builder.build();
    const { pages, found } = built;
    return {
      kind: "pages",
      format: "urlset",
      pages,
      found,
      warning: joinWarnings(warning, built.warning),
    };
  }
}
