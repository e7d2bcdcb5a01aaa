import assert from "node:assert/strict";
import { compareSitemapTrees } from "../../src/changes.ts";
import { changeLines, changeTabTree } from "../../src/format/changes.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
} from "../../src/objects/page.ts";
import {
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesXMLSitemap,
} from "../../src/objects/sitemap.ts";

const H = "https://example.com";

function site(...children: (PagesXMLSitemap | InvalidSitemap)[]): IndexWebsiteSitemap {
  return new IndexWebsiteSitemap(`${H}/`, [new IndexXMLSitemap(`${H}/index.xml`, children)]);
}

Deno.test("changeTabTree() shows each changed field before → after, in full JSON when the short form is the same", () => {
  const before = site(
    new PagesXMLSitemap(`${H}/a.xml`, [
      new SitemapPage({
        url: `${H}/p`,
        lastModified: new Date("2024-01-01T12:30:00Z"),
        priority: 0.5,
        changeFrequency: "daily",
        images: [new SitemapImage({ loc: `${H}/i.png`, caption: "Front" })],
        alternates: [new SitemapAlternate({ hreflang: "en", href: `${H}/en/p` })],
        newsStory: new SitemapNewsStory({ title: "Old" }),
      }),
    ]),
  );
  const after = site(
    new PagesXMLSitemap(`${H}/a.xml`, [
      new SitemapPage({
        url: `${H}/p`,
        lastModified: new Date("2024-01-02T00:00:00.500Z"),
        priority: 0.8,
        changeFrequency: null,
        images: [new SitemapImage({ loc: `${H}/i.png`, caption: "Side" })],
        alternates: [new SitemapAlternate({ hreflang: "de", href: `${H}/de/p` })],
        newsStory: null,
      }),
    ]),
  );
  assert.deepEqual([...changeTabTree(compareSitemapTrees(before, after), H)], [
    "  /a.xml\n",
    "~   /p  lastModified 2024-01-01T12:30:00Z → 2024-01-02T00:00:00.500Z; changeFrequency daily → -; " +
    "priority 0.5 → 0.8; " +
    `images [{"loc":"${H}/i.png","caption":"Front","geoLocation":null,"title":null,"license":null}] → ` +
    `[{"loc":"${H}/i.png","caption":"Side","geoLocation":null,"title":null,"license":null}]; ` +
    `alternates [en=${H}/en/p] → [de=${H}/de/p]; newsStory "Old" → -\n`,
  ]);
});

Deno.test("changeTabTree() marks sitemaps added, removed, invalid and recovered; page lines of an unavailable sitemap carry no repeated reason", () => {
  const page = (path: string) => new SitemapPage({ url: `${H}${path}` });
  const before = site(
    new PagesXMLSitemap(`${H}/a.xml`, [page("/a")]),
    new InvalidSitemap(`${H}/b.xml`, "Unable to fetch sitemap from URL: 500 Internal Server Error"),
    new InvalidSitemap(`${H}/c.xml`, "Sitemap expands past 10 bytes"),
    new PagesXMLSitemap(`${H}/gone.xml`, [page("/g")]),
  );
  const after = site(
    new InvalidSitemap(`${H}/a.xml`, "Unable to fetch sitemap from URL: 503 Service Unavailable"),
    new PagesXMLSitemap(`${H}/b.xml`, [page("/b")]),
    new InvalidSitemap(`${H}/c.xml`, "Sitemap expands past 20 bytes"),
    new InvalidSitemap(`${H}/new.xml`, "Unable to fetch sitemap from URL: 404 Not Found"),
  );
  const changes = compareSitemapTrees(before, after);
  assert.deepEqual([...changeTabTree(changes, H)], [
    "~ /a.xml  urlset → invalid: Unable to fetch sitemap from URL: 503 Service Unavailable\n",
    "?   /a\n",
    "~ /b.xml  invalid → urlset\n",
    "+   /b\n",
    "~ /c.xml  reason: Sitemap expands past 10 bytes → Sitemap expands past 20 bytes\n",
    "+ /new.xml  invalid: Unable to fetch sitemap from URL: 404 Not Found\n",
    "- /gone.xml  urlset\n",
    "-   /g\n",
  ]);
  assert.deepEqual([...changeLines(compareSitemapTrees(after, after))], []);
  assert.deepEqual([...changeTabTree(compareSitemapTrees(after, after))], ["no changes\n"]);
  assert.equal(
    [...changeLines(changes, `${H}/`)][1],
    `{"site":"${H}/","change":"unavailable","page":"${H}/a","sitemap":"${H}/a.xml","reason":"Unable to fetch sitemap from URL: 503 Service Unavailable"}\n`,
  );
});
