/**
 * Kept extensions: the byte-level urlset reader passes over image, video,
 * news and alternate blocks and keeps their bytes; the first read of any
 * page's extensions in a sitemap decodes the sitemap's blocks once. These
 * tests hold what a user sees to what eager decoding gives, on every shape
 * and on every real document beside the project.
 *
 * @module
 */
import { deepStrictEqual, equal, ok, strictEqual, throws } from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { decodeCacheEntry, encodeCacheEntry } from "../../src/_cache_entry.ts";
import { filterPagesSince } from "../../src/_pages_since.ts";
import { PagesXMLSitemap } from "../../src/objects/sitemap.ts";
import { checkPackedPages } from "../../src/objects/_packed_pages.ts";
import {
  extrasReader,
  keptExtrasStats,
  keptValuesBudget,
  pageExtrasEntries,
} from "../../src/parse/_kept_extras.ts";
import type { KeptExtras, PackedPages } from "../../src/parse/_result.ts";
import { parseSitemap, parseSitemapBody } from "../../src/parse/parse_sitemap.ts";
import { spareDocument } from "../../src/parse/_kept_pack.ts";
import { type CacheEntryFields, runParseJob } from "../../src/workers/_job.ts";
import { compareSitemapTrees } from "../../src/changes.ts";
import { decodeSitemapTree, encodeSitemapTree } from "../../src/snapshot.ts";
import { IndexWebsiteSitemap } from "../../src/objects/sitemap.ts";
import {
  REALISTIC_MIX,
  REALISTIC_MIX_ISSUE24,
  realisticUrlset,
  SHAPES,
  shapeUrlset,
} from "../../fixtures/realistic.ts";
import { runtime } from "../../src/runtime/mod.ts";

const URL_ = "https://www.example.com/sitemaps/sitemap.xml";
const encoder = new TextEncoder();

function pagesOf(bytes: Uint8Array, extensions: "lazy" | "eager", gzip: Uint8Array | null = null) {
  const r = parseSitemapBody(bytes, { url: URL_, extensions }, { gzip });
  if (r.kind !== "pages") throw new Error(`Expected pages, got ${r.kind}`);
  return r.pages;
}

/** The pages of `xml`, gzipped, through a worker's job (as a crawl parses it). */
async function gzippedJob(xml: Uint8Array): Promise<PackedPages> {
  const outcome = await runParseJob({
    bytes: gzipSync(xml),
    url: URL_,
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 50 << 20,
  });
  if (outcome.result.kind !== "pages") throw new Error(outcome.result.kind);
  return outcome.result.pages;
}

/** Every page's JSON, read through the public objects. */
function pageJson(pages: PackedPages): string[] {
  return [...new PagesXMLSitemap(URL_, pages).pages].map((p) => JSON.stringify(p.toJSON()));
}

/** What a cache entry holds beside its result: no validators, fetched at 0. */
const ENTRY: CacheEntryFields = {
  ...{ etag: null, lastModified: null, fetchedAt: 0, redirected: false },
  url: URL_,
  finalUrl: URL_,
  status: 200,
  downloadedBytes: 0,
};

function kept(pages: PackedPages): KeptExtras {
  const x = pages.extras;
  if (x === null || x.kind !== "kept") throw new Error(`Expected kept extensions`);
  return x;
}

