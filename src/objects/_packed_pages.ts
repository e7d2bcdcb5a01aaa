/**
 * Turns the column form a parser hands back ({@linkcode PackedPages}) into
 * {@linkcode SitemapPage} objects, on demand.
 *
 * A pages node keeps only the columns, which cost little more than the URL
 * bytes; objects are built here when someone reads them. The URL column is
 * decoded with one `TextDecoder` call per traversal and sliced by offsets, and
 * the rare extras are parsed once per traversal, so a traversal costs one
 * object per page and nothing that lives longer than the caller keeps it.
 *
 * @module
 */

import {
  type AlternateData,
  CHANGE_FREQUENCIES,
  type ChangeFrequency,
  type ImageData,
  type NewsStoryData,
  type PackedPages,
  type PageExtrasData,
  type VideoData,
} from "../parse/_result.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "./page.ts";

/**
 * `ignoreBOM` keeps a leading U+FEFF as a character: the offsets count it, so
 * dropping it would shift every URL by one.
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Stands for every absent list; `SitemapPage` swaps in its own frozen empty array. */
const NONE: readonly never[] = [];

/** Index i holds the value of code i; code 0 (and any unknown code) is null. */
const FREQUENCY_BY_CODE: readonly (ChangeFrequency | null)[] = [null, ...CHANGE_FREQUENCIES];

/**
 * Checks what can be checked without decoding, so a malformed value fails
 * when the node is built rather than when someone first reads its pages.
 *
 * @param packed The columns to check.
 * @throws {RangeError} When a column is shorter than `count` or the URL offsets
 * go backwards or past what the bytes can hold.
 */
export function checkPackedPages(packed: PackedPages): void {
  const { count, urlEnds } = packed;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(
      `Expected PackedPages.count to be a non-negative integer but got ${count}`,
    );
  }
  for (const column of ["urlEnds", "lastModified", "priority", "changeFrequency"] as const) {
    const length = packed[column].length;
    if (length < count) {
      throw new RangeError(
        `Expected PackedPages.${column} to hold ${count} entries but it holds ${length}`,
      );
    }
  }
  // A UTF-16 length never exceeds the UTF-8 byte length, so this bounds every offset.
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const end = urlEnds[i]!;
    if (end < previous || end > packed.urlBytes.length) {
      throw new RangeError(
        `Expected PackedPages.urlEnds[${i}] to be between ${previous} and ${packed.urlBytes.length} but got ${end}`,
      );
    }
    previous = end;
  }
}

/** JSON turns NaN into null; both mean "no date". */
function dateFromEpoch(ms: number | null | undefined): Date | null {
  return ms == null || ms !== ms ? null : new Date(ms);
}

function newsStoryFrom(data: NewsStoryData): SitemapNewsStory {
  return new SitemapNewsStory({
    title: data.title,
    publishDate: dateFromEpoch(data.publishDate),
    publicationName: data.publicationName ?? null,
    publicationLanguage: data.publicationLanguage ?? null,
    access: data.access ?? null,
    genres: data.genres ?? [],
    keywords: data.keywords ?? [],
    stockTickers: data.stockTickers ?? [],
  });
}

function imageFrom(data: ImageData): SitemapImage {
  return new SitemapImage(data);
}

function videoFrom(data: VideoData): SitemapVideo {
  return new SitemapVideo({
    thumbnailLoc: data.thumbnailLoc,
    title: data.title,
    description: data.description,
    contentLoc: data.contentLoc,
    playerLoc: data.playerLoc,
    duration: data.duration,
    expirationDate: dateFromEpoch(data.expirationDate),
    rating: data.rating,
    viewCount: data.viewCount,
    publicationDate: dateFromEpoch(data.publicationDate),
    familyFriendly: data.familyFriendly,
    requiresSubscription: data.requiresSubscription,
    live: data.live,
    uploader: data.uploader,
    tags: data.tags ?? [],
  });
}

