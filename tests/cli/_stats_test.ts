import assert from "node:assert/strict";
import { formatStats } from "../../src/cli/_stats.ts";
import { EMPTY_STATS, type SitemapTreeStats } from "../../src/stats.ts";

const H = "https://example.com";

Deno.test("formatStats() reports types in a fixed order, invalid reasons and sizes", () => {
  const stats: SitemapTreeStats = {
    ...EMPTY_STATS,
    sitemapsByType: { invalid: 1, urlset: 2, robots: 1, index: 1 },
    invalid: [{
      url: `${H}/missing.xml`,
      reason: "Unable to fetch sitemap from URL: 404 Not Found",
    }],
    warnings: [],
    requests: 19,
    bytesDownloaded: 18_400_000,
    bytesDecompressed: 912,
    pagesFound: 240_118,
    pagesKept: 12_000,
    parseMs: 12.34,
    elapsedMs: 2345.6,
    parsed: 4,
    unchanged: 0,
    notModified: 0,
    skipped: 0,
    cacheErrors: [],
    fetches: [],
  };
  assert.deepEqual(formatStats(stats), [
    "sitemaps      5 (robots 1, index 1, urlset 2, invalid 1)",
    "invalid       1",
    `  ${H}/missing.xml: Unable to fetch sitemap from URL: 404 Not Found`,
    "requests      19",
    "downloaded    18.4 MB",
    "decompressed  912 B",
    "pages         240,118 found, 12,000 kept",
    "parse time    12.3 ms",
    "elapsed       2.3 s",
  ]);
  const partial = formatStats({
    ...stats,
    sitemapsByType: {},
    invalid: [],
    warnings: [{ url: `${H}/cut.xml`, warning: "Truncated XML after 3 entries" }],
  });
  assert.deepEqual(partial.slice(0, 4), [
    "sitemaps      0",
    "invalid       0",
    "read in part  1",
    `  ${H}/cut.xml: Truncated XML after 3 entries`,
  ]);
  const incremental = formatStats({
    ...stats,
    notModified: 3,
    skipped: 2,
    unchanged: 5,
    cacheErrors: [{ url: `${H}/a.xml`, reason: "Cache entry is corrupt: checksum mismatch" }],
  });
  assert.deepEqual(incremental.slice(6, 12), [
    "pages         240,118 found, 12,000 kept",
    "not modified  3 (304, reused from the cache)",
    "skipped       2 (index lastmod before --since)",
    "cache errors  1",
    `  ${H}/a.xml: Cache entry is corrupt: checksum mismatch`,
    "parse time    12.3 ms",
  ]);
});
