/**
 * `sitemap-tree`: the command line of `@sitemap/tree`. `ls URL|FILE|-`
 * (after USP's `usp ls`) prints a site's sitemap tree (`tabtree`, the
 * default), its page URLs (`pages`), the tree as JSON (`json`), one JSON
 * object per page (`ndjson`), a CSV table (`csv`), one row per sitemap
 * (`summary`) or a chart of pages by lastmod month (`histogram`), and with
 * `--save FILE` keeps it as a snapshot; `lint URL` reports protocol problems
 * per sitemap; `diff BEFORE AFTER` prints what changed between two
 * snapshots, JSON trees or crawls, and `watch URL --state DIR` what changed
 * since its last run; `report URL -o FILE.html` writes them all as one
 * self-contained HTML page. `sitemap-tree --help` lists the
 * commands, `sitemap-tree COMMAND --help` their flags (one parser and one
 * set of flag names for every command: `src/cli/_spec.ts`).
 *
 * ```sh
 * deno run -A jsr:@sitemap/tree/cli ls https://example.com/ -f pages
 * ```
 *
 * Inputs: a homepage is crawled with discovery; a URL that evidently names a
 * sitemap (robots.txt, `.xml`, `.xml.gz`, `.gz`, `.txt`, `.rss`, `.atom`)
 * is read alone, and stderr says so (`--homepage` forces discovery); a local
 * file or `-` (stdin) is parsed without network.
 *
 * Streams: the output goes to stdout in batches, waiting for the reader; the
 * flat formats (`pages`, `ndjson`, `csv`) are written as each sitemap
 * completes. A reader that goes away (`| head`) ends the command quietly
 * with status 0. Everything else goes to stderr: usage errors, the `-v` log
 * (or `--log-file`), the `--stats` report (`--json`: one JSON line), and,
 * only when stderr is a terminal (not `TERM=dumb`, not `--no-progress`, and
 * no Deno permission prompt to come), a live progress line that is erased
 * before the output is written.
 *
 * Exit status: 0 at least one sitemap was read (invalid children are part of
 * the answer); 1 the site could not be reached or another runtime failure,
 * with one stderr line naming the cause; 2 a usage error (one line naming the
 * flag, then "see sitemap-tree COMMAND --help"); 3 the site answered but
 * publishes no sitemap (`lint`: 1 when it finds errors); 130 when
 * interrupted (the first Ctrl-C or SIGTERM stops the crawl and erases the
 * progress line; a second one kills the process as usual), 143 when the
 * interrupt was a SIGTERM.
 *
 * @example Run the command in-process
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { main } from "@sitemap/tree/cli";
 *
 * // The output collected in memory; a usage error needs no network.
 * let stderr = "";
 * const io = {
 *   stdout: { write: () => Promise.resolve() },
 *   stderr: {
 *     write: (chunk: Uint8Array) => {
 *       stderr += new TextDecoder().decode(chunk);
 *       return Promise.resolve();
 *     },
 *   },
 *   stderrIsTerminal: false,
 * };
 * strictEqual(await main(["ls", "https://example.com/", "--format", "xml"], io), 2);
 * strictEqual(
 *   stderr,
 *   "sitemap-tree: Option --format must be one of tabtree, pages, json, ndjson, csv, summary, " +
 *     'histogram, sections, got "xml"; see sitemap-tree ls --help\n',
 * );
 * ```
 *
 * @module
 */
import { VERSION } from "./src/version.ts";
import { parseArgs, type RunArgs, UsageError } from "./src/cli/_args.ts";
import { type CliIO, isBrokenPipe, processIO, runAsCommand, SerialWriter } from "./src/cli/_io.ts";
import { commandUsage, PROGRAM, programUsage } from "./src/cli/_spec.ts";
import { batchCommand } from "./src/cli/batch.ts";
import { diffCommand } from "./src/cli/diff.ts";
import { lintCommand } from "./src/cli/lint.ts";
import { lsCommand } from "./src/cli/ls.ts";
import { reportCommand } from "./src/cli/report.ts";
import { watchCommand } from "./src/cli/watch.ts";

export type { CliIO, CliWriter } from "./src/cli/_io.ts";

/** A command's handler: the parsed line in, the exit status out; a new command adds one to HANDLERS and its spec to COMMANDS (src/cli/_spec.ts). */
type CommandHandler = (
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
) => Promise<number>;

