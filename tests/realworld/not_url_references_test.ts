/**
 * Two shapes found in real public sitemaps that only look like relative
 * references (issue 19, item 6), in small written fixtures of every format:
 * a scheme with a Cyrillic `р` (`httр://host/sitemap.xml`, in a robots.txt
 * `Sitemap:` line and in `<loc>`s), and a site that lists each page twice,
 * once as `http://host/2131.htm` and once as the Windows path
 * `host.example\2131.htm`. Neither may become a URL on the document's own
 * host (RFC 3986 section 4.2): each is dropped with the document's not-a-URL
 * warning, by the byte-level readers and the general ones alike, while
 * absolute URLs (a `\` in one included) and the references `./a:b` and
 * `/a:b` stay. The real documents, in the second corpus, are read too when
 * it is there.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../_assert.ts";
import type { ParseResult } from "../../src/parse/_result.ts";
import { readSitemapIndexBytes } from "../../src/parse/_sitemapindex_bytes.ts";
import { readUrlsetBytes } from "../../src/parse/_urlset_bytes.ts";
import { readCoreUrlsetBytes } from "../../src/parse/_urlset_core_bytes.ts";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";
import { sitemapTreeForHomepage } from "../../src/sitemap_tree.ts";
import { FixtureSite, outline, withSite } from "../_tree_helpers.ts";
import { urls } from "../parse/_unpack.ts";

const encoder = new TextEncoder();
const DIR = "https://example.com/dir/";
/** The scheme `httр` with U+0440 CYRILLIC SMALL LETTER ER for its `p`. */
const CYRILLIC = "htt\u0440";

function warned(n: number, first: string): string {
  const values = n === 1 ? "value that is" : "values that are";
  return `Dropped ${n} ${values} not a URL (prose, markup or malformed), the first: ${
    JSON.stringify(first)
  }`;
}

/** The URLs a result lists (pages or children) and its warning. */
function outcome(result: ParseResult): { urls: string[]; warning: string | null } {
  if (result.kind === "pages") return { urls: urls(result.pages), warning: result.warning };
  if (result.kind === "index") {
    return { urls: result.children.map((c) => c.url), warning: result.warning };
  }
  return { urls: [], warning: `invalid: ${result.reason}` };
}

/**
 * Reads `doc` with `parseSitemap()` (the byte-level readers where they take
 * the document) and the general path, asserting both give `want`; returns
 * the byte-level result.
 */
function readBothWays(
  doc: string,
  url: string,
  want: { urls: string[]; warning: string | null },
): ParseResult {
  const bytes = encoder.encode(doc);
  const robots = url.endsWith("/robots.txt");
  const fast = parseSitemap(bytes, { url, robots });
  assertEquals(outcome(fast), want, `parseSitemap() of ${url}`);
  assertEquals(outcome(parseSitemapGeneral(bytes, { url, robots })), want, `general ${url}`);
  return fast;
}

const URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';

/** Each page listed twice, as the real site does, then the look-alikes' neighbours that stay. */
const LOCS = [
  "http://host.example/2131.htm",
  "host.example\\2131.htm",
  "http://host.example/2chainz1.htm",
  "host.example\\2chainz1.htm",
  `${CYRILLIC}://host.example/cyrillic.htm`,
  // The same Cyrillic letter as a character reference.
  "htt&#x440;://host.example/by-reference.htm",
  "./a:b",
  "/a:b",
  // An absolute URL is a URL: its `\` is a `/`, as the WHATWG parser reads it.
  "https://host.example\\p\\q.htm",
];
const LOC_PAGES = [
  "http://host.example/2131.htm",
  "http://host.example/2chainz1.htm",
  "https://example.com/dir/a:b",
  "https://example.com/a:b",
  "https://host.example/p/q.htm",
];
const LOC_WARNING = warned(4, "host.example\\2131.htm");

/** A page, its Windows-path double and a Cyrillic-scheme link, for the line and feed formats. */
const LINKS = [
  "http://host.example/2131.htm",
  "host.example\\2131.htm",
  `${CYRILLIC}://host.example/cyrillic.htm`,
];

