/**
 * Sites on a BullMQ queue in Redis: {@linkcode enqueueSites} puts one job per
 * site, {@linkcode startSiteWorker} crawls them on any number of machines.
 * BullMQ does the distribution, retries and the recovery of jobs whose
 * worker died (a stalled job's lock expires and another worker takes it); we
 * write no scheduler of our own.
 *
 * @module
 */
import { type ConnectionOptions, type Job, UnrecoverableError, WaitingError, Worker } from "bullmq";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SiteCrawler, type SitemapTreesOptions, type SiteResult } from "../many_sites.ts";
import {
  siteEndLine,
  sitePageLines,
  siteStateFields,
  type SiteSummary,
  siteSummary,
} from "../format/site_record.ts";
import { siteKey } from "../_site_key.ts";
import { errorMessage } from "../_error_message.ts";
import { DEFAULTS, type SitemapTreeOptions } from "../options.ts";
import { SnapshotStore } from "../snapshot_store.ts";

export { siteKey };

export type { SiteStatus, SiteSummary } from "../format/site_record.ts";

/** What {@linkcode enqueueSites} needs of a BullMQ `Queue` (any `Queue` has it). */
export interface SiteQueue {
  /** Adds jobs; a job whose id exists already is left as it is. */
  addBulk(
    jobs: { name: string; data: SiteJobData; opts: { jobId: string; attempts: number } }[],
  ): Promise<unknown>;
  /** The job of an id, or undefined. */
  getJob(id: string): Promise<unknown>;
}

/**
 * Where Redis is, as BullMQ takes it: `{ host, port }`, `{ url }` and the
 * other ioredis options, or a client instance.
 */
export type RedisConnection = Readonly<Record<string, unknown>> | object;

/** BullMQ worker options a site worker passes on. */
export interface SiteWorkerQueueOptions {
  /** The worker's name, seen as a job's `processedBy`. */
  readonly name?: string;
  /** How long a job's lock lasts without renewal, ms. @default {30000} */
  readonly lockDuration?: number;
  /** How often stalled jobs (their worker died) are looked for, ms. @default {30000} */
  readonly stalledInterval?: number;
  /** Stalls a job may survive before it fails. @default {1} */
  readonly maxStalledCount?: number;
}

