/**
 * The fleet when something goes wrong, on a real redis-server and real
 * worker processes: a SIGTERM with sites in hand, an output that cannot be
 * written (read-only, removed, full), a Redis that is down at start or
 * restarted under the workers.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { type ServedSites, serveSites } from "../../fixtures/sites.ts";
import {
  DEFAULT_QUEUE,
  enqueueSites,
  siteJobId,
  startSiteWorker,
} from "../../src/queue/site_queue.ts";
import { cli, linesOf, output, waitFor, watch, workerArgs } from "./_fleet.ts";
import { freePort, startRedis, type TestRedis } from "./_redis.ts";

const SANITIZE = { sanitizeResources: false, sanitizeOps: false };

/** The temporary name a site file is written to, as a pattern. */
const TMP = "\\.[0-9a-f-]{36}\\.tmp";

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A Redis, sites enqueued on it, a scratch directory; all removed afterwards. */
async function withFleet(
  options: { count: number; latencyMs: number; appendOnly?: boolean },
  body: (fleet: {
    redis: TestRedis;
    queue: Queue;
    sites: ServedSites;
    dir: string;
  }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis({ appendOnly: options.appendOnly ?? false });
  const sites = await serveSites({ count: options.count, latencyMs: options.latencyMs });
  const dir = mkdtempSync(join(tmpdir(), "fleet-faults-"));
  const queue = new Queue(DEFAULT_QUEUE, {
    connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null },
  });
  // The restart tests take Redis away under this queue too.
  queue.on("error", () => {});
  try {
    await enqueueSites(queue, sites.homepages);
    await body({ redis, queue, sites, dir });
  } finally {
    await queue.close();
    await sites.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Counts = Record<"waiting" | "active" | "delayed" | "completed" | "failed", number>;

/** No job in any state. */
const NONE: Counts = { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 };

async function counts(queue: Queue): Promise<Counts> {
  const all = await queue.getJobCounts(...(Object.keys(NONE) as (keyof Counts)[]));
  return Object.fromEntries(Object.keys(NONE).map((state) => [state, all[state] ?? 0])) as Counts;
}

Deno.test({
  name:
    "worker: a SIGTERM with sites in hand hands them back, exits 143 with one line and a summary, and leaves no job active",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 12, latencyMs: 400 }, async ({ redis, queue, sites, dir }) => {
      const worker = cli(workerArgs(redis.url, dir, "--site-concurrency", "8", "--grace", "0"));
      // In hand once its crawl has asked for robots.txt (BullMQ marks a job active first).
      await waitFor(
        "8 sites in hand",
        async () =>
          (await queue.getActiveCount()) === 8 &&
          sites.homepages.filter((h) => sites.requestsFor(h, "/robots.txt") > 0).length >= 8,
      );
      worker.kill("SIGTERM");
      const result = await output(worker);
      const after = await counts(queue);
      assert.equal(result.code, 143);
      const [stopping, summary, ...rest] = linesOf(result.stderr);
      const inHand =
        /^sitemap-tree worker: SIGTERM: taking no more sites; the (\d+) in hand get 0 s to finish, then go back to the queue \(SIGTERM again exits at once\)$/
          .exec(stopping ?? "");
      const totals =
        /^sitemap-tree worker: (\d+) sites? done, 0 failed, (\d+) handed back to the queue$/
          .exec(summary ?? "");
      assert.ok(inHand !== null && totals !== null && rest.length === 0, result.stderr);
      const [done, handedBack] = [Number(totals[1]), Number(totals[2])];
      assert.equal(handedBack, Number(inHand[1]));
      assert.ok(handedBack > 0);
      assert.deepEqual(after, { ...NONE, waiting: 12 - done, completed: done });
      // A job handed back used none of its attempts.
      for (const job of await queue.getWaiting()) assert.equal(job.attemptsMade, 0, String(job.id));

      // Another worker takes them all.
      const next = await output(
        cli(workerArgs(redis.url, dir, "--drain")),
      );
      assert.deepEqual([next.code, next.stderr], [
        0,
        `sitemap-tree worker: ${12 - done} sites done, 0 failed\n`,
      ]);
      assert.deepEqual(await counts(queue), { ...NONE, completed: 12 });
    });
  },
});

