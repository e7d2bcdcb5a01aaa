/**
 * The limits of one call: `maxSitemaps` counts the sitemaps of the tree, the
 * fail-fast rule gives up only hosts that never answered, and `deadlineMs`
 * and `connectTimeoutMs` bound a whole site.
 */
import { assert, assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { SITE_DEADLINE_MS, sitemapTreesForHomepages, type SiteResult } from "../src/many_sites.ts";
import { serveSites } from "../fixtures/sites.ts";
import { PageStream } from "../src/stream_pages.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { type AbstractSitemap, InvalidSitemap } from "../src/objects/sitemap.ts";
import {
  dripSite,
  FixtureSite,
  outline,
  silentHosts,
  sitemapIndex,
  urlset,
  withSite,
} from "./_tree_helpers.ts";

const BIG = "https://big.test";
const LIMIT = "Not fetched: the crawl's limit of 10000 sitemaps (maxSitemaps) was reached";

/**
 * A site on an injected fetch whose index `/sitemap_index.xml` (a
 * well-known path) names `children` urlsets of one page each; robots.txt
 * names the index too unless `robots` is false. Counts the requests per path.
 */
function bigSite(children: number, robots = true) {
  const index = sitemapIndex(Array.from({ length: children }, (_, i) => `${BIG}/c/${i}.xml`));
  const requests = new Map<string, number>();
  const fetch = (input: RequestInfo | URL): Promise<Response> => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    let body: string | null = null;
    if (path === "/robots.txt" && robots) body = `Sitemap: ${BIG}/sitemap_index.xml\n`;
    else if (path === "/sitemap_index.xml") body = index;
    else if (path.startsWith("/c/")) body = urlset([path.replace(/\.xml$/, "")]);
    return Promise.resolve(
      body === null ? new Response("Not Found", { status: 404 }) : new Response(body),
    );
  };
  const childRequests = (): number =>
    [...requests].filter(([p]) => p.startsWith("/c/")).reduce((n, [, c]) => n + c, 0);
  return { fetch: fetch as typeof globalThis.fetch, requests, childRequests };
}

/** Node types of the tree under the root, and the invalid ones' URLs (origin cut) with their reasons. */
function census(tree: AbstractSitemap): { types: Record<string, number>; cut: string[] } {
  const types: Record<string, number> = {};
  const cut: string[] = [];
  for (const node of tree.allSitemaps()) {
    types[node.type] = (types[node.type] ?? 0) + 1;
    if (node instanceof InvalidSitemap) cut.push(`${node.url.slice(BIG.length)}: ${node.reason}`);
  }
  return { types, cut };
}

Deno.test("maxSitemaps: an index of 9,990 children named by robots.txt and found at /sitemap_index.xml is read whole on the default options", async () => {
  const site = bigSite(9_990);
  const tree = await sitemapTreeForHomepage(`${BIG}/`, { fetch: site.fetch });
  // Before, the index's second occurrence counted its children again: about
  // 5,000 urlsets were read and the rest were cut.
  assertEquals(site.childRequests(), 9_990);
  assertEquals(census(tree), { types: { robots: 1, index: 1, urlset: 9_990 }, cut: [] });
  assertEquals(site.requests.get("/sitemap_index.xml"), 1);
  assertEquals(
    [tree.stats.outcome, tree.stats.outcomeReason, tree.stats.notFetched],
    ["ok", null, 0],
  );
});

Deno.test("maxSitemaps: 10,001 distinct children are cut by exactly 3 (robots.txt and the index count), each with its reason", async () => {
  const site = bigSite(10_001);
  const tree = await sitemapTreeForHomepage(`${BIG}/`, { fetch: site.fetch, workers: 0 });
  assertEquals(site.childRequests(), 9_998);
  assertEquals(census(tree), {
    types: { robots: 1, index: 1, urlset: 9_998, invalid: 3 },
    cut: [`/c/9998.xml: ${LIMIT}`, `/c/9999.xml: ${LIMIT}`, `/c/10000.xml: ${LIMIT}`],
  });
  assertEquals([tree.stats.outcome, tree.stats.notFetched], ["ok", 3]);
  assertEquals(
    tree.stats.outcomeReason,
    "3 sitemaps not fetched: the crawl's limit of 10000 sitemaps (maxSitemaps) was reached",
  );
});

