/**
 * Kept extensions, per shape (fixtures/realistic.ts, ~`--entries` pages
 * each): parse throughput of one core with extension blocks kept (the
 * default) beside decoded at parse time (`extensions: "eager"`), rounds
 * alternated in one process, CPU time; what each form stores beside the XML
 * and its gzip; and the first read of every page's extensions in one
 * sitemap (decoding it) against iterating its url and lastModified.
 *
 *     deno run -A bench/extensions.ts [--entries 50000] [--rounds 7]
 *
 * @module
 */
import process from "node:process";
import { gzipSync } from "node:zlib";
import { SHAPES, shapeUrlset } from "../fixtures/realistic.ts";
import { PagesXMLSitemap } from "../src/objects/sitemap.ts";
import type { PackedExtras, PackedPages } from "../src/parse/_result.ts";
import { parseSitemapBody } from "../src/parse/parse_sitemap.ts";
import { numberFlag } from "./_flags.ts";

const ENTRIES = numberFlag("entries", 50_000);
const ROUNDS = numberFlag("rounds", 7);
const URL_ = "https://www.shop.example/sitemap.xml";
const MB = 1e6;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Bytes of every column of the extensions. */
function extrasBytes(x: PackedExtras | null): number {
  if (x === null) return 0;
  let n = 0;
  for (const column of Object.values(x)) if (ArrayBuffer.isView(column)) n += column.byteLength;
  return n;
}

function parse(
  xml: Uint8Array,
  extensions: "lazy" | "eager",
  gzip: Uint8Array | null = null,
): PackedPages {
  const r = parseSitemapBody(xml, { url: URL_, extensions }, { gzip });
  if (r.kind !== "pages") throw new Error(r.kind);
  return r.pages;
}

/** CPU ms of one traversal of `pages` reading url + lastModified, or every extension too. */
function traverse(pages: PackedPages, all: boolean): number {
  const node = new PagesXMLSitemap(URL_, pages);
  const t = cpuMs();
  let touched = 0;
  for (const page of node.pages) {
    touched += page.url.length + (page.lastModified === null ? 0 : 1);
    if (all) {
      touched += page.images.length + page.alternates.length + page.videos.length +
        (page.newsStory === null ? 0 : 1);
    }
  }
  if (touched === 0) throw new Error("nothing read");
  return cpuMs() - t;
}

console.log(`${ENTRIES} pages per document, ${ROUNDS} rounds alternated, MB/s of CPU time`);
console.log(
  "| shape | XML MB | kept MB/s | eager MB/s | kept (deflated) kB | kept (gzip body) kB | eager kB | url+lastmod ms | all extensions, first read ms | eager first read ms |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const shape of SHAPES) {
  const xml = new TextEncoder().encode(shapeUrlset(shape, ENTRIES, 1));
  const gzip = gzipSync(xml);
  const times = { lazy: [] as number[], eager: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? ["lazy", "eager"] as const : ["eager", "lazy"] as const) {
      const t = cpuMs();
      parse(xml, mode);
      times[mode].push(cpuMs() - t);
    }
  }
  const rate = (ms: number[]) => (xml.length / MB / (median(ms) / 1000)).toFixed(0);
  const lazy = parse(xml, "lazy");
  const fromGzip = parse(xml, "lazy", gzip);
  const eager = parse(xml, "eager");
  const light = median([0, 1, 2].map(() => traverse(lazy, false)));
  // A fresh parse each time, so every first read decodes.
  const first = median([0, 1, 2].map(() => traverse(parse(xml, "lazy", gzip), true)));
  const eagerFirst = median([0, 1, 2].map(() => traverse(parse(xml, "eager"), true)));
  console.log(
    `| ${shape} | ${(xml.length / MB).toFixed(1)} | ${rate(times.lazy)} | ${rate(times.eager)} | ${
      (extrasBytes(lazy.extras) / 1000).toFixed(0)
    } | ${(extrasBytes(fromGzip.extras) / 1000).toFixed(0)} | ${
      (extrasBytes(eager.extras) / 1000).toFixed(0)
    } | ${light.toFixed(0)} | ${first.toFixed(0)} | ${eagerFirst.toFixed(0)} |`,
  );
}
