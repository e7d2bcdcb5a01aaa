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
  /** A slice is running: no turn of the event loop since it started. */
  #open = false;

  /**
   * Resolves at once while the slice lasts; once more than {@linkcode SLICE_MS}
   * has passed since the slice started, resolves on a later turn of the event
   * loop (a timer), so that whatever else is due runs first.
   *
   * The first step after a turn of the event loop (the thread was idle, or
   * ran other callbacks) starts a new slice and goes on at once: a burst's
   * first step (an index's first child request) is not held back by a yield
   * that lets nothing run. A timer set then notes the next turn, which ends
   * the slice; until it fires, the steps ran back to back.
   *
   * @returns A promise to await before the next step.
   */
  yieldIfBusy(): Promise<void> | void {
    if (!this.#open) {
      this.#open = true;
      this.#sliceStart = performance.now();
      setTimeout(() => {
        this.#open = false;
      }, 0);
      return;
    }
    if (performance.now() - this.#sliceStart < SLICE_MS) return;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        this.#open = false;
        resolve();
      }, 0)
    );
  }
}
