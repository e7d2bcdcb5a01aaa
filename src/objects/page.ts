/**
 * The page-level data model: one {@linkcode SitemapPage} per URL a sitemap
 * lists, with the optional Google News, Image, Video and hreflang extensions.
 *
 * Every class takes one init object, assigns its fields once and never changes
 * them; lists are empty (shared, frozen) arrays when absent, never null.
 *
 * @module
 */

import type { ChangeFrequency } from "../parse/_result.ts";
import { isoString } from "./_iso.ts";
import { type ExtensionsSource, pendingExtensions } from "./_lazy_extensions.ts";

export type { ChangeFrequency } from "../parse/_result.ts";

/** The shared frozen empty list, so absent lists cost no allocation per page. */
// deno-lint-ignore no-explicit-any
const EMPTY: readonly any[] = Object.freeze([]);

/** Freezes a copy, so a caller keeping the array cannot change the object. */
function frozenList<T>(list: readonly T[] | undefined): readonly T[] {
  if (list === undefined || list.length === 0) return EMPTY as readonly T[];
  return Object.freeze(list.slice());
}

function frozenInPlace<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? EMPTY as readonly T[] : Object.freeze(list);
}

/** A Date, or null for absent and invalid dates (an invalid Date cannot be serialised). */
function validDate(date: Date | null | undefined): Date | null {
  return date != null && date.getTime() === date.getTime() ? date : null;
}

function isoOrNull(date: Date | null): string | null {
  return date === null ? null : isoString(date.getTime());
}

/** Fields of a {@linkcode SitemapNewsStory}; only `title` is required. */
export interface SitemapNewsStoryInit {
  /** The article's title. */
  readonly title: string;
  /** When the article was published. @default {null} */
  readonly publishDate?: Date | null;
  /** The publication's name, e.g. "The Example Times". @default {null} */
  readonly publicationName?: string | null;
  /** The publication's language as an ISO 639 code. @default {null} */
  readonly publicationLanguage?: string | null;
  /** "Subscription" or "Registration" when access is restricted. @default {null} */
  readonly access?: string | null;
  /** E.g. "PressRelease", "Blog". @default {[]} */
  readonly genres?: readonly string[];
  /** Keywords describing the article. @default {[]} */
  readonly keywords?: readonly string[];
  /** E.g. "NASDAQ:AMAT". @default {[]} */
  readonly stockTickers?: readonly string[];
}

/** A {@linkcode SitemapNewsStory} as {@linkcode SitemapNewsStory.toJSON} writes it. */
export interface SitemapNewsStoryJSON {
  /** See {@linkcode SitemapNewsStory.title}. */
  readonly title: string;
  /** ISO 8601, or null. */
  readonly publishDate: string | null;
  /** See {@linkcode SitemapNewsStory.publicationName}. */
  readonly publicationName: string | null;
  /** See {@linkcode SitemapNewsStory.publicationLanguage}. */
  readonly publicationLanguage: string | null;
  /** See {@linkcode SitemapNewsStory.access}. */
  readonly access: string | null;
  /** See {@linkcode SitemapNewsStory.genres}. */
  readonly genres: readonly string[];
  /** See {@linkcode SitemapNewsStory.keywords}. */
  readonly keywords: readonly string[];
  /** See {@linkcode SitemapNewsStory.stockTickers}. */
  readonly stockTickers: readonly string[];
}

/**
 * A Google News story attached to a page (also used for the title and date of
 * an RSS or Atom feed item).
 *
 * @example Build a story
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { SitemapNewsStory } from "@sitemap/tree/parse";
 *
 * const story = new SitemapNewsStory({ title: "Launch", publicationName: "Example News" });
 * deepStrictEqual([story.title, story.publishDate, story.genres], ["Launch", null, []]);
 * ```
 */
