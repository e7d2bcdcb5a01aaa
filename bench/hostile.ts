/**
 * The hostile-server table: every case of fixtures/hostile.ts run by
 * `sitemapTreeForHomepage()` in a fresh child process, with its outcome, wall
 * time, the hostile sitemap's own time, CPU time, and RSS (baseline, peak,
 * growth), checked against the targets.
 *
 *     deno run -A bench/hostile.ts                 # every case; writes bench/HOSTILE.md
 *     deno run -A bench/hostile.ts gzip-bomb hang  # some cases; prints only
 *     deno run -A bench/hostile.ts --bun           # children on Bun (the server stays here)
 *     deno run -A bench/hostile.ts index-20000 --set workers=0 --set maxSitemaps=3000
 *
 * This process serves the hostile site (so the server's memory never counts
 * against the crawler) and spawns `bench/_hostile_case.ts` per case. Options
 * are the library's defaults (50 MiB caps, 30 s timeout, 2 retries, 2 parse
 * workers here, from a pool started before the baseline) except
 * `timeoutMs: 5000` for the two cases that only end by timing out. Targets: the call ends within its time limit + 1 s; peak RSS at
 * most 60 MiB above the baseline unless the limit itself allows more (a
 * document the caps accept must be held); the gzip bomb refused in 0.1 s; and
 * the child process exits on its own once the call returns.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { HOSTILE_CASES, type HostileCase, serveHostile } from "../fixtures/hostile.ts";
import type { CaseConfig, CaseResult } from "./_hostile_case.ts";

const MiB = 1024 * 1024;
const CHILD = fileURLToPath(new URL("./_hostile_case.ts", import.meta.url));
const REPORT = fileURLToPath(new URL("./HOSTILE.md", import.meta.url));
const BUN = fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url));

/** The library's defaults, written out so the table can print them. */
const DEFAULTS = {
  timeoutMs: 30_000,
  maxSitemapBytes: 50 * MiB,
  maxDownloadBytes: 50 * MiB,
  maxDepth: 11,
  maxSitemaps: 10_000,
  retries: 2,
} as const;

/** Where a default would only make the table wait: the cases that end by timing out. */
const OVERRIDES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  "trickle-1bps": { timeoutMs: 5_000 },
  "hang": { timeoutMs: 5_000 },
};

/**
 * Extra rows: the bombs again with workers started by the call itself
 * (`pool 0`: their start-up is then part of the call's time and RSS) and
 * with `workers: 0`, parsing on the calling thread, which separates the
 * decompressor's own cost from the workers'.
 */
const VARIANTS: readonly { readonly name: string; readonly options: Record<string, number> }[] = [
  { name: "gzip-bomb", options: { pool: 0 } },
  { name: "gzip-bomb", options: { workers: 0 } },
  { name: "gzip-in-gzip", options: { pool: 0 } },
  { name: "gzip-in-gzip", options: { workers: 0 } },
];

/**
 * Cases whose accepted document must be held in memory, so their growth may
 * pass 60 MiB: the body (up to maxDownloadBytes), and what the parser keeps of it.
 */
const MEMORY_EXCEPTIONS: Readonly<Record<string, string>> = {
  "urlset-1m":
    "accepted: the 49 MB body (within maxSitemapBytes), then 1,000,000 packed pages (URL bytes + per-page arrays)",
  "text-line-50mb":
    "accepted: the 50 MB body (within maxDownloadBytes) is held and decoded, the long line dropped; the fetch stream's 64 KiB chunks are garbage V8 frees lazily (read with a BYOB reader into the one exact buffer, the same download measured +52 MiB instead of +80-87 MiB)",
  "robots-100mb": "refused at maxDownloadBytes: the download buffer reaches 50 MiB before the cut",
  "index-20000":
    "10,000 one-URL sitemaps fetched, parsed and kept: ~35 KiB of peak RSS each, though a node's own data is 5 tiny typed arrays (~4 KiB in V8); the rest is per-document allocation churn; bounded by maxSitemaps, not by a byte cap",
};

const BOMB_TARGET_MS = 100;
const MEMORY_TARGET_MIB = 60;
const EXIT_GRACE_MS = 5_000;

interface Row {
  readonly spec: HostileCase;
  /** The case name, with the variant's options when it is one. */
  readonly label: string;
  readonly limit: string;
  readonly timeLimitMs: number | null;
  readonly result: CaseResult | null;
  readonly error: string | null;
  /** Milliseconds from the result line to the child's exit. */
  readonly exitMs: number | null;
}

function optionsFor(name: string, variant: Record<string, number>): Record<string, number> {
  const options: Record<string, number> = { ...DEFAULTS, ...OVERRIDES[name], ...variant };
  // Parse workers come from a SitemapParserPool started before the baseline
  // (pool 1), as a program starts them once at start-up; `pool 0` rows start
  // them inside the call, `workers 0` rows parse on the calling thread.
  if (options.pool === undefined) options.pool = options.workers === 0 ? 0 : 1;
  return options;
}