const IMAGES = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>https://www.example.com/a</loc>
    <image:image><image:loc>/img/a.jpg</image:loc><image:caption>A &amp; B</image:caption></image:image>
    <lastmod>2024-05-01</lastmod>
    <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/a"/>
  </url>
  <url><loc>https://www.example.com/b</loc><lastmod>2023-01-01</lastmod></url>
  <url><loc>https://www.example.com/c</loc>
    <image:image><image:loc><![CDATA[https://cdn.example.com/c.jpg]]></image:loc></image:image>
  </url>
</urlset>`;

Deno.test("parseSitemap() keeps a urlset's extension blocks as bytes and reads them as eager decoding does", () => {
  const bytes = encoder.encode(IMAGES);
  const lazy = pagesOf(bytes, "lazy");
  const x = kept(lazy);
  strictEqual(x.base, URL_);
  ok(new TextDecoder().decode(x.root).startsWith("<urlset "));
  deepStrictEqual(pageJson(lazy), pageJson(pagesOf(bytes, "eager")));
  const pages = [...new PagesXMLSitemap(URL_, lazy).pages];
  deepStrictEqual(pages[0]!.images.map((i) => [i.loc, i.caption]), [
    ["https://www.example.com/img/a.jpg", "A & B"],
  ]);
  deepStrictEqual(pages[0]!.alternates.map((a) => [a.hreflang, a.href]), [
    ["de", "https://www.example.com/de/a"],
  ]);
  deepStrictEqual(pages[1]!.images, []);
  deepStrictEqual(pages[2]!.images.map((i) => i.loc), ["https://cdn.example.com/c.jpg"]);
});

Deno.test("kept extensions are decoded once per sitemap, on the first read, and never when not read", () => {
  const pages = pagesOf(encoder.encode(shapeUrlset("image", 50)), "lazy");
  const node = new PagesXMLSitemap(URL_, pages);
  const before = keptExtrasStats.decodes;
  let urls = 0;
  for (const page of node.pages) urls += page.url.length + (page.lastModified === null ? 0 : 1);
  ok(urls > 0);
  strictEqual(keptExtrasStats.decodes, before, "reading url and lastModified decodes nothing");
  const first = [...node.pages];
  const images = first[0]!.images;
  ok(images.length > 0);
  strictEqual(keptExtrasStats.decodes, before + 1);
  for (const page of first) page.images;
  for (const page of node.pages) page.alternates;
  strictEqual(
    keptExtrasStats.decodes,
    before + 1,
    "later reads, later traversals: no more decoding",
  );
  strictEqual(first[0]!.images, images, "a page's extensions are the same objects on every read");
  strictEqual(first[0]!.images[0], images[0]);
});

Deno.test("kept extensions read as eager ones on every shape, lazy, deflated or from the gzip body", () => {
  for (const shape of SHAPES) {
    const xml = encoder.encode(shapeUrlset(shape, 300, 7));
    const eager = pageJson(pagesOf(xml, "eager"));
    const deflated = pagesOf(xml, "lazy");
    deepStrictEqual(pageJson(deflated), eager, shape);
    const fromGzip = pagesOf(xml, "lazy", gzipSync(xml));
    deepStrictEqual(pageJson(fromGzip), eager, `${shape}, gzip body`);
    if (deflated.extras !== null) {
      strictEqual(kept(deflated).codec, "deflate-raw", shape);
      strictEqual(kept(fromGzip).codec, "gzip", shape);
      checkPackedPages(deflated);
      checkPackedPages(fromGzip);
    }
  }
});

Deno.test("a gzip body up to gzipShare of the spans is kept in their place, and its sparse spans read as eager ones", () => {
  // Issue 24's mix: a fifth of the pages carry blocks, so the body is about
  // a third of their spans (a quarter would have it deflated).
  const xml = encoder.encode(realisticUrlset(3000, 4, { mix: REALISTIC_MIX_ISSUE24 }));
  const gzip = gzipSync(xml);
  const eager = pageJson(pagesOf(xml, "eager"));
  const deflated = pagesOf(xml, "lazy", gzip);
  const spans = kept(deflated).size;
  ok(gzip.length > spans / 4 && gzip.length <= spans / 2, `${gzip.length} of ${spans}`);
  strictEqual(kept(deflated).codec, "deflate-raw");
  const r = parseSitemapBody(xml, { url: URL_, extensions: "lazy" }, { gzip, gzipShare: 1 / 2 });
  if (r.kind !== "pages") throw new Error(r.kind);
  deepStrictEqual([kept(r.pages).codec, kept(r.pages).size], ["gzip", xml.length]);
  checkPackedPages(r.pages);
  deepStrictEqual(pageJson(r.pages), eager);
  deepStrictEqual(pageJson(deflated), eager);
});

Deno.test("runParseJob() keeps the gzip body up to the runtime's share: half the spans on Node, a quarter elsewhere", async () => {
  const xml = encoder.encode(realisticUrlset(3000, 4, { mix: REALISTIC_MIX_ISSUE24 }));
  const pages = await gzippedJob(xml);
  deepStrictEqual(
    [runtime.name, runtime.keptGzipShare, kept(pages).codec],
    runtime.name === "node" ? ["node", 1 / 2, "gzip"] : [runtime.name, 1 / 4, "deflate-raw"],
  );
  deepStrictEqual(pageJson(pages), pageJson(pagesOf(xml, "eager")));
});

Deno.test("a since filter keeps the kept pages' spans, deflated when the gzip body would be larger", () => {
  const xml = encoder.encode(shapeUrlset("realistic", 400, 3));
  const all = pagesOf(xml, "eager");
  const since = Date.UTC(2024, 6, 1);
  const r = parseSitemapBody(xml, { url: URL_, since }, { gzip: gzipSync(xml) });
  if (r.kind !== "pages") throw new Error(r.kind);
  deepStrictEqual(pageJson(r.pages), pageJson(filterPagesSince(all, since)));
  // Filtering stored kept columns (a cached result reused with since) picks the same spans.
  const lazyAll = pagesOf(xml, "lazy", gzipSync(xml));
  deepStrictEqual(pageJson(filterPagesSince(lazyAll, since)), pageJson(r.pages));
  // Deflated spans filtered: the pages left out lie between the kept ones.
  const deflatedAll = pagesOf(xml, "lazy");
  strictEqual(kept(deflatedAll).codec, "deflate-raw");
  deepStrictEqual(pageJson(filterPagesSince(deflatedAll, since)), pageJson(r.pages));
});

Deno.test("runParseJob() keeps a gzipped body as the kept bytes and reads the same pages", async () => {
  const xml = encoder.encode(shapeUrlset("realistic", 500, 5));
  const pages = await gzippedJob(xml);
  strictEqual(kept(pages).codec, "gzip");
  strictEqual(kept(pages).size, xml.length);
  deepStrictEqual(pageJson(pages), pageJson(pagesOf(xml, "eager")));
});

Deno.test("a spared document gathers its kept spans in place, is freed by the parse, and reads the same pages", () => {
  const xml = encoder.encode(shapeUrlset("realistic", 2000, 3));
  for (const gzip of [null, gzipSync(xml)]) {
    const doc = xml.slice();
    spareDocument(doc);
    const pages = pagesOf(doc, "lazy", gzip);
    deepStrictEqual([kept(pages).codec, kept(pages).size === xml.length, doc.byteLength], [
      gzip === null ? "deflate-raw" : "gzip",
      gzip !== null,
      0,
    ]);
    deepStrictEqual(pageJson(pages), pageJson(pagesOf(xml, "eager")));
  }
});

Deno.test("a document not spared is left as it was by the parse that keeps its spans", () => {
  const xml = encoder.encode(shapeUrlset("realistic", 2000, 3));
  const doc = xml.slice();
  strictEqual(kept(pagesOf(doc, "lazy")).codec, "deflate-raw");
  deepStrictEqual(doc, xml);
});

Deno.test("a cache entry and a snapshot store kept extensions as bytes and read them back", () => {
  const xml = encoder.encode(shapeUrlset("realistic", 200, 9));
  for (const gzip of [null, gzipSync(xml)]) {
    const pages = pagesOf(xml, "lazy", gzip);
    const expected = pageJson(pages);
    const entry = decodeCacheEntry(
      encodeCacheEntry({
        ...ENTRY,
        decompressedBytes: xml.length,
        result: { kind: "pages", format: "urlset", pages, found: pages.count, warning: null },
      }),
      URL_,
    );
    if (typeof entry === "string" || entry.result.kind !== "pages") throw new Error(String(entry));
    strictEqual(kept(entry.result.pages).codec, gzip === null ? "deflate-raw" : "gzip");
    deepStrictEqual(pageJson(entry.result.pages), expected);

    const tree = new IndexWebsiteSitemap("https://www.example.com/", [
      new PagesXMLSitemap(URL_, pages),
    ]);
    const node = decodeSitemapTree(encodeSitemapTree(tree)).subSitemaps[0]!;
    deepStrictEqual([...node.pages].map((p) => JSON.stringify(p.toJSON())), expected);
  }
});

Deno.test("kept extensions whose bytes are damaged fail with a clear error when read", () => {
  const pages = pagesOf(encoder.encode(shapeUrlset("image", 20)), "lazy");
  const x = kept(pages);
  const damaged = { ...x, size: x.size + 1 };
  throws(() => extrasReader(damaged), /Kept extensions are damaged: they inflate to \d+ bytes/);
});

Deno.test("a block the skipper cannot vouch for sends the document the general way, as before", () => {
  // A prefix declared inside a block: the whole document is read the general way.
  const doc =
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://www.example.com/a</loc><image:image xmlns:x="urn:x"><image:loc>https://www.example.com/a.jpg</image:loc></image:image></url>
</urlset>`;
  const pages = pagesOf(encoder.encode(doc), "lazy");
  equal(pages.extras?.kind, undefined);
  deepStrictEqual(pageJson(pages), pageJson(pagesOf(encoder.encode(doc), "eager")));
});

