import assert from "node:assert/strict";
import { packExtras } from "../../src/parse/_extras.ts";
import type { PackedExtras, PackedPages } from "../../src/parse/_result.ts";
import {
  checkPackedPages,
  iteratePackedPages,
  iteratePages,
  materialisePackedPages,
  type PageSource,
} from "../../src/objects/_packed_pages.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "../../src/objects/page.ts";

const URLS = ["https://例え.jp/ä?q=ü", "https://example.com/a", "https://x.test/😀/ß"];

/** Written by hand, as a parser in a worker would hand it over. */
function handPacked(): PackedPages {
  return {
    count: 3,
    urlBytes: new TextEncoder().encode(URLS.join("")),
    // UTF-16 offsets: 例, え, ä, ü are one unit each, 😀 is two; the bytes are 68 long.
    urlEnds: new Uint32Array([19, 40, 59]),
    lastModified: new Float64Array([Date.UTC(2024, 0, 2), NaN, 0]),
    priority: new Float64Array([0.5, 1, 0.1]),
    changeFrequency: new Uint8Array([0, 3, 7]),
    extras: packExtras([
      [0, {
        newsStory: {
          title: "Neu",
          publishDate: NaN,
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
    ], 3),
  };
}

/**
 * Pages as toJSON() writes them, with their class: a page's extensions are
 * getters (built on first read), which deepStrictEqual on the objects skips.
 */
function json(pages: readonly SitemapPage[]): unknown[] {
  return pages.map((page) => [page.constructor.name, page.toJSON()]);
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
  assert.deepStrictEqual(json([...iteratePackedPages(handPacked())]), json(EXPECTED));
});

Deno.test("materialisePackedPages() builds the same pages as iteratePackedPages()", () => {
  assert.deepStrictEqual(json(materialisePackedPages(handPacked())), json(EXPECTED));
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
  const packed = { ...handPacked(), count: 2, extras: null };
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
    extras: null,
  };
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.url), urls);
});

/** ASCII URLs packed as a parser packs them: one byte per character, ends in bytes. */
function asciiPacked(urls: readonly string[]): PackedPages {
  let end = 0;
  return {
    count: urls.length,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds: Uint32Array.from(urls, (url) => (end += url.length)),
    lastModified: new Float64Array(urls.length).fill(NaN),
    priority: new Float64Array(urls.length).fill(0.5),
    changeFrequency: new Uint8Array(urls.length),
    extras: null,
  };
}

Deno.test("iteratePackedPages() reads every URL whole across the stretches it decodes at a time", () => {
  // ~190 KB of URLs of 24 to 143 characters, so many stretch ends fall inside
  // a URL, and one URL of 40,000 characters, longer than a stretch.
  const urls = Array.from(
    { length: 2500 },
    (_, i) => `https://example.com/${"x".repeat((i * 37) % 120)}/${i}`,
  );
  urls.splice(1234, 0, `https://example.com/${"long".repeat(10_000)}`);
  assert.deepEqual([...iteratePackedPages(asciiPacked(urls))].map((p) => p.url), urls);
});

Deno.test("iteratePackedPages() reads a long column of non-ASCII URLs by UTF-16 offsets", () => {
  // Fewer units than bytes: ends are not byte offsets, so no stretch may be cut by bytes.
  const urls = Array.from(
    { length: 2000 },
    (_, i) => `https://例え.jp/ü/${i}/${"ß".repeat(i % 30)}`,
  );
  let end = 0;
  const packed: PackedPages = {
    ...asciiPacked(urls),
    urlEnds: Uint32Array.from(urls, (url) => (end += url.length)),
  };
  assert.ok(packed.urlBytes.length > 64 << 10);
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.url), urls);
});

Deno.test("iteratePackedPages() decodes lone invalid bytes across stretch ends as the whole text would", () => {
  // 0xFF is one U+FFFD wherever it stands, so ends in bytes still match the text.
  const parts: Uint8Array[] = [];
  const ends: number[] = [];
  let end = 0;
  for (let i = 0; i < 1500; i++) {
    const url = new TextEncoder().encode(`https://example.com/${i}/${"y".repeat(i % 40)}?`);
    const bytes = new Uint8Array(url.length + 1);
    bytes.set(url);
    bytes[url.length] = 0xff;
    parts.push(bytes);
    ends.push(end += bytes.length);
  }
  const urlBytes = new Uint8Array(end);
  let at = 0;
  for (const part of parts) {
    urlBytes.set(part, at);
    at += part.length;
  }
  const packed: PackedPages = {
    ...asciiPacked([]),
    count: ends.length,
    urlBytes,
    urlEnds: Uint32Array.from(ends),
    lastModified: new Float64Array(ends.length),
    priority: new Float64Array(ends.length),
    changeFrequency: new Uint8Array(ends.length),
  };
  const urls = [...iteratePackedPages(packed)].map((p) => p.url);
  assert.equal(urls.length, 1500);
  assert.equal(urls[0], "https://example.com/0/?\uFFFD");
  assert.equal(urls[1499], `https://example.com/1499/${"y".repeat(19)}?\uFFFD`);
  assert.equal(urls.join(""), new TextDecoder().decode(urlBytes));
});

