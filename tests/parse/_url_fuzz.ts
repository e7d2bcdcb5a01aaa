/**
 * The differential URL fuzzer, shared by the bounded test
 * (tests/parse/_normalize_url_test.ts) and the long run (bench/fuzz_url.ts):
 * URLs generated from a grammar of every form the byte normaliser handles or
 * declines, then mutated byte by byte, checked against `URL.parse` of the
 * runtime it runs on.
 *
 * @module
 */
import {
  KEEP_FRAGMENT,
  normalBase,
  normalizedRoom,
  normalizeUrlBytes,
  RAW_XML,
} from "../../src/parse/_normalize_url.ts";
import { decodeRawText } from "../../src/parse/_pack.ts";
import { normalizeNewlines } from "../../src/parse/_tokenizer.ts";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import { urls } from "./_unpack.ts";
import { isNotUrl, resolvePageUrl, resolveSitemapUrl } from "../../src/parse/_url.ts";
import { Rng } from "./_xml_gen.ts";

const SCHEMES = [
  "https:",
  "http:",
  "HTTP:",
  "HtTpS:",
  "ftp:",
  "mailto:",
  "javascript:",
  "",
  "",
  "h:",
  // No scheme: a Cyrillic \u0440 and an underscore make the value relative,
  // and its first segment's `:` makes it no URL reference.
  "htt\u0440:",
  "h_ttp:",
];
const SLASHES = ["//", "//", "//", "\\\\", "/\\", "///", "/", ""];
const USERINFO = ["", "", "", "", "", "", "user:pw@", "@", "u@"];
const HOSTS = [
  "www.example.com",
  "www.example.com",
  "EXAMPLE.COM",
  "Ex-Ample.org",
  "a_b.example",
  "127.0.0.1",
  "10.0.0.255",
  "192.168.000.1",
  "0x7f.1",
  "0X7F.0.0.1",
  "1.2.3",
  "256.1.1.1",
  "1.2.3.4.",
  "4294967295",
  "1.2.3.com",
  "a.09",
  "a.0x",
  "a.1a",
  "42949672950x",
  "1x.example",
  "[::1]",
  "[2001:DB8:0:0:0:0:0:1]",
  "[::]",
  "[0:0:1::]",
  "[1:0:0:2:0:0:0:3]",
  "[1:2:3:4:5:6::7]",
  "[::ffff:1.2.3.4]",
  "[1::2::3]",
  "[12345::]",
  "[fe80::1%25eth0]",
  "[1:2:3:4:5:6:7]",
  "[::1",
  "xn--bcher-kva.example",
  "xn--zz.com",
  "bücher.example",
  "例え.jp",
  "a..b",
  "a.",
  ".a",
  "",
  "a%41.com",
  "a!b.com",
];
const PORTS = [
  "",
  "",
  "",
  "",
  ":80",
  ":443",
  ":8080",
  ":0080",
  ":",
  ":65535",
  ":65536",
  ":99999999999",
  ":8a",
  ":0",
];
const SEGMENTS = [
  "a",
  "page",
  "Index.HTML",
  ".",
  "..",
  "%2e",
  "%2E%2e",
  ".%2e",
  "%2e.",
  "c:",
  "C|",
  "...",
  "é",
  "日本語",
  "😀",
  " ",
  "a b",
  "%20",
  "%zz",
  "%",
  "^",
  "`",
  "{x}",
  "|",
  "'",
  '"',
  "<b>",
  "&",
  "~!$()*+,;=:@",
  "\u0000",
  "\u001f",
  "\u007f",
  "\ufeff",
  "\u00a0",
  "\ud800",
  "\t",
  "\n",
  "",
];
const QUERIES = [
  "",
  "",
  "?",
  "?a=b&c=d",
  "?q=é",
  "?x y",
  "?'",
  "?^`{}|",
  "?/../.",
  "?a\\b",
  "?%2e",
  '?"',
  "?\u0001",
];
const FRAGMENTS = ["", "", "", "#", "#frag", "#é x", "#`^{}", "##", "#a?b/../c", "#<"];
const EDGES = ["", "", "", " ", "\n  ", "\t", "\u00a0", "\ufeff", "\u3000", "\u0001"];
const INSERTS = [
  "%",
  "\\",
  "/",
  "\t",
  "\n",
  "\r",
  " ",
  "é",
  "..",
  "/..",
  "/.",
  ":8080",
  ":80",
  ":",
  "@",
  "A",
  "Z",
  "#",
  "?",
  "<",
  ">",
  '"',
  "&",
  "&amp;",
  "&lt;",
  "&#32;",
  "xn--",
  "0x",
  "\u3000",
  "\u0001",
  "^",
  ".",
  "%2e",
  "1",
  "[",
  "日",
];
/** The sitemap URLs relative values resolve against (null: none). */
export const BASES: readonly (string | null)[] = [
  "https://www.example.com/sitemap.xml",
  "http://127.0.0.1:8080/dir/sub/sitemap.xml?x=1#f",
  "https://EXAMPLE.com/a/b/",
  "http://user:pw@host.example/x",
  "https://www.example.com/",
  null,
  "file:///etc/sitemap.xml",
  "https://例え.jp/s.xml",
];

