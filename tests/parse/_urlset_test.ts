import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { extras, fixture, pagesOf, parse, rows, urls } from "./_unpack.ts";

const PAGES_URL = "https://www.example.com/sitemap_pages.xml";

Deno.test("urlset fixture: every field, exact values, duplicates dropped", () => {
  const result = pagesOf(parse(fixture("sitemap_pages.xml"), { url: PAGES_URL }));
  equal(result.format, "urlset");
  equal(result.found, 7);
  equal(result.warning, null);
  equal(result.pages.extras, null);
  deepStrictEqual(rows(result.pages), [
    {
      url: "https://www.example.com/",
      lastModified: "2024-06-01T08:30:00.000Z",
      priority: 1,
      changeFrequency: "daily",
    },
    {
      url: "https://www.example.com/about",
      lastModified: "2023-11-15T00:00:00.000Z",
      priority: 0.3,
      changeFrequency: "yearly",
    },
    {
      url: "https://www.example.com/products/",
      lastModified: "2024-05-28T15:05:09.250Z",
      priority: 0.8,
      changeFrequency: "weekly",
    },
    {
      url: "https://www.example.com/products/garden-chair",
      lastModified: "2024-05-01T00:00:00.000Z",
      priority: 0.5,
      changeFrequency: "monthly",
    },
    {
      url: "https://www.example.com/products/garden-table?colour=oak&copy=2",
      lastModified: "2024-01-01T00:00:00.000Z",
      priority: 0.5,
      changeFrequency: null,
    },
    {
      url: "https://www.example.com/blog/",
      lastModified: null,
      priority: 0.9,
      changeFrequency: "hourly",
    },
    {
      url: "https://www.example.com/contact",
      lastModified: null,
      priority: 0.5,
      changeFrequency: null,
    },
  ]);
});

Deno.test("urlset without any namespace reads the same", () => {
  const doc = `<urlset><url><loc>https://www.example.com/a</loc><lastmod>2024-02-03</lastmod>
    <priority>0.7</priority><changefreq>never</changefreq></url></urlset>`;
  deepStrictEqual(rows(pagesOf(parse(doc)).pages), [
    {
      url: "https://www.example.com/a",
      lastModified: "2024-02-03T00:00:00.000Z",
      priority: 0.7,
      changeFrequency: "never",
    },
  ]);
});

Deno.test("urlset namespaces: any prefix, Google's old ones, a misspelt root namespace", () => {
  const docs = [
    `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://www.example.com/a</s:loc></s:url></s:urlset>`,
    `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://www.example.com/a</loc></url></urlset>`,
    `<urlset xmlns="http://www.google.com/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`,
    `<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9/"><url><loc>https://www.example.com/a</loc></url></urlset>`,
    `<urlset xmlns="urn:made-up"><url><loc>https://www.example.com/a</loc></url></urlset>`,
  ];
  for (const doc of docs) {
    deepStrictEqual(urls(pagesOf(parse(doc)).pages), ["https://www.example.com/a"], doc);
  }
});

Deno.test("urlset ignores elements of other namespaces that share a name", () => {
  const doc = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="urn:x">
    <x:url><loc>https://www.example.com/not-a-page</loc></x:url>
    <url><x:loc>https://www.example.com/wrong</x:loc><loc>https://www.example.com/right</loc>
      <x:lastmod>2020-01-01</x:lastmod></url>
  </urlset>`;
  deepStrictEqual(rows(pagesOf(parse(doc)).pages), [
    {
      url: "https://www.example.com/right",
      lastModified: null,
      priority: 0.5,
      changeFrequency: null,
    },
  ]);
});

Deno.test("urlset: padded locs trimmed, relative locs resolved, non-http locs skipped", () => {
  const doc = `<urlset>
    <url><loc>
        https://www.example.com/padded   </loc></url>
    <url><loc>relative/page</loc></url>
    <url><loc>/root-relative</loc></url>
    <url><loc>ftp://www.example.com/file</loc></url>
    <url><loc>mailto:a@example.com</loc></url>
    <url><loc>https://exa mple.com/</loc></url>
    <url><loc></loc></url>
    <url><lastmod>2024-01-01</lastmod></url>
  </urlset>`;
  const result = pagesOf(parse(doc, { url: "https://www.example.com/maps/sitemap.xml" }));
  deepStrictEqual(urls(result.pages), [
    "https://www.example.com/padded",
    "https://www.example.com/maps/relative/page",
    "https://www.example.com/root-relative",
  ]);
  equal(result.found, 3);
});

Deno.test("urlset: priority outside [0, 1] or not a number is 0.5", () => {
  const values = ["1.1", "abc", "", "-0.1", "0x1", "1e-1", " 0.25 ", "0", "1", ".5"];
  const doc = `<urlset>${
    values.map((v, i) =>
      `<url><loc>https://www.example.com/${i}</loc><priority>${v}</priority></url>`
    )
      .join("")
  }</urlset>`;
  deepStrictEqual(rows(pagesOf(parse(doc)).pages).map((r) => r.priority), [
    0.5,
    0.5,
    0.5,
    0.5,
    0.5,
    0.5,
    0.25,
    0,
    1,
    0.5,
  ]);
});

Deno.test("urlset: lastmod that is empty or absurd is absent, never an error", () => {
  const values = ["", "99999999999999999999999", "soon", "2024-02-30", " 2024 "];
  const doc = `<urlset>${
    values.map((v, i) =>
      `<url><loc>https://www.example.com/${i}</loc><lastmod>${v}</lastmod></url>`
    )
      .join("")
  }<url><loc>https://www.example.com/self-closed</loc><lastmod/></url></urlset>`;
  deepStrictEqual(rows(pagesOf(parse(doc)).pages).map((r) => r.lastModified), [
    null,
    null,
    null,
    null,
    "2024-01-01T00:00:00.000Z",
    null,
  ]);
});

