import assert from "node:assert/strict";
import { runParseJob } from "../../src/workers/_job.ts";
import { ParseCancelled } from "../../src/_checkpoint.ts";
import {
  DUPLICATE_EVERY,
  FULL_WARM_UP,
  warmUp,
  warmUpDocument,
} from "../../src/workers/_warm_up.ts";

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

Deno.test("warmUp() parses nothing once stop() says so, and ends without rejecting when its checkpoint stops a job", async () => {
  let checkpoints = 0;
  await warmUp([20, 50], {
    since: NaN,
    stop: () => true,
    checkpoint: () => checkpoints++,
  });
  const stoppedAtOnce = checkpoints;
  let stops = 0;
  await warmUp([20, 50, 100], {
    since: Date.UTC(2024, 8, 1),
    stop: () => stops++ > 100,
    checkpoint: (at) => {
      checkpoints++;
      throw new ParseCancelled(at);
    },
  });
  // One job began (its first checkpoint threw); no slice came after it.
  assert.deepEqual({ stoppedAtOnce, checkpoints, stops }, {
    stoppedAtOnce: 0,
    checkpoints: 1,
    stops: 2,
  });
});
