/**
 * Cancellation inside a parse: readers call a {@linkcode Checkpoint} at least
 * every {@linkcode CHECKPOINT_BYTES} of input, and it throws
 * {@linkcode ParseCancelled} once the caller has given up on the document
 * (a worker reads a flag the calling thread shares with it). Deno's
 * `Worker.terminate()` does not interrupt synchronous code, so only the parse
 * itself can stop its CPU
 * (bench/README.md#workers-start-up-warm-up-and-cancellation).
 *
 * @module
 */

/** Called with the input offset reached; throws {@linkcode ParseCancelled} to stop. */
export type Checkpoint = (at: number) => void;

/** Input bytes between two checkpoints at most. */
export const CHECKPOINT_BYTES = 1 << 20;

/** A checkpoint that never stops. */
export const NO_CHECKPOINT: Checkpoint = () => {};

/** Thrown by a {@linkcode Checkpoint}: the parse stops here, its output is dropped. */
export class ParseCancelled extends Error {
  /** Input offset (decompressed bytes) where the parse stopped. */
  readonly at: number;

  /**
   * @param at Input offset where the parse stopped.
   */
  constructor(at: number) {
    super(`Parse cancelled at byte ${at}`);
    this.name = "ParseCancelled";
    this.at = at;
  }
}
