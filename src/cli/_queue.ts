/**
 * `enqueue --redis URL FILE|-` and `worker --redis URL --out DIR`: the
 * command line of `@sitemap/tree/bullmq`. `cli.ts` loads this module only for
 * these two commands, so `ls`, `lint` and `batch` never load `bullmq`.
 *
 * @module
 */
import { Queue } from "bullmq";
import { parseArgs } from "node:util";
import {
  DEFAULT_QUEUE,
  enqueueSites,
  type SiteWorkerOptions,
  startSiteWorker,
} from "../queue/site_queue.ts";
import {
  BatchUsageError,
  CRAWL_PARSE_OPTIONS,
  crawlOptionsFrom,
  homepagesOf,
  linesOf,
} from "./_batch.ts";
import { type CliIO, SerialWriter } from "./_io.ts";

const PROGRAM = "sitemap-tree";

/** Usage of `enqueue` and `worker`. */
export const QUEUE_USAGE = `Usage: ${PROGRAM} enqueue --redis URL [--queue NAME] FILE|-
       ${PROGRAM} worker --redis URL --out DIR [--queue NAME] [--drain] [crawl options]

enqueue puts one job per homepage line of FILE (or stdin) on a BullMQ queue in
Redis (blank lines and # comments skipped); the job id is the normalised
homepage, so a site enqueued twice is one job. It prints {"offered":N,"added":M}.

worker crawls the queue's sites, --site-concurrency at a time (default 16),
and writes one NDJSON file per site under DIR (its pages, then its summary);
the job's return value is the summary. It runs until interrupted, or with
--drain until the queue has no job waiting, delayed or active. Any number of
workers on any number of machines may share one Redis; a worker that dies
leaves its jobs to BullMQ's stalled-job recovery.

  --redis URL            redis://[user:password@]host:port[/db]
  --queue NAME           the queue (default ${DEFAULT_QUEUE})
  --stalled-interval MS  how often stalled jobs are looked for (default 30000)
  --lock-duration MS     how long a job's lock lasts unrenewed (default 30000)
  --name NAME            this worker's name in BullMQ (a job's processedBy)
  crawl options as for batch: --max-connections, --concurrency, --delay-ms,
  --respect-crawl-delay, --timeout, --retries, --workers, --user-agent,
  --no-robots, --no-known, --no-feeds

Exit status: 0 done, 1 Redis or the output directory unusable, 2 usage error,
130 interrupted (a worker finishes the jobs in hand first).
`;

/**
 * Runs `enqueue` or `worker`.
 *
 * @param command Which.
 * @param args The arguments after it.
 * @param io The standard streams.
 * @returns The exit status.
 */
export async function queueCommand(
  command: "enqueue" | "worker",
  args: readonly string[],
  io: CliIO,
): Promise<number> {
  const stderr = new SerialWriter(io.stderr);
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...args],
        allowPositionals: true,
        strict: true,
        options: {
          redis: { type: "string" },
          queue: { type: "string" },
          out: { type: "string", short: "o" },
          drain: { type: "boolean" },
          name: { type: "string" },
          "stalled-interval": { type: "string" },
          "lock-duration": { type: "string" },
          help: { type: "boolean", short: "h" },
          ...CRAWL_PARSE_OPTIONS,
        },
      });
    } catch (error) {
      throw new BatchUsageError(error instanceof Error ? error.message : String(error));
    }
    const v = parsed.values as Record<string, string | boolean | undefined>;
    if (v.help) {
      await io.stdout.write(new TextEncoder().encode(QUEUE_USAGE));
      return 0;
    }
    const redis = v.redis;
    if (typeof redis !== "string") throw new BatchUsageError(`${command} needs --redis URL`);
    let url: URL;
    try {
      url = new URL(redis);
      if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw new Error();
    } catch {
      throw new BatchUsageError(`--redis must be a redis:// URL, got ${JSON.stringify(redis)}`);
    }
    const connection = { url: url.href, maxRetriesPerRequest: null };
    const queueName = typeof v.queue === "string" ? v.queue : DEFAULT_QUEUE;
    if (command === "enqueue") {
      if (parsed.positionals.length !== 1) {
        throw new BatchUsageError(`enqueue takes one FILE or -, got ${parsed.positionals.length}`);
      }
      const queue = new Queue(queueName, { connection });
      try {
        const counts = await enqueueSites(queue, homepagesOf(linesOf(parsed.positionals[0]!)));
        await io.stdout.write(new TextEncoder().encode(JSON.stringify(counts) + "\n"));
        return 0;
      } catch (error) {
        stderr.write(`${PROGRAM} enqueue: ${messageOf(error)}\n`);
        return 1;
      } finally {
        await queue.close();
      }
    }
    if (parsed.positionals.length !== 0) {
      throw new BatchUsageError(
        `worker takes no operands, got ${JSON.stringify(parsed.positionals)}`,
      );
    }
    if (typeof v.out !== "string") throw new BatchUsageError("worker needs --out DIR");
    const workerOptions: Record<string, number> = {};
    for (
      const [flag, key] of [["stalled-interval", "stalledInterval"], [
        "lock-duration",
        "lockDuration",
      ]]
    ) {
      const text = v[flag!];
      if (typeof text !== "string") continue;
      if (!/^\d+$/.test(text) || Number(text) < 1) {
        throw new BatchUsageError(`--${flag} must be an integer >= 1, got ${JSON.stringify(text)}`);
      }
      workerOptions[key!] = Number(text);
    }
    const options: SiteWorkerOptions = {
      ...crawlOptionsFrom(v),
      connection,
      queue: queueName,
      outDir: v.out,
      workerOptions: typeof v.name === "string"
        ? { ...workerOptions, name: v.name }
        : workerOptions,
      ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    };
    return await runWorker(options, v.drain === true, io, stderr);
  } catch (error) {
    if (!(error instanceof BatchUsageError)) throw error;
    stderr.write(`${PROGRAM} ${command}: ${error.message} (see ${command} --help)\n`);
    return 2;
  } finally {
    await stderr.flush();
  }
}

async function runWorker(
  options: SiteWorkerOptions,
  drain: boolean,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  let site;
  try {
    site = startSiteWorker(options);
  } catch (error) {
    stderr.write(`${PROGRAM} worker: ${messageOf(error)}\n`);
    return 1;
  }
  const { worker } = site;
  let failure: Error | null = null;
  worker.on("error", (error) => {
    failure ??= error;
  });
  const queue = drain
    ? new Queue(options.queue ?? DEFAULT_QUEUE, { connection: options.connection })
    : null;
  try {
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        clearInterval(timer);
        resolve();
      };
      io.signal?.addEventListener("abort", stop, { once: true });
      const timer = setInterval(async () => {
        if (queue === null) return;
        try {
          const counts = await queue.getJobCounts(
            "waiting",
            "active",
            "delayed",
            "prioritized",
          );
          if (Object.values(counts).every((n) => n === 0)) stop();
        } catch {
          // Redis away for a moment: try again at the next tick.
        }
      }, 250);
    });
  } finally {
    await site.close();
    await queue?.close();
  }
  if (io.signal?.aborted) {
    stderr.write(`${PROGRAM}: Interrupted\n`);
    return 130;
  }
  if (failure !== null) {
    stderr.write(`${PROGRAM} worker: ${messageOf(failure)}\n`);
  }
  return 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
