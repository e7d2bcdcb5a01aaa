/**
 * A validation report's parts: the problem and report types, the collector
 * that keeps a few examples per sitemap and code and counts the rest, and
 * the report merged and written out as text. Shared by the tree checks
 * (`validate.ts`) and the one-document lint (`_lint_document.ts`).
 *
 * @module
 */

/** What kind of problem; see {@linkcode SitemapProblem}. */
export type SitemapProblemCode =
  | "too-many-urls"
  | "too-large"
  | "invalid-loc"
  | "cross-host"
  | "bad-lastmod"
  | "future-lastmod"
  | "uniform-lastmod"
  | "bad-priority"
  | "bad-changefreq"
  | "duplicate-url"
  | "redirect"
  | "http-status"
  | "invalid-sitemap"
  | "disallowed-page"
  | "disallowed-sitemap"
  | "hreflang-code"
  | "hreflang-no-return"
  | "hreflang-no-self"
  | "hreflang-conflict"
  | "more";

/** One protocol problem of one sitemap. */
export interface SitemapProblem {
  /** `error`: breaks the protocol, search engines may drop the entry or file; `warning`: legal but suspect. */
  readonly severity: "error" | "warning";
  /** What kind of problem; `more` counts problems left out beyond the examples kept. */
  readonly code: SitemapProblemCode;
  /** The sitemap's URL (after redirects). */
  readonly sitemap: string;
  /** The offending page or child URL, or null when the problem is the sitemap's own. */
  readonly url: string | null;
  /** The offending value as found (a date, a number, a host, a status), or null. */
  readonly value: string | null;
  /** One sentence a person can act on. */
  readonly message: string;
  /** The value to write instead, when it can be told (`hreflang-code`: `en-GB` for `en-UK`). */
  readonly suggestion?: string;
}

/** The outcome of {@linkcode validateSitemapTree}. */
export interface SitemapValidationReport {
  /** Problems grouped by sitemap in tree order, at most `examples` per sitemap and code. */
  readonly problems: readonly SitemapProblem[];
  /** Problems of severity `error`, counting those left out of `problems`. */
  readonly errors: number;
  /** Problems of severity `warning`, counting those left out of `problems`. */
  readonly warnings: number;
  /** Distinct sitemaps checked. */
  readonly sitemaps: number;
  /** Pages checked (each sitemap's pages once). */
  readonly pages: number;
}

/** Options of {@linkcode validateSitemapTree} and {@linkcode lintSitemapDocument}. */
export interface ValidateOptions {
  /** The present, for future lastmods. @default {new Date()} */
  readonly now?: Date;
  /** Problems kept per sitemap and code; the rest are counted in one `more` entry. @default {5} */
  readonly examples?: number;
  /**
   * The crawler whose robots.txt rules `disallowed-page` and
   * `disallowed-sitemap` check, by user agent or product token
   * (`Googlebot`, as Search Console does); `*` for the rules every crawler
   * without a group of its own follows.
   * @default {"*"}
   */
  readonly robotsUserAgent?: string;
}

/** How many problems of one sitemap and code were kept and left out. */
interface Count {
  kept: number;
  more: number;
  readonly severity: "error" | "warning";
}

/** Collects problems, keeping `examples` per (sitemap, code) and counting the rest. */
export class Problems {
  readonly #examples: number;
  readonly #bySitemap = new Map<string, SitemapProblem[]>();
  /** Per sitemap, per code. */
  readonly #counts = new Map<string, Map<SitemapProblemCode, Count>>();
  errors = 0;
  warnings = 0;

  constructor(examples: number) {
    this.#examples = examples;
  }

