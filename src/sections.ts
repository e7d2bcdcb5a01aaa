/**
 * A site's content inventory: pages per path prefix (`/blog`, `/products`),
 * with how fresh each section is and which sitemaps list it. What SEO users
 * build by hand from advertools' `sitemap_to_df()` and its `dir_1` column,
 * computed in one pass over the tree's packed pages.
 *
 * @module
 */
import { integerOption } from "./_option_checks.ts";
import { pageInventory, type SitemapSection } from "./_page_inventory.ts";
import type { AbstractSitemap } from "./objects/sitemap.ts";

export type { SitemapSection } from "./_page_inventory.ts";

/** The default of {@linkcode SectionsOptions.depth}, which `ls -f sections --depth` names too. */
export const SECTIONS_DEFAULTS: Readonly<{ depth: number }> = Object.freeze({ depth: 1 });

/** Options of {@linkcode sectionsOf}. */
export interface SectionsOptions {
  /**
   * Path segments a section spans: 1 groups `/blog/a` and `/blog/b/c` as
   * `/blog`; 2 tells `/blog/b` apart. 0 groups by origin alone.
   *
   * @default {1}
   */
  readonly depth?: number;
}

/**
 * Pages per path prefix: a site's content inventory. Each section gives
 * its page count and share, its lastmod range (pages without a lastmod
 * counted apart) and the sitemaps that list it; sections come in tree
 * order of first appearance.
 *
 * A page URL is counted once however many sitemaps list it, as its first
 * listing in tree order (whose lastmod counts): the inventory counts pages,
 * not sitemap entries, as `compareSitemapTrees()` and `summary`'s
 * "distinct" do. `listings` keeps the per-entry count that a
 * `sitemap_to_df()` row count gives, and every listing's sitemap is named.
 *
 * It reads the packed columns once: no page object, string or `Date` is
 * made per page, so a tree of a million pages costs about as much as
 * iterating it.
 *
 * @param tree The tree (any node).
 * @param options How many path segments a section spans.
 * @returns The sections, in order of first appearance.
 * @throws {RangeError} When `depth` is not an integer >= 0.
 *
 * @example Sections one segment deep
 * ```ts
 * import { sectionsOf, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const tree = sitemapFromString(
 *   [
 *     "https://example.com/",
 *     "https://example.com/blog/a",
 *     "https://example.com/blog/b/c",
 *     "https://example.com/about",
 *   ].join("\n"),
 *   { url: "https://example.com/sitemap.txt" },
 * );
 * deepStrictEqual(sectionsOf(tree).map((s) => [s.prefix, s.pages, s.share]), [
 *   ["https://example.com/", 1, 0.25],
 *   ["https://example.com/blog", 2, 0.5],
 *   ["https://example.com/about", 1, 0.25],
 * ]);
 * ```
 */
export function sectionsOf(
  tree: AbstractSitemap,
  options: SectionsOptions = {},
): SitemapSection[] {
  const depth = integerOption("depth", options.depth, SECTIONS_DEFAULTS.depth, 0);
  return pageInventory(tree, { depth, months: false, unique: true }).sections;
}
