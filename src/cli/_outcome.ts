/**
 * A crawl's outcome (`stats.outcome`) as an exit status
 * (docs/design.md#exit-status): 0 at least one sitemap was read, 1 the site
 * could not be reached or a bot wall answered, 3 it answered but publishes
 * no sitemap; with the one line stderr prints for 1 and 3
 * (`stats.outcomeReason`).
 *
 * @module
 */
import type { SitemapTreeOutcome, SitemapTreeStats } from "../../mod.ts";

/** The exit status of a finished crawl and, unless 0, why. */
export interface TreeOutcome {
  readonly status: 0 | 1 | 3;
  readonly reason: string;
}

const STATUS: Readonly<Record<SitemapTreeOutcome, 0 | 1 | 3>> = {
  ok: 0,
  unreachable: 1,
  blocked: 1,
  "no-sitemaps": 3,
};

/**
 * The exit status and stderr line of a crawl, from its counters. A site
 * behind a bot wall exits 1, like one that could not be reached, with the
 * flags that may get through it.
 *
 * @param stats The call's counters.
 * @returns The status and reason.
 */
export function crawlOutcome(stats: SitemapTreeStats): TreeOutcome {
  const reason = stats.outcomeReason ?? "";
  return {
    status: STATUS[stats.outcome],
    reason: stats.outcome === "blocked" ? `${reason}; try --user-agent or --header` : reason,
  };
}