Deno.test({
  name: "worker: a second SIGTERM exits at once, the jobs in hand left to BullMQ's stalled check",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 8, latencyMs: 1000 }, async ({ redis, queue, sites, dir }) => {
      const worker = watch(cli(workerArgs(redis.url, dir, "--grace", "600000")));
      // In hand once each crawl has asked for its robots.txt: BullMQ marks a job
      // active before the worker's processor starts on it.
      await waitFor(
        "8 sites in hand",
        async () =>
          (await queue.getActiveCount()) === 8 &&
          sites.homepages.every((h) => sites.requestsFor(h, "/robots.txt") > 0),
      );
      worker.child.kill("SIGTERM");
      await worker.until("(SIGTERM again exits at once)\n");
      worker.child.kill("SIGTERM");
      const end = await worker.finished();
      assert.equal(end.signal, "SIGTERM");
      assert.match(
        end.stderr,
        /^sitemap-tree worker: SIGTERM: taking no more sites; the 8 in hand get 600 s to finish, then go back to the queue \(SIGTERM again exits at once\)\n$/,
      );
      assert.equal((await counts(queue)).active, 8);
    });
  },
});

/**
 * How to run a worker that root's privileges do not let write everywhere: as
 * root, without the capability that overrides file modes (`setpriv`, from
 * util-linux); null when that is not possible here.
 */
async function withoutOverride(): Promise<string[] | null> {
  if (Deno.uid() !== 0) return [];
  const setpriv = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"];
  try {
    const probe = await new Deno.Command(setpriv[0]!, {
      args: [...setpriv.slice(1), "true"],
      stdout: "null",
      stderr: "null",
    }).output();
    return probe.success ? setpriv : null;
  } catch {
    return null;
  }
}

Deno.test({
  name:
    "worker: an --out it cannot write (read-only, under a file) exits 1 with one line before it takes a job",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 4, latencyMs: 0 }, async ({ redis, queue, dir }) => {
      const readOnly = join(dir, "read-only");
      mkdirSync(readOnly);
      chmodSync(readOnly, 0o555);
      const file = join(dir, "a-file");
      writeFileSync(file, "");
      const prefix = await withoutOverride();
      const cases: [string, RegExp, readonly string[]][] = [
        [
          join(file, "out"),
          new RegExp(
            `^sitemap-tree worker: Cannot write to ${
              escape(file)
            }/out: ENOTDIR: not a directory, mkdir '${escape(file)}/out'\n$`,
          ),
          [],
        ],
      ];
      if (prefix === null) {
        console.log(
          "EACCES case skipped: running as root without setpriv to drop CAP_DAC_OVERRIDE",
        );
      } else {
        cases.push([
          readOnly,
          new RegExp(
            `^sitemap-tree worker: Cannot write to ${
              escape(readOnly)
            }: EACCES: permission denied, open '${
              escape(join(readOnly, ".sitemap-tree-write-test"))
            }${TMP}'\n$`,
          ),
          prefix,
        ]);
      }
      for (const [out, stderr, prefix] of cases) {
        const result = await output(
          cli(workerArgs(redis.url, out, "--drain"), prefix),
        );
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, stderr);
      }
      assert.deepEqual(readdirSync(readOnly), []);
      assert.deepEqual(await counts(queue), { ...NONE, waiting: 4 });
    });
  },
});

/** The failed jobs' sites, attempts and reasons, sorted by site. */
async function failures(queue: Queue): Promise<[string, number, string][]> {
  return (await queue.getFailed())
    .map((job): [string, number, string] => [job.data.homepage, job.attemptsMade, job.failedReason])
    .sort();
}

Deno.test({
  name:
    "worker: an --out removed mid-run fails each site once with ENOENT, crawled once, and --drain exits 1",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 6, latencyMs: 500 }, async ({ redis, queue, sites, dir }) => {
      const out = join(dir, "out");
      const worker = watch(cli(workerArgs(redis.url, out, "--drain")));
      await waitFor("6 sites in hand", async () => (await queue.getActiveCount()) === 6);
      rmSync(out, { recursive: true });
      const end = await worker.finished();
      const failed = await failures(queue);
      assert.deepEqual(failed.map(([homepage]) => homepage), [...sites.homepages].sort());
      for (const [homepage, attempts, reason] of failed) {
        const file = escape(join(out, `${siteJobId(homepage)}.ndjson`));
        assert.equal(attempts, 1, homepage);
        assert.match(
          reason,
          new RegExp(
            `^Cannot write ${file}: ENOENT: no such file or directory, open '${file}${TMP}'$`,
          ),
        );
      }
      assert.equal(end.code, 1);
      assert.deepEqual(
        linesOf(end.stderr).sort(),
        [
          ...failed.map(([homepage, , reason]) =>
            `sitemap-tree worker: ${homepage} failed: ${reason}`
          ),
          "sitemap-tree worker: 0 sites done, 6 failed",
        ].sort(),
      );
      for (const homepage of sites.homepages) {
        assert.equal(sites.requestsFor(homepage, "/robots.txt"), 1, homepage);
      }
    });
  },
});

