import { throws } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "./_assert.ts";
import {
  type AbstractSitemap,
  decodeSitemapTree,
  encodeSitemapTree,
  IndexWebsiteSitemap,
  InvalidSitemap,
  isSitemapSnapshot,
  sitemapFromString,
  SitemapPage,
  SitemapSnapshotError,
  sitemapTreeForHomepage,
  sitemapTreeFromJSON,
} from "../mod.ts";
import * as nodes from "../src/objects/sitemap.ts";
import { checksum } from "../src/_checksum.ts";
import { encodeCacheEntry } from "../src/_cache_entry.ts";
import { realisticUrlset, SHAPES, shapeUrlset } from "../fixtures/realistic.ts";
import { serveVersion } from "../fixtures/changing_site.ts";
import { FixtureSite, withSite } from "./_tree_helpers.ts";
import { CORPUS_DIR, CORPUS_PRESENT, corpusFiles, readCorpusFile } from "./realworld/_corpus.ts";

/** Every extension, non-ASCII URLs, every change frequency, odd and default priorities. */
const RICH = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod><changefreq>always</changefreq><priority>1.0</priority></url>
  <url><loc>https://example.com/caf\u00e9</loc><lastmod>2024-05-01T10:11:12Z</lastmod><changefreq>hourly</changefreq><priority>0.25</priority>
    <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc><image:caption>A caf\u00e9</image:caption>
      <image:geo_location>Paris</image:geo_location><image:title>Front</image:title><image:license>https://example.com/l</image:license></image:image>
    <image:image><image:loc>https://cdn.example.com/b.jpg</image:loc></image:image></url>
  <url><loc>https://example.com/\u{1F600}/video</loc><lastmod>2024-05-01T10:11:12.345+02:00</lastmod><changefreq>daily</changefreq><priority>0.0</priority>
    <video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>Grilling</video:title>
      <video:description>How to grill</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc>
      <video:player_loc>https://example.com/player</video:player_loc><video:duration>600</video:duration>
      <video:expiration_date>2030-01-01</video:expiration_date><video:rating>4.2</video:rating>
      <video:view_count>12345</video:view_count><video:publication_date>2024-01-01T08:00:00Z</video:publication_date>
      <video:family_friendly>no</video:family_friendly><video:requires_subscription>yes</video:requires_subscription>
      <video:live>no</video:live><video:uploader>Chef</video:uploader><video:tag>steak</video:tag><video:tag>bbq</video:tag></video:video></url>
  <url><loc>https://example.com/news</loc><changefreq>weekly</changefreq>
    <news:news><news:publication><news:name>The Times</news:name><news:language>en</news:language></news:publication>
      <news:genres>PressRelease, Blog</news:genres><news:publication_date>2024-05-02</news:publication_date>
      <news:title>Launch &amp; more</news:title><news:keywords>a, b</news:keywords><news:stock_tickers>NASDAQ:A</news:stock_tickers></news:news></url>
  <url><loc>https://example.com/en</loc><changefreq>monthly</changefreq><priority>0.7</priority>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/"/></url>
  <url><loc>https://example.com/y</loc><changefreq>yearly</changefreq></url>
  <url><loc>https://example.com/n</loc><changefreq>never</changefreq><lastmod>1969-07-20</lastmod></url>
  <url><loc>https://example.com/na\u00efve?q=\u00e9t\u00e9&amp;x=1</loc></url>