function alternateFrom(data: AlternateData): SitemapAlternate {
  return new SitemapAlternate(data);
}

/** JSON of `[pageIndex, extras][]`, ascending; "" means none. */
function parseExtras(extras: string): [number, PageExtrasData][] {
  return extras === "" ? [] : JSON.parse(extras) as [number, PageExtrasData][];
}

function pageWithExtras(
  url: string,
  priority: number,
  lastModified: number,
  changeFrequency: ChangeFrequency | null,
  extras: PageExtrasData,
): SitemapPage {
  return new SitemapPage({
    url,
    priority,
    lastModified,
    changeFrequency,
    newsStory: extras.newsStory == null ? null : newsStoryFrom(extras.newsStory),
    images: extras.images?.map(imageFrom) ?? [],
    videos: extras.videos?.map(videoFrom) ?? [],
    alternates: extras.alternates?.map(alternateFrom) ?? [],
  });
}

/** Where a pages node's pages come from: its packed columns, or objects it already holds. */
export type PageSource = PackedPages | readonly SitemapPage[];

/**
 * Yields the pages of each source in turn: the held objects of an array
 * source, fresh objects for a packed one (nothing cached between traversals).
 *
 * One flat loop serves a whole tree: delegating through one generator per
 * tree level cost more than building the pages (measured: 1,000,000 pages
 * took about twice as long through three levels of `yield*`).
 *
 * @param sources The sources, in traversal order; read lazily, one at a time.
 * @returns A generator of the pages.
 */
export function* iteratePages(
  sources: Iterable<PageSource>,
): Generator<SitemapPage, void, undefined> {
  for (const source of sources) {
    if (Array.isArray(source)) {
      const pages = source as readonly SitemapPage[];
      for (let i = 0; i < pages.length; i++) yield pages[i]!;
      continue;
    }
    const packed = source as PackedPages;
    const count = packed.count;
    if (count === 0) continue;
    const text = decoder.decode(packed.urlBytes);
    const { urlEnds, lastModified, priority, changeFrequency } = packed;
    const extras = parseExtras(packed.extras);
    let nextExtra = 0;
    let extrasAt = extras.length > 0 ? extras[0]![0] : -1;
    let start = 0;
    for (let i = 0; i < count; i++) {
      const end = urlEnds[i]!;
      const url = text.slice(start, end);
      start = end;
      const date = lastModified[i]!;
      const frequency = FREQUENCY_BY_CODE[changeFrequency[i]!] ?? null;
      if (i !== extrasAt) {
        // Every key, in the order the other callers use: one init shape keeps
        // the constructor's property loads monomorphic.
        yield new SitemapPage({
          url,
          priority: priority[i]!,
          lastModified: date,
          changeFrequency: frequency,
          newsStory: null,
          images: NONE,
          videos: NONE,
          alternates: NONE,
        });
        continue;
      }
      yield pageWithExtras(url, priority[i]!, date, frequency, extras[nextExtra]![1]);
      // Skips any repeated index, so a malformed list cannot stall on one page.
      while (nextExtra < extras.length && extras[nextExtra]![0] <= i) nextExtra++;
      extrasAt = nextExtra < extras.length ? extras[nextExtra]![0] : -1;
    }
  }
}

/**
 * Yields fresh page objects, in order; nothing is cached between traversals.
 *
 * @param packed The columns to read.
 * @returns A generator of one new {@linkcode SitemapPage} per page.
 */
export function iteratePackedPages(packed: PackedPages): Generator<SitemapPage, void, undefined> {
  return iteratePages([packed]);
}

/**
 * Builds every page object at once.
 *
 * @param packed The columns to read.
 * @returns A new array of `packed.count` pages, in order.
 */
export function materialisePackedPages(packed: PackedPages): SitemapPage[] {
  const pages: SitemapPage[] = [];
  for (const page of iteratePages([packed])) pages.push(page);
  return pages;
}
