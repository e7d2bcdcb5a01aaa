/**
 * How fast packed pages become `SitemapPage` objects: the cost a user pays
 * when reading a tree the crawl built (1,000,000 pages in 20 sitemaps of
 * 50,000, as in the seed benchmark).
 *
 * Run: deno bench -A bench/materialise_bench.ts
 *
 * @module
 */

import type { PackedPages } from "../src/parse/_result.ts";
import {
  type AbstractSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  PagesXMLSitemap,
} from "../src/objects/sitemap.ts";

const SITEMAPS = 20;
const PER_SITEMAP = 50_000;

/** Columns like the parser's: ~55-byte URLs, every page with a lastmod, a few with a change frequency. */
function packed(sitemap: number): PackedPages {
  const urls: string[] = [];
  const urlEnds = new Uint32Array(PER_SITEMAP);
  const lastModified = new Float64Array(PER_SITEMAP);
  const priority = new Float64Array(PER_SITEMAP).fill(0.5);
  const changeFrequency = new Uint8Array(PER_SITEMAP);
  let end = 0;
  for (let i = 0; i < PER_SITEMAP; i++) {
    const url = `https://www.example.com/section-${sitemap}/article-${i}-some-slug.html`;
    urls.push(url);
    end += url.length;
    urlEnds[i] = end;
    lastModified[i] = Date.UTC(2024, 0, 1) + i * 60_000;
    changeFrequency[i] = i % 10 === 0 ? 3 : 0;
  }
  return {
    count: PER_SITEMAP,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    extras: "",
  };
}

const columns = Array.from({ length: SITEMAPS }, (_, i) => packed(i));

function tree(): IndexWebsiteSitemap {
  const children = columns.map((p, i) =>
    new PagesXMLSitemap(`https://www.example.com/${i}.xml`, p)
  );
  return new IndexWebsiteSitemap("https://www.example.com/", [
    new IndexXMLSitemap("https://www.example.com/index.xml", children),
  ]);
}

const shared = tree();

/** Touches each page so the work cannot be skipped. */
function drain(node: AbstractSitemap): number {
  let length = 0;
  for (const page of node.allPages()) length += page.url.length;
  return length;
}

Deno.bench("allPages() over 1,000,000 packed pages (20 x 50,000)", { group: "1M" }, () => {
  drain(shared);
});

Deno.bench("pages of 20 nodes x 50,000 (builds and caches arrays)", { group: "1M" }, () => {
  let count = 0;
  for (const node of tree().allSitemaps()) count += node.pages.length;
  if (count !== SITEMAPS * PER_SITEMAP) throw new Error(`Built ${count} pages`);
});

Deno.bench("allPages() over cached pages of 1,000,000", { group: "1M" }, (b) => {
  const cached = tree();
  for (const node of cached.allSitemaps()) void node.pages;
  b.start();
  drain(cached);
  b.end();
});

Deno.bench("JSON.stringify of one 50,000-page node", () => {
  JSON.stringify(new PagesXMLSitemap("https://www.example.com/0.xml", columns[0]!));
});