</urlset>`;

function roundTrip(tree: AbstractSitemap): AbstractSitemap {
  const copy = decodeSitemapTree(encodeSitemapTree(tree));
  assertEquals(copy.toJSON(), tree.toJSON());
  assertEquals(classes(copy), classes(tree));
  return copy;
}

/** Each node's class name, pre-order. */
function classes(tree: AbstractSitemap): string[] {
  return [tree, ...tree.allSitemaps()].map((node) => node.constructor.name);
}

function site(children: AbstractSitemap[]): IndexWebsiteSitemap {
  return new IndexWebsiteSitemap("https://example.com/", children);
}

Deno.test("decodeSitemapTree(encodeSitemapTree()) keeps images, videos, news, alternates, non-ASCII URLs, every frequency and odd priorities", () => {
  const node = sitemapFromString(RICH, { url: "https://example.com/sitemap.xml" });
  assertEquals(node.pages.length, 8);
  const copy = roundTrip(site([node]));
  const pages = [...copy.allPages()];
  assertEquals(pages[1]!.url, "https://example.com/caf%C3%A9");
  assertEquals(pages[1]!.images.map((i) => i.caption), ["A caf\u00e9", null]);
  assertEquals(pages[2]!.videos[0]!.tags, ["steak", "bbq"]);
  assertEquals(pages[3]!.newsStory?.title, "Launch & more");
  assertEquals(pages[4]!.alternates.map((a) => a.hreflang), ["de", "x-default"]);
  assertEquals(pages.map((p) => p.priority), [1, 0.25, 0, 0.5, 0.7, 0.5, 0.5, 0.5]);
});

Deno.test("decodeSitemapTree() gives back a crawled tree: invalid nodes and reasons, index lastmods, stats", async () => {
  await withSite(serveVersion(new FixtureSite(), "v1"), async (server, fixture) => {
    serveVersion(fixture, "v2");
    const tree = await sitemapTreeForHomepage(server.origin, {
      workers: 0,
      useKnownPaths: false,
      retries: 0,
    });
    const copy = roundTrip(tree) as IndexWebsiteSitemap;
    assert(copy instanceof IndexWebsiteSitemap);
    assertEquals(copy.stats, tree.stats);
    assertEquals(Object.isFrozen(copy.stats.fetches), true);
    const index = copy.subSitemaps[0]!.subSitemaps[0] as nodes.IndexXMLSitemap;
    assertEquals(index.subSitemapLastModified.map((d) => d?.toISOString() ?? null), [
      "2024-02-01T00:00:00.000Z",
      null,
      null,
      null,
      null,
    ]);
    const invalid = [...copy.allSitemaps()].filter((n) => n instanceof InvalidSitemap);
    assertEquals(invalid.map((n) => (n as InvalidSitemap).reason), [
      `Unable to fetch sitemap from ${server.origin}/e.xml: 503 Service Unavailable`,
    ]);
  });
});

Deno.test("decodeSitemapTree(encodeSitemapTree()) keeps every node type, empty and unchanged nodes, and trees of page objects", () => {
  const page = (url: string, extra: Partial<ConstructorParameters<typeof SitemapPage>[0]> = {}) =>
    new SitemapPage({ url, ...extra });
  const tree = new IndexWebsiteSitemap("https://example.com/", [
    new nodes.IndexRobotsTxtSitemap("https://example.com/robots.txt", [
      new nodes.IndexXMLSitemap("https://example.com/index.xml", [
        new nodes.PagesXMLSitemap("https://example.com/empty.xml", []),
        new nodes.PagesXMLSitemap("https://example.com/same.xml", [page("https://example.com/s")], {
          unchanged: true,
        }),
        new InvalidSitemap("https://example.com/gone.xml", "Unable to fetch sitemap from URL: 404"),
      ], [new Date(Date.UTC(2024, 0, 1)), null, new Date(1)]),
    ]),
    // Non-ASCII URLs (a parser percent-encodes them; objects may hold them raw), two
    // of which share the first byte of a two-byte character.
    new nodes.PagesXMLSitemap("https://example.com/raw.xml", [
      page("https://example.com/caf\u00e9"),
      page("https://example.com/\u00e91"),
      page("https://example.com/\u00e82"),
      page("https://example.com/\u{1F600}/x"),
      page("https://example.com/\u{1F600}/y"),
      page("https://example.com/plain"),
    ]),
    new nodes.PagesTextSitemap("https://example.com/sitemap.txt", [
      page("https://example.com/t", { lastModified: new Date(Date.UTC(2024, 0, 1, 12, 30, 1, 7)) }),
      page("https://example.com/t2", { lastModified: new Date(-8.64e15) }),
      page("https://example.com/t3", { lastModified: new Date(8.64e15), priority: 0.123 }),
    ]),
    new nodes.PagesRSSSitemap("https://example.com/feed.rss", [page("https://example.com/r")]),
    new nodes.PagesAtomSitemap("https://example.com/feed.atom", [page("https://example.com/a")]),
    new nodes.IndexXMLSitemap("https://example.com/none.xml", []),
  ]);
  roundTrip(tree);
  // A tree read from JSON holds page objects; so does a node whose `pages` was read.
  const rich = sitemapFromString(RICH, { url: "https://example.com/sitemap.xml" });
  roundTrip(sitemapTreeFromJSON(JSON.parse(JSON.stringify(rich))));
  void rich.pages;
  roundTrip(rich);
  // Any node can be the root.
  roundTrip(new InvalidSitemap("https://example.com/x.xml", "Not a sitemap"));
  roundTrip(sitemapFromString("https://example.com/a\n", { url: "https://example.com/s.txt" }));
});

Deno.test("decodeSitemapTree(encodeSitemapTree()) keeps the realistic generator's documents and every shape", () => {
  for (const seed of [1, 2, 3]) {
    const url = `https://www.shop.example/sitemap-${seed}.xml`;
    roundTrip(site([sitemapFromString(realisticUrlset(3000, seed, { offset: 500 }), { url })]));
  }
  for (const shape of SHAPES) {
    roundTrip(
      sitemapFromString(shapeUrlset(shape, 500), { url: `https://example.com/${shape}.xml` }),
    );
  }
});

