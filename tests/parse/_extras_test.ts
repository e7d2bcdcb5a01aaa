/** The extras columns: every field survives the round trip, and short repeated strings are stored once. */
import { deepStrictEqual, strictEqual as equal, throws } from "node:assert/strict";
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
  // Page 1 takes 205 bytes; page 3 two (its mask, and the empty list's length).
  deepStrictEqual([...packed.pageStarts], [0, 0, 205, 205, 207, 207]);
  equal(packExtras([], 4), null);
  equal(extrasEntries(null).length, 0);
});

Deno.test("packExtras() stores a short repeated string once", () => {
  const alternates = [{ hreflang: "fr", href: "https://x.test/fr" }];
  const packed = packExtras([[0, { alternates }], [1, { alternates }], [2, { alternates }]], 3)!;
  equal(new TextDecoder().decode(packed.dictText), "frhttps://x.test/fr");
  deepStrictEqual([...packed.dictEnds], [2, 19]);
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

Deno.test("packExtras() codes strings against their neighbours and decodes them exactly", () => {
  const href = (lang: string) => `https://www.shop.example/${lang}/products/caf\u00e9-\u{1F600}`;
  const cdn = "https://cdn.shop.example/s/files/1/0123/products/";
  const entries: [number, PageExtrasData][] = [
    [0, {
      images: [
        {
          loc: `${cdn}a.jpg?v=1&width=1024`,
          caption: null,
          geoLocation: null,
          title: null,
          license: null,
        },
        {
          loc: `${cdn}b.jpg?v=2&width=1024`,
          caption: "\u{1F600}x",
          geoLocation: null,
          title: null,
          license: null,
        },
      ],
      alternates: ["de", "fr", "x-default"].map((l) => ({ hreflang: l, href: href(l) })),
    }],
    [2, {
      images: [{
        loc: `${cdn}c.jpg`,
        caption: "\u{1F600}y",
        geoLocation: null,
        title: null,
        license: null,
      }],
      alternates: [
        // Pairs that share a surrogate's high half at the cut: it must not split.
        { hreflang: "a", href: "https://x.test/\u{1F600}\u{1F601}" },
        { hreflang: "b", href: "https://x.test/\u{1F600}\u{1F602}" },
        { hreflang: "c", href: "\u{1F601}https://x.test/q" },
        { hreflang: "d", href: "\u{1F602}https://x.test/q" },
        { hreflang: "e", href: "" },
      ],
      newsStory: {
        title: "\u00e9".repeat(300),
        publishDate: -1,
        publicationName: null,
        publicationLanguage: null,
        access: null,
        genres: [],
        keywords: ["k", "k"],
        stockTickers: [],
      },
      videos: [{
        ...FULL.videos![0]!,
        duration: -0,
        rating: 2 ** 60,
        viewCount: Number.MAX_SAFE_INTEGER,
        expirationDate: -8.64e15,
      }],
    }],
  ];
  const packed = packExtras(entries, 3)!;
  deepStrictEqual(extrasEntries(packed), entries);
  equal(Object.is(extrasEntries(packed)[1]![1].videos![0]!.duration, -0), true);
  // The CDN directory and the repeated short strings ("k", and "a", "b" of tags and hreflangs).
  deepStrictEqual(
    new TextDecoder().decode(packed.dictText),
    `${cdn}kab`,
  );
});

Deno.test("extrasEntries() reads back ASCII runs longer than its decoding window, and many pages", () => {
  const long = "x".repeat(20_000);
  const entries: [number, PageExtrasData][] = Array.from({ length: 3000 }, (_, p) => [p, {
    images: [{
      loc: `https://cdn.example/${p % 7}/${p}.jpg`,
      caption: p === 1500 ? long : p % 3 === 0 ? `caf\u00e9 ${p}` : null,
      geoLocation: null,
      title: `t${p}`,
      license: null,
    }],
  }]);
  const packed = packExtras(entries, 3000)!;
  deepStrictEqual(extrasEntries(packed), entries);
  equal(extrasEntries(packed)[1500]![1].images![0]!.caption, long);
});

Deno.test("packExtras() shares a non-ASCII URL directory and a non-ASCII short string through the dictionary", () => {
  const dir = "https://x.test/caf\u00e9/\u{1F600}/";
  const image = (name: string) => ({
    loc: dir + name,
    caption: "\u00e7a",
    geoLocation: null,
    title: null,
    license: null,
  });
  const entries: [number, PageExtrasData][] = [
    [0, { images: [image("photo-number-one.jpg")] }],
    [2, { images: [image("photo-num\u00e9ro-deux.jpg")] }],
  ];
  const packed = packExtras(entries, 3)!;
  equal(new TextDecoder().decode(packed.dictText), dir + "\u00e7a");
  // In UTF-16 units: the directory is 23 (the emoji is two), "ça" 2.
  deepStrictEqual([...packed.dictEnds], [23, 25]);
  deepStrictEqual(extrasEntries(packed), entries);
});
