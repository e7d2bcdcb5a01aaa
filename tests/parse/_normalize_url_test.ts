import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import {
  DECLINE,
  KEEP_FRAGMENT,
  normalBase,
  normalizedRoom,
  normalizeUrl,
  normalizeUrlBytes,
  NOT_HTTP,
  RAW_XML,
} from "../../src/parse/_normalize_url.ts";
import { decodeRawText } from "../../src/parse/_pack.ts";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import { parseBase, resolvePageUrl, resolveSitemapUrl } from "../../src/parse/_url.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";
import { checkDocument, checkSeed, fuzzCounts } from "./_url_fuzz.ts";
import { urls } from "./_unpack.ts";

const SITEMAP = "https://www.example.com/dir/sitemap.xml";
const base = parseBase(SITEMAP);
const nb = normalBase(base);

/** Every form the normaliser handles itself, with the WHATWG result written out. */
const FORMS: readonly [string, string][] = [
  ["HTTPS://WWW.Example.COM/a", "https://www.example.com/a"],
  ["https://www.example.com:443/a", "https://www.example.com/a"],
  ["http://www.example.com:0080/a", "http://www.example.com/a"],
  ["https://www.example.com:8443/a", "https://www.example.com:8443/a"],
  ["https://www.example.com:/a", "https://www.example.com/a"],
  ["http://127.0.0.1/a", "http://127.0.0.1/a"],
  ["http://10.0.0.255:8080", "http://10.0.0.255:8080/"],
  ["http://[2001:DB8:0:0:0:0:0:1]:8080/a", "http://[2001:db8::1]:8080/a"],
  ["https://[::]:443", "https://[::]/"],
  ["http://[0:0:1:0:0:0:0:0]/a", "http://[0:0:1::]/a"],
  ["http://[1:0:0:2:0:0:0:3]/a", "http://[1:0:0:2::3]/a"],
  ["http://[1:2:3:4:5:6::7]/a", "http://[1:2:3:4:5:6:0:7]/a"],
  [
    "https://www.example.com/été/café 1.html",
    "https://www.example.com/%C3%A9t%C3%A9/caf%C3%A9%201.html",
  ],
  [
    "https://www.example.com/a?q=é x&r='`#é x`",
    "https://www.example.com/a?q=%C3%A9%20x&r=%27`#%C3%A9%20x%60",
  ],
  ["https://www.example.com/a/./b/../c/%2e%2E/d", "https://www.example.com/a/d"],
  ["https://www.example.com/a/b/..", "https://www.example.com/a/"],
  ["https://www.example.com/../../x", "https://www.example.com/x"],
  ["https:\\\\www.example.com\\a\\b", "https://www.example.com/a/b"],
  ["https://www.exa\tmple.com/a\n/b\r", "https://www.example.com/a/b"],
  ["https://www.example.com/a#top", "https://www.example.com/a#top"],
  ["https://www.example.com/{x}|%zz", "https://www.example.com/%7Bx%7D|%zz"],
  ["/root/p?x=1", "https://www.example.com/root/p?x=1"],
  ["page.html", "https://www.example.com/dir/page.html"],
  ["../up.html", "https://www.example.com/up.html"],
  ["//cdn.example.com/x", "https://cdn.example.com/x"],
  ["?q=2", "https://www.example.com/dir/sitemap.xml?q=2"],
];

Deno.test("normalizeUrl() gives the WHATWG href for each non-canonical form, without URL.parse", () => {
  for (const [value, href] of FORMS) {
    equal(normalizeUrl(value, nb, KEEP_FRAGMENT), href, value);
    equal(URL.parse(value, SITEMAP)?.href, href, value);
  }
});

Deno.test("normalizeUrl() writes an IDN host as URL.parse gives it, and declines one it refuses or that grows too long", () => {
  const forms: [string, string][] = [
    ["https://bücher.example/a", "https://xn--bcher-kva.example/a"],
    ["HTTPS://BÜCHER.Example:443/a?q=1", "https://xn--bcher-kva.example/a?q=1"],
    ["https://xn--bcher-kva.example/a", "https://xn--bcher-kva.example/a"],
    ["http://例え.jp:8080", "http://xn--r8jz45g.jp:8080/"],
  ];
  for (const [value, href] of forms) {
    equal(normalizeUrl(value, nb, KEEP_FRAGMENT), href, value);
    equal(URL.parse(value)?.href, href, value);
  }
  // Bad Punycode: what this runtime's parser makes of it (runtimes differ), declined when it refuses.
  const punycode = "https://xn--zz.com/a";
  equal(normalizeUrl(punycode, nb, KEEP_FRAGMENT), URL.parse(punycode)?.href ?? undefined);
  // U+FDFA maps to 18 characters: past the room for its bytes, left to the parser.
  equal(normalizeUrl("https://ﷺ.com/a", nb, KEEP_FRAGMENT), undefined);
});

