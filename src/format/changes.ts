/**
 * The changes between two trees as `diff`, `watch` and `batch --state`
 * print them: `tabtree` (`+`, `-`, `~` and `?` lines grouped by sitemap),
 * `ndjson` (the lines of `sitemapChangeLine()`) and `summary` (the counts).
 *
 * @module
 */
import {
  type PageChange,
  type PageChangeField,
  type SitemapChange,
  type SitemapChangeCounts,
  type SitemapChangeKind,
  sitemapChangeLine,
  type SitemapChanges,
  type SitemapTreeChange,
} from "../changes.ts";
import { isoString } from "../objects/_iso.ts";
import type { SitemapPage } from "../objects/page.ts";
import { formatCount } from "./_units.ts";
import { stripOrigin } from "./tab_tree.ts";

/** What `changeTabTree()` prints when nothing changed. */
export const NO_CHANGES = "no changes";

/** Each kind of change's mark at the start of its line. */
const MARK: Readonly<Record<SitemapChangeKind, string>> = {
  added: "+",
  removed: "-",
  changed: "~",
  unavailable: "?",
};

/**
 * The `tabtree` format of the changes: one line per sitemap that changed or
 * holds changed pages, then a line per page under it, each starting with
 * its mark (`+` added, `-` removed, `~` changed, `?` unavailable; a space
 * for a sitemap that only holds changes), so `grep '^+'` finds every
 * addition. Page URLs are indented by two more columns. A changed page
 * names its fields with the values `before → after`; a sitemap line says
 * its type, or its change of type or reason. When nothing changed, one
 * line: `no changes`.
 *
 * @param changes The changes, grouped by sitemap as `compareSitemapTrees()` yields them.
 * @param origin URLs on this origin are printed as paths (`-u`); "" prints them whole.
 * @returns Lines with their `\n`.
 *
 * @example Two versions of a sitemap
 * ```ts
 * import { compareSitemapTrees, sitemapFromString } from "@sitemap/tree";
 * import { changeTabTree } from "./changes.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const url = "https://www.example.com/sitemap.txt";
 * const before = sitemapFromString("https://www.example.com/a\n", { url });
 * const after = sitemapFromString("https://www.example.com/b\n", { url });
 * deepStrictEqual([...changeTabTree(compareSitemapTrees(before, after), "https://www.example.com")], [
 *   "  /sitemap.txt\n",
 *   "+   /b\n",
 *   "-   /a\n",
 * ]);
 * ```
 */
export function* changeTabTree(
  changes: Iterable<SitemapTreeChange>,
  origin = "",
): Generator<string, void, undefined> {
  const url = (u: string): string => origin === "" ? u : stripOrigin(u, origin);
  let group: string | null = null;
  let groupReason: string | null = null;
  let any = false;
  for (const change of changes) {
    any = true;
    if (change.kind === "sitemap") {
      group = change.sitemap;
      groupReason = change.reason ?? change.after?.reason ?? null;
      const detail = sitemapDetail(change);
      yield `${MARK[change.change]} ${url(change.sitemap)}${detail === "" ? "" : `  ${detail}`}\n`;
      continue;
    }
    if (change.sitemap !== group) {
      group = change.sitemap;
      groupReason = null;
      yield `  ${url(change.sitemap)}\n`;
    }
    const detail = pageDetail(change, url, groupReason);
    yield `${MARK[change.change]}   ${url(change.page)}${detail === "" ? "" : `  ${detail}`}\n`;
  }
  if (!any) yield `${NO_CHANGES}\n`;
}

/** What a sitemap line says after its URL. */
function sitemapDetail(change: SitemapChange): string {
  const { before, after } = change;
  switch (change.change) {
    case "added":
      return after!.reason === null ? after!.type : `invalid: ${after!.reason}`;
    case "removed":
      return before!.type;
    case "unavailable":
      return `unavailable: ${change.reason ?? ""}`;
    case "changed":
      if (before!.type === after!.type) {
        return `reason: ${before!.reason ?? "-"} → ${after!.reason ?? "-"}`;
      }
      return `${before!.type} → ${after!.type}${
        after!.reason === null ? "" : `: ${after!.reason}`
      }`;
  }
}

