import assert from "node:assert/strict";
import { sectionsOf, type SitemapSection } from "../src/sections.ts";
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { SitemapPage } from "../src/objects/page.ts";
import {
  type AbstractSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "../src/objects/sitemap.ts";
import { urlset } from "./_tree_helpers.ts";

const H = "https://site.test";

function parsed(path: string, paths: readonly string[], lastmods: readonly string[] = []) {
  return sitemapFromString(urlset(paths, lastmods), { url: `${H}${path}` });
}

function rows(sections: readonly SitemapSection[]): unknown[] {
  return sections.map((s) => [s.prefix, s.pages, s.listings, s.share]);
}

Deno.test("sectionsOf() groups pages by their first path segment, in order of first appearance", () => {
  const tree = parsed("/s.xml", [
    "/blog/a",
    "/",
    "/products/x/y",
    "/blog/b/c",
    "/about",
    "/blog/",
    "/blog",
  ]);
  assert.deepEqual(rows(sectionsOf(tree)), [
    [`${H}/blog`, 4, 4, 4 / 7],
    [`${H}/`, 1, 1, 1 / 7],
    [`${H}/products`, 1, 1, 1 / 7],
    [`${H}/about`, 1, 1, 1 / 7],
  ]);
});

Deno.test("sectionsOf() counts a URL listed by two sitemaps once and names both sitemaps", () => {
  const first = parsed("/one.xml", ["/blog/a", "/blog/b"], ["2024-01-01", "2024-02-01"]);
  // The repeated page's later listing has a later lastmod: the first listing's counts.
  const second = parsed("/two.xml", ["/blog/b", "/shop/c"], ["2025-06-01", "2023-05-05"]);
  const root = new IndexWebsiteSitemap(`${H}/`, [
    new IndexXMLSitemap(`${H}/index.xml`, [first, second]),
  ]);
  const sections = sectionsOf(root);
  assert.deepEqual(rows(sections), [[`${H}/blog`, 2, 3, 2 / 3], [`${H}/shop`, 1, 1, 1 / 3]]);
  assert.deepEqual(sections[0]!.sitemaps, [`${H}/one.xml`, `${H}/two.xml`]);
  assert.deepEqual(sections[0]!.lastModifiedMax, new Date("2024-02-01T00:00:00Z"));
  assert.deepEqual(sections[1]!.sitemaps, [`${H}/two.xml`]);
});

Deno.test("sectionsOf() gives each section's lastmod range and counts pages without one apart", () => {
  const tree = parsed(
    "/s.xml",
    ["/a/1", "/a/2", "/a/3", "/a/4", "/b/1"],
    ["2024-03-01", "", "2021-07-15T10:00:00Z", "2022-01-01", ""],
  );
  const [a, b] = sectionsOf(tree);
  assert.deepEqual(
    [a!.lastModifiedMin, a!.lastModifiedMax, a!.undated],
    [new Date("2021-07-15T10:00:00Z"), new Date("2024-03-01T00:00:00Z"), 1],
  );
  assert.deepEqual([b!.lastModifiedMin, b!.lastModifiedMax, b!.undated], [null, null, 1]);
});

Deno.test("sectionsOf() with depth 2 tells subfolders apart, and depth 0 groups by origin", () => {
  const tree = parsed("/s.xml", ["/docs/api/x", "/docs/guide/y", "/docs/api/z", "/docs", "/"]);
  assert.deepEqual(sectionsOf(tree, { depth: 2 }).map((s) => [s.prefix, s.pages]), [
    [`${H}/docs/api`, 2],
    [`${H}/docs/guide`, 1],
    // Fewer segments than the depth: the page's own path is its section.
    [`${H}/docs`, 1],
    [`${H}/`, 1],
  ]);
  assert.deepEqual(sectionsOf(tree, { depth: 0 }).map((s) => [s.prefix, s.pages]), [[`${H}/`, 5]]);
});

Deno.test("sectionsOf() ignores query and fragment, and keeps hosts, ports and schemes apart", () => {
  const text = [
    "https://site.test/?p=1",
    "https://site.test/search?q=a/b",
    "https://site.test/search/x#top/y",
    "https://other.test/search/z",
    "https://site.test:8443/search/w",
    "http://site.test/search/v",
  ].join("\n");
  const tree = sitemapFromString(text, { url: `${H}/sitemap.txt` });
  assert.deepEqual(sectionsOf(tree).map((s) => [s.prefix, s.pages]), [
    ["https://site.test/", 1],
    ["https://site.test/search", 2],
    ["https://other.test/search", 1],
    ["https://site.test:8443/search", 1],
    ["http://site.test/search", 1],
  ]);
});

Deno.test("sectionsOf() reads page objects built by hand as it reads parsed pages", () => {
  const pages = ["/a/1", "/a/2", "/b/é", "/a/1"].map((p, i) =>
    new SitemapPage({ url: `${H}${p}`, lastModified: i === 0 ? new Date(0) : null })
  );
  const tree = new IndexWebsiteSitemap(`${H}/`, [
    new PagesXMLSitemap(`${H}/x.xml`, pages.slice(0, 3)),
    new PagesTextSitemap(`${H}/y.txt`, pages.slice(3)),
  ]);
  const sections = sectionsOf(tree);
  assert.deepEqual(rows(sections), [[`${H}/a`, 2, 3, 2 / 3], [`${H}/b`, 1, 1, 1 / 3]]);
  assert.deepEqual(sections[0]!.sitemaps, [`${H}/x.xml`, `${H}/y.txt`]);
  assert.deepEqual(sections[0]!.lastModifiedMin, new Date(0));
});

Deno.test("sectionsOf() of a tree without pages is empty", () => {
  assert.deepEqual(sectionsOf(new IndexWebsiteSitemap(`${H}/`, [])), []);
});

Deno.test("sectionsOf() rejects a negative or fractional depth, naming it", () => {
  const tree = new IndexWebsiteSitemap(`${H}/`, []);
  assert.throws(() => sectionsOf(tree, { depth: -1 }), {
    name: "RangeError",
    message: 'Option "depth" must be an integer >= 0, got -1',
  });
  assert.throws(() => sectionsOf(tree, { depth: 1.5 }), {
    name: "RangeError",
    message: 'Option "depth" must be an integer >= 0, got 1.5',
  });
});

/** What sectionsOf() must say, computed the slow way: page objects, `URL`, a Map of strings. */
function reference(tree: AbstractSitemap, depth: number): unknown[] {
  interface Tally {
    pages: number;
    listings: number;
    sitemaps: Set<string>;
    min: number;
    max: number;
    undated: number;
  }
  const bySection = new Map<string, Tally>();
  const seen = new Set<string>();
  const nodes = [tree, ...tree.allSitemaps()];
  for (const node of nodes) {
    for (const page of node.pages) {
      const url = new URL(page.url);
      const segments = url.pathname.split("/").filter((s) => s !== "").slice(0, depth);
      const prefix = segments.length === 0
        ? `${url.origin}/`
        : `${url.origin}/${segments.join("/")}`;
      let t = bySection.get(prefix);
      if (t === undefined) {
        t = {
          pages: 0,
          listings: 0,
          sitemaps: new Set(),
          min: Infinity,
          max: -Infinity,
          undated: 0,
        };
        bySection.set(prefix, t);
      }
      t.listings++;
      t.sitemaps.add(node.url);
      if (seen.has(page.url)) continue;
      seen.add(page.url);
      t.pages++;
      const ms = page.lastModified?.getTime();
      if (ms === undefined) t.undated++;
      else [t.min, t.max] = [Math.min(t.min, ms), Math.max(t.max, ms)];
    }
  }
  return [...bySection].map(([prefix, t]) => [
    prefix,
    t.pages,
    t.listings,
    [...t.sitemaps],
    t.min === Infinity ? null : t.min,
    t.max === -Infinity ? null : t.max,
    t.undated,
  ]);
}

function actual(tree: AbstractSitemap, depth: number): unknown[] {
  return sectionsOf(tree, { depth }).map((s) => [
    s.prefix,
    s.pages,
    s.listings,
    s.sitemaps,
    s.lastModifiedMin?.getTime() ?? null,
    s.lastModifiedMax?.getTime() ?? null,
    s.undated,
  ]);
}

/** A repeatable pseudo-random source. */
function randomSource(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits: an LCG's low bits repeat with short periods.
    return Math.floor((seed / 2_147_483_648) * n);
  };
}

