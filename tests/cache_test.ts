import { Buffer } from "node:buffer";
import { assert, assertEquals } from "./_assert.ts";
import { FileSitemapCache, MemorySitemapCache } from "../src/cache.ts";
import { type CacheEntry, decodeCacheEntry, encodeCacheEntry } from "../src/_cache_entry.ts";
import { filterPagesSince } from "../src/_pages_since.ts";
import { parseSitemap } from "../src/parse/parse_sitemap.ts";
import type { PackedPages, ParseResult } from "../src/parse/_result.ts";
import { materialisePackedPages } from "../src/objects/_packed_pages.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { FixtureSite, outline, urlset, withSite } from "./_tree_helpers.ts";

const KEY = "https://example.com/sitemap.xml";

/** A urlset with non-ASCII URLs, every optional field and extension data on some pages. */
const RICH = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>https://example.com/a</loc><lastmod>2023-05-01</lastmod><priority>0.9</priority></url>
  <url><loc>https://example.com/caf\u00e9</loc><lastmod>2025-02-01</lastmod><changefreq>daily</changefreq>
    <image:image><image:loc>https://example.com/i.png</image:loc></image:image></url>
  <url><loc>https://example.com/\u{1F600}/x</loc><lastmod>2022-01-01</lastmod></url>
  <url><loc>https://example.com/na\u00efve</loc>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/></url>
  <url><loc>https://example.com/z</loc><lastmod>2025-03-01T10:00:00Z</lastmod>
    <image:image><image:loc>https://example.com/z.png</image:loc></image:image></url>
</urlset>`;

function parse(xml: string, since = NaN): Extract<ParseResult, { kind: "pages" }> {
  const result = parseSitemap(new TextEncoder().encode(xml), { url: KEY, since });
  if (result.kind !== "pages") throw new Error(`Expected pages, got ${result.kind}`);
  return result;
}

function pagesJSON(pages: PackedPages): unknown[] {
  return materialisePackedPages(pages).map((p) => p.toJSON());
}

function entry(result: CacheEntry["result"], url = KEY): CacheEntry {
  return {
    url,
    finalUrl: url.replace("sitemap", "final"),
    etag: 'W/"abc"',
    lastModified: "Wed, 01 Jan 2025 00:00:00 GMT",
    fetchedAt: 1_735_689_600_000,
    status: 200,
    redirected: true,
    downloadedBytes: 1234,
    decompressedBytes: 5678,
    result,
  };
}

Deno.test("encodeCacheEntry() and decodeCacheEntry() round-trip pages with non-ASCII URLs and extras", () => {
  const result = parse(RICH);
  const bytes = encodeCacheEntry(entry(result));
  assertEquals(bytes.byteLength % 8, 0);
  const back = decodeCacheEntry(bytes, KEY);
  assert(typeof back !== "string", String(back));
  const { result: backResult, ...fields } = back;
  const { result: _, ...expected } = entry(result);
  assertEquals(fields, expected);
  assert(backResult.kind === "pages");
  assertEquals([backResult.format, backResult.found, backResult.warning], ["urlset", 5, null]);
  assertEquals(pagesJSON(backResult.pages), pagesJSON(result.pages));
});

Deno.test("decodeCacheEntry() reads an entry at an unaligned offset and an index entry", () => {
  const index: CacheEntry["result"] = {
    kind: "index",
    format: "robots",
    children: [
      { url: "https://example.com/a.xml", lastModified: NaN },
      { url: "https://example.com/b.xml", lastModified: Date.UTC(2025, 0, 2) },
    ],
    warning: "The document ends before </sitemapindex>: it is truncated",
    robotsText: "User-agent: *\nDisallow: /private/\nSitemap: /a.xml\n",
  };
  const bytes = encodeCacheEntry(entry(index));
  const shifted = new Uint8Array(bytes.byteLength + 3);
  shifted.set(bytes, 3);
  const back = decodeCacheEntry(shifted.subarray(3), KEY);
  assert(typeof back !== "string", String(back));
  assertEquals(back.result, index);
  const pages = encodeCacheEntry(entry(parse(RICH)));
  const odd = new Uint8Array(pages.byteLength + 1);
  odd.set(pages, 1);
  const backPages = decodeCacheEntry(odd.subarray(1), KEY);
  assert(typeof backPages !== "string" && backPages.result.kind === "pages");
  assertEquals(backPages.result.pages.count, 5);
  // A store may return a Node Buffer at any offset of a pooled slab.
  const pooled = Buffer.alloc(pages.byteLength + 5);
  pooled.set(pages, 5);
  const fromBuffer = decodeCacheEntry(pooled.subarray(5), KEY);
  assert(typeof fromBuffer !== "string" && fromBuffer.result.kind === "pages");
  assertEquals(pagesJSON(fromBuffer.result.pages), pagesJSON(parse(RICH).pages));
});

Deno.test("decodeCacheEntry() refuses foreign, truncated, garbled, other-version and other-URL entries", () => {
  const bytes = encodeCacheEntry(entry(parse(RICH)));
  const half = bytes.length >> 1;
  assertEquals(
    decodeCacheEntry(new TextEncoder().encode("<urlset/>"), KEY),
    "Not a sitemap cache entry (9 bytes, no SMTREEC1 header)",
  );
  assertEquals(
    decodeCacheEntry(bytes.slice(0, half), KEY),
    `Cache entry is truncated or padded: ${half} bytes, its header says ${bytes.length}`,
  );
  assertEquals(
    decodeCacheEntry(bytes.slice(0, 10), KEY),
    "Not a sitemap cache entry (10 bytes, no SMTREEC1 header)",
  );
  const garbled = bytes.slice();
  garbled[bytes.length - 20] = garbled[bytes.length - 20]! ^ 0x04;
  assertEquals(decodeCacheEntry(garbled, KEY), "Cache entry is corrupt: checksum mismatch");
  const future = bytes.slice();
  future[8] = 9;
  assertEquals(
    decodeCacheEntry(future, KEY),
    "Cache entry has format version 9, this library reads version 2",
  );
  assertEquals(
    decodeCacheEntry(bytes, "https://example.com/other.xml"),
    `Cache entry belongs to ${KEY}, not https://example.com/other.xml`,
  );
  assertEquals(
    decodeCacheEntry("not bytes" as unknown as Uint8Array, KEY),
    "Not a sitemap cache entry (the store returned string, not bytes)",
  );
});

