/**
 * Run by the pool's tests (`deno run -A _cancel_script.ts`, or its Node
 * bundle): gives one real worker ~16 MB documents, gives up on each (abort,
 * timeout, close) soon after it starts, and prints JSON saying where each
 * worker stopped and whether the pool still parses afterwards. The process
 * must then exit by itself.
 *
 * @module
 */
import { gzipSync } from "node:zlib";
import { createParsePool, type ParseJob, type StoppedJob } from "../../src/workers/_parse_pool.ts";

const URLS = 200_000;

/** A urlset of `urls` plain entries (the byte-level reader), or Latin-1 declared (the tokenizer). */
function document(latin1: boolean, urls = URLS): Uint8Array {
  const head = latin1
    ? '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    : '<?xml version="1.0" encoding="UTF-8"?>\n';
  const entries: string[] = [];
  for (let i = 0; i < urls; i++) {
    entries.push(
      `<url><loc>https://www.example.com/p/${i}</loc><lastmod>2024-01-01</lastmod></url>`,
    );
  }
  return new TextEncoder().encode(
    `${head}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      entries.join("\n")
    }\n</urlset>\n`,
  );
}

function job(url: string, bytes: Uint8Array): ParseJob {
  return { bytes, url, since: NaN, robots: false, contentType: null, maxSitemapBytes: 50 << 20 };
}

const stopped: StoppedJob[] = [];
// Twice the tokenizer's document: the byte-level reader is several times faster, and the
// abort's 20 ms timer may fire late on a loaded machine.
const fast = document(false, 2 * URLS);
const general = document(true);
// Long enough (~0.4 s on the tokenizer here) that a 60 ms timeout falls well inside it.
const slow = document(true, 2 * URLS);
const slowBytes = slow.byteLength;
const small = new TextEncoder().encode("https://www.example.com/a\nhttps://www.example.com/b\n");

/** A pool of one worker, started and warmed up (a job's timer then starts when it is sent). */
async function startedPool(jobTimeoutMs = 30_000) {
  const pool = createParsePool({
    workers: 1,
    jobTimeoutMs,
    onStopped: (report) => stopped.push(report),
    // Every stop reported even on a loaded machine: not replaced after 1 s.
    stopGraceMs: 20_000,
  });
  pool.warm();
  await pool.ready();
  return pool;
}

function kindOf(outcome: { result: { kind: string; reason?: string } }): string {
  return outcome.result.kind === "invalid"
    ? `invalid: ${outcome.result.reason}`
    : outcome.result.kind;
}

/** Waits until the pool reports a stop (or 20 s). */
async function nextStop(count: number): Promise<void> {
  for (let waited = 0; stopped.length < count && waited < 20_000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const results: Record<string, unknown> = {};

// Abort, on each reader and on a gzipped body; the same worker parses on.
{
  const pool = await startedPool();
  const aborted: string[] = [];
  const cases: [string, Uint8Array][] = [
    ["https://www.example.com/fast.xml", fast.slice()],
    ["https://www.example.com/general.xml", general.slice()],
    ["https://www.example.com/gzipped.xml.gz", new Uint8Array(gzipSync(fast, { level: 1 }))],
  ];
  for (const [url, bytes] of cases) {
    const controller = new AbortController();
    const pending = pool.parse(job(url, bytes), controller.signal);
    // Long enough for the worker to be inside the job, far from its end.
    setTimeout(() => controller.abort(), 20);
    aborted.push(kindOf(await pending));
    await nextStop(stopped.length + 1);
  }
  const after = await pool.parse(job("https://www.example.com/after.txt", small.slice()));
  results.abort = { outcomes: aborted, after: kindOf(after), size: pool.size };
  pool.close();
}

// A job's timeout: the same flag, then the worker takes the next job.
{
  const pool = await startedPool(60);
  const timedOut = await pool.parse(job("https://www.example.com/slow.xml", slow));
  await nextStop(4);
  // The small job shares the 60 ms budget; a loaded machine (Node's collector after
  // the 33 MB document) can spend that before it starts, so it gets three tries.
  let after = await pool.parse(job("https://www.example.com/after.txt", small.slice()));
  for (let tries = 1; tries < 3 && kindOf(after) === kindOf(timedOut); tries++) {
    after = await pool.parse(job("https://www.example.com/after.txt", small.slice()));
  }
  results.timeout = { outcome: kindOf(timedOut), after: kindOf(after) };
  pool.close();
}

// Closing the pool under a running job stops the worker's parse as well.
{
  const pool = await startedPool();
  const running = pool.parse(job("https://www.example.com/closed.xml", general.slice()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  pool.close();
  results.close = kindOf(await running);
}

results.stopped = stopped.map(({ url, at, total }) => ({
  url,
  stoppedEarly: at !== null && at < total,
  total,
}));
results.totals = { fast: fast.byteLength, general: general.byteLength, slow: slowBytes };
console.log(JSON.stringify(results));