export class SitemapNewsStory {
  /** The article's title. */
  readonly title: string;
  /** When the article was published, or null. */
  readonly publishDate: Date | null;
  /** The publication's name, or null. */
  readonly publicationName: string | null;
  /** The publication's language (ISO 639), or null. */
  readonly publicationLanguage: string | null;
  /** "Subscription", "Registration", or null. */
  readonly access: string | null;
  /** Genres such as "Blog"; empty when none. */
  readonly genres: readonly string[];
  /** Keywords; empty when none. */
  readonly keywords: readonly string[];
  /** Stock tickers such as "NASDAQ:AMAT"; empty when none. */
  readonly stockTickers: readonly string[];

  /**
   * Builds a story; lists are copied and frozen.
   *
   * @param init The story's fields; omitted ones take their defaults.
   */
  constructor(init: SitemapNewsStoryInit) {
    this.title = init.title;
    this.publishDate = validDate(init.publishDate);
    this.publicationName = init.publicationName ?? null;
    this.publicationLanguage = init.publicationLanguage ?? null;
    this.access = init.access ?? null;
    this.genres = frozenList(init.genres);
    this.keywords = frozenList(init.keywords);
    this.stockTickers = frozenList(init.stockTickers);
  }

  /**
   * Serialises the story (`JSON.stringify` calls this).
   *
   * @returns The story as plain JSON data, dates as ISO 8601 strings.
   *
   * @example Serialise
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { SitemapNewsStory } from "@sitemap/tree/parse";
   *
   * const json = new SitemapNewsStory({ title: "T", publishDate: new Date(0) }).toJSON();
   * strictEqual(json.publishDate, "1970-01-01T00:00:00.000Z");
   * ```
   */
  toJSON(): SitemapNewsStoryJSON {
    return {
      title: this.title,
      publishDate: isoOrNull(this.publishDate),
      publicationName: this.publicationName,
      publicationLanguage: this.publicationLanguage,
      access: this.access,
      genres: [...this.genres],
      keywords: [...this.keywords],
      stockTickers: [...this.stockTickers],
    };
  }
}

/** Fields of a {@linkcode SitemapImage}; only `loc` is required. */
export interface SitemapImageInit {
  /** The image's URL. */
  readonly loc: string;
  /** The image's caption. @default {null} */
  readonly caption?: string | null;
  /** E.g. "Limerick, Ireland". @default {null} */
  readonly geoLocation?: string | null;
  /** The image's title. @default {null} */
  readonly title?: string | null;
  /** URL of the image's license. @default {null} */
  readonly license?: string | null;
}

/** A {@linkcode SitemapImage} as {@linkcode SitemapImage.toJSON} writes it. */
export interface SitemapImageJSON {
  /** See {@linkcode SitemapImage.loc}. */
  readonly loc: string;
  /** See {@linkcode SitemapImage.caption}. */
  readonly caption: string | null;
  /** See {@linkcode SitemapImage.geoLocation}. */
  readonly geoLocation: string | null;
  /** See {@linkcode SitemapImage.title}. */
  readonly title: string | null;
  /** See {@linkcode SitemapImage.license}. */
  readonly license: string | null;
}

/**
 * A Google Image extension entry of a page.
 *
 * @example Build an image
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { SitemapImage } from "@sitemap/tree/parse";
 *
 * strictEqual(new SitemapImage({ loc: "https://example.com/a.png" }).caption, null);
 * ```
 */
export class SitemapImage {
  /** The image's URL. */
  readonly loc: string;
  /** The image's caption, or null. */
  readonly caption: string | null;
  /** Where the image was taken, or null. */
  readonly geoLocation: string | null;
  /** The image's title, or null. */
  readonly title: string | null;
  /** URL of the image's license, or null. */
  readonly license: string | null;

  /**
   * Builds an image entry.
   *
   * @param init The image's fields; omitted ones are null.
   */
  constructor(init: SitemapImageInit) {
    this.loc = init.loc;
    this.caption = init.caption ?? null;
    this.geoLocation = init.geoLocation ?? null;
    this.title = init.title ?? null;
    this.license = init.license ?? null;
  }