Deno.test("normalizeUrl() declines what URL.parse must settle: user info, odd IPv4 and IPv6", () => {
  const declined = [
    "https://user:pw@www.example.com/a",
    "http://[::ffff:1.2.3.4]/a",
    "http://[fe80::1%25eth0]/a",
    "http://[1::2::3]/a",
    "http://[1:2:3:4:5:6:7]/a",
    "http://[::1]x/a",
    "http://0x7f.0.0.1/a",
    "http://127.1/a",
    "http://010.0.0.1/a",
    "http://1.2.3.4./a",
    "https://www.example.com:99999/a",
    "https:///www.example.com/a",
    "https://www.example.com/a^b",
  ];
  for (const value of declined) equal(normalizeUrl(value, nb, KEEP_FRAGMENT), undefined, value);
  equal(resolvePageUrl("http://0x7f.0.0.1/a", base), "http://127.0.0.1/a");
  equal(resolvePageUrl("http://256.0.0.1/a", base), null);
});

Deno.test("resolveSitemapUrl() drops the fragment on the fast path too", () => {
  equal(
    resolveSitemapUrl("HTTPS://WWW.Example.COM/s.xml#x", base),
    "https://www.example.com/s.xml",
  );
  equal(resolveSitemapUrl("sub.xml#frag", base), "https://www.example.com/dir/sub.xml");
});

Deno.test("the differential URL fuzzer finds no difference from URL.parse (200,000 seeds)", () => {
  const counts = fuzzCounts();
  const failures: string[] = [];
  for (let seed = 0; seed < 200_000; seed++) {
    const problem = checkSeed(seed, counts);
    if (problem !== null && failures.length < 5) failures.push(`seed ${seed}: ${problem}`);
  }
  deepStrictEqual(failures, []);
  equal(counts.urls, 200_000);
});

Deno.test("the page builder's byte paths give the fuzzer's URLs exactly, in 60 urlsets by both readers", () => {
  const counts = fuzzCounts();
  const failures: string[] = [];
  for (let d = 0; d < 60; d++) {
    const seeds = Array.from({ length: 500 }, (_, k) => 1_000_000 + d * 500 + k);
    const problem = checkDocument(seeds, counts);
    if (problem !== null) failures.push(problem);
  }
  deepStrictEqual(failures, []);
  equal(counts.checks, 120);
});

function pagesOf(xml: string): string[] {
  const node = sitemapFromString(xml, { url: "https://example.com/sitemap.xml" });
  return node.pages.map((p) => p.url);
}

function urlset(...locs: string[]): string {
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
    locs.map((l) => `<url><loc>${l}</loc></url>`).join("")
  }</urlset>`;
}

Deno.test("a <loc> of prose or markup never becomes a URL on the site's host, with a warning", () => {
  const xml = urlset(
    "not a url",
    "https://example.com/kept",
    "&lt;a href=&quot;https://example.com/x&quot;&gt;x&lt;/a&gt;",
    "/relative path",
    "see https://example.com/y",
  );
  deepStrictEqual(pagesOf(xml), ["https://example.com/kept"]);
  const result = parseSitemap(new TextEncoder().encode(xml), {
    url: "https://example.com/sitemap.xml",
  });
  equal(
    result.kind === "pages" ? result.warning : result.kind,
    'Dropped 4 values that are not a URL (prose, markup or malformed), the first: "not a url"',
  );
});

Deno.test("an absolute http(s) <loc> with raw spaces, non-ASCII, quotes or brackets is kept, percent-encoded the WHATWG way", () => {
  const xml = urlset(
    "https://example.com/a b/c d.html",
    "https://example.com/été?q=café crème",
    "/relative-without-space",
    "https://EXAMPLE.com:443/p?a=1&amp;b=2#frag",
    "https://example.com/episode/on-&quot;who-is&quot;",
    "http://example.com/&amp;&gt;&lt;&apos;&quot;/",
  );
  deepStrictEqual(pagesOf(xml), [
    "https://example.com/a%20b/c%20d.html",
    "https://example.com/%C3%A9t%C3%A9?q=caf%C3%A9%20cr%C3%A8me",
    "https://example.com/relative-without-space",
    "https://example.com/p?a=1&b=2#frag",
    "https://example.com/episode/on-%22who-is%22",
    "http://example.com/&%3E%3C'%22/",
  ]);
  const result = parseSitemap(new TextEncoder().encode(xml), {
    url: "https://example.com/sitemap.xml",
  });
  equal(result.kind === "pages" ? result.warning : result.kind, null);
});

Deno.test("a feed link holding escaped markup is dropped with a warning", () => {
  const rss = `<rss version="2.0"><channel><title>t</title>
