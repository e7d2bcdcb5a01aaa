/** The `extensions` option: when a urlset's extension blocks are decoded, everywhere options flow. */
import assert from "node:assert/strict";
import { realisticUrlset } from "../fixtures/realistic.ts";
import { AbstractPagesSitemap, type AbstractSitemap } from "../src/objects/sitemap.ts";
import { pagesColumns } from "../src/objects/_columns.ts";
import { keptExtrasStats } from "../src/parse/_kept_extras.ts";
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { sitemapTreeForHomepage, sitemapTreeForSitemap } from "../src/sitemap_tree.ts";
import { streamPages } from "../src/stream_pages.ts";
import { sitemapTreesForHomepages } from "../src/many_sites.ts";
import { FixtureSite, withSite } from "./_tree_helpers.ts";

/** 600 realistic pages (images, hreflang, news, videos among them), gzipped as a `.xml.gz`. */
const XML = realisticUrlset(600, 3);

function site(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/s.xml.gz\n`)
    .file("/s.xml.gz", XML, { gzip: "file" });
}

/** The form of each pages node's extensions: "kept" (bytes), "decoded" (columns) or "none". */
function forms(root: AbstractSitemap): string[] {
  const out: string[] = [];
  const walk = (node: AbstractSitemap): void => {
    if (node instanceof AbstractPagesSitemap) {
      const extras = pagesColumns(node).extras;
      out.push(extras === null ? "none" : extras.kind === "kept" ? "kept" : "decoded");
    }
    for (const child of node.subSitemaps) walk(child);
  };
  walk(root);
  return out;
}

/** `root.toJSON()` and how many kept sitemaps reading it decoded. */
function jsonAndDecodes(root: AbstractSitemap): { json: unknown; decodes: number } {
  const before = keptExtrasStats.decodes;
  const json = root.toJSON();
  return { json, decodes: keptExtrasStats.decodes - before };
}

Deno.test('sitemapTreeForSitemap() with extensions: "eager" has the parse worker decode them; the tree is the same', async () => {
  await withSite(site(), async (server) => {
    const url = server.url("/s.xml.gz");
    const lazy = await sitemapTreeForSitemap(url, { workers: 1 });
    const eager = await sitemapTreeForSitemap(url, { workers: 1, extensions: "eager" });
    assert.deepStrictEqual([forms(lazy), forms(eager)], [["kept"], ["decoded"]]);
    const fromLazy = jsonAndDecodes(lazy);
    const fromEager = jsonAndDecodes(eager);
    assert.deepStrictEqual([fromLazy.decodes, fromEager.decodes], [1, 0]);
    assert.deepStrictEqual(fromEager.json, fromLazy.json);
  });
});

Deno.test('extensions: "eager" reaches sitemapTreeForHomepage(), streamPages() and sitemapTreesForHomepages()', async () => {
  await withSite(site(), async (server) => {
    const options = { useKnownPaths: false, useFeeds: false, workers: 0 } as const;
    const home = server.url("/");
    const tree = await sitemapTreeForHomepage(home, { ...options, extensions: "eager" });
    assert.deepStrictEqual(forms(tree), ["decoded"]);
    const lazyTree = await sitemapTreeForHomepage(home, options);
    assert.deepStrictEqual(forms(lazyTree), ["kept"]);
    for await (
      const result of sitemapTreesForHomepages([home], { ...options, extensions: "eager" })
    ) {
      assert.ok(result.error === undefined, String(result.error));
      assert.deepStrictEqual(forms(result.tree), ["decoded"]);
    }
    const before = keptExtrasStats.decodes;
    let images = 0;
    for await (const page of streamPages(home, { ...options, extensions: "eager" })) {
      images += page.images.length;
    }
    assert.deepStrictEqual([images > 0, keptExtrasStats.decodes - before], [true, 0]);
  });
});

Deno.test('sitemapFromString() with extensions: "eager" decodes them now, to the same pages', () => {
  const url = "https://www.shop.example/sitemap.xml";
  const lazy = sitemapFromString(XML, { url });
  const eager = sitemapFromString(XML, { url, extensions: "eager" });
  assert.deepStrictEqual([forms(lazy), forms(eager)], [["kept"], ["decoded"]]);
  assert.deepStrictEqual(eager.toJSON(), lazy.toJSON());
});

Deno.test("a bad extensions value is refused, naming the option and the values it takes", async () => {
  const message = 'Option "extensions" must be "lazy" or "eager", got "later"';
  const bad = { extensions: "later" as "lazy" };
  await assert.rejects(sitemapTreeForHomepage("https://example.com/", bad), {
    name: "RangeError",
    message,
  });
  assert.throws(() => sitemapFromString(XML, bad), { name: "RangeError", message });
});
