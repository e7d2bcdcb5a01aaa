/**
 * Turns the column form a parser hands back ({@linkcode PackedPages}) into
 * {@linkcode SitemapPage} objects, on demand.
 *
 * A pages node keeps only the columns, which cost little more than the URL
 * bytes; objects are built here when someone reads them. The URL column is
 * decoded a stretch of ~16 KB at a time and sliced by offsets, and
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
  type PackedExtras,
  type PackedPages,
  type PageExtrasData,
  type VideoData,
} from "../parse/_result.ts";
import {
  extrasReader,
  keptReader,
  type KeptRuns,
  type PageExtrasReader,
} from "../parse/_kept_extras.ts";
import type { KeptFactory } from "../parse/_kept_decode.ts";
import {
  type ExtensionsSource,
  type PageExtensions,
  pendingExtensions,
} from "./_lazy_extensions.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  type SitemapPageInit,
  SitemapVideo,
} from "./page.ts";

/**
 * `ignoreBOM` keeps a leading U+FEFF as a character: the offsets count it, so
 * dropping it would shift every URL by one.
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Bytes of URLs decoded at a time (see `PageIterator`'s `#decodeStretch`). */
const STRETCH_BYTES = 16 << 10;

/** Stands for every absent list; `SitemapPage` swaps in its own frozen empty array. */
const NONE: readonly never[] = [];

/** What a finished or array source leaves in the column fields (one type per field). */
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F64 = new Float64Array(0);
const EMPTY_U8 = new Uint8Array(0);

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
  const x = packed.extras;
  if (x !== null) {
    if (x.pageStarts.length < count + 1) {
      throw new RangeError(
        `Expected PackedPages.extras.pageStarts to hold ${
          count + 1
        } entries but it holds ${x.pageStarts.length}`,
      );
    }
    // Kept spans are offsets in the inflated bytes, not in `data`.
    const limit = x.kind === "kept" ? x.size : x.data.length;
    previous = 0;
    for (let i = 0; i <= count; i++) {
      const start = x.pageStarts[i]!;
      if (start < previous || (x.kind !== "kept" && start > limit)) {
        throw new RangeError(
          `Expected PackedPages.extras.pageStarts[${i}] to be between ${previous} and ${limit} but got ${start}`,
        );
      }
      if (x.kind === "kept" && i > 0 && start > previous) {
        const at = x.spanAt[i - 1]!;
        if (!(at + start - previous <= limit)) {
          throw new RangeError(
            `Expected PackedPages.extras.spanAt[${i - 1}] to leave its ${
              start - previous
            } bytes within ${limit} but got ${at}`,
          );
        }
      }
      previous = start;
    }
  }
}

/** Absent dates are NaN (or null, from JSON). */
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

type Extensions = PageExtensions<SitemapNewsStory, SitemapImage, SitemapVideo, SitemapAlternate>;

