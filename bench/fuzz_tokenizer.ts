/**
 * Long-running fuzzer for the tokenizer, not part of CI:
 *
 *     deno run -A bench/fuzz_tokenizer.ts --seconds 600 [--seed 1000000]
 *
 * Each seed generates a document; odd seeds break it at the byte level and
 * check that tokenizing never throws, does not depend on chunking, and that
 * every cut gives a prefix of the uncut events; even seeds apply
 * meaning-preserving mutations and compare with saxes. Prints how many inputs
 * were tried and every failing seed (replay one with `--seed N --seconds 0`).
 *
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import {
  generateDocument,
  mutateBytes,
  mutateWellFormed,
  randomChunks,
  serializeDocument,
} from "../tests/parse/_xml_gen.ts";
import { checkBrokenInput, ours, saxes } from "../tests/parse/tokenizer_differential_test.ts";

function argument(name: string, fallback: number): number {
  const at = Deno.args.indexOf(name);
  return at === -1 ? fallback : Number(Deno.args[at + 1]);
}

/** Runs one seed; returns why it failed, or null. */
function trySeed(seed: number): string | null {
  const doc = generateDocument(seed);
  if (seed % 2 === 1) {
    return checkBrokenInput(mutateBytes(serializeDocument(doc), seed), seed);
  }
  const text = serializeDocument(mutateWellFormed(doc, seed));
  try {
    deepStrictEqual(ours(randomChunks(text, seed)), { events: saxes(text), error: null });
  } catch (error) {
    return String(error).slice(0, 2000);
  }
  return null;
}

const seconds = argument("--seconds", 60);
const firstSeed = argument("--seed", 1_000_000);
const deadline = performance.now() + seconds * 1000;
let tried = 0;
let failed = 0;
let lastReport = performance.now();
for (let seed = firstSeed; tried === 0 || performance.now() < deadline; seed++) {
  let failure: string | null;
  try {
    failure = trySeed(seed);
  } catch (error) {
    // A throw from the tokenizer is exactly what this hunts for: report it with its seed.
    failure = `threw: ${error instanceof Error ? error.stack : String(error)}`;
  }
  tried++;
  if (failure !== null) {
    failed++;
    console.log(`FAIL seed ${seed}: ${failure}`);
  }
  if (performance.now() - lastReport > 10_000) {
    lastReport = performance.now();
    console.log(`${tried} inputs tried, ${failed} failed (seeds ${firstSeed}..${seed})`);
  }
}
console.log(
  `${tried} inputs tried, ${failed} failed (seeds ${firstSeed}..${firstSeed + tried - 1})`,
);
if (failed > 0) Deno.exitCode = 1;