Deno.test("a robots.txt Sitemap: line with a Cyrillic scheme or a backslash names no sitemap, with a warning", () => {
  const robots = [
    "User-agent: *",
    `Sitemap: ${CYRILLIC}://host.example/sitemap.xml`,
    "Sitemap: host.example\\sitemap.xml",
    "Sitemap: http://host.example/sitemap.xml",
    "Sitemap: /a:b.xml",
    "",
  ].join("\n");
  readBothWays(robots, "https://example.com/robots.txt", {
    urls: ["http://host.example/sitemap.xml", "https://example.com/a:b.xml"],
    warning: warned(2, `${CYRILLIC}://host.example/sitemap.xml`),
  });
});

Deno.test("a plain urlset's look-alike <loc>s are dropped with a warning by the plain byte reader and the general one", () => {
  const doc = `<?xml version="1.0" encoding="UTF-8"?>\n${URLSET}>\n${
    LOCS.map((l) => `<url><loc>${l}</loc><lastmod>2025-12-29</lastmod></url>`).join("\n")
  }\n</urlset>\n`;
  readBothWays(doc, `${DIR}sitemap.xml`, { urls: LOC_PAGES, warning: LOC_WARNING });
  const plain = readCoreUrlsetBytes(encoder.encode(doc), URL.parse(`${DIR}sitemap.xml`), NaN);
  assert(plain !== null, "the plain-shape reader took the document");
  assertEquals(outcome(plain), { urls: LOC_PAGES, warning: LOC_WARNING });
});

Deno.test("an extension urlset's look-alike <loc>s (CDATA too) are dropped with a warning by the byte reader and the general one", () => {
  const cdata = (l: string) => l.includes("&") ? l : `<![CDATA[${l}]]>`;
  const doc = `<?xml version="1.0" encoding="UTF-8"?>\n${URLSET} ${IMAGE}>\n${
    LOCS.map((l, i) =>
      `<url><loc>${
        i % 2 === 0 ? l : cdata(l)
      }</loc><image:image><image:loc>https://cdn.example/${i}.jpg</image:loc></image:image></url>`
    ).join("\n")
  }\n</urlset>\n`;
  const url = `${DIR}sitemap.xml`;
  readBothWays(doc, url, { urls: LOC_PAGES, warning: LOC_WARNING });
  const bytes = readUrlsetBytes(encoder.encode(doc), URL.parse(url), NaN);
  assert(bytes !== null, "the byte-level urlset reader took the document");
  assertEquals(outcome(bytes), { urls: LOC_PAGES, warning: LOC_WARNING });
});

Deno.test("a sitemap index's look-alike <loc>s name no child, with a warning, in both readers", () => {
  const doc =
    `<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      [
        "http://host.example/s1.xml",
        "host.example\\s1.xml",
        `${CYRILLIC}://host.example/s2.xml`,
        "./s:3.xml",
      ].map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("\n")
    }\n</sitemapindex>\n`;
  const url = `${DIR}index.xml`;
  const want = {
    urls: ["http://host.example/s1.xml", "https://example.com/dir/s:3.xml"],
    warning: warned(2, "host.example\\s1.xml"),
  };
  readBothWays(doc, url, want);
  const bytes = readSitemapIndexBytes(encoder.encode(doc), URL.parse(url));
  assert(bytes !== null, "the byte-level index reader took the document");
  assertEquals(outcome(bytes), want);
});

Deno.test("a text sitemap keeps only absolute URLs: the look-alike lines are skipped like any other line", () => {
  const text = [...LINKS, "https://host.example\\p\\q.htm", ""].join("\n");
  readBothWays(text, `${DIR}sitemap.txt`, {
    urls: ["http://host.example/2131.htm", "https://host.example/p/q.htm"],
    warning: null,
  });
});

Deno.test("RSS 2.0 and RSS 1.0 item links that only look relative are dropped with a warning", () => {
  const links = [...LINKS, "./a:b"];
  const want = {
    urls: ["http://host.example/2131.htm", "https://example.com/dir/a:b"],
    warning: warned(2, "host.example\\2131.htm"),
  };
  const rss2 = `<rss version="2.0"><channel><title>t</title>${
    links.map((l) => `<item><title>x</title><link>${l}</link></item>`).join("")
  }</channel></rss>`;
  readBothWays(rss2, `${DIR}feed.xml`, want);
  const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ` +
    `xmlns="http://purl.org/rss/1.0/"><channel rdf:about="x"><title>t</title></channel>${
      links.map((l) => `<item rdf:about="x"><title>x</title><link>${l}</link></item>`).join("")
    }</rdf:RDF>`;
  readBothWays(rdf, `${DIR}index.rdf`, want);
});

