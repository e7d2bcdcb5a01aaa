/**
 * The byte-level urlset reader held to the general path, for the tests and
 * for the long differential fuzzer (bench/fuzz_byte_readers.ts): the same
 * comparison, and random urlsets built from values that probe its edges.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { IMAGE_NS, NEWS_NS, VIDEO_NS, XHTML_NS } from "../../src/parse/_ns.ts";
import type { ParseResult } from "../../src/parse/_result.ts";
import { readSitemapIndexBytes } from "../../src/parse/_sitemapindex_bytes.ts";
import { readUrlsetBytes } from "../../src/parse/_urlset_bytes.ts";
import { readCoreUrlsetBytes } from "../../src/parse/_urlset_core_bytes.ts";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import type { Rng } from "./_xml_gen.ts";
import { BASE, extrasJson, rows } from "./_unpack.ts";

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
    extras: extrasJson(result.pages),
  };
}

/** What reading one document both ways showed. */
export interface Comparison {
  /** The byte-level reader of every shape accepted the document. */
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
  // Each byte-level reader on its own: the plain one, then the one for every shape.
  const base = URL.parse(url);
  const plainShape = readCoreUrlsetBytes(bytes, base, since);
  const anyShape = readUrlsetBytes(bytes, base, since) ?? readSitemapIndexBytes(bytes, base);
  for (const [name, fast] of [["plain-shape", plainShape], ["byte-level", anyShape]] as const) {
    if (fast === null) continue;
    const fastPlain = plain(fast);
    if (!isDeepStrictEqual(fastPlain, general)) {
      return {
        taken: true,
        problem: `${name} ${JSON.stringify(fastPlain)} != general ${JSON.stringify(general)}`,
      };
    }
  }
  return { taken: anyShape !== null, problem: null };
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
      // Not URL references (RFC 3986 section 4.2), and references that look like them.
      "httр://www.example.com/cyrillic-r",
      "www.example.com\\2131.htm",
      "htt&#x440;://www.example.com/by-ref",
      "a&#x2F;b:c",
      "./a:b",
      "/a:b",
      "https://www.example.com\\p\\1",
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

const PREFIXES = [
  { sm: "", image: "image:", news: "news:", video: "video:", xhtml: "xhtml:" },
  { sm: "sm:", image: "i:", news: "n:", video: "v:", xhtml: "x:" },
  { sm: "", image: "", news: "", video: "", xhtml: "" },
] as const;

/** Text values for extension fields, with the forms that take the split-field path. */
const EXTENSION_TEXT = [
  "Plain title",
  "  spaced  ",
  "Caf\u00e9 &amp; cr\u00e8me",
  "<![CDATA[ In CDATA & raw ]]>",
  "a<!-- c -->b",
  "x <![CDATA[y]]> z",
  "&#x2019;quoted&#39;",
  "&#32;",
  "  <![CDATA[]]>  ",
  "line\r\nbreak",
  "one, two,, three",
  "",
  "yes",
  "No",
  "12.5",
  "2024-05-01T10:00:00Z",
  "https://cdn.example.com/i.jpg?a=1&amp;b=2",
  "https://cdn.example.com/i.jpg?a=1&amp;amp;b&amp;",
  " https://cdn.example.com/%7Ei.jpg?q=&lt;x&gt;&amp; ",
  "https://cdn.example.com/./i.jpg?v=1&amp;w=2#top",
  "/relative/img.png",
  "cdn.example.com\\i.png",
  "HTTPS://CDN.Example.com:443/caf\u00e9 x.jpg?q=&#50;",
  "https://b\u00fccher.example/i.jpg",
  "http://127.0.0.1/a/../i.jpg",
  "mailto:x@example.com",
  "https://例え.jp/画像.png",
];

const NEWS_NAMES = ["publication_date", "title", "access", "genres", "keywords", "stock_tickers"];
const IMAGE_NAMES = ["loc", "caption", "geo_location", "title", "license", "other"];
const VIDEO_NAMES = [
  "thumbnail_loc",
  "title",
  "description",
  "content_loc",
  "player_loc",
  "duration",
  "expiration_date",
  "rating",
  "view_count",
  "publication_date",
  "family_friendly",
  "requires_subscription",
  "live",
  "uploader",
  "tag",
  "category",
];

/**
 * A random urlset of every shape the byte-level reader takes: namespace
 * prefixes (or none), core fields from {@linkcode EDGE_VALUES}, image, video
 * and news blocks, `xhtml:link` alternates with odd attributes, CDATA,
 * comments, references, self-closing and unknown elements, CRLF.
 *
 * @param random The generator to draw from.
 * @returns The document.
 */
export function randomUrlset(random: Rng): string {
  const p = random.pick(PREFIXES);
  const nl = random.pick(["", "\n", "\r\n", "\n\t\t"]);
  const el = (prefix: string, name: string, text: string): string =>
    random.int(20) === 0
      ? `<${prefix}${name}/>`
      : `<${prefix}${name}>${text}</${prefix}${name}${random.int(10) === 0 ? " " : ""}>`;
  const entries: string[] = [];
  for (let e = 0; e < 1 + random.int(10); e++) {
    const parts: string[] = [];
    for (let f = 0; f < random.int(8); f++) {
      const kind = random.int(10);
      if (kind < 4) {
        const name = random.pick(["loc", "loc", "lastmod", "priority", "changefreq"] as const);
        let value = random.pick(EDGE_VALUES[name]);
        if (random.int(6) === 0) value = `<![CDATA[${value.replaceAll("&amp;", "&")}]]>`;
        else if (random.int(8) === 0) value = `<!-- x -->${value}`;
        parts.push(el(random.int(8) === 0 ? "" : p.sm, name, value));
      } else if (kind === 4) {
        const fields = [];
        for (let k = 0; k < random.int(4); k++) {
          fields.push(el(p.image, random.pick(IMAGE_NAMES), random.pick(EXTENSION_TEXT)));
        }
        parts.push(`<${p.image}image>${fields.join(nl)}</${p.image}image>`);
      } else if (kind === 5) {
        const fields = [];
        for (let k = 0; k < random.int(5); k++) {
          fields.push(el(p.video, random.pick(VIDEO_NAMES), random.pick(EXTENSION_TEXT)));
        }
        parts.push(`<${p.video}video>${fields.join(nl)}</${p.video}video>`);
      } else if (kind === 6) {
        const fields = [];
        if (random.chance(0.7)) {
          fields.push(
            `<${p.news}publication>${el(p.news, "name", random.pick(EXTENSION_TEXT))}${
              el(p.news, "language", random.pick(["en", " fr ", ""]))
            }</${p.news}publication>`,
          );
        }
        for (let k = 0; k < random.int(4); k++) {
          fields.push(el(p.news, random.pick(NEWS_NAMES), random.pick(EXTENSION_TEXT)));
        }
        parts.push(`<${p.news}news>${fields.join(nl)}</${p.news}news>`);
      } else if (kind === 7) {
        const rel = random.pick(['rel="alternate"', "rel='ALTERNATE '", 'rel="canonical"', ""]);
        const lang = random.pick(['hreflang="fr"', 'hreflang=" de-AT "', 'hreflang=""', ""]);
        const href = random.pick([
          'href="https://www.example.com/fr"',
          "href='/de?a=1&amp;b=2'",
          'href="https://www.example.com/\tx\ny"',
          'href="HTTP://WWW.Example.com:80/caf\u00e9?q=&#50;"',
          "href=https://www.example.com/unquoted",
          "",
        ]);
        const attrs = [rel, lang, href];
        if (random.chance(0.3)) attrs.reverse();
        parts.push(`<${p.xhtml}link ${attrs.join(random.pick([" ", "\n  "]))}/>`);
      } else if (kind === 8) {
        parts.push(
          random.pick(["<!-- note -->", "<?pi x?>", "<mobile:mobile/>", "<extra>t</extra>"]),
        );
      } else {
        parts.push(random.pick(["  ", "\r\n", "stray text", "&amp;"]));
      }
    }
    entries.push(`<${p.sm}url>${nl}${parts.join(nl)}${nl}</${p.sm}url>`);
  }
  const root = `${p.sm}urlset`;
  const decls = (p.sm === "" ? ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"' : "") +
    (p.sm === "sm:" ? ' xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"' : "") +
    (p.image === "" ? "" : ` xmlns:${p.image.slice(0, -1)}="${IMAGE_NS}"`) +
    (p.video === "" ? "" : ` xmlns:${p.video.slice(0, -1)}="${VIDEO_NS}"`) +
    (p.news === "" ? "" : ` xmlns:${p.news.slice(0, -1)}="${NEWS_NS}"`) +
    (p.xhtml === "" ? "" : ` xmlns:${p.xhtml.slice(0, -1)}="${XHTML_NS}"`);
  return `<?xml version="1.0" encoding="UTF-8"?>${nl}<${root}${decls}>${nl}${
    entries.join(nl)
  }${nl}</${root}>${nl}`;
}

/**
 * A random sitemap index, with prefixes, CDATA, comments and odd values.
 *
 * @param random The generator to draw from.
 * @returns The document.
 */
export function randomSitemapIndex(random: Rng): string {
  const sm = random.pick(["", "s:"]);
  const entries: string[] = [];
  for (let e = 0; e < random.int(8); e++) {
    const loc = random.pick([
      ...EDGE_VALUES.loc,
      "<![CDATA[https://www.example.com/s1.xml]]>",
      "https://www.example.com/s1.xml#frag",
    ]);
    const lastmod = random.pick(EDGE_VALUES.lastmod);
    const parts = [`<${sm}loc>${loc}</${sm}loc>`, `<${sm}lastmod>${lastmod}</${sm}lastmod>`];
    if (random.chance(0.3)) parts.reverse();
    if (random.chance(0.2)) parts.push("<!-- c --><other>x</other>");
    entries.push(`<${sm}sitemap>\n  ${parts.join("\n  ")}\n</${sm}sitemap>`);
  }
  const decl = sm === ""
    ? ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    : ' xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"';
  return `<?xml version="1.0"?>\n<${sm}sitemapindex${decl}>\n${
    entries.join("\n")
  }\n</${sm}sitemapindex>\n`;
}
