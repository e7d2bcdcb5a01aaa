import { assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { gzip } from "../fixtures/generate.ts";
import { FixtureSite, outline, urlset, withSite } from "./_tree_helpers.ts";

const base: SitemapTreeOptions = { workers: 0, useKnownPaths: false, timeoutMs: 2_000 };

const RSS = (path: string): string =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>` +
  `<item><title>Post</title><link>https://site.test${path}</link>` +
  `<pubDate>Wed, 01 Jan 2025 00:00:00 GMT</pubDate></item></channel></rss>`;

const ATOM = (path: string): string =>
  `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>` +
  `<entry><title>Entry</title><link href="https://site.test${path}"/>` +
  `<updated>2025-01-01T00:00:00Z</updated></entry></feed>`;

Deno.test("sitemapTreeForHomepage() adds the homepage's feeds after robots.txt and the well-known paths, each once", async () => {
  const site = new FixtureSite()
    .file(
      "/",
      `<html><head>
        <link rel="alternate" type="application/rss+xml" href="/listed.xml">
        <link rel="alternate" type="application/rss+xml" href="/feed.rss">
        <link rel="alternate" type="application/atom+xml" href="/feed.atom">
        <link rel="alternate" type="application/rss+xml" href="/sitemap.xml">
        <link rel="alternate" type="application/rss+xml" href="/gone.rss">
      </head></html>`,
      { contentType: "text/html; charset=utf-8" },
    )
    .file("/robots.txt", "Sitemap: /listed.xml\n")
    .file("/listed.xml", RSS("/listed"))
    .file("/sitemap.xml", urlset(["/known"]))
    .file("/feed.rss", RSS("/rss-post"))
    .file("/feed.atom", ATOM("/atom-entry"));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, useKnownPaths: true });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    rss /listed.xml",
      "      - https://site.test/listed",
      "  urlset /sitemap.xml",
      "    - https://site.test/known",
      "  rss /feed.rss",
      "    - https://site.test/rss-post",
      "  atom /feed.atom",
      "    - https://site.test/atom-entry",
      "  invalid /gone.rss: Unable to fetch sitemap from /gone.rss: 404 Not Found",
    ]);
    for (const path of ["/", "/listed.xml", "/sitemap.xml", "/feed.rss", "/feed.atom"]) {
      assertEquals(site.count(path), 1, path);
    }
    const feedPage = [...tree.allPages()].find((p) => p.url.endsWith("/rss-post"))!;
    assertEquals(feedPage.newsStory?.title, "Post");
  });
});

Deno.test("useFeeds: false never requests the homepage; a homepage that fails or has no feeds adds nothing", async () => {
  const site = new FixtureSite().file("/robots.txt", "Sitemap: /s.xml\n").file(
    "/s.xml",
    urlset(["/x"]),
  );
  await withSite(site, async (server) => {
    const off = await sitemapTreeForHomepage(server.url("/"), { ...base, useFeeds: false });
    assertEquals(site.count("/"), 0);
    const on = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(site.count("/"), 1);
    assertEquals(outline(on, server.origin), outline(off, server.origin));
    assertEquals(on.stats.invalid, []);
  });
  const plain = new FixtureSite().file("/", "<html><body>Hello</body></html>", {
    contentType: "text/html",
  });
  await withSite(plain, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /"]);
  });
});

Deno.test("the homepage read is bounded like a sitemap and may arrive gzipped, redirected or in another charset", async () => {
  const link = '<link rel="alternate" type="application/rss+xml" href="/feed.rss">';
  const site = new FixtureSite()
    .redirect("/", "/home/", 302)
    .file("/home/", gzip(`<html><head>${link}</head></html>`), { contentType: "text/html" })
    .file("/feed.rss", RSS("/post"));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  rss /feed.rss",
      "    - https://site.test/post",
    ]);
  });
  // The link sits past the download limit: the homepage is cut there and yields nothing.
  const big = new FixtureSite()
    .file("/", `<html><head>${" ".repeat(70_000)}${link}</head></html>`, {
      contentType: "text/html",
    })
    .file("/feed.rss", RSS("/post"));
  await withSite(big, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      maxDownloadBytes: 64 * 1024,
    });
    assertEquals(outline(tree, server.origin), ["website /"]);
    assertEquals(big.count("/feed.rss"), 0);
  });
  // A homepage that never answers costs one timeout, not the crawl.
  const hanging = new FixtureSite().hang("/").file("/robots.txt", "Sitemap: /s.xml\n").file(
    "/s.xml",
    urlset(["/x"]),
  );
  await withSite(hanging, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, timeoutMs: 200 });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    urlset /s.xml",
      "      - https://site.test/x",
    ]);
  });
  const latin = new FixtureSite()
    .file(
      "/",
      new Uint8Array([
        ...new TextEncoder().encode('<link rel="alternate" type="application/rss+xml" href="/caf'),
        0xe9,
        ...new TextEncoder().encode('.rss">'),
      ]),
      { contentType: "text/html; charset=ISO-8859-1" },
    )
    .file("/caf%C3%A9.rss", RSS("/latin"));
  await withSite(latin, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  rss /caf%C3%A9.rss",
      "    - https://site.test/latin",
    ]);
  });
});
