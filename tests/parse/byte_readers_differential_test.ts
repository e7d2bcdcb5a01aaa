/**
 * The byte-level urlset reader against the general path (decoder, tokenizer,
 * UrlsetReader): wherever it accepts a document it must give the same result,
 * and it must accept the common shapes (or it would be no faster).
 */
import {
  deepStrictEqual,
  notStrictEqual as notEqual,
  strictEqual as equal,
} from "node:assert/strict";
import { parseSitemap, parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import { realisticUrlset, SHAPES, shapeUrlset } from "../../fixtures/realistic.ts";
import { corpus, mutate, rng } from "./_fuzz.ts";
import {
  compareReaders,
  plain,
  randomPlainUrlset,
  randomSitemapIndex,
  randomUrlset,
  urlsetOf as urlset,
} from "./_urlset_diff.ts";
import { Rng, urlsetDocument } from "./_xml_gen.ts";
import { readSitemapIndexBytes } from "../../src/parse/_sitemapindex_bytes.ts";
import { BASE, extras, rows } from "./_unpack.ts";

const encoder = new TextEncoder();

/** Reads `doc` both ways, failing on any disagreement; returns whether the byte-level reader took it. */
function check(doc: string | Uint8Array, since = NaN, url = BASE): boolean {
  const { taken, problem } = compareReaders(doc, since, url);
  equal(problem, null);
  return taken;
}

Deno.test("byte-level urlset reader: takes plain urlsets and gives the general path's pages", () => {
  const doc = urlset(
    "<url><loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod></url>",
    "<url>\n  <loc> https://www.example.com/b?x=1&amp;y=2 </loc>\n  <lastmod>2024-05-01T10:20:30+02:00</lastmod>\n" +
      "  <changefreq> Weekly </changefreq>\n  <priority>0.80</priority>\n</url>",
    "<url><loc>/relative/path</loc><priority>1</priority><changefreq>never</changefreq></url>",
    "<url><loc>HTTPS://WWW.Example.COM:443/c/./d/../e</loc><lastmod>Tue, 10 Jun 2003 04:00:00 GMT</lastmod></url>",
    "<url><loc>https://www.example.com/a</loc><priority>0.1</priority></url>",
    "<url><loc>https://www.example.com/f</loc><loc>https://www.example.com/ignored</loc></url>",
    "<url><lastmod>2024-01-01</lastmod></url>",
    "<url><loc></loc></url>",
    "<url><loc>ftp://www.example.com/file</loc></url>",
    "<url><loc>https://www.example.com/caf\u00e9?q=\u00fc</loc></url>",
    "<url><loc>https://www.example.com/g&#x2F;h&unknown;</loc><priority>1.5</priority></url>",
    "<url><loc>https://www.example.com/i\r\n</loc><priority> .5 </priority><changefreq>sometimes</changefreq></url>",
    "<!-- a comment --><?pi here?><url><!-- inside --><loc>https://www.example.com/j</loc></url>",
    "<url><loc>https://www.example.com/k</loc><lastmod>2024-13-45</lastmod><priority>1e0</priority></url>",
  );
  equal(check(doc), true);
  const pages = parseSitemap(encoder.encode(doc), { url: BASE });
  deepStrictEqual(pages.kind === "pages" ? rows(pages.pages).map((r) => r.url) : [], [
    "https://www.example.com/a",
    "https://www.example.com/b?x=1&y=2",
    "https://www.example.com/relative/path",
    "https://www.example.com/c/e",
    "https://www.example.com/f",
    "https://www.example.com/caf%C3%A9?q=%C3%BC",
    "https://www.example.com/g/h&unknown;",
    "https://www.example.com/i",
    "https://www.example.com/j",
    "https://www.example.com/k",
  ]);
});

Deno.test("byte-level urlset reader: the lastmod filter, a BOM, no declaration, text after the root", () => {
  const entries = [
    "<url><loc>https://www.example.com/old</loc><lastmod>2020-01-01</lastmod></url>",
    "<url><loc>https://www.example.com/new</loc><lastmod>2025-01-01</lastmod></url>",
    "<url><loc>https://www.example.com/undated</loc></url>",
  ];
  equal(check(urlset(...entries), Date.UTC(2024, 0, 1)), true);
  equal(check("\ufeff" + urlset(...entries)), true);
  equal(check(`<urlset>${entries.join("")}</urlset> trailing <junk`), true);
  equal(
    check(
      `  \n<urlset\n xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'\n>${entries[0]}</urlset>`,
    ),
    true,
  );
});

Deno.test("byte-level reader: takes every common shape and declines what is really different", () => {
  const taken = [
    urlset("<url><loc><![CDATA[https://www.example.com/a]]></loc></url>"),
    urlset(
      '<url><loc>https://www.example.com/a</loc><xhtml:link rel="alternate" hreflang="fr" href="https://www.example.com/fr"/></url>',
    ),
    '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://www.example.com/a</sm:loc></sm:url></sm:urlset>',
    "<urlset><url><loc/></url></urlset>",
    "<urlset><url id='1'><loc>https://www.example.com/a</loc></url></urlset>",
    "<urlset>text<url><loc>https://www.example.com/a</loc></url></urlset>",
    "<sitemapindex><sitemap><loc>https://www.example.com/s.xml</loc></sitemap></sitemapindex>",
    "<urlset><url><changefreq>da&#105;ly</changefreq><loc>https://www.example.com/a</loc></url></urlset>",
  ];
  for (const doc of taken) equal(check(doc), true, doc.slice(0, 120));
  const declined = [
    // A prefix declared below the root: left to the tokenizer's scoping.
    urlset(
      '<url><loc>https://www.example.com/a</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://www.example.com/i.png</image:loc></image:image></url>',
    ),
    urlset("<url><loc>https://www.example.com/a</loc></url>").replace("</urlset>", ""),
    "<!DOCTYPE urlset><urlset><url><loc>https://www.example.com/a</loc></url></urlset>",
    '<urlset a="1&amp;2"><url><loc>https://www.example.com/a</loc></url></urlset>',
    `<urlset><url><loc>https://www.example.com/${"a".repeat(70_000)}</loc></url></urlset>`,
    "<urlset><url><loc>https://www.example.com/<b>a</b></loc></url></urlset>",
    "<urlset><url><loc>https://www.example.com/a</loc></urlset>",
    // Found by bench/fuzz_byte_readers.ts (seed 11412): a quote and non-ASCII
    // bytes inside an attribute name, which the tokenizer reads as a value
    // that never closes, so the document has no root element.
    new Uint8Array([
      ...encoder.encode("<urlset xmlns"),
      0x8e,
      0xf1,
      0xaf,
      0x27,
      0xbe,
      0xc6,
      ...encoder.encode(
        '="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>',
      ),
    ]),
  ];
  for (const doc of declined) {
    equal(check(doc), false, typeof doc === "string" ? doc.slice(0, 120) : "bytes");
  }
  // Not UTF-8: the declared encoding decides, so the bytes are not read as they are.
  const latin1 = Uint8Array.from(
    '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://www.example.com/caf\u00e9</loc></url></urlset>',
    (c) => c.charCodeAt(0),
  );
  const result = parseSitemap(latin1, { url: BASE });
  deepStrictEqual(plain(result), plain(parseSitemapGeneral(latin1, { url: BASE })));
  deepStrictEqual(result.kind === "pages" ? rows(result.pages).map((r) => r.url) : [], [
    "https://www.example.com/caf%C3%A9",
  ]);
});

Deno.test("byte-level urlset reader: generated urlsets read the same both ways", () => {
  for (let seed = 1; seed <= 20; seed++) {
    equal(check(urlsetDocument(200, seed)), true);
    equal(check(urlsetDocument(200, seed), Date.UTC(2024, 5, 1)), true);
  }
});

Deno.test("byte-level urlset reader: random entry shapes read the same both ways", () => {
  const random = new Rng(7);
  for (let round = 0; round < 300; round++) {
    const doc = randomPlainUrlset(random);
    const since = random.int(3) === 0 ? Date.UTC(2010, 0, 1) : NaN;
    equal(check(doc, since), true, `round ${round}`);
  }
});

Deno.test("byte-level urlset reader: mutated documents give the general path's result", () => {
  const seeds = corpus().filter((d) => d.name.includes("pages") || d.name.includes("archive"));
  notEqual(seeds.length, 0);
  seeds.push({ name: "generated", bytes: encoder.encode(urlsetDocument(30, 3)) });
  const random = rng(11);
  let taken = 0;
  for (let i = 0; i < 1500; i++) {
    const doc = seeds[i % seeds.length]!;
    const { bytes } = mutate(doc.bytes, random);
    if (check(bytes)) taken++;
  }
  // Many mutations leave a readable plain urlset (a changed URL or date).
  equal(taken > 100, true, `only ${taken} mutated documents took the byte-level path`);
});

Deno.test("byte-level reader: every generated shape and the realistic mix read the same both ways", () => {
  for (const shape of SHAPES) {
    for (let seed = 1; seed <= 3; seed++) {
      const doc = shapeUrlset(shape, 300, seed);
      equal(check(doc), true, `${shape} seed ${seed}`);
      equal(check(doc, Date.UTC(2023, 0, 1)), true, `${shape} seed ${seed}, since`);
    }
  }
  for (const layout of ["compact", "indented", "tabs-crlf"] as const) {
    equal(check(realisticUrlset(1500, 9, { layout })), true, layout);
  }
});

Deno.test("byte-level reader: random urlsets and indexes of every shape read the same both ways", () => {
  const random = new Rng(19);
  let taken = 0;
  for (let round = 0; round < 600; round++) {
    const doc = round % 4 === 3 ? randomSitemapIndex(random) : randomUrlset(random);
    const since = random.int(3) === 0 ? Date.UTC(2010, 0, 1) : NaN;
    if (check(doc, since)) taken++;
  }
  // Every one is of a shape the byte-level reader takes.
  equal(taken, 600);
});

Deno.test("since: the pages kept are the full read's pages with a lastmod at or after it, or none", () => {
  const url = "https://www.shop.example/sitemap.xml";
  const since = Date.UTC(2024, 0, 1);
  for (const doc of [realisticUrlset(3000, 4), shapeUrlset("plain", 3000, 4)]) {
    const full = parseSitemap(encoder.encode(doc), { url });
    const some = parseSitemap(encoder.encode(doc), { url, since });
    if (full.kind !== "pages" || some.kind !== "pages") throw new Error("not pages");
    const fullRows = rows(full.pages);
    const fullExtras = [...extras(full.pages).entries()];
    const keep = fullRows.map((r) =>
      r.lastModified === null || Date.parse(r.lastModified) >= since
    );
    deepStrictEqual(rows(some.pages), fullRows.filter((_, i) => keep[i]));
    // Extras stay with their pages: renumbered to the kept pages' positions.
    const position = keep.map((k, i) => k ? keep.slice(0, i).filter(Boolean).length : -1);
    deepStrictEqual(
      [...extras(some.pages).entries()],
      fullExtras.filter(([i]) => keep[i as number]).map(([i, x]) => [position[i as number], x]),
    );
    // Found counts the dropped pages too: these documents have no duplicates.
    equal(some.found, full.found);
  }
});

Deno.test("byte-level sitemapindex: a URL read from its bytes and the same URL normalised from text are one child", () => {
  const doc = "<sitemapindex>" + [
    "<sitemap><loc>https://www.example.com/s-1.xml</loc><lastmod>2024-01-02</lastmod></sitemap>",
    "<sitemap><loc>HTTPS://WWW.example.com/s-1.xml</loc><lastmod>2024-01-03</lastmod></sitemap>",
    "<sitemap><loc>https://www.example.com/s-2.xml?a=1&amp;b=2</loc></sitemap>",
    "<sitemap><loc> https://www.example.com/s-2.xml?a=1&b=2 </loc></sitemap>".replace(
      "&b",
      "&#38;b",
    ),
    "<sitemap><loc>https://www.example.com/s-3.xml#part</loc></sitemap>",
    "<sitemap><loc>https://www.example.com/s-3.xml</loc></sitemap>",
    "<sitemap><loc>\n  https://www.example.com/s-4.xml\n</loc><lastmod>Tue, 02 Jan 2024 10:00:00 GMT</lastmod></sitemap>",
  ].join("") + "</sitemapindex>";
  const bytes = new TextEncoder().encode(doc);
  const fast = readSitemapIndexBytes(bytes, null);
  deepStrictEqual(fast, parseSitemapGeneral(bytes, { url: "" }));
  deepStrictEqual(fast, {
    kind: "index",
    format: "index",
    children: [
      { url: "https://www.example.com/s-1.xml", lastModified: Date.UTC(2024, 0, 2) },
      { url: "https://www.example.com/s-2.xml?a=1&b=2", lastModified: NaN },
      { url: "https://www.example.com/s-3.xml", lastModified: NaN },
      { url: "https://www.example.com/s-4.xml", lastModified: Date.UTC(2024, 0, 2, 10) },
    ],
    warning: null,
  });
});

Deno.test("every reader keeps a U+FEFF inside an extension value, wherever the encoded columns cut the string", () => {
  // Found by bench/fuzz_byte_readers.ts (seed 466375380): the general path's
  // columns decoded a string part that starts with U+FEFF as if it were a
  // byte order mark, dropping it, where the byte-level reader keeps it.
  const doc = urlset(
    '<url><loc>https://www.example.com/en/about</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="fr" href="https://www.example.com/fr/a-propos"/>' +
      '<xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="x-default" href="https\ufeff://www.example./en/about"/></url>',
    "<url></url>",
  );
  const general = parseSitemapGeneral(encoder.encode(doc), { url: BASE, since: NaN });
  deepStrictEqual(general.kind === "pages" ? [...extras(general.pages)] : [], [[0, {
    alternates: [
      { hreflang: "fr", href: "https://www.example.com/fr/a-propos" },
      { hreflang: "x-default", href: "https\ufeff://www.example./en/about" },
    ],
  }]]);
  check(doc);
});
