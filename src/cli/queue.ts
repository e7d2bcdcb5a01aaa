/**
 * `enqueue --redis URL FILE|-` and `worker --redis URL --out DIR`: the
 * command line of `@sitemap/tree/bullmq`. `cli.ts` loads this module only for
 * these two commands, so `ls`, `lint` and `batch` never load `bullmq`.
 *
 * Both watch Redis ({@linkcode RedisWatch}): one line when it is lost, one
 * when it answers again, and exit 1 with one line once it has not answered
 * for `--redis-timeout`; BullMQ's repeated connection errors are never
 * printed. Both stop on the first Ctrl-C (or SIGTERM) even while Redis is
 * away.
 *
 * @module
 */
import { Queue, UnrecoverableError } from "bullmq";
import {
  DEFAULT_QUEUE,
  enqueueSites,
  type SiteJobView,
  type SiteWorker,
  type SiteWorkerOptions,
  startSiteWorker,
} from "../../bullmq.ts";
import { homepagesOf, linesOf } from "./batch.ts";
import type { ParsedFlags } from "./_args.ts";
import { eagerUnlessChosen, sitesOptions } from "./_options.ts";
import { PROGRAM } from "./_spec.ts";
import { type CliIO, interruptName, type SerialWriter } from "./_io.ts";
import { type JobCounts, RedisWatch, seconds } from "./_redis_watch.ts";
import { formatCount } from "../format/_units.ts";
import { errorMessage } from "../_error_message.ts";

/** How long closing a queue may take before the command ends anyway (Redis may be gone), ms. */
const CLOSE_MS = 2_000;

/** Where Redis is and how long to wait for it. */
interface RedisPlace {
  /** BullMQ's connection options. */
  readonly connection: { readonly url: string; readonly maxRetriesPerRequest: null };
  /** `host:port`, for messages. */
  readonly where: string;
  readonly waitMs: number;
  readonly queue: string;
}

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
  const place: RedisPlace = {
    connection: { url: url.href, maxRetriesPerRequest: null },
    where: `${url.hostname}:${url.port === "" ? 6379 : url.port}`,
    waitMs: flags.integer("redis-timeout", 1)!,
    queue: flags.nonEmpty("queue", "a name") ?? DEFAULT_QUEUE,
  };
  if (command === "enqueue") return await enqueue(operands[0]!, place, io, stderr);
  const outDir = flags.nonEmpty("out", "a directory");
  if (outDir === null) throw flags.error("worker needs --out DIR");
  const stalledInterval = flags.integer("stalled-interval", 1);
  const lockDuration = flags.integer("lock-duration", 1);
  const name = flags.nonEmpty("name", "a name");
  const graceMs = flags.integer("grace", 0)!;
  const stateDir = flags.nonEmpty("state", "a directory");
  const options: SiteWorkerOptions = {
    // Each site's page lines write every page's extensions: decoded in the parse workers.
    ...eagerUnlessChosen(sitesOptions(flags)),
    connection: place.connection,
    queue: place.queue,
    outDir,
    ...(stateDir === null ? {} : { stateDir }),
    workerOptions: {
      ...(stalledInterval === null ? {} : { stalledInterval }),
      ...(lockDuration === null ? {} : { lockDuration }),
      ...(name === null ? {} : { name }),
    },
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
  };
  return await runWorker(options, place, { drain: flags.has("drain"), graceMs }, io, stderr);
}

/** `enqueue`: the homepages onto the queue, unless Redis does not answer in time. */
async function enqueue(
  input: string,
  place: RedisPlace,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const say = (line: string): void => stderr.write(`${PROGRAM} enqueue: ${line}\n`);
  const queue = new Queue(place.queue, { connection: place.connection });
  const watch = new RedisWatch(queue, { where: place.where, waitMs: place.waitMs, report: say });
  queue.on("error", (error) => {
    if (!watch.error(error)) say(errorMessage(error));
  });
  queue.on("ioredis:close", () => watch.closed());
  try {
    const outcome = await first({
      done: enqueueSites(queue, homepagesOf(linesOf(input))),
      redis: watch.gaveUp,
      signal: interrupted(io.signal),
    });
    switch (outcome.kind) {
      case "done":
        await io.stdout.write(new TextEncoder().encode(JSON.stringify(outcome.value) + "\n"));
        return 0;
      case "redis":
        stderr.write(`${PROGRAM}: ${outcome.value}\n`);
        return 1;
      case "signal":
        stderr.write(`${PROGRAM}: Interrupted\n`);
        return 130;
    }
  } catch (error) {
    say(errorMessage(error));
    return 1;
  } finally {
    watch.stop();
    await bounded(queue.close());
  }
}