  #count(
    sitemap: string,
    code: SitemapProblemCode,
    severity: "error" | "warning",
  ): Count {
    let codes = this.#counts.get(sitemap);
    if (codes === undefined) this.#counts.set(sitemap, codes = new Map());
    let count = codes.get(code);
    if (count === undefined) codes.set(code, count = { kept: 0, more: 0, severity });
    return count;
  }

  /**
   * Whether a problem of `code` in `sitemap` would be kept as an example:
   * when not, {@linkcode Problems.skip} counts it without building it.
   */
  wants(sitemap: string, code: SitemapProblemCode): boolean {
    const count = this.#counts.get(sitemap)?.get(code);
    return count === undefined || count.kept < this.#examples;
  }

  /** Counts `n` problems that are not kept (see {@linkcode Problems.wants}). */
  skip(sitemap: string, code: SitemapProblemCode, severity: "error" | "warning", n = 1): void {
    if (severity === "error") this.errors += n;
    else this.warnings += n;
    this.#count(sitemap, code, severity).more += n;
  }

  add(problem: SitemapProblem): void {
    if (problem.severity === "error") this.errors++;
    else this.warnings++;
    const count = this.#count(problem.sitemap, problem.code, problem.severity);
    if (count.kept >= this.#examples) {
      count.more++;
      return;
    }
    count.kept++;
    let list = this.#bySitemap.get(problem.sitemap);
    if (list === undefined) {
      list = [];
      this.#bySitemap.set(problem.sitemap, list);
    }
    list.push(problem);
  }

  /** Every problem, sitemaps in `order` first, each code's overflow after its examples. */
  list(order: readonly string[]): SitemapProblem[] {
    const out: SitemapProblem[] = [];
    const sitemaps = [...new Set([...order, ...this.#bySitemap.keys()])];
    for (const sitemap of sitemaps) {
      const list = this.#bySitemap.get(sitemap) ?? [];
      const codes = [...new Set(list.map((p) => p.code))];
      for (const code of codes) {
        out.push(...list.filter((p) => p.code === code));
        const count = this.#counts.get(sitemap)!.get(code)!;
        if (count.more > 0) {
          out.push({
            severity: count.severity,
            code: "more",
            sitemap,
            url: null,
            value: String(count.more),
            message: `${count.more.toLocaleString("en")} more ${code} problems like the above`,
          });
        }
      }
    }
    return out;
  }
}

/** The problem of a sitemap that could not be read at all. */
export function invalidSitemap(sitemap: string, reason: string): SitemapProblem {
  return {
    severity: "error",
    code: "invalid-sitemap",
    sitemap,
    url: null,
    value: null,
    message: reason,
  };
}

/**
 * Merges reports (e.g. the tree's and the raw documents'), sitemaps in
 * `order` (the tree's order; sitemaps not in it follow in the order first
 * seen), each sitemap's document problems after its tree problems.
 *
 * @param report The tree's report.
 * @param extra More problems, e.g. from {@linkcode lintSitemapDocument}.
 * @param order Sitemap URLs in tree order.
 * @returns One report.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { mergeProblems, type SitemapProblem } from "./_validation_report.ts";
 *
 * const tree = { problems: [], errors: 0, warnings: 0, sitemaps: 1, pages: 3 };
 * const raw: SitemapProblem = {
 *   severity: "error", code: "bad-priority", sitemap: "https://example.com/sitemap.xml",
 *   url: "https://example.com/", value: "1.5", message: "The <priority> is not a number from 0.0 to 1.0",
 * };
 * const merged = mergeProblems(tree, [raw], ["https://example.com/sitemap.xml"]);
 * deepStrictEqual([merged.errors, merged.problems], [1, [raw]]);
 * ```
 */
export function mergeProblems(
  report: SitemapValidationReport,
  extra: readonly SitemapProblem[],
  order: readonly string[] = [],
): SitemapValidationReport {
  const bySitemap = new Map<string, SitemapProblem[]>(order.map((url) => [url, []]));
  for (const p of [...report.problems, ...extra]) {
    const list = bySitemap.get(p.sitemap) ?? [];
    list.push(p);
    bySitemap.set(p.sitemap, list);
  }
  let errors = report.errors;
  let warnings = report.warnings;
  for (const p of extra) {
    const n = p.code === "more" ? Number(p.value) : 1;
    if (p.severity === "error") errors += n;
    else warnings += n;
  }
  return { ...report, problems: [...bySitemap.values()].flat(), errors, warnings };
}

/**
 * The report as text: per sitemap, one line per problem (severity, code,
 * offending URL, value, message), then a summary line.
 *
 * @param report A validation report.
 * @returns Lines without newlines.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatValidationReport } from "./_validation_report.ts";
 *
 * deepStrictEqual(
 *   formatValidationReport({ problems: [], errors: 0, warnings: 0, sitemaps: 3, pages: 120 }),
 *   ["No problems in 3 sitemaps (120 pages)"],
 * );
 * ```
 */
export function formatValidationReport(report: SitemapValidationReport): string[] {
  const lines: string[] = [];
  let current: string | null = null;
  // The code column fits the longest code shown (15 for the protocol's codes).
  const width = Math.max(15, ...report.problems.map((p) => p.code === "more" ? 0 : p.code.length));
  for (const p of report.problems) {
    if (p.sitemap !== current) {
      current = p.sitemap;
      lines.push(current);
    }
    if (p.code === "more") {
      // A count of the problems not listed, not one more problem: no severity column.
      lines.push(`  ${" ".repeat(7)} … ${p.message}`);
      continue;
    }
    const where = [p.url, p.value === null ? null : JSON.stringify(p.value)]
      .filter((x) => x !== null).join(" ");
    lines.push(
      `  ${p.severity.padEnd(7)} ${p.code.padEnd(width)} ${
        where === "" ? "" : where + ": "
      }${p.message}`,
    );
  }
  const scope = `${report.sitemaps.toLocaleString("en")} sitemap${
    report.sitemaps === 1 ? "" : "s"
  } (${report.pages.toLocaleString("en")} page${report.pages === 1 ? "" : "s"})`;
  lines.push(
    report.errors === 0 && report.warnings === 0
      ? `No problems in ${scope}`
      : `${report.errors.toLocaleString("en")} error${report.errors === 1 ? "" : "s"}, ${
        report.warnings.toLocaleString("en")
      } warning${report.warnings === 1 ? "" : "s"} in ${scope}`,
  );
  return lines;
}