  /**
   * Serialises the image (`JSON.stringify` calls this).
   *
   * @returns The image as plain JSON data.
   *
   * @example Serialise
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { SitemapImage } from "@sitemap/tree/parse";
   *
   * const json = new SitemapImage({ loc: "https://example.com/a.png", title: "A" }).toJSON();
   * strictEqual(json.loc, "https://example.com/a.png");
   * strictEqual(json.title, "A");
   * ```
   */
  toJSON(): SitemapImageJSON {
    return {
      loc: this.loc,
      caption: this.caption,
      geoLocation: this.geoLocation,
      title: this.title,
      license: this.license,
    };
  }
}

/** Fields of a {@linkcode SitemapVideo}; all optional, absent ones are null or empty. */
export interface SitemapVideoInit {
  /** URL of the thumbnail. @default {null} */
  readonly thumbnailLoc?: string | null;
  /** The video's title. @default {null} */
  readonly title?: string | null;
  /** The video's description. @default {null} */
  readonly description?: string | null;
  /** URL of the media file. @default {null} */
  readonly contentLoc?: string | null;
  /** URL of a player for the video. @default {null} */
  readonly playerLoc?: string | null;
  /** In seconds. @default {null} */
  readonly duration?: number | null;
  /** When the video stops being available. @default {null} */
  readonly expirationDate?: Date | null;
  /** 0.0 to 5.0. @default {null} */
  readonly rating?: number | null;
  /** How many times the video was viewed. @default {null} */
  readonly viewCount?: number | null;
  /** When the video was first published. @default {null} */
  readonly publicationDate?: Date | null;
  /** Whether the video suits children. @default {null} */
  readonly familyFriendly?: boolean | null;
  /** Whether watching needs a subscription. @default {null} */
  readonly requiresSubscription?: boolean | null;
  /** Whether the video is a live stream. @default {null} */
  readonly live?: boolean | null;
  /** Who uploaded the video. @default {null} */
  readonly uploader?: string | null;
  /** Tags describing the video. @default {[]} */
  readonly tags?: readonly string[];
}

/** A {@linkcode SitemapVideo} as {@linkcode SitemapVideo.toJSON} writes it. */
export interface SitemapVideoJSON {
  /** See {@linkcode SitemapVideo.thumbnailLoc}. */
  readonly thumbnailLoc: string | null;
  /** See {@linkcode SitemapVideo.title}. */
  readonly title: string | null;
  /** See {@linkcode SitemapVideo.description}. */
  readonly description: string | null;
  /** See {@linkcode SitemapVideo.contentLoc}. */
  readonly contentLoc: string | null;
  /** See {@linkcode SitemapVideo.playerLoc}. */
  readonly playerLoc: string | null;
  /** See {@linkcode SitemapVideo.duration}. */
  readonly duration: number | null;
  /** ISO 8601, or null. */
  readonly expirationDate: string | null;
  /** See {@linkcode SitemapVideo.rating}. */
  readonly rating: number | null;
  /** See {@linkcode SitemapVideo.viewCount}. */
  readonly viewCount: number | null;
  /** ISO 8601, or null. */
  readonly publicationDate: string | null;
  /** See {@linkcode SitemapVideo.familyFriendly}. */
  readonly familyFriendly: boolean | null;
  /** See {@linkcode SitemapVideo.requiresSubscription}. */
  readonly requiresSubscription: boolean | null;
  /** See {@linkcode SitemapVideo.live}. */
  readonly live: boolean | null;
  /** See {@linkcode SitemapVideo.uploader}. */
  readonly uploader: string | null;
  /** See {@linkcode SitemapVideo.tags}. */
  readonly tags: readonly string[];
}

/**
 * A Google Video extension entry of a page.
 *
 * @example Build a video
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { SitemapVideo } from "@sitemap/tree/parse";
 *
 * const video = new SitemapVideo({ title: "Grilling steaks", duration: 600 });
 * deepStrictEqual([video.title, video.duration, video.tags], ["Grilling steaks", 600, []]);
 * ```
 */
