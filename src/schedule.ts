/**
 * Scheduling of requests: which request may go on the wire now. Three rules,
 * checked together for every request (and every redirect hop):
 *
 * - at most `concurrency` requests in flight per host (scheme, host and port);
 * - at most `maxConnections` in flight across all hosts;
 * - at least `delayMs` between the starts of two requests to the same host,
 *   raised to the host's robots.txt `Crawl-delay` (capped at 10 s) when
 *   `respectCrawlDelay` is on.
 *
 * Waiting requests are granted in arrival order, skipping those whose host is
 * full or still in its delay, so one slow host never holds up the others. One
 * {@linkcode RequestScheduler} serves one call, or every site of a
 * `sitemapTreesForHomepages` run: the global cap then spans them all.
 *
 * @module
 */
import { AbortWaiters } from "./_abortable.ts";
import { integerOption } from "./_option_checks.ts";

/** The politeness and connection options, shared by every call that fetches. */
export interface SchedulingOptions {
  /** Requests in flight per host. @default {4} */
  readonly concurrency?: number;
  /**
   * Requests in flight across all hosts of a call (and of a whole
   * `sitemapTreesForHomepages` run). @default {64}
   */
  readonly maxConnections?: number;
  /** Least time in milliseconds between the starts of two requests to the same host. @default {0} */
  readonly delayMs?: number;
  /**
   * Honour robots.txt `Crawl-delay` for its host, as a floor under `delayMs`,
   * capped at 10 seconds. Until the homepage's robots.txt has answered (or
   * failed), no other request goes to its host. The delay is read from the
   * group naming this client's user agent, else from the `*` group.
   * @default {false}
   */
  readonly respectCrawlDelay?: boolean;
}

/**
 * The defaults of {@linkcode SchedulingOptions}; part of the options'
 * `DEFAULTS` (options.ts), which is where to read them.
 */
export const SCHEDULING_DEFAULTS: Readonly<Required<SchedulingOptions>> = Object.freeze({
  concurrency: 4,
  maxConnections: 64,
  delayMs: 0,
  respectCrawlDelay: false,
});

/** The longest robots.txt `Crawl-delay` honoured. */
export const MAX_CRAWL_DELAY_MS = 10_000;

/** {@linkcode SchedulingOptions} with defaults applied and values checked. */
export interface ResolvedScheduling {
  readonly concurrency: number;
  readonly maxConnections: number;
  readonly delayMs: number;
  readonly respectCrawlDelay: boolean;
}

/**
 * Applies the defaults and checks the values.
 *
 * @param options The caller's options.
 * @returns Every field set.
 * @throws {RangeError} When a number is not an integer in range.
 * @throws {TypeError} When `respectCrawlDelay` is not a boolean.
 */
export function resolveScheduling(options: SchedulingOptions): ResolvedScheduling {
  const defaults = SCHEDULING_DEFAULTS;
  const respect = options.respectCrawlDelay ?? defaults.respectCrawlDelay;
  if (typeof respect !== "boolean") {
    throw new TypeError(
      `Option "respectCrawlDelay" must be a boolean, got ${JSON.stringify(respect)}`,
    );
  }
  return {
    concurrency: integerOption("concurrency", options.concurrency, defaults.concurrency, 1),
    maxConnections: integerOption(
      "maxConnections",
      options.maxConnections,
      defaults.maxConnections,
      1,
    ),
    delayMs: integerOption("delayMs", options.delayMs, defaults.delayMs, 0),
    respectCrawlDelay: respect,
  };
}

/** Gives a granted request's connection back; calling it twice does nothing. */
export type Release = () => void;

interface Waiter {
  readonly host: Host;
  readonly ungated: boolean;
  readonly signal: AbortSignal;
  readonly reject: (reason: unknown) => void;
  readonly grant: () => void;
}

interface Host {
  active: number;
  /** Earliest start of the next request (performance.now() ms). */
  nextAt: number;
  /** Start of the last request granted (performance.now() ms), -Infinity before any. */
  lastStart: number;
  /** Crawl-delay floor, ms (0 when none). */
  crawlDelayMs: number;
  /** Waiting for this host's robots.txt: only ungated requests may start. */
  gated: boolean;
  /** The crawl delay has been read (or found absent) once. */
  known: boolean;
}

/**
 * Grants requests their turn under the per-host, global and delay rules.
 *
 * @example Two requests to one host, one second apart at least
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { RequestScheduler } from "./schedule.ts";
 *
 * const scheduler = new RequestScheduler({ delayMs: 100 });
 * const signal = new AbortController().signal;
 * const started: number[] = [];
 * for (const path of ["/a.xml", "/b.xml"]) {
 *   const release = await scheduler.acquire(new URL(path, "https://example.com"), signal);
 *   started.push(performance.now());
 *   release();
 * }
 * ok(started[1]! - started[0]! >= 90); // a timer's lower bound, give or take its rounding
 * ```
 */
