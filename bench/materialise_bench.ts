/**
 * How fast packed pages become `SitemapPage` objects: the cost a user pays
 * when reading a tree the crawl built (1,000,000 pages in 20 sitemaps of
 * 50,000, as in the seed benchmark).
 *
 * Run: deno bench -A bench/materialise_bench.ts
 *
 * Or, for nanoseconds per page: deno run -A bench/materialise_bench.ts [--processes=N]
 *   Runs `allPages()` and, as the before, the generator it replaced (kept
 *   below, fed the same 20 packed sources) in N fresh processes each
 *   (default 7, alternating), and prints the median of the first traversal
 *   (what the end-to-end benchmark times: the JIT is still warming up) and of
 *   traversals 5 to 15 (warm), as CPU time (`process.cpuUsage`, all threads,
 *   so GC helpers count) and wall time.
 *
 * @module
 */

import process from "node:process";
import {
  CHANGE_FREQUENCIES,
  type ChangeFrequency,
  type PackedPages,
} from "../src/parse/_result.ts";
import { SitemapPage } from "../src/objects/page.ts";
import {
  type AbstractSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  PagesXMLSitemap,
} from "../src/objects/sitemap.ts";

const SITEMAPS = 20;
const PER_SITEMAP = 50_000;
const PAGES = SITEMAPS * PER_SITEMAP;

/** Columns like the parser's: ~55-byte URLs, every page with a lastmod, a few with a change frequency. */
function packed(sitemap: number): PackedPages {
  const urls: string[] = [];
  const urlEnds = new Uint32Array(PER_SITEMAP);
  const lastModified = new Float64Array(PER_SITEMAP);
  const priority = new Float64Array(PER_SITEMAP).fill(0.5);
  const changeFrequency = new Uint8Array(PER_SITEMAP);
  let end = 0;
  for (let i = 0; i < PER_SITEMAP; i++) {
    const url = `https://www.example.com/section-${sitemap}/article-${i}-some-slug.html`;
    urls.push(url);
    end += url.length;
    urlEnds[i] = end;
    lastModified[i] = Date.UTC(2024, 0, 1) + i * 60_000;
    changeFrequency[i] = i % 10 === 0 ? 3 : 0;
  }
  return {
    count: PER_SITEMAP,
    urlBytes: new TextEncoder().encode(urls.join("")),
    urlEnds,
    lastModified,
    priority,
    changeFrequency,
    extras: null,
  };
}

const columns = Array.from({ length: SITEMAPS }, (_, i) => packed(i));

function tree(): IndexWebsiteSitemap {
  const children = columns.map((p, i) =>
    new PagesXMLSitemap(`https://www.example.com/${i}.xml`, p)
  );
  return new IndexWebsiteSitemap("https://www.example.com/", [
    new IndexXMLSitemap("https://www.example.com/index.xml", children),
  ]);
}

const shared = tree();

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const NONE: readonly never[] = [];
const FREQUENCY_BY_CODE: readonly (ChangeFrequency | null)[] = [null, ...CHANGE_FREQUENCIES];

/**
 * The before: the generator `allPages()` ran until it became a hand-written
 * iterator, minus its held-array and extras branches (these columns need
 * neither), so it flatters the before a little: fed through a tree, the
 * original took 5-15% longer than this copy.
 */
function* generatorPages(sources: readonly PackedPages[]): Generator<SitemapPage, void, undefined> {
  for (const packed of sources) {
    const text = decoder.decode(packed.urlBytes);
    const { count, urlEnds, lastModified, priority, changeFrequency } = packed;
    let start = 0;
    for (let i = 0; i < count; i++) {
      const end = urlEnds[i]!;
      const url = text.slice(start, end);
      start = end;
      yield new SitemapPage({
        url,
        priority: priority[i]!,
        lastModified: lastModified[i]!,
        changeFrequency: FREQUENCY_BY_CODE[changeFrequency[i]!] ?? null,
        newsStory: null,
        images: NONE,
        videos: NONE,
        alternates: NONE,
      });
    }
  }
}

