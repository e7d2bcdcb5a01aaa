import { assert, assertEquals, assertRejects } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { generatedPage, generateUrlset, gzip } from "../fixtures/generate.ts";
import { gzipBomb } from "../fixtures/bombs.ts";
import { IndexRobotsTxtSitemap, InvalidSitemap } from "../src/objects/sitemap.ts";
import { sitemapTreeFromJSON } from "../src/objects/from_json.ts";
import { FixtureSite, outline, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";

/** Most tests parse in-thread (quicker to start); the worker path has tests of its own. */
const base: SitemapTreeOptions = {
  workers: 0,
  useKnownPaths: false,
  useFeeds: false,
  timeoutMs: 2_000,
};

Deno.test("sitemapTreeForHomepage() builds robots.txt -> index -> urlsets in document order", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "User-agent: *\nSitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/slow.xml", "/fast.xml"]))
    // The first child answers last: the tree must still list it first.
    .file("/slow.xml", urlset(["/a", "/b"]), { latencyMs: 150 })
    .file("/fast.xml", urlset(["/c"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/some/page?x=1"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /slow.xml",
      "        - https://site.test/a",
      "        - https://site.test/b",
      "      urlset /fast.xml",
      "        - https://site.test/c",
    ]);
    assertEquals([...tree.allPages()].map((p) => p.url), [
      "https://site.test/a",
      "https://site.test/b",
      "https://site.test/c",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() leaves out robots.txt on a 404 and keeps an empty robots node without Sitemap lines", async () => {
  await withSite(new FixtureSite(), async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /"]);
  });
  const site = new FixtureSite().file("/robots.txt", "User-agent: *\nDisallow: /private\n");
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /", "  robots /robots.txt"]);
  });
});

Deno.test("sitemapTreeForHomepage() finds an unlisted well-known sitemap and drops one robots.txt already found", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /listed.xml\n")
    .file("/listed.xml", urlset(["/listed"]))
    // A well-known path that redirects to the robots-listed sitemap: found once, not twice.
    .redirect("/sitemap_index.xml", "/listed.xml", 301)
    .file("/sitemap-news.xml", urlset(["/news"]))
    // A soft 404: an HTML page with status 200 on a well-known path is dropped quietly.
    .file("/sitemap", "<!doctype html><html><body>Not here</body></html>", {
      contentType: "text/html",
    });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, useKnownPaths: true });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    urlset /listed.xml",
      "      - https://site.test/listed",
      "  urlset /sitemap-news.xml",
      "    - https://site.test/news",
    ]);
    assertEquals(tree.stats.invalid, []);
  });
});

Deno.test("sitemapTreeForHomepage() probes extraKnownPaths and skips them when disabled", async () => {
  const site = new FixtureSite().file("/maps/extra.xml", urlset(["/x"]));
  await withSite(site, async (server) => {
    const found = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      useRobots: false,
      useKnownPaths: true,
      extraKnownPaths: ["/maps/extra.xml"],
    });
    assertEquals(outline(found, server.origin), [
      "website /",
      "  urlset /maps/extra.xml",
      "    - https://site.test/x",
    ]);
    site.clearLog();
    const none = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      useRobots: false,
      useKnownPaths: false,
    });
    assertEquals(outline(none, server.origin), ["website /"]);
    assertEquals(site.log.length, 0);
  });
});

Deno.test("sitemapTreeForHomepage() cuts recursion: self-listing index, 1->2->3->1 cycle, child redirecting to its parent", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /self.xml\nSitemap: /one.xml\nSitemap: /parent.xml\n")
    .file("/self.xml", sitemapIndex(["/self.xml#again", "/leaf.xml"]))
    .file("/leaf.xml", urlset(["/leaf"]))
    .file("/one.xml", sitemapIndex(["/two.xml"]))
    .file("/two.xml", sitemapIndex(["/three.xml"]))
    .file("/three.xml", sitemapIndex(["/one.xml"]))
    .file("/parent.xml", sitemapIndex(["/child.xml"]))
    .redirect("/child.xml", "/parent.xml", 302);
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /self.xml",
      // The reader drops the fragment, so the child is the index itself.
      "      invalid /self.xml: Recursion detected in URL /self.xml",
      "      urlset /leaf.xml",
      "        - https://site.test/leaf",
      "    index /one.xml",
      "      index /two.xml",
      "        index /three.xml",
      "          invalid /one.xml: Recursion detected in URL /one.xml",
      "    index /parent.xml",
      "      invalid /parent.xml: Recursion detected in URL /child.xml (redirects to /parent.xml)",
    ]);
    assertEquals(site.count("/one.xml"), 1);
    assertEquals(site.count("/self.xml"), 1);
  });
});