Deno.test("iteratePackedPages() maps an unknown change-frequency code to null", () => {
  const packed = { ...handPacked(), changeFrequency: new Uint8Array([8, 1, 255]) };
  assert.deepEqual([...iteratePackedPages(packed)].map((p) => p.changeFrequency), [
    null,
    "always",
    null,
  ]);
});

/** Plain pages `/p0`, `/p1`, ... with priority i / 10, packed; `extras` as in PackedPages. */
function plainPacked(count: number, extras: PackedExtras | null = null): PackedPages {
  const urls = Array.from({ length: count }, (_, i) => `https://example.com/p${i}`);
  let end = 0;
  return {
    count,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds: Uint32Array.from(urls, (url) => (end += url.length)),
    lastModified: Float64Array.from(urls, (_, i) => Date.UTC(2024, 0, 1 + i)),
    priority: Float64Array.from(urls, (_, i) => i / 10),
    changeFrequency: Uint8Array.from(urls, (_, i) => i % 8),
    extras,
  };
}

const IMAGE = {
  loc: "https://example.com/i.png",
  caption: null,
  geoLocation: null,
  title: null,
  license: null,
};

Deno.test("iteratePages() builds equal pages, as fresh objects, on every traversal", () => {
  const packed = handPacked();
  const first = [...iteratePages([packed])];
  const second = [...iteratePages([packed])];
  assert.deepStrictEqual(json(first), json(EXPECTED));
  assert.deepStrictEqual(json(second), json(EXPECTED));
  assert.notEqual(first[0], second[0]);
});

Deno.test("iteratePages() puts extras interleaved with plain pages in order, across sources", () => {
  const held = [new SitemapPage({ url: "https://example.com/held" })];
  const sources: PageSource[] = [
    plainPacked(5, packExtras([[1, { images: [IMAGE] }], [3, { images: [IMAGE, IMAGE] }]], 5)),
    plainPacked(0),
    held,
    [],
    plainPacked(2, packExtras([[0, { alternates: [{ hreflang: "de", href: "x" }] }]], 2)),
  ];
  const pages = [...iteratePages(sources)];
  assert.deepEqual(
    pages.map((p) => [
      p.url.slice(20),
      p.priority,
      p.lastModified?.toISOString().slice(0, 10) ?? null,
      p.changeFrequency,
      p.images.length,
      p.alternates.length,
    ]),
    [
      ["p0", 0, "2024-01-01", null, 0, 0],
      ["p1", 0.1, "2024-01-02", "always", 1, 0],
      ["p2", 0.2, "2024-01-03", "hourly", 0, 0],
      ["p3", 0.3, "2024-01-04", "daily", 2, 0],
      ["p4", 0.4, "2024-01-05", "weekly", 0, 0],
      ["held", 0.5, null, null, 0, 0],
      ["p0", 0, "2024-01-01", null, 0, 1],
      ["p1", 0.1, "2024-01-02", "always", 0, 0],
    ],
  );
  assert.equal(pages[5], held[0]);
  assert.ok(Object.isFrozen(pages[1]!.images));
});

Deno.test("iteratePages() stops at break, and the traversal then stays finished", () => {
  const pages = iteratePages([plainPacked(3), plainPacked(3)]);
  const seen: string[] = [];
  for (const page of pages) {
    seen.push(page.url.slice(20));
    if (seen.length === 4) break;
  }
  assert.deepEqual(seen, ["p0", "p1", "p2", "p0"]);
  assert.deepEqual(pages.next(), { value: undefined, done: true });
  assert.deepEqual([...pages], []);
});

Deno.test("iteratePages() answers next(), return() and throw() as a generator does", () => {
  const pages = iteratePages([plainPacked(2)]);
  assert.equal(pages[Symbol.iterator](), pages);
  const first = pages.next();
  assert.deepEqual([first.done, first.value?.url], [false, "https://example.com/p0"]);
  assert.deepEqual(pages.return(), { value: undefined, done: true });
  assert.deepEqual(pages.next(), { value: undefined, done: true });

  const thrown = iteratePages([plainPacked(2)]);
  thrown.next();
  const error = new Error("Stop");
  assert.throws(() => thrown.throw(error), (e) => e === error);
  assert.deepEqual(thrown.next(), { value: undefined, done: true });
  assert.deepEqual(iteratePages([]).next(), { value: undefined, done: true });
});

