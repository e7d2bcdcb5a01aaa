/**
 * Parser throughput on the seed benchmark's unit of work: one sitemap of
 * 50,000 URLs with `<loc>` and `<lastmod>` (~4.2 MB of XML), plain and
 * gzipped, whole and with a lastmod filter keeping ~5%, beside the bare
 * tokenizer, and beside the general path (decoder, tokenizer, reader) that
 * the byte-level urlset reader spares such documents.
 *
 *   deno bench -A bench/parse_bench.ts
 *
 * Run with `deno run -A bench/parse_bench.ts` instead to print process CPU
 * time per parse (median and minimum of 9 rounds of 4), which a busy machine
 * distorts far less than wall time.
 *
 * @module
 */
import process from "node:process";
import { gzipSync } from "node:zlib";
import { decompressIfGzip } from "../src/decompress.ts";
import { XmlTokenizer } from "../src/parse/_tokenizer.ts";
import { parseSitemap, parseSitemapGeneral } from "../src/parse/parse_sitemap.ts";

/** A urlset like the seed benchmark's: 50,000 product URLs, dates spread over 2025. */
function urlset(n: number): Uint8Array {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < n; i++) {
    const month = String(1 + (i % 12)).padStart(2, "0");
    const day = String(1 + (i % 28)).padStart(2, "0");
    parts.push(
      `<url><loc>https://shop.example.com/products/item-${
        String(i).padStart(7, "0")
      }</loc><lastmod>2025-${month}-${day}</lastmod></url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return new TextEncoder().encode(parts.join(""));
}

const xml = urlset(50_000);
const gz = new Uint8Array(gzipSync(xml));
const url = "https://shop.example.com/sitemap-1.xml";
// Days 27-28 of December: 2 of the 336 month/day combinations, about 0.6%;
// December 1 onwards keeps 1/12, about 8% — the seed's "~5%" lies between.
const since = Date.UTC(2025, 11, 4);
const noop = { onStart() {}, onEnd() {}, onText() {} };

console.log(
  `document: ${(xml.length / 1e6).toFixed(2)} MB XML, ${(gz.length / 1e6).toFixed(2)} MB gzipped`,
);

Deno.bench("tokenizer only (TextDecoder + XmlTokenizer, 1 MiB chunks)", {
  group: "50k",
  baseline: true,
}, () => {
  const tokenizer = new XmlTokenizer(noop);
  const decoder = new TextDecoder();
  for (let o = 0; o < xml.length; o += 1 << 20) {
    tokenizer.write(decoder.decode(xml.subarray(o, o + (1 << 20)), { stream: true }));
  }
  tokenizer.end();
});

Deno.bench("parseSitemap, plain XML", { group: "50k" }, () => {
  const r = parseSitemap(xml, { url });
  if (r.kind !== "pages" || r.pages.count !== 50_000) throw new Error("wrong result");
});

Deno.bench("parseSitemapGeneral: decoder + tokenizer + reader, no byte-level path", {
  group: "50k",
}, () => {
  const r = parseSitemapGeneral(xml, { url });
  if (r.kind !== "pages" || r.pages.count !== 50_000) throw new Error("wrong result");
});

Deno.bench("parseSitemap, since filter (~8% kept)", { group: "50k" }, () => {
  const r = parseSitemap(xml, { url, since });
  if (r.kind !== "pages" || r.found !== 50_000) throw new Error("wrong result");
});

Deno.bench("decompressIfGzip + parseSitemap", { group: "50k" }, async () => {
  const d = await decompressIfGzip(gz, 50 * 1024 * 1024);
  if (!d.ok) throw new Error(d.reason);
  const r = parseSitemap(d.bytes, { url });
  if (r.kind !== "pages" || r.pages.count !== 50_000) throw new Error("wrong result");
});

/**
 * CPU milliseconds per call of `f` after a warm-up: the median and the
 * minimum over `rounds` rounds of `runs` calls, since other processes on a
 * shared machine slow some rounds down (the median is the figure to quote).
 */
async function cpuMs(
  f: () => unknown,
  rounds: number,
  runs: number,
): Promise<{ median: number; min: number }> {
  for (let i = 0; i < 5; i++) await f();
  const perCall: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < runs; i++) await f();
    const used = process.cpuUsage(start);
    perCall.push((used.user + used.system) / 1000 / runs);
  }
  perCall.sort((a, b) => a - b);
  return { median: perCall[perCall.length >> 1]!, min: perCall[0]! };
}

if (import.meta.main) {
  const mb = xml.length / 1e6;
  const rows: [string, () => unknown][] = [
    ["tokenizer only", () => {
      const tokenizer = new XmlTokenizer(noop);
      const decoder = new TextDecoder();
      for (let o = 0; o < xml.length; o += 1 << 20) {
        tokenizer.write(decoder.decode(xml.subarray(o, o + (1 << 20)), { stream: true }));
      }
      tokenizer.end();
    }],
    ["parseSitemap, plain XML", () => parseSitemap(xml, { url })],
    ["parseSitemapGeneral (no byte path)", () => parseSitemapGeneral(xml, { url })],
    ["parseSitemap, since filter", () => parseSitemap(xml, { url, since })],
    ["decompressIfGzip + parseSitemap", async () => {
      const d = await decompressIfGzip(gz, 50 * 1024 * 1024);
      if (d.ok) parseSitemap(d.bytes, { url });
    }],
  ];
  for (const [name, f] of rows) {
    const { median, min } = await cpuMs(f, 9, 4);
    console.log(
      `${name.padEnd(34)} ${median.toFixed(1).padStart(6)} ms CPU (min ${
        min.toFixed(1).padStart(5)
      })  ${(mb / median * 1000).toFixed(0).padStart(4)} MB/s`,
    );
  }
}
