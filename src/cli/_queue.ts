/**
 * `enqueue --redis URL FILE|-` and `worker --redis URL --out DIR`: the
 * command line of `@sitemap/tree/bullmq`. `cli.ts` loads this module only for
 * these two commands, so `ls`, `lint` and `batch` never load `bullmq`.
 *
 * @module
 */
import { Queue } from "bullmq";
import {
  DEFAULT_QUEUE,
  enqueueSites,
  type SiteWorkerOptions,
  startSiteWorker,
} from "../queue/site_queue.ts";
import { homepagesOf, linesOf, sitesOptions } from "./_batch.ts";
import { type ParsedFlags, PROGRAM } from "./_args.ts";
import type { CliIO, SerialWriter } from "./_io.ts";

/**
 * Runs `enqueue` or `worker`.
 *
 * @param command Which.
 * @param operands Its operands.
 * @param flags Its flags.
 * @param io The standard streams.
 * @param stderr Where messages go.
 * @returns The exit status.
 * @throws {UsageError} For a bad flag or value, naming it.
 */
export async function queueCommand(
  command: "enqueue" | "worker",
  operands: readonly string[],
  flags: ParsedFlags,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const redis = flags.nonEmpty("redis", "a redis:// URL");
  if (redis === null) throw flags.error(`${command} needs --redis URL`);
  let url: URL | null = null;
  try {
    url = new URL(redis);
  } catch {
    // Reported below.
  }
  if (url === null || (url.protocol !== "redis:" && url.protocol !== "rediss:")) {
    throw flags.error(
      `Option ${flags.written("redis")} must be a redis:// URL, got ${JSON.stringify(redis)}`,
    );
  }
  const connection = { url: url.href, maxRetriesPerRequest: null };
  const queueName = flags.nonEmpty("queue", "a name") ?? DEFAULT_QUEUE;
  if (command === "enqueue") {
    const queue = new Queue(queueName, { connection });
    try {
      const counts = await enqueueSites(queue, homepagesOf(linesOf(operands[0]!)));
      await io.stdout.write(new TextEncoder().encode(JSON.stringify(counts) + "\n"));
      return 0;
    } catch (error) {
      stderr.write(`${PROGRAM} enqueue: ${messageOf(error)}\n`);
      return 1;
    } finally {
      await queue.close();
    }
  }
  const outDir = flags.nonEmpty("out", "a directory");
  if (outDir === null) throw flags.error("worker needs --out DIR");
  const stalledInterval = flags.integer("stalled-interval", 1);
  const lockDuration = flags.integer("lock-duration", 1);
  const name = flags.nonEmpty("name", "a name");
  const options: SiteWorkerOptions = {
    ...sitesOptions(flags),
    connection,
    queue: queueName,
    outDir,
    workerOptions: {
      ...(stalledInterval === null ? {} : { stalledInterval }),
      ...(lockDuration === null ? {} : { lockDuration }),
      ...(name === null ? {} : { name }),
    },
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
  };
  return await runWorker(options, flags.has("drain"), io, stderr);
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
