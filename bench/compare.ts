/**
 * Change detection at scale: `compareSitemapTrees()` on two trees of the
 * seed benchmark's shape (robots.txt -> an index of 20 urlsets x 50,000
 * pages with `<loc>` and a date-only `<lastmod>`), the second with 5% of the
 * lastmods moved, 1% of the pages removed and 1% added; and snapshots
 * (`encodeSitemapTree()` / `decodeSitemapTree()`) of that tree and of the
 * realistic one (fixtures/realistic.ts, 20 x 50,000 pages).
 *
 * Printed in the same run:
 * - the floor: iterate both trees' `allPages()` and put every URL in a `Set`;
 * - compare + iterate every change, and its ratio to the floor (target <= 1.5x);
 * - the peak RSS while comparing and iterating, against the peak of building
 *   the two trees (target <= 2.5x);
 * - snapshot bytes per page, encode time, and decode time (in a fresh
 *   process that reads the file, as `diff` would) against iterating the
 *   decoded tree's pages twice (target <= 1x, <= 40 bytes per page on the plain tree).
 *
 * The trees are built in-process with `sitemapFromString()`. Each part runs
 * in a fresh process; timings are medians of `--runs` rounds (default 5),
 * the first (cold) round shown too.
 *
 *     deno run -A bench/compare.ts [--runs N] [--no-realistic]
 *
 * @module
 */
import process from "node:process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import {
  type AbstractSitemap,
  compareSitemapTrees,
  decodeSitemapTree,
  encodeSitemapTree,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  sitemapChangeLine,
  sitemapFromString,
} from "../mod.ts";
import { hash } from "../fixtures/generate.ts";
import { realisticUrlset } from "../fixtures/realistic.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? Number(args[at + 1]) : fallback;
};
const RUNS = option("--runs", 5);
const FILES = 20;
const PER_FILE = 50_000;
const ORIGIN = "https://www.example.com";
const FIRST_DAY_MS = Date.UTC(2020, 0, 1);
const DAYS = 1827;
const DIR = new URL("./generated/compare/", import.meta.url);

/** Resident set now, and its high-water mark (reset by {@linkcode resetPeak}), in MiB. */
function memory(): { rss: number; peak: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))![1]);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** Lets the high-water mark start again from the resident set (Linux `clear_refs`). */
function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const dayString = (day: number) =>
  new Date(FIRST_DAY_MS + day * 86_400_000).toISOString().slice(0, 10);

/**
 * Urlset `k` of the seed's shape; `changed` gives the second version: 5% of
 * lastmods moved, 1% of pages removed, 1% added (each right after a page).
 */