Deno.test("maxSitemaps: without robots.txt the 404s of the well-known paths do not count; with robots.txt alone it and the index do", async () => {
  // -r: the index is found by probing; the 13 other probes 404.
  const probed = bigSite(9_999, false);
  const tree = await sitemapTreeForHomepage(`${BIG}/`, {
    fetch: probed.fetch,
    workers: 0,
    useRobots: false,
  });
  // Before, the 14 probes counted: 13 children were cut.
  assertEquals(probed.childRequests(), 9_999);
  assertEquals(census(tree), { types: { index: 1, urlset: 9_999 }, cut: [] });
  // -k: robots.txt, the index and 9,998 children make 10,000.
  const listed = bigSite(9_999);
  const known = await sitemapTreeForHomepage(`${BIG}/`, {
    fetch: listed.fetch,
    workers: 0,
    useKnownPaths: false,
  });
  assertEquals(listed.childRequests(), 9_998);
  assertEquals(census(known), {
    types: { robots: 1, index: 1, urlset: 9_998, invalid: 1 },
    cut: [`/c/9998.xml: ${LIMIT}`],
  });
});

/** Most tests parse in-thread and read robots.txt and its sitemaps only. */
const base: SitemapTreeOptions = { workers: 0, useKnownPaths: false, useFeeds: false };

Deno.test("maxSitemaps: indexes naming the same indexes over and over are each fetched once and shown again only while the tree holds under 10 × maxSitemaps nodes", async () => {
  // /i.xml -> a0-a9 -> each b0-b9 -> each c0-c9 -> each u0-u9: 42 documents,
  // but 11,112 places in the tree.
  const names = (letter: string): string[] =>
    Array.from({ length: 10 }, (_, i) => `/${letter}${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /i.xml\n")
    .file("/i.xml", sitemapIndex(names("a")));
  for (const [letter, next] of [["a", "b"], ["b", "c"], ["c", "u"]]) {
    for (const path of names(letter!)) site.file(path, sitemapIndex(names(next!)));
  }
  for (const path of names("u")) site.file(path, urlset([path]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, maxSitemaps: 50 });
    const paths = ["/robots.txt", "/i.xml", ...["a", "b", "c", "u"].flatMap(names)];
    assertEquals(paths.map((p) => site.count(p)), Array(42).fill(1));
    const nodes = [...tree.allSitemaps()];
    const reason =
      "Left out: already in the tree, and the tree's limit of 500 nodes (10 × maxSitemaps) was reached";
    const leftOut = nodes.filter((n) => n instanceof InvalidSitemap);
    // Each of the 42 has its first place; the other places are shown while
    // the tree holds under 500 nodes (when a first place comes later is timing).
    const shown = nodes.filter((n) => !(n instanceof InvalidSitemap));
    assertEquals(new Set(shown.map((n) => n.url.slice(server.origin.length))), new Set(paths));
    assert(shown.length >= 500 && shown.length <= 500 + 42, `${shown.length} nodes shown`);
    assertEquals(new Set(leftOut.map((n) => (n as InvalidSitemap).reason)), new Set([reason]));
    assertEquals(tree.stats.notFetched, 0);
    const distinct = new Set(leftOut.map((n) => n.url)).size;
    assertEquals(
      tree.stats.outcomeReason,
      `${distinct} sitemaps left out where named again: the tree's limit of 500 nodes (10 × maxSitemaps) was reached`,
    );
  });
});

Deno.test("maxSitemaps: a probe that finds nothing gives its place back to a sitemap robots.txt names", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /sitemap_index.xml\n")
    .file("/sitemap_index.xml", sitemapIndex(["/a.xml", "/b.xml"]))
    .file("/a.xml", urlset(["/a"]))
    .file("/b.xml", urlset(["/b"]));
  await withSite(site, async (server) => {
    // robots.txt takes the first place and the first two probes the others;
    // /sitemap_index.xml, probed later, gets a place once they have 404ed.
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      workers: 0,
      useFeeds: false,
      maxSitemaps: 3,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /sitemap_index.xml",
      "      urlset /a.xml",
      "        - https://site.test/a",
      "      invalid /b.xml: Not fetched: the crawl's limit of 3 sitemaps (maxSitemaps) was reached",
    ]);
    assertEquals([site.count("/sitemap_index.xml"), site.count("/b.xml")], [1, 0]);
  });
});