/** One generated URL: grammar-built, sometimes mutated. */
export function randomUrl(r: Rng): string {
  let path = "";
  for (let n = r.int(5); n > 0; n--) path += (r.chance(0.15) ? "\\" : "/") + r.pick(SEGMENTS);
  if (r.chance(0.3)) path += "/";
  let url: string;
  if (r.chance(0.25)) {
    // Relative forms.
    url = r.pick(["", "/", "//" + r.pick(HOSTS), "?", "#", "./", "../", "x/"]) + path.slice(1) +
      r.pick(QUERIES) + r.pick(FRAGMENTS);
  } else {
    url = r.pick(SCHEMES) + r.pick(SLASHES) + r.pick(USERINFO) + r.pick(HOSTS) + r.pick(PORTS) +
      path + r.pick(QUERIES) + r.pick(FRAGMENTS);
  }
  if (r.chance(0.5)) url = mutateUrl(url, r);
  return r.pick(EDGES) + url + r.pick(EDGES);
}

function mutateUrl(url: string, r: Rng): string {
  for (let n = 1 + r.int(3); n > 0; n--) {
    const at = r.int(url.length + 1);
    switch (r.int(5)) {
      case 0:
      case 1:
        url = url.slice(0, at) + r.pick(INSERTS) + url.slice(at);
        break;
      case 2:
        url = url.slice(0, at) + url.slice(at + 1 + r.int(3));
        break;
      case 3:
        url = url.slice(0, at) + url.slice(at, at + 4).toUpperCase() + url.slice(at + 4);
        break;
      default: {
        const from = r.int(url.length + 1);
        url = url.slice(0, at) + url.slice(from, from + r.int(8)) + url.slice(at);
      }
    }
  }
  return url;
}

/**
 * Character references the normaliser must decline (the tokenizer decodes
 * the invalid ones to U+FFFD and leaves the unterminated ones as they are),
 * or read as well-formed odd spellings.
 */
const ODD_REFS = [
  "&#0;",
  "&#x0;",
  "&#xD800;",
  "&#57343;",
  "&#x110000;",
  "&#1114112;",
  "&#99999999999999999999;",
  "&#65",
  "&#x41",
  "&#X41;",
  "&#;",
  "&#x;",
  "&#-1;",
  "&#x10FFFF;",
  "&#0000065;",
  "&#x00000041;",
  "&#x2F;",
  "&#92;",
  "&#63;",
  "&#x23;",
  "&#9;",
  "&#10;",
  "&#13;",
  "&#32;",
  "&#160;",
  "&#xfeff;",
  "&#x3000;",
  "&#1;",
  "&#94;",
  "&#46;",
  "&#37;2e",
  "&#58;",
  "&#64;",
  "&#x26;amp;",
];

