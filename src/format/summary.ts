/**
 * The `summary` format of `ls`: one row per sitemap, then the totals.
 *
 * @module
 */
import { isoString } from "../objects/_iso.ts";
import {
  AbstractIndexSitemap,
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexWebsiteSitemap,
} from "../objects/sitemap.ts";
import type { SitemapFetchStat } from "../stats.ts";
import { formatBytes, formatCount } from "./_units.ts";
import { alignedRows } from "./_table.ts";

/**
 * `summary`: one row per sitemap in tree order — type, pages, bytes
 * downloaded, the `<lastmod>` its index gave it, the HTTP status (or `-`),
 * and its URL indented by depth, an invalid one followed by its reason —
 * then the totals, with distinct and duplicate page counts.
 *
 * @param root The tree.
 * @param records The call's fetch records (`stats.fetches`: statuses and sizes).
 * @returns Lines with their `\n`.
 */
export function* summaryFormat(
  root: AbstractSitemap,
  records: readonly SitemapFetchStat[],
): Generator<string, void, undefined> {
  const fetches = new Map<string, SitemapFetchStat>();
  for (const f of records) {
    if (!fetches.has(f.finalUrl)) fetches.set(f.finalUrl, f);
    if (!fetches.has(f.url)) fetches.set(f.url, f);
  }
  const rows: string[][] = [["TYPE", "PAGES", "BYTES", "LASTMOD", "STATUS", "SITEMAP"]];
  let sitemaps = 0;
  let invalid = 0;
  let pages = 0;
  let bytes = 0;
  const distinct = new Set<string>();
  const counted = new Set<SitemapFetchStat>();
  const visit = (node: AbstractSitemap, depth: number, lastmod: Date | null): void => {
    if (!(node instanceof IndexWebsiteSitemap)) {
      sitemaps++;
      const fetch = fetches.get(node.url);
      const count = node instanceof AbstractPagesSitemap ? node.pages.length : 0;
      pages += count;
      // A sitemap listed twice was downloaded once.
      if (fetch !== undefined && !counted.has(fetch)) {
        counted.add(fetch);
        bytes += fetch.downloadedBytes;
      }
      if (node instanceof AbstractPagesSitemap) {
        for (const page of node.allPages()) distinct.add(page.url);
      }
      const reason = (node as { readonly reason?: string }).reason;
      if (node.type === "invalid") invalid++;
      rows.push([
        node.type,
        formatCount(count),
        fetch === undefined ? "-" : formatBytes(fetch.downloadedBytes),
        lastmod === null ? "-" : isoString(lastmod.getTime()).slice(0, 10),
        fetch?.status === null || fetch === undefined ? "-" : String(fetch.status),
        "  ".repeat(depth) + node.url + (reason === undefined ? "" : `  (${reason})`),
      ]);
    }
    const next = node instanceof IndexWebsiteSitemap ? depth : depth + 1;
    const lastmods = node instanceof AbstractIndexSitemap && !(node instanceof IndexWebsiteSitemap)
      ? node.subSitemapLastModified
      : [];
    node.subSitemaps.forEach((child, i) => visit(child, next, lastmods[i] ?? null));
  };
  visit(root, 0, null);
  yield* alignedRows(rows, new Set([1, 2]));
  yield `\n${formatCount(sitemaps)} sitemaps (${formatCount(invalid)} invalid), ${
    formatCount(pages)
  } pages: ${formatCount(distinct.size)} distinct, ${
    formatCount(pages - distinct.size)
  } duplicates; ${formatBytes(bytes)} downloaded\n`;
}
