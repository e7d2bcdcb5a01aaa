import assert from "node:assert/strict";
import { histogramFormat } from "../../src/format/histogram.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";

Deno.test("histogramFormat() folds three or more empty months into one row, and decades into years", () => {
  const doc = (dates: string[]): string =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
      dates.map((d, i) =>
        `<url><loc>https://a.test/${i}</loc>${d === "" ? "" : `<lastmod>${d}</lastmod>`}</url>`
      )
        .join("")
    }</urlset>`;
  const chart = (dates: string[]): string[] => [
    ...histogramFormat(sitemapFromString(doc(dates), { url: "https://a.test/s.xml" })),
  ];
  assert.deepEqual(chart(["2024-01-03", "2024-01-20", "2024-05-01", ""]), [
    `2024-01          2  ${"█".repeat(50)}\n`,
    "2024-02–2024-04  0\n",
    `2024-05          1  ${"█".repeat(25)}\n`,
    `no date          1  ${"█".repeat(25)}\n`,
  ]);
  assert.deepEqual(chart(["2001-06-01", "2003-01-01", "2024-12-31", "2024-01-01"]), [
    `2001       1  ${"█".repeat(25)}\n`,
    "2002       0\n",
    `2003       1  ${"█".repeat(25)}\n`,
    "2004–2023  0\n",
    `2024       2  ${"█".repeat(50)}\n`,
  ]);
  assert.deepEqual(chart([]), ["no pages\n"]);
});
