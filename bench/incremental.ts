/**
 * Incremental crawls: the seed benchmark's site (robots.txt -> an index of 20
 * gzipped urlsets x 50,000 URLs with `<loc>` + `<lastmod>`), every file served
 * with a strong ETag and answering `If-None-Match` with `304`.
 *
 * For each setup it runs three crawls with one cache:
 *   1. cold: everything downloaded and parsed, the cache filled;
 *   2. repeat: nothing changed, so 22 conditional requests that all get 304;
 *   3. one child changed: 21 x 304 and exactly that child re-parsed.
 * It checks that the repeat returns the same tree as the cold run (every
 * page's URL, lastmod, priority and changefreq, in order) and prints times,
 * requests and statuses.
 *
 * Setups: a file cache and a memory cache with no added latency, and a file
 * cache with 50 ms before every response (the seed benchmark's latency: the
 * repeat run then cannot beat the 3 round trips robots -> index -> children,
 * 7 x 50 ms at concurrency 4, so its share of the cold run depends on how
 * long parsing made the cold run).
 *
 * Run: deno run -A bench/incremental.ts [--quick] [--runs=N]
 *   --quick: 4 children, not 20; --runs: runs per measurement, the median is shown (default 3)
 */
import { FileSitemapCache, MemorySitemapCache, type SitemapCache } from "../src/cache.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { IndexWebsiteSitemap } from "../src/objects/sitemap.ts";
import { FixtureSite } from "../fixtures/site.ts";
import { generateIndex, generateUrlset, gzip } from "../fixtures/generate.ts";

const CHILDREN = Deno.args.includes("--quick") ? 4 : 20;
const RUNS = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const URLS = 50_000;

interface Doc {
  bytes: Uint8Array;
  version: number;
  contentType: string;
}

const docs = new Map<string, Doc>();
const site = new FixtureSite();

function serve(path: string, bytes: Uint8Array, contentType: string): void {
  const existing = docs.get(path);
  if (existing !== undefined) {
    existing.bytes = bytes;
    existing.version++;
    return;
  }
  docs.set(path, { bytes, version: 1, contentType });
  site.route(path, (c) => {
    const doc = docs.get(path)!;
    const etag = `"${path}-${doc.version}"`;
    // (FixtureSite already waited site.latencyMs before calling this handler.)
    if (c.req.header("if-none-match") === etag) {
      return new Response(null, { status: 304, headers: { etag } });
    }
    return new Response(doc.bytes as Uint8Array<ArrayBuffer>, {
      headers: { etag, "content-type": doc.contentType },
    });
  });
}