/** Why a worker run ended. */
type WorkerEnd =
  | { readonly kind: "signal" }
  | { readonly kind: "redis"; readonly line: string }
  | { readonly kind: "emptied"; readonly held: number }
  | { readonly kind: "drained" };

/** What a worker run holds: the site worker, the queue it watches Redis through, and its tallies. */
interface WorkerRun {
  readonly site: SiteWorker;
  readonly queue: Queue;
  readonly watch: RedisWatch;
  readonly say: (line: string) => void;
  /** Sites done, and sites failed for good. */
  readonly counts: { done: number; failed: number };
}

async function runWorker(
  options: SiteWorkerOptions,
  place: RedisPlace,
  run: { readonly drain: boolean; readonly graceMs: number },
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const say = (line: string): void => stderr.write(`${PROGRAM} worker: ${line}\n`);
  let site: SiteWorker;
  try {
    site = startSiteWorker(options);
  } catch (error) {
    say(errorMessage(error));
    return 1;
  }
  const worker = watchWorker(site, place, say);
  const end = await workerEnd(worker, place, run.drain, io.signal);
  const { status, handedBack } = await stopWorker(worker, end, place, run.graceMs, io, stderr);
  worker.watch.stop();
  await bounded(worker.queue.close());
  const { done, failed } = worker.counts;
  say(
    `${formatCount(done)} ${done === 1 ? "site" : "sites"} done, ${formatCount(failed)} failed${
      handedBack > 0 ? `, ${formatCount(handedBack)} handed back to the queue` : ""
    }`,
  );
  return status;
}

/** Watches Redis through a queue of the worker's own, and tallies and reports the worker's sites. */
function watchWorker(site: SiteWorker, place: RedisPlace, say: (line: string) => void): WorkerRun {
  const queue = new Queue(place.queue, { connection: place.connection });
  const watch = new RedisWatch(queue, {
    where: place.where,
    waitMs: place.waitMs,
    report: say,
    reportWaiting: true,
  });
  // Connection errors repeat on every reconnect attempt: the watch makes them one line.
  const onError = (error: Error): void => {
    if (!watch.error(error)) say(workerError(error));
  };
  queue.on("error", onError);
  queue.on("ioredis:close", () => watch.closed());
  site.worker.on("error", onError);
  const counts = { done: 0, failed: 0 };
  site.worker.on("completed", () => counts.done++);
  site.worker.on("failed", (job, error) => {
    const line = failureLine(job, error);
    if (line.final) counts.failed++;
    say(line.text);
  });
  return { site, queue, watch, say, counts };
}

/** Waits for what ends the run: a signal, Redis given up on, or (with `--drain`) the queue emptied or worked through. */
function workerEnd(
  { site, watch, say }: WorkerRun,
  place: RedisPlace,
  drain: boolean,
  signal: AbortSignal | undefined,
): Promise<WorkerEnd> {
  return new Promise<WorkerEnd>((resolve) => {
    interrupted(signal).then(() => resolve({ kind: "signal" }));
    watch.gaveUp.then((line) => resolve({ kind: "redis", line }));
    let held = 0;
    watch.onCounts((counts, afterLoss) => {
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      if (afterLoss && total === 0 && held > 0) {
        // Jobs are kept once finished, so a queue empty in every state after
        // Redis came back has lost them: not a queue worked through.
        say(emptiedLine(place.queue, held));
        if (drain) resolve({ kind: "emptied", held });
      }
      held = Math.max(afterLoss && total === 0 ? 0 : held, total);
      if (drain && pending(counts) === 0 && site.inHand === 0) resolve({ kind: "drained" });
    });
  });
}

