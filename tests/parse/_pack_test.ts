import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import {
  normalRawUrl,
  PackedPagesBuilder,
  V_LAST_MODIFIED,
  V_PRIORITY,
} from "../../src/parse/_pack.ts";
import { isNotUrl } from "../../src/parse/_url.ts";
import { extras, extrasJson, rows, urls } from "./_unpack.ts";

const base = new URL("https://a.example/dir/sitemap.xml");

Deno.test("PackedPagesBuilder keeps the first of duplicate URLs", () => {
  const b = new PackedPagesBuilder(base);
  b.add("https://a.example/1", 1000, 0.1, 1, null);
  b.add("https://a.example/2", NaN, 0.5, 0, null);
  b.add(" https://a.example/1\n", 2000, 0.9, 2, null);
  b.add("/1", 2000, 0.9, 2, null);
  const built = b.build();
  equal(built.found, 2);
  deepStrictEqual(rows(built.pages), [
    {
      url: "https://a.example/1",
      lastModified: "1970-01-01T00:00:01.000Z",
      priority: 0.1,
      changeFrequency: "always",
    },
    { url: "https://a.example/2", lastModified: null, priority: 0.5, changeFrequency: null },
  ]);
});

Deno.test("PackedPagesBuilder resolves, normalises and drops URLs like the WHATWG parser", () => {
  const b = new PackedPagesBuilder(base);
  for (
    const raw of [
      "page",
      "  /root  ",
      "HTTPS://A.EXAMPLE/Up",
      "https://a.example",
      "https://a.example/x/../y",
      "https://a.example/%2e/z",
      "https://a.example/s p",
      "https://a.example:443/port",
      "https://127.0.0.1/ip",
      "https://a.example/ok?q='1'",
      "https://a.example/frag#top",
      "ftp://a.example/no",
      "https://exa mple.com/no",
      "",
      "   ",
    ]
  ) b.add(raw, NaN, 0.5, 0, null);
  deepStrictEqual(urls(b.build().pages), [
    "https://a.example/dir/page",
    "https://a.example/root",
    "https://a.example/Up",
    "https://a.example/",
    "https://a.example/y",
    "https://a.example/z",
    "https://a.example/s%20p",
    "https://a.example/port",
    "https://127.0.0.1/ip",
    "https://a.example/ok?q=%271%27",
    "https://a.example/frag#top",
  ]);
});

Deno.test("PackedPagesBuilder parses raw lastmod texts, W3C or RFC 822", () => {
  const b = new PackedPagesBuilder(null);
  b.add("https://a.example/1", " 2024-05-17 ", 0.5, 0, null);
  b.add("https://a.example/2", "Tue, 10 Jun 2003 04:00:00 GMT", 0.5, 0, null);
  b.add("https://a.example/3", "", 0.5, 0, null);
  b.add("https://a.example/4", "99999999999999999999999", 0.5, 0, null);
  b.add("https://a.example/5", "2024-05-17\u00a0", 0.5, 0, null);
  b.add("https://a.example/6", 86_400_000, 0.5, 0, null);
  deepStrictEqual(rows(b.build().pages).map((r) => r.lastModified), [
    "2024-05-17T00:00:00.000Z",
    "2003-06-10T04:00:00.000Z",
    null,
    null,
    "2024-05-17T00:00:00.000Z",
    "1970-01-02T00:00:00.000Z",
  ]);
});

Deno.test("PackedPagesBuilder drops pages older than since before reading their URLs, and counts them in found", () => {
  const b = new PackedPagesBuilder(null, 5000);
  b.add("https://a.example/old", 1000, 0.5, 0, null);
  b.add("https://a.example/new", 6000, 0.5, 0, { images: [] });
  b.add("https://a.example/undated", NaN, 0.5, 0, null);
  b.add("https://a.example/exact", 5000, 0.5, 0, null);
  // The filtered page was never hashed, so a later, newer copy is the first one kept.
  b.add("https://a.example/old", 9000, 0.5, 0, null);
  // Not even checked: an invalid URL that is too old counts as found.
  b.add("not a url", 10, 0.5, 0, null);
  const { pages, found } = b.build();
  equal(found, 6);
  equal(pages.count, 4);
  deepStrictEqual(urls(pages), [
    "https://a.example/new",
    "https://a.example/undated",
    "https://a.example/exact",
    "https://a.example/old",
  ]);
  deepStrictEqual([...pages.urlEnds], [21, 46, 69, 90]);
  equal(extrasJson(pages), '[[0,{"images":[]}]]');
});

