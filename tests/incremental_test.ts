import { assert, assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { streamPages } from "../src/stream_pages.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { MemorySitemapCache, type SitemapCache } from "../src/cache.ts";
import { AbstractPagesSitemap, type AbstractSitemap } from "../src/objects/sitemap.ts";
import { sitemapTreeFromJSON } from "../src/objects/from_json.ts";
import { generateIndex } from "../fixtures/generate.ts";
import { FixtureSite, outline, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";

const base: SitemapTreeOptions = {
  workers: 0,
  useKnownPaths: false,
  useFeeds: false,
  timeoutMs: 2_000,
};

/**
 * Documents that may change between crawls, served with validators: a strong
 * ETag (and/or a Last-Modified) that changes with each revision, and `304`
 * for a conditional request that still matches.
 */
class Revisions {
  readonly site: FixtureSite;
  readonly #docs = new Map<string, { body: string; version: number }>();
  readonly #etag: boolean;
  readonly #lastModified: boolean;

  constructor(site: FixtureSite, validators: { etag?: boolean; lastModified?: boolean } = {}) {
    this.site = site;
    this.#etag = validators.etag ?? true;
    this.#lastModified = validators.lastModified ?? false;
  }

  put(path: string, body: string): this {
    const doc = this.#docs.get(path);
    if (doc !== undefined) {
      doc.body = body;
      doc.version++;
      return this;
    }
    this.#docs.set(path, { body, version: 1 });
    this.site.route(path, (c) => {
      const current = this.#docs.get(path)!;
      const etag = `"${current.version}"`;
      const lastModified = new Date(Date.UTC(2025, 0, current.version)).toUTCString();
      const headers: Record<string, string> = {};
      if (this.#etag) headers["etag"] = etag;
      if (this.#lastModified) headers["last-modified"] = lastModified;
      const notModified = this.#etag
        ? c.req.header("if-none-match") === etag
        : this.#lastModified && c.req.header("if-modified-since") === lastModified;
      if (notModified) return new Response(null, { status: 304, headers });
      return new Response(current.body, {
        headers: {
          ...headers,
          "content-type": path.endsWith(".txt") ? "text/plain" : "application/xml",
        },
      });
    });
    return this;
  }
}

/** robots.txt -> index -> three urlsets of two pages, all with ETags. */
function threeChildren(site: FixtureSite): Revisions {
  return new Revisions(site)
    .put("/robots.txt", "Sitemap: /index.xml\n")
    .put("/index.xml", sitemapIndex(["/a.xml", "/b.xml", "/c.xml"]))
    .put("/a.xml", urlset(["/a1", "/a2"], ["2024-01-01", "2024-06-01"]))
    .put("/b.xml", urlset(["/b1", "/b2"], ["2024-01-01", "2024-06-01"]))
    .put("/c.xml", urlset(["/c1", "/c2"], ["2024-01-01", "2024-06-01"]));
}

function unchangedUrls(root: AbstractSitemap, origin: string): string[] {
  return [...root.allSitemaps()].flatMap((node) =>
    node instanceof AbstractPagesSitemap && node.unchanged ? [node.url.slice(origin.length)] : []
  );
}

Deno.test("a repeat crawl with a cache sends If-None-Match, reuses every 304 unparsed and returns the same tree", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    const first = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals(first.stats.parsed, 5);
    assertEquals(first.stats.notModified, 0);
    assertEquals(cache.size, 5);
    site.clearLog();

    const second = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals(outline(second, server.origin), outline(first, server.origin));
    assertEquals(
      site.log.map((r) => `${r.path} ${r.headers["if-none-match"]}`).sort(),
      ["/a.xml", "/b.xml", "/c.xml", "/index.xml", "/robots.txt"].map((p) => `${p} "1"`),
    );
    const s = second.stats;
    assertEquals(
      [s.requests, s.parsed, s.notModified, s.unchanged, s.skipped, s.bytesDownloaded],
      [5, 0, 5, 5, 0, 0],
    );
    assertEquals([s.pagesFound, s.pagesKept], [6, 6]);
    assertEquals(
      s.fetches.map((f) => `${f.url.slice(server.origin.length)} ${f.status} ${f.outcome}`).sort(),
      [
        "/a.xml 304 not-modified",
        "/b.xml 304 not-modified",
        "/c.xml 304 not-modified",
        "/index.xml 304 not-modified",
        "/robots.txt 304 not-modified",
      ],
    );
    assertEquals(unchangedUrls(second, server.origin), ["/a.xml", "/b.xml", "/c.xml"]);
    assertEquals(unchangedUrls(first, server.origin), []);
    assertEquals(s.cacheErrors, []);
  });
});

Deno.test("a repeat crawl re-downloads and re-parses exactly the child that changed", async () => {
  const site = new FixtureSite();
  const docs = threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    docs.put("/b.xml", urlset(["/b1", "/b2", "/b3"]));
    const second = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals(second.stats.parsed, 1);
    assertEquals(second.stats.notModified, 4);
    assertEquals(
      second.stats.fetches.filter((f) => f.outcome === "parsed").map((f) => f.url),
      [server.url("/b.xml")],
    );
    assertEquals(unchangedUrls(second, server.origin), ["/a.xml", "/c.xml"]);
    assertEquals([...second.allPages()].map((p) => p.url.slice(17)), [
      "/a1",
      "/a2",
      "/b1",
      "/b2",
      "/b3",
      "/c1",
      "/c2",
    ]);
    // The changed child's new version is what the cache holds now.
    const third = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([third.stats.parsed, third.stats.notModified], [0, 5]);
    assertEquals([...third.allPages()].length, 7);
  });
});

