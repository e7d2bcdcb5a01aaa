/** The extras columns: every field survives the round trip, and short repeated strings are stored once. */
import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { extrasEntries, packExtras } from "../../src/parse/_extras.ts";
import type { PageExtrasData } from "../../src/parse/_result.ts";

const FULL: PageExtrasData = {
  newsStory: {
    title: "Caf\u00e9 \u{1F600}",
    publishDate: Date.UTC(2024, 4, 1),
    publicationName: "Gazette",
    publicationLanguage: "fr",
    access: null,
    genres: ["Blog", "OpEd"],
    keywords: [],
    stockTickers: ["NASDAQ:A"],
  },
  images: [
    { loc: "https://x.test/1.png", caption: null, geoLocation: "Paris", title: "1", license: null },
    { loc: "https://x.test/2.png", caption: "", geoLocation: null, title: null, license: "l" },
  ],
  videos: [{
    thumbnailLoc: "https://x.test/t.jpg",
    title: "V",
    description: null,
    contentLoc: null,
    playerLoc: "https://x.test/p",
    duration: 30.5,
    expirationDate: NaN,
    rating: null,
    viewCount: 0,
    publicationDate: Date.UTC(2020, 1, 3),
    familyFriendly: true,
    requiresSubscription: false,
    live: null,
    uploader: null,
    tags: ["a", "b"],
  }],
  alternates: [{ hreflang: "fr", href: "https://x.test/fr" }],
};

Deno.test("packExtras() and extrasEntries() round-trip every field, NaN dates and nulls", () => {
  const packed = packExtras([[1, FULL], [3, { images: [] }]], 5)!;
  deepStrictEqual(extrasEntries(packed), [[1, FULL], [3, { images: [] }]]);
  // Page 1: a mask, 12 words of news, 11 of images, 23 of video, 3 of alternates; page 3: 2.
  deepStrictEqual([...packed.pageStarts], [0, 0, 50, 50, 52, 52]);
  equal(packExtras([], 4), null);
  equal(extrasEntries(null).length, 0);
});

Deno.test("packExtras() stores a short repeated string once", () => {
  const alternates = [{ hreflang: "fr", href: "https://x.test/fr" }];
  const packed = packExtras([[0, { alternates }], [1, { alternates }], [2, { alternates }]], 3)!;
  equal(new TextDecoder().decode(packed.text), "frhttps://x.test/fr");
  deepStrictEqual([...packed.textEnds], [2, 19]);
});

Deno.test("packExtras() refuses pages out of order or range", () => {
  throws(() => packExtras([[2, { images: [] }], [1, { images: [] }]], 3), {
    name: "RangeError",
    message: "Extras for page 1 out of order or range (3 pages)",
  });
  throws(() => packExtras([[3, { images: [] }]], 3), {
    name: "RangeError",
    message: "Extras for page 3 out of order or range (3 pages)",
  });
});
