/**
 * The command line's standard streams, behind one small interface so `main()`
 * runs the same on Deno, Bun and Node and in tests with injected writers.
 *
 * @module
 */
import process from "node:process";
import { permissionMayPrompt, readEnv } from "../runtime/mod.ts";

/** A byte sink such as stdout; `write` settles once the bytes are taken (backpressure). */
export interface CliWriter {
  /** Writes all of `chunk`; rejects when the stream is closed or broken. */
  write(chunk: Uint8Array): Promise<void>;
}

/** The streams `main()` uses; tests inject their own. */
export interface CliIO {
  /** Where the output goes. */
  readonly stdout: CliWriter;
  /** Where usage errors, logs, the progress line and `--stats` go. */
  readonly stderr: CliWriter;
  /** Whether stderr is a terminal: only then is the live progress line drawn. */
  readonly stderrIsTerminal: boolean;
  /** The terminal's width in columns, when known; the progress line is cut to fit. */
  readonly stderrColumns?: number;
  /** The web client for the crawl. @default {globalThis.fetch (Node: node:http)} */
  readonly fetch?: typeof fetch;
  /**
   * Interrupts the command (Ctrl-C): the crawl or the output stops, the
   * progress line is erased, and `main()` returns 130.
   */
  readonly signal?: AbortSignal;
  /**
   * The `TERM` variable, when it can be read without a permission prompt:
   * `dumb` means no progress line.
   */
  readonly term?: string;
  /** What `-` reads. @default {process.stdin} */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /**
   * Whether using one of these permissions may draw a permission prompt
   * (Deno without `--allow-net`/`--allow-read`): then no progress line is
   * drawn, so the prompt is not drawn over. Absent: never.
   */
  readonly mayPrompt?: (permissions: readonly ("net" | "read")[]) => Promise<boolean>;
}

/** The signals that interrupt a command: Ctrl-C, and what docker, Kubernetes and systemd send to stop a process. */
export type InterruptSignal = "SIGINT" | "SIGTERM";

const INTERRUPTS: readonly InterruptSignal[] = ["SIGINT", "SIGTERM"];

/**
 * Calls `listener` on the first SIGINT (Ctrl-C) or SIGTERM, then lets a
 * second one of either end the process as usual, at once.
 *
 * @param listener What to do on the first signal.
 * @returns A function that removes the listener.
 */
export function onFirstInterrupt(listener: (signal: InterruptSignal) => void): () => void {
  let removed = false;
  const handler = (signal: InterruptSignal): void => {
    remove();
    listener(signal);
  };
  const remove = (): void => {
    if (removed) return;
    removed = true;
    for (const signal of INTERRUPTS) process.off(signal, handler);
  };
  for (const signal of INTERRUPTS) process.on(signal, handler);
  return remove;
}

/**
 * The signal that interrupted a command, from its `io.signal`.
 *
 * @param signal The command's interrupt signal.
 * @returns SIGTERM when a SIGTERM aborted it, else SIGINT (Ctrl-C, or a test's abort).
 */
export function interruptName(signal: AbortSignal | undefined): InterruptSignal {
  return signal?.reason instanceof Interrupt ? signal.reason.signal : "SIGINT";
}

/** The reason `io.signal` carries when a process signal interrupted the command. */
export class Interrupt extends Error {
  /** Which signal. */
  readonly signal: InterruptSignal;

  /**
   * @param signal Which signal.
   */
  constructor(signal: InterruptSignal) {
    super(`Interrupted by ${signal}`);
    this.name = "AbortError";
    this.signal = signal;
  }
}

/**
 * Whether an error is a write to a pipe whose reader has gone (`| head`):
 * Deno throws `BrokenPipe`, Node and Bun report `EPIPE`.
 *
 * @param error What a write rejected with.
 * @returns True for a closed pipe.
 */
export function isBrokenPipe(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { name?: unknown; code?: unknown };
  return e.name === "BrokenPipe" || e.code === "EPIPE";
}

let processWriters: { readonly stdout: CliWriter; readonly stderr: CliWriter } | null = null;

/**
 * The process's real streams, through `node:process`, which Deno, Bun and
 * Node all provide: one code path on every runtime.
 *
 * @returns The streams.
 */
