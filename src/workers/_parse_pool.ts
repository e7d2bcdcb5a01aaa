/**
 * A small pool of module workers that decompress and parse sitemaps off the
 * calling thread. Bodies go in as transferred buffers and results come back as
 * transferred buffers (see `PackedPages`), so the calling thread's share of a
 * 50,000-URL sitemap is a few milliseconds, not a parse.
 *
 * Workers come from the runtime's adapter (src/runtime/): Web Workers on Deno
 * and Bun, `node:worker_threads` on Node. Where they cannot start (a worker
 * module that cannot be loaded, as in Deno without read access to it) the pool
 * parses on the calling thread behind the same interface, and says why in
 * {@linkcode ParsePool.startFailure}.
 *
 * @module
 */
import { CANCEL_ALL, type ParseJob, type ParseOutcome, runParseJob } from "./_job.ts";
import { errorMessage } from "../_error_message.ts";
import type { WarmUp, WarmUpRequest, WorkerReply, WorkerRequest } from "./_job.ts";
import { NO_CHECKPOINT, ParseCancelled } from "../_checkpoint.ts";
import { LIGHT_WARM_UP, warmUp } from "./_warm_up.ts";
import { type ParseWorker, runtime } from "../runtime/mod.ts";

export type { ParseJob, ParseOutcome } from "./_job.ts";

/** Parses sitemap bodies, on workers or on the calling thread. */
export interface ParsePool {
  /**
   * Parses one body. Resolves, never rejects: a worker that crashes, times out
   * or is closed under the job yields an invalid result naming why.
   *
   * The job's bytes belong to the pool from this call on: their buffer is
   * transferred to a worker, which leaves the caller's view empty.
   *
   * When `signal` aborts, the job resolves at once as invalid
   * ("Parse cancelled"), and its worker stops at its next checkpoint (within
   * 1 MiB of input) and takes jobs again.
   */
  parse(job: ParseJob, signal?: AbortSignal | null): Promise<ParseOutcome>;
  /**
   * Terminates the workers so the process can exit. Jobs still queued or
   * running resolve as invalid; later calls to `parse` do too.
   */
  close(): void;
  /**
   * Starts the workers ahead of their first jobs (see
   * {@linkcode ParsePoolOptions.warmWorkers}), so that their start-up overlaps
   * the first fetches instead of delaying the first parse.
   *
   * @param delayMs Wait this long before starting the first: starting a
   * worker holds the calling thread, which may still be sending the first
   * requests. A job that comes first starts its worker at once. Default 0.
   */
  warm(delayMs?: number): void;
  /**
   * Starts now what a `warm(delayMs)` is still waiting to start; nothing
   * otherwise. For a call's first answer: a site that answers within the
   * delay would have its first document wait for a worker that started late.
   */
  hurry(): void;
  /**
   * Resolves once every worker has started and finished its warm-up (after
   * {@linkcode warm}), or at once when the pool parses on the calling thread
   * or is closed.
   */
  ready(): Promise<void>;
  /** How many workers the pool runs at most; 0 when it parses on the calling thread. */
  readonly size: number;
  /**
   * How many workers the pool has started so far, replacements included (0
   * on the calling thread). With `grow: "when-queued"` a call whose bodies
   * one worker keeps up with starts one.
   */
  readonly started: number;
  /**
   * Why the pool's workers could not start, so that it parses on the calling
   * thread; null while they can (or when it was asked for 0 workers).
   */
  readonly startFailure: string | null;
}

/** Options of {@linkcode createParsePool}. */
export interface ParsePoolOptions {
  /** Workers to run at most, started as jobs arrive; 0 parses on the calling thread. */
  readonly workers: number;
  /**
   * How long one job may take on a worker before the worker is terminated and
   * the job becomes invalid; a worker's start-up gets the same allowance of its
   * own. `Infinity` waits forever.
   */
  readonly jobTimeoutMs: number;
  /**
   * For tests only: the worker module to run instead of `worker.ts`. It must
   * speak the `WorkerRequest` / `WorkerReply` protocol of `_job.ts`.
   */
  readonly workerUrl?: URL;
  /** How much each new worker warms up before its first job. @default "light" */
  readonly warmUp?: WarmUp;
  /**
   * When the pool starts workers beyond its first. `"when-queued"`: only once
   * the queued documents would keep the started workers busy for
   * {@linkcode GROW_BACKLOG_MS} at the rate they have parsed so far, or jobs
   * have waited {@linkcode GROW_STALLED_MS} while no worker finished one, so
   * that a call whose bodies one worker keeps up with (a plain crawl at
   * internet latency, a `since` run, small sites) runs one worker rather than
   * paying for isolates that idle; {@linkcode ParsePool.warm} starts the
   * first only. `"at-once"`: a job that finds no idle worker starts one, and
   * `warm()` starts them all (a pool shared by calls).
   * Either way two workers are never started within {@linkcode START_GAP_MS}
   * of each other: each start holds the calling thread.
   * @default "when-queued"
   */
  readonly grow?: "when-queued" | "at-once";
  /**
   * How many workers {@linkcode ParsePool.warm} starts ahead of the jobs,
   * each once the one before it has loaded and is idle (never more than
   * `workers`). A `"when-queued"` pool starts the rest as jobs back up.
   * @default {1 with `grow: "when-queued"`, every worker with `"at-once"`}
   */
  readonly warmWorkers?: number;
  /**
   * For tests and benchmarks: told when a worker has stopped a job the pool
   * gave up on (cancelled, timed out or closed), with where it stopped.
   */
  readonly onStopped?: (report: StoppedJob) => void;
  /**
   * How long a worker may take to stop a job given up on before it is
   * terminated and replaced. @default {1000}
   */
  readonly stopGraceMs?: number;
  /**
   * Parse documents on the calling thread, one per turn of its event loop,
   * while each is expected to take at most {@linkcode HERE_JOB_MS} there and
   * those waiting there {@linkcode HERE_BACKLOG_MS} together (at the rate
   * this thread has parsed so far); the first document that is not, and
   * every one after it, goes to the workers, started then. For a call whose
   * documents are cheap to parse (a `since` call over plain urlsets), this
   * spares the cost of a worker: its start on the calling thread, its memory
   * (bench/README.md#issue-24-since-on-the-calling-thread). Until a document
   * goes to the workers, {@linkcode ParsePool.warm} warms up the calling
   * thread's parse code instead of starting a worker.
   * @default false
   */
  readonly callingThreadFirst?: boolean;
}