Deno.test("urlset: changefreq is case-insensitive and trimmed; unknown is none", () => {
  const values = [" WEEKLY ", "Always", "fortnightly", ""];
  const doc = `<urlset>${
    values.map((v, i) =>
      `<url><loc>https://www.example.com/${i}</loc><changefreq>${v}</changefreq></url>`
    )
      .join("")
  }</urlset>`;
  deepStrictEqual(rows(pagesOf(parse(doc)).pages).map((r) => r.changeFrequency), [
    "weekly",
    "always",
    null,
    null,
  ]);
});

Deno.test("urlset: entities and CDATA decode exactly once", () => {
  const doc = `<urlset>
    <url><loc>https://www.example.com/?a=1&amp;copy=2&amp;amp;x=&#51;</loc></url>
    <url><loc><![CDATA[https://www.example.com/?b=1&c=2]]></loc></url>
    <url><loc>https://www.example.com/<![CDATA[split]]>-&#x41;</loc></url>
  </urlset>`;
  deepStrictEqual(urls(pagesOf(parse(doc)).pages), [
    "https://www.example.com/?a=1&copy=2&amp;x=3",
    "https://www.example.com/?b=1&c=2",
    "https://www.example.com/split-A",
  ]);
});

Deno.test("urlset: the first <loc> of a <url> wins; the first <url> of a URL wins", () => {
  const doc = `<urlset>
    <url><loc>https://www.example.com/a</loc><loc>https://www.example.com/b</loc><priority>0.1</priority></url>
    <url><loc>https://www.example.com/a</loc><priority>0.9</priority></url>
    <url><loc>https://WWW.EXAMPLE.COM/a</loc><priority>0.8</priority></url>
  </urlset>`;
  const result = pagesOf(parse(doc));
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.priority]), [[
    "https://www.example.com/a",
    0.1,
  ]]);
  equal(result.found, 1);
});

Deno.test("urlset: since keeps pages modified at or after it, and undated ones", () => {
  const doc = `<urlset>
    <url><loc>https://www.example.com/old</loc><lastmod>2024-01-01</lastmod></url>
    <url><loc>https://www.example.com/new</loc><lastmod>2024-06-01T00:00:01Z</lastmod></url>
    <url><loc>https://www.example.com/undated</loc></url>
    <url><loc>https://www.example.com/edge</loc><lastmod>2024-06-01</lastmod></url>
  </urlset>`;
  const result = pagesOf(parse(doc, { since: Date.UTC(2024, 5, 1) }));
  deepStrictEqual(urls(result.pages), [
    "https://www.example.com/new",
    "https://www.example.com/undated",
    "https://www.example.com/edge",
  ]);
  equal(result.found, 4);
  equal(pagesOf(parse(doc, { since: NaN })).pages.count, 4);
});

Deno.test("urlset: Google News fields, exact", () => {
  const result = pagesOf(parse(fixture("sitemap_news.xml")));
  deepStrictEqual(urls(result.pages), [
    "https://www.example.com/news/2024/06/garden-season-opens",
    "https://www.example.com/news/2024/05/oak-prices",
  ]);
  deepStrictEqual(
    extras(result.pages),
    new Map<number, unknown>([[0, {
      newsStory: {
        title: "Garden season opens: chairs & tables",
        publishDate: Date.UTC(2024, 5, 1, 7),
        publicationName: "The Example Times",
        publicationLanguage: "en",
        access: "Subscription",
        genres: ["PressRelease", "Blog"],
        keywords: ["garden", "furniture", "summer"],
        stockTickers: ["NASDAQ:EXMP", "NYSE:GRDN"],
      },
    }], [1, {
      newsStory: {
        title: "Oak prices <up> again",
        publishDate: Date.UTC(2024, 4, 30),
        publicationName: "The Example Times",
        publicationLanguage: "en",
        access: null,
        genres: [],
        keywords: [],
        stockTickers: [],
      },
    }]]),
  );
});

Deno.test("urlset: Image and Video fields, exact", () => {
  const result = pagesOf(parse(fixture("sitemap_media.xml")));
  deepStrictEqual(
    extras(result.pages),
    new Map<number, unknown>([[0, {
      images: [{
        loc: "https://www.example.com/images/garden-chair.jpg",
        caption: "The garden chair, in oak",
        geoLocation: "Lyon, France",
        title: "Garden chair",
        license: "https://www.example.com/image-license",
      }, {
        loc: "https://www.example.com/images/garden-chair-side.jpg",
        caption: null,
        geoLocation: null,
        title: null,
        license: null,
      }],
    }], [1, {
      videos: [{
        thumbnailLoc: "https://www.example.com/thumbs/table.jpg",
        title: "Assembling the garden table",
        description: "Five minutes, one hex key.",
        contentLoc: "https://cdn.example.com/video/table.mp4",
        playerLoc: "https://www.example.com/player?video=table",
        duration: 300,
        expirationDate: Date.UTC(2030, 11, 31, 23, 59, 59),
        rating: 4.5,
        viewCount: 12345,
        publicationDate: Date.UTC(2024, 3, 2, 10),
        familyFriendly: true,
        requiresSubscription: false,
        live: false,
        uploader: "Example Studio",
        tags: ["garden", "how-to"],
      }],
    }]]),
  );
});

Deno.test("urlset: absent video dates and numbers come out as null in the extras JSON", () => {
  const doc = `<urlset xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
    <url><loc>https://www.example.com/v</loc><video:video><video:title>T</video:title>
    <video:duration>long</video:duration><video:family_friendly>maybe</video:family_friendly>
    </video:video></url></urlset>`;
  deepStrictEqual(extras(pagesOf(parse(doc)).pages).get(0), {
    videos: [{
      thumbnailLoc: null,
      title: "T",
      description: null,
      contentLoc: null,
      playerLoc: null,
      duration: null,
      expirationDate: null,
      rating: null,
      viewCount: null,
      publicationDate: null,
      familyFriendly: null,
      requiresSubscription: null,
      live: null,
      uploader: null,
      tags: [],
    }],
  });
});

Deno.test("urlset: an image without a loc is dropped", () => {
  const doc = `<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    <url><loc>https://www.example.com/p</loc><image:image><image:title>No loc</image:title></image:image></url>
  </urlset>`;
  equal(extras(pagesOf(parse(doc)).pages).size, 0);
});

Deno.test("urlset: xhtml:link alternates, exact; other rels and incomplete links ignored", () => {
  const result = pagesOf(parse(fixture("sitemap_alternates.xml")));
  deepStrictEqual(extras(result.pages).get(1), {
    alternates: [
      { hreflang: "en", href: "https://www.example.com/en/about" },
      { hreflang: "fr", href: "https://www.example.com/fr/a-propos" },
      { hreflang: "x-default", href: "https://www.example.com/about" },
    ],
  });
  const doc =
    `<urlset xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://www.example.com/p</loc>
    <xhtml:link rel="canonical" hreflang="en" href="https://www.example.com/c"/>
    <xhtml:link rel="alternate" href="https://www.example.com/no-lang"/>
    <xhtml:link rel="alternate" hreflang="de"/>
    <xhtml:link rel="Alternate" hreflang=" de " href="/de/p"/>
  </url></urlset>`;
  deepStrictEqual(extras(pagesOf(parse(doc)).pages).get(0), {
    alternates: [{ hreflang: "de", href: "https://www.example.com/de/p" }],
  });
});

Deno.test("urlset: extension elements without namespace declarations still count", () => {
  const doc = `<urlset><url><loc>https://www.example.com/p</loc>
    <news><publication><name>N</name><language>de</language></publication><title>T</title></news>
    <image><loc>https://www.example.com/i.png</loc></image>
  </url></urlset>`;
  deepStrictEqual(extras(pagesOf(parse(doc)).pages).get(0), {
    newsStory: {
      title: "T",
      publishDate: null,
      publicationName: "N",
      publicationLanguage: "de",
      access: null,
      genres: [],
      keywords: [],
      stockTickers: [],
    },
    images: [{
      loc: "https://www.example.com/i.png",
      caption: null,
      geoLocation: null,
      title: null,
      license: null,
    }],
  });
});

Deno.test("urlset: a field longer than 64 KiB across CDATA sections is dropped, not buffered", () => {
  const part = `<![CDATA[${"a".repeat(40_000)}]]>`;
  const doc = `<urlset>
    <url><loc>https://www.example.com/${part}${part}</loc></url>
    <url><loc>https://www.example.com/ok</loc><lastmod>${part}${part}</lastmod></url>
  </urlset>`;
  const result = pagesOf(parse(doc));
  deepStrictEqual(rows(result.pages), [
    { url: "https://www.example.com/ok", lastModified: null, priority: 0.5, changeFrequency: null },
  ]);
});
