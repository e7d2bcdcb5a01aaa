/**
 * What a format reader hands back: plain data that crosses a worker boundary
 * cheaply (typed arrays), never one object per page.
 *
 * Both the parsers (which build it) and the tree (which reads it lazily) depend
 * on this file; it depends on nothing.
 *
 * @module
 */

/** How often a page changes, as the sitemaps protocol spells it. */
export type ChangeFrequency =
  | "always"
  | "hourly"
  | "daily"
  | "weekly"
  | "monthly"
  | "yearly"
  | "never";

/**
 * Codes used in {@linkcode PackedPages.changeFrequency}: index + 1 in this list,
 * 0 meaning "none".
 */
export const CHANGE_FREQUENCIES: readonly ChangeFrequency[] = [
  "always",
  "hourly",
  "daily",
  "weekly",
  "monthly",
  "yearly",
  "never",
];

/** Google News extension data of one page (dates as epoch milliseconds, NaN when absent). */
export interface NewsStoryData {
  readonly title: string;
  readonly publishDate: number;
  readonly publicationName: string | null;
  readonly publicationLanguage: string | null;
  readonly access: string | null;
  readonly genres: readonly string[];
  readonly keywords: readonly string[];
  readonly stockTickers: readonly string[];
}

/** Google Image extension data of one image. */
export interface ImageData {
  readonly loc: string;
  readonly caption: string | null;
  readonly geoLocation: string | null;
  readonly title: string | null;
  readonly license: string | null;
}

/** Google Video extension data of one video (dates as epoch milliseconds, NaN when absent). */
export interface VideoData {
  readonly thumbnailLoc: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly contentLoc: string | null;
  readonly playerLoc: string | null;
  /** Seconds, or null. */
  readonly duration: number | null;
  readonly expirationDate: number;
  readonly rating: number | null;
  readonly viewCount: number | null;
  readonly publicationDate: number;
  readonly familyFriendly: boolean | null;
  readonly requiresSubscription: boolean | null;
  readonly live: boolean | null;
  readonly uploader: string | null;
  readonly tags: readonly string[];
}

/** An xhtml:link rel="alternate" hreflang entry. */
export interface AlternateData {
  readonly hreflang: string;
  readonly href: string;
}

/** The rare per-page data, present only for pages that have any of it. */
export interface PageExtrasData {
  readonly newsStory?: NewsStoryData;
  readonly images?: readonly ImageData[];
  readonly videos?: readonly VideoData[];
  readonly alternates?: readonly AlternateData[];
}

/**
 * The pages of one sitemap in column form.
 *
 * All typed arrays have `count` entries (the backing buffers may be longer
 * than needed only if `count` says so: readers must use `count`). Every
 * `ArrayBuffer` here is its own, so the whole value can be posted with its
 * buffers in the transfer list.
 */
export interface PackedPages {
  readonly count: number;
  /** UTF-8 bytes of every page URL, concatenated in page order. */
  readonly urlBytes: Uint8Array;
  /**
   * `urlEnds[i]` is where page i's URL ends in the string obtained by decoding
   * `urlBytes` as UTF-8, in UTF-16 code units; page i starts at `urlEnds[i-1]`
   * (0 for the first page).
   */
  readonly urlEnds: Uint32Array;
  /** Epoch milliseconds; NaN when the page has no (parseable) lastmod. */
  readonly lastModified: Float64Array;
  /** Already normalised: 0.5 when absent or invalid. */
  readonly priority: Float64Array;
  /** 0 = none, otherwise 1 + index in {@linkcode CHANGE_FREQUENCIES}. */
  readonly changeFrequency: Uint8Array;
  /** The pages' news stories, images, videos and alternates, or null when none has any. */
  readonly extras: PackedExtras | null;
}

/**
 * Extension data of a sitemap's pages: decoded into columns
 * ({@linkcode EncodedExtras}, what the general path and the feeds write), or
 * kept as the document's own bytes until someone reads it
 * ({@linkcode KeptExtras}, what the byte-level urlset reader writes).
 */
export type PackedExtras = EncodedExtras | KeptExtras;

/**
 * Extension data in columns (written and read by `_extras.ts`): a dictionary
 * of shared strings and one compact byte stream, each page's part of it
 * readable alone.
 */
