/**
 * `batch` and the limits of a site's crawl: the summary line names what
 * `--max-sitemaps` or `--deadline` left unfetched.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveSites } from "../../fixtures/sites.ts";
import { dripSite, withSite } from "../_tree_helpers.ts";
import { run } from "./_run.ts";

/** Runs `batch` on a list of one homepage, with `flags`. */
async function batchOne(homepage: string, flags: string[]): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "batch-limits-"));
  try {
    const list = join(dir, "sites.txt");
    writeFileSync(list, `${homepage}\n`);
    const result = await run(["batch", list, ...flags]);
    assert.deepEqual([result.status, result.stderr], [0, ""]);
    return summaryOf(result.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The summary's fields that do not depend on timing or sizes. */
function summaryOf(stdout: string): Record<string, unknown> {
  const { ms: _, bytes: __, ...rest } = JSON.parse(stdout);
  return rest;
}

Deno.test("batch: a site cut by --max-sitemaps says how many sitemaps were not fetched, not null", async () => {
  // robots.txt -> /sitemap_index.xml -> /posts.xml, /pages.xml (5 pages each).
  const sites = await serveSites({ count: 1 });
  try {
    const homepage = sites.homepages[0]!;
    assert.deepEqual(await batchOne(homepage, ["--max-sitemaps", "3"]), {
      homepage,
      status: "ok",
      reason: "1 sitemap not fetched: the crawl's limit of 3 sitemaps (maxSitemaps) was reached",
      sitemaps: 3,
      invalidSitemaps: 1,
      pages: 5,
      distinctPages: 5,
      // robots.txt, the index, /posts.xml, the homepage (for feeds), and the
      // two well-known paths probed while places were free.
      requests: 6,
    });
  } finally {
    await sites.close();
  }
});

Deno.test("batch --deadline cuts a site whose sitemap drips, and its summary says so", async () => {
  await withSite(dripSite(), async (server) => {
    const homepage = server.url("/");
    assert.deepEqual(await batchOne(homepage, ["-k", "--no-feeds", "--deadline", "800ms"]), {
      homepage,
      status: "ok",
      reason: "1 sitemap not fetched: the crawl's deadline of 800 ms was reached",
      sitemaps: 3,
      invalidSitemaps: 1,
      pages: 1,
      distinctPages: 1,
      requests: 4,
    });
  });
});