function mib(bytes: number): string {
  return `${bytes / MiB} MiB`;
}

function limitText(spec: HostileCase, options: Record<string, number>): string {
  const value = options[spec.limit];
  if (value === undefined) return spec.limit;
  return spec.limit.endsWith("Bytes") ? `${spec.limit} ${mib(value)}` : `${spec.limit} ${value}`;
}

/** Runs one child; resolves with its result line and how long it took to exit afterwards. */
function runChild(
  argv: readonly string[],
  killAfterMs: number,
): Promise<{ line: string | null; exitMs: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let line: string | null = null;
    let printedAt = 0;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const killTimer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.stdout.on("data", (data: Uint8Array) => {
      stdout += new TextDecoder().decode(data);
      const end = stdout.indexOf("\n");
      if (line === null && end >= 0) {
        line = stdout.slice(0, end);
        printedAt = performance.now();
        graceTimer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
      }
    });
    child.stderr.on("data", (data: Uint8Array) => stderr += new TextDecoder().decode(data));
    child.on("exit", () => {
      clearTimeout(killTimer);
      clearTimeout(graceTimer);
      resolve({ line, exitMs: line === null ? null : performance.now() - printedAt, stderr });
    });
  });
}

async function measure(
  spec: HostileCase,
  variant: Record<string, number>,
  bun: boolean,
): Promise<Row> {
  const options = optionsFor(spec.name, variant);
  const label = [spec.name, ...Object.entries(variant).map(([k, v]) => `${k} ${v}`)].join(", ");
  const limit = limitText(spec, options);
  const timeLimitMs = spec.name === "index-20000" ? null : options.timeoutMs!;
  const server = spec.served === "site" ? await serveHostile([spec.name]) : null;
  try {
    const config: CaseConfig = {
      name: spec.name,
      origin: server?.origin ?? "",
      liarOrigin: server?.liarOrigin ?? "",
      options,
    };
    const argv = bun
      ? [BUN, CHILD, JSON.stringify(config)]
      : [process.execPath, "run", "-A", "--v8-flags=--expose-gc", CHILD, JSON.stringify(config)];
    const { line, exitMs, stderr } = await runChild(argv, (timeLimitMs ?? 600_000) + 60_000);
    if (line === null) {
      return {
        spec,
        label,
        limit,
        timeLimitMs,
        result: null,
        error: `no result: ${stderr.trim().split("\n").slice(-3).join(" / ")}`,
        exitMs,
      };
    }
    const result = JSON.parse(line) as CaseResult;
    return { spec, label, limit, timeLimitMs, result, error: null, exitMs };
  } finally {
    await server?.close();
  }
}

function verdict(row: Row): string {
  const r = row.result;
  if (r === null) return "FAIL: " + row.error;
  const misses: string[] = [];
  if (r.goodPages !== 3) misses.push(`good pages ${r.goodPages}/3`);
  if (row.timeLimitMs !== null && r.callMs > row.timeLimitMs + 1_000) misses.push("time");
  const growth = r.peakMiB - r.baselineMiB;
  if (growth > MEMORY_TARGET_MIB && MEMORY_EXCEPTIONS[row.spec.name] === undefined) {
    misses.push("memory");
  }
  if (row.spec.name === "gzip-bomb" && r.caseMs > BOMB_TARGET_MS) misses.push("bomb > 0.1 s");
  if (row.spec.name === "gzip-in-gzip" && r.caseMs > BOMB_TARGET_MS) misses.push("bomb > 0.1 s");
  if (row.exitMs === null || row.exitMs > EXIT_GRACE_MS - 100) misses.push("process lingered");
  if (misses.length > 0) return "MISS: " + misses.join(", ");
  return growth > MEMORY_TARGET_MIB ? "ok (memory: see note)" : "ok";
}

