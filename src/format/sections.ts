/**
 * The `sections` format of `ls`: a site's content inventory, one row per
 * path prefix (`sectionsOf()`).
 *
 * @module
 */
import type { AbstractSitemap } from "../objects/sitemap.ts";
import { isoString } from "../objects/_iso.ts";
import { sectionsOf, type SitemapSection } from "../sections.ts";
import { formatCount } from "./_units.ts";
import { alignedRows } from "./_table.ts";
import { originOf, stripOrigin } from "./tab_tree.ts";

/** Sitemaps named per row; the rest are counted. */
const SITEMAPS_SHOWN = 3;

function day(date: Date | null): string {
  return date === null ? "-" : isoString(date.getTime()).slice(0, 10);
}

/** `12.5%`: one decimal, `<0.1%` for a share too small to show. */
function percent(share: number): string {
  if (share > 0 && share < 0.0005) return "<0.1%";
  return `${(share * 100).toFixed(1)}%`;
}

function sitemaps(section: SitemapSection, show: (url: string) => string): string {
  const list = section.sitemaps;
  const shown = list.slice(0, SITEMAPS_SHOWN).map(show).join(" ");
  return list.length > SITEMAPS_SHOWN ? `${shown} (+${list.length - SITEMAPS_SHOWN} more)` : shown;
}

/**
 * `sections`: pages per path prefix, `depth` segments deep, in tree order of
 * first appearance: the prefix, its distinct pages, their share of the
 * site's, the oldest and newest lastmod (UTC days), the pages without one,
 * and the sitemaps that list them (the first three, then how many more);
 * then one line of totals. With `stripUrl`, URLs on the root's own host
 * are written as paths.
 *
 * @param root The tree.
 * @param depth Path segments per section (`sectionsOf()`'s `depth`).
 * @param stripUrl Write URLs on the root's host as paths.
 * @returns Lines with their `\n`.
 */
export function* sectionsFormat(
  root: AbstractSitemap,
  depth: number,
  stripUrl = false,
): Generator<string, void, undefined> {
  const sections = sectionsOf(root, { depth });
  const origin = stripUrl ? originOf(root) : "";
  const show = (url: string): string => stripOrigin(url, origin);
  const rows: string[][] = [[
    "SECTION",
    "PAGES",
    "SHARE",
    "OLDEST",
    "NEWEST",
    "UNDATED",
    "SITEMAPS",
  ]];
  let pages = 0;
  for (const s of sections) {
    pages += s.pages;
    rows.push([
      show(s.prefix),
      formatCount(s.pages),
      percent(s.share),
      day(s.lastModifiedMin),
      day(s.lastModifiedMax),
      formatCount(s.undated),
      sitemaps(s, show),
    ]);
  }
  yield* alignedRows(rows, new Set([1, 2, 5]));
  const n = sections.length;
  yield `\n${formatCount(n)} section${n === 1 ? "" : "s"} (${depth} path segment${
    depth === 1 ? "" : "s"
  } deep), ${formatCount(pages)} distinct page${pages === 1 ? "" : "s"}\n`;
}
