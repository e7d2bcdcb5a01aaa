/**
 * Long-running differential fuzzing of the URL normaliser against the
 * runtime's own `URL.parse`, not run in CI (tests/parse/_normalize_url_test.ts
 * runs the same checks on 200,000 seeds):
 *
 *   deno run -A bench/fuzz_url.ts --seconds 600 [--seed 1]
 *   bun bench/fuzz_url.ts --seconds 60
 *
 * Each seed is a URL generated from a grammar of every form the normaliser
 * handles or declines (scheme and host case, ports, IPv4 forms, IDN and
 * `xn--` hosts, user info, raw UTF-8, spaces, `%2e` and `..` segments,
 * backslashes, tabs, entities, decimal and hex character references,
 * fragments, relative forms), often mutated
 * byte by byte, checked as a string and as raw XML bytes, as a page URL
 * and as a sitemap URL; every 500 seeds also go through the page builder as
 * one urlset, by both readers. The reference is `URL.parse` of the runtime
 * this runs on (Deno and Bun differ, on `^` in a path for one). Prints URLs/s,
 * how many checks the normaliser answered itself, every failing seed, and
 * exits with status 1 when any failed. Replay one with `--seed N --seconds 0`.
 *
 * @module
 */
import process from "node:process";
import { checkDocument, checkSeed, fuzzCounts } from "../tests/parse/_url_fuzz.ts";
import { numberFlag } from "./_flags.ts";

const seconds = numberFlag("seconds", 60);
const firstSeed = numberFlag("seed", Date.now() % 1_000_000_000);
const started = performance.now();
const deadline = started + seconds * 1000;
const counts = fuzzCounts();
const documents = fuzzCounts();
let failures = 0;
let seed = firstSeed;
console.log(`fuzzing the URL normaliser for ${seconds} s from seed ${firstSeed}`);
do {
  for (let k = 0; k < 500; k++, seed++) {
    const problem = checkSeed(seed, counts);
    if (problem !== null) {
      failures++;
      console.log(`FAIL seed ${seed}: ${problem}`);
    }
  }
  const batch = Array.from({ length: 500 }, (_, k) => seed - 500 + k);
  const problem = checkDocument(batch, documents);
  if (problem !== null) {
    failures++;
    console.log(`FAIL document of ${problem}`);
  }
} while (performance.now() < deadline && failures < 20);
const s = (performance.now() - started) / 1000;
const n = (x: number) => x.toLocaleString("en");
console.log(
  `${n(counts.urls)} URLs (seeds ${firstSeed}..${seed - 1}) in ${s.toFixed(1)} s: ${
    n(Math.round(counts.urls / s))
  } URLs/s`,
);
console.log(
  `${n(counts.checks)} checks; the normaliser alone answered ${n(counts.answered)} of its ${
    n(counts.direct)
  } and declined the rest to URL.parse`,
);
console.log(
  `of the raw XML checks, ${n(counts.charRefs)} had character references; the normaliser answered ${
    n(counts.charRefsAnswered)
  } of those itself`,
);
console.log(
  `${n(documents.urls)} of the URLs also as <loc>s of ${
    n(documents.checks / 2)
  } urlsets, both readers`,
);
console.log(`${n(counts.urls)} URLs checked against URL.parse, ${failures} failure(s)`);
if (failures > 0) process.exit(1);