/** Builds a packed source's page extensions when a page first reads one. */
class PackedExtensions
  implements ExtensionsSource<SitemapNewsStory, SitemapImage, SitemapVideo, SitemapAlternate> {
  readonly #x: PackedExtras;
  /** Made on the first read: kept extensions are decoded then, not before. */
  #reader: PageExtrasReader | null = null;
  #kept: KeptRuns<Extensions> | null = null;

  constructor(x: PackedExtras) {
    this.#x = x;
  }

  extensions(index: number): Extensions {
    const x = this.#x;
    if (x.kind === "kept") {
      return (this.#kept ??= keptReader(x, KEPT_OBJECTS)).page(index) ?? NO_EXTENSIONS;
    }
    const reader = this.#reader ??= extrasReader(x);
    return extensionsFrom(reader.page(index) ?? {});
  }
}

function extensionsFrom(extras: PageExtrasData): Extensions {
  return {
    newsStory: extras.newsStory == null ? null : newsStoryFrom(extras.newsStory),
    images: extras.images?.map(imageFrom) ?? NONE,
    videos: extras.videos?.map(videoFrom) ?? NONE,
    alternates: extras.alternates?.map(alternateFrom) ?? NONE,
  };
}

const NO_EXTENSIONS: Extensions = { newsStory: null, images: NONE, videos: NONE, alternates: NONE };

/**
 * Kept extensions decoded straight into the public objects, held per
 * sitemap: every traversal hands a page the same objects (its lists are
 * frozen by the first page that takes them).
 */
const KEPT_OBJECTS: KeptFactory<
  Extensions,
  SitemapNewsStory,
  SitemapImage,
  SitemapVideo,
  SitemapAlternate
> = {
  image: (loc, caption, geoLocation, title, license) =>
    new SitemapImage({ loc, caption, geoLocation, title, license }),
  alternate: (hreflang, href) => new SitemapAlternate({ hreflang, href }),
  news: newsStoryFrom,
  video: videoFrom,
  page: (newsStory, images, videos, alternates) => ({
    newsStory,
    images: images ?? NONE,
    videos: videos ?? NONE,
    alternates: alternates ?? NONE,
  }),
  fromData: extensionsFrom,
};

/**
 * A page whose `newsStory`, `images`, `videos` and `alternates` are built
 * from `source` when one of them is first read, then kept.
 */
function pageWithLazyExtensions(
  init: SitemapPageInit,
  source: PackedExtensions,
  index: number,
): SitemapPage {
  pendingExtensions.source = source;
  pendingExtensions.index = index;
  try {
    return new SitemapPage(init);
  } finally {
    pendingExtensions.source = null;
  }
}

/** One source of extensions per columns object, shared by every traversal. */
const extensionSources = new WeakMap<PackedExtras, PackedExtensions>();

function extensionsOf(x: PackedExtras): PackedExtensions {
  let source = extensionSources.get(x);
  if (source === undefined) extensionSources.set(x, source = new PackedExtensions(x));
  return source;
}

/** Where a pages node's pages come from: its packed columns, or objects it already holds. */
export type PageSource = PackedPages | readonly SitemapPage[];

/**
 * Reads a pages node's storage without building pages: sitemap.ts, which
 * owns the private field, sets `read`; snapshots and the tree comparison
 * call it.
 */
export const nodePageSources: { read: (node: object) => PageSource } = {
  read: () => {
    throw new TypeError("Expected a pages node");
  },
};

/**
 * Page `index` of `packed`, built alone (extensions on first read, as a
 * traversal builds them), for callers that pick pages out of order.
 *
 * @param packed The columns.
 * @param index The page's index.
 * @param url Its URL, which the caller has already sliced out of `packed.urlBytes`.
 * @returns A new page.
 */
export function packedPageAt(packed: PackedPages, index: number, url: string): SitemapPage {
  const init = {
    url,
    priority: packed.priority[index]!,
    lastModified: packed.lastModified[index]!,
    changeFrequency: FREQUENCY_BY_CODE[packed.changeFrequency[index]!] ?? null,
  };
  const x = packed.extras;
  if (x !== null && x.pageStarts[index + 1]! > x.pageStarts[index]!) {
    return pageWithLazyExtensions(init, extensionsOf(x), index);
  }
  return new SitemapPage(init);
}

/** What a generator's prototype chain ends in: `map`, `take`, `toArray` and the rest live here. */
const ITERATOR_PROTOTYPE: object = Object.getPrototypeOf(
  Object.getPrototypeOf([][Symbol.iterator]()),
);

function iteratorBase(): void {}
iteratorBase.prototype = ITERATOR_PROTOTYPE;

/**
 * A base class whose prototype is `Iterator.prototype`, typed as such: the
 * global `Iterator` is missing before Node 22, so it cannot be extended by name.
 */
const IteratorBase = iteratorBase as unknown as abstract new () => IteratorObject<
  SitemapPage,
  void,
  undefined
>;

/** The result every finished traversal returns; fresh, as a generator's is. */
function finished(value: void): IteratorResult<SitemapPage, void> {
  return { value, done: true };
}

/**
 * The pages of a run of sources, one at a time, with the protocol of the
 * generator it replaces: `next()`, `return()` (what `break` calls) and
 * `throw()` end the traversal as a generator's would, and `Iterator.prototype`
 * gives it the same helpers (`map`, `take`, `toArray`, ...).
 *
 * A hand-written `next()` costs less than resuming a generator
 * (bench/README.md#page-iteration). A page is built only when asked for, so
 * memory stays flat however many pages a traversal visits.
 */
class PageIterator extends IteratorBase implements Generator<SitemapPage, void, undefined> {
  /** Null once the traversal has ended. */
  #sources: Iterable<PageSource> | null;
  /** Null until the first `next()`, as a generator starts its loop then. */
  #open: Iterator<PageSource> | null = null;
  /** The current source's pages when it holds objects, else null. */
  #held: readonly SitemapPage[] | null = null;
  /** Pages of the current source; `#index` counts those handed out. */
  #count = 0;
  #index = 0;
  /**
   * The current packed source's URL bytes, and a decoded stretch of them:
   * `#text` holds the text from offset `#textBase` to `#textEnd`, and
   * `#start` is where the next URL starts.
   */
  #bytes: Uint8Array = EMPTY_U8;
  #text = "";
  #textBase = 0;
  #textEnd = 0;
  #start = 0;
  #urlEnds: Uint32Array = EMPTY_U32;
  #lastModified: Float64Array = EMPTY_F64;
  #priority: Float64Array = EMPTY_F64;
  #changeFrequency: Uint8Array = EMPTY_U8;
  /** The current source's extras, built when a page reads them; null when it has none. */
  #extras: PackedExtensions | null = null;
  #pageStarts: Uint32Array = EMPTY_U32;
  /** Index of the next page with extras, or -1. */
  #extrasAt = -1;

  constructor(sources: Iterable<PageSource>) {
    super();
    this.#sources = sources;
  }

  override [Symbol.iterator](): PageIterator {
    return this;
  }

  /**
   * The next page, built from the columns now when the source is packed.
   *
   * @returns `{ value: page, done: false }`, or `{ value: undefined, done: true }` at the end.
   */
  override next(): IteratorResult<SitemapPage, void> {
    const i = this.#index;
    // Starting a source is rare: kept out of line, so this stays short.
    if (i >= this.#count) return this.#nextSource();
    this.#index = i + 1;
    const held = this.#held;
    if (held !== null) return { value: held[i]!, done: false };
    const end = this.#urlEnds[i]!;
    if (end > this.#textEnd) this.#decodeStretch(end);
    const base = this.#textBase;
    const url = this.#text.slice(this.#start - base, end - base);
    this.#start = end;
    if (i === this.#extrasAt) return { value: this.#pageWithExtras(i, url), done: false };
    return {
      // Every key, in the order the other callers use: one init shape keeps
      // the constructor's property loads monomorphic.
      value: new SitemapPage({
        url,
        priority: this.#priority[i]!,
        lastModified: this.#lastModified[i]!,
        changeFrequency: FREQUENCY_BY_CODE[this.#changeFrequency[i]!] ?? null,
        newsStory: null,
        images: NONE,
        videos: NONE,
        alternates: NONE,
      }),
      done: false,
    };
  }

  /**
   * Ends the traversal, as `break` out of a for-of does.
   *
   * @param value Handed back in the result, as a generator's `return()` does.
   * @returns `{ value, done: true }`.
   */
  override return(value: void): IteratorResult<SitemapPage, void> {
    this.#close();
    return finished(value);
  }

  /**
   * Ends the traversal and throws `error`, as a generator without a `catch` does.
   *
   * @param error What to throw.
   * @returns Never.
   * @throws {unknown} `error`.
   */
  override throw(error: unknown): IteratorResult<SitemapPage, void> {
    this.#close();
    throw error;
  }

  /** Moves to the next source with pages and returns its first page, or ends. */
  #nextSource(): IteratorResult<SitemapPage, void> {
    const sources = this.#sources;
    if (sources === null) return finished();
    try {
      const open = this.#open ??= sources[Symbol.iterator]();
      while (true) {
        const step = open.next();
        if (step.done === true) {
          this.#open = null;
          this.#close();
          return finished();
        }
        const source = step.value;
        if (Array.isArray(source)) {
          const pages = source as readonly SitemapPage[];
          if (pages.length === 0) continue;
          this.#startHeld(pages);
        } else {
          const packed = source as PackedPages;
          if (packed.count === 0) continue;
          this.#startPacked(packed);
        }
        return this.next();
      }
    } catch (error) {
      // A generator that throws is finished: later calls say done.
      this.#close();
      throw error;
    }
  }

  #startHeld(pages: readonly SitemapPage[]): void {
    this.#held = pages;
    this.#count = pages.length;
    this.#index = 0;
    this.#dropColumns();
  }

  #startPacked(packed: PackedPages): void {
    this.#held = null;
    this.#count = packed.count;
    this.#index = 0;
    const bytes = packed.urlBytes;
    this.#start = 0;
    this.#textBase = 0;
    if (packed.urlEnds[packed.count - 1] === bytes.length) {
      // As many UTF-16 units as bytes: every byte is one unit on its own
      // (ASCII, as normalised URLs are, or a lone invalid byte), so any
      // stretch decodes alone to its part of the whole text.
      this.#bytes = bytes;
      this.#text = "";
      this.#textEnd = 0;
    } else {
      this.#bytes = EMPTY_U8;
      this.#text = decoder.decode(bytes);
      this.#textEnd = this.#text.length;
    }
    this.#urlEnds = packed.urlEnds;
    this.#lastModified = packed.lastModified;
    this.#priority = packed.priority;
    this.#changeFrequency = packed.changeFrequency;
    const x = packed.extras;
    this.#extras = x === null ? null : extensionsOf(x);
    this.#pageStarts = x === null ? EMPTY_U32 : x.pageStarts;
    this.#extrasAt = this.#nextWithExtras(0);
  }

  /**
   * Decodes the stretch of URL bytes from `#start` that holds the URL ending
   * at `end`, and some more. Stretches stay well below V8's large-object
   * size: such a string is made and dropped young, where one string of a
   * whole sitemap's URLs outlives a few minor collections, gets promoted,
   * and each promotion grew the young generation of a long stream
   * (bench/README.md#memory-freed-early). A page kept by the caller keeps
   * its stretch alive, not its sitemap's text.
   */
  #decodeStretch(end: number): void {
    const bytes = this.#bytes;
    const start = this.#start;
    const stop = Math.min(bytes.length, Math.max(end, start + STRETCH_BYTES));
    this.#text = decoder.decode(bytes.subarray(start, stop));
    this.#textBase = start;
    this.#textEnd = stop;
  }

  /** A page whose extensions are built when it first reads one. */
  #pageWithExtras(i: number, url: string): SitemapPage {
    const page = pageWithLazyExtensions(
      {
        url,
        priority: this.#priority[i]!,
        lastModified: this.#lastModified[i]!,
        changeFrequency: FREQUENCY_BY_CODE[this.#changeFrequency[i]!] ?? null,
      },
      this.#extras!,
      i,
    );
    this.#extrasAt = this.#nextWithExtras(i + 1);
    return page;
  }

  /** The first page from `i` on that has extras, or -1. */
  #nextWithExtras(i: number): number {
    const starts = this.#pageStarts;
    const count = Math.min(this.#count, starts.length - 1);
    for (; i < count; i++) if (starts[i + 1]! > starts[i]!) return i;
    return -1;
  }

  /** Lets go of the columns (and the decoded text) of a finished source. */
  #dropColumns(): void {
    this.#bytes = EMPTY_U8;
    this.#text = "";
    this.#textBase = 0;
    this.#textEnd = 0;
    this.#start = 0;
    this.#urlEnds = EMPTY_U32;
    this.#lastModified = EMPTY_F64;
    this.#priority = EMPTY_F64;
    this.#changeFrequency = EMPTY_U8;
    this.#extras = null;
    this.#pageStarts = EMPTY_U32;
    this.#extrasAt = -1;
  }

  /** Ends the traversal for good, closing the sources if they were being read. */
  #close(): void {
    const open = this.#open;
    this.#sources = null;
    this.#open = null;
    this.#held = null;
    this.#count = 0;
    this.#index = 0;
    this.#dropColumns();
    open?.return?.();
  }
}

/**
 * Yields the pages of each source in turn: the held objects of an array
 * source, fresh objects for a packed one (nothing cached between traversals).
 *
 * One flat loop serves a whole tree: delegating through one generator per
 * tree level cost more than building the pages (bench/README.md#page-iteration).
 *
 * @param sources The sources, in traversal order; read lazily, one at a time.
 * @returns A generator of the pages: an iterator with a generator's methods and helpers.
 */
export function iteratePages(
  sources: Iterable<PageSource>,
): Generator<SitemapPage, void, undefined> {
  return new PageIterator(sources);
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
