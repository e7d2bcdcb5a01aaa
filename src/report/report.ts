/**
 * `reportHtml()`: a sitemap tree as one self-contained HTML page a person
 * can read, print or send on (docs/design.md#the-report).
 *
 * @module
 */
import { compareSitemapTrees } from "../changes.ts";
import { histogramOfMonths, type LastmodHistogram } from "../_lastmod_buckets.ts";
import { isoString } from "../objects/_iso.ts";
import { type AbstractSitemap, IndexWebsiteSitemap } from "../objects/sitemap.ts";
import { integerOption } from "../_option_checks.ts";
import { pageInventory, type SitemapSection } from "../_page_inventory.ts";
import type { SitemapTreeStats } from "../stats.ts";
import { formatBytes, formatCount, formatDuration } from "../format/_units.ts";
import type { SitemapValidationReport } from "../validate.ts";
import { VERSION } from "../version.ts";
import { contentSecurityPolicy, SCRIPT, STYLE } from "./_assets.ts";
import { changesContent } from "./_changes.ts";
import { formatShare, histogramChart, sectionsChart } from "./_charts.ts";
import { type Html, linkTo, markup } from "./_html.ts";
import { problemsContent } from "./_problems.ts";
import { counted, fetchesByUrl, treeNode } from "./_tree.ts";
import { stripOrigin } from "../format/tab_tree.ts";

/** The defaults of {@linkcode ReportHtmlOptions}, in one place for the API, the CLI and the docs. */
export const REPORT_DEFAULTS: Readonly<{ sample: number; depth: number }> = Object.freeze({
  sample: 20,
  depth: 1,
});

/**
 * Sample URLs a whole report holds at most: a tree of thousands of
 * sitemaps gets fewer per sitemap, past 5,000 sitemaps one each for the
 * first 5,000, so the file stays a few MB.
 */
const MAX_SAMPLED_URLS = 5_000;

/** Sections listed in the table; the rest are counted. */
const SECTION_ROWS = 100;

/** Options of {@linkcode reportHtml}. */
export interface ReportHtmlOptions {
  /** An earlier tree of the site (a snapshot, say): the report then shows what changed since. */
  readonly against?: AbstractSitemap;
  /** The tree's problems, from `validateSitemapTree()`; without it the report says they were not checked. */
  readonly problems?: SitemapValidationReport;
  /**
   * Page URLs listed per sitemap (and per kind of change); the report
   * holds counts for everything and only these samples of URLs.
   *
   * @default {20}
   */
  readonly sample?: number;
  /**
   * Path segments a section spans (see `sectionsOf()`).
   *
   * @default {1}
   */
  readonly depth?: number;
  /** When the report is made, as it says. @default {new Date()} */
  readonly now?: Date;
}

/** Whether a root's stats come from a crawl (not a tree built by hand, from JSON or a document). */
function crawlStats(tree: AbstractSitemap): SitemapTreeStats | null {
  if (!(tree instanceof IndexWebsiteSitemap)) return null;
  const s = tree.stats;
  return s.requests > 0 || s.fetches.length > 0 || s.outcome !== "ok" ? s : null;
}

