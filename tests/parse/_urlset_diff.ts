/**
 * The byte-level urlset reader held to the general path, for the tests and
 * for the long differential fuzzer (bench/fuzz_urlset_fast.ts): the same
 * comparison, and random urlsets built from values that probe its edges.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { ParseResult } from "../../src/parse/_result.ts";
import { readPlainUrlset } from "../../src/parse/_urlset_fast.ts";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import type { Rng } from "./_xml_gen.ts";
import { BASE, rows } from "./_unpack.ts";

const encoder = new TextEncoder();

/** Everything a result says, as plain data. */
export function plain(result: ParseResult): unknown {
  if (result.kind !== "pages") return result;
  return {
    kind: result.kind,
    format: result.format,
    found: result.found,
    warning: result.warning,
    rows: rows(result.pages),
    extras: result.pages.extras,
  };
}

/** What reading one document both ways showed. */
export interface Comparison {
  /** The byte-level reader accepted the document. */
  readonly taken: boolean;
  /** How the results differ, or null when they agree. */
  readonly problem: string | null;
}

/**
 * Reads `doc` with the general path, with `parseSitemap()` and with the
 * byte-level reader alone; they must agree wherever the last one answers.
 *
 * @param doc The document (a string is UTF-8 encoded).
 * @param since The lastmod filter, NaN for none.
 * @param url The document's URL.
 * @returns Whether the byte-level reader took it, and any disagreement.
 */
export function compareReaders(doc: string | Uint8Array, since = NaN, url = BASE): Comparison {
  const bytes = typeof doc === "string" ? encoder.encode(doc) : doc;
  const general = plain(parseSitemapGeneral(bytes, { url, since }));
  const viaParse = plain(parseSitemap(bytes, { url, since }));
  if (!isDeepStrictEqual(viaParse, general)) {
    return {
      taken: false,
      problem: `parseSitemap ${JSON.stringify(viaParse)} != general ${JSON.stringify(general)}`,
    };
  }
  const fast = readPlainUrlset(bytes, URL.parse(url), since);
  if (fast === null) return { taken: false, problem: null };
  const fastPlain = plain(fast);
  if (!isDeepStrictEqual(fastPlain, general)) {
    return {
      taken: true,
      problem: `byte-level ${JSON.stringify(fastPlain)} != general ${JSON.stringify(general)}`,
    };
  }
  return { taken: true, problem: null };
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

/** A urlset of these `<url>` elements. */
export function urlsetOf(...entries: string[]): string {
  return `${HEAD}${entries.join("\n")}\n</urlset>\n`;
}

/** Field values that probe the byte-level reader's edges, by element. */
export const EDGE_VALUES = (() => {
  return {
    loc: [
      "https://www.example.com/p/1",
      " https://www.example.com/p/2\n",
      "https://www.example.com/p/1",
      "http://example.com",
      "https://www.example.com/a%2e%2E/b",
      "https://www.example.com/q?a=1&amp;b=&lt;2&gt;",
      "//cdn.example.com/x",
      "p/rel",
      "mailto:someone@example.com",
      "https://例え.jp/パス",
      "https://www.example.com/\u0000nul",
      "https://www.example.com/tab\there",
      "https://user:pw@www.example.com/",
      "https://192.168.0.1/x",
      "https://www.example.com/#frag",
      "",
      "   ",
    ],
    lastmod: [
      "2024-01-02",
      " 2024-01-02T03:04:05Z ",
      "2024-01-02T03:04:05.678+05:30",
      "2024-01",
      "2024",
      "Tue, 10 Jun 2003 04:00:00 GMT",
      "10 Jun 2003",
      "2024-02-30",
      "yesterday",
      "",
      "2024-01-02&#x54;03:04:05Z",
    ],
    priority: [
      "0.5",
      "1",
      "1.0",
      "0",
      ".3",
      "3.",
      "00.70",
      "2",
      "-0.1",
      "0.1234567890123456789",
      "",
      "abc",
      " 0.9 ",
    ],
    changefreq: ["daily", "WEEKLY", " monthly ", "Never", "sometimes", "", "always"],
  };
})();

/**
 * A random urlset of `<url>` elements with 0-5 fields each from
 * {@linkcode EDGE_VALUES}, repeated fields and odd spacing included.
 *
 * @param random The generator to draw from.
 * @returns The document.
 */
export function randomPlainUrlset(random: Rng): string {
  const entries: string[] = [];
  for (let e = 0; e < 1 + random.int(12); e++) {
    const fields: string[] = [];
    for (let f = 0; f < random.int(6); f++) {
      const name = random.pick(["loc", "loc", "lastmod", "priority", "changefreq"] as const);
      const space = random.pick(["", "\n  ", " "]);
      fields.push(`${space}<${name}>${random.pick(EDGE_VALUES[name])}</${name}>`);
    }
    entries.push(`<url>${fields.join("")}\n</url>`);
  }
  return urlsetOf(...entries);
}