const HANDLERS: Map<string, CommandHandler> = new Map([
  ["ls", lsCommand],
  ["lint", lintCommand],
  ["diff", diffCommand],
  ["watch", watchCommand],
  ["report", reportCommand],
  ["batch", batchCommand],
  ["enqueue", queue("enqueue")],
  ["worker", queue("worker")],
]);

/**
 * The queue commands, loaded only when run: the other commands never load
 * bullmq, which the npm package has as an optional peer dependency. Without
 * it installed they say so in one line instead of a loader's stack trace.
 */
function queue(command: "enqueue" | "worker"): CommandHandler {
  return async (parsed, io, stderr) => {
    let loaded: typeof import("./src/cli/queue.ts");
    try {
      loaded = await import("./src/cli/queue.ts");
    } catch (error) {
      if (!isMissingBullmq(error)) throw error;
      stderr.write(`${PROGRAM}: ${command} needs the bullmq package: npm install bullmq\n`);
      return 1;
    }
    return await loaded.queueCommand(command, parsed.operands, parsed.flags, io, stderr);
  };
}

/** Whether a failed import is the module loader not finding the bullmq package. */
function isMissingBullmq(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes("'bullmq'");
}

/**
 * Runs the command line.
 *
 * @param args The arguments after the script name, e.g. `["ls", "https://example.com/"]`.
 * @param io The standard streams; the process's own when omitted.
 * @returns The exit status: 0 done, 1 unreachable or runtime failure, 2 usage error, 3 no sitemap, 130 interrupted.
 *
 * @example List a site's pages
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { type CliIO, main } from "@sitemap/tree/cli";
 *
 * // A site served from memory (leave `fetch` out to use the network), and the output collected.
 * const site = new Map([
 *   ["https://example.com/robots.txt", "Sitemap: https://example.com/urls.txt\n"],
 *   ["https://example.com/urls.txt", "https://example.com/a\nhttps://example.com/b\n"],
 * ]);
 * const fetch = (input: RequestInfo | URL): Promise<Response> => {
 *   const body = site.get(input instanceof Request ? input.url : String(input));
 *   return Promise.resolve(new Response(body ?? null, { status: body === undefined ? 404 : 200 }));
 * };
 * let stdout = "";
 * const io: CliIO = {
 *   stdout: {
 *     write: (chunk) => {
 *       stdout += new TextDecoder().decode(chunk);
 *       return Promise.resolve();
 *     },
 *   },
 *   stderr: { write: () => Promise.resolve() },
 *   stderrIsTerminal: false,
 *   fetch,
 * };
 *
 * strictEqual(await main(["ls", "https://example.com/", "-f", "pages"], io), 0);
 * strictEqual(stdout, "https://example.com/a\nhttps://example.com/b\n");
 * ```
 */
export async function main(args: string[], io: CliIO = processIO()): Promise<number> {
  const stderr = new SerialWriter(io.stderr);
  if (args.length === 0) {
    stderr.write(`${PROGRAM}: Missing command\n\n${programUsage()}`);
    await stderr.flush();
    return 2;
  }
  try {
    const parsed = parseArgs(args);
    switch (parsed.kind) {
      case "help":
        await writeAll(io, parsed.command === null ? programUsage() : commandUsage(parsed.command));
        return 0;
      case "version":
        await writeAll(io, `${VERSION}\n`);
        return 0;
      case "run":
        return await HANDLERS.get(parsed.command.name)!(parsed, io, stderr);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(usageLine(error));
    return 2;
  } finally {
    await stderr.flush();
  }
}

/** A usage error's one line, pointing at the help that explains it. */
function usageLine(error: UsageError): string {
  const help = error.command === null ? `${PROGRAM} --help` : `${PROGRAM} ${error.command} --help`;
  return `${PROGRAM}: ${error.message}; see ${help}\n`;
}

/** Writes a short text to stdout; a closed pipe is not an error. */
async function writeAll(io: CliIO, text: string): Promise<void> {
  try {
    await io.stdout.write(new TextEncoder().encode(text));
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  }
}

// Deno and Bun run this module as the program; Node (and anything bundled)
// starts from bin/sitemap-tree.ts, which calls runAsCommand() unconditionally.
if (import.meta.main) await runAsCommand(main);
