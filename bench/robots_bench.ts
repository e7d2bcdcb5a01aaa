/**
 * What `RobotsTxt.isAllowed()` costs: 1M page URLs against a generated
 * 500-rule robots.txt (tests/parse/_robots_gen.ts: a big `*` group, a
 * Googlebot group, smaller ones; prefixes, `*`, `$`, query parameters,
 * escapes), for the `*` group and for Googlebot, as URL strings and as
 * paths; beside it the obvious matcher (every rule a regular expression,
 * tests/parse/_robots_naive.ts) on the same `*` group. Prints the parse
 * time, then per case the median and the fastest of several runs in ns per
 * call and calls per second.
 *
 *   deno run -A bench/robots_bench.ts [--runs 7] [--urls 1000000] [--rules 500]
 *   bun bench/robots_bench.ts
 *
 * @module
 */
import { parseRobotsTxt } from "../src/parse/robots_txt.ts";
import { robotsTarget } from "../src/parse/_robots_rules.ts";
import { NaiveRules } from "../tests/parse/_robots_naive.ts";
import { generatedPageUrls, generatedRobotsTxt, ruleCount } from "../tests/parse/_robots_gen.ts";
import { numberFlag } from "./_flags.ts";

const runs = numberFlag("runs", 7);
const count = numberFlag("urls", 1_000_000);
const rules = numberFlag("rules", 500);

const text = generatedRobotsTxt(rules);
const urls = generatedPageUrls(count);
const paths = urls.map((u) => u.slice("https://www.example.com".length));

let parseMs = Infinity;
for (let i = 0; i < 20; i++) {
  const started = performance.now();
  parseRobotsTxt(text, "https://www.example.com/robots.txt");
  parseMs = Math.min(parseMs, performance.now() - started);
}
const robots = parseRobotsTxt(text, "https://www.example.com/robots.txt");

const naive = new NaiveRules();
for (const line of text.split("\n\n")[1]!.split("\n")) {
  const m = /^(Allow|Disallow): (.*)$/.exec(line);
  if (m !== null) naive.add(m[1] === "Allow", m[2]!);
}

/** Runs `check` over every input `runs` times; the allowed count keeps the work observable. */
function measure(inputs: readonly string[], check: (input: string) => boolean): number[] {
  const times: number[] = [];
  let allowed = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    for (let i = 0; i < inputs.length; i++) if (check(inputs[i]!)) allowed++;
    times.push((performance.now() - started) * 1e6 / inputs.length);
  }
  if (allowed < 0) console.log(allowed);
  return times.sort((a, b) => a - b);
}

const cases: [string, readonly string[], (input: string) => boolean][] = [
  ["isAllowed(url)  *", urls, (u) => robots.isAllowed(u)],
  ["isAllowed(url)  Googlebot", urls, (u) => robots.isAllowed(u, "Googlebot/2.1")],
  ["isAllowed(path) *", paths, (p) => robots.isAllowed(p)],
  ["regex per rule  *", urls, (u) => naive.isAllowed(robotsTarget(u))],
];

const disallowed = urls.filter((u) => !robots.isAllowed(u)).length;
console.log(
  `${ruleCount(text)}-rule robots.txt (${text.length.toLocaleString("en")} chars), ` +
    `parsed in ${parseMs.toFixed(2)} ms; ${count.toLocaleString("en")} URLs, ` +
    `${(disallowed / count * 100).toFixed(1)}% disallowed for *; median and best of ${runs} runs`,
);
console.log(
  `${"case".padEnd(26)} ${"ns/call".padStart(8)} ${"calls/s".padStart(12)} ${
    "best ns".padStart(8)
  } ${"best calls/s".padStart(13)}`,
);
for (const [name, inputs, check] of cases) {
  // The naive matcher is slow: a tenth of the URLs says as much.
  const sample = name.startsWith("regex") ? inputs.slice(0, Math.ceil(inputs.length / 10)) : inputs;
  const times = measure(sample, check);
  const median = times[Math.floor(times.length / 2)]!;
  const best = times[0]!;
  const perSecond = (ns: number): string => Math.round(1e9 / ns).toLocaleString("en");
  console.log(
    `${name.padEnd(26)} ${median.toFixed(0).padStart(8)} ${perSecond(median).padStart(12)} ${
      best.toFixed(0).padStart(8)
    } ${perSecond(best).padStart(13)}`,
  );
}