Deno.test("an Atom link or xml:base that only looks relative is dropped with a warning; the outer base stays", () => {
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="${CYRILLIC}://host.example/">` +
    `<entry><link href="a.htm"/></entry>` +
    `<entry xml:base="host.example\\dir\\"><link href="b.htm"/></entry>` +
    `<entry xml:base="http://host.example/"><link href="c.htm"/></entry>` +
    `<entry><link href="host.example\\2131.htm"/></entry>` +
    `</feed>`;
  readBothWays(atom, `${DIR}atom.xml`, {
    urls: [
      "https://example.com/dir/a.htm",
      "https://example.com/dir/b.htm",
      "http://host.example/c.htm",
    ],
    warning: warned(3, `${CYRILLIC}://host.example/`),
  });
});

Deno.test("sitemapTreeForHomepage() fetches no phantom sitemap and lists no phantom page for either shape", async () => {
  const site = new FixtureSite()
    .file(
      "/robots.txt",
      `Sitemap: ${CYRILLIC}://host.example/sitemap.xml\nSitemap: /sitemap.xml\n`,
    )
    .file(
      "/sitemap.xml",
      (origin) =>
        `${URLSET}><url><loc>${origin}/2131.htm</loc></url>` +
        `<url><loc>${new URL(origin).host}\\2131.htm</loc></url></urlset>`,
    );
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      workers: 0,
      useKnownPaths: false,
      useFeeds: false,
      timeoutMs: 2_000,
    });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    urlset /sitemap.xml",
      "      - /2131.htm",
    ]);
    assertEquals(site.log.map((r) => r.path), ["/robots.txt", "/sitemap.xml"]);
    assertEquals(tree.stats.warnings.map((w) => [w.url.slice(server.origin.length), w.warning]), [
      ["/robots.txt", warned(1, `${CYRILLIC}://host.example/sitemap.xml`)],
      ["/sitemap.xml", warned(1, `${new URL(server.origin).host}\\2131.htm`)],
    ]);
  });
});

/** The second real-world corpus, beside the project (never copied in). */
const CORPUS2 = fileURLToPath(new URL("../../../shared/realworld2/corpus/", import.meta.url));
const PLANETKY = `${CORPUS2}jp-planetky/sitemap.xml`;
const FILMI21 = `${CORPUS2}gz-filmi21/robots.txt`;
const CORPUS2_PRESENT = existsSync(PLANETKY) && existsSync(FILMI21);
if (!CORPUS2_PRESENT) {
  console.log(`not_url_references_test: real documents skipped, not at ${CORPUS2}`);
}

Deno.test({
  name:
    "the real documents: planetky's 1,260 Windows-path <loc>s and filmi21's Cyrillic Sitemap: line add nothing",
  ignore: !CORPUS2_PRESENT,
  fn: () => {
    const sitemap = readFileSync(PLANETKY);
    const url = "https://example.com/sitemap.xml";
    const pages = sitemapFromString(sitemap, { url }).pages.map((p) => p.url);
    assertEquals(pages.length, 1398);
    assertEquals(pages.filter((p) => !p.startsWith("http://bm.planetky.com/")), []);
    const general = outcome(parseSitemapGeneral(sitemap, { url }));
    assertEquals(general.urls, pages);
    assertEquals(general.warning, warned(1260, "planetky.com\\index.html"));
    const robots = readFileSync(FILMI21);
    const read = parseSitemap(robots, { url: "https://example.com/robots.txt", robots: true });
    assertEquals(outcome(read), {
      urls: [],
      warning: warned(1, `${CYRILLIC}://filmi21.ru/sitemap.xml`),
    });
  },
});
