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
import { parseDate } from "./_dates.ts";
import { PackedPagesBuilder } from "./_pack.ts";
import { Ns, nsKind } from "./_ns.ts";
import {
  commaList,
  decimalOrNull,
  type DocumentReader,
  MAX_FIELD_LENGTH,
  type Mutable,
  parsePriority,
  textOrNull,
  yesNo,
} from "./_reader.ts";
import {
  type AlternateData,
  CHANGE_FREQUENCIES,
  type ChangeFrequency,
  type ImageData,
  joinWarnings,
  type NewsStoryData,
  type PageExtrasData,
  type ParseResult,
  type VideoData,
} from "./_result.ts";
import type { XmlAttribute } from "./_tokenizer.ts";
import { resolveDataUrl } from "./_url.ts";

// Which text an open element collects (0: none).
const F_LOC = 1;
const F_LASTMOD = 2;
const F_PRIORITY = 3;
const F_CHANGEFREQ = 4;
const F_NEWS_NAME = 10;
const F_NEWS_LANGUAGE = 11;
const F_NEWS_DATE = 12;
const F_NEWS_TITLE = 13;
const F_NEWS_ACCESS = 14;
const F_NEWS_GENRES = 15;
const F_NEWS_KEYWORDS = 16;
const F_NEWS_TICKERS = 17;
const F_IMAGE_LOC = 20;
const F_IMAGE_CAPTION = 21;
const F_IMAGE_GEO = 22;
const F_IMAGE_TITLE = 23;
const F_IMAGE_LICENSE = 24;
const F_VIDEO_THUMBNAIL = 30;
const F_VIDEO_TITLE = 31;
const F_VIDEO_DESCRIPTION = 32;
const F_VIDEO_CONTENT = 33;
const F_VIDEO_PLAYER = 34;
const F_VIDEO_DURATION = 35;
const F_VIDEO_EXPIRATION = 36;
const F_VIDEO_RATING = 37;
const F_VIDEO_VIEWS = 38;
const F_VIDEO_PUBLISHED = 39;
const F_VIDEO_FAMILY = 40;
const F_VIDEO_SUBSCRIPTION = 41;
const F_VIDEO_LIVE = 42;
const F_VIDEO_UPLOADER = 43;
const F_VIDEO_TAG = 44;

// Which extension element is open at depth 3 (inside <url>).
const C_NONE = 0;
const C_NEWS = 1;
const C_IMAGE = 2;
const C_VIDEO = 3;

/** News fields by local name (inside `<news:news>`). */
export const NEWS_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["publication_date", F_NEWS_DATE],
  ["title", F_NEWS_TITLE],
  ["access", F_NEWS_ACCESS],
  ["genres", F_NEWS_GENRES],
  ["keywords", F_NEWS_KEYWORDS],
  ["stock_tickers", F_NEWS_TICKERS],
]);

/** Image fields by local name (inside `<image:image>`). */
export const IMAGE_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["loc", F_IMAGE_LOC],
  ["caption", F_IMAGE_CAPTION],
  ["geo_location", F_IMAGE_GEO],
  ["title", F_IMAGE_TITLE],
  ["license", F_IMAGE_LICENSE],
]);

/** Video fields by local name (inside `<video:video>`). */
export const VIDEO_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["thumbnail_loc", F_VIDEO_THUMBNAIL],
  ["title", F_VIDEO_TITLE],
  ["description", F_VIDEO_DESCRIPTION],
  ["content_loc", F_VIDEO_CONTENT],
  ["player_loc", F_VIDEO_PLAYER],
  ["duration", F_VIDEO_DURATION],
  ["expiration_date", F_VIDEO_EXPIRATION],
  ["rating", F_VIDEO_RATING],
  ["view_count", F_VIDEO_VIEWS],
  ["publication_date", F_VIDEO_PUBLISHED],
  ["family_friendly", F_VIDEO_FAMILY],
  ["requires_subscription", F_VIDEO_SUBSCRIPTION],
  ["live", F_VIDEO_LIVE],
  ["uploader", F_VIDEO_UPLOADER],
  ["tag", F_VIDEO_TAG],
]);

const CHANGE_FREQUENCY_CODES = new Map<string, number>(
  CHANGE_FREQUENCIES.map((name: ChangeFrequency, i) => [name, i + 1]),
);

/** Fields of `<publication>` inside `<news:news>`. */
export const NEWS_PUBLICATION_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["name", F_NEWS_NAME],
  ["language", F_NEWS_LANGUAGE],
]);

/**
 * A `<changefreq>`'s code from its text.
 *
 * @param text The element's text.
 * @returns 0, or 1 + index in `CHANGE_FREQUENCIES`.
 */
export function changeFrequencyCode(text: string): number {
  return CHANGE_FREQUENCY_CODES.get(text.trim().toLowerCase()) ?? 0;
}

