import { strictEqual as equal } from "node:assert/strict";
import { KEEP_FRAGMENT, normalBase, normalizeUrl } from "../../src/parse/_normalize_url.ts";
import {
  isNotUrl,
  isNotUrlReference,
  NotUrlCounter,
  parseBase,
  resolveDataUrl,
  resolvePageUrl,
  resolveSitemapUrl,
} from "../../src/parse/_url.ts";

const base = parseBase("https://www.example.com/sitemaps/pages.xml");

Deno.test("resolvePageUrl() trims, resolves relative values and normalises", () => {
  equal(resolvePageUrl("  https://www.example.com/a  \n", base), "https://www.example.com/a");
  equal(resolvePageUrl("b", base), "https://www.example.com/sitemaps/b");
  equal(resolvePageUrl("/c?x=1", base), "https://www.example.com/c?x=1");
  equal(resolvePageUrl("HTTPS://WWW.Example.COM", base), "https://www.example.com/");
  equal(resolvePageUrl("https://www.example.com/a b", base), "https://www.example.com/a%20b");
  equal(
    resolvePageUrl("https://www.example.com/x/../y#top", base),
    "https://www.example.com/y#top",
  );
  equal(resolvePageUrl("https://bücher.example/ä", base), "https://xn--bcher-kva.example/%C3%A4");
});

Deno.test("resolvePageUrl() skips empty, unparseable and non-http values", () => {
  equal(resolvePageUrl("", base), null);
  equal(resolvePageUrl("   ", base), null);
  equal(resolvePageUrl("ftp://www.example.com/file", base), null);
  equal(resolvePageUrl("mailto:someone@example.com", base), null);
  equal(resolvePageUrl("javascript:alert(1)", base), null);
  equal(resolvePageUrl("https://exa mple.com/", base), null);
  equal(resolvePageUrl("relative/without/base", null), null);
});

Deno.test("resolvePageUrl() gives what the WHATWG parser gives, fast path or not", () => {
  const samples = [
    "https://www.example.com/p/1",
    "http://localhost/a",
    "https://a.example.com/%7e/x?q=1&r=%zz",
    "https://a.example.com/./x",
    "https://a.example.com/%2e%2E/x",
    "https://a.example.com/x?y='z'",
    "https://a.example.com/x|y^z[1]",
    "https://a.example.com/{x}",
    "https://a.example.com:443/x",
    "https://a.example.com:8443/x",
    "https://user@a.example.com/x",
    "https://127.0.0.1/x",
    "https://a.example.com/x\\y",
    "https://a.example.com/x`y",
    "https://a.example.com/x?",
    "https://a.example.com//x",
    "https://a-.example.com/x",
  ];
  for (const raw of samples) {
    equal(resolvePageUrl(raw, base), new URL(raw).href, raw);
  }
});

Deno.test("resolveSitemapUrl() drops the fragment", () => {
  equal(resolveSitemapUrl("s.xml#part", base), "https://www.example.com/sitemaps/s.xml");
  equal(resolveSitemapUrl(" /a.xml ", base), "https://www.example.com/a.xml");
  equal(resolveSitemapUrl("ftp://x/a.xml", base), null);
});

Deno.test("resolveDataUrl() keeps values that do not resolve to http(s)", () => {
  equal(resolveDataUrl("/i.jpg", base), "https://www.example.com/i.jpg");
  equal(resolveDataUrl(" data:image/png;base64,AA ", base), "data:image/png;base64,AA");
  equal(resolveDataUrl("  ", base), null);
});

/** Relative values that are no URL reference (RFC 3986 section 4.2), as real sitemaps hold them. */
const NOT_REFERENCES = [
  // The scheme `httр` with a Cyrillic `р`: no scheme, so a first segment with `:`.
  "htt\u0440://host.example/sitemap.xml",
  "1http://host.example/a",
  "h_ttp://host.example/a",
  "a:b",
  // A Windows path, `\` anywhere.
  "host.example\\2131.htm",
  "\\\\host\\share\\a.htm",
  "/dir\\a.htm",
  "//cdn.example\\a.htm",
  "?q=a\\b",
  "#a\\b",
];

Deno.test("resolvePageUrl() and resolveSitemapUrl() drop a relative value with : in its first segment or any \\", () => {
  const nb = normalBase(base);
  for (const raw of NOT_REFERENCES) {
    // `a:b` has a scheme, `a`: another scheme's URL, dropped but not counted as "not a URL".
    if (raw !== "a:b") equal(isNotUrl(raw), true, raw);
    equal(resolvePageUrl(raw, base), null, raw);
    equal(resolveSitemapUrl(raw, base), null, raw);
    equal(normalizeUrl(raw, nb, KEEP_FRAGMENT), null, raw);
  }
  const counter = new NotUrlCounter();
  for (const raw of NOT_REFERENCES) if (resolvePageUrl(raw, base) === null) counter.note(raw);
  equal(
    counter.warning(),
    'Dropped 9 values that are not a URL (prose, markup or malformed), the first: "htt\u0440://host.example/sitemap.xml"',
  );
});

Deno.test("references with : after the first segment, and absolute URLs with \\, stay URLs", () => {
  const kept: [string, string][] = [
    ["./a:b", "https://www.example.com/sitemaps/a:b"],
    ["/a:b", "https://www.example.com/a:b"],
    ["x/a:b", "https://www.example.com/sitemaps/x/a:b"],
    ["?q=a:b", "https://www.example.com/sitemaps/pages.xml?q=a:b"],
    ["#a:b", "https://www.example.com/sitemaps/pages.xml#a:b"],
    ["//cdn.example:8080/a", "https://cdn.example:8080/a"],
    ["a%3Ab", "https://www.example.com/sitemaps/a%3Ab"],
    // Absolute: the WHATWG parser reads `\` as `/` in the path and keeps it in the query.
    ["https://host.example\\p\\q.htm", "https://host.example/p/q.htm"],
    ["http:\\\\host.example\\a", "http://host.example/a"],
    ["https://host.example/a?mid=1&\\1genre=N1", "https://host.example/a?mid=1&\\1genre=N1"],
    // A tab in a scheme is removed by the parser: still an absolute URL.
    ["ht\ttp://host.example/a:b", "http://host.example/a:b"],
  ];
  for (const [raw, href] of kept) {
    equal(resolvePageUrl(raw, base), href, raw);
    equal(URL.parse(raw, base!)?.href, href, raw);
    equal(isNotUrl(raw), false, raw);
  }
  equal(isNotUrlReference("./a:b"), false);
  equal(isNotUrlReference("a%3Ab"), false);
  equal(isNotUrlReference("host.example\\2131.htm"), true);
});
