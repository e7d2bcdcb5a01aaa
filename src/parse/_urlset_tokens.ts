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
import { type DocumentReader, MAX_FIELD_LENGTH, type Mutable, parsePriority } from "./_reader.ts";
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
  F_NEWS_LANGUAGE,
  F_NEWS_NAME,
  F_PRIORITY,
  IMAGE_FIELDS,
  newImage,
  newNews,
  NEWS_FIELDS,
  newVideo,
  setImageField,
  setNewsField,
  setVideoField,
  VIDEO_FIELDS,
  type VideoBeingRead,
} from "./_urlset_fields.ts";

// Which extension element is open at depth 3 (inside <url>).
const C_NONE = 0;
const C_NEWS = 1;
const C_IMAGE = 2;
const C_VIDEO = 3;

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

/** Reads a `<urlset>` document into packed pages. */
export class UrlsetReader implements DocumentReader {
  readonly #builder: PackedPagesBuilder;
  readonly #base: URL | null;
  readonly #rootNs: string;
  #entries = 0;
  #depth = 0;
  #inUrl = false;
  #field = 0;
  #fieldDepth = 0;
  #text = "";
  /** The open field's text passed {@linkcode MAX_FIELD_LENGTH}: its value is dropped. */
  #overflow = false;
  #container = C_NONE;
  #inPublication = false;

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
    this.#rootNs = rootNs;
    this.#base = base;
    this.#builder = new PackedPagesBuilder(base, since, { sizeHint });
  }

  /** Complete `<url>` elements read so far. */
  get entries(): number {
    return this.#entries;
  }

  #isCore(ns: string): boolean {
    if (ns === this.#rootNs) return true;
    const k = nsKind(ns);
    return k === Ns.Sitemap || k === Ns.None;
  }

  #capture(field: number, depth: number): void {
    this.#field = field;
    this.#fieldDepth = depth;
    this.#text = "";
  }

  /** Called by the tokenizer when an element starts. */
  onStart(ns: string, local: string, attrs: readonly XmlAttribute[]): void {
    const d = ++this.#depth;
    if (this.#field !== 0) return;
    if (d === 2) {
      if (local === "url" && this.#isCore(ns)) this.#startUrl();
      return;
    }
    if (!this.#inUrl) return;
    if (d === 3) {
      this.#startUrlChild(ns, local, attrs);
    } else if (d === 4) {
      let field: number | undefined;
      if (this.#container === C_NEWS) {
        if (local === "publication") this.#inPublication = true;
        else field = NEWS_FIELDS.get(local);
      } else if (this.#container === C_IMAGE) {
        field = IMAGE_FIELDS.get(local);
      } else if (this.#container === C_VIDEO) {
        field = VIDEO_FIELDS.get(local);
      }
      if (field !== undefined) this.#capture(field, d);
    } else if (d === 5 && this.#inPublication) {
      if (local === "name") this.#capture(F_NEWS_NAME, d);
      else if (local === "language") this.#capture(F_NEWS_LANGUAGE, d);
    }
  }

  #startUrl(): void {
    this.#inUrl = true;
    this.#loc = null;
    this.#lastModified = null;
    this.#priority = 0.5;
    this.#changeFrequency = 0;
    this.#news = null;
    this.#images = null;
    this.#videos = null;
    this.#alternates = null;
  }

  #startUrlChild(ns: string, local: string, attrs: readonly XmlAttribute[]): void {
    switch (local) {
      case "loc":
        if (this.#isCore(ns)) this.#capture(F_LOC, 3);
        return;
      case "lastmod":
        if (this.#isCore(ns)) this.#capture(F_LASTMOD, 3);
        return;
      case "priority":
        if (this.#isCore(ns)) this.#capture(F_PRIORITY, 3);
        return;
      case "changefreq":
        if (this.#isCore(ns)) this.#capture(F_CHANGEFREQ, 3);
        return;
    }
    const kind = nsKind(ns);
    if (local === "news" && (kind === Ns.News || kind === Ns.None)) {
      this.#container = C_NEWS;
      // A second <news:news> in one <url> adds to the first rather than replacing it.
      this.#news ??= newNews();
    } else if (local === "image" && (kind === Ns.Image || kind === Ns.None)) {
      this.#container = C_IMAGE;
      this.#image = newImage();
    } else if (local === "video" && (kind === Ns.Video || kind === Ns.None)) {
      this.#container = C_VIDEO;
      this.#video = newVideo();
    } else if (local === "link" && (kind === Ns.Xhtml || kind === Ns.None)) {
      const alternate = alternateOf(
        attr(attrs, "rel"),
        attr(attrs, "hreflang"),
        attr(attrs, "href"),
        this.#base,
      );
      if (alternate !== null) (this.#alternates ??= []).push(alternate);
    }
  }

  /** Called by the tokenizer with character data. */
  onText(text: string): void {
    if (this.#field === 0) return;
    if (this.#text.length + text.length <= MAX_FIELD_LENGTH) this.#text += text;
    else this.#overflow = true;
  }

  /** Called by the tokenizer when an element ends. */
  onEnd(_ns: string, _local: string): void {
    const d = this.#depth--;
    if (this.#field !== 0) {
      if (d === this.#fieldDepth) {
        if (!this.#overflow) this.#endField(this.#field, this.#text);
        this.#field = 0;
        this.#text = "";
        this.#overflow = false;
      }
      return;
    }
    if (!this.#inUrl) return;
    if (d === 2) {
      this.#inUrl = false;
      this.#entries++;
      this.#commit();
    } else if (d === 3) {
      this.#endContainer();
    } else if (d === 4) {
      this.#inPublication = false;
    }
  }

  #endContainer(): void {
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

  #commit(): void {
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
