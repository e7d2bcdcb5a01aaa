import assert from "node:assert/strict";
import { runParseJob } from "../../src/workers/_job.ts";
import { DUPLICATE_EVERY, FULL_WARM_UP, warmUpDocument } from "../../src/workers/_warm_up.ts";

Deno.test("the warm-up's larger slices repeat URLs, so that the duplicate search compares them", async () => {
  const urls = Math.max(...FULL_WARM_UP);
  const outcome = await runParseJob({
    bytes: warmUpDocument(urls),
    url: "https://warm.example/sitemap.xml",
    since: NaN,
    robots: false,
    contentType: "application/xml",
    maxSitemapBytes: 50 << 20,
  });
  assert.equal(outcome.result.kind, "pages");
  assert.deepEqual(
    outcome.result.kind === "pages" &&
      { pages: outcome.result.pages.count, found: outcome.result.found },
    { pages: urls - urls / DUPLICATE_EVERY, found: urls - urls / DUPLICATE_EVERY },
  );
});
