/**
 * Any pages node's pages in column form ({@linkcode PackedPages}), whether it
 * keeps the columns a parser made or holds page objects (built by hand, read
 * from JSON, or after `pages` was read): what snapshots and the tree
 * comparison read, so that they have one form to work on.
 *
 * @module
 */
import { packExtras } from "../parse/_extras.ts";
import {
  CHANGE_FREQUENCIES,
  type NewsStoryData,
  type PackedPages,
  type PageExtrasData,
  type VideoData,
} from "../parse/_result.ts";
import type { SitemapNewsStory, SitemapPage, SitemapVideo } from "./page.ts";
import type { AbstractPagesSitemap } from "./sitemap.ts";
import { nodePageSources } from "./_packed_pages.ts";

/**
 * The node's pages as columns: its own (no copy) when it keeps them, else
 * its page objects packed now.
 *
 * @param node A pages node.
 * @returns The columns; the caller must not change them.
 */
export function pagesColumns(node: AbstractPagesSitemap): PackedPages {
  const source = nodePageSources.read(node);
  return Array.isArray(source)
    ? packPageObjects(source as readonly SitemapPage[])
    : source as PackedPages;
}

function epoch(date: Date | null): number {
  return date === null ? NaN : date.getTime();
}

function newsData(story: SitemapNewsStory): NewsStoryData {
  return {
    title: story.title,
    publishDate: epoch(story.publishDate),
    publicationName: story.publicationName,
    publicationLanguage: story.publicationLanguage,
    access: story.access,
    genres: story.genres,
    keywords: story.keywords,
    stockTickers: story.stockTickers,
  };
}

function videoData(video: SitemapVideo): VideoData {
  return {
    thumbnailLoc: video.thumbnailLoc,
    title: video.title,
    description: video.description,
    contentLoc: video.contentLoc,
    playerLoc: video.playerLoc,
    duration: video.duration,
    expirationDate: epoch(video.expirationDate),
    rating: video.rating,
    viewCount: video.viewCount,
    publicationDate: epoch(video.publicationDate),
    familyFriendly: video.familyFriendly,
    requiresSubscription: video.requiresSubscription,
    live: video.live,
    uploader: video.uploader,
    tags: video.tags,
  };
}

/** A page's extensions as the extras columns take them, or null when it has none. */
function extrasOf(page: SitemapPage): PageExtrasData | null {
  const { newsStory, images, videos, alternates } = page;
  if (newsStory === null && images.length + videos.length + alternates.length === 0) return null;
  return {
    ...(newsStory === null ? {} : { newsStory: newsData(newsStory) }),
    ...(images.length === 0 ? {} : { images }),
    ...(videos.length === 0 ? {} : { videos: videos.map(videoData) }),
    ...(alternates.length === 0 ? {} : { alternates }),
  };
}

/**
 * Packs page objects into the columns a parser would have made of them.
 *
 * @param pages The pages, in order.
 * @returns Their columns, each in a buffer of its own.
 */
export function packPageObjects(pages: readonly SitemapPage[]): PackedPages {
  const count = pages.length;
  const urlEnds = new Uint32Array(count);
  const lastModified = new Float64Array(count);
  const priority = new Float64Array(count);
  const changeFrequency = new Uint8Array(count);
  const extras: [number, PageExtrasData][] = [];
  const urls: string[] = new Array(count);
  let end = 0;
  for (let i = 0; i < count; i++) {
    const page = pages[i]!;
    urls[i] = page.url;
    urlEnds[i] = end += page.url.length;
    lastModified[i] = epoch(page.lastModified);
    priority[i] = page.priority;
    const frequency = page.changeFrequency;
    changeFrequency[i] = frequency === null ? 0 : CHANGE_FREQUENCIES.indexOf(frequency) + 1;
    const data = extrasOf(page);
    if (data !== null) extras.push([i, data]);
  }
  return {
    count,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    extras: packExtras(extras, count),
  };
}
