/**
 * Long-running fuzzing beyond CI, in one command:
 *
 *     deno run -A bench/fuzz_all.ts --seconds 600 [--seed 1] [--all]
 *
 * Its own fuzzer covers what the tokenizer and reader fuzzers do not: gzip.
 * Realistic sitemaps (the fixture files and generated urlsets and indexes) are
 * gzipped at every level and strategy, as one or two members, in one or two
 * layers, then damaged (truncated, bits flipped in header, body or trailer,
 * header flags set without their fields, the length field forged, garbage
 * appended), and fed to `decompressIfGzip` and the whole worker job
 * (`runParseJob`: decompress, decode, parse) with a bound drawn near the
 * document's size. Checked for every input:
 *
 * - nothing throws or rejects, and the output never exceeds the bound;
 * - intact gzip inflates to the exact original when it fits, and is refused
 *   as "expands past N bytes" when it is one byte too big;
 * - an intact gzip parses to the same result as the plain document;
 * - the stream fallback agrees with zlib on intact single-member gzip;
 * - no input takes more than 2 s of CPU (CPU, not wall time: this runs on
 *   shared machines, where a wall-clock limit flags other processes' load).
 *
 * With `--all` it then runs bench/fuzz_tokenizer.ts, bench/fuzz_parse.ts,
 * bench/fuzz_byte_readers.ts and bench/fuzz_url.ts (when present) for the same time each and prints
 * one summary.
 * Failing seeds are printed; replay one with `--seed N --seconds 0`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { constants, gzipSync } from "node:zlib";
import { decompressIfGzip, decompressIfGzipWithStreams } from "../src/decompress.ts";
import { runParseJob } from "../src/workers/_job.ts";
import { generateIndex, generateUrlset } from "../fixtures/generate.ts";
import { corpus as fixtureCorpus, rng as random } from "../tests/parse/_fuzz.ts";
import { numberFlag } from "./_flags.ts";

interface Doc {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The reader fuzzer's documents (every fixture file), plus bigger generated ones for gzip. */
function corpus(): Doc[] {
  const docs: Doc[] = fixtureCorpus();
  const encode = (s: string): Uint8Array => new TextEncoder().encode(s);
  docs.push({
    name: "generated urlset 2000",
    bytes: encode(generateUrlset(2_000, { lastmod: true, changefreq: true, priority: true })),
  });
  docs.push({ name: "generated urlset 20", bytes: encode(generateUrlset(20, { seed: 7 })) });
  docs.push({
    name: "generated index",
    bytes: encode(
      generateIndex(Array.from({ length: 50 }, (_, i) => `https://www.example.com/s${i}.xml`)),
    ),
  });
  docs.push({ name: "empty", bytes: new Uint8Array(0) });
  return docs;
}

const STRATEGIES = [
  constants.Z_DEFAULT_STRATEGY,
  constants.Z_FILTERED,
  constants.Z_HUFFMAN_ONLY,
  constants.Z_RLE,
  constants.Z_FIXED,
];