function seedUrlset(k: number, changed: boolean): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let n = k * PER_FILE; n < (k + 1) * PER_FILE; n++) {
    let day = hash(1, n, 1) % DAYS;
    const roll = hash(2, n, 2) % 100;
    if (changed && roll === 0) continue;
    if (changed && roll >= 95) day = (day + 1 + hash(2, n, 3) % 30) % DAYS;
    parts.push(`<url><loc>${ORIGIN}/p/${n}</loc><lastmod>${dayString(day)}</lastmod></url>\n`);
    if (changed && roll === 1) {
      parts.push(
        `<url><loc>${ORIGIN}/p/${n}/new</loc><lastmod>${dayString(day)}</lastmod></url>\n`,
      );
    }
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

/** robots.txt -> an index -> the 20 urlsets, as the seed site's crawl gives. */
function tree(urlset: (k: number) => string): IndexWebsiteSitemap {
  const children: AbstractSitemap[] = [];
  for (let k = 0; k < FILES; k++) {
    children.push(
      sitemapFromString(urlset(k), { url: `${ORIGIN}/sitemaps/sitemap-${k + 1}.xml.gz` }),
    );
  }
  return new IndexWebsiteSitemap(`${ORIGIN}/`, [
    new IndexRobotsTxtSitemap(`${ORIGIN}/robots.txt`, [
      new IndexXMLSitemap(`${ORIGIN}/sitemap_index.xml`, children),
    ]),
  ]);
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

function floor(a: AbstractSitemap, b: AbstractSitemap): number {
  const urls = new Set<string>();
  for (const page of a.allPages()) urls.add(page.url);
  for (const page of b.allPages()) urls.add(page.url);
  return urls.size;
}

function compareAndIterate(a: AbstractSitemap, b: AbstractSitemap): number {
  let n = 0;
  for (const _ of compareSitemapTrees(a, b)) n++;
  return n;
}

function iterateTwice(tree: AbstractSitemap): number {
  let n = 0;
  for (const _ of tree.allPages()) n++;
  for (const _ of tree.allPages()) n++;
  return n;
}

/** Child: the two plain trees, the comparison against its floor, and the plain snapshot. */
function plainChild(): unknown {
  const before = tree((k) => seedUrlset(k, false));
  const after = tree((k) => seedUrlset(k, true));
  gc();
  const built = memory();
  const canReset = resetPeak();
  const first = time(() => compareAndIterate(before, after));
  const during = memory();
  const changes = compareSitemapTrees(before, after);
  const lines = time(() => {
    let bytes = 0;
    for (const change of changes) bytes += JSON.stringify(sitemapChangeLine(change)).length + 1;
    return bytes;
  });
  const floors: number[] = [];
  const compares: number[] = [first.ms];
  let distinct = 0;
  for (let r = 0; r < RUNS; r++) {
    gc();
    const f = time(() => floor(before, after));
    floors.push(f.ms);
    distinct = f.value;
    gc();
    if (r > 0) compares.push(time(() => compareAndIterate(before, after)).ms);
  }
  return {
    counts: changes.counts,
    size: changes.size,
    distinct,
    changesIterated: first.value,
    ndjsonBytes: lines.value,
    ndjsonMs: lines.ms,
    floorMs: floors,
    compareMs: compares,
    builtRss: built.rss,
    buildPeak: built.peak,
    comparePeak: canReset ? during.peak : NaN,
    ...snapshotFigures(before, "plain"),
  };
}

/** Encodes `tree` `RUNS` times, iterates its pages twice as often, and writes the snapshot. */
function snapshotFigures(
  tree: AbstractSitemap,
  name: string,
): { pages: number; snapshotBytes: number; encodeMs: number[]; iterateTwiceMs: number[] } {
  gc();
  const encodes: number[] = [];
  let bytes: Uint8Array = new Uint8Array(0);
  for (let r = 0; r < RUNS; r++) {
    const encoded = time(() => encodeSitemapTree(tree));
    encodes.push(encoded.ms);
    bytes = encoded.value;
  }
  const iterations: number[] = [];
  let pages = 0;
  for (let r = 0; r < RUNS; r++) {
    const iterated = time(() => iterateTwice(tree));
    iterations.push(iterated.ms);
    pages = iterated.value / 2;
  }
  mkdirSync(DIR, { recursive: true });
  writeFileSync(new URL(`${name}.snap`, DIR), bytes);
  return { pages, snapshotBytes: bytes.length, encodeMs: encodes, iterateTwiceMs: iterations };
}

/** Child: the realistic tree and its snapshot. */
function realisticChild(): unknown {
  const realistic = tree((k) => realisticUrlset(PER_FILE, k + 1, { offset: k * PER_FILE }));
  return snapshotFigures(realistic, "realistic");
}

/** Child: read a snapshot file, as `diff` would, decode it and iterate the tree twice. */
function decodeChild(name: string): unknown {
  const bytes = new Uint8Array(readFileSync(new URL(`${name}.snap`, DIR)));
  const decodes: number[] = [];
  const iterations: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    gc();
    const decoded = time(() => decodeSitemapTree(bytes));
    decodes.push(decoded.ms);
    iterations.push(time(() => iterateTwice(decoded.value)).ms);
  }
  return { decodeMs: decodes, iterateTwiceMs: iterations };
}

async function child(argv: readonly string[]): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname, ...argv],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) throw new Error(`${argv.join(" ")} failed:\n${text}`);
  return JSON.parse(text.split("\n").at(-1)!);
}

const at = args.indexOf("--child");
if (at >= 0) {
  const which = args[at + 1]!;
  const result = which === "plain"
    ? plainChild()
    : which === "realistic"
    ? realisticChild()
    : decodeChild(args[at + 2]!);
  console.log(JSON.stringify(result));
} else {
  await main();
}