function utcTime(ms: number): string {
  return `${isoString(ms).slice(0, 16).replace("T", " ")} UTC`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

function siteName(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

const OUTCOMES: Readonly<Record<string, readonly [label: string, tone: string]>> = {
  "ok": ["Sitemaps found", "ok"],
  "no-sitemaps": ["No sitemap found", "warn"],
  "unreachable": ["Site unreachable", "bad"],
  "blocked": ["Blocked by a bot challenge", "bad"],
};

function header(tree: AbstractSitemap, stats: SitemapTreeStats | null, now: Date): Html {
  const [label, tone] = stats === null
    ? ["Read without a crawl", "ok"]
    : OUTCOMES[stats.outcome] ?? [stats.outcome, "bad"];
  let crawled = Infinity;
  for (const f of stats?.fetches ?? []) {
    if (f.fetchedAt !== null && f.fetchedAt < crawled) crawled = f.fetchedAt;
  }
  const facts = [
    markup`<div><dt>Outcome</dt><dd><span id="outcome" class="outcome outcome-${tone}">${label}</span></dd></div>`,
    Number.isFinite(crawled) ? markup`<div><dt>Crawled</dt><dd>${utcTime(crawled)}</dd></div>` : "",
    markup`<div><dt>Report made</dt><dd>${utcTime(now.getTime())}</dd></div>`,
  ];
  const reason = stats?.outcomeReason
    ? markup`<p id="outcome-reason" class="reason">${stats.outcomeReason}</p>`
    : "";
  const note = stats === null
    ? markup`<p class="note">Not crawled in this run (built from a document, JSON or a snapshot without statistics): HTTP statuses, sizes and timings are not known.</p>`
    : "";
  return markup`<header><p class="muted">Sitemap report</p><h1>${
    siteName(tree.url)
  }</h1><p class="url">${
    linkTo(tree.url)
  }</p><dl class="facts">${facts}</dl>${reason}${note}</header>`;
}

const TYPE_ORDER = ["robots", "index", "urlset", "text", "rss", "atom", "invalid"];

function card(id: string, title: string, value: string, note: string): Html {
  const small = note === "" ? "" : markup`<small>${note}</small>`;
  return markup`<div class="card" id="${id}"><dt>${title}</dt><dd>${value}${small}</dd></div>`;
}

/** Sitemaps by type, in a fixed order (the website root is no sitemap). */
function sitemapTypes(tree: AbstractSitemap): { total: number; types: string } {
  const byType = new Map<string, number>();
  const nodes = tree instanceof IndexWebsiteSitemap ? [] : [tree];
  for (const node of [...nodes, ...tree.allSitemaps()]) {
    byType.set(node.type, (byType.get(node.type) ?? 0) + 1);
  }
  const types = [...byType].sort(([a], [b]) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b))
    .map(([type, n]) => `${formatCount(n)} ${type}`).join(" · ");
  return { total: [...byType.values()].reduce((a, b) => a + b, 0), types };
}

function totals(
  tree: AbstractSitemap,
  stats: SitemapTreeStats | null,
  listings: number,
  distinct: number,
): Html {
  const { total, types } = sitemapTypes(tree);
  const crawl = (value: (s: SitemapTreeStats) => string) => stats === null ? "—" : value(stats);
  const note = (value: (s: SitemapTreeStats) => string) =>
    stats === null ? "not recorded" : value(stats);
  const cards = [
    card("total-sitemaps", "Sitemaps", formatCount(total), types),
    card("total-pages", "Pages listed", formatCount(listings), "duplicates included"),
    card(
      "total-distinct",
      "Distinct pages",
      formatCount(distinct),
      counted(listings - distinct, "duplicate listing", "duplicate listings"),
    ),
    card(
      "total-bytes",
      "Downloaded",
      crawl((s) => formatBytes(s.bytesDownloaded)),
      note((s) => `${formatBytes(s.bytesDecompressed)} uncompressed`),
    ),
    card("total-requests", "Requests", crawl((s) => formatCount(s.requests)), note(() => "")),
    card(
      "total-time",
      "Time taken",
      crawl((s) => formatDuration(s.elapsedMs)),
      note((s) => `${formatDuration(s.parseMs)} parsing, summed`),
    ),
  ];
  return markup`<section id="totals" aria-labelledby="totals-h"><h2 id="totals-h">Totals</h2><dl class="cards">${cards}</dl></section>`;
}

function treeSection(
  tree: AbstractSitemap,
  stats: SitemapTreeStats | null,
  sample: number,
  pagesNodes: number,
): Html {
  const perNode = sample === 0
    ? 0
    : Math.min(sample, Math.max(1, Math.floor(MAX_SAMPLED_URLS / Math.max(1, pagesNodes))));
  const view = {
    fetches: fetchesByUrl(stats?.fetches ?? []),
    sample: perNode,
    budget: MAX_SAMPLED_URLS,
  };
  const shown = perNode === 0
    ? "No page URLs are listed."
    : `Open a sitemap to see its first ${
      perNode === 1 ? "page URL" : `${formatCount(perNode)} page URLs`
    }${
      pagesNodes * perNode > MAX_SAMPLED_URLS
        ? ` (${formatCount(MAX_SAMPLED_URLS)} in all: the sitemaps after that show counts only)`
        : ""
    }.`;
  return markup`<section id="tree" class="tree" aria-labelledby="tree-h"><h2 id="tree-h">Sitemap tree</h2><p class="note">${shown} Page counts are of listings, in each sitemap and below it.</p><div class="controls" hidden><button type="button" data-open="true">Expand all</button><button type="button" data-open="false">Collapse all</button></div><ul>${
    treeNode(tree, view)
  }</ul></section>`;
}

function freshnessSection(histogram: LastmodHistogram): Html {
  const rows = histogram.buckets.map((b) =>
    markup`<tr><td>${b.label}</td><td class="num">${formatCount(b.pages)}</td></tr>`
  );
  if (histogram.undated > 0) {
    rows.push(
      markup`<tr><td>no lastmod</td><td class="num">${formatCount(histogram.undated)}</td></tr>`,
    );
  }
  const table = rows.length === 0
    ? ""
    : markup`<details class="data"><summary>The chart's numbers</summary><table id="histogram-table"><thead><tr><th>Lastmod</th><th class="num">Pages</th></tr></thead><tbody>${rows}</tbody></table></details>`;
  return markup`<section id="freshness" aria-labelledby="freshness-h"><h2 id="freshness-h">How fresh the pages are</h2><p class="note">Distinct pages by the month (or year) of their lastmod; a URL listed twice counts once.</p>${
    histogramChart(histogram)
  }${table}</section>`;
}

function dateOf(date: Date | null): string {
  return date === null ? "—" : isoString(date.getTime()).slice(0, 10);
}

/** The first sitemaps of a section by path, and how many more. */
function sitemapNames(sitemaps: readonly string[], origin: string): string {
  const names = sitemaps.slice(0, 2).map((url) => stripOrigin(url, origin)).join(", ");
  return sitemaps.length > 2 ? `${names} +${formatCount(sitemaps.length - 2)} more` : names;
}

function sectionRow(s: SitemapSection, origin: string): Html {
  return markup`<tr><td class="url">${stripOrigin(s.prefix, origin)}</td><td class="num">${
    formatCount(s.pages)
  }</td><td class="num">${formatShare(s.share)}</td><td class="num">${
    dateOf(s.lastModifiedMin)
  }</td><td class="num">${dateOf(s.lastModifiedMax)}</td><td class="num">${
    formatCount(s.undated)
  }</td><td class="url">${sitemapNames(s.sitemaps, origin)}</td></tr>`;
}

function sectionsSection(sections: readonly SitemapSection[], origin: string, depth: number): Html {
  const rows = sections.slice(0, SECTION_ROWS).map((s) => sectionRow(s, origin));
  const more = sections.length - rows.length;
  const rest = more > 0
    ? markup`<p class="note">… and ${counted(more, "more section", "more sections")}.</p>`
    : "";
  const table = rows.length === 0
    ? ""
    : markup`<table id="sections-table"><thead><tr><th>Section</th><th class="num">Pages</th><th class="num">Share</th><th class="num">Oldest lastmod</th><th class="num">Newest lastmod</th><th class="num">No lastmod</th><th>Sitemaps</th></tr></thead><tbody>${rows}</tbody></table>${rest}`;
  return markup`<section id="sections" aria-labelledby="sections-h"><h2 id="sections-h">Where the pages are</h2><p class="note">Distinct pages per path prefix of ${
    counted(depth, "segment", "segments")
  }: the largest first in the chart, in order of first appearance in the table.</p>${
    sectionsChart(sections, origin)
  }${table}</section>`;
}

/**
 * A sitemap tree as one self-contained HTML page: the site, the time and
 * the crawl's outcome; the totals (sitemaps by type, pages, distinct pages,
 * bytes, time taken); the sitemap tree, collapsible, each node with its
 * type, page count, bytes, HTTP status or invalid reason and the lastmod
 * its index gave it; pages by lastmod month and pages per section as SVG
 * charts; the problems of a `validateSitemapTree()` report grouped by code;
 * and, given an earlier tree, what changed since.
 *
 * The page loads nothing and works from `file://`: its style sheet and its
 * one small script are inline and allowed by hash in a strict
 * Content-Security-Policy (`default-src 'none'`), and every value from the
 * site is HTML-escaped, so nothing a sitemap holds can run. Pages are
 * summarised, not listed: each sitemap shows its counts and its first
 * `sample` URLs (at most 10,000 URLs in the whole report), so a site of a
 * million pages gives a file of kilobytes to a few megabytes.
 *
 * @param tree The tree (usually a `sitemapTreeForHomepage()` root, whose
 * `stats` give statuses, sizes and timings).
 * @param options An earlier tree, the problems, the sample size, the
 * section depth and the time.
 * @returns The HTML document.
 * @throws {RangeError} When `sample` or `depth` is not an integer >= 0, or `now` is not a valid Date.
 *
 * @example A report of one sitemap
 * ```ts
 * import { reportHtml, sitemapFromString } from "@sitemap/tree";
 * import { ok } from "node:assert/strict";
 *
 * const tree = sitemapFromString("https://example.com/a\nhttps://example.com/b\n", {
 *   url: "https://example.com/sitemap.txt",
 * });
 * const page = reportHtml(tree, { now: new Date("2026-01-01T00:00:00Z") });
 * ok(page.startsWith("<!doctype html>"));
 * ok(page.includes("https://example.com/sitemap.txt"));
 * ```
 */
export function reportHtml(tree: AbstractSitemap, options: ReportHtmlOptions = {}): string {
  const sample = integerOption("sample", options.sample, REPORT_DEFAULTS.sample, 0);
  const depth = integerOption("depth", options.depth, REPORT_DEFAULTS.depth, 0);
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`Option "now" must be a valid Date, got ${String(now)}`);
  }
  const stats = crawlStats(tree);
  const origin = originOf(tree.url);
  const inventory = pageInventory(tree, { depth, months: true, unique: true });
  const histogram = histogramOfMonths(inventory.months, inventory.undated);
  const changes = options.against === undefined
    ? ""
    : markup`<section id="changes" aria-labelledby="changes-h"><h2 id="changes-h">Changes since the earlier crawl</h2>${
      changesContent(compareSitemapTrees(options.against, tree), sample)
    }</section>`;
  const problems = problemsContent(options.problems ?? null, Math.max(sample, 1));
  const main = markup`<main>${totals(tree, stats, inventory.listings, inventory.pages)}${
    treeSection(tree, stats, sample, inventory.pagesNodes)
  }${freshnessSection(histogram)}${
    sectionsSection(inventory.sections, origin, depth)
  }<section id="problems" aria-labelledby="problems-h"><h2 id="problems-h">Problems</h2>${problems}</section>${changes}</main>`;
  const title = markup`<title>Sitemap report: ${siteName(tree.url)}</title>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${title}
<style>${STYLE}</style>
</head>
<body>
${
    header(tree, stats, now)
  }${main}<footer><p>Made by @sitemap/tree ${VERSION}. This file is self-contained: it loads nothing from the network and runs no code but its own.</p></footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
