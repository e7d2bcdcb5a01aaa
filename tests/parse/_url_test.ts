import { strictEqual as equal } from "node:assert/strict";
import {
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
