/**
 * A site's content inventory: pages per path prefix (`/blog`, `/products`),
 * with how fresh each section is and which sitemaps list it. What SEO users
 * build by hand from advertools' `sitemap_to_df()` and its `dir_1` column,
 * computed in one pass over the tree's packed pages.
 *
 * @module
 */
import { integerOption } from "./_option_checks.ts";
import { pageInventory, type SectionTally } from "./_page_inventory.ts";
import type { AbstractSitemap } from "./objects/sitemap.ts";

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

/** The pages under one path prefix; see {@linkcode sectionsOf}. */
export interface SitemapSection {
  /**
   * The origin and the first `depth` non-empty path segments, without a
   * trailing slash: `https://www.example.com/blog`. Pages with fewer
   * segments form the section of their own path (`https://www.example.com/about`);
   * the home page and pages without a path are the origin's section,
   * which ends in `/` (`https://www.example.com/`). Query and fragment never count.
   */
  readonly prefix: string;
  /** Distinct page URLs in the section (a URL listed by several sitemaps counts once). */
  readonly pages: number;
  /** Listings of those pages, duplicates included (advertools' row count). */
  readonly listings: number;
  /** `pages` over the tree's distinct pages, from 0 to 1. */
  readonly share: number;
  /** The oldest lastmod among the section's pages, or null when none has one. */
  readonly lastModifiedMin: Date | null;
  /** The newest lastmod among the section's pages, or null when none has one. */
  readonly lastModifiedMax: Date | null;
  /** Pages without a lastmod (not part of the range). */
  readonly undated: number;
  /** The sitemaps that list any of its pages, by URL, in tree order. */
  readonly sitemaps: readonly string[];
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
 * import assert from "node:assert/strict";
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
 * assert.deepEqual(sectionsOf(tree).map((s) => [s.prefix, s.pages, s.share]), [
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
  const depth = integerOption("depth", options.depth, 1, 0);
  const inventory = pageInventory(tree, { depth, months: false, unique: true });
  return sectionsFromTallies(inventory.sections, inventory.pages);
}

/**
 * Shapes counted sections as {@linkcode sectionsOf} returns them.
 *
 * @param tallies The sections as counted.
 * @param pages The tree's distinct pages.
 * @returns The sections.
 */
export function sectionsFromTallies(
  tallies: readonly SectionTally[],
  pages: number,
): SitemapSection[] {
  return tallies.map((t) => ({
    prefix: t.prefix,
    pages: t.pages,
    listings: t.listings,
    share: pages === 0 ? 0 : t.pages / pages,
    lastModifiedMin: t.min === t.min ? new Date(t.min) : null,
    lastModifiedMax: t.max === t.max ? new Date(t.max) : null,
    undated: t.undated,
    sitemaps: t.sitemaps,
  }));
}
