/**
 * Long-running fuzzing of parseSitemap, not run in CI:
 *
 *   deno run -A bench/fuzz_parse.ts --seconds 600 [--seed 1]
 *
 * Prints the inputs tried and every failing seed (with the mutation that
 * failed), and exits with status 1 when any failed. Re-run one seed with
 * `--seed N --rounds 1`.
 *
 * @module
 */
import { fuzz } from "../tests/parse/_fuzz.ts";
import { numberFlag } from "./_flags.ts";

const seconds = numberFlag("seconds", 60);
const firstSeed = numberFlag("seed", Date.now() % 1_000_000_000);
const maxRounds = numberFlag("rounds", Number.MAX_SAFE_INTEGER);
const deadline = performance.now() + seconds * 1000;

let inputs = 0;
let failures = 0;
let seed = firstSeed;
const batch = 500;
console.log(`fuzzing parseSitemap for ${seconds} s from seed ${firstSeed}`);
while (performance.now() < deadline && seed - firstSeed < maxRounds) {
  const rounds = Math.min(batch, maxRounds - (seed - firstSeed));
  const report = fuzz(seed, rounds, () => performance.now() < deadline);
  inputs += report.inputs;
  for (const f of report.failures) {
    failures++;
    console.log(`FAIL seed ${f.seed} (${f.doc}): ${f.how}: ${f.problem}`);
  }
  seed += rounds;
}
console.log(`${inputs} inputs tried, seeds ${firstSeed}..${seed - 1}, ${failures} failures`);
if (failures > 0) Deno.exit(1);