/** Touches each page so the work cannot be skipped. */
function drain(node: AbstractSitemap): number {
  let length = 0;
  for (const page of node.allPages()) length += page.url.length;
  return length;
}

Deno.bench("allPages() over 1,000,000 packed pages (20 x 50,000)", {
  group: "1M",
  baseline: true,
}, () => {
  drain(shared);
});

Deno.bench("before: the generator allPages() used, same 20 x 50,000", { group: "1M" }, () => {
  let length = 0;
  for (const page of generatorPages(columns)) length += page.url.length;
  if (length === 0) throw new Error("No URLs");
});

Deno.bench("pages of 20 nodes x 50,000 (builds and caches arrays)", { group: "1M" }, () => {
  let count = 0;
  for (const node of tree().allSitemaps()) count += node.pages.length;
  if (count !== PAGES) throw new Error(`Built ${count} pages`);
});

Deno.bench("allPages() over cached pages of 1,000,000", { group: "1M" }, (b) => {
  const cached = tree();
  for (const node of cached.allSitemaps()) void node.pages;
  b.start();
  drain(cached);
  b.end();
});

Deno.bench("JSON.stringify of one 50,000-page node", () => {
  JSON.stringify(new PagesXMLSitemap("https://www.example.com/0.xml", columns[0]!));
});

type Variant = "allPages()" | "generator";

interface Traversals {
  /** CPU ms and wall ms of each traversal, first one first. */
  cpu: number[];
  wall: number[];
}

/**
 * One child: 15 traversals in the user's own loop shape (the loop is this
 * function's, run once, as a script's top-level loop is).
 */
function traverse(variant: Variant): Traversals {
  const result: Traversals = { cpu: [], wall: [] };
  for (let round = 0; round < 15; round++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    let pages = 0;
    let chars = 0;
    for (const page of variant === "allPages()" ? shared.allPages() : generatorPages(columns)) {
      pages++;
      chars += page.url.length;
    }
    const wall = performance.now() - wallStart;
    const cpu = process.cpuUsage(cpuStart);
    if (pages !== PAGES || chars === 0) throw new Error(`Saw ${pages} pages`);
    result.cpu.push((cpu.user + cpu.system) / 1000);
    result.wall.push(wall);
  }
  return result;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function child(variant: Variant): Promise<Traversals> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, `--child=${variant}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`The ${variant} child failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout)) as Traversals;
}

async function main(): Promise<void> {
  const childArg = Deno.args.find((a) => a.startsWith("--child="));
  if (childArg !== undefined) {
    console.log(JSON.stringify(traverse(childArg.slice(8) as Variant)));
    return;
  }
  const processes = Number(
    Deno.args.find((a) => a.startsWith("--processes="))?.slice(12) ?? 7,
  );
  const variants: Variant[] = ["generator", "allPages()"];
  const runs = new Map<Variant, Traversals[]>(variants.map((v) => [v, []]));
  for (let i = 0; i < processes; i++) {
    for (const variant of variants) runs.get(variant)!.push(await child(variant));
  }
  const ns = (ms: number) => `${Math.round((ms * 1e6) / PAGES)} ns`.padStart(7);
  console.log(
    `${
      PAGES.toLocaleString("en")
    } packed pages in ${SITEMAPS} sources, ${processes} processes each; ` +
      "ns per page, median (CPU / wall):",
  );
  console.log("                first traversal      warm (traversals 5-15)");
  for (const variant of variants) {
    const all = runs.get(variant)!;
    const first = (key: "cpu" | "wall") => median(all.map((r) => r[key][0]!));
    const warm = (key: "cpu" | "wall") => median(all.flatMap((r) => r[key].slice(4)));
    console.log(
      `${variant.padEnd(12)}  ${ns(first("cpu"))} / ${ns(first("wall"))}     ` +
        `${ns(warm("cpu"))} / ${ns(warm("wall"))}`,
    );
  }
}

if (import.meta.main) await main();
