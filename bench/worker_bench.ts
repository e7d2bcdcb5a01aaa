/**
 * The parse pool's costs on a 50,000-URL gzipped urlset (`<loc>` + `<lastmod>`,
 * the seed benchmark's shape).
 *
 * - `deno bench -A bench/worker_bench.ts`: one worker round trip (transfer in,
 *   decompress, parse, transfer back) against the same job on the calling
 *   thread, and the calling thread's cost of receiving the result (a
 *   structured clone with the page buffers transferred, against the same pages
 *   sent as 50,000 objects).
 * - `deno run -A bench/worker_bench.ts` (or `bun bench/worker_bench.ts`):
 *   prints round-trip times and the calling thread's worst event-loop lag
 *   while 1, 2 and 4 workers parse 20 such sitemaps.
 *
 * @module
 */
import { loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { generateUrlset } from "../fixtures/generate.ts";
import { type PackedPages, type ParseResult, transferablesOf } from "../src/parse/_result.ts";
import { type ParseJob, type ParseOutcome, runParseJob } from "../src/workers/_job.ts";
import { createParsePool, type ParsePool } from "../src/workers/_parse_pool.ts";

const COUNT = 50_000;
const xml = new TextEncoder().encode(generateUrlset(COUNT, { lastmod: true }));
const gzipped = new Uint8Array(gzipSync(xml));
const group = `${COUNT} URLs: ${(gzipped.byteLength / 1e6).toFixed(2)} MB gzip -> ${
  (xml.byteLength / 1e6).toFixed(2)
} MB`;

function job(): ParseJob {
  // A fresh copy each time: the pool transfers, and so detaches, the buffer.
  return {
    bytes: gzipped.slice(),
    url: "https://www.example.com/sitemap.xml.gz",
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 50 * 1024 * 1024,
  };
}

function pagesOf(outcome: ParseOutcome): PackedPages {
  const result = outcome.result;
  if (result.kind !== "pages" || result.pages.count !== COUNT) {
    throw new Error(`Expected ${COUNT} pages, got ${JSON.stringify(result).slice(0, 200)}`);
  }
  return result.pages;
}

/** A result shaped like one from a worker, with buffers of its own to transfer. */
function freshResult(pages: PackedPages): ParseResult {
  return {
    kind: "pages",
    format: "urlset",
    found: pages.count,
    warning: null,
    pages: {
      ...pages,
      urlBytes: pages.urlBytes.slice(),
      urlEnds: pages.urlEnds.slice(),
      lastModified: pages.lastModified.slice(),
      priority: pages.priority.slice(),
      changeFrequency: pages.changeFrequency.slice(),
    },
  };
}

/** The same pages as one object each: what the pool avoids sending. */
function asObjects(pages: PackedPages): object[] {
  const text = new TextDecoder().decode(pages.urlBytes);
  const objects = [];
  for (let i = 0, start = 0; i < pages.count; i++) {
    const end = pages.urlEnds[i]!;
    objects.push({
      url: text.slice(start, end),
      lastModified: pages.lastModified[i],
      priority: pages.priority[i],
      changeFrequency: pages.changeFrequency[i],
    });
    start = end;
  }
  return objects;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** Samples the event loop every millisecond; `stop()` gives the worst and p99 gaps in ms. */
function lagMonitor(): { stop(): string } {
  let last = performance.now();
  const gaps: number[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  return {
    stop(): string {
      clearInterval(timer);
      gaps.sort((a, b) => a - b);
      const p99 = gaps[Math.floor(gaps.length * 0.99)] ?? 0;
      return `worst ${ms(gaps.at(-1) ?? 0)}, p99 ${ms(p99)}`;
    },
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function printFigures(): Promise<void> {
  const bun = (globalThis as { Bun?: { version: string } }).Bun;
  const runtime = bun === undefined ? `Deno ${Deno.version.deno}` : `Bun ${bun.version}`;
  const load = loadavg()[0]!.toFixed(1);
  console.log(`${runtime}, ${navigator.hardwareConcurrency} cores, load ${load}; ${group}`);
  // What the machine alone does to a 1 ms timer: the floor under every lag below.
  const idle = lagMonitor();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`lag with nothing to do, over 1 s: ${idle.stop()}`);

  const pool = createParsePool({ workers: 1, jobTimeoutMs: 60_000 });
  try {
    let start = performance.now();
    const packed = pagesOf(await pool.parse(job()));
    console.log(`first round trip, worker start-up included: ${ms(performance.now() - start)}`);
    const trips: number[] = [];
    const parses: number[] = [];
    const lag = lagMonitor();
    for (let i = 0; i < 20; i++) {
      start = performance.now();
      const outcome = await pool.parse(job());
      trips.push(performance.now() - start);
      parses.push(outcome.parseMs);
    }
    console.log(
      `warm round trip, median of 20: ${ms(median(trips))} ` +
        `(of which decompress + parse in the worker: ${ms(median(parses))}); ` +
        `calling-thread lag meanwhile: ${lag.stop()}`,
    );
    const inThread: number[] = [];
    for (let i = 0; i < 5; i++) {
      start = performance.now();
      pagesOf(await runParseJob(job()));
      inThread.push(performance.now() - start);
    }
    console.log(`same job on the calling thread, median of 5: ${ms(median(inThread))}`);

    const transferred: number[] = [];
    for (let i = 0; i < 20; i++) {
      const result = freshResult(packed);
      start = performance.now();
      structuredClone(result, { transfer: transferablesOf(result) });
      transferred.push(performance.now() - start);
    }
    const objects = asObjects(packed);
    const cloned: number[] = [];
    for (let i = 0; i < 5; i++) {
      start = performance.now();
      structuredClone(objects);
      cloned.push(performance.now() - start);
    }
    console.log(
      `structured clone of the result (serialise + deserialise, on one thread): ` +
        `${ms(median(transferred))} with buffers transferred, ` +
        `${ms(median(cloned))} as ${COUNT} objects`,
    );
  } finally {
    pool.close();
  }

  for (const workers of [1, 2, 4]) {
    const pool: ParsePool = createParsePool({ workers, jobTimeoutMs: 60_000 });
    try {
      await Promise.all(Array.from({ length: workers }, () => pool.parse(job())));
      const lag = lagMonitor();
      const start = performance.now();
      await Promise.all(Array.from({ length: 20 }, () => pool.parse(job()).then(pagesOf)));
      const total = performance.now() - start;
      console.log(
        `20 sitemaps on ${workers} worker(s), warm: ${ms(total)}; ` +
          `calling-thread lag: ${lag.stop()}`,
      );
    } finally {
      pool.close();
    }
  }
}

if (import.meta.main) {
  await printFigures();
} else {
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 60_000 });
  const packed = pagesOf(await pool.parse(job()));
  const objects = asObjects(packed);
  // `deno bench` has no teardown hook; the workers would otherwise outlive it.
  globalThis.addEventListener("unload", () => pool.close());

  Deno.bench("worker round trip", { group, baseline: true }, async () => {
    pagesOf(await pool.parse(job()));
  });

  Deno.bench("same job on the calling thread", { group }, async () => {
    pagesOf(await runParseJob(job()));
  });

  Deno.bench("receive: buffers transferred", { group: "receive" }, (b) => {
    const result = freshResult(packed);
    b.start();
    structuredClone(result, { transfer: transferablesOf(result) });
    b.end();
  });

  Deno.bench(`receive: ${COUNT} objects cloned`, { group: "receive", baseline: true }, () => {
    structuredClone(objects);
  });
}
