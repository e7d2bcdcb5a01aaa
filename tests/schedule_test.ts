import assert from "node:assert/strict";
import { type Release, RequestScheduler } from "../src/schedule.ts";
import { WebClient } from "../src/fetch.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { serve, type Served } from "../fixtures/serve.ts";
import { FixtureSite } from "../fixtures/site.ts";
import { sitemapIndex, urlset } from "./_tree_helpers.ts";
import { countedSignal } from "./_signals.ts";

const signal = new AbortController().signal;
const url = (s: string): URL => new URL(s);

/** Lets every settled promise's callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

Deno.test("RequestScheduler grants at most maxConnections across hosts, in arrival order", async () => {
  const scheduler = new RequestScheduler({ maxConnections: 2, concurrency: 4 });
  const granted: string[] = [];
  const releases: (() => void)[] = [];
  for (const host of ["a", "b", "c", "d"]) {
    scheduler.acquire(url(`http://${host}.test/x`), signal).then((release) => {
      granted.push(host);
      releases.push(release);
    });
  }
  await settle();
  assert.deepEqual(granted, ["a", "b"]);
  releases[0]!();
  await settle();
  assert.deepEqual(granted, ["a", "b", "c"]);
  releases[0]!(); // twice: no effect
  await settle();
  assert.deepEqual(granted, ["a", "b", "c"]);
  for (const release of releases.slice(1)) release();
  await settle();
  assert.deepEqual(granted, ["a", "b", "c", "d"]);
  assert.equal(scheduler.peakActive, 2);
});

Deno.test("RequestScheduler: a full host does not hold up another host's request behind it", async () => {
  const scheduler = new RequestScheduler({ concurrency: 1 });
  const granted: string[] = [];
  const take = (u: string) =>
    scheduler.acquire(url(u), signal).then((release) => {
      granted.push(u);
      return release;
    });
  const first = take("http://a.test/1");
  take("http://a.test/2");
  take("http://b.test/1");
  await settle();
  assert.deepEqual(granted, ["http://a.test/1", "http://b.test/1"]);
  (await first)();
  await settle();
  assert.deepEqual(granted, ["http://a.test/1", "http://b.test/1", "http://a.test/2"]);
  assert.equal(scheduler.active, 2);
});

Deno.test("RequestScheduler: an aborted wait rejects with the reason and frees its place", async () => {
  const scheduler = new RequestScheduler({ maxConnections: 1 });
  const hold = await scheduler.acquire(url("http://a.test/"), signal);
  const controller = new AbortController();
  const waiting = scheduler.acquire(url("http://b.test/"), controller.signal);
  let thirdGranted = false;
  scheduler.acquire(url("http://c.test/"), signal).then(() => thirdGranted = true);
  controller.abort(new Error("stop"));
  await assert.rejects(waiting, { message: "stop" });
  hold();
  await settle();
  assert.equal(thirdGranted, true);
  assert.equal(scheduler.active, 1);
});

Deno.test("RequestScheduler adds one abort listener per signal, however many requests wait on it", async () => {
  const { controller, listeners } = countedSignal();
  const scheduler = new RequestScheduler({ concurrency: 1, maxConnections: 1 });
  const url = new URL("http://127.0.0.1:1/a.xml");
  const first = await scheduler.acquire(url, controller.signal);
  const order: number[] = [];
  const waiting = Array.from(
    { length: 20 },
    (_, i) =>
      scheduler.acquire(url, controller.signal).then((release) => {
        order.push(i);
        release();
      }),
  );
  assert.equal(listeners(), 1);
  first();
  await Promise.all(waiting);
  assert.deepEqual(order, Array.from({ length: 20 }, (_, i) => i));
  assert.equal(listeners(), 0, "removed once nobody waits");
});

Deno.test("RequestScheduler keeps delayMs between two starts on one host, not across hosts", async () => {
  const scheduler = new RequestScheduler({ delayMs: 40, concurrency: 4 });
  const starts: [string, number][] = [];
  // The scheduler's clock, read before a.test/1 starts (at once, inside acquire()).
  const before = performance.now();
  await Promise.all(
    ["http://a.test/1", "http://b.test/1", "http://a.test/2", "http://a.test/3"].map(async (u) => {
      const release = await scheduler.acquire(url(u), signal);
      starts.push([u, performance.now()]);
      release();
    }),
  );
  assert.deepEqual(starts.map(([u]) => u), [
    "http://a.test/1",
    "http://b.test/1",
    "http://a.test/2",
    "http://a.test/3",
  ]);
  const a = starts.filter(([u]) => u.startsWith("http://a.test")).map(([, t]) => t);
  // A start is stamped (with performance.now(), the scheduler's own clock) where
  // the awaiting code resumes: never before the scheduler started it, but
  // possibly after, by a GC pause or a preemption on a loaded machine. Measured
  // from `before`, the bounds are exact: the second start 40 ms on, the third 80.
  assert.ok(a[1]! - before >= 40, `second start ${a[1]! - before} ms after the first began`);
  assert.ok(a[2]! - before >= 80, `third start ${a[2]! - before} ms after the first began`);
  // No gap between two stamps is asserted: each stamp may lag its start by a
  // GC pause or a preemption (3.7 ms seen under a full test run), so a gap
  // measured between them can look shorter than the scheduler kept it.
});

Deno.test("RequestScheduler: a held host waits for its robots.txt, other hosts do not", async () => {
  const scheduler = new RequestScheduler({ respectCrawlDelay: true });
  const robots = url("http://a.test/robots.txt");
  scheduler.holdForRobots(robots);
  const granted: string[] = [];
  scheduler.acquire(url("http://a.test/sitemap.xml"), signal).then((r) => {
    granted.push("sitemap");
    r();
  });
  scheduler.acquire(url("http://b.test/sitemap.xml"), signal).then((r) => {
    granted.push("other host");
    r();
  });
  const release = await scheduler.acquire(robots, signal, true);
  granted.push("robots");
  await settle();
  assert.deepEqual(granted, ["other host", "robots"]);
  release();
  await settle();
  assert.deepEqual(granted, ["other host", "robots"]);
  scheduler.setCrawlDelay(robots, null);
  await settle();
  assert.deepEqual(granted, ["other host", "robots", "sitemap"]);
});

Deno.test("RequestScheduler caps Crawl-delay at 10 s; only a host's first value counts", () => {
  const scheduler = new RequestScheduler({ respectCrawlDelay: true, delayMs: 5 });
  const robots = url("http://a.test/robots.txt");
  scheduler.setCrawlDelay(robots, 30);
  assert.equal(scheduler.delayFor(robots), 10_000);
  assert.equal(scheduler.delayFor(url("http://a.test/other")), 10_000);
  assert.equal(scheduler.delayFor(url("http://b.test/")), 5);
  scheduler.setCrawlDelay(robots, 1);
  assert.equal(scheduler.delayFor(robots), 10_000);
});

Deno.test("RequestScheduler ignores Crawl-delay when respectCrawlDelay is off", () => {
  const scheduler = new RequestScheduler({ delayMs: 7 });
  const robots = url("http://a.test/robots.txt");
  scheduler.holdForRobots(robots);
  scheduler.setCrawlDelay(robots, 3);
  assert.equal(scheduler.delayFor(robots), 7);
});

Deno.test("RequestScheduler rejects out-of-range options, naming them", () => {
  assert.throws(() => new RequestScheduler({ maxConnections: 0 }), {
    name: "RangeError",
    message: 'Option "maxConnections" must be an integer >= 1, got 0',
  });
  assert.throws(() => new RequestScheduler({ delayMs: -1 }), {
    name: "RangeError",
    message: 'Option "delayMs" must be an integer >= 0, got -1',
  });
  assert.throws(
    () => new RequestScheduler({ respectCrawlDelay: "yes" as unknown as boolean }),
    { name: "TypeError", message: 'Option "respectCrawlDelay" must be a boolean, got "yes"' },
  );
});

/**
 * This crawl's User-Agent. The many-host servers answer and log only requests
 * that send it: on a machine where other test processes crawl ports they have
 * just closed (to see a refused connection), one of 100 listening ports may be
 * such a port, and that crawl's requests would count as this one's.
 */
