import assert from "node:assert/strict";
import type { PackedPages } from "../../src/parse/_result.ts";
import {
  checkPackedPages,
  iteratePackedPages,
  materialisePackedPages,
} from "../../src/objects/_packed_pages.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "../../src/objects/page.ts";

const URLS = ["https://例え.jp/ä?q=ü", "https://example.com/a", "https://x.test/😀/ß"];

/** Written by hand, as a parser in a worker would hand it over (JSON has turned NaN into null). */
function handPacked(): PackedPages {
  return {
    count: 3,
    urlBytes: new TextEncoder().encode(URLS.join("")),
    // UTF-16 offsets: 例, え, ä, ü are one unit each, 😀 is two; the bytes are 68 long.
    urlEnds: new Uint32Array([19, 40, 59]),
    lastModified: new Float64Array([Date.UTC(2024, 0, 2), NaN, 0]),
    priority: new Float64Array([0.5, 1, 0.1]),
    changeFrequency: new Uint8Array([0, 3, 7]),
    extras: JSON.stringify([
      [0, {
        newsStory: {
          title: "Neu",
          publishDate: null,
          publicationName: "Zeitung",
          publicationLanguage: "de",
          access: null,
          genres: ["Blog"],
          keywords: [],
          stockTickers: [],
        },
        alternates: [{ hreflang: "en", href: "https://example.com/en" }],
      }],
      [2, {
        images: [
          {
            loc: "https://x.test/1.png",
            caption: null,
            geoLocation: null,
            title: "1",
            license: null,
          },
          {
            loc: "https://x.test/2.png",
            caption: "2",
            geoLocation: null,
            title: null,
            license: null,
          },
        ],
        videos: [{
          thumbnailLoc: "https://x.test/t.jpg",
          title: "V",
          description: "D",
          contentLoc: null,
          playerLoc: "https://x.test/p",
          duration: 30,
          expirationDate: NaN,
          rating: null,
          viewCount: 7,
          publicationDate: Date.UTC(2020, 1, 3),
          familyFriendly: null,
          requiresSubscription: true,
          live: null,
          uploader: null,
          tags: ["t"],
        }],
      }],
    ]),
  };
}

const EXPECTED = [
  new SitemapPage({
    url: "https://例え.jp/ä?q=ü",
    priority: 0.5,
    lastModified: new Date("2024-01-02T00:00:00Z"),
    changeFrequency: null,
    newsStory: new SitemapNewsStory({
      title: "Neu",
      publicationName: "Zeitung",
      publicationLanguage: "de",
      genres: ["Blog"],
    }),
    alternates: [new SitemapAlternate({ hreflang: "en", href: "https://example.com/en" })],
  }),
  new SitemapPage({
    url: "https://example.com/a",
    priority: 1,
    lastModified: null,
    changeFrequency: "daily",
  }),
  new SitemapPage({
    url: "https://x.test/😀/ß",
    priority: 0.1,
    lastModified: new Date(0),
    changeFrequency: "never",
    images: [
      new SitemapImage({ loc: "https://x.test/1.png", title: "1" }),
      new SitemapImage({ loc: "https://x.test/2.png", caption: "2" }),
    ],
    videos: [
      new SitemapVideo({
        thumbnailLoc: "https://x.test/t.jpg",
        title: "V",
        description: "D",
        playerLoc: "https://x.test/p",
        duration: 30,
        viewCount: 7,
        publicationDate: new Date("2020-02-03T00:00:00Z"),
        requiresSubscription: true,
        tags: ["t"],
      }),
    ],
  }),
];

Deno.test("iteratePackedPages() slices non-ASCII URLs by UTF-16 offsets and maps every column", () => {
  assert.deepStrictEqual([...iteratePackedPages(handPacked())], EXPECTED);
});

Deno.test("materialisePackedPages() builds the same pages as iteratePackedPages()", () => {
  assert.deepStrictEqual(materialisePackedPages(handPacked()), EXPECTED);
});

Deno.test("iteratePackedPages() puts extras on the pages their index names and no others", () => {
  const pages = [...iteratePackedPages(handPacked())];
  assert.deepEqual(
    pages.map((
      p,
    ) => [p.newsStory?.title ?? null, p.images.length, p.videos.length, p.alternates.length]),
    [["Neu", 0, 0, 1], [null, 0, 0, 0], [null, 2, 1, 0]],
  );
});

Deno.test("iteratePackedPages() reads only count entries of longer columns", () => {
  const packed = { ...handPacked(), count: 2, extras: "" };
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.url), URLS.slice(0, 2));
});

Deno.test("iteratePackedPages() keeps a leading U+FEFF as part of the first URL", () => {
  const urls = ["\uFEFFhttps://example.com/a", "https://example.com/b"];
  const packed: PackedPages = {
    count: 2,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds: new Uint32Array([22, 43]),
    lastModified: new Float64Array([NaN, NaN]),
    priority: new Float64Array([0.5, 0.5]),
    changeFrequency: new Uint8Array([0, 0]),
    extras: "",
  };
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.url), urls);
});

Deno.test("iteratePackedPages() maps an unknown change-frequency code to null", () => {
  const packed = { ...handPacked(), changeFrequency: new Uint8Array([8, 1, 255]) };
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.changeFrequency), [
    null,
    "always",
    null,
  ]);
});

Deno.test("checkPackedPages() rejects short columns and out-of-order offsets", () => {
  assert.throws(() => checkPackedPages({ ...handPacked(), priority: new Float64Array(2) }), {
    name: "RangeError",
    message: "Expected PackedPages.priority to hold 3 entries but it holds 2",
  });
  assert.throws(
    () => checkPackedPages({ ...handPacked(), urlEnds: new Uint32Array([19, 10, 59]) }),
    {
      name: "RangeError",
      message: "Expected PackedPages.urlEnds[1] to be between 19 and 68 but got 10",
    },
  );
  assert.throws(() => checkPackedPages({ ...handPacked(), count: -1 }), {
    name: "RangeError",
    message: "Expected PackedPages.count to be a non-negative integer but got -1",
  });
  checkPackedPages(handPacked());
});