Deno.test("filterPagesSince() keeps exactly what the parser's own since filter keeps", () => {
  const full = parse(RICH);
  for (const iso of ["2020-01-01", "2023-05-01", "2024-01-01", "2025-02-15", "2030-01-01"]) {
    const since = Date.parse(iso);
    const filtered = filterPagesSince(full.pages, since);
    assertEquals(pagesJSON(filtered), pagesJSON(parse(RICH, since).pages), iso);
  }
  assertEquals(filterPagesSince(full.pages, NaN), full.pages);
  assertEquals(filterPagesSince(full.pages, Date.parse("2020-01-01")), full.pages);
  const kept = filterPagesSince(full.pages, Date.parse("2025-01-01"));
  assertEquals(materialisePackedPages(kept).map((p) => p.url), [
    "https://example.com/caf%C3%A9",
    "https://example.com/na%C3%AFve",
    "https://example.com/z",
  ]);
  assertEquals(materialisePackedPages(kept).map((p) => p.images.length), [1, 0, 1]);
});

Deno.test("MemorySitemapCache keeps, replaces and forgets entries", () => {
  const cache = new MemorySitemapCache();
  assertEquals(cache.get(KEY), null);
  cache.set(KEY, new Uint8Array([1]));
  cache.set(KEY, new Uint8Array([2]));
  assertEquals([cache.get(KEY), cache.size], [new Uint8Array([2]), 1]);
  cache.clear();
  assertEquals(cache.size, 0);
});

