/**
 * Racing a promise against an `AbortSignal`.
 *
 * @module
 */

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts.
 * However many wait on one signal (every site of a many-sites run waits on
 * the run's), the signal gets one listener.
 *
 * @param work The promise to wait for.
 * @param signal Stops the wait when it aborts; null waits for `work` alone.
 * @returns `work`'s outcome, or the signal's reason as a rejection.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (signal === null) return work;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    WAITS.add(signal, reject);
    work.then(resolve, reject).finally(() => WAITS.delete(signal, reject));
  });
}

/**
 * Many waiters on few signals with one abort listener per signal, not per
 * waiter: a crawl's requests all wait on its one signal, and a listener each
 * made Node warn of a leak past 10 (`MaxListenersExceededWarning`).
 *
 * @example Reject whoever waits on a signal when it aborts
 * ```ts
 * import { rejects } from "node:assert/strict";
 * import { AbortWaiters } from "./_abortable.ts";
 *
 * const waiters = new AbortWaiters<(reason: unknown) => void>((reject, reason) => reject(reason));
 * const controller = new AbortController();
 * const waiting = new Promise((_, reject) => waiters.add(controller.signal, reject));
 * controller.abort(new Error("stopped"));
 * await rejects(waiting, /^Error: stopped$/);
 * ```
 */
export class AbortWaiters<W> {
  readonly #watched = new Map<
    AbortSignal,
    { readonly waiters: Set<W>; readonly onAbort: () => void }
  >();
  readonly #aborted: (waiter: W, reason: unknown) => void;

  /** @param aborted Called for each waiter still waiting when its signal aborts. */
  constructor(aborted: (waiter: W, reason: unknown) => void) {
    this.#aborted = aborted;
  }

  /**
   * Watches `signal` for `waiter` until {@linkcode AbortWaiters.delete}.
   *
   * @param signal The signal the waiter waits on (not yet aborted).
   * @param waiter The waiter.
   */
  add(signal: AbortSignal, waiter: W): void {
    const watched = this.#watched.get(signal);
    if (watched !== undefined) {
      watched.waiters.add(waiter);
      return;
    }
    const waiters = new Set<W>([waiter]);
    const onAbort = (): void => {
      this.#watched.delete(signal);
      for (const w of waiters) this.#aborted(w, signal.reason);
    };
    this.#watched.set(signal, { waiters, onAbort });
    signal.addEventListener("abort", onAbort, { once: true });
  }

  /**
   * Stops watching for `waiter`; the signal's listener goes with its last waiter.
   *
   * @param signal The signal it was added with.
   * @param waiter The waiter.
   */
  delete(signal: AbortSignal, waiter: W): void {
    const watched = this.#watched.get(signal);
    if (watched === undefined || !watched.waiters.delete(waiter) || watched.waiters.size > 0) {
      return;
    }
    this.#watched.delete(signal);
    signal.removeEventListener("abort", watched.onAbort);
  }
}

/** The rejections of {@linkcode abortable} waits, by signal. */
const WAITS = new AbortWaiters<(reason: unknown) => void>((reject, reason) => reject(reason));