export class RequestScheduler {
  readonly options: ResolvedScheduling;
  readonly #hosts = new Map<string, Host>();
  readonly #waiting: Waiter[] = [];
  /** One abort listener per signal, not per waiting request. */
  readonly #watch = new AbortWaiters<Waiter>((waiter, reason) => {
    const i = this.#waiting.indexOf(waiter);
    if (i >= 0) this.#waiting.splice(i, 1);
    if (this.#waiting.length === 0) this.#disarm();
    waiter.reject(reason);
  });
  #active = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  /** Most requests in flight at once so far (for tests and benchmarks). */
  peakActive = 0;

  /**
   * @param options Limits; see {@linkcode SchedulingOptions}.
   * @throws {RangeError} When a number is out of range.
   */
  constructor(options: SchedulingOptions = {}) {
    this.options = resolveScheduling(options);
  }

  /** Requests in flight now, across all hosts. */
  get active(): number {
    return this.#active;
  }

  /**
   * Waits for `url`'s turn: a free slot on its host and globally, and the
   * host's delay elapsed since its last start.
   *
   * @param url The request's URL (its scheme, host and port name the host).
   * @param signal Ends the wait with its reason when it aborts.
   * @param ungated True for the robots.txt request that a held host waits for.
   * @returns The function that gives the connection back.
   */
  acquire(url: URL, signal: AbortSignal, ungated = false): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const host = this.#host(url);
    if (this.#waiting.length === 0 && this.#eligible(host, ungated, performance.now())) {
      return Promise.resolve(this.#start(host));
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        host,
        ungated,
        signal,
        reject,
        grant: () => {
          this.#watch.delete(signal, waiter);
          resolve(this.#start(host));
        },
      };
      this.#watch.add(signal, waiter);
      this.#waiting.push(waiter);
      this.#pump();
    });
  }

  /**
   * Holds every request to `url`'s host except ungated ones until
   * {@linkcode RequestScheduler.setCrawlDelay} is called for it. Does
   * nothing when the host's crawl delay is already known or
   * `respectCrawlDelay` is off.
   *
   * @param url Any URL on the host.
   */
  holdForRobots(url: URL): void {
    if (!this.options.respectCrawlDelay) return;
    const host = this.#host(url);
    if (!host.known) host.gated = true;
  }

  /**
   * Sets the host's robots.txt `Crawl-delay` (capped at 10 s) and lets its
   * held requests go. Only the first call for a host counts.
   *
   * @param url Any URL on the host.
   * @param seconds The `Crawl-delay` value, or null when there is none.
   */
  setCrawlDelay(url: URL, seconds: number | null): void {
    const host = this.#host(url);
    if (host.known) return;
    host.known = true;
    host.gated = false;
    if (this.options.respectCrawlDelay && seconds !== null && seconds > 0) {
      host.crawlDelayMs = Math.min(MAX_CRAWL_DELAY_MS, Math.round(seconds * 1000));
      // The robots.txt request itself counts as the last one.
      host.nextAt = Math.max(host.nextAt, host.lastStart + host.crawlDelayMs);
    }
    this.#pump();
  }

  /**
   * Notes that a granted request to `url`'s host goes on the wire now: the
   * host's delay counts from here rather than from the grant, so that the
   * time the caller takes between the two (its continuation waiting behind
   * other work on a busy thread) never shortens the gap the server sees
   * between two requests.
   *
   * @param url The request's URL.
   */
  sending(url: URL): void {
    const host = this.#host(url);
    const now = performance.now();
    host.lastStart = Math.max(host.lastStart, now);
    const delay = Math.max(this.options.delayMs, host.crawlDelayMs);
    if (delay > 0) host.nextAt = Math.max(host.nextAt, now + delay);
  }

  /**
   * The delay between two request starts on `url`'s host now in force.
   *
   * @param url Any URL on the host.
   * @returns Milliseconds.
   */
  delayFor(url: URL): number {
    return Math.max(this.options.delayMs, this.#host(url).crawlDelayMs);
  }

  #host(url: URL): Host {
    const key = `${url.protocol}//${url.host}`;
    let host = this.#hosts.get(key);
    if (host === undefined) {
      host = {
        active: 0,
        nextAt: 0,
        lastStart: -Infinity,
        crawlDelayMs: 0,
        gated: false,
        known: false,
      };
      this.#hosts.set(key, host);
    }
    return host;
  }

  #eligible(host: Host, ungated: boolean, now: number): boolean {
    return this.#active < this.options.maxConnections &&
      host.active < this.options.concurrency &&
      (ungated || !host.gated) &&
      host.nextAt <= now;
  }

  #start(host: Host): Release {
    this.#active++;
    if (this.#active > this.peakActive) this.peakActive = this.#active;
    host.active++;
    host.lastStart = performance.now();
    const delay = Math.max(this.options.delayMs, host.crawlDelayMs);
    if (delay > 0) host.nextAt = host.lastStart + delay;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#active--;
      host.active--;
      this.#pump();
    };
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  /** Grants every waiter that may start now, in order; arms a timer for the earliest delayed one. */
  #pump(): void {
    const now = performance.now();
    let wakeAt = Infinity;
    for (let i = 0; i < this.#waiting.length;) {
      if (this.#active >= this.options.maxConnections) break;
      const waiter = this.#waiting[i]!;
      if (this.#eligible(waiter.host, waiter.ungated, now)) {
        this.#waiting.splice(i, 1);
        waiter.grant();
        continue;
      }
      const { host } = waiter;
      if (
        host.nextAt > now && host.active < this.options.concurrency &&
        (waiter.ungated || !host.gated)
      ) {
        wakeAt = Math.min(wakeAt, host.nextAt);
      }
      i++;
    }
    if (this.#waiting.length === 0) {
      this.#disarm();
      return;
    }
    if (wakeAt < this.#timerAt) {
      clearTimeout(this.#timer);
      this.#timerAt = wakeAt;
      this.#timer = setTimeout(() => {
        this.#timerAt = Infinity;
        this.#timer = undefined;
        this.#pump();
      }, Math.max(0, wakeAt - now));
    }
  }
}