/** Every XML document of the real-world corpora over 2 kB. */
function realDocuments(): string[] {
  const out: string[] = [];
  for (const name of ["realworld", "realworld2"]) {
    const dir = fileURLToPath(new URL(`../../../shared/${name}/corpus/`, import.meta.url));
    if (!existsSync(dir)) continue;
    const walk = (d: string): void => {
      for (const entry of readdirSync(d)) {
        const path = `${d}/${entry}`;
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.xml$/i.test(entry) && statSync(path).size > 2048) out.push(path);
      }
    };
    walk(dir);
  }
  return out;
}

const REAL = realDocuments();

Deno.test({
  name:
    "kept extensions of every real urlset read as eager decoding reads them, deflated or from the gzip body",
  ignore: REAL.length === 0,
  fn() {
    let withKept = 0;
    for (const path of REAL) {
      const bytes = new Uint8Array(readFileSync(path));
      const lazy = parseSitemap(bytes, { url: URL_ });
      const eager = parseSitemap(bytes, { url: URL_, extensions: "eager" });
      if (lazy.kind !== "pages" || eager.kind !== "pages") {
        deepStrictEqual(lazy, eager, path);
        continue;
      }
      if (lazy.pages.extras?.kind === "kept") withKept++;
      const expected = pageJson(eager.pages);
      deepStrictEqual(pageJson(lazy.pages), expected, path);
      // The gzip body kept whatever its size: each run's spans gathered from the document.
      const fromGzip = parseSitemapBody(bytes, { url: URL_ }, {
        gzip: gzipSync(bytes),
        gzipShare: Infinity,
      });
      if (fromGzip.kind !== "pages") throw new Error(`${path}: ${fromGzip.kind}`);
      if (lazy.pages.extras?.kind === "kept") strictEqual(kept(fromGzip.pages).codec, "gzip", path);
      deepStrictEqual(pageJson(fromGzip.pages), expected, `${path}, gzip body`);
    }
    ok(withKept > 0, "some real documents keep their extensions");
  },
});