Deno.test("sitemapTreeForHomepage() reads robots.txt listed by an index as a robots node", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/other/robots.txt"]))
    .file("/other/robots.txt", "Sitemap: /other/pages.xml\n")
    .file("/other/pages.xml", urlset(["/o"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      robots /other/robots.txt",
      "        urlset /other/pages.xml",
      "          - https://site.test/o",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() detects gzip by its bytes, whatever the URL and headers say", async () => {
  const doc = (name: string): string => urlset([`/${name}`]);
  const site = new FixtureSite()
    .file(
      "/robots.txt",
      [
        "Sitemap: /plain-gz.xml.gz",
        "Sitemap: /x-gzip",
        "Sitemap: /fake.xml.gz",
        "Sitemap: /transport.xml",
        "Sitemap: /octets",
      ].join("\n"),
    )
    .file("/plain-gz.xml.gz", gzip(doc("gz-without-header")), { contentType: "text/plain" })
    .file("/x-gzip", gzip(doc("x-gzip")), { contentType: "application/x-gzip" })
    .file("/fake.xml.gz", doc("fake-gz"), { contentType: "application/gzip" })
    .file("/transport.xml", doc("transport"), { gzip: "transport" })
    .file("/octets", gzip(doc("octets")), { contentType: "application/octet-stream" });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals([...tree.allPages()].map((p) => p.url), [
      "https://site.test/gz-without-header",
      "https://site.test/x-gzip",
      "https://site.test/fake-gz",
      "https://site.test/transport",
      "https://site.test/octets",
    ]);
    assertEquals(tree.stats.invalid, []);
  });
});

Deno.test("sitemapTreeForHomepage() rejects a gzip bomb as a file and as transport encoding, keeping siblings", async () => {
  const bomb = gzipBomb(200 * 1024 * 1024);
  const site = new FixtureSite()
    .file(
      "/robots.txt",
      "Sitemap: /bomb.xml.gz\nSitemap: /good.xml\nSitemap: /bomb-transport.xml\n",
    )
    .file("/bomb.xml.gz", bomb, { contentType: "application/gzip" })
    .route("/bomb-transport.xml", () =>
      new Response(bomb.slice(), {
        headers: { "content-type": "application/xml", "content-encoding": "gzip" },
      }))
    .file("/good.xml", urlset(["/good"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      maxSitemapBytes: 10 * 1024 * 1024,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /bomb.xml.gz: Sitemap expands past 10485760 bytes",
      "    urlset /good.xml",
      "      - https://site.test/good",
      "    invalid /bomb-transport.xml: Sitemap expands past 10485760 bytes",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() applies recurseListCallback, then recurseCallback, leaving rejected children out", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/a.xml", "/b.xml", "/c.xml"]))
    .file("/a.xml", urlset(["/a"]))
    .file("/b.xml", urlset(["/b"]))
    .file("/c.xml", urlset(["/c"]));
  await withSite(site, async (server) => {
    const calls: string[] = [];
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      recurseListCallback: (urls, level, parents) => {
        calls.push(`list ${level} ${urls.length} ${parents.length}`);
        return [...urls].reverse();
      },
      recurseCallback: (url, level) => {
        calls.push(`one ${level} ${url.slice(server.origin.length)}`);
        return Promise.resolve(!url.endsWith("/b.xml"));
      },
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /c.xml",
      "        - https://site.test/c",
      "      urlset /a.xml",
      "        - https://site.test/a",
    ]);
    assertEquals(calls, [
      "list 1 1 1",
      "one 1 /index.xml",
      "list 2 3 2",
      "one 2 /c.xml",
      "one 2 /b.xml",
      "one 2 /a.xml",
    ]);
    assertEquals(site.count("/b.xml"), 0);
  });
});