export class SitemapVideo {
  /** URL of the thumbnail, or null. */
  readonly thumbnailLoc: string | null;
  /** The video's title, or null. */
  readonly title: string | null;
  /** The video's description, or null. */
  readonly description: string | null;
  /** URL of the media file, or null. */
  readonly contentLoc: string | null;
  /** URL of a player for the video, or null. */
  readonly playerLoc: string | null;
  /** Length in seconds, or null. */
  readonly duration: number | null;
  /** When the video stops being available, or null. */
  readonly expirationDate: Date | null;
  /** Rating from 0.0 to 5.0, or null. */
  readonly rating: number | null;
  /** How many times the video was viewed, or null. */
  readonly viewCount: number | null;
  /** When the video was first published, or null. */
  readonly publicationDate: Date | null;
  /** Whether the video suits children, or null when not said. */
  readonly familyFriendly: boolean | null;
  /** Whether watching needs a subscription, or null when not said. */
  readonly requiresSubscription: boolean | null;
  /** Whether the video is a live stream, or null when not said. */
  readonly live: boolean | null;
  /** Who uploaded the video, or null. */
  readonly uploader: string | null;
  /** Tags; empty when none. */
  readonly tags: readonly string[];

  /**
   * Builds a video entry; `tags` is copied and frozen.
   *
   * @param init The video's fields; omitted ones are null or empty.
   */
  constructor(init: SitemapVideoInit) {
    this.thumbnailLoc = init.thumbnailLoc ?? null;
    this.title = init.title ?? null;
    this.description = init.description ?? null;
    this.contentLoc = init.contentLoc ?? null;
    this.playerLoc = init.playerLoc ?? null;
    this.duration = init.duration ?? null;
    this.expirationDate = validDate(init.expirationDate);
    this.rating = init.rating ?? null;
    this.viewCount = init.viewCount ?? null;
    this.publicationDate = validDate(init.publicationDate);
    this.familyFriendly = init.familyFriendly ?? null;
    this.requiresSubscription = init.requiresSubscription ?? null;
    this.live = init.live ?? null;
    this.uploader = init.uploader ?? null;
    this.tags = frozenList(init.tags);
  }

  /**
   * Serialises the video (`JSON.stringify` calls this).
   *
   * @returns The video as plain JSON data, dates as ISO 8601 strings.
   *
   * @example Serialise
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { SitemapVideo } from "@sitemap/tree/parse";
   *
   * strictEqual(new SitemapVideo({ live: true }).toJSON().live, true);
   * ```
   */
  toJSON(): SitemapVideoJSON {
    return {
      thumbnailLoc: this.thumbnailLoc,
      title: this.title,
      description: this.description,
      contentLoc: this.contentLoc,
      playerLoc: this.playerLoc,
      duration: this.duration,
      expirationDate: isoOrNull(this.expirationDate),
      rating: this.rating,
      viewCount: this.viewCount,
      publicationDate: isoOrNull(this.publicationDate),
      familyFriendly: this.familyFriendly,
      requiresSubscription: this.requiresSubscription,
      live: this.live,
      uploader: this.uploader,
      tags: [...this.tags],
    };
  }
}

/** Fields of a {@linkcode SitemapAlternate}. */
export interface SitemapAlternateInit {
  /** Language (and optional region) code, or "x-default". */
  readonly hreflang: string;
  /** URL of the page in that language. */
  readonly href: string;
}

/** A {@linkcode SitemapAlternate} as {@linkcode SitemapAlternate.toJSON} writes it. */
export interface SitemapAlternateJSON {
  /** See {@linkcode SitemapAlternate.hreflang}. */
  readonly hreflang: string;
  /** See {@linkcode SitemapAlternate.href}. */
  readonly href: string;
}

/**
 * An `xhtml:link rel="alternate"` entry: the same page in another language.
 *
 * @example Build an alternate
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { SitemapAlternate } from "@sitemap/tree/parse";
 *
 * const alternate = new SitemapAlternate({ hreflang: "de", href: "https://example.com/de/" });
 * strictEqual(alternate.href, "https://example.com/de/");
 * ```
 */
export class SitemapAlternate {
  /** Language (and optional region) code, or "x-default". */
  readonly hreflang: string;
  /** URL of the page in that language. */
  readonly href: string;

  /**
   * Builds an alternate.
   *
   * @param init The language code and URL.
   */
  constructor(init: SitemapAlternateInit) {
    this.hreflang = init.hreflang;
    this.href = init.href;
  }

