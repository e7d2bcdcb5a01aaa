/**
 * The counters a user reads: progress events count each sitemap once, and the
 * decompressed size of a gzipped sitemap is its inflated length.
 */
import { assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapProgressEvent } from "../src/options.ts";
import { gzip } from "../fixtures/generate.ts";
import { FixtureSite, outline, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";

Deno.test("progress counts a sitemap named by two parents, and a well-known path robots.txt lists, once", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /sitemap_index.xml\nSitemap: /news.xml\n")
    // Also a well-known path: walked once from robots.txt and once as a probe.
    .file("/sitemap_index.xml", sitemapIndex(["/shared.xml", "/a.xml"]))
    .file("/news.xml", sitemapIndex(["/shared.xml"]))
    .file("/shared.xml", urlset(["/s"]))
    .file("/a.xml", urlset(["/a"]));
  await withSite(site, async (server) => {
    const events: SitemapProgressEvent[] = [];
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      workers: 0,
      useFeeds: false,
      onProgress: (event) => events.push(event),
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /sitemap_index.xml",
      "      urlset /shared.xml",
      "        - https://site.test/s",
      "      urlset /a.xml",
      "        - https://site.test/a",
      "    index /news.xml",
      "      urlset /shared.xml",
      "        - https://site.test/s",
    ]);
    const finished = events.filter((e) => e.kind !== "fetched");
    const short = (url: string): string => url.slice(server.origin.length);
    assertEquals(finished.map((e) => short(e.url)).sort(), [
      "/a.xml",
      "/news.xml",
      "/robots.txt",
      "/shared.xml",
      "/sitemap_index.xml",
    ]);
    assertEquals(finished.map((e) => e.sitemapsDone), [1, 2, 3, 4, 5]);
    assertEquals(events.filter((e) => e.kind === "fetched").length, 5);
  });
});

Deno.test("stats and fetches give a gzipped sitemap's inflated size past 64 KiB", async () => {
  const paths = Array.from({ length: 2_000 }, (_, i) => `/page/${i}`);
  const xml = urlset(paths);
  const size = new TextEncoder().encode(xml).byteLength;
  const body = gzip(xml);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /big.xml.gz\n")
    .file("/big.xml.gz", body, { contentType: "application/gzip" });
  await withSite(site, async (server) => {
    for (const workers of [0, 1]) {
      const tree = await sitemapTreeForHomepage(server.url("/"), {
        workers,
        useFeeds: false,
        useKnownPaths: false,
      });
      const big = tree.stats.fetches.find((f) => f.url.endsWith("/big.xml.gz"));
      const robotsBytes = "Sitemap: /big.xml.gz\n".length;
      assertEquals(
        [big?.downloadedBytes, big?.decompressedBytes, tree.stats.bytesDecompressed],
        [body.byteLength, size, size + robotsBytes],
      );
      assertEquals(tree.stats.pagesFound, 2_000);
    }
  });
});
