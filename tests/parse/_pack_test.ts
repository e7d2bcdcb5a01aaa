import { deepStrictEqual, equal, notStrictEqual } from "node:assert/strict";
import { PackedPagesBuilder } from "../../src/parse/_pack.ts";
import { rows } from "./_unpack.ts";

Deno.test("PackedPagesBuilder keeps the first of duplicate URLs", () => {
  const b = new PackedPagesBuilder();
  equal(b.add("https://a.example/1", 1000, 0.1, 1, null), true);
  equal(b.add("https://a.example/2", NaN, 0.5, 0, null), true);
  equal(b.add("https://a.example/1", 2000, 0.9, 2, null), false);
  equal(b.found, 2);
  const pages = b.build();
  deepStrictEqual(rows(pages), [
    {
      url: "https://a.example/1",
      lastModified: "1970-01-01T00:00:01.000Z",
      priority: 0.1,
      changeFrequency: "always",
    },
    { url: "https://a.example/2", lastModified: null, priority: 0.5, changeFrequency: null },
  ]);
});

Deno.test("PackedPagesBuilder applies since after dedup and counts found before it", () => {
  const b = new PackedPagesBuilder(5000);
  b.add("https://a.example/old", 1000, 0.5, 0, null);
  b.add("https://a.example/new", 6000, 0.5, 0, { images: [] });
  b.add("https://a.example/undated", NaN, 0.5, 0, null);
  b.add("https://a.example/exact", 5000, 0.5, 0, null);
  // A later, newer copy of a filtered page is still a duplicate: the first wins.
  b.add("https://a.example/old", 9000, 0.5, 0, null);
  equal(b.found, 4);
  const pages = b.build();
  deepStrictEqual(rows(pages).map((r) => r.url), [
    "https://a.example/new",
    "https://a.example/undated",
    "https://a.example/exact",
  ]);
  equal(pages.extras, '[[0,{"images":[]}]]');
});

Deno.test("PackedPagesBuilder gives every column its own exactly sized buffer", () => {
  const b = new PackedPagesBuilder();
  for (let i = 0; i < 3000; i++) b.add(`https://a.example/${i}`, i, 0.5, 0, null);
  const p = b.build();
  equal(p.count, 3000);
  const buffers = [p.urlBytes, p.urlEnds, p.lastModified, p.priority, p.changeFrequency].map((a) =>
    a.buffer
  );
  equal(new Set(buffers).size, 5);
  equal(p.urlEnds.length, 3000);
  equal(p.lastModified.buffer.byteLength, 3000 * 8);
  equal(p.urlBytes.buffer.byteLength, p.urlBytes.length);
  equal(p.urlEnds[2999], p.urlBytes.length);
  notStrictEqual(p.lastModified[2999], undefined);
});

Deno.test("PackedPagesBuilder counts URL ends in UTF-16 units for non-ASCII URLs", () => {
  const b = new PackedPagesBuilder();
  b.add("https://a.example/ż😀", NaN, 0.5, 0, null);
  b.add("https://a.example/ż😀", NaN, 0.5, 0, null);
  b.add("https://a.example/x", NaN, 0.5, 0, null);
  const p = b.build();
  deepStrictEqual([...p.urlEnds], [21, 40]);
  deepStrictEqual(rows(p).map((r) => r.url), ["https://a.example/ż😀", "https://a.example/x"]);
});

Deno.test("PackedPagesBuilder grows through many URLs and table resizes", () => {
  const b = new PackedPagesBuilder();
  const n = 20_000;
  for (let i = 0; i < n; i++) b.add(`https://a.example/${i}`, NaN, 0.5, 0, null);
  for (let i = 0; i < n; i += 7) equal(b.add(`https://a.example/${i}`, NaN, 0.5, 0, null), false);
  equal(b.found, n);
  equal(b.floodFallback, false);
  const p = b.build();
  equal(p.count, n);
  equal(rows(p)[n - 1]!.url, `https://a.example/${n - 1}`);
});

Deno.test("PackedPagesBuilder moves dedup to a Set when probing gets long, losing nothing", () => {
  const b = new PackedPagesBuilder(NaN, { probesPerEntry: 0, probeSlack: 0 });
  const n = 5_000;
  for (let i = 0; i < n; i++) b.add(`https://a.example/${i}`, NaN, 0.5, 0, null);
  equal(b.floodFallback, true);
  for (let i = 0; i < n; i += 3) equal(b.add(`https://a.example/${i}`, NaN, 0.5, 0, null), false);
  equal(b.add("https://a.example/new", NaN, 0.5, 0, null), true);
  equal(b.found, n + 1);
  const p = b.build();
  deepStrictEqual(rows(p).map((r) => r.url).slice(-2), [
    `https://a.example/${n - 1}`,
    "https://a.example/new",
  ]);
});