Deno.test("sitemapTreeForHomepage() fetches a sitemap listed by two parents once", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /one.xml\nSitemap: /two.xml\n")
    .file("/one.xml", sitemapIndex(["/shared.xml"]))
    .file("/two.xml", sitemapIndex(["/shared.xml"]))
    .file("/shared.xml", urlset(["/s"]), { latencyMs: 50 });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /one.xml",
      "      urlset /shared.xml",
      "        - https://site.test/s",
      "    index /two.xml",
      "      urlset /shared.xml",
      "        - https://site.test/s",
    ]);
    assertEquals(site.count("/shared.xml"), 1);
  });
});

Deno.test("sitemapTreeForHomepage() retries a 503 and a 429 with Retry-After, and not a 404", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /flaky.xml\nSitemap: /limited.xml\nSitemap: /missing.xml\n")
    .sequence("/flaky.xml", [{ status: 503 }, { status: 200, body: urlset(["/flaky"]) }])
    .tooManyRequests("/limited.xml", 1, urlset(["/limited"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    urlset /flaky.xml",
      "      - https://site.test/flaky",
      "    urlset /limited.xml",
      "      - https://site.test/limited",
      "    invalid /missing.xml: Unable to fetch sitemap from /missing.xml: 404 Not Found",
    ]);
    assertEquals(site.count("/flaky.xml"), 2);
    assertEquals(site.count("/missing.xml"), 1);
    const limited = site.log.filter((r) => r.path === "/limited.xml");
    assertEquals(limited.length, 2);
    assert(limited[1]!.startedAt - limited[0]!.startedAt >= 900, "Retry-After: 1 was not honoured");
  });
});

Deno.test("sitemapTreeForHomepage() cuts an endless body at timeoutMs and keeps its siblings", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /endless.xml\nSitemap: /fine.xml\n")
    .endless("/endless.xml", { intervalMs: 5 })
    .file("/fine.xml", urlset(["/fine"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      timeoutMs: 300,
      retries: 0,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /endless.xml: Timed out after 300 ms",
      "    urlset /fine.xml",
      "      - https://site.test/fine",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() rejects promptly with the abort reason", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /hang.xml\n")
    .hang("/hang.xml");
  await withSite(site, async (server) => {
    const controller = new AbortController();
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 100);
    const error = await assertRejects(() =>
      sitemapTreeForHomepage(server.url("/"), {
        ...base,
        timeoutMs: 10_000,
        signal: controller.signal,
      })
    );
    assertEquals(error, reason);
    // An already-aborted signal rejects before any request.
    site.clearLog();
    await assertRejects(() =>
      sitemapTreeForHomepage(server.url("/"), { ...base, signal: AbortSignal.abort(reason) })
    );
    assertEquals(site.log.length, 0);
  });
});

Deno.test("sitemapTreeForHomepage() sends userAgent and headers on every request, children included", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/moved.xml"]))
    .redirect("/moved.xml", "/pages.xml", 308)
    .file("/pages.xml", urlset(["/p"]));
  await withSite(site, async (server) => {
    await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      userAgent: "TestBot/1.0",
      headers: { "X-Token": "secret" },
    });
    assertEquals(
      site.log.map((r) => `${r.path} ${r.headers["user-agent"]} ${r.headers["x-token"]}`),
      [
        "/robots.txt TestBot/1.0 secret",
        "/index.xml TestBot/1.0 secret",
        "/moved.xml TestBot/1.0 secret",
        "/pages.xml TestBot/1.0 secret",
      ],
    );
  });
});