Deno.test("compareSitemapTrees() compares kept extensions by their bytes, decoding only where they differ", () => {
  const xml = shapeUrlset("realistic", 300, 4);
  const changed = xml.replace(/(<image:loc>[^<]*)(<\/image:loc>)/, "$1?changed$2");
  const tree = (doc: string) =>
    new IndexWebsiteSitemap("https://www.example.com/", [
      new PagesXMLSitemap(URL_, pagesOf(encoder.encode(doc), "lazy")),
    ]);
  const before = keptExtrasStats.decodes;
  const same = compareSitemapTrees(tree(xml), tree(xml));
  strictEqual(same.size, 0);
  strictEqual(keptExtrasStats.decodes, before, "equal spans are not decoded");
  const differ = compareSitemapTrees(tree(xml), tree(changed));
  strictEqual(differ.counts.pages.changed, 1);
  strictEqual(differ.counts.fields.images, 1);
  strictEqual(differ.counts.fields.alternates, 0);
});

Deno.test("an extension block longer than a checkpoint interval sends the document the general way", () => {
  const tags = "<video:tag>t</video:tag>".repeat(50_000); // 1.2 MB in one block
  const doc =
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
<url><loc>https://www.example.com/a</loc><video:video><video:title>A</video:title>${tags}</video:video></url>
</urlset>`;
  const pages = pagesOf(encoder.encode(doc), "lazy");
  equal(pages.extras?.kind, undefined);
  const short = doc.replace(tags, "<video:tag>t</video:tag>");
  equal(pagesOf(encoder.encode(short), "lazy").extras?.kind, "kept");
});

Deno.test("runParseJob() with a cache entry and since: the entry keeps every page, the result the recent ones, extensions whole", async () => {
  const xml = encoder.encode(shapeUrlset("realistic", 400, 6));
  const since = Date.UTC(2024, 6, 1);
  const outcome = await runParseJob({
    bytes: gzipSync(xml),
    url: URL_,
    since,
    robots: false,
    contentType: null,
    maxSitemapBytes: 50 << 20,
    cache: ENTRY,
  });
  if (outcome.result.kind !== "pages" || outcome.cacheEntry === undefined) throw new Error("pages");
  const all = pagesOf(xml, "eager");
  deepStrictEqual(pageJson(outcome.result.pages), pageJson(filterPagesSince(all, since)));
  const entry = decodeCacheEntry(outcome.cacheEntry, URL_);
  if (typeof entry === "string" || entry.result.kind !== "pages") throw new Error(String(entry));
  deepStrictEqual(pageJson(entry.result.pages), pageJson(all));
});

Deno.test("kept extensions of every shape are decoded straight from their spans, no run going the general way", () => {
  const declined = keptExtrasStats.declined;
  for (const shape of SHAPES) {
    const xml = encoder.encode(shapeUrlset(shape, 300, 11));
    deepStrictEqual(pageJson(pagesOf(xml, "lazy")), pageJson(pagesOf(xml, "eager")), shape);
  }
  strictEqual(keptExtrasStats.declined, declined);
});

Deno.test("a link attribute the span decoder cannot vouch for sends its run the general way, read as eager decoding reads it", () => {
  const doc =
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://www.example.com/a</loc><xhtml:link rel="alternate" hreflang="de" xml:lang="de" href="https://www.example.com/de/a"/></url>
<url><loc>https://www.example.com/b</loc><xhtml:link rel="alternate" hreflang="fr" href="/fr/b"/></url>
</urlset>`;
  const lazy = pagesOf(encoder.encode(doc), "lazy");
  equal(lazy.extras?.kind, "kept");
  const declined = keptExtrasStats.declined;
  const json = pageJson(lazy);
  strictEqual(keptExtrasStats.declined, declined + 1);
  deepStrictEqual(json, pageJson(pagesOf(encoder.encode(doc), "eager")));
  deepStrictEqual(JSON.parse(json[1]!).alternates, [
    { hreflang: "fr", href: "https://www.example.com/fr/b" },
  ]);
});

