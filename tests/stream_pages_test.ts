import { assertEquals, assertRejects } from "./_assert.ts";
import { streamPages } from "../src/stream_pages.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { FixtureSite, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";

function bigSite(): FixtureSite {
  const children = Array.from({ length: 6 }, (_, i) => `/part${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\nSitemap: /part0.xml\n")
    .file("/index.xml", sitemapIndex(children));
  children.forEach((child, i) => {
    const paths = Array.from({ length: 50 }, (_, j) => `/p${i}/${j}`);
    site.file(child, urlset(paths), { latencyMs: (6 - i) * 10 });
  });
  return site;
}

Deno.test("streamPages() yields the same pages as the tree, each sitemap once", async () => {
  await withSite(bigSite(), async (server) => {
    const options = { useKnownPaths: false, workers: 1 };
    const tree = await sitemapTreeForHomepage(server.url("/"), options);
    // The tree lists part0 twice (under robots.txt and under the index); the stream once.
    const fromTree = [...new Set([...tree.allPages()].map((p) => p.url))].sort();
    const streamed: string[] = [];
    for await (const page of streamPages(server.url("/"), options)) streamed.push(page.url);
    assertEquals(streamed.length, 300);
    assertEquals(streamed.sort(), fromTree);
  });
});

Deno.test("streamPages() stops the crawl when the consumer breaks out", async () => {
  const site = bigSite();
  await withSite(site, async (server) => {
    let seen = 0;
    for await (const _page of streamPages(server.url("/"), { useKnownPaths: false, workers: 0 })) {
      if (++seen === 10) break;
    }
    assertEquals(seen, 10);
    // Deno's sanitizers fail this test if a request, timer or worker outlived the loop.
  });
});

Deno.test("streamPages() rejects with the abort reason", async () => {
  const site = new FixtureSite().file("/robots.txt", "Sitemap: /hang.xml\n").hang("/hang.xml");
  await withSite(site, async (server) => {
    const controller = new AbortController();
    const reason = new Error("enough");
    setTimeout(() => controller.abort(reason), 50);
    const error = await assertRejects(async () => {
      for await (const _ of streamPages(server.url("/"), { signal: controller.signal })) {
        // never reached
      }
    });
    assertEquals(error, reason);
  });
});

Deno.test("streamPages() downloads no further ahead of a slow consumer than concurrency + 2 sitemaps", async () => {
  const count = 12;
  const children = Array.from({ length: count }, (_, i) => `/part${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(children));
  children.forEach((child, i) => site.file(child, urlset([`/p${i}/a`, `/p${i}/b`])));
  await withSite(site, async (server) => {
    let fetched = 0;
    let started = 0;
    let ahead = 0;
    const options = {
      useKnownPaths: false,
      useFeeds: false,
      workers: 0,
      concurrency: 1,
      onProgress: (event: { kind: string; url: string }) => {
        if (event.kind !== "fetched" || !event.url.includes("/part")) return;
        fetched++;
        ahead = Math.max(ahead, fetched - started);
      },
    };
    const pages: string[] = [];
    for await (const page of streamPages(server.url("/"), options)) {
      pages.push(page.url);
      if (page.url.endsWith("/a")) {
        started++;
        // A consumer doing work per sitemap, slower than the downloads.
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    }
    assertEquals(pages.length, 2 * count);
    assertEquals(fetched, count);
    // concurrency 1 + 2: a download in flight and two parsed sitemaps waiting
    // (a sitemap's slot is given back as the consumer starts on it).
    assertEquals(ahead, 3);
  });
});

Deno.test("streamPages() behaves as an async generator: lazy start, option errors on the first next(), queued next() calls, return() and throw()", async () => {
  // Nothing is checked or started before the first next().
  const bad = streamPages("ftp://example.com/");
  await assertRejects(
    () => bad.next(),
    TypeError,
    'Homepage URL must be http(s), got "ftp://example.com/"',
  );
  assertEquals(await bad.next(), { value: undefined, done: true });

  await withSite(bigSite(), async (server) => {
    const options = { useKnownPaths: false, useFeeds: false, workers: 0 };
    // return() before the first next(): never crawls.
    const unused = streamPages(server.url("/"), options);
    assertEquals(await unused.return(), { value: undefined, done: true });
    assertEquals(await unused.next(), { value: undefined, done: true });

    // next() calls made without waiting settle in order, with distinct pages.
    const stream = streamPages(server.url("/"), options);
    const first = await Promise.all([stream.next(), stream.next(), stream.next()]);
    assertEquals(first.map((r) => r.done), [false, false, false]);
    assertEquals(new Set(first.map((r) => r.value?.url)).size, 3);
    let rest = 0;
    for (let r = await stream.next(); !r.done; r = await stream.next()) rest++;
    assertEquals(rest + 3, 300);

    // throw() stops the crawl and rejects with the error given.
    const thrown = streamPages(server.url("/"), options);
    assertEquals((await thrown.next()).done, false);
    const error = new Error("consumer gave up");
    await assertRejects(() => thrown.throw(error), Error, "consumer gave up");
    assertEquals(await thrown.next(), { value: undefined, done: true });
    // Deno's sanitizers fail this test if a request or timer outlived the streams.
  });
});