export function processIO(): CliIO {
  // Every call (main() may run more than once in a process) shares the first
  // writers, so there is one "error" listener per stream, not one per call.
  processWriters ??= { stdout: nodeWriter(process.stdout), stderr: nodeWriter(process.stderr) };
  const columns = process.stderr.columns;
  return {
    stdout: processWriters.stdout,
    stderr: processWriters.stderr,
    stderrIsTerminal: process.stderr.isTTY === true,
    ...termOf(readEnv("TERM")),
    ...(typeof columns === "number" && columns > 0 ? { stderrColumns: columns } : {}),
    mayPrompt: permissionMayPrompt,
  };
}

/** TERM as read without a permission prompt (Deno asks for env access otherwise). */
function termOf(term: string | undefined): { term?: string } {
  return term === undefined ? {} : { term };
}

/**
 * Runs a command line's `main` as the process: with the arguments after the
 * script name, the process's streams and the first Ctrl-C or SIGTERM as an
 * interrupt, then exits with the status it returns (143 for an interrupt by
 * SIGTERM). The entry points call this (`cli.ts`
 * when it is the main module, `bin/sitemap-tree.ts` always), so Deno, Bun and
 * Node start the command the same way.
 *
 * @param main The command line, e.g. `cli.ts`'s `main`.
 * @returns Never: the process exits.
 */
export async function runAsCommand(
  main: (args: string[], io: CliIO) => Promise<number>,
): Promise<never> {
  const interrupt = new AbortController();
  const stopListening = onFirstInterrupt((signal) => interrupt.abort(new Interrupt(signal)));
  const status = await main(process.argv.slice(2), { ...processIO(), signal: interrupt.signal });
  stopListening();
  // 130 is "interrupted"; after a SIGTERM it is 143, as a process the signal had killed.
  process.exit(status === 130 && interruptName(interrupt.signal) === "SIGTERM" ? 143 : status);
}

interface NodeStream {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  on(event: "error", listener: (error: Error) => void): unknown;
}

function nodeWriter(stream: NodeStream): CliWriter {
  // A closed pipe is also emitted as an "error" event, which would crash the
  // process if nobody listened; the write callback reports it to the caller.
  stream.on("error", () => {});
  return {
    write(chunk: Uint8Array): Promise<void> {
      // The callback runs once the chunk is handed to the OS, which is the
      // backpressure we need without tracking "drain" events.
      return new Promise((resolve, reject) => {
        stream.write(chunk, (error) => error ? reject(error) : resolve());
      });
    },
  };
}

/**
 * Orders fire-and-forget writes (progress redraws, log lines from event
 * listeners) behind one another, and lets the caller wait for all of them.
 * A failing stderr never fails the command: its errors are dropped.
 */
export class SerialWriter {
  readonly #target: CliWriter;
  readonly #encoder = new TextEncoder();
  #tail: Promise<void> = Promise.resolve();

  /**
   * @param target Where the text goes.
   */
  constructor(target: CliWriter) {
    this.#target = target;
  }

  /**
   * Queues `text` after everything queued before.
   *
   * @param text What to write.
   */
  write(text: string): void {
    if (text === "") return;
    const bytes = this.#encoder.encode(text);
    this.#tail = this.#tail.then(() => this.#target.write(bytes)).catch(() => {});
  }

  /** @returns A promise that settles once everything queued so far is written. */
  flush(): Promise<void> {
    return this.#tail;
  }
}

/**
 * Collects text into chunks of about `chunkBytes` before writing them, so a
 * million short lines cost a few hundred writes, and waits for each write
 * (backpressure) before collecting more.
 */
export class BatchWriter {
  readonly #target: CliWriter;
  readonly #chunkChars: number;
  readonly #encoder = new TextEncoder();
  #parts: string[] = [];
  #chars = 0;

  /**
   * @param target Where the bytes go.
   * @param chunkChars Characters collected before a write.
   */
  constructor(target: CliWriter, chunkChars = 64 * 1024) {
    this.#target = target;
    this.#chunkChars = chunkChars;
  }

  /**
   * Adds `text`; writes when enough has been collected.
   *
   * @param text What to write.
   * @returns A promise that settles once any write this caused is done.
   */
  write(text: string): Promise<void> | void {
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars >= this.#chunkChars) return this.flush();
  }

  /** @returns A promise that settles once everything added so far is written. */
  async flush(): Promise<void> {
    if (this.#chars === 0 && this.#parts.length === 0) return;
    const text = this.#parts.join("");
    this.#parts = [];
    this.#chars = 0;
    if (text !== "") await this.#target.write(this.#encoder.encode(text));
  }
}