  /**
   * Serialises the alternate (`JSON.stringify` calls this).
   *
   * @returns The alternate as plain JSON data.
   *
   * @example Serialise
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { SitemapAlternate } from "@sitemap/tree/parse";
   *
   * deepStrictEqual(
   *   new SitemapAlternate({ hreflang: "de", href: "https://example.com/de/" }).toJSON(),
   *   { hreflang: "de", href: "https://example.com/de/" },
   * );
   * ```
   */
  toJSON(): SitemapAlternateJSON {
    return { hreflang: this.hreflang, href: this.href };
  }
}

/** Fields of a {@linkcode SitemapPage}; only `url` is required. */
export interface SitemapPageInit {
  /** The page's URL. */
  readonly url: string;
  /** Values that are not numbers in [0, 1] become 0.5, as the protocol's default. @default {0.5} */
  readonly priority?: number;
  /**
   * A Date, or epoch milliseconds (the packed form passes these, so the Date
   * is built only when read); an invalid Date or NaN becomes null.
   * @default {null}
   */
  readonly lastModified?: Date | number | null;
  /** How often the page changes. @default {null} */
  readonly changeFrequency?: ChangeFrequency | null;
  /** Google News (or feed item) data. @default {null} */
  readonly newsStory?: SitemapNewsStory | null;
  /** Google Image entries. @default {[]} */
  readonly images?: readonly SitemapImage[];
  /** Google Video entries. @default {[]} */
  readonly videos?: readonly SitemapVideo[];
  /** hreflang alternates. @default {[]} */
  readonly alternates?: readonly SitemapAlternate[];
}

/** A {@linkcode SitemapPage} as {@linkcode SitemapPage.toJSON} writes it. */
export interface SitemapPageJSON {
  /** See {@linkcode SitemapPage.url}. */
  readonly url: string;
  /** See {@linkcode SitemapPage.priority}. */
  readonly priority: number;
  /** ISO 8601, or null. */
  readonly lastModified: string | null;
  /** See {@linkcode SitemapPage.changeFrequency}. */
  readonly changeFrequency: ChangeFrequency | null;
  /** See {@linkcode SitemapPage.newsStory}. */
  readonly newsStory: SitemapNewsStoryJSON | null;
  /** See {@linkcode SitemapPage.images}. */
  readonly images: readonly SitemapImageJSON[];
  /** See {@linkcode SitemapPage.videos}. */
  readonly videos: readonly SitemapVideoJSON[];
  /** See {@linkcode SitemapPage.alternates}. */
  readonly alternates: readonly SitemapAlternateJSON[];
}

/** Where a page's extensions come from until first read. */
type Source = ExtensionsSource<SitemapNewsStory, SitemapImage, SitemapVideo, SitemapAlternate>;

/**
 * One page listed by a sitemap.
 *
 * Fields are read-only. Dates are ordinary `Date` objects: mutating one
 * changes what later readers of the same page object see, so don't.
 * A page read from a parsed sitemap builds its extensions (`newsStory`,
 * `images`, `videos`, `alternates`) when one of them is first read; each
 * read after that returns the same objects.
 *
 * @example Build a page
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { SitemapPage } from "@sitemap/tree/parse";
 *
 * const page = new SitemapPage({ url: "https://example.com/", changeFrequency: "daily" });
 * deepStrictEqual([page.changeFrequency, page.priority, page.images], ["daily", 0.5, []]);
 * ```
 */
export class SitemapPage {
  /** The page's URL. */
  readonly url: string;
  /** From 0 to 1; 0.5 when the sitemap gave none or an invalid one. */
  readonly priority: number;
  /** Epoch ms of lastModified, NaN when none: a number is ~10x cheaper to make than a Date. */
  readonly #lastModifiedMs: number;
  #lastModified: Date | null | undefined;
  /** How often the page changes, or null. */
  readonly changeFrequency: ChangeFrequency | null;
  /** Where the extensions come from until they are built; null once built (or given). */
  #source: Source | null;
  #sourceIndex: number;
  #newsStory: SitemapNewsStory | null = null;
  #images: readonly SitemapImage[] = EMPTY;
  #videos: readonly SitemapVideo[] = EMPTY;
  #alternates: readonly SitemapAlternate[] = EMPTY;

