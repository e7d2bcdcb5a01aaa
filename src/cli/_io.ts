/**
 * The command line's standard streams, behind one small interface so `main()`
 * runs the same on Deno, on Bun and in tests with injected writers.
 *
 * @module
 */
import process from "node:process";

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
  /** The web client for the crawl. @default {globalThis.fetch} */
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

/**
 * Calls `listener` on the first SIGINT (Ctrl-C), then lets a second one kill
 * the process as usual.
 *
 * @param listener What to do on the first Ctrl-C.
 * @returns A function that removes the listener.
 */
export function onFirstInterrupt(listener: () => void): () => void {
  let removed = false;
  const handler = (): void => {
    remove();
    listener();
  };
  const remove = (): void => {
    if (removed) return;
    removed = true;
    process.off("SIGINT", handler);
  };
  process.on("SIGINT", handler);
  return remove;
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
 * The process's real streams: Deno's own on Deno, `node:process` elsewhere (Bun).
 *
 * @returns The streams.
 */
export function processIO(): CliIO {
  // Deno's stdout can have one writer only, so every call (main() may run more
  // than once in a process) shares the first writers.
  const io = freshProcessIO(processWriters);
  processWriters ??= { stdout: io.stdout, stderr: io.stderr };
  return io;
}

function freshProcessIO(
  writers: { readonly stdout: CliWriter; readonly stderr: CliWriter } | null,
): CliIO {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  if (deno !== undefined) {
    const columns = denoColumns(deno);
    return {
      stdout: writers?.stdout ?? denoWriter(deno.stdout.writable),
      stderr: writers?.stderr ?? denoWriter(deno.stderr.writable),
      stderrIsTerminal: deno.stderr.isTerminal(),
      ...(columns === undefined ? {} : { stderrColumns: columns }),
      ...denoTerm(deno),
      mayPrompt: async (names) => {
        for (const name of names) {
          if ((await deno.permissions.query({ name })).state === "prompt") return true;
        }
        return false;
      },
    };
  }
  const columns = process.stderr.columns;
  return {
    stdout: writers?.stdout ?? nodeWriter(process.stdout),
    stderr: writers?.stderr ?? nodeWriter(process.stderr),
    stderrIsTerminal: process.stderr.isTTY === true,
    ...(process.env.TERM === undefined ? {} : { term: process.env.TERM }),
    ...(typeof columns === "number" && columns > 0 ? { stderrColumns: columns } : {}),
  };
}

/** TERM if env access to it is already granted: reading it must not prompt. */
function denoTerm(deno: typeof Deno): { term?: string } {
  if (deno.permissions.querySync({ name: "env", variable: "TERM" }).state !== "granted") return {};
  const term = deno.env.get("TERM");
  return term === undefined ? {} : { term };
}

function denoColumns(deno: typeof Deno): number | undefined {
  try {
    return deno.consoleSize().columns;
  } catch {
    // No terminal on any standard stream.
    return undefined;
  }
}

function denoWriter(stream: WritableStream<Uint8Array>): CliWriter {
  // One writer for the whole run: the stream stays locked, writes stay ordered.
  const writer = stream.getWriter();
  return {
    async write(chunk: Uint8Array): Promise<void> {
      await writer.ready;
      await writer.write(chunk);
    },
  };
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
