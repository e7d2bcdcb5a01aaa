/**
 * Racing a promise against an `AbortSignal`.
 *
 * @module
 */

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts.
 *
 * @param work The promise to wait for.
 * @param signal Stops the wait when it aborts; null waits for `work` alone.
 * @returns `work`'s outcome, or the signal's reason as a rejection.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (signal === null) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
