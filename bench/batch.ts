/**
 * Many small sites: `batch` in one process, then the same list through N
 * queue workers and a local Redis. The sites (fixtures/sites.ts: ~3 sitemaps
 * each, a few of them without sitemaps or unreachable) are served by a
 * process of their own with a fixed latency per response, so the figures are
 * the crawler's alone. Peak RSS is each crawler process's maximum resident
 * set size as `/usr/bin/time` reports it.
 *
 * `deno run -A bench/batch.ts [--sites 1000] [--latency 20] [--fleet-workers 2] [--site-concurrency N] [--max-connections N] [--versus N/M]`
 *
 * Without `--site-concurrency` / `--max-connections` the crawlers run with
 * their defaults (`DEFAULTS.siteConcurrency` sites at once and
 * `DEFAULTS.siteMaxConnections` connections, as a user who passes no flag
 * gets them); with one, it is passed on to every crawler process.
 * `--versus N/M` first runs `batch` with `--site-concurrency N
 * --max-connections M` too, so two settings are compared in one run.
 * `--fleet-workers` is the number of queue worker processes (not parse
 * workers); 0 skips the fleet part.
 *
 * @module
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { numberFlag } from "./_flags.ts";
import { DEFAULTS } from "../src/options.ts";
import { startRedis } from "../tests/queue/_redis.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
const SITES = numberFlag("sites", 1000);
const LATENCY = numberFlag("latency", 20);
const FLEET_WORKERS = numberFlag("fleet-workers", 2);
if (process.argv.includes("--workers")) {
  throw new TypeError(
    "--workers is now --fleet-workers (queue worker processes, not parse workers)",
  );
}
/** `--versus N/M`: a second setting of siteConcurrency / maxConnections, run first. */
const VERSUS = versusFlag();
const SITE_CONCURRENCY = numberFlag("site-concurrency", NaN);
const MAX_CONNECTIONS = numberFlag("max-connections", NaN);

interface Measured {
  readonly seconds: number;
  /** User + system CPU seconds of the process. */
  readonly cpu: number;
  readonly peakMiB: number;
  readonly code: number;
  readonly stderr: string;
}

/** Runs `cli.ts args` under /usr/bin/time; wall time is measured here. */
function timed(args: string[]): { done: Promise<Measured> } {
  const started = performance.now();
  const child = new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "RSS_KB %M CPU %U %S",
      DENO,
      "run",
      "-A",
      "--no-check",
      join(ROOT, "cli.ts"),
      ...args,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const done = child.output().then(({ code, stderr }) => {
    const seconds = (performance.now() - started) / 1000;
    const text = new TextDecoder().decode(stderr);
    const m = /RSS_KB (\d+) CPU ([\d.]+) ([\d.]+)\n?/.exec(text);
    return {
      seconds,
      cpu: Number(m?.[2] ?? NaN) + Number(m?.[3] ?? NaN),
      peakMiB: Number(m?.[1] ?? NaN) / 1024,
      code,
      stderr: text.replace(/RSS_KB \d+ CPU [\d.]+ [\d.]+\n?/, ""),
    };
  });
  return { done };
}

function versusFlag(): readonly [number, number] | null {
  const args = process.argv.slice(2);
  const i = args.indexOf("--versus");
  if (i < 0) return null;
  const m = /^(\d+)\/(\d+)$/.exec(args[i + 1] ?? "");
  if (m === null) throw new TypeError(`--versus needs N/M, got ${args[i + 1]}`);
  return [Number(m[1]), Number(m[2])];
}