Deno.test("a run of pages read again after its objects were let go is decoded into its values, kept: every traversal reads the same", () => {
  // About 6 MB of spans: more runs than are held at a time.
  const xml = encoder.encode(shapeUrlset("hreflang", 15_000, 2));
  const eager = pageJson(pagesOf(xml, "eager"));
  const lazy = pagesOf(xml, "lazy");
  // A node per traversal: a node's `pages` keeps the page objects it built.
  const json = () =>
    [...new PagesXMLSitemap(URL_, lazy).allPages()].map((p) => JSON.stringify(p.toJSON()));
  const { runs, kept } = keptExtrasStats;
  deepStrictEqual(json(), eager);
  const perTraversal = keptExtrasStats.runs - runs;
  ok(perTraversal > 1, "the spans are decoded a run at a time");
  strictEqual(keptExtrasStats.kept, kept, "a first read keeps nothing");
  deepStrictEqual(json(), eager);
  strictEqual(
    keptExtrasStats.kept - kept,
    perTraversal,
    "the second read keeps every run's values",
  );
  deepStrictEqual(json(), eager);
  deepStrictEqual(json(), eager);
  strictEqual(keptExtrasStats.runs - runs, 2 * perTraversal, "later reads decode nothing");
});

Deno.test("kept values read again give what eager decoding gives: news, videos with absent dates, images, alternates, non-ASCII and CDATA text", () => {
  const mix = { ...REALISTIC_MIX, news: 300, video: 300 };
  const xml = encoder.encode(realisticUrlset(3000, 7, { mix }));
  const expected = pageExtrasEntries(pagesOf(xml, "eager").extras);
  const lazy = pagesOf(xml, "lazy");
  // What the values must carry: absent dates (NaN), CDATA and non-ASCII text.
  ok(expected.some(([, e]) => e.videos?.some((v) => Number.isNaN(v.expirationDate))));
  ok(expected.some(([, e]) => e.newsStory !== undefined && e.newsStory.genres.length > 0));
  const nonAscii = (text: string | null) => [...text ?? ""].some((c) => c.charCodeAt(0) > 0x7f);
  ok(expected.some(([, e]) => e.images?.some((i) => nonAscii(i.caption))));
  const { runs, kept } = keptExtrasStats;
  deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  const perRead = keptExtrasStats.runs - runs;
  ok(perRead > 1, "more runs than one are read");
  strictEqual(keptExtrasStats.kept, kept);
  deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  strictEqual(keptExtrasStats.kept - kept, perRead, "every run read again keeps its values");
  deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  strictEqual(keptExtrasStats.runs - runs, 2 * perRead, "later reads decode nothing");
  // The public objects too, a node per traversal.
  const json = pageJson(pagesOf(xml, "eager"));
  for (let read = 0; read < 3; read++) deepStrictEqual(pageJson(lazy), json);
});

