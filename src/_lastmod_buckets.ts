/**
 * The buckets of a lastmod histogram: month counts made into every month
 * (or year) from the first to the last, runs of empty ones folded. What
 * `lastmodHistogram()`, `ls -f histogram` and the report draw.
 *
 * @module
 */

/** Months a histogram shows one by one; a longer span is shown by year. */
const MAX_MONTHS = 36;

/** Empty buckets in a row from which they are folded into one. */
const FOLD_EMPTY = 3;

/** One bar of a {@linkcode LastmodHistogram}. */
export interface LastmodBucket {
  /**
   * `2024-03` (a month), `2024` (a year), or `2019-04–2021-02` (a run of
   * three or more empty months or years, folded into one bucket of 0 pages).
   */
  readonly label: string;
  /** The first instant of the bucket (UTC). */
  readonly start: Date;
  /** The first instant after the bucket (UTC). */
  readonly end: Date;
  /** Pages whose lastmod falls in it. */
  readonly pages: number;
}

/** Pages by lastmod, as `lastmodHistogram()` returns them. */
export interface LastmodHistogram {
  /** `month` when the dated pages span at most 36 months, else `year`. */
  readonly unit: "month" | "year";
  /** Every month (or year) from the first lastmod to the last, runs of empty ones folded; empty when no page has a lastmod. */
  readonly buckets: readonly LastmodBucket[];
  /** Pages without a lastmod. */
  readonly undated: number;
  /** Pages counted, dated and undated. */
  readonly pages: number;
}

/**
 * Buckets month counts as `lastmodHistogram()` describes.
 *
 * @param byMonth Pages per month number (`year * 12 + month`, month from 0).
 * @param undated Pages without a lastmod.
 * @returns The histogram.
 */
export function histogramOfMonths(
  byMonth: ReadonlyMap<number, number>,
  undated: number,
): LastmodHistogram {
  let dated = 0;
  for (const n of byMonth.values()) dated += n;
  const raw: [label: string, from: number, to: number, pages: number][] = [];
  let unit: "month" | "year" = "month";
  if (byMonth.size > 0) {
    let first = Infinity;
    let last = -Infinity;
    for (const m of byMonth.keys()) {
      if (m < first) first = m;
      if (m > last) last = m;
    }
    if (last - first < MAX_MONTHS) {
      for (let m = first; m <= last; m++) raw.push([monthLabel(m), m, m + 1, byMonth.get(m) ?? 0]);
    } else {
      // Decades of lastmods by month would be a wall of bars: by year instead.
      unit = "year";
      const byYear = new Map<number, number>();
      for (const [m, n] of byMonth) {
        const year = Math.floor(m / 12);
        byYear.set(year, (byYear.get(year) ?? 0) + n);
      }
      for (let y = Math.floor(first / 12); y <= Math.floor(last / 12); y++) {
        raw.push([yearLabel(y), y * 12, y * 12 + 12, byYear.get(y) ?? 0]);
      }
    }
  }
  const buckets: LastmodBucket[] = [];
  for (let i = 0; i < raw.length;) {
    let j = i;
    while (j < raw.length && raw[j]![3] === 0) j++;
    if (j - i >= FOLD_EMPTY) {
      buckets.push(bucket(`${raw[i]![0]}–${raw[j - 1]![0]}`, raw[i]![1], raw[j - 1]![2], 0));
      i = j;
    } else {
      const [label, from, to, pages] = raw[i]!;
      buckets.push(bucket(label, from, to, pages));
      i++;
    }
  }
  return { unit, buckets, undated, pages: dated + undated };
}

function bucket(label: string, from: number, to: number, pages: number): LastmodBucket {
  return { label, start: monthStart(from), end: monthStart(to), pages };
}

function monthStart(m: number): Date {
  const year = Math.floor(m / 12);
  const date = new Date(Date.UTC(2000, m - year * 12, 1));
  // Date.UTC maps years 0-99 to 1900-1999: set the year apart.
  date.setUTCFullYear(year);
  return date;
}

/** A year as ISO 8601 writes it: four digits at least. */
function yearLabel(year: number): string {
  return year < 0 ? String(year) : String(year).padStart(4, "0");
}

function monthLabel(m: number): string {
  const year = Math.floor(m / 12);
  return `${yearLabel(year)}-${String(m - year * 12 + 1).padStart(2, "0")}`;
}