async function serveSites(list: string): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(DENO, {
    args: [
      "run",
      "-A",
      join(ROOT, "fixtures/sites.ts"),
      "--count",
      String(SITES),
      "--latency",
      String(LATENCY),
      "--list",
      list,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the site server ended before it was ready");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  child.stdout.cancel();
  return child;
}

const dir = mkdtempSync(join(tmpdir(), "batch-bench-"));
const list = join(dir, "sites.txt");
const server = await serveSites(list);
const crawl = [
  ...(Number.isNaN(SITE_CONCURRENCY) ? [] : ["--site-concurrency", String(SITE_CONCURRENCY)]),
  ...(Number.isNaN(MAX_CONNECTIONS) ? [] : ["--max-connections", String(MAX_CONNECTIONS)]),
];
/** A setting as the run uses it: the flag's value, or the default (`DEFAULTS`, src/options.ts). */
const setting = (value: number, fallback: number): string =>
  Number.isNaN(value) ? `${fallback} (default)` : String(value);
try {
  const load = Deno.loadavg()[0]!.toFixed(1);
  console.log(`load average ${load} on ${navigator.hardwareConcurrency} cores`);
  console.log(
    `${SITES} sites (robots.txt -> index -> 2 urlsets of 5 pages; 1 in 20 without sitemaps, ` +
      `1 in 20 unreachable), ${LATENCY} ms per response`,
  );
  if (VERSUS !== null) {
    const [sites, connections] = VERSUS;
    await runBatch(
      `siteConcurrency ${sites}, maxConnections ${connections}`,
      ["--site-concurrency", String(sites), "--max-connections", String(connections)],
      "versus",
    );
  }
  await runBatch(
    `siteConcurrency ${setting(SITE_CONCURRENCY, DEFAULTS.siteConcurrency)}, maxConnections ${
      setting(MAX_CONNECTIONS, DEFAULTS.siteMaxConnections)
    }`,
    crawl,
    "batch",
  );
  if (FLEET_WORKERS < 1) {
    console.log("fleet part skipped (--fleet-workers 0)");
  } else {
    await runFleet();
  }
} finally {
  server.kill("SIGTERM");
  await server.status;
  rmSync(dir, { recursive: true, force: true });
}

/** One `batch` process over the list, with `args`; prints its line. */
async function runBatch(label: string, args: readonly string[], name: string): Promise<void> {
  const out = join(dir, `${name}.ndjson`);
  const batch = await timed(["batch", list, "--out", out, ...args]).done;
  const lines = readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  const ok = lines.filter((l) => l.status === "ok").length;
  console.log(
    `batch, 1 process, ${label}: ${(SITES / batch.seconds).toFixed(1)} sites/s ` +
      `(${batch.seconds.toFixed(2)} s, ${lines.length} lines, ${ok} ok), ` +
      `peak RSS ${batch.peakMiB.toFixed(0)} MiB, CPU ${batch.cpu.toFixed(2)} s ` +
      `(${(SITES / batch.cpu).toFixed(0)} sites per CPU-second), exit ${batch.code}, load ${
        Deno.loadavg()[0]!.toFixed(1)
      }`,
  );
  if (batch.stderr.trim() !== "") console.log(batch.stderr.trim());
}

/** The same list through `--fleet-workers` queue worker processes and a local Redis. */
async function runFleet(): Promise<void> {
  const redis = await startRedis();
  try {
    const enqueue = await timed(["enqueue", "--redis", redis.url, list]).done;
    const outDir = join(dir, "fleet");
    const started = performance.now();
    const runs = Array.from(
      { length: FLEET_WORKERS },
      () => timed(["worker", "--redis", redis.url, "--out", outDir, "--drain", ...crawl]).done,
    );
    const workers = await Promise.all(runs);
    const seconds = (performance.now() - started) / 1000;
    const files = readdirSync(outDir).filter((f) => f.endsWith(".ndjson")).length;
    console.log(
      `${FLEET_WORKERS} workers + Redis:      ${(SITES / seconds).toFixed(1)} sites/s ` +
        `(${seconds.toFixed(2)} s from worker start, ${files} site files; enqueue ${
          enqueue.seconds.toFixed(2)
        } s), peak RSS per worker ${workers.map((w) => w.peakMiB.toFixed(0)).join(" / ")} MiB, ` +
        `CPU ${workers.map((w) => w.cpu.toFixed(2)).join(" + ")} s, exit ${
          workers.map((w) => w.code).join(" ")
        }`,
    );
    for (const w of workers) if (w.stderr.trim() !== "") console.log(w.stderr.trim());
  } finally {
    await redis.stop();
  }
}
