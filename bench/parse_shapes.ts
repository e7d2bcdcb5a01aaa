/**
 * Parse throughput per sitemap shape: MB/s of process CPU time for
 * `parseSitemap` (the byte-level reader where it applies) beside the general
 * path (decoder, tokenizer, readers), on ~10 MB of each shape from
 * fixtures/realistic.ts (bench/shapes.ts has the per-shape table beside saxes).
 *
 *   deno run -A bench/parse_shapes.ts [--entries 20000] [--rounds 7]
 *
 * @module
 */
import process from "node:process";
import { SHAPES, shapeUrlset } from "../fixtures/realistic.ts";
import { parseSitemap, parseSitemapGeneral } from "../src/parse/parse_sitemap.ts";
import { readSitemapIndexBytes } from "../src/parse/_sitemapindex_bytes.ts";
import { readUrlsetBytes } from "../src/parse/_urlset_bytes.ts";
import { numberFlag } from "./_flags.ts";

const entries = numberFlag("entries", 20_000);
const rounds = numberFlag("rounds", 7);
const url = "https://www.shop.example/sitemap.xml";

function cpuMs(f: () => unknown): number {
  for (let i = 0; i < 3; i++) f();
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    per.push((used.user + used.system) / 1000);
  }
  per.sort((a, b) => a - b);
  return per[per.length >> 1]!;
}

// Keeps ~5% of dated pages: the last 5% of the generators' lastmod ranges.
const SINCE: Partial<Record<string, number>> = {
  plain: Date.UTC(2020, 0, 1) + 1735 * 86_400_000,
  realistic: Date.UTC(2020, 0, 1) + 0.95 * (Date.UTC(2025, 0, 1) - Date.UTC(2020, 0, 1)),
};

console.log(
  `shape                 MB     byte-level?  parseSitemap MB/s   general MB/s   since ~5%: kept, time vs full`,
);
for (const shape of SHAPES) {
  const bytes = new TextEncoder().encode(shapeUrlset(shape, entries, 1));
  const mb = bytes.length / 1e6;
  const taken = (readUrlsetBytes(bytes, URL.parse(url), NaN) ??
    readSitemapIndexBytes(bytes, URL.parse(url))) !== null;
  const fast = cpuMs(() => parseSitemap(bytes, { url }));
  const general = cpuMs(() => parseSitemapGeneral(bytes, { url }));
  const since = SINCE[shape];
  let sinceColumn = "";
  if (since !== undefined) {
    const r = parseSitemap(bytes, { url, since });
    const kept = r.kind === "pages" ? r.pages.count / r.found : NaN;
    const t = cpuMs(() => parseSitemap(bytes, { url, since }));
    sinceColumn = `   ${(kept * 100).toFixed(1)}% kept, ${(t / fast).toFixed(2)}x`;
  }
  console.log(
    `${shape.padEnd(20)} ${mb.toFixed(1).padStart(5)}   ${(taken ? "yes" : "no").padEnd(11)}  ${
      (mb / fast * 1000).toFixed(0).padStart(8)
    }          ${(mb / general * 1000).toFixed(0).padStart(8)}${sinceColumn}`,
  );
}