/** A character reference for code point `cp`, in one of its spellings. */
function charRef(cp: number, r: Rng): string {
  const zeros = r.chance(0.1) ? "0".repeat(1 + r.int(r.chance(0.2) ? 16 : 3)) : "";
  if (r.chance(0.5)) return `&#${zeros}${cp};`;
  const hex = cp.toString(16);
  return `&#x${zeros}${r.chance(0.5) ? hex.toUpperCase() : hex};`;
}

/**
 * XML-escapes some of the characters that need it, as a sitemap writer
 * might; in some values writes characters (any of them) as decimal or hex
 * character references, and inserts odd or invalid references.
 */
export function escapeXml(value: string, r: Rng): string {
  if (r.chance(0.3)) {
    // Character references: `&` always escaped, by a reference or `&amp;`.
    const rate = r.pick([0.05, 0.2, 1]);
    let text = "";
    for (const ch of value) {
      const cp = ch.codePointAt(0)!;
      if (cp === 0x26) text += r.chance(0.5) ? "&amp;" : charRef(cp, r);
      else if (cp === 0x3c) text += r.chance(0.5) ? "&lt;" : charRef(cp, r);
      else if (r.chance(rate)) text += charRef(cp, r);
      else text += ch;
    }
    if (r.chance(0.3)) {
      const at = r.int(text.length + 1);
      text = text.slice(0, at) + r.pick(ODD_REFS) + text.slice(at);
    }
    return text;
  }
  return value.replace(/[&<>"']/g, (c) => {
    if (c === "&") return "&amp;";
    if (c === "<") return "&lt;";
    if (!r.chance(0.5)) return c === ">" ? ">" : c;
    return c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&apos;";
  });
}

/**
 * What a value must become: null for an empty value, for one that is not a
 * URL (docs/design.md#values-that-are-not-urls) or not http(s); else the
 * runtime's `URL.parse` href, without the fragment for sitemap URLs.
 */
export function reference(value: string, base: URL | null, fragment: boolean): string | null {
  const trimmed = value.trim();
  if (trimmed === "" || isNotUrl(trimmed)) return null;
  const url = base === null ? URL.parse(trimmed) : URL.parse(trimmed, base);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  if (!fragment) url.hash = "";
  return url.href;
}

/** Counts of a fuzz run. */
export interface FuzzCounts {
  /** Values checked (each in several ways). */
  urls: number;
  /** Checks of the byte normaliser alone. */
  direct: number;
  /** Of those, the ones it answered itself (the rest it declined). */
  answered: number;
  /** Checks made. */
  checks: number;
  /** Raw XML checks of values written with a character reference (`&#`). */
  charRefs: number;
  /** Of those, the ones the normaliser answered itself. */
  charRefsAnswered: number;
}

