import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directorySink, siteJobId, type SiteSummary } from "../../src/queue/site_queue.ts";

const SUMMARY: SiteSummary = {
  homepage: "https://a.example/",
  status: "ok",
  reason: null,
  sitemaps: 1,
  invalidSitemaps: 0,
  pages: 1,
  distinctPages: 1,
  bytes: 10,
  requests: 1,
  ms: 5,
};

Deno.test("directorySink() names the file in its error and leaves no temporary file when a write fails", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sink-test-"));
  try {
    const sink = directorySink(dir);
    // A non-empty directory where the site's file goes: the rename over it fails.
    const file = join(dir, `${siteJobId(SUMMARY.homepage)}.ndjson`);
    mkdirSync(file);
    writeFileSync(join(file, "x"), "");
    await assert.rejects(
      sink.write(SUMMARY, ['{"site":"https://a.example/","url":"https://a.example/p"}\n']),
      (error: Error) => {
        assert.match(error.message, new RegExp(`^Cannot write ${file.replaceAll(".", "\\.")}: E`));
        return true;
      },
    );
    assert.deepEqual(readdirSync(dir), [`${siteJobId(SUMMARY.homepage)}.ndjson`]);
    rmSync(file, { recursive: true });
    await sink.write(SUMMARY, []);
    assert.deepEqual(readdirSync(dir), [`${siteJobId(SUMMARY.homepage)}.ndjson`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