function seconds(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function table(rows: readonly Row[]): string {
  const head = [
    "case",
    "limit (value used)",
    "outcome",
    "good",
    "call",
    "hostile sitemap",
    "of which parse",
    "CPU",
    "baseline RSS",
    "peak RSS",
    "growth",
    "exit",
    "target",
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const row of rows) {
    const r = row.result;
    const cells = r === null
      ? [row.label, row.limit, row.error ?? "", "", "", "", "", "", "", "", "", "", verdict(row)]
      : [
        row.label,
        row.limit,
        r.outcome.replaceAll("|", "\\|"),
        `${r.goodPages}/3`,
        seconds(r.callMs),
        seconds(r.caseMs),
        r.parseMs === null ? "–" : seconds(r.parseMs),
        seconds(r.cpuMs),
        `${r.baselineMiB.toFixed(0)} MiB`,
        `${r.peakMiB.toFixed(0)} MiB`,
        `+${(r.peakMiB - r.baselineMiB).toFixed(0)} MiB`,
        row.exitMs === null ? "killed" : seconds(row.exitMs),
        verdict(row),
      ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

function runtimeName(bun: boolean): string {
  if (bun) return "Bun (children), Deno (server)";
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  return deno ? `Deno ${deno.version.deno}` : `Bun ${process.versions.bun}`;
}

const args = process.argv.slice(2);
const bun = args.includes("--bun");
/** `--set name=value` pairs: options for every chosen case (printed only, never written). */
const sets: Record<string, number> = {};
const names: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === "--set") {
    const [key, value] = (args[++i] ?? "").split("=");
    if (!key || !Number.isFinite(Number(value))) throw new TypeError(`--set needs name=number`);
    sets[key] = Number(value);
  } else if (!arg.startsWith("--")) {
    names.push(arg);
  }
}
const chosen = names.length === 0
  ? HOSTILE_CASES
  : names.map((n) =>
    HOSTILE_CASES.find((c) => c.name === n) ?? (() => {
      throw new RangeError(`No hostile case named ${n}`);
    })()
  );

const load = loadavg().map((l) => l.toFixed(1)).join(", ");
const started = new Date().toISOString().slice(0, 16).replace("T", " ");
const runs = Object.keys(sets).length > 0
  ? chosen.map((spec) => ({ spec, variant: sets }))
  : chosen.flatMap((spec) => [
    { spec, variant: {} },
    ...VARIANTS.filter((v) => v.name === spec.name).map((v) => ({ spec, variant: v.options })),
  ]);
const rows: Row[] = [];
for (const { spec, variant } of runs) {
  const row = await measure(spec, variant, bun);
  rows.push(row);
  const r = row.result;
  console.error(
    `${row.label}: ${
      r === null
        ? row.error
        : `${seconds(r.callMs)}, +${(r.peakMiB - r.baselineMiB).toFixed(0)} MiB, ${verdict(row)}`
    }`,
  );
}

const notes = [
  `Run ${started} UTC, ${runtimeName(bun)}, ${cpus().length} cores, load average at start ${load}` +
  " (a shared machine: times are wall-clock under that load; CPU is user + system of the child).",
  "Options: the library defaults (" +
  Object.entries(DEFAULTS).map(([k, v]) => `${k} ${k.endsWith("Bytes") ? mib(v) : v}`).join(", ") +
  ", 2 parse workers, known paths probed) except timeoutMs 5000 for trickle-1bps and hang. " +
  "The workers are a `SitemapParserPool` started before the baseline and passed as `pool`, as a " +
  "program starts them once at start-up, unless the row says `pool 0` (the call starts its own) " +
  "or `workers 0` (parsing on the calling thread).",
  "*call*: the whole `sitemapTreeForHomepage()`; *hostile sitemap*: the hostile sitemap's own time " +
  "from its onProgress event (queueing, fetch, worker start-up and parse); *of which parse*: from its " +
  "body's arrival to its node (decompression and parsing, a worker's start-up included); *exit*: how long the child " +
  "took to end on its own after the call returned (nothing left running).",
  "*baseline*: RSS after a warm-up crawl of the good sitemap and a GC; *peak*: VmHWM, reset through " +
  "/proc/self/clear_refs just before the call; *growth*: peak - baseline.",
  `Targets: call <= time limit + 1 s; growth <= ${MEMORY_TARGET_MIB} MiB; gzip bomb refused in ` +
  `<= ${BOMB_TARGET_MS} ms; every good page kept. Memory exceptions (the limit allows more):`,
  ...Object.entries(MEMORY_EXCEPTIONS).map(([name, why]) => `  - ${name}: ${why}.`),
  "The bombs with `pool 0`: the hostile sitemap is the first job of a worker that the call starts, " +
  "so its time and growth include that worker's start-up (an isolate, its modules, node:zlib; " +
  "~25-35 ms of the calling thread each in Deno) besides the decompression; the `workers 0` rows " +
  "show the decompressor alone, and bench/bomb_rss.ts measures it outside a crawl.",
];
const what = chosen.map((c) => `| ${c.name} | ${c.what.replaceAll("|", "\\|")} |`);
const report = [
  "# Hostile servers: measured",
  "",
  "Generated by `deno run -A bench/hostile.ts`; each case runs in its own child process.",
  "",
  table(rows),
  "",
  ...notes.map((n) => n.startsWith("  -") ? n : `- ${n}`),
  "",
  "| case | what the server does |",
  "|---|---|",
  ...what,
  "",
].join("\n");
console.log(report);
if (names.length === 0 && Object.keys(sets).length === 0 && !bun) writeFileSync(REPORT, report);