/** The events a running site worker reports (a subset of BullMQ's `Worker`). */
export interface SiteWorkerEvents {
  /** A site finished; `job.returnvalue` is its summary. */
  on(event: "completed", listener: (job: { readonly returnvalue: SiteSummary }) => void): unknown;
  /**
   * A job attempt failed. A sink's failure (`error.name` is
   * `"SiteSinkError"`, a BullMQ `UnrecoverableError`) ends the job at once;
   * another error (the worker's own) is retried while `attemptsMade` is
   * below `opts.attempts`.
   */
  on(event: "failed", listener: (job: SiteJobView | undefined, error: Error) => void): unknown;
  /** The worker lost Redis or hit another error of its own. */
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** What a `failed` listener may read of the job. */
export interface SiteJobView {
  /** The job's id: the site's {@linkcode siteJobId}. */
  readonly id?: string | undefined;
  /** The job's data. */
  readonly data: SiteJobData;
  /** Attempts made, this one included. */
  readonly attemptsMade: number;
  /** The attempts it was given. */
  readonly opts: { readonly attempts?: number | undefined };
}

/** The queue name used when none is given. */
export const DEFAULT_QUEUE = "sitemap-sites";

/** The data of one site's job. */
export interface SiteJobData {
  /** The homepage as it was given. */
  readonly homepage: string;
}

/**
 * The BullMQ job id of a homepage: its {@linkcode siteKey}, percent-encoded
 * (BullMQ gives `:` a meaning in ids).
 *
 * @param homepage A homepage as given.
 * @returns The job id.
 *
 * @example Two spellings, one job
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { siteJobId } from "@sitemap/tree/bullmq";
 *
 * strictEqual(siteJobId("HTTPS://Example.com/blog"), "https%3A%2F%2Fexample.com%2F");
 * strictEqual(siteJobId("https://example.com/"), siteJobId("https://EXAMPLE.com/?x=1"));
 * ```
 */
export function siteJobId(homepage: string): string {
  return encodeURIComponent(siteKey(homepage));
}

/** Options of {@linkcode enqueueSites}. */
export interface EnqueueSitesOptions {
  /** Jobs added per round trip to Redis. @default {500} */
  readonly batchSize?: number;
  /**
   * Attempts per job: a job whose worker died or whose sink failed is tried
   * again up to this many times in all. @default {3}
   */
  readonly attempts?: number;
}

/**
 * Adds one job per homepage; its id is the normalised homepage, so a site
 * enqueued twice (in one call or across calls, while its job is kept) is one
 * job. Completed jobs are kept (their return value is the site's summary),
 * which is what makes a second enqueue a no-op.
 *
 * @param queue The queue.
 * @param homepages The homepages, any iterable or async iterable.
 * @param options Batch size and attempts.
 * @returns How many homepages were offered, and how many were new jobs.
 *
 * @example A second enqueue adds nothing
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { enqueueSites, type SiteQueue } from "@sitemap/tree/bullmq";
 *
 * // A stand-in for a BullMQ `Queue`, which keeps its jobs in Redis.
 * const jobs = new Map<string, unknown>();
 * const queue: SiteQueue = {
 *   getJob: (id) => Promise.resolve(jobs.get(id)),
 *   addBulk: (batch) => {
 *     for (const job of batch) if (!jobs.has(job.opts.jobId)) jobs.set(job.opts.jobId, job);
 *     return Promise.resolve();
 *   },
 * };
 *
 * const sites = ["https://a.example/", "https://b.example/"];
 * deepStrictEqual(await enqueueSites(queue, sites, { attempts: 5 }), { offered: 2, added: 2 });
 * deepStrictEqual(await enqueueSites(queue, sites), { offered: 2, added: 0 });
 * ```
 */
export async function enqueueSites(
  queue: SiteQueue,
  homepages: Iterable<string> | AsyncIterable<string>,
  options: EnqueueSitesOptions = {},
): Promise<{ readonly offered: number; readonly added: number }> {
  const batchSize = options.batchSize ?? 500;
  const attempts = options.attempts ?? 3;
  let offered = 0;
  let added = 0;
  let batch: { name: string; data: SiteJobData; opts: { jobId: string; attempts: number } }[] = [];
  const seen = new Set<string>();
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const ids = batch.map((b) => b.opts.jobId);
    const before = await Promise.all(ids.map((id) => queue.getJob(id)));
    await queue.addBulk(batch);
    added += before.filter((job) => job === undefined || job === null).length;
    batch = [];
    seen.clear();
  };
  for await (const homepage of homepages) {
    offered++;
    const jobId = siteJobId(homepage);
    if (seen.has(jobId)) continue;
    seen.add(jobId);
    batch.push({ name: "site", data: { homepage }, opts: { jobId, attempts } });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { offered, added };
}

/** Where a worker puts each site's pages. */
export interface SiteSink {
  /**
   * Stores one site's output; called once per job attempt that finished its
   * crawl, so it must replace what an earlier attempt of the same site left.
   * A rejection fails the job at once, its message the job's reason, and
   * the job is not attempted again, since that would crawl the site again;
   * a sink whose store has passing failures retries inside `write`. Once
   * the sink is fixed, BullMQ's `queue.retryJobs({ state: "failed" })` runs
   * the failed sites again.
   *
   * @param summary The site's summary (also the job's return value).
   * @param pageLines The `batch --format pages` lines of its pages, each with its `\n`.
   */
  write(summary: SiteSummary, pageLines: Iterable<string>): Promise<void>;
}

/**
 * A sink could not store a site's output (a full disk, a directory removed
 * or made read-only): unrecoverable, so BullMQ fails the job at once.
 */
class SiteSinkError extends UnrecoverableError {
  constructor(message: string, cause: unknown) {
    super(message);
    this.name = "SiteSinkError";
    this.cause = cause;
  }
}

/**
 * The default sink: one NDJSON file per site under `dir`, named after the
 * site's job id, holding its page lines and then its summary line (as
 * `batch --format pages` writes them). Each file is written to a temporary
 * name and renamed, so a file is there whole or not at all, and a site run
 * again replaces it; a write that fails removes its temporary file.
 *
 * @param dir The directory; created when missing.
 * @returns The sink.
 * @throws {Error} When `dir` cannot be created or written (a test file is written and removed),
 * so a worker stops before it crawls anything it could not keep.
 *
 * @example One file per site
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { directorySink } from "@sitemap/tree/bullmq";
 *
 * const dir = mkdtempSync(join(tmpdir(), "sites-"));
 * const sink = directorySink(dir);
 * await sink.write(
 *   {
 *     homepage: "https://a.example/",
 *     status: "no-sitemaps",
 *     reason: "no sitemap found",
 *     sitemaps: 0,
 *     invalidSitemaps: 0,
 *     pages: 0,
 *     distinctPages: 0,
 *     bytes: 0,
 *     requests: 1,
 *     ms: 5,
 *   },
 *   [],
 * );
 * deepStrictEqual(readdirSync(dir), ["https%3A%2F%2Fa.example%2F.ndjson"]);
 * const line = JSON.parse(readFileSync(join(dir, "https%3A%2F%2Fa.example%2F.ndjson"), "utf8"));
 * deepStrictEqual([line.site, line.summary.status], ["https://a.example/", "no-sitemaps"]);
 * rmSync(dir, { recursive: true });
 * ```
 */
export function directorySink(dir: string): SiteSink {
  try {
    mkdirSync(dir, { recursive: true });
    writeWhole(join(dir, ".sitemap-tree-write-test"), "", true);
  } catch (error) {
    throw new Error(`Cannot write to ${dir}: ${errorMessage(error)}`, { cause: error });
  }
  return {
    write(summary, pageLines): Promise<void> {
      const name = siteJobId(summary.homepage).slice(0, 200);
      const file = join(dir, `${name}.ndjson`);
      try {
        writeWhole(file, [...pageLines, siteEndLine(summary)].join(""), false);
      } catch (error) {
        return Promise.reject(
          new Error(`Cannot write ${file}: ${errorMessage(error)}`, { cause: error }),
        );
      }
      return Promise.resolve();
    },
  };
}

/** Writes `text` to `file` through a temporary name; no temporary file stays behind. */
function writeWhole(file: string, text: string, removeAfter: boolean): void {
  const temporary = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, text);
    if (removeAfter) rmSync(temporary);
    else renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Options of {@linkcode startSiteWorker}. */
export interface SiteWorkerOptions extends SitemapTreesOptions {
  /** Where Redis is: BullMQ's connection options (e.g. `{ host, port }` or `{ url }`). */
  readonly connection: RedisConnection;
  /** The queue's name. @default {"sitemap-sites"} */
  readonly queue?: string;
  /** Where pages go; required unless `outDir` is given. */
  readonly sink?: SiteSink;
  /** With no `sink`: the directory of {@linkcode directorySink}. */
  readonly outDir?: string;
  /**
   * A state directory ({@linkcode SnapshotStore}), for monitoring: each site
   * is compared with its stored snapshot, its summary gains `state` and
   * `changes` (the counts), and the snapshot is replaced once the sink has
   * the summary (a crawl that failed leaves it as it was). The crawl cache
   * lives there too, unless `cache` is given. Workers on several machines
   * may share it: each snapshot is written whole and renamed into place, so
   * two workers never leave a mix (a site's job runs on one worker at a
   * time; if a stalled job runs twice, the later snapshot wins).
   */
  readonly stateDir?: string;
  /**
   * More BullMQ worker options (`lockDuration`, `stalledInterval`,
   * `maxStalledCount` …); `concurrency` is `siteConcurrency`.
   */
  readonly workerOptions?: SiteWorkerQueueOptions;
}

/** How {@linkcode SiteWorker.close} stops. */
export interface SiteWorkerCloseOptions {
  /**
   * How long the jobs in hand may take to finish, ms; those still crawling
   * then are stopped and handed back to the queue (moved to wait, no
   * attempt used), so another worker takes them at once. @default {Infinity}
   */
  readonly graceMs?: number;
  /**
   * Stop at once without a word to Redis (which may be gone): crawls in
   * hand are dropped and their jobs stay active until their lock expires
   * and BullMQ's stalled-job check hands them to another worker.
   * @default {false}
   */
  readonly force?: boolean;
}

/** A running worker. */
export interface SiteWorker {
  /** The BullMQ worker, for its events (`completed`, `failed`, `error`). */
  readonly worker: SiteWorkerEvents;
  /** Jobs being crawled or written now. */
  readonly inHand: number;
  /**
   * Takes no more jobs, finishes or hands back the jobs in hand, then stops;
   * the parse pool is closed.
   *
   * @param options How long the jobs in hand may take, or at once.
   * @returns How many jobs were handed back to the queue.
   */
  close(options?: SiteWorkerCloseOptions): Promise<{ readonly handedBack: number }>;
}

/**
 * Starts a worker that crawls the queue's sites, `siteConcurrency` at a
 * time, with one parse pool, one connection cap and per-host politeness for
 * all of them. A job's return value is the site's summary; its pages go to
 * the sink. An unreachable site is a completed job with status
 * "unreachable" (a site's failure is data). A sink that fails fails the job
 * at once (not attempted again, since that would crawl the site again);
 * BullMQ retries a job only when its worker died.
 *
 * @param options Redis, the queue, the sink, and the crawl options.
 * @returns The worker.
 * @throws {TypeError} When neither `sink` nor `outDir` is given, or an option is wrong.
 * @throws {Error} When `outDir` cannot be written.
 *
 * @example Start, hear that Redis is missing, stop
 * ```ts
 * import { match, strictEqual } from "node:assert/strict";
 * import { startSiteWorker } from "@sitemap/tree/bullmq";
 *
 * // Nothing listens on port 1: the worker reports it as `error` events and keeps trying.
 * const site = startSiteWorker({
 *   connection: { host: "127.0.0.1", port: 1 },
 *   sink: { write: () => Promise.resolve() },
 * });
 * const error = await new Promise<Error>((resolve) => site.worker.on("error", resolve));
 * match(error.message, /ECONNREFUSED/);
 * strictEqual(site.inHand, 0);
 * // `force`: stop at once, without a word to Redis.
 * strictEqual((await site.close({ force: true })).handedBack, 0);
 * ```
 */
export function startSiteWorker(options: SiteWorkerOptions): SiteWorker {
  const {
    connection,
    queue,
    sink,
    outDir,
    stateDir,
    workerOptions,
    siteConcurrency,
    ...crawl
  } = options;
  const run = workerRun(sink, outDir, stateDir, crawl);
  const worker = new Worker<SiteJobData, SiteSummary>(
    queue ?? DEFAULT_QUEUE,
    (job: Job<SiteJobData, SiteSummary>, token?: string) => crawlJob(run, job, token),
    {
      ...workerOptions,
      connection: connection as ConnectionOptions,
      concurrency: siteConcurrency ?? DEFAULTS.siteConcurrency,
    },
  );
  return {
    worker,
    get inHand() {
      return run.inHand;
    },
    close: (closeOptions) => closeWorker(run, worker, closeOptions),
  };
}

/** What a worker's jobs share: the crawler, the sink, the state, and the counts its close reads. */
interface WorkerRun {
  readonly crawler: SiteCrawler;
  readonly sink: SiteSink;
  /** The `stateDir` store, or null. */
  readonly store: SnapshotStore | null;
  /** Jobs being crawled or written now. */
  inHand: number;
  /** Set when the grace of a close is over: a crawl it stops hands its job back. */
  handingBack: boolean;
  /** Jobs handed back to the queue. */
  handedBack: number;
}

/** Picks the sink and the state store and starts the crawler; a TypeError when there is no sink. */
function workerRun(
  given: SiteSink | undefined,
  outDir: string | undefined,
  stateDir: string | undefined,
  crawl: SitemapTreeOptions,
): WorkerRun {
  if (given === undefined && outDir === undefined) {
    throw new TypeError("startSiteWorker needs a sink or an outDir");
  }
  const sink = given ?? directorySink(outDir!);
  const store = stateDir === undefined ? null : new SnapshotStore(stateDir);
  const crawler = new SiteCrawler(
    store === null || crawl.cache !== undefined ? crawl : { ...crawl, cache: store.cache },
  );
  return { crawler, sink, store, inHand: 0, handingBack: false, handedBack: 0 };
}

/**
 * A job: crawls its site, or, when a close stops the crawl, hands the job
 * back to the queue (its attempt not used); then delivers the site.
 */
async function crawlJob(
  run: WorkerRun,
  job: Job<SiteJobData, SiteSummary>,
  token: string | undefined,
): Promise<SiteSummary> {
  run.inHand++;
  try {
    let result: SiteResult;
    try {
      result = await run.crawler.crawl(job.data.homepage);
    } catch (error) {
      // Only a stop aborts a crawl: the job goes back to the queue, its attempt not used.
      if (!run.handingBack || token === undefined) throw error;
      await job.moveToWait(token);
      run.handedBack++;
      throw new WaitingError();
    }
    return await deliverSite(run, job.data.homepage, result);
  } finally {
    run.inHand--;
  }
}

/**
 * Compares a crawled site with its snapshot (with a state store), writes it
 * to the sink, then replaces the snapshot; the summary. A failure to write
 * either is a SiteSinkError.
 */
async function deliverSite(
  run: WorkerRun,
  homepage: string,
  result: SiteResult,
): Promise<SiteSummary> {
  const { store, sink } = run;
  let summary = siteSummary(result);
  const comparison = store === null || result.error !== undefined
    ? null
    : await store.compare(siteKey(homepage), result.tree);
  if (store !== null) summary = { ...summary, ...siteStateFields(comparison) };
  try {
    await sink.write(summary, sitePageLines(result));
  } catch (error) {
    throw new SiteSinkError(errorMessage(error), error);
  }
  try {
    await comparison?.save();
  } catch (error) {
    throw new SiteSinkError(
      `Cannot write the state ${comparison!.file}: ${errorMessage(error)}`,
      error,
    );
  }
  return summary;
}

/**
 * {@linkcode SiteWorker.close}: at once (`force`), or once the jobs in hand
 * are done, stopping the crawls still going when the grace is over.
 */
async function closeWorker(
  run: WorkerRun,
  worker: Worker<SiteJobData, SiteSummary>,
  { graceMs = Infinity, force = false }: SiteWorkerCloseOptions = {},
): Promise<{ readonly handedBack: number }> {
  const { crawler } = run;
  if (force) {
    crawler.close();
    await worker.close(true);
    return { handedBack: run.handedBack };
  }
  const timer = Number.isFinite(graceMs)
    ? setTimeout(() => {
      run.handingBack = true;
      crawler.close();
    }, graceMs)
    : null;
  try {
    await worker.close();
  } finally {
    if (timer !== null) clearTimeout(timer);
    crawler.close();
  }
  return { handedBack: run.handedBack };
}