Deno.test({
  name:
    "worker: a disk that fills fails each site it cannot write once, leaves no .tmp file, and --drain exits 1",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 12, latencyMs: 0 }, async ({ redis, queue, sites, dir }) => {
      const out = join(dir, "full");
      mkdirSync(out);
      // A tmpfs of two pages: two site files fit, the others do not. Only root may mount one.
      const mount = await new Deno.Command("mount", {
        args: ["-t", "tmpfs", "-o", "size=8k", "tmpfs", out],
        stdout: "null",
        stderr: "piped",
      }).output().catch((error: Error) => ({
        success: false,
        stderr: new TextEncoder().encode(error.message),
      }));
      if (!mount.success) {
        console.log(
          `skipped: cannot mount a tmpfs here (${new TextDecoder().decode(mount.stderr).trim()})`,
        );
        return;
      }
      try {
        const result = await output(
          cli(workerArgs(redis.url, out, "--drain", "--site-concurrency", "4")),
        );
        const after = await counts(queue);
        const failed = await failures(queue);
        assert.equal(result.code, 1);
        assert.ok(after.completed >= 1 && after.failed >= 1, JSON.stringify(after));
        assert.equal(after.completed + after.failed, 12);
        for (const [homepage, attempts, reason] of failed) {
          const file = join(out, `${siteJobId(homepage)}.ndjson`);
          assert.deepEqual([attempts, reason], [
            1,
            `Cannot write ${file}: ENOSPC: no space left on device, write`,
          ]);
        }
        // One line per failed site, then the summary.
        assert.deepEqual(linesOf(result.stderr), [
          ...linesOf(result.stderr).slice(0, -1),
          `sitemap-tree worker: ${after.completed} sites done, ${after.failed} failed`,
        ]);
        assert.deepEqual(
          linesOf(result.stderr).slice(0, -1).sort(),
          failed.map(([homepage, , reason]) =>
            `sitemap-tree worker: ${homepage} failed: ${reason}`
          ),
        );
        assert.deepEqual(readdirSync(out).filter((f) => f.endsWith(".tmp")), []);
        assert.equal(readdirSync(out).length, after.completed);
        for (const homepage of sites.homepages) {
          assert.equal(sites.requestsFor(homepage, "/robots.txt"), 1, homepage);
        }
      } finally {
        await new Deno.Command("umount", { args: [out] }).output();
      }
    });
  },
});