Deno.test("a server with only Last-Modified gets If-Modified-Since and its 304 is reused", async () => {
  const site = new FixtureSite();
  new Revisions(site, { etag: false, lastModified: true })
    .put("/robots.txt", "Sitemap: /pages.xml\n")
    .put("/pages.xml", urlset(["/x"]));
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    site.clearLog();
    const second = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals(
      site.log.map((r) => [r.path, r.headers["if-modified-since"], r.headers["if-none-match"]]),
      [
        ["/robots.txt", "Wed, 01 Jan 2025 00:00:00 GMT", undefined],
        ["/pages.xml", "Wed, 01 Jan 2025 00:00:00 GMT", undefined],
      ],
    );
    assertEquals(second.stats.notModified, 2);
    assertEquals([...second.allPages()].map((p) => p.url), ["https://site.test/x"]);
  });
});

Deno.test("with a cache and since, a repeat run returns only pages changed since: 304 sitemaps add none", async () => {
  const site = new FixtureSite();
  const docs = threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    // The site changes after the first run; the caller asks what changed since that run.
    const since = new Date(Date.now() + 1);
    const fresh = new Date(Date.now() + 60_000).toISOString();
    docs.put("/c.xml", urlset(["/c1", "/c2", "/c3"], ["2024-01-01", "2024-06-01", fresh]));
    const delta = await sitemapTreeForHomepage(server.url("/"), { ...base, cache, since });
    assertEquals(outline(delta, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /a.xml",
      "      urlset /b.xml",
      "      urlset /c.xml",
      "        - https://site.test/c3",
    ]);
    assertEquals(unchangedUrls(delta, server.origin), ["/a.xml", "/b.xml"]);
    assertEquals([delta.stats.pagesFound, delta.stats.pagesKept], [7, 1]);

    // The full run is the same call without `since`: every page, still from 304s.
    const full = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([...full.allPages()].length, 7);
    assertEquals([full.stats.parsed, full.stats.notModified], [0, 5]);
  });
});