const AGENT = `sitemap-tree-schedule-test/${crypto.randomUUID()}`;

/**
 * One fixture site on `hosts` ports (each a host of its own): the first serves
 * robots.txt and an index naming `/s.xml` on every port; each answers after
 * 300 ms, so requests overlap. Requests without {@linkcode AGENT} get a 404
 * and are neither logged nor counted in flight.
 */
async function manyHosts(hosts: number): Promise<{
  site: FixtureSite;
  home: string;
  close: () => Promise<void>;
}> {
  const site = new FixtureSite();
  site.latencyMs = 300;
  const ports: number[] = [];
  site
    .file("/robots.txt", (origin) => `Sitemap: ${origin}/index.xml\n`)
    .file("/index.xml", () => sitemapIndex(ports.map((p) => `http://127.0.0.1:${p}/s.xml`)))
    .file("/s.xml", urlset(["/page"]));
  const ours = (request: Request): Response | Promise<Response> =>
    request.headers.get("user-agent") === AGENT
      ? site.app.fetch(request)
      : new Response("Not this test's crawl", { status: 404 });
  const servers: Served[] = [];
  for (let i = 0; i < hosts; i++) {
    const served = await serve(ours);
    servers.push(served);
    ports.push(served.port);
  }
  return {
    site,
    home: `http://127.0.0.1:${ports[0]}/`,
    close: () => Promise.all(servers.map((s) => s.close())).then(() => {}),
  };
}