Deno.test("fail-fast: timeouts of some paths on a host that answered never give it up; its other children are read", async () => {
  const children = [
    "/h0.xml",
    "/h1.xml",
    "/h2.xml",
    "/h3.xml",
    "/g0.xml",
    "/g1.xml",
    "/g2.xml",
    "/g3.xml",
  ];
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(children));
  for (let i = 0; i < 4; i++) site.hang(`/h${i}.xml`).file(`/g${i}.xml`, urlset([`/g${i}`]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      ...base,
      concurrency: 4,
      timeoutMs: 1500,
      retries: 0,
    });
    // Before, the third timeout gave the host up: the 4 good children became
    // invalid with "timeout after 1500 ms" without being requested.
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      invalid /h0.xml: Timed out after 1500 ms",
      "      invalid /h1.xml: Timed out after 1500 ms",
      "      invalid /h2.xml: Timed out after 1500 ms",
      "      invalid /h3.xml: Timed out after 1500 ms",
      "      urlset /g0.xml",
      "        - https://site.test/g0",
      "      urlset /g1.xml",
      "        - https://site.test/g1",
      "      urlset /g2.xml",
      "        - https://site.test/g2",
      "      urlset /g3.xml",
      "        - https://site.test/g3",
    ]);
  });
});

Deno.test("fail-fast: a closed port is still given up after a handful of requests", async () => {
  const server = await new FixtureSite().listen();
  await server.close();
  // robots.txt, 14 well-known paths and the homepage, 4 at a time: 4 to 6 are
  // sent before the third refusal is in, by the runtime's timing.
  const tree = await sitemapTreeForHomepage(server.url("/"), { workers: 0 });
  assertEquals(
    [tree.stats.outcome, tree.stats.outcomeReason],
    ["unreachable", `connection refused (127.0.0.1:${server.port})`],
  );
  assertEquals(
    tree.stats.requests >= 3 && tree.stats.requests <= 6,
    true,
    `${tree.stats.requests}`,
  );
});

