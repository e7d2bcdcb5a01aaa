/**
 * Watches the Redis behind a queue for `enqueue` and `worker`: it asks for
 * the queue's job counts four times a second and turns what it hears into
 * one line per change (lost, back), a give-up after a bounded wait, and the
 * counts `--drain` needs. BullMQ's own connection errors, which repeat on
 * every reconnect attempt, come in through {@linkcode RedisWatch.error} and
 * are never printed one by one.
 *
 * @module
 */
import { errorMessage } from "../_error_message.ts";

/** The job states the watch counts; together they are every job in the queue. */
export const JOB_STATES = [
  "waiting",
  "active",
  "delayed",
  "prioritized",
  "paused",
  "waiting-children",
  "completed",
  "failed",
] as const;

/** A queue's job counts by state. */
export type JobCounts = Readonly<Record<(typeof JOB_STATES)[number], number>>;

/** What the watch asks of a BullMQ `Queue`. */
export interface CountedQueue {
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/** Options of {@linkcode RedisWatch}. */
export interface RedisWatchOptions {
  /** `host:port`, as the lines name it. */
  readonly where: string;
  /** Give up once Redis has not answered for this long, ms. */
  readonly waitMs: number;
  /** Where the state lines go (each without a line break). */
  readonly report: (line: string) => void;
  /** Also say so when Redis does not answer at start, before giving up. @default {false} */
  readonly reportWaiting?: boolean;
  /** Between two questions, ms. @default {250} */
  readonly intervalMs?: number;
  /** A question unanswered this long means Redis is lost, ms. @default {5000} */
  readonly silentMs?: number;
}

/** Error codes of a connection that failed or broke, rather than of a command. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether an error of BullMQ or its Redis client is about the connection
 * (Redis away) rather than about a job.
 *
 * @param error What an `error` event carried.
 * @returns True for a refused, reset, timed-out or closed connection.
 */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && CONNECTION_CODES.has(e.code)) return true;
  return typeof e?.message === "string" &&
    /^Connection is closed|^connect ETIMEDOUT/.test(e.message);
}

/**
 * The state of one Redis, from a question asked on a timer. Starts at once;
 * {@linkcode RedisWatch.stop} ends it.
 */
export class RedisWatch {
  readonly #queue: CountedQueue;
  readonly #options: Required<RedisWatchOptions>;
  readonly #timer: ReturnType<typeof setInterval>;
  #state: "starting" | "waiting" | "up" | "lost" = "starting";
  /** When Redis last answered, or the watch started. */
  #answered = performance.now();
  #asked: number | null = null;
  #cause: string | null = null;
  #gaveUp: ((line: string) => void) | null = null;
  #ready: (() => void) | null = null;
  #listeners: ((counts: JobCounts, afterLoss: boolean) => void)[] = [];
  #lostSinceLastCounts = false;

  /** Settles once Redis has answered a first time. */
  readonly ready: Promise<void>;
  /** Settles with the line to print once Redis has not answered for `waitMs`. */
  readonly gaveUp: Promise<string>;

  /**
   * @param queue The queue to ask.
   * @param options Where Redis is, how long to wait, where the lines go.
   */
  constructor(queue: CountedQueue, options: RedisWatchOptions) {
    this.#queue = queue;
    this.#options = { reportWaiting: false, intervalMs: 250, silentMs: 5000, ...options };
    this.ready = new Promise((resolve) => this.#ready = resolve);
    this.gaveUp = new Promise((resolve) => this.#gaveUp = resolve);
    this.#timer = setInterval(() => this.#tick(), this.#options.intervalMs);
    this.#ask();
  }

  /**
   * Takes an `error` event of a BullMQ object on this Redis.
   *
   * @param error The error.
   * @returns True when it was about the connection (the watch reports it as a state); false for
   * another error, which the caller reports.
   */
  error(error: unknown): boolean {
    if (!isConnectionError(error)) return false;
    this.#cause = causeOf(error);
    this.#away();
    return true;
  }

  /**
   * Calls `listener` with every answer: the counts, and whether Redis was
   * lost since the previous answer.
   *
   * @param listener The listener.
   */
  onCounts(listener: (counts: JobCounts, afterLoss: boolean) => void): void {
    this.#listeners.push(listener);
  }

  /** Whether Redis answered the last question. */
  get up(): boolean {
    return this.#state === "up";
  }

  /** Takes the news that a connection to this Redis closed (BullMQ's `ioredis:close`). */
  closed(): void {
    this.#cause ??= "connection closed";
    this.#away();
  }

  /** Stops asking. */
  stop(): void {
    clearInterval(this.#timer);
    this.#gaveUp = null;
  }

  #tick(): void {
    const now = performance.now();
    if (this.#asked !== null && now - this.#asked > this.#options.silentMs) this.#away();
    if (this.#state !== "up" && now - this.#answered > this.#options.waitMs) {
      const gaveUp = this.#gaveUp;
      this.stop();
      gaveUp?.(
        `Redis at ${this.#options.where} is not answering (${this.#cause ?? "no reply"} for ${
          seconds(now - this.#answered)
        })`,
      );
      return;
    }
    if (this.#asked === null) this.#ask();
  }

  #ask(): void {
    this.#asked = performance.now();
    this.#queue.getJobCounts(...JOB_STATES).then(
      (counts) => this.#answer(counts),
      (error: unknown) => {
        this.#asked = null;
        this.#cause = causeOf(error);
        this.#away();
      },
    );
  }

  #answer(counts: Record<string, number>): void {
    this.#asked = null;
    if (this.#gaveUp === null) return;
    const now = performance.now();
    if (this.#state === "lost" || (this.#state === "waiting" && this.#options.reportWaiting)) {
      this.#options.report(
        `Redis at ${this.#options.where} answers${this.#state === "lost" ? " again" : ""}, after ${
          seconds(now - this.#answered)
        }`,
      );
    }
    this.#state = "up";
    this.#answered = now;
    this.#cause = null;
    this.#ready?.();
    this.#ready = null;
    const afterLoss = this.#lostSinceLastCounts;
    this.#lostSinceLastCounts = false;
    const all = Object.fromEntries(JOB_STATES.map((s) => [s, counts[s] ?? 0])) as JobCounts;
    for (const listener of this.#listeners) listener(all, afterLoss);
  }

  #away(): void {
    if (this.#gaveUp === null) return;
    const wait = `waiting up to ${seconds(this.#options.waitMs)} (--redis-timeout)`;
    if (this.#state === "up") {
      this.#state = "lost";
      this.#lostSinceLastCounts = true;
      this.#options.report(
        `Lost Redis at ${this.#options.where} (${this.#cause ?? "no reply"}); ${wait}`,
      );
    } else if (this.#state === "starting") {
      this.#state = "waiting";
      if (this.#options.reportWaiting) {
        this.#options.report(
          `Redis at ${this.#options.where} is not answering (${
            this.#cause ?? "no reply"
          }); ${wait}`,
        );
      }
    }
  }
}

/** A short cause: the error code when there is one (ECONNREFUSED), else the message. */
function causeOf(error: unknown): string {
  const e = error as { code?: unknown } | null;
  if (typeof e?.code === "string" && e.code !== "") return e.code;
  return errorMessage(error);
}

/** Milliseconds as seconds, to a tenth, without a trailing `.0`: `60 s`, `2.5 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
