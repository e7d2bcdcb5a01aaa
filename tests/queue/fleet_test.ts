/**
 * The BullMQ fleet on a real Redis: 3 worker processes through 200 fixture
 * sites, one of them SIGKILLed mid-run; every site's result is there exactly
 * once and equals a one-process `batch` of the same list.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { serveSites } from "../../fixtures/sites.ts";
import { DEFAULT_QUEUE, siteJobId } from "../../src/queue/site_queue.ts";
import { cli, output, waitFor, workerArgs } from "./_fleet.ts";
import { startRedis } from "./_redis.ts";

/** One site's lines as `batch --format pages` writes them, its summary without the timing. */
function comparable(lines: readonly string[]): string[] {
  return lines.map((line) => {
    const record = JSON.parse(line);
    if (record.summary !== undefined) {
      const { ms: _, ...summary } = record.summary;
      // A host that refuses every connection gets 4 to 6 requests before its
      // third refusal is in, by the runtime's timing (tests/outcome_test.ts
      // pins the count with one request at a time): equal, but not to the request.
      if (summary.status === "unreachable") delete summary.requests;
      return JSON.stringify({ ...record, summary });
    }
    return line;
  });
}

Deno.test({
  name: "3 workers through 200 sites, one SIGKILLed mid-run: every site once, equal to batch",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const redis = await startRedis();
    const sites = await serveSites({ count: 200, latencyMs: 40 });
    const dir = mkdtempSync(join(tmpdir(), "fleet-test-"));
    const list = join(dir, "sites.txt");
    const out = join(dir, "out");
    const homepages = sites.homepages;
    // The first site again at the end, and a line that is not a URL.
    writeFileSync(list, [...homepages, homepages[0], "not a url", ""].join("\n"));
    const connection = { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null };
    const queue = new Queue(DEFAULT_QUEUE, { connection });
    const workers: Deno.ChildProcess[] = [];
    try {
      const enqueued = await output(cli(["enqueue", "--redis", redis.url, list]));
      assert.deepEqual([enqueued.code, enqueued.stdout, enqueued.stderr], [
        0,
        '{"offered":202,"added":201}\n',
        "",
      ]);
      const again = await output(cli(["enqueue", "--redis", redis.url, list]));
      assert.equal(again.stdout, '{"offered":202,"added":0}\n');

      for (const name of ["w1", "w2", "w3"]) {
        workers.push(
          cli(
            workerArgs(
              redis.url,
              out,
              "--drain",
              "--name",
              name,
              "--site-concurrency",
              "4",
              "--stalled-interval",
              "500",
              "--lock-duration",
              "1000",
            ),
          ),
        );
      }
      // Kill w1 once it has finished some sites and holds some in hand.
      let held: string[] = [];
      await waitFor("w1 holding jobs after 30 sites", async () => {
        const done = await queue.getCompletedCount();
        if (done < 30) return false;
        held = (await queue.getActive()).filter((j) => j.processedBy === "w1").map((j) => j.id!);
        return held.length > 0;
      });
      workers[0]!.kill("SIGKILL");
      const killed = await workers[0]!.status;
      assert.equal(killed.signal, "SIGKILL");
      // Read again now that w1 is dead: a job it finished between the look above and the
      // kill is not one it died holding. Its locks last 1 s, so its jobs are still active.
      held = (await queue.getActive()).filter((j) => j.processedBy === "w1").map((j) => j.id!);
      assert.ok(held.length > 0, "w1 died holding jobs");
      for (const worker of workers.slice(1)) {
        const result = await output(worker);
        assert.equal(result.code, 0);
        assert.match(result.stderr, /^sitemap-tree worker: \d+ sites done, 0 failed\n$/);
      }
      await workers[0]!.stdout.cancel();
      await workers[0]!.stderr.cancel();

      const counts = await queue.getJobCounts(
        "completed",
        "failed",
        "active",
        "waiting",
        "delayed",
      );
      assert.deepEqual(counts, { completed: 201, failed: 0, active: 0, waiting: 0, delayed: 0 });
      // The jobs w1 held were taken over by the stalled-job check and finished by another worker.
      for (const id of held) {
        const job = (await queue.getJob(id))!;
        assert.equal(await job.getState(), "completed", id);
        assert.equal(job.stalledCounter, 1, id);
        assert.notEqual(job.processedBy, "w1", id);
      }
      console.log(
        `w1 was killed holding ${held.length} jobs; all were recovered: ${
          held.map((id) => decodeURIComponent(id)).join(", ")
        }`,
      );

      // One file per distinct site, each equal to that site's part of a one-process batch.
      const files = readdirSync(out).filter((f) => f.endsWith(".ndjson"));
      assert.equal(files.length, 201);
      const batch = await output(cli(["batch", list, "-f", "pages", "--workers", "0"]));
      assert.equal(batch.code, 0);
      // batch, like enqueue, crawls the site listed twice once.
      const bySite = new Map<string, string[]>();
      let block: string[] = [];
      for (const line of batch.stdout.trimEnd().split("\n")) {
        block.push(line);
        const record = JSON.parse(line);
        if (record.summary === undefined) continue;
        if (!bySite.has(record.site)) bySite.set(record.site, block);
        block = [];
      }
      assert.equal(bySite.size, 201);
      for (const [site, lines] of bySite) {
        const file = join(out, `${siteJobId(site)}.ndjson`);
        const fleet = readFileSync(file, "utf8").trimEnd().split("\n");
        assert.deepEqual(comparable(fleet), comparable(lines), site);
      }
      // The site listed twice ran once (it finished before the kill).
      assert.equal(sites.requestsFor(homepages[0]!, "/robots.txt"), 2); // fleet once, batch once
    } finally {
      for (const worker of workers) {
        try {
          worker.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await queue.close();
      await sites.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
