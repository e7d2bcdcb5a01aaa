/**
 * The `histogram` format of `ls`: pages by lastmod month as a bar chart.
 *
 * @module
 */
import type { AbstractSitemap } from "../objects/sitemap.ts";
import { pagesNodes } from "./page_records.ts";
import { formatCount } from "./_units.ts";

/** Months a histogram shows one by one; a longer span is shown by year. */
const HISTOGRAM_MAX_MONTHS = 36;

/** Bar width of the largest month in {@linkcode histogramFormat}. */
const HISTOGRAM_WIDTH = 50;

/**
 * `histogram`: a bar chart of pages by lastmod month (UTC), every month from
 * the first to the last (by year when they span more than three years; three
 * or more empty rows in a row are shown as one), then a bar for pages without
 * a lastmod.
 *
 * @param root The tree.
 * @returns Lines with their `\n`.
 */
export function* histogramFormat(root: AbstractSitemap): Generator<string, void, undefined> {
  const byMonth = new Map<number, number>();
  let undated = 0;
  for (const node of pagesNodes(root)) {
    for (const page of node.allPages()) {
      const date = page.lastModified;
      if (date === null) {
        undated++;
        continue;
      }
      const month = date.getUTCFullYear() * 12 + date.getUTCMonth();
      byMonth.set(month, (byMonth.get(month) ?? 0) + 1);
    }
  }
  const rows: [string, number][] = [];
  if (byMonth.size > 0) {
    const months = [...byMonth.keys()];
    const first = Math.min(...months);
    const last = Math.max(...months);
    if (last - first < HISTOGRAM_MAX_MONTHS) {
      for (let m = first; m <= last; m++) {
        const label = `${Math.floor(m / 12)}-${String(m % 12 + 1).padStart(2, "0")}`;
        rows.push([label, byMonth.get(m) ?? 0]);
      }
    } else {
      // Decades of lastmods by month would scroll away: by year instead.
      const byYear = new Map<number, number>();
      for (const [m, n] of byMonth) {
        byYear.set(Math.floor(m / 12), (byYear.get(Math.floor(m / 12)) ?? 0) + n);
      }
      for (let y = Math.floor(first / 12); y <= Math.floor(last / 12); y++) {
        rows.push([String(y), byYear.get(y) ?? 0]);
      }
    }
  }
  // A long gap is one row ("2004–2022  0"), so the months with pages stay on one screen.
  for (let i = 0; i < rows.length; i++) {
    let j = i;
    while (j < rows.length && rows[j]![1] === 0) j++;
    if (j - i >= 3) rows.splice(i, j - i, [`${rows[i]![0]}–${rows[j - 1]![0]}`, 0]);
  }
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