async function main(): Promise<void> {
  const runs = ["--runs", String(RUNS)];
  const f = (ms: number) => `${ms.toFixed(0)} ms`;
  const list = (values: readonly number[]) => values.map((v) => v.toFixed(0)).join(" ");
  console.log(
    `two trees of ${FILES} x ${PER_FILE} pages (seed shape); the second: 5% lastmods moved, 1% removed, 1% added; ${RUNS} rounds, medians (first round in brackets)`,
  );
  const plain = await child(["--child", "plain", ...runs]) as {
    counts: { pages: Record<string, number>; sitemaps: Record<string, number> };
    size: number;
    distinct: number;
    ndjsonBytes: number;
    ndjsonMs: number;
    floorMs: number[];
    compareMs: number[];
    builtRss: number;
    buildPeak: number;
    comparePeak: number;
    pages: number;
    snapshotBytes: number;
    encodeMs: number[];
    iterateTwiceMs: number[];
  };
  const floorMs = median(plain.floorMs);
  const compareMs = median(plain.compareMs);
  console.log(`changes: pages ${JSON.stringify(plain.counts.pages)}, ${plain.size} change objects`);
  console.log(
    `floor (both allPages() into a Set of ${plain.distinct} URLs): ${f(floorMs)}  [${
      list(plain.floorMs)
    }]`,
  );
  console.log(
    `compare + iterate every change: ${f(compareMs)}  [${list(plain.compareMs)}]  -> ${
      (compareMs / floorMs).toFixed(2)
    }x the floor (target <= 1.5x)`,
  );
  console.log(
    `  NDJSON lines of every change (sitemapChangeLine + JSON.stringify): ${f(plain.ndjsonMs)}, ${
      (plain.ndjsonBytes / 1e6).toFixed(1)
    } MB`,
  );
  console.log(
    `memory: the two trees built ${plain.builtRss.toFixed(0)} MiB resident, build peak ${
      plain.buildPeak.toFixed(0)
    } MiB; peak while comparing + iterating ${plain.comparePeak.toFixed(0)} MiB -> ${
      (plain.comparePeak / plain.buildPeak).toFixed(2)
    }x (target <= 2.5x)`,
  );
  const rows: [string, number, number, number[], number[], number[]][] = [];
  const plainDecode = await child(["--child", "decode", "plain", ...runs]) as {
    decodeMs: number[];
    iterateTwiceMs: number[];
  };
  rows.push([
    "plain",
    1_000_000,
    plain.snapshotBytes,
    plain.encodeMs,
    plainDecode.decodeMs,
    plainDecode.iterateTwiceMs,
  ]);
  if (!args.includes("--no-realistic")) {
    const realistic = await child(["--child", "realistic", ...runs]) as {
      pages: number;
      snapshotBytes: number;
      encodeMs: number[];
    };
    const decode = await child(["--child", "decode", "realistic", ...runs]) as {
      decodeMs: number[];
      iterateTwiceMs: number[];
    };
    rows.push([
      "realistic",
      realistic.pages,
      realistic.snapshotBytes,
      realistic.encodeMs,
      decode.decodeMs,
      decode.iterateTwiceMs,
    ]);
  }
  console.log(
    "\nsnapshots (decode in a fresh process that reads the file; target on the plain tree: <= 40 B/page, decode <= iterating twice)",
  );
  console.log(
    "tree        pages     bytes        B/page  encode ms        decode ms          iterate twice ms   decode / iterate twice",
  );
  for (const [name, pages, bytes, enc, dec, it] of rows) {
    console.log(
      `${name.padEnd(10)}  ${String(pages).padEnd(8)}  ${String(bytes).padEnd(11)}  ${
        (bytes / pages).toFixed(1).padEnd(6)
      }  ${`${median(enc).toFixed(0)} [${enc[0]!.toFixed(0)}]`.padEnd(15)}  ${
        `${median(dec).toFixed(0)} [${dec[0]!.toFixed(0)}]`.padEnd(17)
      }  ${`${median(it).toFixed(0)} [${it[0]!.toFixed(0)}]`.padEnd(17)}  ${
        (median(dec) / median(it)).toFixed(2)
      }x [${(dec[0]! / it[0]!).toFixed(2)}x]`,
    );
  }
}
