/**
 * Cooperative time slicing for work on the calling thread that comes in a
 * burst (starting the children of a sitemap index): a long run of synchronous
 * steps is cut into slices, with a turn of the event loop between them, so
 * timers and I/O callbacks of the caller's program are not held up.
 *
 * @module
 */

/** Longest slice of work between two turns of the event loop, in milliseconds. */
const SLICE_MS = 2;

/** Yields to the event loop once the current slice of work is used up. */
export class TimeSlicer {
  #sliceStart = 0;

  /**
   * Resolves at once while the slice lasts; once more than {@linkcode SLICE_MS}
   * has passed since the last yield, resolves on a later turn of the event
   * loop (a timer), so that whatever else is due runs first. A step after a
   * pause (the thread was idle) yields once, which costs about a millisecond.
   *
   * @returns A promise to await before the next step.
   */
  yieldIfBusy(): Promise<void> | void {
    if (performance.now() - this.#sliceStart < SLICE_MS) return;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        this.#sliceStart = performance.now();
        resolve();
      }, 0)
    );
  }
}
