import assert from "node:assert/strict";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { sitemapTreesForHomepages, type SiteResult } from "../src/many_sites.ts";
import { sitemapIndex } from "./_tree_helpers.ts";

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/**
 * Sites `site0.test` … on an injected fetch: robots.txt names an index of two
 * urlsets of two pages each; every response waits `latencyMs`. Counts
 * requests in flight and the hosts asked.
 */
function fakeWeb(latencyMs = 5) {
  const state = { inFlight: 0, peak: 0, requests: 0, hosts: new Set<string>() };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    state.requests++;
    state.hosts.add(url.host);
    state.inFlight++;
    state.peak = Math.max(state.peak, state.inFlight);
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, latencyMs);
        init?.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(init.signal!.reason);
        }, { once: true });
      });
      const o = url.origin;
      const pages = (n: string) =>
        `<urlset xmlns="${NS}"><url><loc>${o}/${n}/1</loc></url><url><loc>${o}/${n}/2</loc></url></urlset>`;
      switch (url.pathname) {
        case "/robots.txt":
          return new Response(`Sitemap: ${o}/index.xml\n`);
        case "/index.xml":
          return new Response(sitemapIndex([`${o}/a.xml`, `${o}/b.xml`]));
        case "/a.xml":
          return new Response(pages("a"));
        case "/b.xml":
          return new Response(pages("b"));
        default:
          return new Response("Not Found", { status: 404 });
      }
    } finally {
      state.inFlight--;
    }
  };
  return { state, fetch: fetch as typeof globalThis.fetch };
}

const sites = (n: number): string[] => Array.from({ length: n }, (_, i) => `http://site${i}.test/`);

function summary(result: SiteResult): string {
  if (result.error) return `${result.homepage} error ${result.error.name}: ${result.error.message}`;
  return `${result.homepage} ${[...result.tree.allSitemaps()].length} sitemaps ${
    [...result.tree.allPages()].map((p) => p.url).sort().join(" ")
  }`;
}

async function collect(iterable: AsyncIterable<SiteResult>): Promise<SiteResult[]> {
  const out: SiteResult[] = [];
  for await (const r of iterable) out.push(r);
  return out;
}

Deno.test("sitemapTreesForHomepages() yields one result per homepage, equal to separate calls", async () => {
  const web = fakeWeb();
  const options = { fetch: web.fetch, workers: 0, useFeeds: false } as const;
  const input = [...sites(6), "not a url", "ftp://site9.test/"];
  const results = await collect(sitemapTreesForHomepages(input, options));
  const got = results.map(summary).sort();
  const expected: string[] = [];
  for (const homepage of sites(6)) {
    const tree = await sitemapTreeForHomepage(homepage, options);
    expected.push(summary({ homepage, tree }));
  }
  expected.push(
    'ftp://site9.test/ error TypeError: Homepage URL must be http(s), got "ftp://site9.test/"',
    'not a url error TypeError: Homepage URL is not a valid URL: "not a url"',
  );
  assert.deepEqual(got, expected.sort());
  assert.equal(
    summary(results.find((r) => r.homepage === "http://site0.test/")!),
    "http://site0.test/ 4 sitemaps http://site0.test/a/1 http://site0.test/a/2 http://site0.test/b/1 http://site0.test/b/2",
  );
});

Deno.test("sitemapTreesForHomepages() holds one global connection cap across all sites", async () => {
  const web = fakeWeb(10);
  const results = await collect(sitemapTreesForHomepages(sites(10), {
    fetch: web.fetch,
    workers: 0,
    siteConcurrency: 10,
    maxConnections: 3,
  }));
  assert.equal(results.length, 10);
  assert.equal(web.state.peak, 3);
});

Deno.test("sitemapTreesForHomepages() starts no more than siteConcurrency sites, counting untaken results", async () => {
  const web = fakeWeb();
  let pulled = 0;
  async function* lazily(): AsyncGenerator<string> {
    for (const site of sites(10)) {
      pulled++;
      yield site;
    }
  }
  const run = sitemapTreesForHomepages(lazily(), {
    fetch: web.fetch,
    workers: 0,
    siteConcurrency: 2,
    useKnownPaths: false,
  });
  const first = await run.next();
  assert.equal(first.done, false);
  await new Promise((r) => setTimeout(r, 100));
  // Two sites started; their results wait for the consumer, so no third.
  assert.equal(web.state.hosts.size, 2);
  assert.equal(pulled, 2);
  const rest = [];
  for await (const r of run) rest.push(r);
  assert.equal(rest.length, 9);
  assert.equal(pulled, 10);
  assert.equal(web.state.hosts.size, 10);
});

Deno.test("sitemapTreesForHomepages() stops every crawl when the signal aborts", async () => {
  const web = fakeWeb(20);
  const controller = new AbortController();
  const run = sitemapTreesForHomepages(sites(50), {
    fetch: web.fetch,
    workers: 0,
    siteConcurrency: 4,
    signal: controller.signal,
  });
  await run.next();
  controller.abort(new Error("enough"));
  await assert.rejects(run.next(), { message: "enough" });
  const requests = web.state.requests;
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(web.state.requests, requests);
  assert.equal(web.state.inFlight, 0);
});

Deno.test("sitemapTreesForHomepages() checks its options on the first next()", async () => {
  await assert.rejects(
    sitemapTreesForHomepages(sites(1), { siteConcurrency: 0 }).next(),
    { name: "RangeError", message: 'Option "siteConcurrency" must be an integer >= 1, got 0' },
  );
  await assert.rejects(
    sitemapTreesForHomepages(sites(1), { maxConnections: 1.5 }).next(),
    { name: "RangeError", message: 'Option "maxConnections" must be an integer >= 1, got 1.5' },
  );
});
