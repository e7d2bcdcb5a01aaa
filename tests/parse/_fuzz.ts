/**
 * A seeded mutation fuzzer for parseSitemap, shared by the bounded test and
 * the long-running bench/fuzz_parse.ts: realistic documents, cut, spliced,
 * broken and sprinkled with entities, checked for invariants.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pageExtrasEntries } from "../../src/parse/_kept_extras.ts";
import type { PackedPages, ParseResult } from "../../src/parse/_result.ts";
import { parseSitemap } from "../../src/parse/parse_sitemap.ts";

/** A small, fast, seedable PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = [
  "sitemap_pages.xml",
  "sitemap_news.xml",
  "sitemap_media.xml",
  "sitemap_alternates.xml",
  "sitemap_index.xml",
  "sitemap.txt",
  "feeds/rss.xml",
  "feeds/rdf.xml",
  "feeds/atom.xml",
  "feeds/atom03.xml",
];

function generated(n: number): Uint8Array {
  let s =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
  for (let i = 0; i < n; i++) {
    s += `<url><loc>https://www.example.com/p/${i % 97}?q=${i}&amp;x=ż</loc>` +
      `<lastmod>2024-0${1 + (i % 9)}-1${i % 10}</lastmod><priority>0.${i % 10}</priority></url>\n`;
  }
  return new TextEncoder().encode(s + "</urlset>\n");
}

/** The documents mutated: every fixture plus a generated urlset with duplicates. */
export function corpus(): { name: string; bytes: Uint8Array }[] {
  const docs: { name: string; bytes: Uint8Array }[] = [];
  for (const name of FILES) {
    docs.push({
      name,
      bytes: new Uint8Array(
        readFileSync(fileURLToPath(new URL(`../../fixtures/files/${name}`, import.meta.url))),
      ),
    });
  }
  docs.push({ name: "generated", bytes: generated(150) });
  return docs;
}

const SNIPPETS = [
  "&amp;",
  "&lt;",
  "&#0;",
  "&#x10FFFF;",
  "&#99999999999;",
  "&bogus;",
  "&",
  "<",
  ">",
  "]]>",
  "<![CDATA[",
  "<!--",
  "-->",
  "<?xml ?>",
  "<!DOCTYPE x>",
  "</url>",
  "<url>",
  "<loc>",
  "</loc>",
  "</urlset>",
  "xmlns:a='urn:a'",
  '"',
  "\u0000",
  "\ufeff",
  "\r\n",
  "<a:b:c>",
  "</>",
  "<loc/>",
];

/** One mutation of `doc`, described for failure reports. */
export function mutate(doc: Uint8Array, random: () => number): { bytes: Uint8Array; how: string } {
  const pick = (n: number) => Math.floor(random() * n);
  const at = pick(doc.length + 1);
  switch (pick(5)) {
    case 0: {
      const bytes = new Uint8Array(pick(8) + 1).map(() => pick(256));
      return {
        bytes: splice(doc, at, 0, bytes),
        how: `insert ${bytes.length} random bytes at ${at}`,
      };
    }
    case 1: {
      const s = SNIPPETS[pick(SNIPPETS.length)]!;
      return {
        bytes: splice(doc, at, 0, new TextEncoder().encode(s)),
        how: `insert ${JSON.stringify(s)} at ${at}`,
      };
    }
    case 2: {
      const n = pick(12) + 1;
      return { bytes: splice(doc, at, n, new Uint8Array(0)), how: `delete ${n} bytes at ${at}` };
    }
    case 3: {
      // Break a tag: drop one of the next '<' or '>' after `at`.
      for (let i = at; i < doc.length; i++) {
        if (doc[i] === 0x3c || doc[i] === 0x3e) {
          return { bytes: splice(doc, i, 1, new Uint8Array(0)), how: `drop markup byte at ${i}` };
        }
      }
      return { bytes: doc, how: "no markup to break" };
    }
    default: {
      const from = pick(doc.length);
      const n = pick(200);
      const piece = doc.slice(from, from + n);
      return { bytes: splice(doc, at, 0, piece), how: `copy ${n} bytes from ${from} to ${at}` };
    }
  }
}

function splice(doc: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(doc.length - Math.min(remove, doc.length - at) + insert.length);
  out.set(doc.subarray(0, at));
  out.set(insert, at);
  out.set(doc.subarray(Math.min(doc.length, at + remove)), at + insert.length);
  return out;
}