/** An empty news story, to be filled field by field. */
export function newNews(): Mutable<NewsStoryData> {
  return {
    title: "",
    publishDate: NaN,
    publicationName: null,
    publicationLanguage: null,
    access: null,
    genres: [],
    keywords: [],
    stockTickers: [],
  };
}

/** An empty image, to be filled field by field. */
export function newImage(): Mutable<ImageData> {
  return { loc: "", caption: null, geoLocation: null, title: null, license: null };
}

/** A video being read: its tags are pushed as they come. */
export type VideoBeingRead = Mutable<VideoData> & { tags: string[] };

/** An empty video, to be filled field by field. */
export function newVideo(): VideoBeingRead {
  return {
    thumbnailLoc: null,
    title: null,
    description: null,
    contentLoc: null,
    playerLoc: null,
    duration: null,
    expirationDate: NaN,
    rating: null,
    viewCount: null,
    publicationDate: NaN,
    familyFriendly: null,
    requiresSubscription: null,
    live: null,
    uploader: null,
    tags: [],
  };
}

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

/**
 * Sets one field of a news story from its element's text.
 *
 * @param news The news being read.
 * @param field The field's code.
 * @param text The element's text.
 */
export function setNewsField(news: Mutable<NewsStoryData>, field: number, text: string): void {
  switch (field) {
    case F_NEWS_NAME:
      news.publicationName = textOrNull(text);
      break;
    case F_NEWS_LANGUAGE:
      news.publicationLanguage = textOrNull(text);
      break;
    case F_NEWS_DATE:
      news.publishDate = parseDate(text);
      break;
    case F_NEWS_TITLE:
      news.title = text.trim();
      break;
    case F_NEWS_ACCESS:
      news.access = textOrNull(text);
      break;
    case F_NEWS_GENRES:
      news.genres = commaList(text);
      break;
    case F_NEWS_KEYWORDS:
      news.keywords = commaList(text);
      break;
    case F_NEWS_TICKERS:
      news.stockTickers = commaList(text);
      break;
  }
}

/**
 * Sets one field of an image from its element's text.
 *
 * @param image The image being read.
 * @param field The field's code.
 * @param text The element's text.
 * @param base The sitemap URL, for relative URLs; null if unknown.
 */
export function setImageField(
  image: Mutable<ImageData>,
  field: number,
  text: string,
  base: URL | null,
): void {
  switch (field) {
    case F_IMAGE_LOC:
      image.loc = resolveDataUrl(text, base) ?? "";
      break;
    case F_IMAGE_CAPTION:
      image.caption = textOrNull(text);
      break;
    case F_IMAGE_GEO:
      image.geoLocation = textOrNull(text);
      break;
    case F_IMAGE_TITLE:
      image.title = textOrNull(text);
      break;
    case F_IMAGE_LICENSE:
      image.license = resolveDataUrl(text, base);
      break;
  }
}

/**
 * Sets one field of a video from its element's text.
 *
 * @param video The video being read.
 * @param field The field's code.
 * @param text The element's text.
 * @param base The sitemap URL, for relative URLs; null if unknown.
 */
export function setVideoField(
  video: VideoBeingRead,
  field: number,
  text: string,
  base: URL | null,
): void {
  switch (field) {
    case F_VIDEO_THUMBNAIL:
      video.thumbnailLoc = resolveDataUrl(text, base);
      break;
    case F_VIDEO_TITLE:
      video.title = textOrNull(text);
      break;
    case F_VIDEO_DESCRIPTION:
      video.description = textOrNull(text);
      break;
    case F_VIDEO_CONTENT:
      video.contentLoc = resolveDataUrl(text, base);
      break;
    case F_VIDEO_PLAYER:
      video.playerLoc = resolveDataUrl(text, base);
      break;
    case F_VIDEO_DURATION:
      video.duration = decimalOrNull(text);
      break;
    case F_VIDEO_EXPIRATION:
      video.expirationDate = parseDate(text);
      break;
    case F_VIDEO_RATING:
      video.rating = decimalOrNull(text);
      break;
    case F_VIDEO_VIEWS:
      video.viewCount = decimalOrNull(text);
      break;
    case F_VIDEO_PUBLISHED:
      video.publicationDate = parseDate(text);
      break;
    case F_VIDEO_FAMILY:
      video.familyFriendly = yesNo(text);
      break;
    case F_VIDEO_SUBSCRIPTION:
      video.requiresSubscription = yesNo(text);
      break;
    case F_VIDEO_LIVE:
      video.live = yesNo(text);
      break;
    case F_VIDEO_UPLOADER:
      video.uploader = textOrNull(text);
      break;
    case F_VIDEO_TAG: {
      const tag = textOrNull(text);
      if (tag !== null) video.tags.push(tag);
      break;
    }
  }
}
