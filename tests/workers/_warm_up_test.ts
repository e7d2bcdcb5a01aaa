import assert from "node:assert/strict";
import { CHECKPOINT_BYTES } from "../../src/_checkpoint.ts";
import { runParseJob } from "../../src/workers/_job.ts";
import {
  DUPLICATE_EVERY,
  FULL_WARM_UP,
  PAST_CHECKPOINT,
  warmUpDocument,
} from "../../src/workers/_warm_up.ts";

Deno.test("the full warm-up runs the reader's checkpoint and the duplicate search's comparison before its last slice", async () => {
  const at = FULL_WARM_UP.indexOf(PAST_CHECKPOINT);
  assert.ok(at >= 0 && at < FULL_WARM_UP.length - 1, `${FULL_WARM_UP}`);
  const bytes = warmUpDocument(PAST_CHECKPOINT);
  const seen: number[] = [];
  const outcome = await runParseJob(
    {
      bytes,
      url: "https://warm.example/sitemap.xml",
      since: NaN,
      robots: false,
      contentType: "application/xml",
      maxSitemapBytes: 50 << 20,
    },
    (at) => seen.push(at),
  );
  // Its repeated URLs went through the duplicate search's comparison.
  assert.equal(
    outcome.result.kind === "pages" && outcome.result.pages.count,
    PAST_CHECKPOINT - Math.floor(PAST_CHECKPOINT / DUPLICATE_EVERY),
  );
  // The byte reader's own checkpoint (at 1 MiB of the document), not just the job's at 0.
  assert.ok(seen.some((at) => at >= CHECKPOINT_BYTES), `${seen}`);
});