<item><title>a</title><link>&lt;a href="https://example.com/p"&gt;p&lt;/a&gt;</link></item>
<item><title>b</title><link>https://example.com/ok</link></item>
</channel></rss>`;
  const node = sitemapFromString(rss, { url: "https://example.com/feed.xml" });
  deepStrictEqual(node.pages.map((p) => p.url), ["https://example.com/ok"]);
  const result = parseSitemap(new TextEncoder().encode(rss), {
    url: "https://example.com/feed.xml",
  });
  equal(
    result.kind === "pages" ? result.warning : result.kind,
    'Dropped 1 value that is not a URL (prose, markup or malformed), the first: "<a href=\\"https://example.com/p\\">p</a>"',
  );
});

Deno.test("a sitemapindex <loc> of prose is dropped with a warning; odd forms of real URLs are normalised", () => {
  const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>no sitemap here</loc></sitemap>
<sitemap><loc>HTTPS://Example.COM:443/a.xml#x</loc></sitemap>
<sitemap><loc>b.xml</loc></sitemap>
</sitemapindex>`;
  const result = parseSitemap(new TextEncoder().encode(xml), {
    url: "https://example.com/index.xml",
  });
  if (result.kind !== "index") throw new Error(result.kind);
  deepStrictEqual(result.children.map((c) => c.url), [
    "https://example.com/a.xml",
    "https://example.com/b.xml",
  ]);
  equal(
    result.warning,
    'Dropped 1 value that is not a URL (prose, markup or malformed), the first: "no sitemap here"',
  );
});

Deno.test("a text sitemap's URL lines are normalised; its other lines skipped, as the format says", () => {
  const text =
    "HTTPS://Example.COM/a b\nsee our other pages\n\nhttp://127.0.0.1:80/x\nftp://example.com/f\n";
  const result = parseSitemap(new TextEncoder().encode(text), {
    url: "https://example.com/sitemap.txt",
  });
  if (result.kind !== "pages") throw new Error(result.kind);
  deepStrictEqual(urls(result.pages), ["https://example.com/a%20b", "http://127.0.0.1/x"]);
  equal(result.warning, null);
});

/** The normaliser on a `<loc>`'s raw XML bytes, as the page builder calls it. */
function rawXml(text: string): string | null | undefined {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(normalizedRoom(bytes.length, nb));
  const end = normalizeUrlBytes(bytes, 0, bytes.length, out, 0, nb, RAW_XML | KEEP_FRAGMENT);
  if (end === DECLINE) return undefined;
  if (end === NOT_HTTP) return null;
  return new TextDecoder().decode(out.subarray(0, end));
}

/** What the tokenizer's decoding then URL.parse make of raw `<loc>` text. */
function slowPath(text: string): string | null {
  const bytes = new TextEncoder().encode(text);
  return resolvePageUrl(decodeRawText(bytes, 0, bytes.length), base);
}

/** Character references in raw XML, with the WHATWG result written out. */
const CHAR_REFS: readonly [string, string][] = [
  // Read in place: ASCII by the part's percent-encode set, non-ASCII as UTF-8.
  [
    "https://www.example.com/search?q=1&amp;page=2&#38;s=&#x61;",
    "https://www.example.com/search?q=1&page=2&s=a",
  ],
  [
    "https://www.example.com/caf&#233;/&#x65E5;?q=&#128512;#&#xE9;x",
    "https://www.example.com/caf%C3%A9/%E6%97%A5?q=%F0%9F%98%80#%C3%A9x",
  ],
  ["https://www.example.com/a&#32;b/&#60;x&#x3E;&#34;", "https://www.example.com/a%20b/%3Cx%3E%22"],
  [
    "https://www.example.com/p?a=&#0039;&#x60;#&#96;&#x7b;",
    "https://www.example.com/p?a=%27`#%60{",
  ],
  ["https://www.example.com/&#x25;41/&#46;&#x2E;/b&#x2f;", "https://www.example.com/b/"],
  ["https://www.example.com/p?a=&#47;&#63;&#x5C;", "https://www.example.com/p?a=/?\\"],
  ["https://www.example.com/p&#x1;q", "https://www.example.com/p%01q"],
  ["https://www.example.com/&#x26;amp;", "https://www.example.com/&amp;"],
  // Decoded first: they separate parts, or the value is relative.
  ["https://www.example.com/a&#47;b/&#92;../c", "https://www.example.com/a/b/c"],
  ["https://www.example.com/p?x=&#35;y", "https://www.example.com/p?x=#y"],
  ["https://www.example.com/a&#9;b&#x0A;c", "https://www.example.com/abc"],
  ["caf&#233;.html?q=&#38;", "https://www.example.com/dir/caf%C3%A9.html?q=&"],
  ["&#104;ttps://WWW.example.com&#58;443/x", "https://www.example.com/x"],
];