/** The entries of a result as comparable strings (page rows or index children). */
export function entriesOf(result: ParseResult): string[] {
  if (result.kind === "index") return result.children.map((c) => `${c.url} ${c.lastModified}`);
  if (result.kind === "invalid") return [];
  const p = result.pages;
  const text = new TextDecoder().decode(p.urlBytes);
  const out: string[] = [];
  for (let i = 0; i < p.count; i++) {
    const url = text.slice(i === 0 ? 0 : p.urlEnds[i - 1], p.urlEnds[i]);
    out.push(`${url} ${p.lastModified[i]} ${p.priority[i]} ${p.changeFrequency[i]}`);
  }
  return out;
}

/** Problems with the shape of a result, or null when it is well formed. */
export function shapeProblem(result: ParseResult): string | null {
  if (result.kind === "invalid") {
    return result.reason.startsWith("Unable to parse sitemap:") ? `threw: ${result.reason}` : null;
  }
  if (result.kind === "index") return null;
  const p: PackedPages = result.pages;
  if (p.urlEnds.length !== p.count || p.lastModified.length !== p.count) return "column length";
  if (p.priority.length !== p.count || p.changeFrequency.length !== p.count) return "column length";
  let prev = 0;
  for (let i = 0; i < p.count; i++) {
    if (p.urlEnds[i]! <= prev && i > 0) return "urlEnds not increasing";
    prev = p.urlEnds[i]!;
    const pr = p.priority[i]!;
    if (!(pr >= 0 && pr <= 1)) return `priority ${pr}`;
    if (p.changeFrequency[i]! > 7) return "changeFrequency code";
  }
  if (new TextDecoder().decode(p.urlBytes).length !== (p.count === 0 ? 0 : prev)) {
    return "urlBytes length";
  }
  if (p.extras !== null) pageExtrasEntries(p.extras);
  if (result.found < p.count) return "found < count";
  return null;
}

/**
 * For a document cut at `k`: every complete entry before the cut is an entry
 * of the whole document, in the same order (text sitemaps may also end with
 * the cut line, which is a different URL).
 */
export function prefixProblem(whole: string[], cut: string[], text: boolean): string | null {
  const n = text ? Math.max(0, cut.length - 1) : cut.length;
  if (n > whole.length) return `cut has ${n} entries, whole ${whole.length}`;
  for (let i = 0; i < n; i++) {
    if (cut[i] !== whole[i]) return `entry ${i}: ${cut[i]} vs ${whole[i]}`;
  }
  return null;
}

/** What one fuzz round found. */
export interface FuzzReport {
  inputs: number;
  failures: { seed: number; doc: string; how: string; problem: string }[];
}

/**
 * Runs rounds with seeds `firstSeed`, `firstSeed + 1`, … until `rounds` are
 * done or `keepGoing()` says stop. Each round cuts one document at a random
 * point (checking the prefix property) and mutates it once or more.
 */
export function fuzz(
  firstSeed: number,
  rounds: number,
  keepGoing: () => boolean = () => true,
): FuzzReport {
  const docs = corpus();
  const url = "https://www.example.com/sitemap.xml";
  const wholes = docs.map((d) => entriesOf(parseSitemap(d.bytes, { url })));
  const report: FuzzReport = { inputs: 0, failures: [] };
  for (let r = 0; r < rounds && keepGoing(); r++) {
    const seed = firstSeed + r;
    const random = rng(seed);
    const d = Math.floor(random() * docs.length);
    const doc = docs[d]!;
    const chunkBytes = 1 + Math.floor(random() * 300);
    const fail = (how: string, problem: string) =>
      report.failures.push({ seed, doc: doc.name, how, problem });

    const k = Math.floor(random() * (doc.bytes.length + 1));
    const cut = parseSitemap(doc.bytes.subarray(0, k), { url, chunkBytes });
    report.inputs++;
    const cutShape = shapeProblem(cut);
    if (cutShape !== null) fail(`cut at ${k}`, cutShape);
    const prefix = prefixProblem(wholes[d]!, entriesOf(cut), doc.name.endsWith(".txt"));
    if (prefix !== null) fail(`cut at ${k}`, prefix);

    let bytes = doc.bytes;
    const steps: string[] = [];
    const times = 1 + Math.floor(random() * 4);
    for (let i = 0; i < times; i++) {
      const m = mutate(bytes, random);
      bytes = m.bytes;
      steps.push(m.how);
    }
    const mutated = parseSitemap(bytes, {
      url,
      chunkBytes,
      since: random() < 0.2 ? Date.UTC(2024, 0, 1) : NaN,
    });
    report.inputs++;
    const shape = shapeProblem(mutated);
    if (shape !== null) fail(steps.join("; "), shape);
  }
  return report;
}