Deno.test({
  name:
    "enqueue and worker with Redis down at start: one line, exit 1 after --redis-timeout; the first Ctrl-C stops them",
  ...SANITIZE,
  async fn() {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const dir = mkdtempSync(join(tmpdir(), "fleet-faults-"));
    try {
      const list = join(dir, "sites.txt");
      writeFileSync(list, "http://127.0.0.1:9/\n");
      const notAnswering = (after: string) =>
        `sitemap-tree: Redis at 127.0.0.1:${port} is not answering (ECONNREFUSED for ${after})`;
      const waiting =
        `sitemap-tree worker: Redis at 127.0.0.1:${port} is not answering (ECONNREFUSED); waiting up to 1 s (--redis-timeout)`;
      const seconds = (line: string) => /for (\d+(?:\.\d)? s)\)$/.exec(line)?.[1] ?? "?";

      const enqueue = await output(
        cli(["enqueue", "--redis", url, "--redis-timeout", "1000", list]),
      );
      assert.deepEqual([enqueue.code, enqueue.stdout], [1, ""]);
      assert.deepEqual(linesOf(enqueue.stderr), [notAnswering(seconds(enqueue.stderr.trim()))]);

      const out = join(dir, "out");
      const worker = await output(
        cli(workerArgs(url, out, "--redis-timeout", "1000")),
      );
      const [, gaveUp = ""] = linesOf(worker.stderr);
      assert.equal(worker.code, 1);
      assert.deepEqual(linesOf(worker.stderr), [
        waiting,
        notAnswering(seconds(gaveUp)),
        "sitemap-tree worker: 0 sites done, 0 failed",
      ]);

      // The default wait is 10 s for enqueue and 60 s for a worker: Ctrl-C ends them before.
      const waitingEnqueue = watch(cli(["enqueue", "--redis", url, list]));
      await new Promise((r) => setTimeout(r, 1500));
      waitingEnqueue.child.kill("SIGINT");
      const stopped = await waitingEnqueue.finished();
      assert.deepEqual([stopped.code, stopped.stderr], [130, "sitemap-tree: Interrupted\n"]);

      const waitingWorker = watch(cli(workerArgs(url, out)));
      await waitingWorker.until("waiting up to 60 s (--redis-timeout)\n");
      waitingWorker.child.kill("SIGINT");
      const stoppedWorker = await waitingWorker.finished();
      assert.equal(stoppedWorker.code, 130);
      assert.deepEqual(linesOf(stoppedWorker.stderr), [
        waiting.replace("up to 1 s", "up to 60 s"),
        `sitemap-tree worker: SIGINT: stopping at once, Redis at 127.0.0.1:${port} is not answering`,
        "sitemap-tree worker: 0 sites done, 0 failed",
      ]);

      // A Redis that comes up within the wait is taken as it comes.
      const late = watch(
        cli(workerArgs(url, out, "--drain", "--redis-timeout", "30000")),
      );
      await late.until("waiting up to 30 s (--redis-timeout)\n");
      const redis = await startRedis({ port });
      try {
        const end = await late.finished();
        assert.equal(end.code, 0);
        const lines = linesOf(end.stderr);
        assert.match(
          lines[1] ?? "",
          new RegExp(
            `^sitemap-tree worker: Redis at 127\\.0\\.0\\.1:${port} answers, after \\d+(\\.\\d)? s$`,
          ),
        );
        assert.deepEqual([lines[0], lines[2], lines.length], [
          waiting.replace("up to 1 s", "up to 30 s"),
          "sitemap-tree worker: 0 sites done, 0 failed",
          3,
        ]);
      } finally {
        await redis.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

Deno.test({
  name:
    "worker --drain: a Redis restarted without persistence is said and exits 1; with AOF nothing is lost",
  ...SANITIZE,
  async fn() {
    for (const appendOnly of [false, true]) {
      await withFleet({ count: 12, latencyMs: 150, appendOnly }, async ({ redis, queue, dir }) => {
        const worker = watch(cli(workerArgs(redis.url, dir, "--drain", "--site-concurrency", "2")));
        await waitFor("2 sites done", async () => (await queue.getCompletedCount()) >= 2);
        await redis.restart();
        const end = await worker.finished();
        // A site in hand when Redis lost its data finishes for a job that is gone: one line each.
        const gone = / its job is gone from Redis, so its result was not recorded there$/;
        const lines = linesOf(end.stderr).filter((line) => !gone.test(line));
        if (appendOnly) assert.equal(lines.length, linesOf(end.stderr).length, end.stderr);
        const where = `127.0.0.1:${redis.port}`;
        assert.match(
          lines[0] ?? "",
          new RegExp(
            `^sitemap-tree worker: Lost Redis at ${
              escape(where)
            } \\(.+\\); waiting up to 60 s \\(--redis-timeout\\)$`,
          ),
        );
        assert.match(
          lines[1] ?? "",
          new RegExp(
            `^sitemap-tree worker: Redis at ${escape(where)} answers again, after \\d+(\\.\\d)? s$`,
          ),
        );
        const done = /^sitemap-tree worker: (\d+) sites done, 0 failed$/.exec(lines.at(-1) ?? "");
        assert.ok(done !== null, end.stderr);
        if (appendOnly) {
          assert.deepEqual([end.code, lines.length], [0, 3], end.stderr);
          assert.deepEqual(await counts(queue), { ...NONE, completed: 12 });
        } else {
          assert.deepEqual([end.code, lines.slice(2, -1)], [1, [
            "sitemap-tree worker: The queue sitemap-sites came back from a Redis restart empty in every state, though it held 12 jobs: Redis lost its data (run it with persistence, appendonly yes); enqueue the sites again",
          ]], end.stderr);
        }
      });
    }
  },
});

Deno.test({
  name: "startSiteWorker(): a sink that fails fails the job once, without crawling the site again",
  ...SANITIZE,
  async fn() {
    await withFleet({ count: 1, latencyMs: 0 }, async ({ redis, queue, sites }) => {
      const home = sites.homepages[0]!;
      const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
        code: "ENOSPC",
      });
      const site = startSiteWorker({
        connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null },
        sink: { write: () => Promise.reject(full) },
        workers: 0,
      });
      try {
        await waitFor("the job to fail", async () => (await queue.getFailedCount()) === 1);
        const job = (await queue.getJob(siteJobId(home)))!;
        assert.deepEqual([job.attemptsMade, job.failedReason, await job.getState()], [
          1,
          "ENOSPC: no space left on device, write",
          "failed",
        ]);
        assert.equal(sites.requestsFor(home, "/robots.txt"), 1);
      } finally {
        await site.close();
      }
    });
  },
});