const setupStarted = performance.now();
const childPaths = Array.from({ length: CHILDREN }, (_, i) => `/sitemap-${i}.xml.gz`);
serve("/robots.txt", new TextEncoder().encode("Sitemap: /index.xml\n"), "text/plain");
serve("/index.xml", new TextEncoder().encode(generateIndex(childPaths)), "application/xml");
childPaths.forEach((path, i) => {
  const xml = generateUrlset(URLS, {
    seed: i + 1,
    host: `https://www.example.com/s${i}`,
    lastmod: true,
  });
  serve(path, gzip(xml), "application/gzip");
});
console.log(
  `site: robots.txt -> index -> ${CHILDREN} gzipped urlsets x ${URLS.toLocaleString("en")} URLs ` +
    `(${(docs.get(childPaths[0]!)!.bytes.byteLength / 1e6).toFixed(2)} MB gzip each), ` +
    `generated in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
);

const server = await site.listen();

/** Every page of both trees agrees, in order; returns the page count. */
function sameTree(a: IndexWebsiteSitemap, b: IndexWebsiteSitemap): number {
  const left = a.allPages();
  const right = b.allPages();
  let n = 0;
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) {
      if (x.done !== y.done) throw new Error(`Trees differ in length after ${n} pages`);
      return n;
    }
    const p = x.value;
    const q = y.value;
    if (
      p.url !== q.url || p.lastModified?.getTime() !== q.lastModified?.getTime() ||
      p.priority !== q.priority || p.changeFrequency !== q.changeFrequency
    ) {
      throw new Error(`Trees differ at page ${n}: ${p.url} vs ${q.url}`);
    }
    n++;
  }
}

interface Run {
  readonly tree: IndexWebsiteSitemap;
  readonly ms: number;
  readonly statuses: string;
}

async function crawl(cache: SitemapCache | null): Promise<Run> {
  site.clearLog();
  const started = performance.now();
  const tree = await sitemapTreeForHomepage(server.url("/"), {
    useKnownPaths: false,
    useFeeds: false,
    ...(cache === null ? {} : { cache }),
  });
  const ms = performance.now() - started;
  const counts = new Map<string, number>();
  for (const f of tree.stats.fetches) {
    const key = `${f.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const statuses = [...counts].map(([status, n]) => `${n} x ${status}`).join(", ");
  return { tree, ms, statuses };
}

function line(label: string, run: Run): string {
  const s = run.tree.stats;
  return `  ${label.padEnd(20)} ${run.ms.toFixed(0).padStart(6)} ms  ${
    String(s.requests).padStart(3)
  } requests (${run.statuses})  parsed ${String(s.parsed).padStart(2)}  ` +
    `downloaded ${(s.bytesDownloaded / 1e6).toFixed(1).padStart(5)} MB  pages ${
      s.pagesKept.toLocaleString("en")
    }`;
}

/** The run with the median time of `runs` (this shared 2-core machine is rarely quiet). */
async function median(runs: number, run: () => Promise<Run>): Promise<Run & { all: number[] }> {
  const results: Run[] = [];
  for (let r = 0; r < runs; r++) results.push(await run());
  const sorted = [...results].sort((a, b) => a.ms - b.ms);
  return { ...sorted[sorted.length >> 1]!, all: results.map((r) => Math.round(r.ms)) };
}

async function scenario(
  name: string,
  latencyMs: number,
  makeCache: () => SitemapCache,
): Promise<void> {
  site.latencyMs = latencyMs;
  console.log(`\n${name}, ${latencyMs} ms latency per response (median of ${RUNS}):`);
  const none = await median(RUNS, () => crawl(null));
  console.log(line("0. no cache", none) + `  [${none.all.join(", ")}]`);
  let cache: SitemapCache | null = null;
  const cold = await median(RUNS, () => crawl(cache = makeCache()));
  console.log(line("1. cold", cold) + `  [${cold.all.join(", ")}]`);
  const repeat = await median(RUNS, () => crawl(cache));
  console.log(line("2. repeat", repeat) + `  [${repeat.all.join(", ")}]`);
  const pages = sameTree(cold.tree, repeat.tree);
  const all304 = repeat.tree.stats.fetches.every((f) => f.status === 304);
  console.log(
    `     repeat/cold = ${(repeat.ms / cold.ms * 100).toFixed(1)}%; same tree (${
      pages.toLocaleString("en")
    } pages): yes; every request 304: ${all304 ? "yes" : "NO"}`,
  );
  // One child changes: new lastmods, same URLs.
  const i = CHILDREN >> 1;
  const changed = childPaths[i]!;
  serve(
    changed,
    gzip(generateUrlset(URLS, {
      seed: i + 1,
      host: `https://www.example.com/s${i}`,
      lastmod: { from: new Date("2025-01-01"), to: new Date("2025-06-01") },
    })),
    "application/gzip",
  );
  const one = await crawl(cache);
  console.log(line("3. one child changed", one));
  const reparsed = one.tree.stats.fetches.filter((f) => f.outcome === "parsed").map((f) =>
    new URL(f.url).pathname
  );
  console.log(`     re-parsed: ${reparsed.join(", ")} (expected ${changed})`);
}

const dir = await Deno.makeTempDir({ prefix: "sitemap-cache-bench-" });
try {
  // Each cold run starts from an empty cache: a directory of its own.
  let dirs = 0;
  const fileCache = (): FileSitemapCache => new FileSitemapCache(`${dir}/${++dirs}`);
  await scenario("file cache", 0, fileCache);
  await scenario("memory cache", 0, () => new MemorySitemapCache());
  await scenario("file cache", 50, fileCache);
  let bytes = 0;
  for await (const entry of Deno.readDir(`${dir}/${dirs}`)) {
    bytes += (await Deno.stat(`${dir}/${dirs}/${entry.name}`)).size;
  }
  console.log(`\ncache directory: ${(bytes / 1e6).toFixed(1)} MB for ${CHILDREN + 2} entries`);
} finally {
  await Deno.remove(dir, { recursive: true });
  await server.close();
}
