/**
 * A crawl's outcome as an exit status (DESIGN §6): 0 at least one sitemap
 * was read, 1 the site could not be reached, 3 it answered but publishes no
 * sitemap; with the one line stderr prints for 1 and 3.
 *
 * @module
 */
import type { SitemapTreeStats } from "../stats.ts";

/** The exit status of a finished crawl and, unless 0, why. */
export interface TreeOutcome {
  readonly status: 0 | 1 | 3;
  readonly reason: string;
}

type Outcome = "ok" | "no-sitemaps" | "unreachable";

const STATUS: Readonly<Record<Outcome, 0 | 1 | 3>> = { ok: 0, unreachable: 1, "no-sitemaps": 3 };

/**
 * The outcome of a crawl from its counters. A homepage crawl takes the
 * library's `stats.outcome` and `outcomeReason`; one sitemap read alone is
 * judged here, since there the one URL asked for is the answer: read (0),
 * no response (1), or a response that is not a sitemap (3).
 *
 * @param stats The call's counters.
 * @param from What the crawl started from.
 * @returns The status and reason.
 */
export function streamOutcome(stats: SitemapTreeStats, from: "homepage" | "sitemap"): TreeOutcome {
  const library = stats as { readonly outcome?: Outcome; readonly outcomeReason?: string | null };
  if (from === "homepage" && library.outcome !== undefined) {
    return { status: STATUS[library.outcome], reason: library.outcomeReason ?? "" };
  }
  const types = stats.sitemapsByType;
  const count = (type: string): number => types[type] ?? 0;
  const read = Object.keys(types).some((t) => t !== "invalid" && t !== "robots" && count(t) > 0) ||
    (from === "sitemap" ? count("robots") > 0 : count("robots") > 0 && count("invalid") > 0);
  if (read) return { status: 0, reason: "" };
  const firstReason = stats.invalid[0]?.reason ?? null;
  const answered = stats.fetches.some((f) => f.status !== null);
  if (!answered && firstReason !== null) return { status: 1, reason: firstReason };
  if (from === "sitemap") {
    return { status: 3, reason: `no sitemap found (${firstReason ?? "nothing was read"})` };
  }
  const robots = stats.fetches.find((f) => new URL(f.url).pathname === "/robots.txt");
  const robotsText = robots === undefined
    ? "robots.txt not read"
    : robots.status === 200
    ? "robots.txt lists no sitemap"
    : `robots.txt ${robots.status ?? "failed"}`;
  return { status: 3, reason: `no sitemap found (${robotsText}; no well-known path answered)` };
}
