import assert from "node:assert/strict";
import {
  csvField,
  csvFormat,
  jsonFormat,
  ndjsonFormat,
  pagesFormat,
} from "../../src/format/page_records.ts";
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
