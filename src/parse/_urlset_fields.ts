/**
 * What the three `<urlset>` readers share on purpose: the general one
 * (`_urlset_tokens.ts`, tokenizer events), the byte-level one of every common
 * shape (`_urlset_bytes.ts`) and the byte-level one of the core fields only
 * (`_urlset_core_bytes.ts`). The field codes and the tables that map an
 * element's local name to them; the value readers of the core fields from
 * text and from bytes; and the setters of the extension fields from text.
 * The differential tests hold the readers to one result, and these keep them
 * from disagreeing on a value.
 *
 * @module
 */
import { parseDate, parseW3cDateBytesInto } from "./_dates.ts";
import { decodeRawText, parseDateText } from "./_pack.ts";
import {
  commaList,
  decimalOrNull,
  type Mutable,
  parsePriority,
  textOrNull,
  yesNo,
} from "./_reader.ts";
import {
  CHANGE_FREQUENCIES,
  type ChangeFrequency,
  type ImageData,
  type NewsStoryData,
  type VideoData,
} from "./_result.ts";
import { resolveDataUrl } from "./_url.ts";
import { plainAscii, skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";

// Which text an open element collects (0: none). The core fields are below
// 10; news fields 10-19, image fields 20-29, video fields 30 and up.
export const F_LOC = 1;
export const F_LASTMOD = 2;
export const F_PRIORITY = 3;
export const F_CHANGEFREQ = 4;
export const F_NEWS_NAME = 10;
export const F_NEWS_LANGUAGE = 11;
export const F_NEWS_DATE = 12;
export const F_NEWS_TITLE = 13;
export const F_NEWS_ACCESS = 14;
export const F_NEWS_GENRES = 15;
export const F_NEWS_KEYWORDS = 16;
export const F_NEWS_TICKERS = 17;
export const F_IMAGE_LOC = 20;
export const F_IMAGE_CAPTION = 21;
export const F_IMAGE_GEO = 22;
export const F_IMAGE_TITLE = 23;
export const F_IMAGE_LICENSE = 24;
export const F_VIDEO_THUMBNAIL = 30;
export const F_VIDEO_TITLE = 31;
export const F_VIDEO_DESCRIPTION = 32;
export const F_VIDEO_CONTENT = 33;
export const F_VIDEO_PLAYER = 34;
export const F_VIDEO_DURATION = 35;
export const F_VIDEO_EXPIRATION = 36;
export const F_VIDEO_RATING = 37;
export const F_VIDEO_VIEWS = 38;
export const F_VIDEO_PUBLISHED = 39;
export const F_VIDEO_FAMILY = 40;
export const F_VIDEO_SUBSCRIPTION = 41;
export const F_VIDEO_LIVE = 42;
export const F_VIDEO_UPLOADER = 43;
export const F_VIDEO_TAG = 44;

/** News fields by local name (inside `<news:news>`). */
export const NEWS_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["publication_date", F_NEWS_DATE],
  ["title", F_NEWS_TITLE],
  ["access", F_NEWS_ACCESS],
  ["genres", F_NEWS_GENRES],
  ["keywords", F_NEWS_KEYWORDS],
  ["stock_tickers", F_NEWS_TICKERS],
]);

/** Fields of `<publication>` inside `<news:news>`. */
export const NEWS_PUBLICATION_FIELDS: ReadonlyMap<string, number> = new Map<string, number>([
  ["name", F_NEWS_NAME],
  ["language", F_NEWS_LANGUAGE],
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

/** `<changefreq>` codes by value: 1 + index in `CHANGE_FREQUENCIES`. */
const CHANGE_FREQUENCY_CODES = new Map<string, number>(
  CHANGE_FREQUENCIES.map((name: ChangeFrequency, i) => [name, i + 1]),
);

/**
 * A `<changefreq>`'s code from its text.
 *
 * @param text The element's text.
 * @returns 0, or 1 + index in `CHANGE_FREQUENCIES`.
 */
export function changeFrequencyCode(text: string): number {
  return CHANGE_FREQUENCY_CODES.get(text.trim().toLowerCase()) ?? 0;
}

/** The `<changefreq>` values' bytes, in code order. */
const FREQUENCY_NAMES = CHANGE_FREQUENCIES.map((name) => new TextEncoder().encode(name));

/**
 * A reader of one value from a document's bytes `b[a, e)` (UTF-8, as
 * written) that writes it to `out[k]` rather than returning it: a number
 * returned from a call that is not inlined is boxed, a heap object per page
 * (bench/README.md#issue-24-realistic-peak-margin-mem24c).
 */
export type ValueInto = (b: Uint8Array, a: number, e: number, out: Float64Array, k: number) => void;

/**
 * Writes a `<lastmod>`'s time (epoch ms, or NaN) as {@linkcode parseDateText}
 * reads its decoded text.
 */
export const lastModifiedInto: ValueInto = (b, a, e, out, k) => {
  // The W3C forms hold no reference or CR, so their bytes read as their text.
  parseW3cDateBytesInto(b, a, e, out, k);
  const ms = out[k]!;
  if (ms !== ms) out[k] = parseDateText(decodeRawText(b, a, e));
};

/** Writes a `<priority>`'s value as {@linkcode parsePriority} reads its decoded text. */
export const priorityInto: ValueInto = (b, a, e, out, k) => {
  if (plainAscii(b, a, e)) plainPriorityInto(b, a, e, out, k);
  else out[k] = parsePriority(decodeRawText(b, a, e));
};

/**
 * {@linkcode priorityInto} for bytes known to be plain ASCII: no reference,
 * no control byte but whitespace.
 */
export const plainPriorityInto: ValueInto = (b, a, e, out, k) => {
  const i = skipSpace(b, a, e);
  const end = trimSpaceEnd(b, i, e);
  let value = 0;
  let digits = 0;
  let scale = 1;
  let dot = false;
  for (let m = i; m < end; m++) {
    const c = b[m]!;
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      digits++;
      if (dot) scale *= 10;
    } else if (c === 0x2e && !dot) {
      dot = true;
    } else {
      out[k] = 0.5;
      return;
    }
  }
  if (digits === 0) {
    out[k] = 0.5;
  } else if (digits > 15) {
    out[k] = parsePriority(decodeRawText(b, a, e));
  } else {
    // Both are exact below 2^53, so one division rounds as Number() would.
    const n = value / scale;
    out[k] = n <= 1 ? n : 0.5;
  }
};

/**
 * A `<changefreq>`'s code from its bytes as written, as
 * {@linkcode changeFrequencyCode} reads its decoded text.
 *
 * @param b The document's bytes (UTF-8).
 * @param a Start of the value.
 * @param e End of the value.
 * @returns 0, or 1 + index in `CHANGE_FREQUENCIES`.
 */
export function frequencyOf(b: Uint8Array, a: number, e: number): number {
  return plainAscii(b, a, e)
    ? plainFrequencyOf(b, a, e)
    : changeFrequencyCode(decodeRawText(b, a, e));
}

/**
 * {@linkcode frequencyOf} for bytes known to be plain ASCII.
 *
 * @param b The document's bytes.
 * @param a Start of the value.
 * @param e End of the value.
 * @returns 0, or 1 + index in `CHANGE_FREQUENCIES`.
 */
export function plainFrequencyOf(b: Uint8Array, a: number, e: number): number {
  a = skipSpace(b, a, e);
  e = trimSpaceEnd(b, a, e);
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