/** Counts of a run that has not started. */
export function fuzzCounts(): FuzzCounts {
  return { urls: 0, direct: 0, answered: 0, checks: 0, charRefs: 0, charRefsAnswered: 0 };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let out = new Uint8Array(4096);

function bytesResult(
  bytes: Uint8Array,
  base: URL | null,
  flags: number,
): string | null | undefined {
  const nb = normalBase(base);
  const room = normalizedRoom(bytes.length, nb) + 16;
  if (out.length < room) out = new Uint8Array(room);
  // Written at an offset, as the builder writes after the URLs it kept.
  const end = normalizeUrlBytes(bytes, 0, bytes.length, out, 7, nb, flags);
  if (end === -1) return undefined;
  if (end === -2) return null;
  return decoder.decode(out.subarray(7, end));
}

/**
 * Checks one seed's value in every mode: string and raw XML bytes, page
 * (fragment kept) and sitemap (dropped), normaliser alone and through
 * `resolvePageUrl`/`resolveSitemapUrl`.
 *
 * @returns Null when all agree, else what differed.
 */
export function checkSeed(seed: number, counts: FuzzCounts): string | null {
  const r = new Rng(seed);
  const value = randomUrl(r);
  const baseText = r.pick(BASES);
  const base = baseText === null ? null : URL.parse(baseText);
  counts.urls++;
  const page = reference(value, base, true);
  const sitemap = reference(value, base, false);
  const problems: string[] = [];
  const expect = (
    how: string,
    got: string | null | undefined,
    want: string | null,
    direct = true,
  ) => {
    counts.checks++;
    if (direct) counts.direct++;
    if (got === undefined) return;
    if (direct) counts.answered++;
    if (got !== want) {
      problems.push(`${how}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
  };
  expect("resolvePageUrl", resolvePageUrl(value, base), page, false);
  expect("resolveSitemapUrl", resolveSitemapUrl(value, base), sitemap, false);
  const trimmed = value.trim();
  const bytes = encoder.encode(trimmed);
  expect("bytes, page", bytesResult(bytes, base, KEEP_FRAGMENT), page);
  expect("bytes, sitemap", bytesResult(bytes, base, 0), sitemap);
  // As written in a document: escaped, then read back as the tokenizer would.
  const text = escapeXml(value, r);
  const xml = encoder.encode(text);
  const decoded = decodeRawText(xml, 0, xml.length);
  const raw = bytesResult(xml, base, KEEP_FRAGMENT | RAW_XML);
  expect("raw XML, page", raw, reference(decoded, base, true));
  if (text.includes("&#")) {
    counts.charRefs++;
    if (raw !== undefined) counts.charRefsAnswered++;
  }
  if (problems.length === 0) return null;
  return `value ${JSON.stringify(value)} base ${JSON.stringify(baseText)}\n  ${
    problems.join("\n  ")
  }`;
}

/** Characters XML text cannot hold (a document with them is not well-formed). */
const NOT_XML = new RegExp(
  "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]" +
    "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]",
);

/**
 * Checks the page builder's own paths: the values of `seeds` as the `<loc>`s
 * of one urlset (escaped, or some as a CDATA section), read by the
 * byte-level reader and by the general reader,
 * must give the reference URLs, deduplicated, first wins.
 *
 * @returns Null when all agree, else what differed.
 */
export function checkDocument(seeds: readonly number[], counts: FuzzCounts): string | null {
  const locs: string[] = [];
  const expected: string[] = [];
  const seen = new Set<string>();
  const baseText = "http://127.0.0.1:8080/dir/sub/sitemap.xml";
  const base = URL.parse(baseText);
  for (const seed of seeds) {
    const r = new Rng(seed);
    const value = randomUrl(r);
    if (NOT_XML.test(value)) continue;
    counts.urls++;
    const xml = escapeXml(value, r);
    // Some as one CDATA section: the value as it is, line ends normalised.
    const cdata = r.chance(0.2) && !value.includes("]]>");
    locs.push(cdata ? `<![CDATA[${value}]]>` : xml);
    const bytes = encoder.encode(xml);
    const text = cdata ? normalizeNewlines(value) : decodeRawText(bytes, 0, bytes.length);
    const url = reference(text, base, true);
    if (url !== null && !seen.has(url)) {
      seen.add(url);
      expected.push(url);
    }
  }
  const doc = encoder.encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      locs.map((l) => `<url><loc>${l}</loc></url>\n`).join("")
    }</urlset>\n`,
  );
  counts.checks += 2;
  const problems: string[] = [];
  for (
    const [how, result] of [
      ["parseSitemap", parseSitemap(doc, { url: baseText })],
      ["parseSitemapGeneral", parseSitemapGeneral(doc, { url: baseText })],
    ] as const
  ) {
    const got = result.kind === "pages" ? urls(result.pages) : [result.kind];
    if (got.length !== expected.length || got.some((u, i) => u !== expected[i])) {
      const i = got.findIndex((u, k) => u !== expected[k]);
      problems.push(
        `${how}: first difference at ${i}: got ${JSON.stringify(got[i])}, want ${
          JSON.stringify(expected[i])
        }`,
      );
    }
  }
  return problems.length === 0
    ? null
    : `seeds ${seeds[0]}..${seeds[seeds.length - 1]}: ${problems.join("; ")}`;
}