Deno.test("iteratePages() has the iterator helpers a generator has", () => {
  const urls = (pages: Iterable<SitemapPage>) => [...pages].map((p) => p.url.slice(20));
  assert.deepEqual(urls(iteratePages([plainPacked(3)]).drop(1)), ["p1", "p2"]);
  assert.deepEqual(urls(iteratePages([plainPacked(3)]).filter((p) => p.priority > 0)), [
    "p1",
    "p2",
  ]);
  assert.deepEqual(iteratePages([plainPacked(3)]).take(1).toArray().length, 1);
});

Deno.test("iteratePages() reads each source only when the pages before it are used up", () => {
  const pulled: number[] = [];
  function* sources(): Generator<PageSource> {
    for (let i = 0; i < 2; i++) {
      pulled.push(i);
      yield plainPacked(2);
    }
  }
  const pages = iteratePages(sources());
  assert.deepEqual(pulled, []);
  pages.next();
  pages.next();
  assert.deepEqual(pulled, [0]);
  pages.next();
  assert.deepEqual(pulled, [0, 1]);
});

Deno.test("a page with malformed extras columns throws when its extensions are read", () => {
  // Page 0 says it has records, but they stop after the mask that announces images.
  const extras = {
    dictText: new Uint8Array(0),
    dictEnds: new Uint32Array(0),
    data: new Uint8Array([2]),
    pageStarts: new Uint32Array([0, 1, 1]),
  };
  const pages = iteratePages([{ ...plainPacked(2), extras }, plainPacked(1)]);
  const first = pages.next().value!;
  // Extensions are built when first read: the URL is there, the images throw.
  assert.equal(first.url, "https://example.com/p0");
  assert.throws(() => first.images, {
    name: "RangeError",
    message: "Extras records end inside a page",
  });
  assert.throws(() => first.toJSON(), {
    name: "RangeError",
    message: "Extras records end inside a page",
  });
  assert.deepEqual([...pages].map((page) => page.url), [
    "https://example.com/p1",
    "https://example.com/p0",
  ]);
});

Deno.test("a packed page builds its extensions once: each read returns the same frozen objects", () => {
  const packed = plainPacked(
    3,
    packExtras([[1, {
      images: [IMAGE, IMAGE],
      alternates: [{ hreflang: "de", href: "https://example.com/de/1" }],
      newsStory: {
        title: "T",
        publishDate: NaN,
        publicationName: null,
        publicationLanguage: null,
        access: null,
        genres: ["Blog"],
        keywords: [],
        stockTickers: [],
      },
    }]], 3),
  );
  const [, page] = iteratePages([packed]);
  const images = page!.images;
  assert.equal(page!.images, images);
  assert.equal(Object.isFrozen(images), true);
  assert.equal(images.length, 2);
  assert.equal(images[0]!.loc, IMAGE.loc);
  assert.equal(page!.alternates, page!.alternates);
  assert.equal(Object.isFrozen(page!.alternates), true);
  assert.deepEqual(page!.alternates.map((a) => a.toJSON()), [
    { hreflang: "de", href: "https://example.com/de/1" },
  ]);
  assert.equal(page!.newsStory, page!.newsStory);
  assert.deepEqual(page!.newsStory!.genres, ["Blog"]);
  assert.equal(page!.videos, page!.videos);
  assert.equal(page!.videos.length, 0);
  assert.equal(Object.isFrozen(page!.videos), true);
  // A second traversal builds its own page, equal by value.
  const [, again] = iteratePages([packed]);
  assert.notEqual(again!.images, images);
  assert.deepEqual(again!.toJSON(), page!.toJSON());
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

Deno.test("checkPackedPages() rejects extras columns that do not cover every page", () => {
  const extras = packExtras([[1, { alternates: [{ hreflang: "de", href: "x" }] }]], 2)!;
  assert.throws(
    () => checkPackedPages({ ...plainPacked(3), extras }),
    {
      name: "RangeError",
      message: "Expected PackedPages.extras.pageStarts to hold 4 entries but it holds 3",
    },
  );
  assert.throws(
    () =>
      checkPackedPages({
        ...plainPacked(2),
        extras: { ...extras, pageStarts: new Uint32Array([0, 99, 5]) },
      }),
    {
      name: "RangeError",
      message:
        `Expected PackedPages.extras.pageStarts[1] to be between 0 and ${extras.data.length} but got 99`,
    },
  );
});