Deno.test("fail-fast: a server that restarts mid-crawl (refusing for a moment) loses nothing once retries get through", async () => {
  const children = Array.from({ length: 8 }, (_, i) => `/c${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(children));
  for (const child of children) site.file(child, urlset([child.replace(".xml", "")]));
  await withSite(site, async (server) => {
    // Once the index is served the server goes down: the next 8 connections
    // are refused (as the runtime reports it), then it is back.
    let down = 0;
    const restarting: typeof fetch = async (input, init) => {
      if (down > 0) {
        down--;
        throw Object.assign(new TypeError("ECONNREFUSED: Unable to connect"), {
          code: "ECONNREFUSED",
        });
      }
      const response = await fetch(input, init);
      if (String(input).endsWith("/index.xml")) down = 8;
      return response;
    };
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, fetch: restarting });
    // Before, the third refusal in a row gave the host up: all 8 children were lost.
    assertEquals(
      tree.subSitemaps[0]!.subSitemaps[0]!.subSitemaps.map((c) => c.type),
      Array(8).fill("urlset"),
    );
    assertEquals([tree.stats.requests, children.map((c) => site.count(c))], [
      2 + 16,
      Array(8).fill(1),
    ]);
  });
});

Deno.test("deadlineMs: children that drip a byte at a time are cut by the deadline; the tree is returned with each one's reason", async () => {
  const drips = Array.from({ length: 6 }, (_, i) => `/drip${i}.xml`);
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/good.xml", ...drips]))
    .file("/good.xml", urlset(["/good"]));
  for (const path of drips) site.trickle(path, urlset([path]), { bytesPerSecond: 1 });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, deadlineMs: 1500 });
    const cut = "Not fetched: the crawl's deadline of 1.5 s was reached";
    // Four were aborted in flight, two never started; the good child is kept.
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    index /index.xml",
      "      urlset /good.xml",
      "        - https://site.test/good",
      ...drips.map((path) => `      invalid ${path}: ${cut}`),
    ]);
    const { deadlineReached, notFetched, outcome, outcomeReason } = tree.stats;
    assertEquals([deadlineReached, notFetched, outcome, outcomeReason], [
      true,
      6,
      "ok",
      "6 sitemaps not fetched: the crawl's deadline of 1.5 s was reached",
    ]);
  });
});

Deno.test("deadlineMs: a page stream ends at the deadline with the pages read by then", async () => {
  await withSite(dripSite(), async (server) => {
    // The class behind streamPages(), which keeps the counters.
    const stream = new PageStream(server.url("/"), { ...base, deadlineMs: 800 }, "homepage");
    const urls: string[] = [];
    for await (const page of stream) urls.push(page.url);
    assertEquals(urls, ["https://site.test/good"]);
    assertEquals([stream.stats?.deadlineReached, stream.stats?.notFetched], [true, 1]);
  });
});

Deno.test("deadlineMs: a site that never answers before it is unreachable, saying so; the call resolves", async () => {
  const silent = await silentHosts(1);
  try {
    const tree = await sitemapTreeForHomepage(silent.homepages[0]!, {
      workers: 0,
      deadlineMs: 300,
    });
    assertEquals(outline(tree, silent.homepages[0]!.slice(0, -1)), ["website /"]);
    assertEquals(
      [tree.stats.outcome, tree.stats.outcomeReason, tree.stats.deadlineReached],
      ["unreachable", "no response before the crawl's deadline of 300 ms", true],
    );
  } finally {
    await silent.close();
  }
});

Deno.test("deadlineMs: a crawl that ends in time says the deadline was not reached; bad values are refused", async () => {
  const site = new FixtureSite().file("/robots.txt", "Sitemap: /a.xml\n").file(
    "/a.xml",
    urlset(["/a"]),
  );
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, deadlineMs: 60_000 });
    assertEquals([tree.stats.deadlineReached, tree.stats.notFetched], [false, 0]);
    for (const bad of [0, 1.5, 2 ** 31]) {
      let message = "";
      await sitemapTreeForHomepage(server.url("/"), { ...base, deadlineMs: bad }).catch((e) =>
        message = `${e.name}: ${e.message}`
      );
      assertEquals(
        message,
        `RangeError: Option "deadlineMs" must be an integer from 1 to 2147483647, got ${bad}`,
      );
    }
  });
});

Deno.test("deadlineMs: sitemapTreesForHomepages gives each site SITE_DEADLINE_MS (30 minutes) unless told otherwise; one call has none", async () => {
  const site = new FixtureSite().file("/robots.txt", "Sitemap: /a.xml\n").file(
    "/a.xml",
    urlset(["/a"]),
  );
  await withSite(site, async (server) => {
    // The deadline is a timer of that length, armed when a site starts.
    const armed: number[] = [];
    const original = globalThis.setTimeout;
    globalThis.setTimeout = ((handler: () => void, ms?: number) => {
      armed.push(ms ?? 0);
      return original(handler, ms);
    }) as typeof setTimeout;
    const deadlines = (): number[] => armed.filter((ms) => ms >= 60_000 && ms !== 30_000);
    try {
      await sitemapTreeForHomepage(server.url("/"), base);
      assertEquals(deadlines(), []);
      for await (const _ of sitemapTreesForHomepages([server.url("/")], base));
      assertEquals([SITE_DEADLINE_MS, deadlines()], [1_800_000, [1_800_000]]);
      armed.length = 0;
      const none = { ...base, deadlineMs: null };
      for await (const _ of sitemapTreesForHomepages([server.url("/")], none));
      assertEquals(deadlines(), []);
    } finally {
      globalThis.setTimeout = original;
    }
  });
});

Deno.test("connectTimeoutMs: 16 sites that never answer delay the healthy sites behind them by one connect timeout", async () => {
  const dead = await silentHosts(16);
  const healthy = await serveSites({ count: 3 });
  try {
    const results: SiteResult[] = [];
    // 16 sites at once: the dead sites take every slot first.
    for await (
      const result of sitemapTreesForHomepages([...dead.homepages, ...healthy.homepages], {
        siteConcurrency: 16,
        workers: 0,
        connectTimeoutMs: 300,
      })
    ) results.push(result);
    assertEquals(results.length, 19);
    assert(dead.homepages.includes(results[0]!.homepage), "a dead site finishes first");
    for (const { homepage, tree } of results) {
      const stats = tree!.stats;
      if (dead.homepages.includes(homepage)) {
        // One round of requests (4 at a time), given up at the first connect
        // timeout, where timeoutMs (30 s) held each for 30-60 s before.
        const where = new URL(homepage).host;
        assertEquals([stats.outcome, stats.outcomeReason, stats.requests], [
          "unreachable",
          `no response after 300 ms (${where})`,
          4,
        ]);
      } else {
        assertEquals([stats.outcome, [...tree!.allPages()].length], ["ok", 10]);
      }
    }
  } finally {
    await healthy.close();
    await dead.close();
  }
});