// No retries, and a deadline no loaded machine misses: every request the
// servers see is a first attempt.
const FLAT = {
  useKnownPaths: false,
  useFeeds: false,
  workers: 0,
  retries: 0,
  timeoutMs: 120_000,
  userAgent: AGENT,
} as const;

Deno.test("sitemapTreeForHomepage() keeps maxConnections across 100 hosts (server-observed)", async () => {
  const { site, home, close } = await manyHosts(100);
  try {
    const tree = await sitemapTreeForHomepage(home, { ...FLAT, maxConnections: 8 });
    assert.equal([...tree.allSitemaps()].length, 102);
    assert.equal([...tree.allPages()].length, 100);
    assert.equal(site.log.length, 102);
    assert.equal(site.maxInFlight, 8);
  } finally {
    await close();
  }
});

Deno.test("sitemapTreeForHomepage() defaults to 64 connections across hosts", async () => {
  const { site, home, close } = await manyHosts(100);
  try {
    const tree = await sitemapTreeForHomepage(home, FLAT);
    assert.equal([...tree.allPages()].length, 100);
    assert.equal(site.maxInFlight, 64);
  } finally {
    await close();
  }
});

Deno.test("WebClient: a host's delay runs from when a request is sent, not from its grant, however late the caller sends it", async () => {
  /** Grants as usual, but the first caller resumes 30 ms late (a busy thread). */
  class LateScheduler extends RequestScheduler {
    #late = true;
    override async acquire(url: URL, signal: AbortSignal, ungated = false): Promise<Release> {
      const release = await super.acquire(url, signal, ungated);
      if (this.#late) {
        this.#late = false;
        const until = performance.now() + 30;
        while (performance.now() < until) { /* busy */ }
      }
      return release;
    }
  }
  const sent: number[] = [];
  const web = new WebClient({
    userAgent: "sitemap-tree-test/1.0",
    timeoutMs: 5_000,
    retries: 0,
    maxDownloadBytes: 1024,
    concurrency: 4,
    scheduler: new LateScheduler({ delayMs: 50 }),
    fetch: () => {
      sent.push(performance.now());
      return Promise.resolve(new Response("<urlset/>"));
    },
  });
  assert.ok((await web.get("https://example.com/a.xml")).ok);
  assert.ok((await web.get("https://example.com/b.xml")).ok);
  // Counted from the grant, the second request went out ~20 ms after the first;
  // counted from the send, 50 ms, less whatever the runtime took between the
  // scheduler's note of the send and the fetch call (45.8 ms once on Bun under a full suite).
  const gap = sent[1]! - sent[0]!;
  assert.ok(gap >= 40, `the second request went ${gap.toFixed(1)} ms after the first`);
});