Deno.test("a since before the cached download filters the stored pages by lastmod, like a fresh parse", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    // The first run already filters: the cache still keeps every page.
    const first = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      cache,
      since: "2024-03-01",
    });
    const uncached = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      since: "2024-03-01",
    });
    const again = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      cache,
      since: "2024-03-01",
    });
    const urls = ["https://site.test/a2", "https://site.test/b2", "https://site.test/c2"];
    for (const tree of [first, uncached, again]) {
      assertEquals([...tree.allPages()].map((p) => p.url), urls);
    }
    assertEquals([again.stats.parsed, again.stats.notModified], [0, 5]);
    const all = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([...all.allPages()].length, 6);
  });
});

Deno.test("a truncated cache entry is ignored with a diagnostic, refetched, and rewritten", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    const first = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    const key = server.url("/b.xml");
    const whole = cache.get(key)!;
    cache.set(key, whole.slice(0, whole.length >> 1));
    site.clearLog();
    const second = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals(outline(second, server.origin), outline(first, server.origin));
    assertEquals(second.stats.cacheErrors, [{
      url: key,
      reason: `Cache entry is truncated or padded: ${
        whole.length >> 1
      } bytes, its header says ${whole.length}`,
    }]);
    assertEquals(site.log.find((r) => r.path === "/b.xml")?.headers["if-none-match"], undefined);
    assertEquals([second.stats.parsed, second.stats.notModified], [1, 4]);
    const third = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([third.stats.parsed, third.stats.notModified, third.stats.cacheErrors.length], [
      0,
      5,
      0,
    ]);
  });
});

Deno.test("a store that throws costs its entries, never the crawl", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  const broken: SitemapCache = {
    get: () => Promise.reject(new Error("disk on fire")),
    set: () => {
      throw new Error("read-only");
    },
  };
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, cache: broken });
    assertEquals([...tree.allPages()].length, 6);
    const errors = tree.stats.cacheErrors.map((e) =>
      `${e.url.slice(server.origin.length)} ${e.reason}`
    );
    assertEquals(errors.filter((e) => e.startsWith("/a.xml")), [
      "/a.xml Cache read failed: disk on fire",
      "/a.xml Cache write failed: read-only",
    ]);
    assertEquals(errors.length, 10);
  });
});

Deno.test("a 304 without a cache entry, or for a request that was not conditional, is an invalid sitemap", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /odd.xml\n")
    .route("/odd.xml", () => new Response(null, { status: 304, headers: { etag: '"1"' } }));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      cache: new MemorySitemapCache(),
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /odd.xml: Unable to fetch sitemap from /odd.xml: 304 Not Modified",
    ]);
  });
});

function indexWithLastmods(): { site: FixtureSite; docs: Revisions } {
  const site = new FixtureSite();
  const docs = new Revisions(site)
    .put("/robots.txt", "Sitemap: /index.xml\n")
    .put(
      "/index.xml",
      generateIndex(["/old.xml", "/new.xml", "/nested.xml"], [
        "2024-01-01",
        "2025-06-01",
        "2024-01-01",
      ]),
    )
    .put("/old.xml", urlset(["/o1", "/o2"], ["2023-01-01", "2025-05-01"]))
    .put("/new.xml", urlset(["/n1"], ["2025-06-01"]))
    .put("/nested.xml", generateIndex(["/deep.xml"], ["2025-06-01"]))
    .put("/deep.xml", urlset(["/d1"], ["2025-06-01"]));
  return { site, docs };
}

Deno.test("skipUnchangedSitemaps: a child whose index lastmod is before since is not fetched and is marked unchanged", async () => {
  const { site } = indexWithLastmods();
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      since: "2025-01-01",
      skipUnchangedSitemaps: true,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /old.xml",
      "      urlset /new.xml",
      "        - https://site.test/n1",
      "      urlset /nested.xml",
    ]);
    assertEquals(unchangedUrls(tree, server.origin), ["/old.xml", "/nested.xml"]);
    assertEquals(site.count("/old.xml") + site.count("/nested.xml"), 0);
    assertEquals([tree.stats.skipped, tree.stats.unchanged, tree.stats.invalid.length], [2, 2, 0]);
    assertEquals(
      tree.stats.fetches.filter((f) => f.outcome === "skipped").map((f) => [f.url, f.status]),
      [[server.url("/old.xml"), null], [server.url("/nested.xml"), null]],
    );
    // Off by default.
    const all = await sitemapTreeForHomepage(server.url("/"), { ...base, since: "2025-01-01" });
    assertEquals(all.stats.skipped, 0);
    assertEquals(site.count("/old.xml"), 1);
  });
});

