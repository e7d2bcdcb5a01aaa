import { deepStrictEqual } from "node:assert/strict";
import { fixture, indexOf, parse } from "./_unpack.ts";

const ROBOTS = "https://www.example.com/robots.txt";

function sitemapsOf(text: string | Uint8Array): string[] {
  const result = indexOf(parse(text, { url: ROBOTS, robots: true }));
  deepStrictEqual([result.format, result.warning], ["robots", null]);
  for (const c of result.children) deepStrictEqual(c.lastModified, NaN);
  return result.children.map((c) => c.url);
}

Deno.test("robots.txt Sitemap lines: any case, Site-map, any spacing, relative values", () => {
  const text = [
    "User-agent: *",
    "Disallow: /private/",
    "Sitemap: https://www.example.com/a.xml",
    "sitemap:https://www.example.com/b.xml",
    "SITEMAP   :   /c.xml",
    "  Site-map: d.xml",
    "\tsItEmAp:\thttps://cdn.example.net/e.xml.gz",
  ].join("\n");
  deepStrictEqual(sitemapsOf(text), [
    "https://www.example.com/a.xml",
    "https://www.example.com/b.xml",
    "https://www.example.com/c.xml",
    "https://www.example.com/d.xml",
    "https://cdn.example.net/e.xml.gz",
  ]);
});

Deno.test("robots.txt Sitemap lines apply in every group, with a BOM and CRLF", () => {
  const text = "\ufeffSitemap: /first.xml\r\nUser-agent: Googlebot\r\nDisallow: /\r\n" +
    "Sitemap: /in-group.xml\r\n\r\nUser-agent: *\r\nSitemap: /last.xml";
  deepStrictEqual(sitemapsOf(new TextEncoder().encode(text)), [
    "https://www.example.com/first.xml",
    "https://www.example.com/in-group.xml",
    "https://www.example.com/last.xml",
  ]);
});

Deno.test("robots.txt duplicates are kept once, in order; junk values skipped", () => {
  const text = [
    "Sitemap: /a.xml",
    "Sitemap: https://www.example.com/a.xml",
    "Sitemap: /a.xml#fragment",
    "Sitemap: /b.xml # the blog",
    "Sitemap:",
    "Sitemap: ftp://www.example.com/c.xml",
    "Sitemaps: /not-the-key.xml",
    "# Sitemap: /commented.xml",
    "Disallow: /sitemap: /no.xml",
  ].join("\n");
  deepStrictEqual(sitemapsOf(text), [
    "https://www.example.com/a.xml",
    "https://www.example.com/b.xml",
  ]);
});

Deno.test("robots.txt without Sitemap lines is an empty index", () => {
  deepStrictEqual(sitemapsOf("User-agent: *\nDisallow:\n"), []);
  deepStrictEqual(sitemapsOf(""), []);
});

Deno.test("robots.txt fixture names the index and the news sitemap", () => {
  deepStrictEqual(sitemapsOf(fixture("robots.txt")), [
    "https://www.example.com/sitemap_index.xml",
    "https://www.example.com/sitemap_news.xml",
  ]);
});
