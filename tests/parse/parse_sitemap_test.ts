import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { parseSitemap } from "../../src/parse/parse_sitemap.ts";
import {
  extras,
  extrasJson,
  fixture,
  generatedUrlset,
  pagesOf,
  parse,
  rows,
  urls,
} from "./_unpack.ts";

const SM = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`;

function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") out.push(...new TextEncoder().encode(p));
    else out.push(...p);
  }
  return new Uint8Array(out);
}

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
  let o = 0;
  const put = (c: number) => {
    out[o++] = bigEndian ? c >> 8 : c & 0xff;
    out[o++] = bigEndian ? c & 0xff : c >> 8;
  };
  if (bom) put(0xfeff);
  for (let i = 0; i < text.length; i++) put(text.charCodeAt(i));
  return out;
}

Deno.test("parseSitemap() keeps entries before a truncation and drops the unfinished one", () => {
  const doc = `<urlset ${SM}>
    <url><loc>https://www.example.com/1</loc><lastmod>2024-01-01</lastmod></url>
    <url><loc>https://www.example.com/2</loc></url>
    <url><loc>https://www.example.com/3</loc><lastmod>2024-0`;
  const result = pagesOf(parse(doc));
  deepStrictEqual(urls(result.pages), ["https://www.example.com/1", "https://www.example.com/2"]);
  equal(result.warning, "The document ends before </urlset>: it is truncated");
  equal(result.found, 2);
});

Deno.test("parseSitemap() calls a document truncated before its first entry invalid", () => {
  deepStrictEqual(parse(`<urlset ${SM}><url><loc>https://www.example.com/1</lo`), {
    kind: "invalid",
    reason: "Not a sitemap: The document ends before </urlset>: it is truncated",
  });
});

Deno.test("parseSitemap() reads an empty urlset as zero pages without warning", () => {
  const result = pagesOf(parse(`<?xml version="1.0"?><urlset ${SM}/>`));
  deepStrictEqual([result.format, result.pages.count, result.found, result.warning], [
    "urlset",
    0,
    0,
    null,
  ]);
});

Deno.test("parseSitemap() refuses a billion-laughs document at its DOCTYPE", () => {
  const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<urlset ${SM}><url><loc>https://www.example.com/&lol9;</loc></url></urlset>`;
  deepStrictEqual(parse(lol), {
    kind: "invalid",
    reason:
      "Not a sitemap: unreadable XML: XML DOCTYPE internal subsets are not allowed (entity expansion is refused)",
  });
});

Deno.test("parseSitemap() keeps the entries read before a DOCTYPE inside the document", () => {
  const doc = `<urlset ${SM}><url><loc>https://www.example.com/1</loc></url>
    <!DOCTYPE x [<!ENTITY a "b">]><url><loc>https://www.example.com/2</loc></url></urlset>`;
  const result = pagesOf(parse(doc));
  deepStrictEqual(urls(result.pages), ["https://www.example.com/1"]);
  equal(
    result.warning,
    "Reading stopped early: XML DOCTYPE declaration inside the document is not allowed",
  );
});

Deno.test("parseSitemap() stops at maxDepth and too-long tokens, keeping earlier entries", () => {
  const deep = `<urlset ${SM}><url><loc>https://www.example.com/1</loc></url><url>${
    "<x>".repeat(20)
  }</url></urlset>`;
  const d = pagesOf(parse(deep, { maxDepth: 10 }));
  deepStrictEqual(urls(d.pages), ["https://www.example.com/1"]);
  equal(d.warning, "Reading stopped early: XML elements nest deeper than 10 levels (maxDepth)");

  const long = `<urlset ${SM}><url><loc>https://www.example.com/1</loc></url><url><loc>${
    "a".repeat(5000)
  }</loc></url></urlset>`;
  const l = pagesOf(parse(long, { maxTokenLength: 1000 }));
  deepStrictEqual(urls(l.pages), ["https://www.example.com/1"]);
  equal(l.warning, "Reading stopped early: XML token longer than 1000 characters (maxTokenLength)");
});

