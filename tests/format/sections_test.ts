import assert from "node:assert/strict";
import { sectionsFormat } from "../../src/format/sections.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";
import { IndexWebsiteSitemap, IndexXMLSitemap } from "../../src/objects/sitemap.ts";
import { urlset } from "../_tree_helpers.ts";

const H = "https://site.test";

/** A site: an index of three urlsets, a blog in two of them, the shop in five. */
function shop(): IndexWebsiteSitemap {
  const parsed = (path: string, paths: readonly string[], lastmods: readonly string[] = []) =>
    sitemapFromString(urlset(paths, lastmods), { url: `${H}${path}` });
  return new IndexWebsiteSitemap(`${H}/`, [
    new IndexXMLSitemap(`${H}/index.xml`, [
      parsed("/a.xml", ["/", "/blog/2024/a", "/blog/2025/b"], ["2025-01-02", "2024-03-01", ""]),
      parsed("/b.xml", ["/blog/2024/a", "/shop/chairs/1", "/shop/tables/2"], [
        "",
        "2023-05-06T10:00:00+02:00",
        "2024-12-31",
      ]),
      ...["/c.xml", "/d.xml", "/e.xml"].map((p, i) => parsed(p, [`/shop/lamps/${i}`])),
    ]),
  ]);
}

Deno.test("sectionsFormat() writes one aligned row per section in order of first appearance, then the totals", () => {
  assert.deepEqual(
    [...sectionsFormat(shop(), 1)].join(""),
    [
      "SECTION                 PAGES  SHARE  OLDEST      NEWEST      UNDATED  SITEMAPS",
      "https://site.test/          1  12.5%  2025-01-02  2025-01-02        0  https://site.test/a.xml",
      "https://site.test/blog      2  25.0%  2024-03-01  2024-03-01        1  https://site.test/a.xml https://site.test/b.xml",
      "https://site.test/shop      5  62.5%  2023-05-06  2024-12-31        3  https://site.test/b.xml https://site.test/c.xml https://site.test/d.xml (+1 more)",
      "",
      "3 sections (1 path segment deep), 8 distinct pages",
      "",
    ].join("\n"),
  );
});

Deno.test("sectionsFormat() goes --depth segments deep and strips the site's origin when asked", () => {
  assert.deepEqual(
    [...sectionsFormat(shop(), 2, true)].join(""),
    [
      "SECTION       PAGES  SHARE  OLDEST      NEWEST      UNDATED  SITEMAPS",
      "/                 1  12.5%  2025-01-02  2025-01-02        0  /a.xml",
      "/blog/2024        1  12.5%  2024-03-01  2024-03-01        0  /a.xml /b.xml",
      "/blog/2025        1  12.5%  -           -                 1  /a.xml",
      "/shop/chairs      1  12.5%  2023-05-06  2023-05-06        0  /b.xml",
      "/shop/tables      1  12.5%  2024-12-31  2024-12-31        0  /b.xml",
      "/shop/lamps       3  37.5%  -           -                 3  /c.xml /d.xml /e.xml",
      "",
      "6 sections (2 path segments deep), 8 distinct pages",
      "",
    ].join("\n"),
  );
  assert.deepEqual([...sectionsFormat(new IndexWebsiteSitemap(`${H}/`, []), 0)], [
    "SECTION  PAGES  SHARE  OLDEST  NEWEST  UNDATED  SITEMAPS\n",
    "\n0 sections (0 path segments deep), 0 distinct pages\n",
  ]);
});