  /**
   * Builds a page; lists are copied and frozen.
   *
   * @param init The page's fields; omitted ones take their defaults.
   */
  constructor(init: SitemapPageInit) {
    const priority = init.priority ?? 0.5;
    this.url = init.url;
    // False for NaN too.
    this.priority = priority >= 0 && priority <= 1 ? priority : 0.5;
    const lastModified = init.lastModified;
    if (typeof lastModified === "number") {
      this.#lastModifiedMs = lastModified;
    } else {
      const date = validDate(lastModified);
      this.#lastModifiedMs = date === null ? NaN : date.getTime();
      this.#lastModified = date;
    }
    this.changeFrequency = init.changeFrequency ?? null;
    const source = pendingExtensions.source as Source | null;
    this.#source = source;
    this.#sourceIndex = pendingExtensions.index;
    if (source === null) this.#setExtensions(init);
    else pendingExtensions.source = null;
  }

  #setExtensions(from: SitemapPageInit): void {
    this.#newsStory = from.newsStory ?? null;
    this.#images = frozenList(from.images);
    this.#videos = frozenList(from.videos);
    this.#alternates = frozenList(from.alternates);
  }

  /** Builds the extensions from the source, once; its lists are fresh, so frozen without a copy. */
  #build(): void {
    const built = this.#source!.extensions(this.#sourceIndex);
    this.#newsStory = built.newsStory;
    this.#images = frozenInPlace(built.images);
    this.#videos = frozenInPlace(built.videos);
    this.#alternates = frozenInPlace(built.alternates);
    this.#source = null;
  }

  /** Google News (or feed item) data, or null. */
  get newsStory(): SitemapNewsStory | null {
    if (this.#source !== null) this.#build();
    return this.#newsStory;
  }

  /** Google Image entries; empty when none (frozen; the same array on every read). */
  get images(): readonly SitemapImage[] {
    if (this.#source !== null) this.#build();
    return this.#images;
  }

  /** Google Video entries; empty when none (frozen; the same array on every read). */
  get videos(): readonly SitemapVideo[] {
    if (this.#source !== null) this.#build();
    return this.#videos;
  }

  /** hreflang alternates; empty when none (frozen; the same array on every read). */
  get alternates(): readonly SitemapAlternate[] {
    if (this.#source !== null) this.#build();
    return this.#alternates;
  }

  /** When the page last changed, or null (built on first read, then the same object). */
  get lastModified(): Date | null {
    if (this.#lastModified === undefined) {
      const ms = this.#lastModifiedMs;
      this.#lastModified = ms === ms ? new Date(ms) : null;
    }
    return this.#lastModified;
  }

  /**
   * Serialises the page (`JSON.stringify` calls this).
   *
   * @returns The page as plain JSON data, dates as ISO 8601 strings; absent
   * values stay null and absent lists stay empty, so every key is always there.
   *
   * @example Serialise
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { SitemapPage } from "@sitemap/tree/parse";
   *
   * const page = new SitemapPage({ url: "https://example.com/", lastModified: new Date(0) });
   * const json = page.toJSON();
   * deepStrictEqual(
   *   [json.url, json.priority, json.lastModified],
   *   ["https://example.com/", 0.5, "1970-01-01T00:00:00.000Z"],
   * );
   * ```
   */
  toJSON(): SitemapPageJSON {
    return {
      url: this.url,
      priority: this.priority,
      lastModified: this.#lastModifiedMs === this.#lastModifiedMs
        ? isoString(this.#lastModifiedMs)
        : null,
      changeFrequency: this.changeFrequency,
      newsStory: this.newsStory === null ? null : this.newsStory.toJSON(),
      images: this.images.map((image) => image.toJSON()),
      videos: this.videos.map((video) => video.toJSON()),
      alternates: this.alternates.map((alternate) => alternate.toJSON()),
    };
  }
}