Deno.test("FileSitemapCache writes through a temporary file, creates its directory, and misses cleanly", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new FileSitemapCache(`${dir}/nested/cache`);
    assertEquals(await cache.get(KEY), null);
    await cache.set(KEY, new Uint8Array([1, 2, 3]));
    await cache.set(KEY, new Uint8Array([4, 5]));
    assertEquals(await cache.get(KEY), new Uint8Array([4, 5]));
    assertEquals(await cache.get("https://example.com/other.xml"), null);
    const names = [];
    for await (const e of Deno.readDir(`${dir}/nested/cache`)) names.push(e.name);
    assertEquals(names.length, 1, "no temporary file is left behind");
    assert(/^[0-9a-f]{32}\.sitemap-cache$/.test(names[0]!), names[0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file cache truncated mid-write, a stray temporary file and a foreign file are ignored; the crawl rewrites them", async () => {
  const site = new FixtureSite();
  // Each document answers a matching If-None-Match with 304.
  const documents: [string, string][] = [
    ["/robots.txt", "Sitemap: /a.xml\nSitemap: /b.xml\nSitemap: /c.xml\n"],
    ["/a.xml", urlset(["/a"])],
    ["/b.xml", urlset(["/b"])],
    ["/c.xml", urlset(["/c"])],
  ];
  for (const [path, body] of documents) {
    site.route(
      path,
      (c) =>
        c.req.header("if-none-match") === '"1"'
          ? new Response(null, { status: 304 })
          : new Response(body, { headers: { etag: '"1"' } }),
    );
  }
  const dir = await Deno.makeTempDir();
  const options = { workers: 0, useKnownPaths: false, useFeeds: false, timeoutMs: 2_000 };
  try {
    await withSite(site, async (server) => {
      const cache = new FileSitemapCache(dir);
      const first = await sitemapTreeForHomepage(server.url("/"), { ...options, cache });
      const files = new Map<string, string>();
      for await (const e of Deno.readDir(dir)) files.set(e.name, `${dir}/${e.name}`);
      assertEquals(files.size, 4);
      // Simulate what a process killed mid-write would leave if writes were not atomic:
      // the entry for /a.xml cut short, and for /b.xml someone else's file.
      const pathOf = async (url: string): Promise<string> => {
        for (const path of files.values()) {
          const bytes = await Deno.readFile(path);
          if (new TextDecoder().decode(bytes.subarray(0, 2000)).includes(`"url":"${url}"`)) {
            return path;
          }
        }
        throw new Error(`no entry for ${url}`);
      };
      const a = await pathOf(server.url("/a.xml"));
      const b = await pathOf(server.url("/b.xml"));
      const whole = await Deno.readFile(a);
      await Deno.writeFile(a, whole.subarray(0, 100));
      await Deno.writeFile(b, new TextEncoder().encode('{"some":"json"}'));
      await Deno.writeFile(`${a}.1234.tmp`, whole.subarray(0, 50));

      const second = await sitemapTreeForHomepage(server.url("/"), { ...options, cache });
      assertEquals(outline(second, server.origin), outline(first, server.origin));
      // Listed as the reads finish, which is not a fixed order: compare by URL.
      const byUrl = [...second.stats.cacheErrors].sort((x, y) => x.url.localeCompare(y.url));
      assertEquals(byUrl, [
        {
          url: server.url("/a.xml"),
          reason: `Cache entry is truncated or padded: 100 bytes, its header says ${whole.length}`,
        },
        {
          url: server.url("/b.xml"),
          reason: "Not a sitemap cache entry (15 bytes, no SMTREEC1 header)",
        },
      ]);
      assertEquals([second.stats.parsed, second.stats.notModified], [2, 2]);
      const third = await sitemapTreeForHomepage(server.url("/"), { ...options, cache });
      assertEquals([third.stats.parsed, third.stats.notModified], [0, 4]);
      assertEquals(third.stats.cacheErrors, []);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the cache option must be a store", async () => {
  let message = "";
  try {
    await sitemapTreeForHomepage("https://example.com/", {
      cache: { get: () => null } as unknown as MemorySitemapCache,
    });
  } catch (error) {
    message = `${(error as Error).name}: ${(error as Error).message}`;
  }
  assertEquals(message, 'TypeError: Option "cache" must be an object with get() and set() methods');
});

Deno.test("decodeCacheEntry() refuses a robots.txt entry without its text, so that its rules are fetched afresh", () => {
  const older: CacheEntry["result"] = {
    kind: "index",
    format: "robots",
    children: [{ url: "https://example.com/a.xml", lastModified: NaN }],
    warning: null,
  };
  assertEquals(
    decodeCacheEntry(encodeCacheEntry(entry(older)), KEY),
    "Cache entry is corrupt: the robots.txt entry has no text (written by an older version)",
  );
});
