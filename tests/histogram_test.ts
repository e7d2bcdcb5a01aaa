import assert from "node:assert/strict";
import { lastmodHistogram } from "../src/histogram.ts";
import { histogramOfMonths } from "../src/_lastmod_buckets.ts";
import { monthOfDay } from "../src/_page_inventory.ts";
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { IndexWebsiteSitemap } from "../src/objects/sitemap.ts";
import { urlset } from "./_tree_helpers.ts";

const H = "https://site.test";

function buckets(histogram: ReturnType<typeof lastmodHistogram>): unknown[] {
  return histogram.buckets.map((
    b,
  ) => [b.label, b.pages, b.start.toISOString(), b.end.toISOString()]);
}

Deno.test("lastmodHistogram() counts each URL once by default, every listing with unique: false", () => {
  const one = sitemapFromString(urlset(["/a", "/b"], ["2024-01-10", "2024-03-01"]), {
    url: `${H}/one.xml`,
  });
  const two = sitemapFromString(urlset(["/a", "/c"], ["2024-03-09", ""]), { url: `${H}/two.xml` });
  const tree = new IndexWebsiteSitemap(`${H}/`, [one, two]);
  const unique = lastmodHistogram(tree);
  assert.deepEqual(buckets(unique), [
    ["2024-01", 1, "2024-01-01T00:00:00.000Z", "2024-02-01T00:00:00.000Z"],
    ["2024-02", 0, "2024-02-01T00:00:00.000Z", "2024-03-01T00:00:00.000Z"],
    ["2024-03", 1, "2024-03-01T00:00:00.000Z", "2024-04-01T00:00:00.000Z"],
  ]);
  assert.deepEqual([unique.unit, unique.undated, unique.pages], ["month", 1, 3]);
  const every = lastmodHistogram(tree, { unique: false });
  assert.deepEqual(every.buckets.map((b) => b.pages), [1, 0, 2]);
  assert.equal(every.pages, 4);
});

Deno.test("lastmodHistogram() goes by year past 36 months and folds runs of empty years", () => {
  const tree = sitemapFromString(
    urlset(["/1", "/2", "/3", "/4"], ["2001-06-01", "2003-01-01", "2024-12-31", "2024-01-01"]),
    { url: `${H}/s.xml` },
  );
  const histogram = lastmodHistogram(tree);
  assert.equal(histogram.unit, "year");
  assert.deepEqual(buckets(histogram), [
    ["2001", 1, "2001-01-01T00:00:00.000Z", "2002-01-01T00:00:00.000Z"],
    ["2002", 0, "2002-01-01T00:00:00.000Z", "2003-01-01T00:00:00.000Z"],
    ["2003", 1, "2003-01-01T00:00:00.000Z", "2004-01-01T00:00:00.000Z"],
    ["2004–2023", 0, "2004-01-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z"],
    ["2024", 2, "2024-01-01T00:00:00.000Z", "2025-01-01T00:00:00.000Z"],
  ]);
});

Deno.test("lastmodHistogram() counts lastmods before 1970 and after 2099 too", () => {
  const tree = sitemapFromString(
    urlset(["/1", "/2", "/3"], ["1965-04-02", "2150-01-01", "2150-12-31T23:59:59Z"]),
    { url: `${H}/s.xml` },
  );
  assert.deepEqual(
    lastmodHistogram(tree).buckets.map((b) => [b.label, b.pages]),
    [["1965", 1], ["1966–2149", 0], ["2150", 2]],
  );
});

Deno.test("lastmodHistogram() of pages without dates has no buckets, only the undated count", () => {
  const tree = sitemapFromString(urlset(["/a", "/b"]), { url: `${H}/s.xml` });
  assert.deepEqual(lastmodHistogram(tree), { unit: "month", buckets: [], undated: 2, pages: 2 });
});

Deno.test("histogramOfMonths() writes years before 1000 with four digits and keeps years before 100 as they are", () => {
  const histogram = histogramOfMonths(new Map([[50 * 12 + 1, 3]]), 0);
  assert.deepEqual(buckets(histogram), [
    ["0050-02", 3, "0050-02-01T00:00:00.000Z", "0050-03-01T00:00:00.000Z"],
  ]);
});

Deno.test("monthOfDay() agrees with Date's UTC fields across leap years and eras", () => {
  const check = (day: number) => {
    const date = new Date(day * 86_400_000);
    assert.equal(monthOfDay(day), date.getUTCFullYear() * 12 + date.getUTCMonth(), `day ${day}`);
  };
  for (let day = -800_000; day <= 800_000; day += 1) check(day);
  for (const day of [-719_469, -719_468, 0, 59, 60, 11_016, 2_932_896]) check(day);
});
