import { assertEquals, assertRejects } from "./_assert.ts";
import { sitemapTreeForSitemap, sitemapTreeForSitemapWithStats } from "../src/sitemap_tree.ts";
import { streamSitemapPages } from "../src/stream_pages.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { gzip } from "../fixtures/generate.ts";
import { FixtureSite, outline, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";

const base: SitemapTreeOptions = { workers: 0, timeoutMs: 2_000 };

/** A site whose robots.txt and well-known paths exist, so a test sees whether they are read. */
function site(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/sitemap.xml", urlset(["/known"]))
    .file("/index.xml", sitemapIndex(["/a.xml.gz", "/b.txt", "/missing.xml"]))
    .file("/a.xml.gz", gzip(urlset(["/a1", "/a2"])))
    .file("/b.txt", "https://site.test/b1\n");
}

Deno.test("sitemapTreeForSitemap() reads one index and everything below it, without discovery", async () => {
  const fixture = site();
  await withSite(fixture, async (server) => {
    const root = await sitemapTreeForSitemap(server.url("/index.xml#top"), base);
    assertEquals(outline(root, server.origin), [
      "index /index.xml",
      "  urlset /a.xml.gz",
      "    - https://site.test/a1",
      "    - https://site.test/a2",
      "  text /b.txt",
      "    - https://site.test/b1",
      "  invalid /missing.xml: Unable to fetch sitemap from /missing.xml: 404 Not Found",
    ]);
    assertEquals(
      [fixture.count("/robots.txt"), fixture.count("/sitemap.xml"), fixture.count("/")],
      [0, 0, 0],
    );
  });
});

Deno.test("sitemapTreeForSitemap() reads a robots.txt as robots.txt, and a failed URL as an invalid root", async () => {
  await withSite(site(), async (server) => {
    const robots = await sitemapTreeForSitemap(server.url("/robots.txt"), {
      ...base,
      maxDepth: 1,
    });
    // maxDepth counts levels below the sitemap asked for, as below robots.txt in a site crawl.
    assertEquals(outline(robots, server.origin), [
      "robots /robots.txt",
      "  index /index.xml",
      "    invalid /a.xml.gz: Recursion level exceeded: /a.xml.gz is 2 levels deep (maxDepth is 1)",
      "    invalid /b.txt: Recursion level exceeded: /b.txt is 2 levels deep (maxDepth is 1)",
      "    invalid /missing.xml: Recursion level exceeded: /missing.xml is 2 levels deep (maxDepth is 1)",
    ]);
    const missing = await sitemapTreeForSitemapWithStats(server.url("/nope.xml"), base);
    assertEquals(outline(missing.root, server.origin), [
      "invalid /nope.xml: Unable to fetch sitemap from /nope.xml: 404 Not Found",
    ]);
    assertEquals(missing.stats.sitemapsByType, { invalid: 1 });
    assertEquals(missing.stats.fetches.map((f) => f.status), [404]);
  });
});

Deno.test("sitemapTreeForSitemap() rejects a URL that is not http(s), naming it", async () => {
  await assertRejects(
    () => sitemapTreeForSitemap("ftp://example.com/sitemap.xml", base),
    TypeError,
    'Sitemap URL must be http(s), got "ftp://example.com/sitemap.xml"',
  );
  await assertRejects(
    () => sitemapTreeForSitemap("sitemap.xml", base),
    TypeError,
    'Sitemap URL is not a valid URL: "sitemap.xml"',
  );
});

Deno.test("streamSitemapPages() streams a sitemap's pages, says which sitemap listed each, and keeps the stats", async () => {
  const fixture = site();
  await withSite(fixture, async (server) => {
    const stream = streamSitemapPages(server.url("/index.xml"), base);
    const seen: string[] = [];
    for (;;) {
      const next = await stream.next();
      if (next.done === true) break;
      seen.push(
        `${
          stream.sitemapUrl.slice(server.origin.length)
        } ${next.value.url} ${stream.sitemapPagesLeft}`,
      );
    }
    assertEquals(seen.sort(), [
      "/a.xml.gz https://site.test/a1 1",
      "/a.xml.gz https://site.test/a2 0",
      "/b.txt https://site.test/b1 0",
    ]);
    assertEquals(stream.stats?.sitemapsByType, { index: 1, urlset: 1, text: 1, invalid: 1 });
    assertEquals(fixture.count("/robots.txt"), 0);
  });
});