/** A job a worker stopped after the pool gave up on it (see {@linkcode ParsePoolOptions.onStopped}). */
export interface StoppedJob {
  readonly url: string;
  /** Where the worker stopped (decompressed bytes; 0 while inflating), or null when it finished anyway. */
  readonly at: number | null;
  /** The decompressed document's size (0 when it stopped while inflating). */
  readonly total: number;
}

/**
 * The default number of parse workers: one per core, at most 4. More workers
 * than cores made the calling thread's lag worse (bench/README.md#the-calling-threads-event-loop).
 *
 * @returns A worker count of at least 1.
 *
 * @example Size a pool to the machine
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { createParsePool, defaultWorkerCount } from "./_parse_pool.ts";
 *
 * const workers = defaultWorkerCount();
 * ok(workers >= 1 && workers <= 4);
 * const pool = createParsePool({ workers, jobTimeoutMs: 60_000 });
 * pool.close();
 * ```
 */
export function defaultWorkerCount(): number {
  return Math.min(4, runtime.coreCount());
}

/**
 * Creates a parse pool. Workers start lazily and are reused: the first with
 * the first job (or {@linkcode ParsePool.warm}), more up to `workers` as
 * jobs back up in the queue (see {@linkcode ParsePoolOptions.grow}); jobs
 * wait in order. Call `close()` when done, or the idle workers keep the
 * process alive.
 *
 * @param options How many workers, and how long one job may take.
 * @returns The pool.
 * @throws {RangeError} When `workers` is not a non-negative integer or
 *   `jobTimeoutMs` is not positive.
 *
 * @example Parse a body on a worker
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { createParsePool } from "./_parse_pool.ts";
 *
 * const pool = createParsePool({ workers: 1, jobTimeoutMs: 60_000 });
 * try {
 *   const outcome = await pool.parse({
 *     bytes: new TextEncoder().encode("https://example.com/a\nhttps://example.com/b\n"),
 *     url: "https://example.com/sitemap.txt",
 *     since: NaN,
 *     robots: false,
 *     contentType: "text/plain",
 *     maxSitemapBytes: 52_428_800,
 *   });
 *   deepStrictEqual([outcome.result.kind, outcome.decompressedBytes], ["pages", 44]);
 * } finally {
 *   pool.close();
 * }
 * ```
 */
export function createParsePool(options: ParsePoolOptions): ParsePool {
  const { workers, jobTimeoutMs } = options;
  if (!Number.isSafeInteger(workers) || workers < 0) {
    throw new RangeError(`Invalid number of parse workers: ${workers}`);
  }
  if (!(jobTimeoutMs > 0)) {
    throw new RangeError(`Invalid parse job timeout: ${jobTimeoutMs} ms`);
  }
  const url = options.workerUrl ?? DEFAULT_WORKER_URL;
  if (workers === 0) return new InThreadPool(null);
  const unavailable = runtime.workerUnavailable(url);
  if (unavailable !== null) return new InThreadPool(startFailure(unavailable));
  const pool = new WorkerPool(workers, jobTimeoutMs, url, options);
  return options.callingThreadFirst === true ? new CallingThreadFirst(pool) : pool;
}

// Spelled as two literal `new URL(…, import.meta.url)` expressions so bundlers
// see both; `.js` covers this package after an npm-style build (JSR's npm
// layer, for one), which renames modules but not strings.
const DEFAULT_WORKER_URL: URL = import.meta.url.endsWith(".js")
  ? new URL("./worker.js", import.meta.url)
  : new URL("./worker.ts", import.meta.url);

/**
 * How long the expected backlog of a `"when-queued"` pool may be before it
 * starts another worker: the queued documents' sizes (a gzip body's from its
 * trailer) at the rate its workers have parsed so far, shared among the
 * started workers. A new worker is slow for its first hundreds of
 * milliseconds (loading, then its first jobs before V8 has optimised the
 * parser, on cores the running worker and the calling thread already use),
 * so only a long backlog pays for one: a plain 1M crawl (a 4 MB urlset every
 * ~15 ms) or a `since` run keep one worker busy and are done sooner without a
 * second one, while a crawl of 10–24 MB urlsets queues seconds of work by its
 * second round of fetches (bench/README.md#issue-24-the-cold-pool).
 */