Deno.test("parseSitemap() ignores whatever follows the root element", () => {
  const doc = `<urlset ${SM}><url><loc>https://www.example.com/1</loc></url></urlset>
    <urlset><url><loc>https://www.example.com/2</loc></url></urlset><!DOCTYPE junk>`;
  const result = pagesOf(parse(doc));
  deepStrictEqual([urls(result.pages), result.warning], [["https://www.example.com/1"], null]);
});

Deno.test("parseSitemap() reads UTF-8 with a BOM", () => {
  const doc = bytesOf(
    [0xef, 0xbb, 0xbf],
    `<?xml version="1.0" encoding="UTF-8"?>
    <urlset ${SM}><url><loc>https://www.example.com/ż</loc></url></urlset>`,
  );
  deepStrictEqual(urls(pagesOf(parse(doc)).pages), ["https://www.example.com/%C5%BC"]);
  const robots = bytesOf([0xef, 0xbb, 0xbf], "Sitemap: /s.xml\n");
  const index = parseSitemap(robots, { url: "https://www.example.com/robots.txt", robots: true });
  deepStrictEqual(index.kind === "index" && index.children.map((c) => c.url), [
    "https://www.example.com/s.xml",
  ]);
});

Deno.test("parseSitemap() reads UTF-16 LE and BE, with or without a BOM", () => {
  const doc = `<?xml version="1.0" encoding="UTF-16"?>
<urlset ${SM}><url><loc>https://www.example.com/Bąž</loc></url></urlset>`;
  for (const [be, bom] of [[false, true], [true, true], [false, false], [true, false]] as const) {
    const result = pagesOf(parse(utf16(doc, be, bom), { chunkBytes: 33 }));
    deepStrictEqual(
      urls(result.pages),
      ["https://www.example.com/B%C4%85%C5%BE"],
      `be=${be} bom=${bom}`,
    );
  }
});

Deno.test("parseSitemap() honours ISO-8859-1 and windows-1252 declarations", () => {
  const news = (decl: string, title: number[]) =>
    bytesOf(
      `<?xml version="1.0" encoding="${decl}"?><urlset ${SM} xmlns:n="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>https://www.example.com/caf`,
      [0xe9],
      `</loc><n:news><n:title>`,
      title,
      `</n:title></n:news></url></urlset>`,
    );
  const latin1 = pagesOf(parse(news("ISO-8859-1", [0x43, 0x61, 0x66, 0xe9])));
  deepStrictEqual(urls(latin1.pages), ["https://www.example.com/caf%C3%A9"]);
  equal((extras(latin1.pages).get(0) as { newsStory: { title: string } }).newsStory.title, "Café");
  const cp1252 = pagesOf(parse(news("windows-1252", [0x80, 0x35, 0x20, 0x93, 0x71, 0x94])));
  equal(
    (extras(cp1252.pages).get(0) as { newsStory: { title: string } }).newsStory.title,
    "€5 \u201cq\u201d",
  );
});

Deno.test("parseSitemap() takes the Content-Type charset as a hint, and `encoding` as an order", () => {
  const text = bytesOf("https://www.example.com/caf", [0xe9], "\n");
  const hinted = pagesOf(parse(text, { contentType: "text/plain; charset=ISO-8859-1" }));
  deepStrictEqual(urls(hinted.pages), ["https://www.example.com/caf%C3%A9"]);
  const unhinted = pagesOf(parse(text));
  deepStrictEqual(urls(unhinted.pages), ["https://www.example.com/caf%EF%BF%BD"]);
  const declared = bytesOf(
    `<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://www.example.com/caf\u00c3\u00a9</loc></url></urlset>`,
  );
  // `encoding` wins over the declaration: bytes that came from a JS string are UTF-8.
  deepStrictEqual(urls(pagesOf(parse(declared, { encoding: "utf-8" })).pages), [
    "https://www.example.com/caf%C3%83%C2%A9",
  ]);
});

