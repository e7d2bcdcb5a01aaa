/**
 * The report's problems: a `validateSitemapTree()` report grouped by code,
 * with each code's count (the examples kept plus those counted in `more`
 * entries) and its examples.
 *
 * @module
 */
import type { SitemapProblem, SitemapValidationReport } from "../validate.ts";
import { formatCount } from "../format/_units.ts";
import { type Html, linkTo, markup } from "./_html.ts";
import { counted } from "./_tree.ts";

/** What each code means, in a client's words; a code not listed shows as itself. */
const TITLES: Readonly<Record<string, string>> = {
  "invalid-sitemap": "Sitemaps that could not be fetched or read",
  "http-status": "Sitemaps served with a status other than 200",
  "redirect": "Sitemaps that redirect",
  "too-many-urls": "Sitemaps over 50,000 URLs",
  "too-large": "Sitemaps over 50 MB uncompressed",
  "invalid-loc": "Page addresses that are not absolute http(s) URLs",
  "cross-host": "Pages on another host than their sitemap",
  "bad-lastmod": "Lastmod values that are not W3C dates",
  "future-lastmod": "Lastmod dates in the future",
  "uniform-lastmod": "Sitemaps whose pages all share one lastmod",
  "bad-priority": "Priorities outside 0.0–1.0",
  "bad-changefreq": "Unknown changefreq values",
  "duplicate-url": "Pages listed by more than one sitemap",
  "disallowed-page": "Listed pages that robots.txt disallows",
  "disallowed-sitemap": "Sitemaps that robots.txt disallows",
  "hreflang-code": "Invalid hreflang codes",
  "hreflang-no-return": "Hreflang alternates that do not link back",
  "hreflang-no-self": "Hreflang sets that leave the page itself out",
  "hreflang-conflict": "Hreflang codes naming two URLs",
};

/** One code's problems. */
export interface ProblemGroup {
  /** The code. */
  readonly code: string;
  /** Its severity. */
  readonly severity: "error" | "warning";
  /** Problems of the code, those counted in `more` entries included. */
  count: number;
  /** The examples the report kept, in its order. */
  readonly examples: SitemapProblem[];
}

/**
 * Groups a report's problems by code: errors first, then the most frequent.
 *
 * @param report The report.
 * @returns The groups; a `more` entry adds to the code it follows.
 */
export function groupProblems(report: SitemapValidationReport): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  let previous: SitemapProblem | null = null;
  for (const p of report.problems) {
    if (p.code === "more") {
      // A `more` entry follows the examples of its code in its sitemap.
      const group = previous?.sitemap === p.sitemap ? groups.get(previous.code) : undefined;
      if (group !== undefined) group.count += Number(p.value) || 0;
      continue;
    }
    let group = groups.get(p.code);
    if (group === undefined) {
      group = { code: p.code, severity: p.severity, count: 0, examples: [] };
      groups.set(p.code, group);
    }
    group.count++;
    group.examples.push(p);
    previous = p;
  }
  const rank = (g: ProblemGroup) => g.severity === "error" ? 0 : 1;
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || b.count - a.count);
}

function exampleRow(p: SitemapProblem): Html {
  const url = p.url === null ? "—" : linkTo(p.url);
  return markup`<tr><td class="url">${
    linkTo(p.sitemap)
  }</td><td class="url">${url}</td><td class="url">${
    p.value ?? "—"
  }</td><td>${p.message}</td></tr>`;
}

function groupExamples(g: ProblemGroup, shown: number): Html {
  const title = TITLES[g.code] ?? g.code;
  const rows = g.examples.slice(0, shown).map(exampleRow);
  return markup`<details class="data"><summary>${title} (<code>${g.code}</code>): ${rows.length} of ${
    formatCount(g.count)
  } shown</summary><table><thead><tr><th>Sitemap</th><th>URL</th><th>Value</th><th>What</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function kindsTable(groups: readonly ProblemGroup[]): Html {
  const rows = groups.map((g) =>
    markup`<tr><td>${
      TITLES[g.code] ?? g.code
    }</td><td><code>${g.code}</code></td><td class="sev-${g.severity}">${g.severity}</td><td class="num">${
      formatCount(g.count)
    }</td></tr>`
  );
  return markup`<table id="problem-kinds"><thead><tr><th>Problem</th><th>Code</th><th>Severity</th><th class="num">Count</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The problems section's content.
 *
 * @param report The report, or null when the tree was not checked.
 * @param shown Examples shown per code.
 * @returns The markup.
 */
export function problemsContent(report: SitemapValidationReport | null, shown: number): Html {
  if (report === null) {
    return markup`<p class="note">Not checked for this report (<code>report --no-problems</code>, or <code>reportHtml()</code> without <code>problems: validateSitemapTree(tree)</code>).</p>`;
  }
  const scope = `${counted(report.sitemaps, "sitemap", "sitemaps")} and ${
    counted(report.pages, "page", "pages")
  } checked`;
  if (report.errors === 0 && report.warnings === 0) return markup`<p>No problems: ${scope}.</p>`;
  const groups = groupProblems(report);
  return markup`<p><strong class="sev-error">${
    counted(report.errors, "error", "errors")
  }</strong>, <strong class="sev-warning">${
    counted(report.warnings, "warning", "warnings")
  }</strong>; ${scope}.</p>${kindsTable(groups)}<h3>Examples</h3>${
    groups.map((g) => groupExamples(g, shown))
  }`;
}