export const GROW_BACKLOG_MS = 1000;

/**
 * How long jobs may wait in the queue of a `"when-queued"` pool while no
 * worker finishes one before the pool starts another worker, whatever the
 * backlog: a worker held by one slow document (a bomb being inflated, a job
 * about to time out) must not hold up the rest.
 */
export const GROW_STALLED_MS = 500;

/**
 * The parse rate a pool assumes (document bytes per millisecond of a worker)
 * until its workers have finished jobs, weighted as {@linkcode PRIOR_MS} of
 * parsing: below a cold worker's on realistic urlsets (a warm one parses
 * 100–400), so that a burst of large documents starts the second worker
 * while the first one is still on its first: four queued urlsets of 10.9 MB
 * (two of 23.6 MB) do, as two or three gzipped ones of 1.4–2.5 MB did by
 * bytes before; nine of 4.2 MB (a plain crawl's) do not.
 */
const PRIOR_BYTES_PER_MS = 40_000;
const PRIOR_MS = 40;

/**
 * Least time between the starts of two workers: starting one holds the calling
 * thread (tens of milliseconds in Deno), and two back to back were the
 * call's worst event-loop stall (bench/README.md#workers-and-node).
 */
export const START_GAP_MS = 10;

const CLOSED_REASON = "Parser pool was closed";
const CANCELLED_REASON = "Parse cancelled";

/**
 * How long a worker may take to stop a job the pool gave up on before it is
 * terminated and replaced. It checks its flag every 1 MiB of input (a few
 * milliseconds), so this is only for a worker that hangs; the flag stops a
 * terminated worker's parse too, which terminate() alone did not.
 */
const STOP_GRACE_MS = 1000;

function startFailure(reason: string): string {
  return `Parse workers could not start (${reason}): sitemaps were parsed on the calling thread`;
}

function invalidOutcome(reason: string): ParseOutcome {
  return { result: { kind: "invalid", reason }, decompressedBytes: 0, parseMs: 0 };
}

/**
 * Resolves after the timers and I/O callbacks already due have run. A parse
 * on the calling thread holds it for the whole document; without a turn of
 * the event loop between documents, bodies that had already arrived were
 * parsed back to back in one chain of promise callbacks, and the caller's
 * timers waited for all of them (bench/README.md#the-calling-threads-event-loop).
 */
