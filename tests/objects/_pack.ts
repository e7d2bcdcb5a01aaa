/**
 * Test-only builder of {@linkcode PackedPages}: the inverse of materialisation,
 * written independently of the parsers' builder so the tree's tests do not
 * depend on parser code.
 *
 * @module
 */

import {
  CHANGE_FREQUENCIES,
  type PackedPages,
  type PageExtrasData,
} from "../../src/parse/_result.ts";
import type { SitemapPage } from "../../src/objects/page.ts";
import { packExtras } from "../../src/parse/_extras.ts";

function epoch(date: Date | null): number {
  return date === null ? NaN : date.getTime();
}

/**
 * Packs pages the way a parser would.
 *
 * @param pages The pages to pack, in order.
 * @returns Their column form, each column in a buffer of its own.
 */
export function packPages(pages: readonly SitemapPage[]): PackedPages {
  const count = pages.length;
  const urlEnds = new Uint32Array(count);
  const lastModified = new Float64Array(count);
  const priority = new Float64Array(count);
  const changeFrequency = new Uint8Array(count);
  const extras: [number, PageExtrasData][] = [];
  let end = 0;
  pages.forEach((page, i) => {
    end += page.url.length;
    urlEnds[i] = end;
    lastModified[i] = epoch(page.lastModified);
    priority[i] = page.priority;
    changeFrequency[i] = page.changeFrequency === null
      ? 0
      : CHANGE_FREQUENCIES.indexOf(page.changeFrequency) + 1;
    const data: {
      -readonly [K in keyof PageExtrasData]: PageExtrasData[K];
    } = {};
    const story = page.newsStory;
    if (story !== null) {
      data.newsStory = { ...story, publishDate: epoch(story.publishDate) };
    }
    if (page.images.length > 0) data.images = page.images.map((image) => ({ ...image }));
    if (page.videos.length > 0) {
      data.videos = page.videos.map((video) => ({
        ...video,
        expirationDate: epoch(video.expirationDate),
        publicationDate: epoch(video.publicationDate),
      }));
    }
    if (page.alternates.length > 0) {
      data.alternates = page.alternates.map((alternate) => ({ ...alternate }));
    }
    if (Object.keys(data).length > 0) extras.push([i, data]);
  });
  return {
    count,
    urlBytes: new TextEncoder().encode(pages.map((page) => page.url).join("")),
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    extras: packExtras(extras, count),
  };
}
