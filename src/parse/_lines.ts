/**
 * Splits decoded chunks into lines (LF, CRLF or CR) for the line-based
 * formats, carrying a partial line over to the next chunk.
 *
 * @module
 */

/**
 * Longest line kept, in UTF-16 units. A URL worth reading is a few KiB; a
 * hostile 50 MB line would otherwise be buffered whole.
 */
export const MAX_LINE = 64 << 10;

/** Calls `onLine` for every line of the text written to it; over-long lines are dropped. */
export class LineSplitter {
  readonly #onLine: (line: string) => void;
  readonly #maxLine: number;
  #pending = "";
  #skipLf = false;
  /** Inside a line already longer than the limit: drop until its end. */
  #dropping = false;

  /**
   * @param onLine Receives each line without its terminator.
   * @param maxLine Longest line passed on; longer ones are skipped whole.
   */
  constructor(onLine: (line: string) => void, maxLine: number = MAX_LINE) {
    this.#onLine = onLine;
    this.#maxLine = maxLine;
  }

  #emit(line: string): void {
    if (this.#dropping) this.#dropping = false;
    else if (line.length <= this.#maxLine) this.#onLine(line);
  }

  /**
   * Feeds the next chunk of text.
   *
   * @param chunk Decoded text.
   */
  write(chunk: string): void {
    let start = 0;
    const n = chunk.length;
    if (this.#skipLf && n > 0) {
      // A CRLF split across two chunks is one terminator.
      if (chunk.charCodeAt(0) === 10) start = 1;
      this.#skipLf = false;
    }
    for (let i = start; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const piece = chunk.slice(start, i);
      this.#emit(this.#pending === "" ? piece : this.#pending + piece);
      this.#pending = "";
      if (c === 13) {
        if (i + 1 < n) {
          if (chunk.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#skipLf = true;
        }
      }
      start = i + 1;
    }
    if (start < n && !this.#dropping) {
      this.#pending += chunk.slice(start);
      if (this.#pending.length > this.#maxLine) {
        this.#pending = "";
        this.#dropping = true;
      }
    }
  }

  /** Flushes the last line when the text did not end with a terminator. */
  end(): void {
    if (this.#pending !== "" || this.#dropping) this.#emit(this.#pending);
    this.#pending = "";
    this.#dropping = false;
  }
}