function afterTimers(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A job parsed on this thread, now ({@linkcode HereQueue} gives each a turn of its own). */
async function parseHere(job: ParseJob, signal: AbortSignal | null): Promise<ParseOutcome> {
  if (signal?.aborted) return invalidOutcome(CANCELLED_REASON);
  // Only the inflater's awaits let an abort in while the job runs here.
  const outcome = await runParseJob(job, (at) => {
    if (signal?.aborted) throw new ParseCancelled(at);
  });
  return outcome.cancelled === undefined ? outcome : invalidOutcome(CANCELLED_REASON);
}

class InThreadPool implements ParsePool {
  readonly #here = new HereQueue();
  readonly startFailure: string | null;

  constructor(startFailure: string | null) {
    this.startFailure = startFailure;
  }

  get size(): number {
    return 0;
  }

  get started(): number {
    return 0;
  }

  parse(job: ParseJob, signal: AbortSignal | null = null): Promise<ParseOutcome> {
    return this.#here.parse(job, signal);
  }

  close(): void {
    this.#here.close();
  }

  warm(_delayMs?: number): void {}

  hurry(): void {}

  ready(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Documents parsed on the calling thread one by one, each after a turn of the
 * event loop ({@linkcode afterTimers}), so that timers and answers that came
 * during one document run before the next: parsed back to back in one turn,
 * a burst of bodies held up the next round of requests
 * (bench/README.md#issue-24-since-on-the-calling-thread). Keeps the rate it
 * parses at.
 */
class HereQueue {
  /** Waiting, in order; the head may be running. */
  #tasks: HereTask[] = [];
  #waitingBytes = 0;
  #running = false;
  #closed = false;
  #parsedBytes: number;
  #parsedMs: number;

  /**
   * @param priorBytesPerMs The rate assumed before anything is parsed,
   * weighted as `priorMs` of parsing.
   * @param priorMs See `priorBytesPerMs`.
   */
  constructor(priorBytesPerMs = 0, priorMs = 0) {
    this.#parsedBytes = priorBytesPerMs * priorMs;
    this.#parsedMs = priorMs;
  }

  /** Document bytes a millisecond, as parsed here so far (and the prior); NaN without either. */
  get rate(): number {
    return this.#parsedBytes / this.#parsedMs;
  }

  /** {@linkcode documentBytes} of the documents waiting or running. */
  get waitingBytes(): number {
    return this.#waitingBytes;
  }

  /** Whether a document waits or runs. */
  get busy(): boolean {
    return this.#tasks.length > 0;
  }

  /**
   * Parses `job` once the documents before it are done. Resolves, never
   * rejects; as invalid ("Parse cancelled") at once when `signal` aborts
   * while the job waits, and ("Parser pool was closed") on {@linkcode close}.
   */
  parse(job: ParseJob, signal: AbortSignal | null): Promise<ParseOutcome> {
    if (this.#closed) return Promise.resolve(invalidOutcome(CLOSED_REASON));
    if (signal?.aborted) return Promise.resolve(invalidOutcome(CANCELLED_REASON));
    return new Promise((resolve) => {
      const bytes = documentBytes(job);
      const task: HereTask = { job, signal, bytes, settled: false, resolve, onAbort: null };
      if (signal !== null) {
        // A job given up on while it waits ends at once, as on a worker.
        task.onAbort = () => this.#settle(task, invalidOutcome(CANCELLED_REASON));
        signal.addEventListener("abort", task.onAbort, { once: true });
      }
      this.#tasks.push(task);
      this.#waitingBytes += bytes;
      void this.#next();
    });
  }

  async #next(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    while (this.#tasks.length > 0 && !this.#closed) {
      await afterTimers();
      // close() has ended every waiting document.
      if (this.#closed) break;
      const task = this.#tasks[0]!;
      if (!task.settled) {
        const start = performance.now();
        const outcome = await parseHere(task.job, task.signal);
        if (outcome.result.kind !== "invalid") {
          this.#parsedBytes += outcome.decompressedBytes;
          this.#parsedMs += performance.now() - start;
        }
        this.#settle(task, outcome);
      }
      if (this.#tasks[0] === task) {
        this.#tasks.shift();
        this.#waitingBytes -= task.bytes;
      }
    }
    this.#running = false;
  }

  #settle(task: HereTask, outcome: ParseOutcome): void {
    if (task.settled) return;
    task.settled = true;
    if (task.onAbort !== null) task.signal?.removeEventListener("abort", task.onAbort);
    task.resolve(outcome);
  }

  /** Ends every waiting document as invalid, and refuses later ones. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const task of this.#tasks.splice(0)) this.#settle(task, invalidOutcome(CLOSED_REASON));
    this.#waitingBytes = 0;
  }
}

/** A document waiting to be parsed on the calling thread. */
interface HereTask {
  readonly job: ParseJob;
  readonly signal: AbortSignal | null;
  /** {@linkcode documentBytes} of the job, read before the parse. */
  readonly bytes: number;
  settled: boolean;
  readonly resolve: (outcome: ParseOutcome) => void;
  onAbort: (() => void) | null;
}

/**
 * The most a document may be expected to take on the calling thread, at the
 * rate measured there, for a {@linkcode ParsePoolOptions.callingThreadFirst}
 * pool to parse it there: it holds the thread's event loop that long. A
 * plain 4.2 MB urlset under `since` takes 6 ms warm, 27 ms cold (Deno); a
 * 10.9 MB urlset of the issue-24 mix 36–45 ms warm, so it goes to a worker.
 */
export const HERE_JOB_MS = 30;

/**
 * The most the documents waiting on the calling thread may be expected to
 * take together before the next one goes to a worker: a burst of four plain
 * urlsets fits, a burst that would hold up the crawl does not.
 */
export const HERE_BACKLOG_MS = 150;

/**
 * The rate the calling thread is assumed to parse at (document bytes a
 * millisecond) until it has parsed something, weighted as
 * {@linkcode HERE_PRIOR_MS}: a cold `since` parse of a plain urlset (4.2 MB
 * in 27 ms, gunzip included), so that a first document of 4.5 MB or less
 * parses here and a realistic 10.9 MB one does not.
 */
const HERE_PRIOR_BYTES_PER_MS = 150_000;
const HERE_PRIOR_MS = 30;

/** What a {@linkcode CallingThreadFirst} pool's `warm()` parses on the calling thread. */
const CALLING_THREAD_WARM_UP = LIGHT_WARM_UP;

/** The warm-up's `since`: keeps one page in nine of the warm-up documents (2024-09). */
const WARM_UP_SINCE = Date.UTC(2024, 8, 1);

/**
 * A worker pool whose calling thread parses the cheap documents that come
 * before any worker is needed ({@linkcode ParsePoolOptions.callingThreadFirst}).
 */
class CallingThreadFirst implements ParsePool {
  readonly #workers: WorkerPool;
  readonly #here = new HereQueue(HERE_PRIOR_BYTES_PER_MS, HERE_PRIOR_MS);
  /** A document went to the workers: every later one does too. */
  #handedOver = false;
  #closed = false;
  #warmState: "idle" | "delayed" | "running" = "idle";
  #warmTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(workers: WorkerPool) {
    this.#workers = workers;
  }

  get size(): number {
    return this.#workers.size;
  }

  get started(): number {
    return this.#workers.started;
  }

  get startFailure(): string | null {
    return this.#workers.startFailure;
  }

  parse(job: ParseJob, signal: AbortSignal | null = null): Promise<ParseOutcome> {
    if (this.#closed) return Promise.resolve(invalidOutcome(CLOSED_REASON));
    if (!this.#handedOver) {
      const bytes = documentBytes(job);
      const rate = this.#here.rate;
      if (
        bytes / rate <= HERE_JOB_MS && (this.#here.waitingBytes + bytes) / rate <= HERE_BACKLOG_MS
      ) {
        return this.#here.parse(job, signal);
      }
      this.#handedOver = true;
    }
    return this.#workers.parse(job, signal);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#warmTimer);
    this.#workers.close();
    this.#here.close();
  }

  /**
   * Warms up this thread's parse code (or, once documents go to the workers,
   * starts them): slices of {@linkcode CALLING_THREAD_WARM_UP} after
   * `delayMs`, each in a turn of its own, until the first document comes.
   */
  warm(delayMs = 0): void {
    if (this.#handedOver) {
      this.#workers.warm(delayMs);
      return;
    }
    if (this.#closed || this.#warmState !== "idle") return;
    this.#warmState = "delayed";
    this.#warmTimer = setTimeout(() => this.#warmHere(), delayMs);
  }

  hurry(): void {
    if (this.#warmState === "delayed") this.#warmHere();
    this.#workers.hurry();
  }

  #warmHere(): void {
    clearTimeout(this.#warmTimer);
    this.#warmState = "running";
    void warmUp(CALLING_THREAD_WARM_UP, {
      since: WARM_UP_SINCE,
      stop: () => this.#closed || this.#handedOver || this.#here.busy,
      checkpoint: NO_CHECKPOINT,
    });
  }

  ready(): Promise<void> {
    return this.#handedOver ? this.#workers.ready() : Promise.resolve();
  }
}

interface Task {
  readonly job: ParseJob;
  readonly signal: AbortSignal | null;
  readonly resolve: (outcome: ParseOutcome) => void;
}

/** One worker position in the pool; its worker is replaced after a failure. */
interface Slot {
  worker: ParseWorker | null;
  /** The worker has posted "ready": a later error is a crash, not a failed start. */
  ready: boolean;
  /** Its warm-up is over (it posted "warm", or was given a job, which ends the warm-up). */
  warm: boolean;
  /** A worker of this slot has been retired: the next one warms up lightly. */
  replaced: boolean;
  task: Task | null;
  taskId: number;
  /** When the task was sent to the worker (`performance.now()`). */
  sentAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The task's abort listener, while it runs. */
  onAbort: (() => void) | null;
  /** Shared with the worker: the id of the job it must stop (see `WarmUpRequest.cancel`). */
  cancel: Int32Array | null;
  /** The id of a job given up on that the worker still runs (it stops at a checkpoint); 0 if none. */
  stopping: number;
  stoppingUrl: string;
  /** Retires the worker if it has not stopped in {@linkcode STOP_GRACE_MS}. */
  stopTimer: ReturnType<typeof setTimeout> | undefined;
}

class WorkerPool implements ParsePool {
  readonly #maxWorkers: number;
  readonly #jobTimeoutMs: number;
  readonly #url: URL;
  /** For the first worker of each slot; a replacement (after a failure) warms up lightly. */
  readonly #warmUp: WarmUp;
  readonly #slots: Slot[] = [];
  #queue: Task[] = [];
  #queueHead = 0;
  #nextId = 1;
  #closed = false;
  /** Set once a worker could not start: everything left parses on this thread. */
  #inThread = false;
  /** Where documents parse once {@linkcode #inThread} is set. */
  readonly #here = new HereQueue();
  startFailure: string | null = null;
  /** The next step of {@linkcode warm}, pending. */
  #warmTimer: ReturnType<typeof setTimeout> | undefined;
  /** {@linkcode warm} has workers left to start, once the last one started is idle. */
  #warmPending = false;
  /** {@linkcode warm} is waiting out its `delayMs` ({@linkcode hurry} ends the wait). */
  #warmDelayed = false;
  #readyWaiters: (() => void)[] = [];

  readonly #onStopped: ((report: StoppedJob) => void) | undefined;
  readonly #stopGraceMs: number;
  /** `grow: "at-once"`. */
  readonly #atOnce: boolean;
  /** Workers {@linkcode warm} starts (see {@linkcode ParsePoolOptions.warmWorkers}). */
  readonly #warmWorkers: number;
  #started = 0;
  /** When the last worker start returned (`performance.now()`). */
  #lastStartAt = -Infinity;
  /** A later look at the queue, for a worker that may not start yet. */
  #growTimer: ReturnType<typeof setTimeout> | undefined;
  #growAt = Infinity;
  /**
   * When a worker last became ready or finished a job (`performance.now()`):
   * a stall ({@linkcode GROW_STALLED_MS}) counts from then.
   */
  #lastProgressAt = -Infinity;
  /** Document bytes the workers have parsed, and the milliseconds they took (send to reply). */
  #parsedBytes = PRIOR_BYTES_PER_MS * PRIOR_MS;
  #parsedMs = PRIOR_MS;
  /** Since when the queue has held a job without a break (`performance.now()`). */
  #queuedSince = Infinity;

  constructor(maxWorkers: number, jobTimeoutMs: number, url: URL, options: ParsePoolOptions) {
    this.#maxWorkers = maxWorkers;
    this.#jobTimeoutMs = jobTimeoutMs;
    this.#url = url;
    this.#warmUp = options.warmUp ?? "light";
    this.#onStopped = options.onStopped;
    this.#stopGraceMs = options.stopGraceMs ?? STOP_GRACE_MS;
    this.#atOnce = options.grow === "at-once";
    this.#warmWorkers = Math.min(
      maxWorkers,
      options.warmWorkers ?? (this.#atOnce ? maxWorkers : 1),
    );
  }

  get size(): number {
    return this.#inThread ? 0 : this.#maxWorkers;
  }

  get started(): number {
    return this.#started;
  }

  parse(job: ParseJob, signal: AbortSignal | null = null): Promise<ParseOutcome> {
    if (this.#closed) return Promise.resolve(invalidOutcome(CLOSED_REASON));
    if (signal?.aborted) return Promise.resolve(invalidOutcome(CANCELLED_REASON));
    if (this.#inThread) return this.#here.parse(job, signal);
    return new Promise((resolve) => {
      if (this.#queueHead === this.#queue.length) this.#queuedSince = performance.now();
      this.#queue.push({ job, signal, resolve });
      this.#pump();
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#warmTimer);
    clearTimeout(this.#growTimer);
    this.#settleReady();
    for (const slot of this.#slots) {
      // Terminating does not interrupt a parse (Deno): the flag does.
      if (slot.cancel !== null) Atomics.store(slot.cancel, 0, CANCEL_ALL);
      const task = this.#release(slot);
      this.#retire(slot);
      task?.resolve(invalidOutcome(CLOSED_REASON));
    }
    for (const task of this.#drainQueue()) task.resolve(invalidOutcome(CLOSED_REASON));
    this.#here.close();
  }

  warm(delayMs = 0): void {
    clearTimeout(this.#warmTimer);
    this.#warmTimer = undefined;
    this.#warmDelayed = false;
    // The rest start on demand.
    if (this.#closed || this.#inThread || this.#slots.length >= this.#warmWorkers) return;
    const wait = Math.max(delayMs, this.#startWait());
    if (wait > 0) {
      this.#warmTimer = setTimeout(() => this.warm(), wait);
      this.#warmDelayed = delayMs > 0;
      return;
    }
    const slot = this.#addSlot();
    try {
      this.#start(slot);
    } catch (error) {
      // As in #dispatch: a runtime that will not start the worker parses here.
      this.#cannotStart(errorMessage(error));
      return;
    }
    // The next worker starts once this one is loaded and idle (#warmNext):
    // starting one holds this thread, and a second isolate loading beside
    // the first held back the first one's first job (a call's first sitemap
    // waited for both; bench/README.md#workers-start-up-warm-up-and-cancellation).
    // A job that finds no idle worker starts one at once anyway.
    this.#warmPending = this.#slots.length < this.#warmWorkers;
  }

  hurry(): void {
    if (this.#warmDelayed) this.warm();
  }

  /** Goes on with {@linkcode warm} after `slot`'s worker loaded or finished a job, if it is idle. */
  #warmNext(slot: Slot): void {
    if (!this.#warmPending || slot.task !== null || slot.stopping !== 0) return;
    this.#warmPending = false;
    this.#warmTimer = setTimeout(() => this.warm(), 0);
  }

  ready(): Promise<void> {
    if (this.#allReady()) return Promise.resolve();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  #allReady(): boolean {
    if (this.#closed || this.#inThread) return true;
    if (this.#slots.length < this.#warmWorkers) return false;
    return this.#slots.every((slot) =>
      slot.worker === null || (slot.ready && slot.warm && slot.stopping === 0)
    );
  }

  #settleReady(): void {
    if (this.#readyWaiters.length === 0 || !this.#allReady()) return;
    for (const resolve of this.#readyWaiters.splice(0)) resolve();
  }

  #pump(): void {
    while (this.#queueHead < this.#queue.length && !this.#closed) {
      if (this.#inThread) {
        for (const task of this.#drainQueue()) {
          void this.#here.parse(task.job, task.signal).then(task.resolve);
        }
        return;
      }
      const next = this.#queue[this.#queueHead]!;
      if (next.signal?.aborted) {
        // Given up on while it waited: no worker needed.
        this.#queueHead++;
        if (this.#queueHead === this.#queue.length) this.#drainQueue();
        next.resolve(invalidOutcome(CANCELLED_REASON));
        continue;
      }
      const slot = this.#idleSlot();
      if (slot === undefined) return;
      const task = this.#queue[this.#queueHead++]!;
      if (this.#queueHead === this.#queue.length) this.#drainQueue();
      this.#dispatch(slot, task);
    }
  }

  #drainQueue(): Task[] {
    const rest = this.#queue.slice(this.#queueHead);
    this.#queue = [];
    this.#queueHead = 0;
    return rest;
  }

  #idleSlot(): Slot | undefined {
    // A started worker is preferred to an empty slot, which would cost a start-up.
    let empty: Slot | undefined;
    let live = 0;
    let loading = false;
    for (const slot of this.#slots) {
      if (slot.worker !== null) live++;
      if (slot.worker !== null && !slot.ready) loading = true;
      if (slot.task !== null || slot.stopping !== 0) continue;
      if (slot.worker !== null) return slot;
      empty ??= slot;
    }
    if (empty === undefined && this.#slots.length >= this.#maxWorkers) return undefined;
    // No idle worker: start one, if the pool has none running or the queue
    // has backed up, and not right after another one started.
    const now = performance.now();
    let at = now;
    if (live > 0 && !this.#atOnce) {
      // A worker still loading takes the next job sooner than a new one would.
      if (loading) return undefined;
      if (this.#backlogMs(live) < GROW_BACKLOG_MS) {
        at = Math.max(this.#queuedSince, this.#lastProgressAt) + GROW_STALLED_MS;
      }
    }
    at = Math.max(at, this.#lastStartAt + START_GAP_MS);
    if (at > now) {
      this.#pumpAt(at);
      return undefined;
    }
    return empty ?? this.#addSlot();
  }

  /** Milliseconds the `live` workers would take to parse the queued jobs, at the rate measured so far. */
  #backlogMs(live: number): number {
    let bytes = 0;
    for (let i = this.#queueHead; i < this.#queue.length; i++) {
      bytes += documentBytes(this.#queue[i]!.job);
    }
    return bytes / (this.#parsedBytes / this.#parsedMs) / live;
  }

  /** Milliseconds until another worker may start ({@linkcode START_GAP_MS}). */
  #startWait(): number {
    return Math.max(0, this.#lastStartAt + START_GAP_MS - performance.now());
  }

  /** Looks at the queue again at `at` (`performance.now()` time), unless an earlier look is due. */
  #pumpAt(at: number): void {
    if (this.#growTimer !== undefined && this.#growAt <= at) return;
    clearTimeout(this.#growTimer);
    this.#growAt = at;
    this.#growTimer = setTimeout(() => {
      this.#growTimer = undefined;
      this.#growAt = Infinity;
      this.#pump();
    }, Math.max(0, Math.ceil(at - performance.now())));
  }

  #addSlot(): Slot {
    const slot: Slot = {
      worker: null,
      ready: false,
      warm: false,
      replaced: false,
      task: null,
      taskId: 0,
      sentAt: 0,
      timer: undefined,
      onAbort: null,
      cancel: null,
      stopping: 0,
      stoppingUrl: "",
      stopTimer: undefined,
    };
    this.#slots.push(slot);
    return slot;
  }

  /** No worker will start: every job from now on parses on this thread. */
  #cannotStart(reason: string): void {
    this.#inThread = true;
    this.startFailure ??= startFailure(reason);
    this.#settleReady();
  }

  #dispatch(slot: Slot, task: Task): void {
    let worker: ParseWorker;
    try {
      worker = slot.worker ?? this.#start(slot);
    } catch (error) {
      // The runtime has workers but will not start this one: parse here instead.
      this.#cannotStart(errorMessage(error));
      void this.#here.parse(task.job, task.signal).then(task.resolve);
      return;
    }
    slot.task = task;
    slot.taskId = this.#nextId++;
    if (task.signal !== null) {
      // One listener per running job (at most one per worker), none per queued one.
      const id = slot.taskId;
      const onAbort = (): void => {
        if (slot.taskId === id) this.#giveUp(slot, CANCELLED_REASON);
        this.#pump();
      };
      slot.onAbort = onAbort;
      task.signal.addEventListener("abort", onAbort, { once: true });
    }
    // Until the worker has loaded, the bytes stay here: if it never loads, the
    // job still has them to parse on this thread. Start-up is timed too.
    this.#startTimer(slot);
    if (slot.ready) this.#send(slot, worker);
  }

  #startTimer(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (Number.isFinite(this.#jobTimeoutMs) && this.#jobTimeoutMs <= MAX_TIMER_MS) {
      const id = slot.taskId;
      slot.timer = setTimeout(() => this.#timedOut(slot, id), this.#jobTimeoutMs);
    }
  }

  #send(slot: Slot, worker: ParseWorker): void {
    const task = slot.task;
    if (task === null) return;
    slot.warm = true;
    // The job's own allowance starts now, not when the worker began loading.
    this.#startTimer(slot);
    slot.sentAt = performance.now();
    const bytes = ownBuffer(task.job.bytes);
    const request: WorkerRequest = { id: slot.taskId, job: { ...task.job, bytes } };
    try {
      worker.postMessage(request, bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : []);
    } catch (error) {
      this.#fail(slot, slot.taskId, `Parser worker failed: ${errorMessage(error)}`);
    }
  }

  #start(slot: Slot): ParseWorker {
    // Set by the first line below: the events cannot fire before it returns.
    let worker: ParseWorker | null = null;
    worker = runtime.startWorker(this.#url, {
      message: (data) => this.#onReply(slot, worker, data as WorkerReply),
      error: (message) => this.#onError(slot, worker, message),
      exit: (code) => this.#onError(slot, worker, `exited with code ${code}`),
    });
    // A new flag per worker: a retired worker may still read its old one.
    slot.cancel = typeof SharedArrayBuffer === "function"
      ? new Int32Array(new SharedArrayBuffer(4))
      : null;
    const warmUp: WarmUpRequest = {
      warmUp: slot.replaced ? "light" : this.#warmUp,
      ...(slot.cancel === null ? {} : { cancel: slot.cancel }),
    };
    worker.postMessage(warmUp, []);
    this.#started++;
    this.#lastStartAt = performance.now();
    slot.worker = worker;
    slot.ready = false;
    slot.warm = false;
    return worker;
  }

  #onReply(slot: Slot, worker: ParseWorker | null, reply: WorkerReply): void {
    if (slot.worker !== worker || worker === null) return;
    if (reply.type === "warm") {
      slot.warm = true;
      this.#settleReady();
      return;
    }
    if (reply.type === "ready") {
      slot.ready = true;
      this.#lastProgressAt = performance.now();
      this.#send(slot, worker);
      this.#settleReady();
      this.#warmNext(slot);
      // Jobs that waited for it may now start another worker.
      this.#pump();
      return;
    }
    if (slot.stopping !== 0 && reply.id === slot.stopping) {
      this.#stopped(slot, reply);
      return;
    }
    if (slot.task === null || reply.id !== slot.taskId) return;
    if (reply.type === "done") {
      const now = performance.now();
      this.#lastProgressAt = now;
      // A rejected document (an HTML page, say) says nothing of the parse rate.
      if (reply.outcome.result.kind !== "invalid") {
        this.#parsedBytes += reply.outcome.decompressedBytes;
        this.#parsedMs += now - slot.sentAt;
      }
      this.#release(slot)?.resolve(reply.outcome);
      this.#pump();
      this.#warmNext(slot);
    } else {
      this.#fail(slot, reply.id, `Parser worker failed: ${reply.message}`);
    }
  }

  #onError(slot: Slot, worker: ParseWorker | null, message: string): void {
    if (slot.worker !== worker) return;
    if (!slot.ready) {
      // It never loaded (missing module, refused permission, a flag the worker
      // refuses): every worker would fail the same way, so the job and all
      // after it parse on this thread.
      this.#cannotStart(message);
      const task = this.#release(slot);
      this.#retire(slot);
      if (task !== null) void this.#here.parse(task.job, task.signal).then(task.resolve);
      this.#pump();
      return;
    }
    this.#fail(slot, slot.taskId, `Parser worker failed: ${message}`);
  }

  #timedOut(slot: Slot, id: number): void {
    if (slot.taskId !== id) return;
    this.#giveUp(slot, `Parser worker timed out after ${this.#jobTimeoutMs} ms`);
    this.#pump();
  }

  /**
   * Ends the slot's job now as invalid (`reason`) and has its worker stop it:
   * the shared flag makes the worker's next checkpoint throw, and the worker
   * is reused once it says it stopped, or retired after
   * {@linkcode STOP_GRACE_MS}. A job not yet sent (the worker still loading)
   * just ends; a worker without shared memory is retired at once.
   */
  #giveUp(slot: Slot, reason: string): void {
    const id = slot.taskId;
    const sent = slot.ready;
    const task = this.#release(slot);
    if (task === null) return;
    if (sent) {
      if (slot.cancel === null) {
        this.#retire(slot);
      } else {
        Atomics.store(slot.cancel, 0, id);
        slot.stopping = id;
        slot.stoppingUrl = task.job.url;
        slot.stopTimer = setTimeout(() => {
          this.#retire(slot);
          this.#settleReady();
          this.#pump();
        }, this.#stopGraceMs);
      }
    }
    task.resolve(invalidOutcome(reason));
  }

  /** The worker answered for the job it was stopping: it is free again. */
  #stopped(slot: Slot, reply: WorkerReply): void {
    clearTimeout(slot.stopTimer);
    slot.stopTimer = undefined;
    slot.stopping = 0;
    this.#warmNext(slot);
    const cancelled = reply.type === "done" ? reply.outcome.cancelled : undefined;
    this.#onStopped?.({
      url: slot.stoppingUrl,
      at: cancelled?.at ?? null,
      total: cancelled?.total ?? (reply.type === "done" ? reply.outcome.decompressedBytes : 0),
    });
    this.#settleReady();
    this.#pump();
  }

  /** Ends the slot's job as invalid and replaces its worker, whose state is now unknown. */
  #fail(slot: Slot, id: number, reason: string): void {
    const task = slot.taskId === id ? this.#release(slot) : null;
    this.#retire(slot);
    task?.resolve(invalidOutcome(reason));
    this.#pump();
  }

  #release(slot: Slot): Task | null {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    const task = slot.task;
    slot.task = null;
    if (task !== null && slot.onAbort !== null) {
      task.signal?.removeEventListener("abort", slot.onAbort);
    }
    slot.onAbort = null;
    return task;
  }

  #retire(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = null;
    slot.replaced = true;
    slot.ready = false;
    clearTimeout(slot.stopTimer);
    slot.stopTimer = undefined;
    slot.stopping = 0;
    if (worker === null) return;
    worker.terminate();
  }
}

// setTimeout fires at once for delays past a signed 32-bit millisecond count.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The size of a job's document: a gzip body's from its trailer (the size
 * mod 2^32 of its last member; a bomb's is large, as it should be), capped
 * at what the job may inflate; any other body's own.
 */
function documentBytes(job: ParseJob): number {
  const bytes = job.bytes;
  const n = bytes.byteLength;
  if (n < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return n;
  const size = (bytes[n - 4]! | bytes[n - 3]! << 8 | bytes[n - 2]! << 16 | bytes[n - 1]! << 24) >>>
    0;
  return Math.min(Math.max(size, n), job.maxSitemapBytes);
}

/** The bytes in a buffer of their own, so transferring it moves nothing else. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  return bytes.slice();
}
