/**
 * Pages by lastmod month: the data behind `ls -f histogram` and the
 * report's freshness chart.
 *
 * @module
 */
import { pageInventory } from "./_page_inventory.ts";
import type { AbstractSitemap } from "./objects/sitemap.ts";
import { histogramOfMonths, type LastmodHistogram } from "./_lastmod_buckets.ts";

export type { LastmodBucket, LastmodHistogram } from "./_lastmod_buckets.ts";

/** Options of {@linkcode lastmodHistogram}. */
export interface LastmodHistogramOptions {
  /**
   * Count each page URL once, as its first listing in tree order (the
   * listing's lastmod counts); false counts every listing.
   *
   * @default {true}
   */
  readonly unique?: boolean;
}

/**
 * Pages by lastmod month (UTC): every month from the first lastmod to the
 * last, by year instead when they span more than three years; runs of three
 * or more empty buckets are folded into one, so the months with pages stay
 * together; pages without a lastmod are counted apart.
 *
 * @param tree The tree (any node).
 * @param options Whether to count each URL once.
 * @returns The buckets, in time order.
 *
 * @example Two months, one empty one between them folded away
 * ```ts
 * import { lastmodHistogram, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const tree = sitemapFromString(
 *   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *     <url><loc>https://example.com/a</loc><lastmod>2024-01-05</lastmod></url>
 *     <url><loc>https://example.com/b</loc><lastmod>2024-03-01</lastmod></url>
 *     <url><loc>https://example.com/c</loc></url>
 *   </urlset>`,
 *   { url: "https://example.com/sitemap.xml" },
 * );
 * const histogram = lastmodHistogram(tree);
 * deepStrictEqual(histogram.buckets.map((b) => [b.label, b.pages]), [
 *   ["2024-01", 1],
 *   ["2024-02", 0],
 *   ["2024-03", 1],
 * ]);
 * strictEqual(histogram.undated, 1);
 * ```
 */
export function lastmodHistogram(
  tree: AbstractSitemap,
  options: LastmodHistogramOptions = {},
): LastmodHistogram {
  const inventory = pageInventory(tree, {
    depth: null,
    months: true,
    unique: options.unique ?? true,
  });
  return histogramOfMonths(inventory.months, inventory.undated);
}