Deno.test("sectionsOf() agrees with counting page objects over a generated tree", () => {
  const random = randomSource(7);
  const words = ["blog", "shop", "docs", "ünï", "%C3%A9t%C3%A9", "a", "b"];
  const files = Array.from({ length: 6 }, (_, f) => {
    const paths = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const depth = random(4);
      const parts = Array.from({ length: depth }, () => words[random(words.length)]!);
      paths.add(`/${parts.join("/")}${random(3) === 0 ? "/" : ""}${random(5) === 0 ? "?x=1" : ""}`);
    }
    return parsed(`/s${f}.xml`, [...paths]);
  });
  const tree = new IndexWebsiteSitemap(`${H}/`, [new IndexXMLSitemap(`${H}/index.xml`, files)]);
  for (const depth of [0, 1, 2, 3]) {
    assert.deepEqual(actual(tree, depth), reference(tree, depth), `depth ${depth}`);
  }
});

Deno.test("sectionsOf() counts first listings right over tens of thousands of repeated URLs", () => {
  // Past 4,096 listings the URLs are deduplicated in partitions: repeats must still find their first.
  const random = randomSource(11);
  const files = Array.from({ length: 8 }, (_, f) => {
    const paths = new Set<string>();
    while (paths.size < 5_000) paths.add(`/s${random(40)}/p${random(15_000)}`);
    const list = [...paths];
    const lastmods = list.map(() =>
      random(4) === 0 ? "" : `20${10 + random(15)}-0${1 + random(9)}-1${random(9)}`
    );
    return parsed(`/f${f}.xml`, list, lastmods);
  });
  const tree = new IndexWebsiteSitemap(`${H}/`, files);
  const got = actual(tree, 1);
  assert.deepEqual(got, reference(tree, 1));
  const listed = got.reduce((n: number, row) => n + ((row as number[])[2] as number), 0);
  const distinct = got.reduce((n: number, row) => n + ((row as number[])[1] as number), 0);
  assert.equal(listed, 40_000);
  assert.equal(distinct, 12_760);
});