Deno.test("PackedPagesBuilder gives every column its own exactly sized buffer", () => {
  const b = new PackedPagesBuilder(null);
  for (let i = 0; i < 3000; i++) b.add(`https://a.example/${i}`, i, 0.5, 0, null);
  const p = b.build().pages;
  equal(p.count, 3000);
  const buffers = [p.urlBytes, p.urlEnds, p.lastModified, p.priority, p.changeFrequency].map((a) =>
    a.buffer
  );
  equal(new Set(buffers).size, 5);
  deepStrictEqual(
    buffers.map((buffer) => buffer.byteLength),
    [p.urlBytes.length, 3000 * 4, 3000 * 8, 3000 * 8, 3000],
  );
  equal(p.urlEnds[2999], p.urlBytes.length);
  equal(p.lastModified[2999], 2999);
});

Deno.test("PackedPagesBuilder normalises non-ASCII URLs to ASCII, in any batch", () => {
  const b = new PackedPagesBuilder(null);
  b.add("https://a.example/ż😀", NaN, 0.5, 0, null);
  b.add("https://a.example/%C5%BC%F0%9F%98%80", NaN, 0.5, 0, null);
  b.add("https://bücher.example/x", NaN, 0.5, 0, null);
  const p = b.build().pages;
  deepStrictEqual(urls(p), [
    "https://a.example/%C5%BC%F0%9F%98%80",
    "https://xn--bcher-kva.example/x",
  ]);
  deepStrictEqual([...p.urlEnds], [36, 67]);
});

Deno.test("PackedPagesBuilder grows through many URLs, batches and table resizes", () => {
  const b = new PackedPagesBuilder(null);
  const n = 20_000;
  for (let i = 0; i < n; i++) b.add(`https://a.example/${i}`, NaN, 0.5, 0, null);
  for (let i = 0; i < n; i += 7) b.add(`https://a.example/${i}`, NaN, 0.5, 0, null);
  const { pages: p, found } = b.build();
  equal(found, n);
  equal(p.count, n);
  equal(rows(p)[n - 1]!.url, `https://a.example/${n - 1}`);
});

Deno.test("PackedPagesBuilder dedups exactly within long runs of one hash", () => {
  // Many copies of a few URLs make equal-hash runs longer than the pairwise limit.
  const b = new PackedPagesBuilder(null);
  const n = 3_000;
  for (let i = 0; i < n; i++) b.add(`https://a.example/${i % 7}`, i, 0.5, 0, { images: [] });
  const { pages, found } = b.build();
  equal(found, 7);
  deepStrictEqual(rows(pages).map((r) => [r.url, r.lastModified]), [
    ["https://a.example/0", "1970-01-01T00:00:00.000Z"],
    ["https://a.example/1", "1970-01-01T00:00:00.001Z"],
    ["https://a.example/2", "1970-01-01T00:00:00.002Z"],
    ["https://a.example/3", "1970-01-01T00:00:00.003Z"],
    ["https://a.example/4", "1970-01-01T00:00:00.004Z"],
    ["https://a.example/5", "1970-01-01T00:00:00.005Z"],
    ["https://a.example/6", "1970-01-01T00:00:00.006Z"],
  ]);
  const each = [0, 1, 2, 3, 4, 5, 6].map((k) => `[${k},{"images":[]}]`);
  equal(extrasJson(pages), `[${each.join(",")}]`);
});

Deno.test("PackedPagesBuilder matches a URL-parser-and-Set reference on mixed random input", () => {
  const pieces = [
    "https://a.example/p/",
    "http://a.example/",
    "/rel/",
    "rel-",
    "  https://a.example/pad/",
    "HTTPS://A.EXAMPLE/Up/",
    "https://a.example/./dot/",
    "https://a.example/sp ace/",
    "https://a.example/ż/",
    "mailto:x@a.example?",
    "https://a.example:8080/port/",
    "https://a.example/q?x=1&y=",
    "",
  ];
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const raws: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const p = pieces[Math.floor(random() * pieces.length)]!;
    raws.push(
      p === "" ? "   " : `${p}${Math.floor(random() * 800)}${random() < 0.2 ? "  \n" : ""}`,
    );
  }
  const expected: string[] = [];
  const seen = new Set<string>();
  for (const raw of raws) {
    // An empty <loc> is no URL, though the parser would resolve it to the base.
    const url = raw.trim() === "" ? null : URL.parse(raw.trim(), base);
    if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) continue;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    expected.push(url.href);
  }
  const b = new PackedPagesBuilder(base);
  for (const raw of raws) b.add(raw, NaN, 0.5, 0, null);
  const { pages, found } = b.build();
  equal(found, expected.length);
  deepStrictEqual(urls(pages), expected);
});