/** What a page line says after its URL: the changed fields, or why it is unavailable. */
function pageDetail(
  change: PageChange,
  url: (u: string) => string,
  groupReason: string | null,
): string {
  if (change.change === "unavailable") {
    // The sitemap's line says why, unless the group has none.
    return change.reason === null || change.reason === groupReason ? "" : change.reason;
  }
  if (change.change !== "changed") return "";
  return change.fields.map((field) => {
    if (field === "sitemap") {
      return `sitemap ${url(change.previousSitemap ?? "")} → ${url(change.sitemap)}`;
    }
    let before = shortValue(change.before!, field);
    let after = shortValue(change.after!, field);
    if (before === after) {
      // What the short form leaves out (a caption, a news keyword) changed.
      before = JSON.stringify(pageJSON(change.before!)[field]);
      after = JSON.stringify(pageJSON(change.after!)[field]);
    }
    return `${field} ${before} → ${after}`;
  }).join("; ");
}

function pageJSON(page: SitemapPage): Record<string, unknown> {
  return page.toJSON() as unknown as Record<string, unknown>;
}

/** A field's value in a few characters: a date, a word, or a list of URLs. */
function shortValue(page: SitemapPage, field: Exclude<PageChangeField, "sitemap">): string {
  switch (field) {
    case "lastModified":
      return page.lastModified === null ? "-" : shortDate(page.lastModified);
    case "changeFrequency":
      return page.changeFrequency ?? "-";
    case "priority":
      return String(page.priority);
    case "images":
      return `[${page.images.map((image) => image.loc).join(", ")}]`;
    case "videos":
      return `[${
        page.videos.map((v) => v.contentLoc ?? v.playerLoc ?? v.thumbnailLoc).join(", ")
      }]`;
    case "alternates":
      return `[${page.alternates.map((a) => `${a.hreflang}=${a.href}`).join(", ")}]`;
    case "newsStory":
      return page.newsStory === null ? "-" : JSON.stringify(page.newsStory.title);
  }
}

/** A date as ISO 8601, without the time at midnight UTC and without zero milliseconds. */
function shortDate(date: Date): string {
  const iso = isoString(date.getTime());
  if (iso.endsWith("T00:00:00.000Z")) return iso.slice(0, 10);
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

/**
 * The `summary` format of the changes: pages and sitemaps per kind of
 * change as a table, then the changed pages per field, and first, when the
 * later tree reached nothing, why.
 *
 * @param changes The changes.
 * @returns Lines with their `\n`.
 *
 * @example The counts
 * ```ts
 * import { compareSitemapTrees, sitemapFromString } from "@sitemap/tree";
 * import { changeSummary } from "./changes.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const url = "https://www.example.com/sitemap.txt";
 * const before = sitemapFromString("https://www.example.com/a\n", { url });
 * const after = sitemapFromString("https://www.example.com/b\n", { url });
 * deepStrictEqual([...changeSummary(compareSitemapTrees(before, after))], [
 *   "          ADDED  REMOVED  CHANGED  UNAVAILABLE  UNCHANGED\n",
 *   "pages         1        1        0            0          0\n",
 *   "sitemaps      0        0        0            0          1\n",
 * ]);
 * ```
 */
export function* changeSummary(changes: SitemapChanges): Generator<string, void, undefined> {
  if (changes.unreachable !== null) yield `${changes.unreachable}\n`;
  const counts: SitemapChangeCounts = changes.counts;
  const heads = ["ADDED", "REMOVED", "CHANGED", "UNAVAILABLE", "UNCHANGED"];
  const kinds = ["added", "removed", "changed", "unavailable", "unchanged"] as const;
  const rows = (["pages", "sitemaps"] as const).map((what) => [
    what,
    ...kinds.map((kind) => formatCount(counts[what][kind])),
  ]);
  // Each column as wide as its heading or its widest count.
  const widths = ["", ...heads].map((head, c) =>
    Math.max(c === 0 ? 8 : head.length, ...rows.map((row) => row[c]!.length))
  );
  for (const row of [["", ...heads], ...rows]) {
    yield row.map((cell, c) => c === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[c]!))
      .join("  ") + "\n";
  }
  const fields = Object.entries(counts.fields).filter(([, n]) => n > 0);
  if (fields.length > 0) {
    yield `changed fields: ${fields.map(([f, n]) => `${f} ${formatCount(n)}`).join(", ")}\n`;
  }
}

/**
 * The `ndjson` format: one `sitemapChangeLine()` object per line, with
 * `site` first when given (`batch --state --format changes`).
 *
 * @param changes The changes.
 * @param site The site to name on each line, or null.
 * @returns Lines with their `\n`.
 */
export function* changeLines(
  changes: Iterable<SitemapTreeChange>,
  site: string | null = null,
): Generator<string, void, undefined> {
  const head = site === null ? "{" : `{"site":${JSON.stringify(site)},`;
  for (const change of changes) {
    yield head + JSON.stringify(sitemapChangeLine(change)).slice(1) + "\n";
  }
}
