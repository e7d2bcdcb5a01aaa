/**
 * `worker --state DIR` on a real Redis: each site's summary gains its state
 * and change counts, and two workers writing one site's state at once
 * leave a whole snapshot.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { serveSitemaps, serveVersion } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { decodeSitemapTree, SnapshotStore } from "../../mod.ts";
import { siteJobId } from "../../src/queue/site_queue.ts";
import { cli, output, workerArgs } from "./_fleet.ts";
import { startRedis } from "./_redis.ts";

/** The summary line of a site's file under the worker's --out DIR. */
function summaryOf(out: string, homepage: string): Record<string, unknown> {
  const text = readFileSync(join(out, `${siteJobId(homepage)}.ndjson`), "utf8");
  return JSON.parse(text.trimEnd().split("\n").at(-1)!).summary;
}

Deno.test({
  name: "worker --state records each site, then adds its state and change counts to its summary",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const redis = await startRedis();
    const changing = serveVersion(new FixtureSite(), "v1");
    const a = await changing.listen();
    const steadySite = serveSitemaps(new FixtureSite(), 2, 2);
    const b = await steadySite.listen();
    const dir = mkdtempSync(join(tmpdir(), "worker-state-"));
    const list = join(dir, "sites.txt");
    const out = join(dir, "out");
    const state = join(dir, "state");
    const homes = [`${a.origin}/`, `${b.origin}/`];
    writeFileSync(list, homes.join("\n") + "\n");
    const queue = new Queue("sitemap-sites", {
      connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null },
    });
    const round = async () => {
      await queue.obliterate({ force: true });
      const enqueued = await output(cli(["enqueue", "--redis", redis.url, list]));
      assert.equal(enqueued.code, 0, enqueued.stderr);
      const worker = await output(
        cli(workerArgs(redis.url, out, "--drain", "--state", state, "--no-known", "--no-feeds")),
      );
      assert.deepEqual([worker.code, worker.stderr], [
        0,
        "sitemap-tree worker: 2 sites done, 0 failed\n",
      ]);
    };
    try {
      await round();
      for (const home of homes) {
        const summary = summaryOf(out, home);
        assert.deepEqual([summary.state, summary.changes], ["recorded", null], home);
      }
      serveVersion(changing, "v2");
      steadySite.clearLog();
      await round();
      const changed = summaryOf(out, homes[0]!);
      assert.equal(changed.state, "updated");
      assert.deepEqual((changed.changes as { pages: unknown }).pages, {
        added: 2,
        removed: 2,
        changed: 3,
        unavailable: 2,
        unchanged: 4,
      });
      const steady = summaryOf(out, homes[1]!);
      assert.deepEqual((steady.changes as { pages: unknown }).pages, {
        added: 0,
        removed: 0,
        changed: 0,
        unavailable: 0,
        unchanged: 4,
      });
      // The job's return value is the same summary.
      const job = await queue.getJob(siteJobId(homes[0]!));
      assert.equal(job?.returnvalue.state, "updated");
      // The worker crawled with the state's cache: its second round of the
      // steady site was conditional requests only.
      assert.deepEqual(
        steadySite.log.map((r) => [r.path, r.headers["if-none-match"] !== undefined]).sort(),
        [["/robots.txt", true], ["/s1.xml", true], ["/s2.xml", true], ["/sitemap_index.xml", true]],
      );
    } finally {
      await queue.close();
      await a.close();
      await b.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

Deno.test({
  name: "two workers on two queues writing one site's state at once leave a whole snapshot",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const redis = await startRedis();
    const site = await serveSitemaps(new FixtureSite(), 5, 200).listen();
    const dir = mkdtempSync(join(tmpdir(), "worker-state-"));
    const list = join(dir, "sites.txt");
    const state = join(dir, "state");
    const home = `${site.origin}/`;
    writeFileSync(list, home + "\n");
    try {
      for (let i = 0; i < 3; i++) {
        const workers = ["q1", "q2"].map(async (name) => {
          const connection = { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null };
          const queue = new Queue(name, { connection });
          await queue.obliterate({ force: true });
          await queue.close();
          const enqueued = await output(
            cli(["enqueue", "--redis", redis.url, "--queue", name, list]),
          );
          assert.equal(enqueued.code, 0);
          return await output(
            cli([
              ...workerArgs(redis.url, join(dir, name), "--drain", "--state", state),
              "--queue",
              name,
              "--no-known",
              "--no-feeds",
            ]),
          );
        });
        for (const result of await Promise.all(workers)) {
          assert.equal(result.code, 0, result.stderr);
        }
      }
      const file = new SnapshotStore(state).fileOf(home);
      assert.equal([...decodeSitemapTree(readFileSync(file)).allPages()].length, 1000);
      assert.deepEqual(readdirSync(state).filter((f) => f.endsWith(".tmp")), []);
    } finally {
      await site.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