export interface EncodedExtras {
  /** Absent: tells this form from {@linkcode KeptExtras}. */
  readonly kind?: undefined;
  /** UTF-8 bytes of the dictionary's strings, concatenated. */
  readonly dictText: Uint8Array;
  /** Where dictionary string k ends in the decoded `dictText`, in UTF-16 code units. */
  readonly dictEnds: Uint32Array;
  /** Each page's encoded extras, one after another. */
  readonly data: Uint8Array;
  /** Page i's bytes are `data[pageStarts[i], pageStarts[i + 1])`; `count + 1` entries. */
  readonly pageStarts: Uint32Array;
}

/**
 * How {@linkcode KeptExtras.data} holds the bytes: as they are, deflated
 * (raw deflate, the spans only), or the whole gzipped document as it was
 * downloaded.
 */
export type KeptCodec = "none" | "deflate-raw" | "gzip";

/**
 * Extension data kept undecoded (`_kept_extras.ts` decodes it on first
 * read): each page's extension elements as one span of XML bytes, from its
 * first extension element's `<` to its last one's end (core fields between
 * them are ignored when read), with what reading them needs: the root's
 * start tag (its prefix bindings) and the sitemap URL (the base of relative
 * URLs).
 */
export interface KeptExtras {
  readonly kind: "kept";
  readonly codec: KeptCodec;
  /** The bytes, as `codec` says; they inflate to `size` bytes. */
  readonly data: Uint8Array;
  /** Length of the inflated bytes. */
  readonly size: number;
  /**
   * Page i's span is `pageStarts[i + 1] - pageStarts[i]` bytes long (0: no
   * extensions), so that the two forms answer "has extensions" alike; `count + 1` entries.
   */
  readonly pageStarts: Uint32Array;
  /** Where page i's span starts in the inflated bytes; `count` entries. */
  readonly spanAt: Uint32Array;
  /** The root element's start tag, as written. */
  readonly root: Uint8Array;
  /** The sitemap's URL, "" when unknown. */
  readonly base: string;
}

/** One child named by a sitemap index or robots.txt. */
export interface IndexEntry {
  readonly url: string;
  /** Epoch milliseconds of the entry's `<lastmod>`; NaN when absent. */
  readonly lastModified: number;
}

/** The format of a pages sitemap. */
export type PagesFormat = "urlset" | "text" | "rss" | "atom";

/** The result of reading one sitemap document. */
export type ParseResult =
  | {
    readonly kind: "pages";
    readonly format: PagesFormat;
    readonly pages: PackedPages;
    /** Entries found before the `since` filter (after dedup). */
    readonly found: number;
    /**
     * Why reading stopped early (truncation, size cap), and what was dropped
     * for not being a URL; null when the document was read whole and clean.
     */
    readonly warning: string | null;
  }
  | {
    readonly kind: "index";
    readonly format: "index" | "robots";
    readonly children: readonly IndexEntry[];
    readonly warning: string | null;
    /**
     * A robots.txt's text as `RobotsTxt.text` keeps it (its rules are read
     * again from it on the main thread, where the tree is built); absent
     * for a `<sitemapindex>`.
     */
    readonly robotsText?: string;
  }
  | {
    readonly kind: "invalid";
    readonly reason: string;
  };

/**
 * Both warnings of a result, in one line.
 *
 * @param first Why reading stopped early, or null.
 * @param second What the page builder dropped, or null.
 * @returns The warning, or null for none.
 */
export function joinWarnings(first: string | null, second: string | null): string | null {
  return first === null ? second : second === null ? first : `${first}; ${second}`;
}

/** The buffers of a result, for a `postMessage` transfer list. */
export function transferablesOf(result: ParseResult): ArrayBuffer[] {
  if (result.kind !== "pages") return [];
  const p = result.pages;
  const buffers = [
    p.urlBytes.buffer,
    p.urlEnds.buffer,
    p.lastModified.buffer,
    p.priority.buffer,
    p.changeFrequency.buffer,
  ] as ArrayBuffer[];
  const x = p.extras;
  if (x !== null) {
    const columns = x.kind === "kept"
      ? [x.data, x.pageStarts, x.spanAt, x.root]
      : [x.dictText, x.dictEnds, x.data, x.pageStarts];
    for (const column of columns) buffers.push(column.buffer as ArrayBuffer);
  }
  return buffers;
}