Deno.test("parseSitemap() survives invalid UTF-8 and NUL bytes", () => {
  const doc = bytesOf(
    `<urlset ${SM}><url><loc>https://www.example.com/a`,
    [0xff, 0xfe],
    `</loc></url><url><loc>https://www.example.com/b</loc>`,
    [0],
    `</url></urlset>`,
  );
  const result = pagesOf(parse(doc));
  deepStrictEqual([urls(result.pages), result.warning], [[
    "https://www.example.com/a%EF%BF%BD%EF%BF%BD",
    "https://www.example.com/b",
  ], null]);
});

Deno.test("parseSitemap() gives the same pages whatever the chunk size", () => {
  const doc = fixture("sitemap_media.xml");
  const whole = pagesOf(parse(doc));
  for (const chunkBytes of [1, 5, 64, 1000]) {
    const chunked = pagesOf(parse(doc, { chunkBytes }));
    deepStrictEqual(rows(chunked.pages), rows(whole.pages), `chunkBytes ${chunkBytes}`);
    equal(extrasJson(chunked.pages), extrasJson(whole.pages));
  }
});

Deno.test("parseSitemap() reads a generated 2,000-URL urlset exactly", () => {
  const result = pagesOf(parse(generatedUrlset(2000, 3), { chunkBytes: 4096 }));
  equal(result.pages.count, 2000);
  deepStrictEqual(rows(result.pages)[1999], {
    url: "https://www.example.com/p/3-1999",
    lastModified: "2024-03-15T00:00:00.000Z",
    priority: 0.5,
    changeFrequency: null,
  });
});

Deno.test("parseSitemap() reads every fixture without a warning", () => {
  const expected: [string, string, number][] = [
    ["sitemap_index.xml", "index", 8],
    ["sitemap_pages.xml", "urlset", 7],
    ["sitemap_news.xml", "urlset", 2],
    ["sitemap_media.xml", "urlset", 2],
    ["sitemap_alternates.xml", "urlset", 2],
    ["sitemap.txt", "text", 4],
    ["feeds/rss.xml", "rss", 3],
    ["feeds/rdf.xml", "rss", 2],
    ["feeds/atom.xml", "atom", 3],
    ["feeds/atom03.xml", "atom", 2],
  ];
  for (const [file, format, count] of expected) {
    const result = parse(fixture(file), { url: `https://www.example.com/${file}` });
    if (result.kind === "invalid") throw new Error(`${file}: ${result.reason}`);
    const got = result.kind === "index"
      ? [result.format, result.children.length, result.warning]
      : [result.format, result.pages.count, result.warning];
    deepStrictEqual(got, [format, count, null], file);
  }
});

Deno.test("parseSitemap() refuses UTF-32 LE and BE with a reason; a forced encoding skips the check", () => {
  const utf32 = (littleEndian: boolean): Uint8Array => {
    const units = [..."\uFEFF<urlset><url><loc>https://example.com/a</loc></url></urlset>"];
    const out = new Uint8Array(units.length * 4);
    const view = new DataView(out.buffer);
    units.forEach((c, i) => view.setUint32(i * 4, c.codePointAt(0)!, littleEndian));
    return out;
  };
  const reason = (name: string) => ({
    kind: "invalid",
    reason: `Not a sitemap: the document is encoded as ${name}, which cannot be decoded ` +
      "(the Encoding Standard has no UTF-32); serve it as UTF-8",
  });
  deepStrictEqual(parse(utf32(true)), reason("UTF-32LE (byte order mark FF FE 00 00)"));
  deepStrictEqual(parse(utf32(false)), reason("UTF-32BE (byte order mark 00 00 FE FF)"));
  deepStrictEqual(
    parse(utf32(false), { robots: true }),
    reason("UTF-32BE (byte order mark 00 00 FE FF)"),
  );
  // Bytes that came from a JavaScript string are UTF-8 whatever they start with.
  equal(parse(new Uint8Array([0xff, 0xfe, 0, 0]), { encoding: "utf-8" }).kind, "pages");
});
