/**
 * Long-running differential fuzzing of the byte-level urlset reader, not run
 * in CI (the suite runs the same comparison on a few thousand inputs):
 *
 *   deno run -A bench/fuzz_byte_readers.ts --seconds 600 [--seed 1]
 *
 * Each input is a random plain urlset built from edge values (entities, CRs,
 * non-ASCII, relative and odd URLs, every date and priority form), or such a
 * document or a fixture file with random byte mutations; it is read by the
 * general path, by `parseSitemap()` and by the byte-level reader alone, which
 * must agree wherever the last one answers. Prints the inputs tried, how many
 * the byte-level reader took, every failing seed, and exits with status 1
 * when any failed. Replay one with `--seed N --seconds 0`.
 *
 * @module
 */
import { corpus, mutate, rng } from "../tests/parse/_fuzz.ts";
import {
  compareReaders,
  randomPlainUrlset,
  randomSitemapIndex,
  randomUrlset,
} from "../tests/parse/_urlset_diff.ts";
import { Rng } from "../tests/parse/_xml_gen.ts";
import { numberFlag } from "./_flags.ts";

const seconds = numberFlag("seconds", 60);
const firstSeed = numberFlag("seed", Date.now() % 1_000_000_000);
const deadline = performance.now() + seconds * 1000;
const fixtures = corpus().filter((d) => !d.name.endsWith(".txt"));
const encoder = new TextEncoder();

/** One input per seed: what it was and how the readers compared. */
function trySeed(seed: number): { how: string; taken: boolean; problem: string | null } {
  const random = new Rng(seed);
  const since = random.int(4) === 0 ? Date.UTC(2015 + random.int(10), random.int(12), 1) : NaN;
  const kind = random.int(5);
  if (kind === 0) {
    const [how, doc] = random.pick(
      [
        ["random plain urlset", randomPlainUrlset],
        ["random urlset", randomUrlset],
        ["random sitemap index", randomSitemapIndex],
      ] as const,
    );
    return { how, ...compareReaders(doc(random), since) };
  }
  const base = kind === 1
    ? { name: "random plain urlset", bytes: encoder.encode(randomPlainUrlset(random)) }
    : kind === 2
    ? { name: "random urlset", bytes: encoder.encode(randomUrlset(random)) }
    : kind === 3
    ? { name: "random sitemap index", bytes: encoder.encode(randomSitemapIndex(random)) }
    : fixtures[random.int(fixtures.length)]!;
  const next = rng(seed);
  let bytes = base.bytes;
  const hows: string[] = [];
  for (let m = 0, count = 1 + random.int(3); m < count; m++) {
    const mutated = mutate(bytes, next);
    bytes = mutated.bytes;
    hows.push(mutated.how);
  }
  return { how: `${base.name}: ${hows.join(", ")}`, ...compareReaders(bytes, since) };
}

let seed = firstSeed;
let taken = 0;
let failures = 0;
console.log(`fuzzing the byte-level urlset reader for ${seconds} s from seed ${firstSeed}`);
do {
  const result = trySeed(seed);
  if (result.taken) taken++;
  if (result.problem !== null) {
    failures++;
    console.log(`FAIL seed ${seed} (${result.how}): ${result.problem.slice(0, 2000)}`);
  }
  seed++;
} while (performance.now() < deadline);
const inputs = seed - firstSeed;
console.log(
  `${inputs} inputs tried, ${taken} read by the byte-level reader, ${failures} failed, seeds ${firstSeed}..${
    seed - 1
  }`,
);
if (failures > 0) Deno.exitCode = 1;
