/**
 * The `histogram` format of `ls`: pages by lastmod month as a bar chart.
 *
 * @module
 */
import type { AbstractSitemap } from "../objects/sitemap.ts";
import { lastmodHistogram } from "../histogram.ts";
import { formatCount } from "./_units.ts";

/** Bar width of the largest month in {@linkcode histogramFormat}. */
const HISTOGRAM_WIDTH = 50;

/**
 * `histogram`: a bar chart of pages by lastmod month (UTC), every month from
 * the first to the last (by year when they span more than three years; three
 * or more empty rows in a row are shown as one), then a bar for pages without
 * a lastmod; see `lastmodHistogram()`. Every listing counts.
 *
 * @param root The tree.
 * @returns Lines with their `\n`.
 */
export function* histogramFormat(root: AbstractSitemap): Generator<string, void, undefined> {
  const { buckets, undated } = lastmodHistogram(root, { unique: false });
  const rows: [string, number][] = buckets.map((b) => [b.label, b.pages]);
  if (undated > 0) rows.push(["no date", undated]);
  if (rows.length === 0) {
    yield "no pages\n";
    return;
  }
  const max = Math.max(...rows.map(([, n]) => n));
  const countWidth = Math.max(...rows.map(([, n]) => formatCount(n).length));
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  for (const [label, n] of rows) {
    // A month with pages always shows at least one block.
    const bar = n === 0 ? 0 : Math.max(1, Math.round((n / max) * HISTOGRAM_WIDTH));
    yield `${label.padEnd(labelWidth)}  ${formatCount(n).padStart(countWidth)}${
      bar === 0 ? "" : "  " + "█".repeat(bar)
    }\n`;
  }
}
