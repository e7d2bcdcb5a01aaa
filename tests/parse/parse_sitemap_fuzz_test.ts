import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { parseSitemap } from "../../src/parse/parse_sitemap.ts";
import { corpus, entriesOf, fuzz, prefixProblem, shapeProblem } from "./_fuzz.ts";

Deno.test("parseSitemap() fuzz: mutated documents never throw and stay well formed", () => {
  const report = fuzz(1, 1500);
  equal(report.inputs, 3000);
  deepStrictEqual(report.failures, []);
});

Deno.test("parseSitemap() fuzz: every cut of a urlset reads a prefix of the whole", () => {
  const doc = corpus().find((d) => d.name === "sitemap_pages.xml")!;
  const url = "https://www.example.com/sitemap.xml";
  const whole = entriesOf(parseSitemap(doc.bytes, { url }));
  equal(whole.length, 7);
  let longest = 0;
  for (let k = 0; k <= doc.bytes.length; k++) {
    const cut = parseSitemap(doc.bytes.subarray(0, k), { url });
    equal(shapeProblem(cut), null, `cut at ${k}`);
    const entries = entriesOf(cut);
    equal(prefixProblem(whole, entries, false), null, `cut at ${k}`);
    // Cuts only ever add entries as k grows.
    equal(entries.length >= longest, true, `cut at ${k}`);
    longest = entries.length;
  }
  equal(longest, 7);
});
