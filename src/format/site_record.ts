/**
 * One site's result as records: the summary line of `batch --format summary`
 * (and a queue job's return value), and the page lines of `--format pages`.
 *
 * @module
 */
import { InvalidSitemap } from "../objects/sitemap.ts";
import type { SiteResult } from "../many_sites.ts";
import type { SitemapChangeCounts } from "../changes.ts";
import type { SnapshotState, StoredComparison } from "../snapshot_store.ts";
import { ndjsonFormat } from "./page_records.ts";

/**
 * Whether a site was read, answered without sitemaps, or could not be
 * reached; or whether its input line was not a homepage at all.
 */
export type SiteStatus = "ok" | "no-sitemaps" | "unreachable" | "blocked" | "invalid-input";

/** The longest reason an input error keeps: the line it quotes may be any length. */
export const MAX_INPUT_REASON = 200;

/** The summary of one site. */
export interface SiteSummary {
  /** The homepage as given. */
  readonly homepage: string;
  /**
   * ok: at least one sitemap read; no-sitemaps: the site answered without
   * any; unreachable: it did not answer; blocked: a bot wall answered
   * instead; invalid-input: the line is not an http(s) URL, so nothing was sent.
   */
  readonly status: SiteStatus;
  /** One line naming the cause when the status is not "ok"; null otherwise. */
  readonly reason: string | null;
  /** Sitemaps read (invalid ones not counted). */
  readonly sitemaps: number;
  /** Sitemaps that could not be fetched or parsed. */
  readonly invalidSitemaps: number;
  /** Pages listed, counting a page each time a sitemap lists it. */
  readonly pages: number;
  /** Distinct page URLs. */
  readonly distinctPages: number;
  /** Response bytes downloaded. */
  readonly bytes: number;
  /** HTTP requests sent. */
  readonly requests: number;
  /** Milliseconds the site took. */
  readonly ms: number;
  /**
   * With a state directory (`batch --state`, the worker's `stateDir`): what
   * became of the site's stored state (see {@linkcode siteStateFields}).
   */
  readonly state?: SnapshotState;
  /** With a state directory: the changes since the stored state (`updated` only; else null). */
  readonly changes?: SitemapChangeCounts | null;
  /** With a state directory whose snapshot of the site is damaged: the file and what is wrong. */
  readonly stateError?: string;
}

/** The fields a state directory adds to a site's summary. */
export type SiteStateFields = Required<Pick<SiteSummary, "state" | "changes">> & {
  readonly stateError?: string;
};

/**
 * The summary fields of a site's comparison with its stored state: `state`
 * (`recorded`, `updated`, `kept` when the crawl failed or the input was not
 * a homepage, `damaged`), `changes` (the counts, for `updated`) and, for
 * `damaged`, `stateError`.
 *
 * @param comparison The comparison, or null when there was nothing to compare (an input error).
 * @returns The fields.
 */
export function siteStateFields(comparison: StoredComparison | null): SiteStateFields {
  if (comparison === null) return { state: "kept", changes: null };
  return {
    state: comparison.state,
    changes: comparison.changes?.counts ?? null,
    ...(comparison.state === "damaged" ? { stateError: comparison.reason ?? "" } : {}),
  };
}

/**
 * The summary of one site's result; a homepage that is not an http(s) URL
 * is "invalid-input", with the error's message, cut to
 * {@linkcode MAX_INPUT_REASON} characters, as its reason.
 *
 * @param result One result of `sitemapTreesForHomepages`.
 * @returns The summary.
 */
export function siteSummary(result: SiteResult): SiteSummary {
  if (result.error !== undefined) {
    return {
      homepage: result.homepage,
      status: "invalid-input",
      reason: cut(result.error.message, MAX_INPUT_REASON),
      sitemaps: 0,
      invalidSitemaps: 0,
      pages: 0,
      distinctPages: 0,
      bytes: 0,
      requests: 0,
      ms: 0,
    };
  }
  const tree = result.tree;
  let sitemaps = 0;
  let invalid = 0;
  for (const node of tree.allSitemaps()) {
    if (node instanceof InvalidSitemap) invalid++;
    else sitemaps++;
  }
  let pages = 0;
  const distinct = new Set<string>();
  for (const page of tree.allPages()) {
    pages++;
    distinct.add(page.url);
  }
  const { outcome: status, outcomeReason: reason } = tree.stats;
  return {
    homepage: result.homepage,
    status,
    reason,
    sitemaps,
    invalidSitemaps: invalid,
    pages,
    distinctPages: distinct.size,
    bytes: tree.stats.bytesDownloaded,
    requests: tree.stats.requests,
    ms: Math.round(tree.stats.elapsedMs),
  };
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never half of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return text.slice(0, end) + "…";
}

/**
 * The line that ends a site's `--format pages` lines: `{"site":…,"summary":{…}}`,
 * the summary without its homepage.
 *
 * @param summary The site's summary.
 * @returns The line, with its `\n`.
 */
export function siteEndLine(summary: SiteSummary): string {
  const { homepage, ...rest } = summary;
  return `{"site":${JSON.stringify(homepage)},"summary":${JSON.stringify(rest)}}\n`;
}

/**
 * The `--format pages` lines of one site: the `ndjson` page object with a
 * leading `site` key, one per page, in tree order.
 *
 * @param result One result of `sitemapTreesForHomepages`.
 * @returns Lines with their `\n`.
 */
export function* sitePageLines(result: SiteResult): Generator<string, void, undefined> {
  if (result.error !== undefined) return;
  const site = `{"site":${JSON.stringify(result.homepage)},`;
  for (const line of ndjsonFormat(result.tree)) yield site + line.slice(1);
}