Deno.test("kept values read again keep a video's numbers JSON cannot hold: absent dates, nulls, infinity", () => {
  const page = (i: number) =>
    `<url><loc>https://www.example.com/${i}</loc><video:video><video:thumbnail_loc>https://www.example.com/${i}.jpg</video:thumbnail_loc><video:title>T ${i}</video:title><video:description>D</video:description><video:content_loc>https://www.example.com/${i}.mp4</video:content_loc><video:view_count>${
      "9".repeat(400)
    }</video:view_count><video:duration>${i % 600}</video:duration></video:video></url>`;
  const xml = encoder.encode(
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">${
      Array.from({ length: 200 }, (_, i) => page(i)).join("\n")
    }</urlset>`,
  );
  const expected = pageExtrasEntries(pagesOf(xml, "eager").extras);
  const video = expected[1]![1].videos![0]!;
  deepStrictEqual(
    [video.viewCount, video.rating, video.duration, video.expirationDate, video.publicationDate],
    [Infinity, null, 1, NaN, NaN],
  );
  const lazy = pagesOf(xml, "lazy");
  const { kept } = keptExtrasStats;
  for (let read = 0; read < 3; read++) deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  ok(keptExtrasStats.kept > kept, "read from the kept values");
});

Deno.test("past the kept values' budget a run read again is decoded into encoded columns, reading the same", () => {
  const xml = encoder.encode(shapeUrlset("hreflang", 3000, 3));
  const expected = pageExtrasEntries(pagesOf(xml, "eager").extras);
  const lazy = pagesOf(xml, "lazy");
  const { limit } = keptValuesBudget;
  // Nothing more may be kept.
  keptValuesBudget.limit = keptValuesBudget.used;
  try {
    const { runs, kept, columns } = keptExtrasStats;
    deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
    const perRead = keptExtrasStats.runs - runs;
    ok(perRead > 1, "more runs than one are read");
    deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
    const built = keptExtrasStats.columns - columns;
    ok(built > 0, "columns are built");
    deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
    strictEqual(keptExtrasStats.kept, kept, "no values kept");
    strictEqual(keptExtrasStats.runs - runs, perRead, "no run decoded again");
    strictEqual(keptExtrasStats.columns - columns, built, "columns built once");
  } finally {
    keptValuesBudget.limit = limit;
  }
});

Deno.test("kept values read again hand out fresh objects: what one read's caller changes, the next read does not see", () => {
  const mix = { ...REALISTIC_MIX, news: 500, video: 500 };
  const lazy = pagesOf(encoder.encode(realisticUrlset(3000, 8, { mix })), "lazy");
  const first = pageExtrasEntries(lazy.extras);
  const expected = structuredClone(first);
  const { kept } = keptExtrasStats;
  pageExtrasEntries(lazy.extras);
  ok(keptExtrasStats.kept > kept, "read from the kept values");
  const read = pageExtrasEntries(lazy.extras);
  for (const [, extras] of read) {
    const mutable = extras as unknown as { newsStory?: { title: string; genres: string[] } };
    if (mutable.newsStory !== undefined) {
      mutable.newsStory.title = "changed";
      mutable.newsStory.genres.push("changed");
    }
    for (const video of extras.videos ?? []) {
      (video as unknown as { tags: string[] }).tags.push("changed");
    }
  }
  deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
});

Deno.test("a run with a page of more images than kept values count is read from encoded columns, reading the same", () => {
  const images = Array.from(
    { length: 0x10000 },
    (_, i) => `<image:image><image:loc>https://www.example.com/${i}.jpg</image:loc></image:image>`,
  ).join("");
  const xml = encoder.encode(
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://www.example.com/a</loc>${images}</url>
<url><loc>https://www.example.com/b</loc><image:image><image:loc>https://www.example.com/b.jpg</image:loc></image:image></url>
</urlset>`,
  );
  const lazy = pagesOf(xml, "lazy");
  const expected = pageExtrasEntries(pagesOf(xml, "eager").extras);
  strictEqual(expected[0]![1].images!.length, 0x10000);
  const { runs, kept, columns } = keptExtrasStats;
  for (let read = 0; read < 4; read++) deepStrictEqual(pageExtrasEntries(lazy.extras), expected);
  strictEqual(keptExtrasStats.kept - kept, 1, "only the small page's run keeps its values");
  strictEqual(keptExtrasStats.runs - runs, 4, "each run decoded once, and once into values");
  strictEqual(keptExtrasStats.columns - columns, 1, "the large page's run read from columns");
});

Deno.test("kept extensions with non-ASCII and malformed UTF-8 text read as eager decoding reads them", () => {
  const head =
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://www.example.com/a</loc><image:image><image:loc>https://www.example.com/café.jpg</image:loc><image:caption>東京 😀 crème</image:caption><image:title>Straße</image:title></image:image></url>
<url><loc>https://www.example.com/b</loc><image:image><image:loc>/b.jpg</image:loc><image:caption>bad `;
  const tail = ` byte</image:caption></image:image></url>
</urlset>`;
  const bytes = new Uint8Array([...encoder.encode(head), 0xff, 0xc3, ...encoder.encode(tail)]);
  const lazy = pagesOf(bytes, "lazy");
  equal(lazy.extras?.kind, "kept");
  const json = pageJson(lazy);
  deepStrictEqual(json, pageJson(pagesOf(bytes, "eager")));
  deepStrictEqual(JSON.parse(json[0]!).images[0].caption, "東京 😀 crème");
  deepStrictEqual(JSON.parse(json[1]!).images[0].loc, "https://www.example.com/b.jpg");
});