Deno.test("raw XML character references are read by the byte normaliser, as decoding then URL.parse reads them", () => {
  for (const [text, href] of CHAR_REFS) {
    equal(rawXml(text), href, text);
    equal(slowPath(text), href, text);
  }
});

Deno.test("invalid or edge character references are declined to the slow path, which decides them as before", () => {
  const cases: readonly [string, string | null][] = [
    // Invalid: the tokenizer makes them U+FFFD.
    ["https://www.example.com/a&#0;", "https://www.example.com/a%EF%BF%BD"],
    ["https://www.example.com/a&#xD800;b", "https://www.example.com/a%EF%BF%BDb"],
    ["https://www.example.com/a&#x110000;b", "https://www.example.com/a%EF%BF%BDb"],
    ["https://www.example.com/a&#99999999999999999999;b", "https://www.example.com/a%EF%BF%BDb"],
    // Not references: left as written, so `#` starts the fragment.
    ["https://www.example.com/a&#65b", "https://www.example.com/a&#65b"],
    ["https://www.example.com/a&#X41;b", "https://www.example.com/a&#X41;b"],
    ["https://www.example.com/a&#;b", "https://www.example.com/a&#;b"],
    ["https://www.example.com/a&#x;b", "https://www.example.com/a&#x;b"],
    // Whitespace at an edge, which the trim takes.
    ["https://www.example.com/a&#32;", "https://www.example.com/a"],
    ["https://www.example.com/a \n&#160;", "https://www.example.com/a"],
    ["&#9;/b", "https://www.example.com/b"],
    ["https://www.example.com/a&#x1;", "https://www.example.com/a"],
    // Non-ASCII at the end: it might be a space that trim() takes.
    ["https://www.example.com/caf&#233;", "https://www.example.com/caf%C3%A9"],
  ];
  for (const [text, href] of cases) {
    equal(rawXml(text), undefined, text);
    equal(slowPath(text), href, text);
  }
  // Whitespace inside a relative value: prose, settled in bytes
  // (docs/design.md#values-that-are-not-urls).
  equal(rawXml("a&#32;b"), null);
  equal(slowPath("a&#32;b"), null);
});

Deno.test("a urlset's <loc>s with character references give the same pages by both readers", () => {
  const locs = [...CHAR_REFS.map(([text]) => text), "https://www.example.com/a&#0;", "a&#32;b"];
  const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
    locs.map((l) => `<url><loc>${l}</loc></url>\n`).join("")
  }</urlset>`;
  const want = [
    ...CHAR_REFS.map(([, href]) => href).filter((h, i, all) => all.indexOf(h) === i),
    "https://www.example.com/a%EF%BF%BD",
  ];
  const bytes = new TextEncoder().encode(xml);
  for (const parse of [parseSitemap, parseSitemapGeneral]) {
    const result = parse(bytes, { url: SITEMAP });
    if (result.kind !== "pages") throw new Error(result.kind);
    deepStrictEqual(urls(result.pages), want, parse.name);
  }
});

Deno.test("a non-canonical <loc> in one CDATA section is normalised from its bytes, as the general reader resolves it", () => {
  const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc><![CDATA[HTTPS://WWW.Example.COM:443/a b?x=1&y=é#&amp;]]></loc></url>
<url><loc> <![CDATA[rel/pa th]]> </loc></url>
<url><loc><![CDATA[https://www.example.com/c\r\nd/./e]]></loc></url>
<url><loc><![CDATA[../up&#38;.html]]></loc></url>
<url><loc><![CDATA[https://bücher.example/x]]></loc></url>
</urlset>`;
  const bytes = new TextEncoder().encode(xml);
  for (const parse of [parseSitemap, parseSitemapGeneral]) {
    const result = parse(bytes, { url: SITEMAP });
    if (result.kind !== "pages") throw new Error(result.kind);
    deepStrictEqual(urls(result.pages), [
      "https://www.example.com/a%20b?x=1&y=%C3%A9#&amp;",
      "https://www.example.com/cd/e",
      "https://www.example.com/up&#38;.html",
      "https://xn--bcher-kva.example/x",
    ], parse.name);
    equal(
      result.warning,
      'Dropped 1 value that is not a URL (prose, markup or malformed), the first: "rel/pa th"',
      parse.name,
    );
  }
});
