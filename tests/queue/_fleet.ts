/**
 * The queue commands as real processes, for the fleet tests: start one,
 * read its stderr as it comes, wait for a condition.
 *
 * @module
 */

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

/**
 * Starts `cli.ts` with `args` in a process of this runtime.
 *
 * @param args The command line.
 * @param prefix A command to run it under (e.g. `setpriv …`), if any.
 * @returns The process, its stdout and stderr piped.
 */
export function cli(args: string[], prefix: readonly string[] = []): Deno.ChildProcess {
  const command = [...prefix, Deno.execPath(), "run", "-A", "--no-check", CLI, ...args];
  return new Deno.Command(command[0]!, {
    args: command.slice(1),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * A `worker` command line: Redis, the output directory, parsing on the main
 * thread (no parse workers to start), then `flags`.
 *
 * @param redis The redis:// URL.
 * @param out The output directory.
 * @param flags More flags.
 * @returns The arguments.
 */
export function workerArgs(redis: string, out: string, ...flags: string[]): string[] {
  return ["worker", "--redis", redis, "--out", out, "--workers", "0", ...flags];
}

/** A finished process: its exit code, the signal that ended it, and its output. */
export interface Finished {
  readonly code: number;
  readonly signal: Deno.Signal | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Waits for a process and decodes its output.
 *
 * @param child The process.
 * @returns Its status and output.
 */
export async function output(child: Deno.ChildProcess): Promise<Finished> {
  const { code, signal, stdout, stderr } = await child.output();
  const d = new TextDecoder();
  return { code, signal, stdout: d.decode(stdout), stderr: d.decode(stderr) };
}

/** A process whose stderr is read as it comes. */
export interface Watched {
  /** The process, to send it signals. */
  readonly child: Deno.ChildProcess;
  /** The stderr so far. */
  readonly stderr: () => string;
  /** Settles once stderr holds `text`. */
  readonly until: (text: string) => Promise<void>;
  /** Waits for the process; stdout is dropped. */
  readonly finished: () => Promise<Omit<Finished, "stdout">>;
}

/**
 * Reads a process's stderr as it comes, so a test can act when a line appears.
 *
 * @param child A process started by {@linkcode cli}.
 * @returns Its stderr so far, a wait for a text, and its end.
 */
export function watch(child: Deno.ChildProcess): Watched {
  let text = "";
  const decoder = new TextDecoder();
  const read = (async () => {
    for await (const chunk of child.stderr) text += decoder.decode(chunk, { stream: true });
  })();
  const drained = child.stdout.cancel();
  return {
    child,
    stderr: () => text,
    until: (wanted) =>
      waitFor(
        () => `stderr to hold ${JSON.stringify(wanted)}: ${text}`,
        () => text.includes(wanted),
      ),
    finished: async () => {
      const status = await child.status;
      await read;
      await drained;
      return { code: status.code, signal: status.signal, stderr: text };
    },
  };
}

/**
 * Waits until `condition` holds.
 *
 * @param what What is awaited, for the error (a function: read when it is thrown).
 * @param condition The condition, polled every 50 ms.
 * @param ms How long to wait.
 * @throws {Error} When it still does not hold after `ms`.
 */
export async function waitFor(
  what: string | (() => string),
  condition: () => Promise<boolean> | boolean,
  ms = 20_000,
): Promise<void> {
  const end = performance.now() + ms;
  while (!await condition()) {
    if (performance.now() > end) {
      throw new Error(`Still waiting after ${ms} ms: ${typeof what === "string" ? what : what()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The lines of a text, without the last line break. */
export function linesOf(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}