function gz(bytes: Uint8Array, next: () => number): Uint8Array {
  const out = gzipSync(bytes, {
    level: Math.floor(next() * 10),
    strategy: STRATEGIES[Math.floor(next() * STRATEGIES.length)]!,
  });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/**
 * A gzip of `plain` that must inflate back to it exactly: layers and members
 * vary. `largest` is the biggest inflated layer: with gzip in gzip the inner
 * gzip (at level 0, larger than the document) must fit the bound too.
 */
function intactGzip(
  plain: Uint8Array,
  next: () => number,
): { bytes: Uint8Array; how: string; largest: number } {
  const r = next();
  const size = plain.byteLength;
  if (r < 0.6) return { bytes: gz(plain, next), how: "gzip", largest: size };
  if (r < 0.8) {
    // Two members that together hold the document.
    const cut = Math.floor(next() * (size + 1));
    return {
      bytes: concat(gz(plain.subarray(0, cut), next), gz(plain.subarray(cut), next)),
      how: `two members cut at ${cut}`,
      largest: size,
    };
  }
  const inner = gz(plain, next);
  return {
    bytes: gz(inner, next),
    how: "gzip in gzip",
    largest: Math.max(size, inner.byteLength),
  };
}

/** Damages a gzip stream; the result may or may not still be valid gzip. */
function damage(bytes: Uint8Array, next: () => number): { bytes: Uint8Array; how: string } {
  const out = bytes.slice();
  const at = (n: number): number => Math.floor(next() * n);
  switch (at(8)) {
    case 0: {
      const cut = at(out.byteLength + 1);
      return { bytes: out.subarray(0, cut), how: `truncated at ${cut}` };
    }
    case 1: {
      const i = at(Math.min(10, out.byteLength));
      out[i] = out[i]! ^ (1 << at(8));
      return { bytes: out, how: `header bit flipped at ${i}` };
    }
    case 2: {
      const n = 1 + at(4);
      for (let k = 0; k < n; k++) {
        const i = at(out.byteLength);
        out[i] = out[i]! ^ (1 << at(8));
      }
      return { bytes: out, how: `${n} body bits flipped` };
    }
    case 3: {
      // FEXTRA, FNAME, FCOMMENT, FHCRC set without (or with garbage for) their fields.
      if (out.byteLength > 3) out[3] = at(32);
      return { bytes: out, how: `FLG = ${out[3]}` };
    }
    case 4: {
      if (out.byteLength >= 18) {
        const view = new DataView(out.buffer, out.byteOffset + out.byteLength - 4, 4);
        view.setUint32(0, Math.floor(next() * 0x1_0000_0000), true);
      }
      return { bytes: out, how: "ISIZE forged" };
    }
    case 5: {
      const junk = new Uint8Array(1 + at(64)).map(() => at(256));
      if (next() < 0.3) junk.set([0x1f, 0x8b].slice(0, junk.byteLength));
      return { bytes: concat(out, junk), how: `${junk.byteLength} bytes appended` };
    }
    case 6: {
      if (out.byteLength >= 8) {
        const view = new DataView(out.buffer, out.byteOffset + out.byteLength - 8, 4);
        view.setUint32(0, view.getUint32(0, true) ^ 1, true);
      }
      return { bytes: out, how: "CRC-32 off by one bit" };
    }
    default: {
      const from = at(out.byteLength);
      const len = at(Math.min(256, out.byteLength - from) + 1);
      const to = at(out.byteLength);
      return {
        bytes: concat(out.subarray(0, to), out.subarray(from, from + len)).slice(),
        how: `span ${from}+${len} copied to ${to}`,
      };
    }
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The parse result without what legitimately differs between runs. */
function comparable(result: unknown): string {
  return JSON.stringify(result, (_key, value) => {
    if (value instanceof Uint8Array || value instanceof Uint32Array) return Array.from(value);
    if (value instanceof Float64Array) return Array.from(value, (v) => Number.isNaN(v) ? "NaN" : v);
    return value;
  });
}

const SLOW_MS = 2_000;
const URL_OF = "https://www.example.com/sitemap.xml";

/** One seed; returns the problems found (empty when all invariants held). */
async function trySeed(seed: number, docs: readonly Doc[]): Promise<string[]> {
  const next = random(seed);
  const doc = docs[Math.floor(next() * docs.length)]!;
  const problems: string[] = [];
  const intact = intactGzip(doc.bytes, next);
  const damaged = next() < 0.7;
  const input = damaged ? damage(intact.bytes, next) : { bytes: intact.bytes, how: "intact" };
  const size = doc.bytes.byteLength;
  // A bound near the document's size finds off-by-ones; a random one finds the rest.
  const r = next();
  const bound = r < 0.3 ? size : r < 0.5 ? Math.max(0, size - 1) : Math.floor(next() * size * 2);
  const label = `${doc.name}, ${intact.how}, ${input.how}, bound ${bound}`;

  const cpuStart = process.cpuUsage();
  let inflated;
  try {
    inflated = await decompressIfGzip(input.bytes.slice(), bound);
  } catch (error) {
    return [`${label}: decompressIfGzip threw ${String(error)}`];
  }
  // Bytes that are not gzip come back untouched, whatever their size: runParseJob checks those.
  if (inflated.ok && inflated.gzipped && inflated.bytes.byteLength > bound) {
    problems.push(`${label}: ${inflated.bytes.byteLength} bytes out, bound ${bound}`);
  }
  const fits = intact.largest <= bound;
  if (!damaged) {
    if (fits) {
      if (!inflated.ok || !equalBytes(inflated.bytes, doc.bytes) || inflated.warning) {
        problems.push(`${label}: intact gzip did not round-trip: ${JSON.stringify(inflated)}`);
      }
    } else if (inflated.ok || inflated.reason !== `Sitemap expands past ${bound} bytes`) {
      problems.push(
        `${label}: intact gzip over the bound not refused: ${
          inflated.ok ? `${inflated.bytes.byteLength} bytes` : inflated.reason
        }`,
      );
    }
    if (intact.how === "gzip" && fits && size > 0) {
      const streamed = await decompressIfGzipWithStreams(input.bytes.slice(), bound);
      if (!streamed.ok || !equalBytes(streamed.bytes, doc.bytes)) {
        problems.push(`${label}: the stream fallback disagrees with zlib`);
      }
    }
  }

  const job = { url: URL_OF, since: NaN, robots: doc.name === "robots.txt", contentType: null };
  let outcome;
  try {
    outcome = await runParseJob({ ...job, bytes: input.bytes.slice(), maxSitemapBytes: bound });
  } catch (error) {
    return [...problems, `${label}: runParseJob rejected: ${String(error)}`];
  }
  const kind = outcome.result.kind;
  if (kind !== "pages" && kind !== "index" && kind !== "invalid") {
    problems.push(`${label}: unknown result kind ${kind}`);
  }
  if (
    outcome.result.kind === "invalid" &&
    /^(Parser failed|Unable to parse sitemap)/.test(outcome.result.reason)
  ) {
    problems.push(`${label}: the job's safety net caught a throw: ${outcome.result.reason}`);
  }
  if (!damaged && fits) {
    const plain = await runParseJob({ ...job, bytes: doc.bytes.slice(), maxSitemapBytes: bound });
    if (comparable(plain.result) !== comparable(outcome.result)) {
      problems.push(`${label}: gzipped and plain parse differently`);
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  const ms = (cpu.user + cpu.system) / 1000;
  if (ms > SLOW_MS) problems.push(`${label}: took ${Math.round(ms)} ms of CPU`);
  return problems;
}

async function fuzzGzip(
  seconds: number,
  firstSeed: number,
): Promise<{ inputs: number; failed: number }> {
  const docs = corpus();
  const deadline = performance.now() + seconds * 1000;
  let inputs = 0;
  let failed = 0;
  let lastReport = performance.now();
  for (let seed = firstSeed; inputs === 0 || performance.now() < deadline; seed++) {
    const problems = await trySeed(seed, docs);
    inputs++;
    if (problems.length > 0) {
      failed++;
      for (const p of problems) console.log(`FAIL seed ${seed}: ${p.slice(0, 2000)}`);
    }
    if (performance.now() - lastReport > 30_000) {
      lastReport = performance.now();
      console.log(`gzip: ${inputs} inputs, ${failed} failed (seeds ${firstSeed}..${seed})`);
    }
  }
  return { inputs, failed };
}

/** Runs another fuzzer script for `seconds`; returns its last summary line. */
function runScript(script: string, seconds: number, seed: number): string {
  const path = fileURLToPath(new URL(script, import.meta.url));
  if (!existsSync(path)) return `${script}: not present`;
  const run = spawnSync(
    process.execPath,
    ["run", "-A", path, "--seconds", String(seconds), "--seed", String(seed)],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const lines = `${run.stdout}`.trim().split("\n");
  const fails = lines.filter((l) => l.startsWith("FAIL"));
  for (const f of fails) console.log(`${script}: ${f.slice(0, 500)}`);
  return `${script}: ${lines.at(-1) ?? ""} (exit ${run.status})`;
}

const seconds = numberFlag("seconds", 60);
const seed = numberFlag("seed", Date.now() % 1_000_000_000);
const started = performance.now();
console.log(`fuzzing gzip + parse for ${seconds} s from seed ${seed}`);
const gzip = await fuzzGzip(seconds, seed);
const summary = [
  `bench/fuzz_all.ts (gzip + parse): ${gzip.inputs} inputs tried, ${gzip.failed} failed, seeds ${seed}..${
    seed + gzip.inputs - 1
  }`,
];
if (process.argv.includes("--all")) {
  summary.push(runScript("./fuzz_tokenizer.ts", seconds, seed));
  summary.push(runScript("./fuzz_parse.ts", seconds, seed));
  summary.push(runScript("./fuzz_byte_readers.ts", seconds, seed));
  summary.push(runScript("./fuzz_url.ts", seconds, seed));
}
console.log(summary.join("\n"));
console.log(`total ${((performance.now() - started) / 60_000).toFixed(1)} minutes`);
if (gzip.failed > 0) process.exitCode = 1;