Deno.test({
  name: "decodeSitemapTree(encodeSitemapTree()) keeps every real-world corpus document",
  ignore: !CORPUS_PRESENT,
  fn: async () => {
    let read = 0;
    for (const f of corpusFiles()) {
      const { node } = await readCorpusFile(f);
      roundTrip(node);
      read++;
    }
    assert(read > 300, `only ${read} corpus documents in ${CORPUS_DIR}`);
  },
});

Deno.test("encodeSitemapTree() writes the seed's shape in a few bytes per page", () => {
  const lines = ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (let n = 0; n < 10_000; n++) {
    const day = new Date(Date.UTC(2020, 0, 1) + (n * 7919 % 1827) * 86_400_000);
    lines.push(
      `<url><loc>https://www.example.com/p/${n}</loc><lastmod>${
        day.toISOString().slice(0, 10)
      }</lastmod></url>`,
    );
  }
  const node = sitemapFromString(lines.join("\n") + "</urlset>", {
    url: "https://www.example.com/s.xml",
  });
  const bytes = encodeSitemapTree(node);
  assert(bytes.length < 10_000 * 8, `${bytes.length} bytes for 10,000 pages`);
  roundTrip(node);
});

const SMALL = site([
  sitemapFromString(RICH, { url: "https://example.com/sitemap.xml" }),
  new InvalidSitemap("https://example.com/x.xml", "Unable to fetch sitemap from URL: 503"),
]);

function decodeError(bytes: Uint8Array): string {
  try {
    decodeSitemapTree(bytes);
  } catch (error) {
    assert(error instanceof SitemapSnapshotError, `not a SitemapSnapshotError: ${error}`);
    return error.message;
  }
  throw new Error(`decoded ${bytes.length} bytes that should have thrown`);
}

Deno.test("decodeSitemapTree() throws for every flipped byte and every truncation of a snapshot", () => {
  const good = encodeSitemapTree(SMALL);
  assert(good.length > 500);
  const messages = new Set<string>();
  for (let i = 0; i < good.length; i++) {
    for (const bit of [0x01, 0x80]) {
      const bad = good.slice();
      bad[i]! ^= bit;
      messages.add(
        decodeError(bad).replace(/bytes [^,]*, expected [^"]*/, "bytes …, expected … ")
          .replace(/0x[0-9a-f]+/, "hex").replace(/\d+/g, "N"),
      );
    }
  }
  for (let n = 0; n < good.length; n += n < 64 ? 1 : 7) decodeError(good.subarray(0, n));
  assertEquals([...messages].sort(), [
    'Not a sitemap-tree snapshot (magic bytes …, expected … "SMTREESN")',
    "Snapshot checksum mismatch: the file is damaged",
    "Snapshot is longer than its header says: N bytes, N announced",
    // Version 3 read as 2, which holds no kept extensions.
    "Snapshot is malformed: extensions flag N",
    "Snapshot is truncated: N bytes of the N its header announces",
    "Snapshot uses features this library does not read (flags hex)",
    "Snapshot version N is newer than this library reads (N)",
  ]);
});

Deno.test("decodeSitemapTree() says what a foreign, empty, newer or padded file is", () => {
  const text = (s: string) => new TextEncoder().encode(s);
  assertEquals(
    decodeError(text("<?xml version='1.0'?><urlset/>")),
    'Not a sitemap-tree snapshot (magic bytes 3c 3f 78 6d 6c 20 76 65, expected 53 4d 54 52 45 45 53 4e "SMTREESN"): it looks like XML',
  );
  assert(
    decodeError(text(JSON.stringify(SMALL))).endsWith("(read that with sitemapTreeFromJSON())"),
  );
  const entry = encodeCacheEntry({
    url: "https://example.com/robots.txt",
    finalUrl: "https://example.com/robots.txt",
    etag: null,
    lastModified: null,
    fetchedAt: 0,
    status: 200,
    redirected: false,
    downloadedBytes: 0,
    decompressedBytes: 0,
    result: { kind: "index", format: "robots", children: [], warning: null, robotsText: "" },
  });
  assert(decodeError(entry).endsWith(": it is a sitemap cache entry"));
  assert(decodeError(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0])).endsWith(": it is gzip"));
  assertEquals(
    decodeError(new Uint8Array(0)),
    "Snapshot is truncated: 0 bytes, less than its 24-byte header",
  );
  assertEquals(
    decodeError(text("SMTREE")),
    "Snapshot is truncated: 6 bytes, less than its 24-byte header",
  );
  const good = encodeSitemapTree(SMALL);
  const newer = good.slice();
  new DataView(newer.buffer).setUint32(8, 4, true);
  assertEquals(decodeError(newer), "Snapshot version 4 is newer than this library reads (3)");
  new DataView(newer.buffer).setUint32(8, 0, true);
  assertEquals(decodeError(newer), "Snapshot version 0 is not one this library reads (1 to 3)");
  const padded = new Uint8Array(good.length + 8);
  padded.set(good);
  assertEquals(
    decodeError(padded),
    `Snapshot is longer than its header says: ${good.length + 8} bytes, ${good.length} announced`,
  );
  throws(() => decodeSitemapTree("SMTREESN" as unknown as Uint8Array), TypeError);
});