Deno.test("sitemapTreeForHomepage() keeps at most `concurrency` requests in flight", async () => {
  const children = Array.from({ length: 12 }, (_, i) => `/c${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(children));
  for (const child of children) site.file(child, urlset([child]), { latencyMs: 30 });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      useKnownPaths: true,
      concurrency: 3,
    });
    assertEquals([...tree.allPages()].length, 12);
    assertEquals(site.maxInFlight, 3);
  });
});

Deno.test("sitemapTreeForHomepage() enforces maxDepth and maxSitemaps with reasons", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /d1.xml\n")
    .file("/d1.xml", sitemapIndex(["/d2.xml"]))
    .file("/d2.xml", sitemapIndex(["/d3.xml"]))
    .file("/d3.xml", urlset(["/deep"]));
  await withSite(site, async (server) => {
    const shallow = await sitemapTreeForHomepage(server.url("/"), { ...base, maxDepth: 2 });
    assertEquals(outline(shallow, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /d1.xml",
      "      index /d2.xml",
      "        invalid /d3.xml: Recursion level exceeded: /d3.xml is 3 levels deep (maxDepth is 2)",
    ]);
    const few = await sitemapTreeForHomepage(server.url("/"), { ...base, maxSitemaps: 3 });
    assertEquals(outline(few, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /d1.xml",
      "      index /d2.xml",
      "        invalid /d3.xml: Not fetched: the crawl's limit of 3 sitemaps (maxSitemaps) was reached",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() gives the same tree with workers 0, 1 and 4", async () => {
  const site = new FixtureSite().mount(new URL("../fixtures/files/", import.meta.url).pathname);
  await withSite(site, async (server) => {
    const trees = [];
    for (const workers of [0, 1, 4]) {
      // Workers load (and, under `deno test`, type-check) their module first: allow for it.
      const tree = await sitemapTreeForHomepage(server.url("/"), {
        ...base,
        workers,
        timeoutMs: 30_000,
      });
      trees.push(JSON.stringify(tree));
    }
    assertEquals(trees[1], trees[0]);
    assertEquals(trees[2], trees[0]);
    assert(trees[0]!.includes("sitemap_media.xml"));
  });
});

Deno.test("sitemapTreeForHomepage() rejects bad arguments with errors naming the value", async () => {
  await assertRejects(
    () => sitemapTreeForHomepage("ftp://example.com/"),
    TypeError,
    'Homepage URL must be http(s), got "ftp://example.com/"',
  );
  await assertRejects(
    () => sitemapTreeForHomepage("not a url"),
    TypeError,
    'Homepage URL is not a valid URL: "not a url"',
  );
  await assertRejects(
    () => sitemapTreeForHomepage("http://127.0.0.1:9/", { concurrency: 0 }),
    RangeError,
    'Option "concurrency" must be an integer >= 1, got 0',
  );
  await assertRejects(
    () => sitemapTreeForHomepage("http://127.0.0.1:9/", { since: "yesterday-ish" }),
    RangeError,
    'Option "since" must be a valid date, got "yesterday-ish"',
  );
  await assertRejects(
    () =>
      sitemapTreeForHomepage("http://127.0.0.1:9/", {
        allowPrivateNetworks: "sometimes" as unknown as boolean,
      }),
    RangeError,
    'Option "allowPrivateNetworks" must be true, false or "if-homepage-is", got "sometimes"',
  );
  await assertRejects(
    () => sitemapTreeForHomepage("http://127.0.0.1:9/", { headers: { "x crawl": "1" } }),
    TypeError,
    'Option "headers": "x crawl" is not a header name',
  );
  for (const value of ["a\r\nInjected: 1", "nul\0", "\u20ac"]) {
    await assertRejects(
      () => sitemapTreeForHomepage("http://127.0.0.1:9/", { headers: { "x-crawl": value } }),
      TypeError,
      'Option "headers": the value of x-crawl must be a string without line breaks or NUL',
    );
  }
});

Deno.test("sitemapTreeForHomepage() applies since in the parser and counts found and kept pages", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /pages.xml\n")
    .file(
      "/pages.xml",
      urlset(["/old", "/new", "/undated", "/newer"], [
        "2020-01-01",
        "2024-06-01T10:00:00+02:00",
        "",
        "2025",
      ]),
    );
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, since: "2024-01-01" });
    assertEquals([...tree.allPages()].map((p) => p.url), [
      "https://site.test/new",
      "https://site.test/undated",
      "https://site.test/newer",
    ]);
    assertEquals(tree.stats.pagesFound, 4);
    assertEquals(tree.stats.pagesKept, 3);
  });
});

Deno.test("sitemapTreeForHomepage() with since keeps the same pages whether a document parses on the calling thread or on a worker it hands over to", async () => {
  // Default options: the call parses cheap documents on its own thread and
  // hands a costly one (the 46,000-URL urlset) and every later one to a worker
  // (bench/README.md#issue-24-since-on-the-calling-thread). workers: 0
  // parses everything on the calling thread, the other way.
  const since = "2024-06-01";
  // In order: a cheap one, the costly one (6.2 MB inflated, over 30 ms at the
  // rate first assumed), then a cheap one after the hand-over.
  const documents: [path: string, urls: number, latencyMs: number][] = [
    ["/a.xml.gz", 300, 0],
    ["/big.xml.gz", 46_000, 100],
    ["/c.xml.gz", 500, 300],
  ];
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(documents.map(([path]) => path)));
  for (const [path, count, latencyMs] of documents) {
    site.file(
      path,
      (o) => generateUrlset(count, { host: o, seed: count, lastmod: true, changefreq: true }),
      { gzip: "file", latencyMs },
    );
  }
  const expected = documents.flatMap(([, count]) =>
    Array.from(
      { length: count },
      (_, i) => generatedPage(i, { seed: count, lastmod: true, changefreq: true }),
    )
      .filter((page) => page.lastmod === null || page.lastmod >= new Date(since))
  ).length;
  await withSite(site, async (server) => {
    const options = { useKnownPaths: false, useFeeds: false, timeoutMs: 10_000, since };
    const split = await sitemapTreeForHomepage(server.url("/"), options);
    const here = await sitemapTreeForHomepage(server.url("/"), { ...options, workers: 0 });
    const pages = (tree: typeof here) =>
      [...tree.allPages()].map((p) => `${p.url} ${p.lastModified?.toISOString()}`);
    assertEquals(
      {
        kept: split.stats.pagesKept,
        found: split.stats.pagesFound,
        warnings: split.stats.warnings,
      },
      { kept: expected, found: 46_800, warnings: [] },
    );
    assertEquals(pages(split), pages(here));
    assertEquals(pages(split).length, expected);
  });
});

/** A fetch that answers from a table and records every URL; it never touches the network. */
function recordingFetch(routes: Record<string, string>): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake = (input: RequestInfo | URL, _init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    const body = routes[url];
    return Promise.resolve(
      body === undefined ? new Response("Not Found", { status: 404 }) : new Response(body),
    );
  };
  return { fetch: fake as typeof fetch, calls };
}

Deno.test("sitemapTreeForHomepage() refuses private-network children of a public site without requesting them", async () => {
  const { fetch, calls } = recordingFetch({
    "https://www.example.com/robots.txt": [
      "Sitemap: http://169.254.169.254/latest/meta-data/",
      "Sitemap: http://10.0.0.1/sitemap.xml",
      "Sitemap: http://[::1]/sitemap.xml",
      "Sitemap: http://localhost/sitemap.xml",
      "Sitemap: https://www.example.com/pages.xml",
    ].join("\n"),
    "https://www.example.com/pages.xml": urlset(["/public"]),
  });
  const tree = await sitemapTreeForHomepage("https://www.example.com/", {
    ...base,
    fetch,
  });
  assertEquals(
    [...tree.allSitemaps()].map((s) =>
      s instanceof InvalidSitemap ? `${s.url} ${s.reason}` : s.url
    ),
    [
      "https://www.example.com/robots.txt",
      'http://169.254.169.254/latest/meta-data/ Refused private-network address 169.254.169.254 (link-local, cloud metadata service; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
      'http://10.0.0.1/sitemap.xml Refused private-network address 10.0.0.1 (private, RFC 1918; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
      'http://[::1]/sitemap.xml Refused private-network address [::1] (loopback; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
      'http://localhost/sitemap.xml Refused private-network name localhost (loopback name, RFC 6761; allowPrivateNetworks is "if-homepage-is" and the homepage is public)',
      "https://www.example.com/pages.xml",
    ],
  );
  assertEquals(calls, [
    "https://www.example.com/robots.txt",
    "https://www.example.com/pages.xml",
  ]);
  // Allowed explicitly, the same children are requested (from the fake, still no network).
  const allowed = recordingFetch({
    "https://www.example.com/robots.txt": "Sitemap: http://10.0.0.1/sitemap.xml\n",
  });
  await sitemapTreeForHomepage("https://www.example.com/", {
    ...base,
    fetch: allowed.fetch,
    allowPrivateNetworks: true,
  });
  assertEquals(allowed.calls, [
    "https://www.example.com/robots.txt",
    "http://10.0.0.1/sitemap.xml",
  ]);
});

const INVALID_REDIRECTS = [
  // Named as robots.txt listed it, the refused hop in the reason.
  'https://www.example.com/a.xml Refused private-network address 169.254.169.254 (link-local, cloud metadata service; allowPrivateNetworks is "if-homepage-is" and the homepage is public) (redirected to http://169.254.169.254/latest/)',
  "https://www.example.com/b.xml Redirect to a non-http(s) URL refused: file:///etc/passwd",
];

Deno.test("sitemapTreeForHomepage() refuses a redirect to a private address or a non-http scheme", async () => {
  const calls: string[] = [];
  const fake = ((input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    const redirects: Record<string, string> = {
      "https://www.example.com/a.xml": "http://169.254.169.254/latest/",
      "https://www.example.com/b.xml": "file:///etc/passwd",
    };
    if (url === "https://www.example.com/robots.txt") {
      return Promise.resolve(new Response("Sitemap: /a.xml\nSitemap: /b.xml\n"));
    }
    const to = redirects[url];
    return Promise.resolve(
      to ? new Response(null, { status: 302, headers: { location: to } }) : new Response("", {
        status: 404,
      }),
    );
  }) as typeof fetch;
  const tree = await sitemapTreeForHomepage("https://www.example.com/", { ...base, fetch: fake });
  const invalid = [...tree.allSitemaps()].flatMap((s) =>
    s instanceof InvalidSitemap ? [`${s.url} ${s.reason}`] : []
  );
  assertEquals(invalid, INVALID_REDIRECTS);
  assertEquals(calls, [
    "https://www.example.com/robots.txt",
    "https://www.example.com/a.xml",
    "https://www.example.com/b.xml",
  ]);
});

Deno.test("sitemapTreeForHomepage() names a redirect loop's invalid node as robots.txt listed it", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "User-agent: *\nSitemap: /a.xml\nSitemap: /ok.xml\n")
    .redirect("/a.xml", "/b.xml", 302)
    .redirect("/b.xml", "/a.xml", 302)
    .file("/ok.xml", urlset(["/p"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /a.xml: Redirect loop: /b.xml redirects back to /a.xml",
      "    urlset /ok.xml",
      "      - https://site.test/p",
    ]);
  });
});

Deno.test("sitemapTreeForHomepage() with normalizeHomepageUrl false reads robots.txt at the root and the known paths under the kept path", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "User-agent: *\nSitemap: /root.xml\n")
    .file("/root.xml", urlset(["/r"]))
    .file("/blog/robots.txt", "User-agent: *\nSitemap: /blog/never.xml\n")
    .file("/blog/sitemap.xml", urlset(["/blog/p"]));
  await withSite(site, async (server, s) => {
    const tree = await sitemapTreeForHomepage(server.url("/blog/"), {
      ...base,
      useKnownPaths: true,
      normalizeHomepageUrl: false,
    });
    assertEquals(outline(tree, server.origin), [
      "website /blog/",
      "  robots /robots.txt",
      "    urlset /root.xml",
      "      - https://site.test/r",
      "  urlset /blog/sitemap.xml",
      "    - https://site.test/blog/p",
    ]);
    assertEquals([s.count("/blog/robots.txt"), s.count("/sitemap.xml")], [0, 0]);
  });
});

Deno.test("sitemapTreeForHomepage() keeps the robots.txt on its node: rules, crawl delays and sitemaps, in-thread and on a worker", async () => {
  const text = "User-agent: *\nDisallow: /private/\n\nUser-agent: slowbot\nCrawl-delay: 3\n" +
    "Disallow: /\n\nSitemap: /a.xml\n";
  const site = new FixtureSite().file("/robots.txt", text).file("/a.xml", urlset(["/x"]));
  await withSite(site, async (server) => {
    for (const workers of [0, 1]) {
      const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, workers });
      const node = tree.subSitemaps[0];
      assert(node instanceof IndexRobotsTxtSitemap);
      const robots = node.robots;
      assertEquals(
        [
          robots.url,
          robots.text,
          robots.sitemaps,
          robots.matchingRule(server.url("/private/a")),
          robots.isAllowed(server.url("/public"), "slowbot/1.0"),
          robots.crawlDelay("slowbot"),
        ],
        [
          server.url("/robots.txt"),
          text,
          [server.url("/a.xml")],
          { allow: false, pattern: "/private/", line: 2 },
          false,
          3,
        ],
      );
      const copy = sitemapTreeFromJSON(JSON.parse(JSON.stringify(tree)));
      const copied = copy.subSitemaps[0] as IndexRobotsTxtSitemap;
      assertEquals([copied.robots.text, copied.robots.isAllowed(server.url("/private/a"))], [
        text,
        false,
      ]);
    }
  });
});