Deno.test("sitemapTreeForHomepage(): the sitemaps a site names go before the well-known paths and the homepage waiting for its host", async () => {
  // The probes (and the homepage, read for its feed links) answer 404 after
  // 100 ms; the named sitemaps at once. One connection, so the server sees the
  // order in which requests were let go.
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`, { latencyMs: 0 })
    .file("/index.xml", sitemapIndex(["/a.xml", "/b.xml", "/c.xml", "/d.xml"]), { latencyMs: 0 })
    .file("/a.xml", urlset(["/a"]), { latencyMs: 0 })
    .file("/b.xml", urlset(["/b"]), { latencyMs: 0 })
    .file("/c.xml", urlset(["/c"]), { latencyMs: 0 })
    .file("/d.xml", urlset(["/d"]), { latencyMs: 0 });
  site.latencyMs = 100;
  const server = await site.listen();
  try {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      workers: 0,
      concurrency: 1,
      retries: 0,
    });
    assert.equal([...tree.allPages()].length, 4);
    const paths = site.log.map((entry) => entry.path);
    // A probe takes the connection whenever no named sitemap is waiting for
    // it (robots.txt answered, the index not yet parsed), never otherwise.
    assert.deepEqual(paths.slice(0, 8), [
      "/robots.txt",
      "/sitemap.xml",
      "/index.xml",
      "/sitemap.xml.gz",
      "/a.xml",
      "/b.xml",
      "/c.xml",
      "/d.xml",
    ]);
    // Then the other 12 well-known paths, and the homepage last.
    assert.equal(paths.length, 21);
    assert.equal(paths[20], "/");
  } finally {
    await server.close();
  }
});

Deno.test("sitemapTreeForHomepage() with respectCrawlDelay: robots.txt first, then its Crawl-delay between requests", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `User-agent: *\nCrawl-delay: 0.05\nSitemap: ${o}/index.xml\n`)
    .file("/index.xml", sitemapIndex(["/a.xml", "/b.xml"]))
    .file("/a.xml", urlset(["/a"]))
    .file("/b.xml", urlset(["/b"]));
  const server = await site.listen();
  // When the client sends each request: the server's arrival times also carry
  // connection set-up, which differs between runtimes.
  const sent: [string, number][] = [];
  const fetchLogged: typeof fetch = (input, init) => {
    const at = performance.now();
    sent.push([new URL(String(input)).pathname, at]);
    return fetch(input, init);
  };
  try {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      workers: 0,
      useFeeds: false,
      retries: 0,
      fetch: fetchLogged,
      respectCrawlDelay: true,
    });
    assert.equal([...tree.allPages()].length, 2);
    assert.equal(sent[0]![0], "/robots.txt");
    assert.equal(site.log[0]!.path, "/robots.txt");
    // robots.txt, 14 well-known paths, the index and its two children.
    assert.equal(sent.length, 18);
    assert.equal(site.log.length, 18);
    assert.equal(site.maxInFlight, 1);
    for (let i = 1; i < sent.length; i++) {
      const gap = sent[i]![1] - sent[i - 1]![1];
      // The delay runs from the scheduler's note that a request is sent, a
      // function call before `fetchLogged` notes it here: only a thread
      // descheduled between the two could make this gap shorter than 50 ms.
      assert.ok(
        gap >= 49,
        `request ${i} (${sent[i]![0]}) went ${gap.toFixed(1)} ms after the last`,
      );
    }
  } finally {
    await server.close();
  }
});

Deno.test("sitemapTreeForHomepage() with respectCrawlDelay takes the Crawl-delay of the agent's own group, never *'s when it has one", async () => {
  const site = new FixtureSite()
    .file(
      "/robots.txt",
      (o) =>
        "User-agent: *\nCrawl-delay: 5\n\nUser-agent: slowbot\nCrawl-delay: 0.05\n\n" +
        `User-agent: fastbot\nDisallow: /private/\n\nSitemap: ${o}/index.xml\n`,
    )
    .file("/index.xml", sitemapIndex(["/a.xml", "/b.xml"]))
    .file("/a.xml", urlset(["/a"]))
    .file("/b.xml", urlset(["/b"]));
  const server = await site.listen();
  try {
    const crawl = async (userAgent: string) => {
      const sent: number[] = [];
      const tree = await sitemapTreeForHomepage(server.url("/"), {
        workers: 0,
        useFeeds: false,
        useKnownPaths: false,
        retries: 0,
        userAgent,
        respectCrawlDelay: true,
        // The `*` group's 5 s between four requests would miss this.
        deadlineMs: 4_000,
        fetch: (input, init) => {
          sent.push(performance.now());
          return fetch(input, init);
        },
      });
      const gaps = sent.slice(1).map((at, i) => at - sent[i]!);
      return { pages: [...tree.allPages()].length, deadline: tree.stats.deadlineReached, gaps };
    };
    const slow = await crawl("slowbot/2.0 (+https://x.test/bot)");
    assert.deepEqual([slow.pages, slow.deadline, slow.gaps.length], [2, false, 3]);
    assert.ok(slow.gaps.every((gap) => gap >= 49), `slowbot's gaps: ${slow.gaps}`);
    const fast = await crawl("fastbot/1.0");
    assert.deepEqual([fast.pages, fast.deadline, fast.gaps.length], [2, false, 3]);
  } finally {
    await server.close();
  }
});
