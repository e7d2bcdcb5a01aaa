import { deepStrictEqual } from "node:assert/strict";
import { fixture, indexOf, iso, parse } from "./_unpack.ts";

Deno.test("sitemapindex fixture: relative locs resolved against the index, lastmods kept", () => {
  const result = indexOf(
    parse(fixture("sitemap_index.xml"), { url: "https://www.example.com/sitemap_index.xml" }),
  );
  deepStrictEqual([result.format, result.warning], ["index", null]);
  deepStrictEqual(result.children.map((c) => [c.url, iso(c.lastModified)]), [
    ["https://www.example.com/sitemap_pages.xml.gz", "2024-06-01T08:30:00.000Z"],
    ["https://www.example.com/sitemap_media.xml", "2024-05-20T00:00:00.000Z"],
    ["https://www.example.com/sitemap_alternates.xml", null],
    ["https://www.example.com/sitemap.txt", null],
    ["https://www.example.com/feeds/rss.xml", null],
    ["https://www.example.com/feeds/rdf.xml", null],
    ["https://www.example.com/feeds/atom.xml", null],
    ["https://www.example.com/feeds/atom03.xml", null],
  ]);
});

Deno.test("sitemapindex: duplicates kept once in order, junk skipped, no namespace needed", () => {
  const doc = `<sitemapindex>
    <sitemap><loc> https://www.example.com/a.xml </loc><lastmod>2024-02</lastmod></sitemap>
    <sitemap><loc>ftp://www.example.com/b.xml</loc></sitemap>
    <sitemap><loc>/a.xml#again</loc><lastmod>2025-01-01</lastmod></sitemap>
    <sitemap><lastmod>2024-01-01</lastmod></sitemap>
    <sitemap><loc>c.xml?x=1&amp;y=2</loc><lastmod>bogus</lastmod></sitemap>
    <url><loc>https://www.example.com/not-a-sitemap</loc></url>
  </sitemapindex>`;
  const result = indexOf(parse(doc, { url: "https://www.example.com/maps/index.xml" }));
  deepStrictEqual(result.children.map((c) => [c.url, iso(c.lastModified)]), [
    ["https://www.example.com/a.xml", "2024-02-01T00:00:00.000Z"],
    ["https://www.example.com/maps/c.xml?x=1&y=2", null],
  ]);
});

Deno.test("sitemapindex keeps the children before a truncation", () => {
  const doc = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <sitemap><loc>https://www.example.com/a.xml</loc></sitemap>
    <sitemap><loc>https://www.example.com/b.x`;
  const result = indexOf(parse(doc));
  deepStrictEqual(result.children.map((c) => c.url), ["https://www.example.com/a.xml"]);
  deepStrictEqual(result.warning, "The document ends before </sitemapindex>: it is truncated");
});
