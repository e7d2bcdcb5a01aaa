/**
 * What each URL form costs `sitemapFromString()`: a 50,000-`<loc>` urlset
 * per form (canonical https, upper-case host, port, IPv4 host, raw UTF-8
 * path, spaces, percent-encoded path, `&amp;` and character references,
 * a CDATA section, fragment, `..` segment, relative paths, IDN host),
 * parsed on this thread; prints the median ns per URL and MB/s of several
 * runs, the ratio to the canonical form, and the fastest run (on a
 * shared machine, the least disturbed one).
 *
 *   deno run -A bench/url_bench.ts [--runs 15] [--urls 50000]
 *   bun bench/url_bench.ts
 *
 * @module
 */
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { numberFlag } from "./_flags.ts";

const runs = numberFlag("runs", 15);
const count = numberFlag("urls", 50_000);

/** Each form's `<loc>` for page `i`. */
const FORMS: readonly [string, (i: number) => string][] = [
  ["canonical https", (i) => `https://www.example.com/products/item-${i}.html`],
  ["upper-case host", (i) => `https://WWW.Example.COM/products/item-${i}.html`],
  ["port", (i) => `https://www.example.com:8443/products/item-${i}.html`],
  ["default port", (i) => `https://www.example.com:443/products/item-${i}.html`],
  ["IPv4 host", (i) => `http://127.0.0.1/products/item-${i}.html`],
  ["raw UTF-8 path", (i) => `https://www.example.com/produits/été-${i}/café.html`],
  ["spaces", (i) => `https://www.example.com/products/item ${i} large.html`],
  ["percent-encoded path", (i) => `https://www.example.com/produits/%C3%A9t%C3%A9-${i}.html`],
  ["&amp; query", (i) => `https://www.example.com/p?id=${i}&amp;color=red`],
  ["char refs (ASCII)", (i) => `https://www.example.com/p?id=${i}&#38;s=&#x61;&#47;b`],
  ["char refs (UTF-8)", (i) => `https://www.example.com/caf&#233;/&#x65E5;-${i}.html`],
  ["CDATA, upper-case host", (i) => `<![CDATA[https://WWW.Example.COM/p?id=${i}&s=a]]>`],
  ["fragment", (i) => `https://www.example.com/products/item-${i}.html#reviews`],
  ["'..' segment", (i) => `https://www.example.com/a/b/../products/item-${i}.html`],
  ["backslash", (i) => `https://www.example.com\\products\\item-${i}.html`],
  ["root-relative", (i) => `/products/item-${i}.html`],
  ["path-relative", (i) => `products/item-${i}.html`],
  ["IDN host", (i) => `https://bücher.example/products/item-${i}.html`],
];

function urlset(loc: (i: number) => string): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < count; i++) {
    parts.push(`<url><loc>${loc(i)}</loc><lastmod>2024-05-01</lastmod></url>\n`);
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

const options = { url: "https://www.example.com/sitemap.xml" };
let canonical = 0;
console.log(
  `sitemapFromString() on ${count.toLocaleString("en")}-loc urlsets, median of ${runs} runs`,
);
console.log(
  `${"form".padEnd(22)} ${"ns/URL".padStart(8)} ${"MB/s".padStart(7)} ${
    "x canonical".padStart(11)
  } ${"best ns/URL".padStart(11)}`,
);
for (const [name, loc] of FORMS) {
  const text = urlset(loc);
  const bytes = new TextEncoder().encode(text);
  const times: number[] = [];
  let pages = 0;
  for (let r = 0; r < runs + 2; r++) {
    const t = performance.now();
    const node = sitemapFromString(bytes, options);
    const ms = performance.now() - t;
    pages = node.pages.length;
    if (r >= 2) times.push(ms);
  }
  if (pages !== count) throw new Error(`${name}: ${pages} pages, expected ${count}`);
  times.sort((a, b) => a - b);
  const ms = times[times.length >> 1]!;
  if (canonical === 0) canonical = ms;
  const line = `${name.padEnd(22)} ${((ms * 1e6) / count).toFixed(0).padStart(8)} ${
    (bytes.length / 1e3 / ms).toFixed(0).padStart(7)
  } ${(ms / canonical).toFixed(2).padStart(11)} ${
    ((times[0]! * 1e6) / count).toFixed(0).padStart(11)
  }`;
  console.log(line);
}
