/**
 * The live progress line: one line on a terminal's stderr, redrawn in place
 * about ten times a second and erased at the end, so the terminal is clean
 * before the output and `--stats` appear.
 *
 * @module
 */
import type { SitemapProgressEvent } from "../../mod.ts";
import type { CliIO, SerialWriter } from "./_io.ts";
import { formatBytes, formatCount, formatSeconds } from "../format/_units.ts";

/** The counters the line shows. */
export interface ProgressCounts {
  readonly sitemapsDone: number;
  readonly sitemapsQueued: number;
  readonly pagesFound: number;
  readonly bytesDownloaded: number;
}

/** Carriage return, then erase the whole line: the cursor ends at column 0 of a blank line. */
export const CLEAR_LINE = "\r\x1b[2K";

/**
 * The line's text: `sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB · 2.3 s`.
 *
 * @param counts The latest counters.
 * @param elapsedMs Milliseconds since the crawl started.
 * @returns The text, without control characters.
 */
export function progressText(counts: ProgressCounts, elapsedMs: number): string {
  return `sitemaps ${formatCount(counts.sitemapsDone)} done / ${
    formatCount(counts.sitemapsQueued)
  } queued · pages ${formatCount(counts.pagesFound)} · ${formatBytes(counts.bytesDownloaded)} · ${
    formatSeconds(elapsedMs)
  }`;
}

/**
 * Whether to draw a live line at all: only on a terminal's stderr (a file or
 * pipe never gets control codes), not with `TERM=dumb` or `--no-progress`,
 * and not when a permission prompt may come, which the redraws would garble.
 *
 * @param io The standard streams.
 * @param wanted False for `--no-progress`.
 * @returns True to draw it.
 */
export async function drawsProgress(io: CliIO, wanted: boolean): Promise<boolean> {
  if (!io.stderrIsTerminal || !wanted || io.term === "dumb") return false;
  return !(await io.mayPrompt?.(["net", "read"]) ?? false);
}

/** Options of {@linkcode ProgressLine}. */
export interface ProgressLineOptions {
  /** The terminal's width; the line is cut to one column less, so it never wraps. */
  readonly columns?: number;
  /** Milliseconds between redraws. @default {100} */
  readonly intervalMs?: number;
  /** The clock. @default {performance.now} */
  readonly now?: () => number;
  /**
   * The line's text from the milliseconds elapsed, for a line that shows
   * other counters than a crawl's. @default {progressText of the last update()}
   */
  readonly text?: (elapsedMs: number) => string;
}

/**
 * Draws the progress line on a timer rather than on every event: a crawl
 * finishing hundreds of sitemaps a second redraws ten times a second, and a
 * crawl waiting on a slow server still sees its clock move.
 */
export class ProgressLine {
  readonly #out: SerialWriter;
  readonly #columns: number;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #text: (elapsedMs: number) => string;
  readonly #started: number;
  #counts: ProgressCounts = {
    sitemapsDone: 0,
    sitemapsQueued: 0,
    pagesFound: 0,
    bytesDownloaded: 0,
  };
  #timer: ReturnType<typeof setInterval> | null = null;
  #shown = "";

  /**
   * @param out The terminal's stderr.
   * @param options Width, redraw interval and clock.
   */
  constructor(out: SerialWriter, options: ProgressLineOptions = {}) {
    this.#out = out;
    this.#columns = options.columns ?? 0;
    this.#intervalMs = options.intervalMs ?? 100;
    this.#now = options.now ?? (() => performance.now());
    this.#text = options.text ?? ((elapsedMs) => progressText(this.#counts, elapsedMs));
    this.#started = this.#now();
  }

  /** Draws the line, then redraws it on the timer. */
  start(): void {
    if (this.#timer !== null) return;
    // At once, so the line is there from the first moment (even if a quick
    // crawl then erases it unseen) and log lines always go above it.
    this.draw();
    this.#timer = setInterval(() => this.draw(), this.#intervalMs);
  }

  /**
   * Takes the counters of a library progress event; they show at the next redraw.
   *
   * @param event The event.
   */
  update(event: SitemapProgressEvent): void {
    this.#counts = {
      sitemapsDone: event.sitemapsDone,
      sitemapsQueued: event.sitemapsQueued,
      pagesFound: event.pagesFound,
      bytesDownloaded: event.bytesDownloaded,
    };
  }

  /** Redraws the line now (the timer calls this). */
  draw(): void {
    let text = this.#text(this.#now() - this.#started);
    if (this.#columns > 1 && text.length > this.#columns - 1) {
      text = text.slice(0, this.#columns - 1);
    }
    if (text === this.#shown) return;
    this.#shown = text;
    this.#out.write(CLEAR_LINE + text);
  }

  /**
   * Writes a whole line above the progress line (a log line on the same terminal).
   *
   * @param line The line, without a line break.
   */
  log(line: string): void {
    if (this.#shown === "") {
      this.#out.write(line + "\n");
      return;
    }
    this.#out.write(`${CLEAR_LINE}${line}\n${this.#shown}`);
  }

  /** Stops redrawing and erases the line. */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#shown !== "") this.#out.write(CLEAR_LINE);
    this.#shown = "";
  }
}
