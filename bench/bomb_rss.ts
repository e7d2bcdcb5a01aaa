/**
 * Time and peak-RSS cost of rejecting a gzip bomb, each case in a fresh
 * process so earlier allocations cannot hide the peak.
 *
 *     deno run -A bench/bomb_rss.ts            # all cases, 5 child processes each
 *     bun bench/bomb_rss.ts --runs 9
 *     deno run -A bench/bomb_rss.ts zlib xml   # one case, in this process (JSON)
 *
 * Peak RSS is Linux's VmHWM, reset through /proc/self/clear_refs after the
 * bomb is built, so the figure is the decompression's alone: the high-water
 * mark minus the RSS just before. Target (docs/design.md#performance-targets):
 * 194 KB -> 200 MB bomb rejected in <= 0.1 s with peak RSS + <= 60 MiB.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { constants, gzipSync } from "node:zlib";
import { decompressIfGzip, decompressIfGzipWithStreams } from "../src/decompress.ts";
import { gzipBomb, gzipUrlset } from "../fixtures/bombs.ts";

const MiB = 1024 * 1024;
const EXPANDED = 200 * MiB;
const MAX_BYTES = 50 * MiB;
const ENGINES = ["zlib", "streams"] as const;
const INPUTS: Readonly<Record<string, () => Uint8Array>> = {
  zeros: () => gzipBomb(EXPANDED),
  xml: () => gzipBomb(EXPANDED, { content: "xml" }),
  // Its trailer claims 8 MiB, the most src/decompress.ts will size an output chunk by.
  forged: () => gzipBomb(EXPANDED, { claimedBytes: 8 * MiB - 1 }),
  // Not a bomb: a genuine 42 MB urlset, accepted, for the cost of a big legitimate file.
  urlset: () => gzipUrlset(400_000).gzip,
  // Not bombs either: literal-heavy data (a decoder's slowest kind) whose trailer
  // claims 4 GiB, 1.8 MB (counted first, then inflated) and 2.6 MB of gzip (past
  // the count's input cap in src/decompress.ts: inflated at once).
  "lit-s": () => forgedLiterals(11 << 20),
  "lit-l": () => forgedLiterals(16 << 20),
};

/** Skewed bytes gzipped as literals only, the trailer's length forged to 4 GiB - 1. */
function forgedLiterals(bytes: number): Uint8Array {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const data = new Uint8Array(bytes).map(() => random() < 0.9 ? 65 : 66 + Math.floor(random() * 4));
  const gzipped = new Uint8Array(gzipSync(data, { strategy: constants.Z_HUFFMAN_ONLY }));
  new DataView(gzipped.buffer).setUint32(gzipped.length - 4, 0xffffffff, true);
  return gzipped;
}
const isDeno = "Deno" in globalThis;
const runtime = isDeno
  ? `Deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}`
  : `Bun ${process.versions.bun}`;

function statusMiB(field: "VmRSS" | "VmHWM"): number {
  const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`${field}:\\s+(\\d+)`));
  if (match?.[1] === undefined) throw new Error(`No ${field} in /proc/self/status`);
  return Number(match[1]) / 1024;
}

interface Sample {
  readonly ms: number;
  /** User + system CPU time of the call: less sensitive than wall time to other load. */
  readonly cpuMs: number;
  readonly peakMiB: number;
  readonly bombBytes: number;
  readonly outcome: string;
}

async function measure(engine: string, input: string): Promise<Sample> {
  const make = INPUTS[input];
  if (make === undefined) throw new Error(`Unknown input ${input}`);
  const bomb = make();
  const inflate = engine === "streams" ? decompressIfGzipWithStreams : decompressIfGzip;
  // Loads node:zlib outside the measured span: a one-off cost of the first call.
  await inflate(bomb.subarray(0, 0), MAX_BYTES);
  const before = statusMiB("VmRSS");
  writeFileSync("/proc/self/clear_refs", "5");
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const result = await inflate(bomb, MAX_BYTES);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const peakMiB = statusMiB("VmHWM") - before;
  const outcome = result.ok ? `ACCEPTED ${result.bytes.byteLength} bytes` : result.reason;
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakMiB,
    bombBytes: bomb.byteLength,
    outcome,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

// Deno fills process.argv like Node and Bun: runtime, script, then the arguments.
const [engine, input] = process.argv.slice(2);

if (engine !== undefined && engine !== "--runs") {
  console.log(JSON.stringify(await measure(engine, input ?? "zeros")));
} else {
  // Other processes share this 2-core machine: the median of fresh runs, and the best.
  const runs = engine === "--runs" ? Number(input) : 5;
  const script = fileURLToPath(import.meta.url);
  console.log(
    `${runtime}: gzip bomb -> ${EXPANDED / MiB} MiB, bound ${MAX_BYTES / MiB} MiB, ` +
      `${runs} fresh processes per row (wall median / min, cpu median, peak RSS median / min)`,
  );
  for (const e of ENGINES) {
    for (const c of Object.keys(INPUTS)) {
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        const args = isDeno ? ["run", "-A", script, e, c] : [script, e, c];
        const child = spawnSync(process.execPath, args, { encoding: "utf8" });
        if (child.status !== 0) {
          process.exitCode = 1;
          console.error(child.stderr);
          break;
        }
        samples.push(JSON.parse(child.stdout) as Sample);
      }
      const first = samples[0];
      if (first === undefined) continue;
      const ms = samples.map((s) => s.ms);
      const cpuMs = samples.map((s) => s.cpuMs);
      const peak = samples.map((s) => s.peakMiB);
      console.log(
        [
          e.padEnd(8),
          c.padEnd(6),
          `${(first.bombBytes / 1000).toFixed(0)} KB`.padStart(7),
          `${median(ms).toFixed(1)} / ${Math.min(...ms).toFixed(1)} ms`.padStart(18),
          `cpu ${median(cpuMs).toFixed(1)} ms`.padStart(13),
          `peak RSS +${median(peak).toFixed(1)} / ${Math.min(...peak).toFixed(1)} MiB`.padStart(
            28,
          ),
          ` ${first.outcome}`,
        ].join(" "),
      );
    }
  }
}
