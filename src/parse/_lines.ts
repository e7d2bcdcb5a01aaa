/**
 * Splits decoded chunks into lines (LF, CRLF or CR) for the line-based
 * formats, carrying a partial line over to the next chunk.
 *
 * @module
 */

/** Calls `onLine` for every line of the text written to it. */
export class LineSplitter {
  readonly #onLine: (line: string) => void;
  #pending = "";
  #skipLf = false;

  /** @param onLine Receives each line without its terminator. */
  constructor(onLine: (line: string) => void) {
    this.#onLine = onLine;
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
      this.#onLine(this.#pending === "" ? piece : this.#pending + piece);
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
    if (start < n) this.#pending += chunk.slice(start);
  }

  /** Flushes the last line when the text did not end with a terminator. */
  end(): void {
    if (this.#pending !== "") this.#onLine(this.#pending);
    this.#pending = "";
  }
}