/** Re-frames a changed body so that only the structural checks can catch it. */
function reframe(body: Uint8Array): Uint8Array {
  const total = 24 + body.length;
  const out = new Uint8Array(total);
  out.set(new TextEncoder().encode("SMTREESN"));
  out.set(body, 24);
  const view = new DataView(out.buffer);
  view.setUint32(8, 3, true);
  view.setUint32(20, total, true);
  view.setUint32(16, checksum(out, 24), true);
  return out;
}

Deno.test("decodeSitemapTree() refuses a well-framed snapshot whose tree is cut short", () => {
  const good = encodeSitemapTree(SMALL);
  const body = good.subarray(24);
  // Every cut of the content, re-framed with a valid checksum, still throws.
  for (let n = 0; n < body.length; n++) {
    assert(decodeError(reframe(body.subarray(0, n))).startsWith("Snapshot is malformed: "));
  }
  assertEquals(reframe(body), good);
});

Deno.test("decodeSitemapTree() reads a snapshot at any offset of a larger buffer, a Node Buffer too", () => {
  const good = encodeSitemapTree(SMALL);
  for (const offset of [1, 2, 3, 5]) {
    const buffer = new Uint8Array(good.length + offset);
    buffer.set(good, offset);
    assertEquals(decodeSitemapTree(buffer.subarray(offset)).toJSON(), SMALL.toJSON());
    // What readFile() gives: a Buffer, whose slice() is a view, not a copy.
    const node = Buffer.alloc(good.length + offset);
    node.set(good, offset);
    assertEquals(decodeSitemapTree(node.subarray(offset)).toJSON(), SMALL.toJSON());
  }
});

Deno.test("isSitemapSnapshot() looks at the magic bytes only", () => {
  const good = encodeSitemapTree(SMALL);
  assertEquals(isSitemapSnapshot(good), true);
  assertEquals(isSitemapSnapshot(good.subarray(0, 8)), true);
  assertEquals(isSitemapSnapshot(good.subarray(0, 7)), false);
  assertEquals(isSitemapSnapshot(new TextEncoder().encode("{}")), false);
});

Deno.test("encodeSitemapTree() keeps a robots.txt node's text, so its rules come back", () => {
  const robots = new nodes.IndexRobotsTxtSitemap(
    "https://example.com/robots.txt",
    [new InvalidSitemap("https://example.com/a.xml", "Unable to fetch sitemap from URL: 404")],
    undefined,
    "User-agent: *\nDisallow: /private/\nSitemap: /a.xml\n",
  );
  const copy = roundTrip(site([robots])).subSitemaps[0] as nodes.IndexRobotsTxtSitemap;
  assertEquals(
    [copy.robots.text, copy.robots.matchingRule("https://example.com/private/x")],
    [robots.robots.text, { allow: false, pattern: "/private/", line: 2 }],
  );
});

Deno.test("decodeSitemapTree() reads a version 1 snapshot, whose robots.txt node has no rules", () => {
  // Written by the version before robots.txt texts were kept.
  const v1 = Uint8Array.from(
    atob(
      "U01UUkVFU04BAAAAAAAAAOZD4f+oAAAAjgEAAwAAFGh0dHBzOi8vZXhhbXBsZS5jb20vAQEeaHR0cHM6Ly9leGFtcGxlLmNvbS9yb2JvdHMudHh0AQAAAAAAAPh/BxlodHRwczovL2V4YW1wbGUuY29tL2EueG1sL1VuYWJsZSB0byBmZXRjaCBzaXRlbWFwIGZyb20gVVJMOiA0MDQgTm90IEZvdW5k",
    ),
    (c) => c.charCodeAt(0),
  );
  const tree = decodeSitemapTree(v1);
  const robots = tree.subSitemaps[0] as nodes.IndexRobotsTxtSitemap;
  assertEquals(
    [robots.url, robots.subSitemaps.map((n) => n.url), robots.robots.text],
    ["https://example.com/robots.txt", ["https://example.com/a.xml"], ""],
  );
  assertEquals(robots.robots.isAllowed("https://example.com/anything"), true);
});