Deno.test("PackedPagesBuilder's fast path never disagrees with the URL parser on odd URLs", () => {
  const heads = [
    "https://",
    "http://",
    "https://a.example",
    "http://x-y.example.org",
    "https://Ab.example",
  ];
  const alphabet = [
    "/",
    ".",
    "..",
    "%2e",
    "%2E",
    "%41",
    "?",
    "#",
    "'",
    '"',
    "\\",
    " ",
    "a",
    "Z",
    "0",
    "9",
    ":",
    "@",
    "[",
    "]",
    "{",
    "}",
    "|",
    "^",
    "`",
    "<",
    ">",
    "~",
    "-",
    "_",
    "!",
    "$",
    "&",
    "(",
    ")",
    "*",
    "+",
    ",",
    ";",
    "=",
    "\t",
    "1.2",
    "com",
  ];
  let seed = 11;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const raws: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let s = heads[Math.floor(random() * heads.length)]!;
    const n = Math.floor(random() * 12);
    for (let k = 0; k < n; k++) s += alphabet[Math.floor(random() * alphabet.length)]!;
    raws.push(s);
  }
  const expected: string[] = [];
  const seen = new Set<string>();
  for (const raw of raws) {
    // Values holding markup or quotes are prose, not URLs
    // (docs/design.md#values-that-are-not-urls).
    const url = raw.trim() === "" || isNotUrl(raw.trim()) ? null : URL.parse(raw.trim(), base);
    if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) continue;
    if (!seen.has(url.href)) expected.push(url.href);
    seen.add(url.href);
  }
  const b = new PackedPagesBuilder(base);
  for (const raw of raws) b.add(raw, NaN, 0.5, 0, null);
  deepStrictEqual(urls(b.build().pages), expected);
});

Deno.test("PackedPagesBuilder stays exact when every hash collides", () => {
  const b = new PackedPagesBuilder(null, NaN, { hashMask: 0 });
  const raws: string[] = [];
  for (let i = 0; i < 400; i++) raws.push(`https://a.example/${(i * 37) % 150}`);
  for (const raw of raws) b.add(raw, NaN, 0.5, 0, null);
  const { pages, found } = b.build();
  const expected = [...new Set(raws)];
  equal(found, 150);
  deepStrictEqual(urls(pages), expected);
});

Deno.test("PackedPagesBuilder stays exact when hashes collide in part (big and small buckets)", () => {
  for (const hashMask of [0x1, 0x7, 0xf00, 0xffff0000, 0xffffffff]) {
    const raws: string[] = [];
    for (let i = 0; i < 3000; i++) raws.push(`https://a.example/${(i * 7919) % 1700}`);
    const b = new PackedPagesBuilder(null, NaN, { hashMask });
    for (const raw of raws) b.add(raw, NaN, 0.5, 0, null);
    const { pages, found } = b.build();
    const expected = [...new Set(raws)];
    equal(found, 1700, `mask ${hashMask}`);
    deepStrictEqual(urls(pages), expected);
  }
});

Deno.test("PackedPagesBuilder: builders reusing the last one's arrays, in turn or interleaved, stay exact", () => {
  const make = (tag: string, n: number) => {
    const raws: string[] = [];
    for (let i = 0; i < n; i++) raws.push(`https://${tag}.example/p/${(i * 13) % (n - 3)}`);
    return raws;
  };
  const check = (b: PackedPagesBuilder, raws: string[]) => {
    const { pages } = b.build();
    const expected = [...new Set(raws)];
    deepStrictEqual(urls(pages), expected);
    deepStrictEqual([...pages.lastModified], expected.map((_, i) => i));
  };
  const addAll = (b: PackedPagesBuilder, raws: string[]) => {
    const first = new Map<string, number>();
    for (const raw of raws) if (!first.has(raw)) first.set(raw, first.size);
    for (const raw of raws) b.add(raw, first.get(raw)!, 0.5, 0, null);
  };
  const big = make("big", 60_000);
  const small = make("small", 500);
  const other = make("other", 20_000);
  const a = new PackedPagesBuilder(null, NaN, { sizeHint: 5_000_000 });
  addAll(a, big);
  check(a, big);
  const b = new PackedPagesBuilder(null, NaN, { sizeHint: 40_000 });
  const c = new PackedPagesBuilder(null, NaN, { sizeHint: 5_000_000 });
  addAll(b, small);
  addAll(c, other);
  check(b, small);
  check(c, other);
  const d = new PackedPagesBuilder(null, NaN, { sizeHint: 5_000_000 });
  addAll(d, small);
  check(d, small);
});