/** Stops the worker as its end asks: the exit status, and how many sites went back to the queue. */
async function stopWorker(
  { site, watch, say, counts }: WorkerRun,
  end: WorkerEnd,
  place: RedisPlace,
  graceMs: number,
  io: CliIO,
  stderr: SerialWriter,
): Promise<{ status: number; handedBack: number }> {
  switch (end.kind) {
    case "signal": {
      const signal = interruptName(io.signal);
      if (!watch.up) {
        // Nothing can be handed back to a Redis that does not answer.
        say(`${signal}: stopping at once, Redis at ${place.where} is not answering`);
        await bounded(site.close({ force: true }));
        return { status: 130, handedBack: 0 };
      }
      say(
        `${signal}: taking no more sites; the ${site.inHand} in hand get ${
          seconds(graceMs)
        } to finish, then go back to the queue (${signal} again exits at once)`,
      );
      const closed = await first({ done: site.close({ graceMs }), redis: watch.gaveUp });
      if (closed.kind === "done") return { status: 130, handedBack: closed.value.handedBack };
      stderr.write(`${PROGRAM}: ${closed.value}\n`);
      return { status: 130, handedBack: 0 };
    }
    case "redis":
      stderr.write(`${PROGRAM}: ${end.line}\n`);
      await bounded(site.close({ force: true }));
      return { status: 1, handedBack: 0 };
    case "emptied":
      await bounded(site.close({ force: true }));
      return { status: 1, handedBack: 0 };
    case "drained":
      await bounded(site.close());
      return { status: counts.failed > 0 ? 1 : 0, handedBack: 0 };
  }
}

/**
 * A worker error as a line: BullMQ's `Missing key for job ID. moveToFinished`
 * (a site finished whose job Redis no longer has) names the site instead.
 */
function workerError(error: Error): string {
  const missing = /^Missing key for job (\S+)\. \w+$/.exec(error.message);
  if (missing === null) return error.message;
  let site = missing[1]!;
  try {
    site = decodeURIComponent(site);
  } catch {
    // Not an id of ours: shown as it is.
  }
  return `${site}: its job is gone from Redis, so its result was not recorded there`;
}

/** Jobs still to be done: waiting, active (in some worker's hand), delayed or prioritized. */
function pending(counts: JobCounts): number {
  return counts.waiting + counts.active + counts.delayed + counts.prioritized;
}

function emptiedLine(queue: string, held: number): string {
  return `The queue ${queue} came back from a Redis restart empty in every state, though it held ${
    formatCount(held)
  } jobs: Redis lost its data (run it with persistence, appendonly yes); enqueue the sites again`;
}

/** A failed job as one line, and whether the job is over (not to be attempted again). */
function failureLine(
  job: SiteJobView | undefined,
  error: Error,
): { readonly text: string; readonly final: boolean } {
  const attempts = job?.opts.attempts ?? 1;
  const final = error instanceof UnrecoverableError || job === undefined ||
    job.attemptsMade >= attempts;
  const site = job?.data.homepage ?? "a job";
  const again = final
    ? ""
    : ` (attempt ${job.attemptsMade} of ${attempts}; it will be tried again)`;
  return { text: `${site} failed: ${error.message}${again}`, final };
}

/** The first of several promises to settle, named; a rejection rejects. */
function first<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: { kind: K; value: Awaited<T[K]> } }[keyof T]> {
  return Promise.race(
    Object.entries(promises).map(([kind, promise]) => promise.then((value) => ({ kind, value }))),
  ) as Promise<{ [K in keyof T]: { kind: K; value: Awaited<T[K]> } }[keyof T]>;
}

/** Settles when the command is interrupted; never otherwise. */
function interrupted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Waits for `promise`, but no longer than {@linkcode CLOSE_MS}: closing must not hang on a Redis that is gone. */
async function bounded(promise: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => timer = setTimeout(resolve, CLOSE_MS)),
  ]);
  clearTimeout(timer);
}
