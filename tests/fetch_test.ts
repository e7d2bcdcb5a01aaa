import assert from "node:assert/strict";
import { parseRetryAfter, Slots, WebClient, type WebClientOptions } from "../src/fetch.ts";
import { FixtureSite } from "../fixtures/site.ts";
import { withSite } from "./_tree_helpers.ts";
import { gzipBomb } from "../fixtures/bombs.ts";
import { countedSignal } from "./_signals.ts";
import { RequestScheduler } from "../src/schedule.ts";

const UA = "sitemap-tree-test/1.0";

/** Polls `condition` every 5 ms; fails the test after `ms` rather than hanging it. */
async function waitFor(condition: () => boolean, what: string, ms = 2_000): Promise<void> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`Still waiting after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function client(overrides: Partial<WebClientOptions> = {}): WebClient {
  return new WebClient({
    userAgent: UA,
    timeoutMs: 2_000,
    retries: 0,
    maxDownloadBytes: 1024 * 1024,
    concurrency: 4,
    ...overrides,
  });
}

Deno.test("WebClient.get() returns the body, status, headers and URL of a 200", async () => {
  const site = new FixtureSite().file("/sitemap.xml", "<urlset/>");
  await withSite(site, async (server) => {
    const result = await client().get(server.url("/sitemap.xml"));
    assert.ok(result.ok);
    assert.equal(result.url, server.url("/sitemap.xml"));
    assert.equal(result.status, 200);
    assert.equal(result.headers.get("content-type"), "application/xml");
    assert.equal(new TextDecoder().decode(result.bytes), "<urlset/>");
    assert.equal(result.bytes.byteLength, result.bytes.buffer.byteLength);
    assert.equal(result.redirected, false);
  });
});

Deno.test("WebClient.get() does not retry a 404", async () => {
  const site = new FixtureSite().status("/missing.xml", 404);
  await withSite(site, async (server) => {
    const web = client({ retries: 2 });
    const result = await web.get(server.url("/missing.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/missing.xml"),
      status: 404,
      reason: `Unable to fetch sitemap from ${server.url("/missing.xml")}: 404 Not Found`,
    });
    assert.equal(site.count("/missing.xml"), 1);
    assert.deepEqual(web.stats, { requests: 1, bytesDownloaded: 0, retries: 0 });
  });
});

Deno.test("WebClient.get() retries a 503 and returns the 200 that follows", async () => {
  const site = new FixtureSite().sequence("/flaky.xml", [{ status: 503 }, { body: "<urlset/>" }]);
  await withSite(site, async (server) => {
    const web = client({ retries: 2 });
    const result = await web.get(server.url("/flaky.xml"));
    assert.ok(result.ok);
    assert.equal(new TextDecoder().decode(result.bytes), "<urlset/>");
    assert.equal(site.count("/flaky.xml"), 2);
    assert.deepEqual([web.stats.requests, web.stats.retries], [2, 1]);
  });
});

Deno.test("WebClient.get() reports the last status once retries are exhausted", async () => {
  const site = new FixtureSite().sequence("/down.xml", [
    { status: 500 },
    { status: 408 },
    { status: 502 },
  ]);
  await withSite(site, async (server) => {
    const result = await client({ retries: 2 }).get(server.url("/down.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/down.xml"),
      status: 502,
      reason: `Unable to fetch sitemap from ${server.url("/down.xml")}: 502 Bad Gateway`,
    });
    assert.equal(site.count("/down.xml"), 3);
  });
});

Deno.test("WebClient.get() waits as long as Retry-After asks before retrying a 429", async () => {
  const site = new FixtureSite().tooManyRequests("/limited.xml", 1, "<urlset/>");
  await withSite(site, async (server) => {
    const result = await client({ retries: 1 }).get(server.url("/limited.xml"));
    assert.ok(result.ok);
    const [first, second] = site.log;
    assert.ok(first !== undefined && second !== undefined);
    const gap = second.startedAt - first.startedAt;
    assert.ok(gap >= 900, `the retry came ${gap} ms after the 429`);
  });
});

Deno.test("WebClient.get() gives up when Retry-After is longer than the cap", async () => {
  const site = new FixtureSite().tooManyRequests("/limited.xml", 3600, "<urlset/>");
  await withSite(site, async (server) => {
    const result = await client({ retries: 2 }).get(server.url("/limited.xml"));
    assert.equal(result.ok, false);
    assert.equal(
      !result.ok && result.reason,
      `Unable to fetch sitemap from ${
        server.url("/limited.xml")
      }: 429 Too Many Requests (Retry-After 3600 s exceeds the 10000 ms cap)`,
    );
    assert.equal(site.count("/limited.xml"), 1);
  });
});

Deno.test("parseRetryAfter() reads delay-seconds and HTTP dates", () => {
  const now = Date.parse("2024-05-01T12:00:00Z");
  assert.equal(parseRetryAfter("120", now), 120_000);
  assert.equal(parseRetryAfter("Wed, 01 May 2024 12:00:05 GMT", now), 5_000);
  assert.equal(parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", now), 0);
  assert.equal(parseRetryAfter("soon", now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
});

Deno.test("WebClient.get() cuts an endless body at timeoutMs and does not retry it", async () => {
  const site = new FixtureSite().endless("/endless.xml", { intervalMs: 5 });
  await withSite(site, async (server) => {
    const web = client({ timeoutMs: 150, retries: 2 });
    const result = await web.get(server.url("/endless.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/endless.xml"),
      status: 200,
      reason: "Timed out after 150 ms",
      failure: {
        kind: "timeout",
        cause: `timeout after 150 ms (${new URL(server.origin).host})`,
      },
    });
    assert.equal(site.count("/endless.xml"), 1);
    assert.ok(web.stats.bytesDownloaded > 0);
  });
});

Deno.test("WebClient.get() cuts a server that never sends headers at timeoutMs", async () => {
  const site = new FixtureSite().hang("/hang.xml");
  await withSite(site, async (server) => {
    const result = await client({ timeoutMs: 100 }).get(server.url("/hang.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/hang.xml"),
      status: null,
      reason: "Timed out after 100 ms",
      failure: {
        kind: "timeout",
        cause: `timeout after 100 ms (${new URL(server.origin).host})`,
      },
    });
  });
});

Deno.test("WebClient.get() cuts a trickling body at timeoutMs", async () => {
  const site = new FixtureSite().trickle("/slow.xml", "x".repeat(10_000), {
    bytesPerSecond: 200,
  });
  await withSite(site, async (server) => {
    const result = await client({ timeoutMs: 150 }).get(server.url("/slow.xml"));
    assert.equal(!result.ok && result.reason, "Timed out after 150 ms");
  });
});

Deno.test("WebClient.get() refuses a body longer than maxDownloadBytes", async () => {
  const site = new FixtureSite()
    .file("/big.xml", "x".repeat(10_000))
    .endless("/endless.xml");
  await withSite(site, async (server) => {
    const web = client({ maxDownloadBytes: 1000 });
    const declared = await web.get(server.url("/big.xml"));
    assert.equal(!declared.ok && declared.reason, "Sitemap download exceeds 1000 bytes");
    // Without a Content-Length the body is read, and cut at the first chunk past the cap (Deno
    // hands over small chunks; Bun buffers what the socket has, a few hundred KB here).
    const streamed = await web.get(server.url("/endless.xml"));
    assert.equal(!streamed.ok && streamed.reason, "Sitemap download exceeds 1000 bytes");
    assert.ok(web.stats.bytesDownloaded < 1024 * 1024, `read ${web.stats.bytesDownloaded} bytes`);
    assert.equal(site.count("/endless.xml"), 1);
  });
});

Deno.test("WebClient.get() follows redirects and reports the final URL", async () => {
  const site = new FixtureSite()
    .redirect("/old.xml", "/mid.xml", 301)
    .redirect("/mid.xml", "new.xml?v=1", 307)
    .file("/new.xml?v=1", "<urlset/>");
  await withSite(site, async (server) => {
    const result = await client().get(server.url("/old.xml"));
    assert.ok(result.ok);
    assert.equal(result.url, server.url("/new.xml?v=1"));
    assert.equal(result.redirected, true);
    assert.deepEqual(site.log.map((e) => e.path), ["/old.xml", "/mid.xml", "/new.xml?v=1"]);
  });
});

Deno.test("WebClient.get() stops a redirect loop", async () => {
  const site = new FixtureSite().redirect("/a.xml", "/b.xml", 302).redirect("/b.xml", "/a.xml");
  await withSite(site, async (server) => {
    const result = await client({ retries: 2 }).get(server.url("/a.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/b.xml"),
      status: 301,
      reason: `Redirect loop: ${server.url("/b.xml")} redirects back to ${server.url("/a.xml")}`,
    });
    assert.equal(site.log.length, 2);
  });
});

Deno.test("WebClient.get() stops after maxRedirects hops", async () => {
  const site = new FixtureSite();
  for (let i = 0; i < 5; i++) site.redirect(`/r${i}.xml`, `/r${i + 1}.xml`, 302);
  site.file("/r5.xml", "<urlset/>");
  await withSite(site, async (server) => {
    const result = await client({ maxRedirects: 3 }).get(server.url("/r0.xml"));
    assert.equal(
      !result.ok && result.reason,
      `Too many redirects (more than 3) from ${server.url("/r0.xml")}`,
    );
    assert.equal(site.log.length, 4);
    const enough = await client({ maxRedirects: 5 }).get(server.url("/r0.xml"));
    assert.equal(enough.ok && enough.url, server.url("/r5.xml"));
  });
});

Deno.test("WebClient.get() refuses redirects to data: and file: URLs", async () => {
  const site = new FixtureSite()
    .redirect("/data.xml", "data:text/xml,<urlset/>", 302)
    .redirect("/file.xml", "file:///etc/passwd", 302);
  await withSite(site, async (server) => {
    const web = client();
    const data = await web.get(server.url("/data.xml"));
    assert.equal(
      !data.ok && data.reason,
      "Redirect to a non-http(s) URL refused: data:text/xml,<urlset/>",
    );
    const file = await web.get(server.url("/file.xml"));
    assert.equal(
      !file.ok && file.reason,
      "Redirect to a non-http(s) URL refused: file:///etc/passwd",
    );
    const direct = await web.get("file:///etc/passwd");
    assert.equal(!direct.ok && direct.reason, "Refused a non-http(s) URL: file:///etc/passwd");
    assert.equal(site.log.length, 2);
  });
});

Deno.test("WebClient.get() sends the user agent and headers on every request and hop", async () => {
  const site = new FixtureSite()
    .redirect("/old.xml", "/new.xml")
    .file("/new.xml", "<urlset/>");
  await withSite(site, async (server) => {
    const web = client({ headers: { "x-crawl": "1", "Accept-Encoding": "gzip" } });
    assert.ok((await web.get(server.url("/old.xml"), { headers: { "x-call": "2" } })).ok);
    assert.equal(site.log.length, 2);
    for (const entry of site.log) {
      assert.equal(entry.headers["user-agent"], UA);
      assert.equal(entry.headers["x-crawl"], "1");
      assert.equal(entry.headers["x-call"], "2");
      assert.equal(entry.headers["accept-encoding"], "identity");
    }
  });
});

Deno.test("WebClient.get() reads header names in any case and trims values, as Headers does", async () => {
  const other = new FixtureSite().file("/new.xml", "<urlset/>");
  await withSite(other, async (otherServer) => {
    const site = new FixtureSite().redirect("/old.xml", otherServer.url("/new.xml"));
    await withSite(site, async (server) => {
      const web = client({ headers: { "User-Agent": " custom/1 ", AUTHORIZATION: "Bearer y" } });
      assert.ok((await web.get(server.url("/old.xml"))).ok);
      assert.equal(site.log[0]?.headers["user-agent"], "custom/1");
      assert.equal(site.log[0]?.headers["authorization"], "Bearer y");
      assert.equal(other.log[0]?.headers["user-agent"], "custom/1");
      assert.equal(other.log[0]?.headers["authorization"], undefined);
    });
  });
});

Deno.test("WebClient.get() drops credentials on a redirect to another origin", async () => {
  const other = new FixtureSite().file("/new.xml", "<urlset/>");
  await withSite(other, async (otherServer) => {
    const site = new FixtureSite().redirect("/old.xml", otherServer.url("/new.xml"));
    await withSite(site, async (server) => {
      const web = client({ headers: { authorization: "Bearer x", "x-crawl": "1" } });
      assert.ok((await web.get(server.url("/old.xml"))).ok);
      assert.equal(site.log[0]?.headers["authorization"], "Bearer x");
      assert.equal(other.log[0]?.headers["authorization"], undefined);
      assert.equal(other.log[0]?.headers["x-crawl"], "1");
    });
  });
});

Deno.test("WebClient.get() asks checkUrl before the first request and every hop", async () => {
  const site = new FixtureSite()
    .redirect("/old.xml", "/private.xml")
    .file("/private.xml", "<urlset/>");
  await withSite(site, async (server) => {
    const checked: string[] = [];
    const web = client({
      checkUrl: (url) => {
        checked.push(url.pathname);
        return url.pathname === "/private.xml" ? "Refused: private" : null;
      },
    });
    const result = await web.get(server.url("/old.xml"));
    assert.deepEqual(result, {
      ok: false,
      url: server.url("/private.xml"),
      status: 301,
      reason: "Refused: private",
      failure: { kind: "refused-by-guard", cause: "Refused: private" },
    });
    assert.deepEqual(checked, ["/old.xml", "/private.xml"]);
    assert.deepEqual(site.log.map((e) => e.path), ["/old.xml"]);
  });
});

Deno.test("WebClient.get() never has more than `concurrency` requests in flight per host", async () => {
  const a = new FixtureSite();
  const b = new FixtureSite();
  for (const site of [a, b]) {
    site.latencyMs = 30;
    for (let i = 0; i < 6; i++) site.file(`/s${i}.xml`, "<urlset/>");
  }
  await withSite(a, async (serverA) => {
    await withSite(b, async (serverB) => {
      const web = client({ concurrency: 2 });
      const urls = [0, 1, 2, 3, 4, 5].flatMap((i) => [
        serverA.url(`/s${i}.xml`),
        serverB.url(`/s${i}.xml`),
      ]);
      const results = await Promise.all(urls.map((url) => web.get(url)));
      assert.ok(results.every((r) => r.ok));
      assert.deepEqual([a.maxInFlight, b.maxInFlight], [2, 2]);
      assert.deepEqual([a.log.length, b.log.length], [6, 6]);
    });
  });
});

Deno.test("WebClient.get() lets at most `concurrency` requests per host into a shared scheduler", async () => {
  const site = new FixtureSite();
  site.latencyMs = 30;
  for (let i = 0; i < 6; i++) site.file(`/s${i}.xml`, "<urlset/>");
  await withSite(site, async (server) => {
    // The scheduler would allow 8 per host: the client's own 2 is the bound.
    const scheduler = new RequestScheduler({ concurrency: 8, maxConnections: 64 });
    const web = client({ concurrency: 2, scheduler });
    const urls = [0, 1, 2, 3, 4, 5].map((i) => server.url(`/s${i}.xml`));
    const results = await Promise.all(urls.map((url) => web.get(url)));
    assert.deepEqual(results.map((r) => [r.ok, r.status]), urls.map(() => [true, 200]));
    assert.deepEqual([site.maxInFlight, scheduler.peakActive, site.log.length], [2, 2, 6]);
  });
});

Deno.test("WebClient.get() rejects promptly with the signal's reason and leaves nothing running", async () => {
  const site = new FixtureSite()
    .hang("/hang.xml")
    .endless("/endless.xml", { intervalMs: 5 })
    .sequence("/flaky.xml", [{ status: 503 }]);
  await withSite(site, async (server) => {
    const controller = new AbortController();
    const web = client({
      signal: controller.signal,
      concurrency: 1,
      retries: 5,
      timeoutMs: 10_000,
    });
    const pending = [
      web.get(server.url("/endless.xml")),
      web.get(server.url("/hang.xml")), // waits for the only slot
      web.get(server.url("/flaky.xml")), // waits for the slot, then backs off
    ];
    await waitFor(() => site.log.length === 1, "the first request");
    const reason = new Error("Stop the crawl");
    controller.abort(reason);
    const settled = await Promise.allSettled(pending);
    assert.deepEqual(settled, pending.map(() => ({ status: "rejected", reason })));
    await assert.rejects(web.get(server.url("/hang.xml")), (e) => e === reason);
    await waitFor(() => site.inFlight === 0, "the server to see the client leave");
    assert.deepEqual(site.log.map((e) => e.path), ["/endless.xml"]);
  });
});

Deno.test("WebClient.get() keeps one abort listener on a long-lived signal for all requests in flight, and none once they end", async () => {
  const site = new FixtureSite();
  site.latencyMs = 300;
  const paths = Array.from({ length: 8 }, (_, i) => `/s${i}.xml`);
  for (const path of paths) site.file(path, "<urlset></urlset>");
  await withSite(site, async (server) => {
    // A batch run's signal outlives every request of every site.
    const { controller, listeners } = countedSignal();
    const web = client({ signal: controller.signal, concurrency: 8 });
    const pending = paths.map((path) => web.get(server.url(path)));
    await waitFor(() => site.log.length === 8, "all eight requests");
    assert.equal(listeners(), 1);
    const results = await Promise.all(pending);
    assert.deepEqual(results.map((r) => [r.ok, r.status]), paths.map(() => [true, 200]));
    assert.equal(listeners(), 0, "nothing of the requests is left on the signal");
  });
});

Deno.test("WebClient.get() reports a connection reset mid-body", async () => {
  const site = new FixtureSite().reset("/reset.xml", "<urlset><url><loc>");
  await withSite(site, async (server) => {
    const web = client({ retries: 1 });
    const result = await web.get(server.url("/reset.xml"));
    assert.equal(result.ok, false);
    assert.equal(result.url, server.url("/reset.xml"));
    assert.ok(
      !result.ok &&
        result.reason.startsWith(`Unable to fetch sitemap from ${server.url("/reset.xml")}: `),
      !result.ok ? result.reason : "",
    );
    // A reset is a network error: retried.
    assert.equal(site.count("/reset.xml"), 2);
  });
});

Deno.test("WebClient.get() retries a refused connection and reports it without a status", async () => {
  const site = new FixtureSite();
  const server = await site.listen();
  const url = server.url("/sitemap.xml");
  await server.close();
  const web = client({ retries: 1 });
  const result = await web.get(url);
  assert.equal(result.ok, false);
  assert.equal(result.status, null);
  assert.ok(!result.ok && result.reason.startsWith(`Unable to fetch sitemap from ${url}: `));
  assert.deepEqual([web.stats.requests, web.stats.retries], [2, 1]);
});

Deno.test("WebClient.get() hands over a transport-gzipped body raw, never inflating it", async () => {
  const bomb = gzipBomb(200 * 1024 * 1024, { content: "xml" });
  const site = new FixtureSite().file("/bomb.xml", bomb, {
    contentType: "application/xml",
    headers: { "content-encoding": "gzip" },
  });
  await withSite(site, async (server) => {
    const web = client({ maxDownloadBytes: 50 * 1024 * 1024 });
    const result = await web.get(server.url("/bomb.xml"));
    assert.ok(result.ok);
    assert.equal(result.bytes.byteLength, bomb.byteLength);
    assert.deepEqual([result.bytes[0], result.bytes[1]], [0x1f, 0x8b]);
    assert.equal(web.stats.bytesDownloaded, bomb.byteLength);
  });
});

Deno.test("WebClient.get() answers an invalid URL without a request", async () => {
  const result = await client().get("not a url");
  assert.deepEqual(result, {
    ok: false,
    url: "not a url",
    status: null,
    reason: "Invalid URL: not a url",
  });
});

Deno.test("Slots.acquire() adds one abort listener per signal, however many wait on it", async () => {
  const { controller, listeners } = countedSignal();
  const slots = new Slots(1);
  await slots.acquire(controller.signal);
  const order: number[] = [];
  const waiting = Array.from(
    { length: 20 },
    (_, i) => slots.acquire(controller.signal).then(() => order.push(i)),
  );
  assert.equal(listeners(), 1);
  for (let i = 0; i < 20; i++) slots.release();
  await Promise.all(waiting);
  assert.deepEqual(order, Array.from({ length: 20 }, (_, i) => i));
  assert.equal(listeners(), 0, "removed once nobody waits");
});

Deno.test("Slots.acquire() rejects every waiter of an aborted signal and keeps the others waiting", async () => {
  const first = countedSignal();
  const other = new AbortController();
  const slots = new Slots(1);
  await slots.acquire(first.controller.signal);
  const outcomes: string[] = [];
  const track = (name: string, promise: Promise<void>) =>
    promise.then(() => outcomes.push(`${name} granted`), (e) => outcomes.push(`${name} ${e}`));
  const waits = [
    track("a", slots.acquire(first.controller.signal)),
    track("b", slots.acquire(other.signal)),
    track("c", slots.acquire(first.controller.signal)),
  ];
  assert.equal(first.listeners(), 1);
  first.controller.abort("stop");
  await Promise.all(waits.filter((_, i) => i !== 1));
  slots.release();
  await waits[1];
  assert.deepEqual(outcomes, ["a stop", "c stop", "b granted"]);
  await assert.rejects(slots.acquire(first.controller.signal), (e) => e === "stop");
});
