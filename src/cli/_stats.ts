/**
 * The `--stats` report of `ls`: the call's counters as lines for people
 * (with `--json`, `ls` prints the counters as one JSON line instead).
 *
 * @module
 */
import type { SitemapTreeStats } from "../../mod.ts";
import { formatBytes, formatCount, formatDuration } from "../format/_units.ts";

/** Node types in tree order: the report lists the counts by type in this order. */
const TYPE_ORDER = ["website", "robots", "index", "urlset", "text", "rss", "atom", "invalid"];

function typeRank(type: string): number {
  const rank = TYPE_ORDER.indexOf(type);
  return rank === -1 ? TYPE_ORDER.length : rank;
}

/**
 * The `--stats` report, one line per fact, for people (not parsers).
 *
 * @param stats The root's counters.
 * @returns Lines without line breaks.
 */
export function formatStats(stats: SitemapTreeStats): string[] {
  // A fixed order: the library counts types in the order sitemaps finished, which varies.
  const byType = Object.entries(stats.sitemapsByType).sort(([a], [b]) => typeRank(a) - typeRank(b));
  const total = byType.reduce((sum, [, n]) => sum + n, 0);
  const lines = [
    `sitemaps      ${formatCount(total)}${
      byType.length === 0
        ? ""
        : ` (${byType.map(([type, n]) => `${type} ${formatCount(n)}`).join(", ")})`
    }`,
    `invalid       ${formatCount(stats.invalid.length)}`,
  ];
  for (const { url, reason } of stats.invalid) lines.push(`  ${url}: ${reason}`);
  if (stats.warnings.length > 0) {
    lines.push(`read in part  ${formatCount(stats.warnings.length)}`);
    for (const { url, warning } of stats.warnings) lines.push(`  ${url}: ${warning}`);
  }
  lines.push(
    `requests      ${formatCount(stats.requests)}`,
    `downloaded    ${formatBytes(stats.bytesDownloaded)}`,
    `decompressed  ${formatBytes(stats.bytesDecompressed)}`,
    `pages         ${formatCount(stats.pagesFound)} found, ${formatCount(stats.pagesKept)} kept`,
  );
  // Incremental-crawl counters only matter, and only show, when something was reused.
  if (stats.notModified > 0) {
    lines.push(`not modified  ${formatCount(stats.notModified)} (304, reused from the cache)`);
  }
  if (stats.skipped > 0) {
    lines.push(`skipped       ${formatCount(stats.skipped)} (index lastmod before --since)`);
  }
  if (stats.cacheErrors.length > 0) {
    lines.push(`cache errors  ${formatCount(stats.cacheErrors.length)}`);
    for (const { url, reason } of stats.cacheErrors) lines.push(`  ${url}: ${reason}`);
  }
  lines.push(
    `parse time    ${formatDuration(stats.parseMs)}`,
    `elapsed       ${formatDuration(stats.elapsedMs)}`,
  );
  return lines;
}