Deno.test("PackedPagesBuilder sized from a document of few short URLs still takes one of many long URLs whole", () => {
  // The first teaches the thread a URL share of ~1% of the document; the second needs ~60%.
  const short = Array.from({ length: 2_000 }, (_, i) => `https://a.example/${i}`);
  const long = Array.from({ length: 6_000 }, (_, i) => `https://b.example/${"x".repeat(80)}/${i}`);
  for (const [raws, sizeHint] of [[short, 4_000_000], [long, 900_000]] as const) {
    const builder = new PackedPagesBuilder(null, NaN, { sizeHint });
    raws.forEach((raw, i) => builder.add(raw, i, 0.5, 0, null));
    const { pages } = builder.build();
    deepStrictEqual(urls(pages), raws);
    deepStrictEqual([...pages.lastModified], raws.map((_, i) => i));
  }
});

Deno.test("PackedPagesBuilder keeps extras, dates and ends aligned through duplicates and the since filter", () => {
  const since = 1000;
  const b = new PackedPagesBuilder(null, since);
  const expected: { url: string; lastModified: number; tag: number | null }[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const url = `https://a.example/${(i * 31) % 3001}/${"x".repeat(i % 7)}`;
    const lastModified = (i * 37) % 2000;
    const tag = i % 5 === 0 ? i : null;
    b.add(
      url,
      lastModified,
      0.5,
      0,
      tag === null ? null : {
        images: [{
          loc: `https://img/${tag}`,
          caption: null,
          geoLocation: null,
          title: null,
          license: null,
        }],
      },
    );
    if (seen.has(url)) continue;
    seen.add(url);
    if (lastModified >= since) expected.push({ url, lastModified, tag });
  }
  const { pages, found } = b.build();
  equal(found, seen.size);
  deepStrictEqual(urls(pages), expected.map((p) => p.url));
  deepStrictEqual([...pages.lastModified], expected.map((p) => p.lastModified));
  const byPage = extras(pages);
  expected.forEach((p, k) => {
    const e = byPage.get(k) as { images: { loc: string }[] } | undefined;
    equal(e?.images[0]?.loc ?? null, p.tag === null ? null : `https://img/${p.tag}`);
  });
  equal(byPage.size, expected.filter((p) => p.tag !== null).length);
});

Deno.test("normalRawUrl: normal URL bytes with `&amp;` read as `&`, in one pass", () => {
  const kinds = [
    "https://cdn.example.com/a.jpg",
    "https://cdn.example.com/a.jpg?v=1&amp;width=800",
    "https://cdn.example.com/a.jpg?v=1&amp;w=8&amp;",
    "https://cdn.example.com/a.jpg?v=1&#38;w=8",
    "https://cdn.example.com/a.jpg?v=1&amp",
    "https://cdn.example.com/a.jpg?v=1&amp;/./x",
    "https://cdn.example.com/a.jpg?v=1&amp;/%2Ex",
    "https://cdn.example.com/a.jpg?v=1&amp;w=8#top",
    "https://cdn.example.com/a.jpg?v=1&amp;q=caf\u00e9",
    "https://CDN.example.com/a.jpg?v=1&amp;w=8",
    "https://cdn.example.com/a&amp;b",
  ].map((s) => {
    const b = new TextEncoder().encode(s);
    const kind = normalRawUrl(b, 0, b.length);
    // What it calls normal, the WHATWG parser returns as it stands.
    const text = s.replaceAll("&amp;", "&");
    if (kind !== 0) equal(URL.parse(text)?.href, text);
    return kind;
  });
  deepStrictEqual(kinds, [1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 2]);
});

Deno.test("PackedPagesBuilder: a page committed at once after added ones keeps its own lastmod and priority", () => {
  const b = new PackedPagesBuilder(base);
  b.add("https://a.example/batched", 1000, 0.1, 0, null);
  b.values[V_LAST_MODIFIED] = 2000;
  b.values[V_PRIORITY] = 0.9;
  b.commitText("https://a.example/at-once", 0, null);
  deepStrictEqual(rows(b.build().pages), [
    {
      url: "https://a.example/batched",
      lastModified: "1970-01-01T00:00:01.000Z",
      priority: 0.1,
      changeFrequency: null,
    },
    {
      url: "https://a.example/at-once",
      lastModified: "1970-01-01T00:00:02.000Z",
      priority: 0.9,
      changeFrequency: null,
    },
  ]);
});