Deno.test("skipUnchangedSitemaps with a cache: stored pages passing since, cached nested indexes followed unfetched, stale copies refetched", async () => {
  const { site, docs } = indexWithLastmods();
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    // /new.xml changes after the cached copy was taken (its lastmod is in the future of it).
    const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    docs.put(
      "/index.xml",
      generateIndex(["/old.xml", "/new.xml", "/nested.xml"], ["2024-01-01", later, "2024-01-01"]),
    );
    docs.put("/new.xml", urlset(["/n1", "/n2"], ["2025-06-01", later]));
    site.clearLog();
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      cache,
      since: "2025-01-01",
      skipUnchangedSitemaps: true,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /old.xml",
      // The index says /old.xml is unchanged, but its own lastmod says this page changed.
      "        - https://site.test/o2",
      "      urlset /new.xml",
      "        - https://site.test/n1",
      "        - https://site.test/n2",
      "      index /nested.xml",
      "        urlset /deep.xml",
      "          - https://site.test/d1",
    ]);
    assertEquals(site.log.map((r) => r.path).sort(), [
      "/deep.xml",
      "/index.xml",
      "/new.xml",
      "/robots.txt",
    ]);
    assertEquals(unchangedUrls(tree, server.origin), ["/old.xml", "/deep.xml"]);
    assertEquals([tree.stats.skipped, tree.stats.notModified, tree.stats.parsed], [2, 2, 2]);
  });
});

Deno.test("unchanged survives toJSON and sitemapTreeFromJSON, and is left out when false", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    const first = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assert(!JSON.stringify(first).includes("unchanged"));
    const second = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    const json = JSON.parse(JSON.stringify(second));
    assertEquals(json.subSitemaps[0].subSitemaps[0].subSitemaps[0].unchanged, true);
    const back = sitemapTreeFromJSON(json);
    assertEquals(unchangedUrls(back, server.origin), ["/a.xml", "/b.xml", "/c.xml"]);
    assertEquals(back.toJSON(), second.toJSON());
  });
});

Deno.test("streamPages() with a cache streams the stored pages of 304 sitemaps", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    site.clearLog();
    const urls: string[] = [];
    for await (const page of streamPages(server.url("/"), { ...base, cache })) urls.push(page.url);
    assertEquals(urls.length, 6);
    assertEquals(site.log.length, 5);
    // Streaming frees the columns it parsed itself, never the cache's: a second
    // stream and a tree from the same cache still read every stored page.
    const again: string[] = [];
    for await (const page of streamPages(server.url("/"), { ...base, cache })) again.push(page.url);
    assertEquals(again.sort(), urls.sort());
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([...tree.allPages()].map((p) => p.url).sort(), urls);
    assertEquals([tree.stats.parsed, tree.stats.notModified, tree.stats.cacheErrors], [0, 5, []]);
  });
});

Deno.test("a parse worker encodes the cache entry from the unfiltered parse and filters after", async () => {
  const site = new FixtureSite();
  threeChildren(site);
  await withSite(site, async (server) => {
    const cache = new MemorySitemapCache();
    const first = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      workers: 1,
      cache,
      since: "2024-03-01",
    });
    assertEquals([...first.allPages()].map((p) => p.url.slice(17)), ["/a2", "/b2", "/c2"]);
    assertEquals(cache.size, 5);
    const all = await sitemapTreeForHomepage(server.url("/"), { ...base, cache });
    assertEquals([all.stats.parsed, all.stats.notModified], [0, 5]);
    assertEquals([...all.allPages()].length, 6);
  });
});
