/**
 * The `-v` / `-vv` log: library progress events as lines a person can read.
 * The library never prints; the command line decides what is said, and where.
 *
 * @module
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { SitemapProgressEvent } from "../../mod.ts";
import { formatBytes, formatCount, formatDuration, formatSeconds } from "../format/_units.ts";

/**
 * The log line for one event at a verbosity, or null when that verbosity
 * says nothing about it.
 *
 * `-v` says `fetched URL (N bytes)`, `unchanged URL (…)` (a cached sitemap
 * reused) and `invalid URL: reason`; `-vv` says every event (`parsed` too)
 * with its timing and the running totals.
 *
 * @param event A library progress event.
 * @param verbosity 1 or 2 (0 logs nothing).
 * @returns The line, without a line break, or null.
 */
export function logLine(event: SitemapProgressEvent, verbosity: number): string | null {
  if (verbosity <= 0) return null;
  let line: string;
  switch (event.kind) {
    case "fetched":
      line = event.unchanged === true
        ? `unchanged ${event.url} (not parsed: 304 Not Modified or skipped)`
        : `fetched ${event.url} (${formatCount(event.bytes ?? 0)} bytes)`;
      break;
    case "invalid":
      line = `invalid ${event.url}: ${event.reason ?? "unknown reason"}`;
      break;
    case "parsed":
      if (verbosity < 2) return null;
      line = `parsed ${event.url} (${formatCount(event.pages ?? 0)} pages)`;
      break;
  }
  if (verbosity < 2) return line;
  return `${line} in ${formatDuration(event.ms)}; sitemaps ${
    formatCount(event.sitemapsDone)
  } done / ${formatCount(event.sitemapsQueued)} queued, pages ${formatCount(event.pagesFound)}, ${
    formatBytes(event.bytesDownloaded)
  }, ${formatSeconds(event.elapsedMs)}`;
}

/** Where log lines go. */
export interface LogSink {
  /** Writes one line (without its line break). */
  line(text: string): void;
  /** Releases the sink. */
  close(): void;
}

/**
 * A log file opened for appending, as USP's `--log-file` does. Lines are
 * written synchronously: they come from event listeners, are few and short,
 * and must all be there when the command exits.
 *
 * @param path The file to append to; created when missing.
 * @returns The sink.
 * @throws {Error} When the file cannot be opened.
 */
export function openLogFile(path: string): LogSink {
  const fd = openSync(path, "a");
  const encoder = new TextEncoder();
  let open = true;
  return {
    line(text: string): void {
      if (open) writeSync(fd, encoder.encode(text + "\n"));
    },
    close(): void {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
