import assert from "node:assert/strict";
import {
  csvField,
  csvFormat,
  formatStats,
  histogramFormat,
  jsonFormat,
  ndjsonFormat,
  pagesFormat,
} from "../../src/cli/_output.ts";
import { formatBytes, formatCount, formatDuration, formatSeconds } from "../../src/cli/_units.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";
import { sitemapTreeFromJSON } from "../../src/objects/from_json.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
} from "../../src/objects/page.ts";
import {
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "../../src/objects/sitemap.ts";
import { EMPTY_STATS, type SitemapTreeStats } from "../../src/stats.ts";

const H = "https://example.com";

/** website -> robots -> index -> [urlset (3 pages), invalid], then a text sitemap at a well-known path. */
function tree(): IndexWebsiteSitemap {
  const urlset = new PagesXMLSitemap(`${H}/pages.xml`, [
    new SitemapPage({
      url: `${H}/`,
      priority: 1,
      lastModified: new Date("2024-05-01T00:00:00Z"),
      changeFrequency: "daily",
    }),
    new SitemapPage({
      url: `${H}/news/a,"b"`,
      newsStory: new SitemapNewsStory({ title: "Launch", publicationName: "Example News" }),
      images: [new SitemapImage({ loc: `${H}/a.png`, caption: "A" })],
      alternates: [new SitemapAlternate({ hreflang: "de", href: `${H}/de/news/a` })],
    }),
    new SitemapPage({ url: "https://cdn.example.org/elsewhere" }),
  ]);
  const missing = new InvalidSitemap(
    `${H}/missing.xml`,
    "Unable to fetch sitemap from URL: 404 Not Found",
  );
  const index = new IndexXMLSitemap(`${H}/index.xml`, [urlset, missing], [
    new Date("2024-04-01T00:00:00Z"),
    null,
  ]);
  const robots = new IndexRobotsTxtSitemap(`${H}/robots.txt`, [index]);
  const text = new PagesTextSitemap(`${H}/sitemap`, [new SitemapPage({ url: `${H}/t?x=1` })]);
  return new IndexWebsiteSitemap(`${H}/`, [robots, text]);
}

Deno.test("pagesFormat() prints page URLs in tree order, -u strips only the site's origin", () => {
  assert.equal(
    [...pagesFormat(tree(), false)].join(""),
    `${H}/\n${H}/news/a,"b"\nhttps://cdn.example.org/elsewhere\n${H}/t?x=1\n`,
  );
  assert.equal(
    [...pagesFormat(tree(), true)].join(""),
    `/\n/news/a,"b"\nhttps://cdn.example.org/elsewhere\n/t?x=1\n`,
  );
});

Deno.test("ndjsonFormat() writes one object per page with its sitemap, extensions only when present", () => {
  const lines = [...ndjsonFormat(tree())];
  assert.ok(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n")));
  assert.deepEqual(lines.map((line) => JSON.parse(line)), [
    {
      url: `${H}/`,
      sitemap: `${H}/pages.xml`,
      lastModified: "2024-05-01T00:00:00.000Z",
      priority: 1,
      changeFrequency: "daily",
    },
    {
      url: `${H}/news/a,"b"`,
      sitemap: `${H}/pages.xml`,
      lastModified: null,
      priority: 0.5,
      changeFrequency: null,
      newsStory: {
        title: "Launch",
        publishDate: null,
        publicationName: "Example News",
        publicationLanguage: null,
        access: null,
        genres: [],
        keywords: [],
        stockTickers: [],
      },
      images: [{ loc: `${H}/a.png`, caption: "A", geoLocation: null, title: null, license: null }],
      alternates: [{ hreflang: "de", href: `${H}/de/news/a` }],
    },
    {
      url: "https://cdn.example.org/elsewhere",
      sitemap: `${H}/pages.xml`,
      lastModified: null,
      priority: 0.5,
      changeFrequency: null,
    },
    {
      url: `${H}/t?x=1`,
      sitemap: `${H}/sitemap`,
      lastModified: null,
      priority: 0.5,
      changeFrequency: null,
    },
  ]);
  assert.equal(
    lines[0],
    `{"url":"${H}/","sitemap":"${H}/pages.xml","lastModified":"2024-05-01T00:00:00.000Z","priority":1,"changeFrequency":"daily"}\n`,
  );
});

Deno.test("csvFormat() writes a header and RFC 4180 rows with CRLF", () => {
  assert.equal(
    [...csvFormat(tree())].join(""),
    "url,lastmod,changefreq,priority,sitemap\r\n" +
      `${H}/,2024-05-01T00:00:00.000Z,daily,1,${H}/pages.xml\r\n` +
      `"${H}/news/a,""b""",,,0.5,${H}/pages.xml\r\n` +
      `https://cdn.example.org/elsewhere,,,0.5,${H}/pages.xml\r\n` +
      `${H}/t?x=1,,,0.5,${H}/sitemap\r\n`,
  );
  assert.deepEqual(
    ["plain", "a,b", 'say "hi"', "line\nbreak", "cr\r"].map(csvField),
    ["plain", '"a,b"', '"say ""hi"""', '"line\nbreak"', '"cr\r"'],
  );
});

Deno.test("jsonFormat() streams exactly JSON.stringify(tree.toJSON()) and reads back", () => {
  const root = tree();
  const pieces = [...jsonFormat(root)];
  assert.ok(pieces.length > 10, "written in pieces, not as one string");
  const text = pieces.join("");
  assert.equal(text, JSON.stringify(root.toJSON()) + "\n");
  const back = sitemapTreeFromJSON(JSON.parse(text));
  assert.deepEqual(back.toJSON(), root.toJSON());
  const empty = new IndexWebsiteSitemap(`${H}/`, []);
  assert.equal([...jsonFormat(empty)].join(""), JSON.stringify(empty.toJSON()) + "\n");
});

Deno.test("formatStats() reports types in a fixed order, invalid reasons and sizes", () => {
  const stats: SitemapTreeStats = {
    ...EMPTY_STATS,
    sitemapsByType: { invalid: 1, urlset: 2, robots: 1, index: 1 },
    invalid: [{
      url: `${H}/missing.xml`,
      reason: "Unable to fetch sitemap from URL: 404 Not Found",
    }],
    warnings: [],
    requests: 19,
    bytesDownloaded: 18_400_000,
    bytesDecompressed: 912,
    pagesFound: 240_118,
    pagesKept: 12_000,
    parseMs: 12.34,
    elapsedMs: 2345.6,
    parsed: 4,
    unchanged: 0,
    notModified: 0,
    skipped: 0,
    cacheErrors: [],
    fetches: [],
  };
  assert.deepEqual(formatStats(stats), [
    "sitemaps      5 (robots 1, index 1, urlset 2, invalid 1)",
    "invalid       1",
    `  ${H}/missing.xml: Unable to fetch sitemap from URL: 404 Not Found`,
    "requests      19",
    "downloaded    18.4 MB",
    "decompressed  912 B",
    "pages         240,118 found, 12,000 kept",
    "parse time    12.3 ms",
    "elapsed       2.3 s",
  ]);
  const partial = formatStats({
    ...stats,
    sitemapsByType: {},
    invalid: [],
    warnings: [{ url: `${H}/cut.xml`, warning: "Truncated XML after 3 entries" }],
  });
  assert.deepEqual(partial.slice(0, 4), [
    "sitemaps      0",
    "invalid       0",
    "read in part  1",
    `  ${H}/cut.xml: Truncated XML after 3 entries`,
  ]);
  const incremental = formatStats({
    ...stats,
    notModified: 3,
    skipped: 2,
    unchanged: 5,
    cacheErrors: [{ url: `${H}/a.xml`, reason: "Cache entry is corrupt: checksum mismatch" }],
  });
  assert.deepEqual(incremental.slice(6, 12), [
    "pages         240,118 found, 12,000 kept",
    "not modified  3 (304, reused from the cache)",
    "skipped       2 (index lastmod before --since)",
    "cache errors  1",
    `  ${H}/a.xml: Cache entry is corrupt: checksum mismatch`,
    "parse time    12.3 ms",
  ]);
});

Deno.test("units format counts, bytes and durations without the locale", () => {
  assert.deepEqual([0, 999, 1000, 240118, 1234567].map(formatCount), [
    "0",
    "999",
    "1,000",
    "240,118",
    "1,234,567",
  ]);
  assert.deepEqual([0, 999, 1000, 12_345, 999_999, 18_400_000, 2e9].map(formatBytes), [
    "0 B",
    "999 B",
    "1.0 kB",
    "12.3 kB",
    "1.0 MB",
    "18.4 MB",
    "2.0 GB",
  ]);
  assert.deepEqual([0, 12.34, 999.9, 999.96, 2345].map(formatDuration), [
    "0.0 ms",
    "12.3 ms",
    "999.9 ms",
    "1.0 s",
    "2.3 s",
  ]);
  assert.equal(formatSeconds(2345), "2.3 s");
});

Deno.test("histogramFormat() folds three or more empty months into one row, and decades into years", () => {
  const doc = (dates: string[]): string =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
      dates.map((d, i) =>
        `<url><loc>https://a.test/${i}</loc>${d === "" ? "" : `<lastmod>${d}</lastmod>`}</url>`
      )
        .join("")
    }</urlset>`;
  const chart = (dates: string[]): string[] => [
    ...histogramFormat(sitemapFromString(doc(dates), { url: "https://a.test/s.xml" })),
  ];
  assert.deepEqual(chart(["2024-01-03", "2024-01-20", "2024-05-01", ""]), [
    `2024-01          2  ${"█".repeat(50)}\n`,
    "2024-02–2024-04  0\n",
    `2024-05          1  ${"█".repeat(25)}\n`,
    `no date          1  ${"█".repeat(25)}\n`,
  ]);
  assert.deepEqual(chart(["2001-06-01", "2003-01-01", "2024-12-31", "2024-01-01"]), [
    `2001       1  ${"█".repeat(25)}\n`,
    "2002       0\n",
    `2003       1  ${"█".repeat(25)}\n`,
    "2004–2023  0\n",
    `2024       2  ${"█".repeat(50)}\n`,
  ]);
  assert.deepEqual(chart([]), ["no pages\n"]);
});
