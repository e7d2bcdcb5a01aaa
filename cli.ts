/**
 * `sitemap-tree`: the command line of `@sitemap/tree`. `ls URL|FILE|-`
 * (after USP's `usp ls`) prints a site's sitemap tree (`tabtree`, the
 * default), its page URLs (`pages`), the tree as JSON (`json`), one JSON
 * object per page (`ndjson`), a CSV table (`csv`), one row per sitemap
 * (`summary`) or a chart of pages by lastmod month (`histogram`); `lint URL`
 * reports protocol problems per sitemap. `sitemap-tree --help` lists the
 * commands, `sitemap-tree COMMAND --help` their flags (one parser and one
 * set of flag names for every command: `src/cli/_args.ts`).
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
 * ```ts ignore
 * import { main } from "@sitemap/tree/cli";
 *
 * const status = await main(["ls", "https://example.com/", "--format", "pages"]);
 * ```
 *
 * @module
 */
import process from "node:process";
import { readFile } from "node:fs/promises";
import { FileSitemapCache } from "./src/cache.ts";
import { decompressIfGzip } from "./src/decompress.ts";
import { formatTabTree } from "./src/format.ts";
import { type AbstractSitemap, InvalidSitemap } from "./src/objects/sitemap.ts";
import type { SitemapProgressEvent, SitemapTreeOptions } from "./src/options.ts";
import { sitemapFromString } from "./src/sitemap_from_string.ts";
import { crawlOneSitemap, sitemapTreeForHomepage } from "./src/sitemap_tree.ts";
import { EMPTY_STATS, type SitemapTreeStats } from "./src/stats.ts";
import { pageStream } from "./src/stream_pages.ts";
import { VERSION } from "./src/version.ts";
import {
  commandUsage,
  crawlOptions,
  type Input,
  type LsOutput,
  lsOutput,
  type OutputFormat,
  parseArgs,
  type ParsedArgs,
  PROGRAM,
  programUsage,
  readInput,
  UsageError,
} from "./src/cli/_args.ts";
import {
  BatchWriter,
  type CliIO,
  isBrokenPipe,
  processIO,
  runAsCommand,
  SerialWriter,
} from "./src/cli/_io.ts";
import { logLine, type LogSink, openLogFile } from "./src/cli/_log.ts";
import {
  csvField,
  csvFormat,
  csvHeader,
  csvRow,
  formatStats,
  histogramFormat,
  jsonFormat,
  ndjsonFormat,
  ndjsonLine,
  pagesFormat,
  sitemapColumns,
  summaryFormat,
} from "./src/cli/_output.ts";
import { crawlOutcome, type TreeOutcome } from "./src/cli/_outcome.ts";
import { drawsProgress, ProgressLine } from "./src/cli/_progress.ts";
import { lintCommand } from "./src/cli/_lint.ts";
import { stripOrigin } from "./src/format.ts";
import { batchCommand } from "./src/cli/_batch.ts";

export type { CliIO, CliWriter } from "./src/cli/_io.ts";

const INTERRUPTED = `${PROGRAM}: Interrupted\n`;

/** A command's handler: the parsed line in, the exit status out; a new command adds one to HANDLERS and its spec to COMMANDS (src/cli/_args.ts). */
type CommandHandler = (
  parsed: Extract<ParsedArgs, { kind: "run" }>,
  io: CliIO,
  stderr: SerialWriter,
) => Promise<number>;

const HANDLERS: Map<string, CommandHandler> = new Map([
  ["ls", ls],
  ["lint", (parsed, io) => lintCommand(parsed, io)],
  ["batch", (parsed, io, stderr) => batchCommand(parsed.operands, parsed.flags, io, stderr)],
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
    let loaded: typeof import("./src/cli/_queue.ts");
    try {
      loaded = await import("./src/cli/_queue.ts");
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
 * ```ts ignore
 * import { main } from "@sitemap/tree/cli";
 *
 * const status = await main(["ls", "https://example.com/", "-f", "pages"]);
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

const FLAT = new Set<OutputFormat>(["pages", "ndjson", "csv"]);

async function ls(
  parsed: Extract<ParsedArgs, { kind: "run" }>,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const flags = parsed.flags;
  const output = lsOutput(flags);
  const options = crawlOptions(flags);
  const input = readInput(parsed.operands[0]!, flags);
  const logFile = flags.nonEmpty("log-file", "a file name");
  const verbosity = Math.min(2, flags.count("verbose"));
  const report = (stats: SitemapTreeStats | null): void => {
    if (!flags.has("stats") || stats === null) return;
    stderr.write(
      flags.has("json")
        ? JSON.stringify(stats) + "\n"
        : formatStats(stats).map((line) => line + "\n").join(""),
    );
  };
  if (input.kind === "file" || input.kind === "stdin") {
    return await lsLocal(input, output, options, io, stderr);
  }
  if (input.kind === "sitemap") {
    stderr.write(
      `${PROGRAM}: reading the sitemap at ${input.url} alone (--homepage to crawl its site)\n`,
    );
  }

  let log: LogSink | null = null;
  if (logFile !== null) {
    try {
      log = openLogFile(logFile);
    } catch (error) {
      stderr.write(
        `${PROGRAM}: Cannot open log file ${JSON.stringify(logFile)}: ${message(error)}\n`,
      );
      return 1;
    }
  }
  const progress = await drawsProgress(io, !flags.has("no-progress"))
    ? new ProgressLine(stderr, io.stderrColumns === undefined ? {} : { columns: io.stderrColumns })
    : null;
  const logTo = (line: string): void => {
    if (log !== null) log.line(line);
    else if (progress !== null) progress.log(line);
    else stderr.write(line + "\n");
  };
  const onProgress = (event: SitemapProgressEvent): void => {
    progress?.update(event);
    const line = logLine(event, verbosity);
    if (line !== null) logTo(line);
  };
  const crawl: SitemapTreeOptions = {
    ...options,
    ...(flags.has("cache")
      ? { cache: new FileSitemapCache(flags.nonEmpty("cache", "a directory")!) }
      : {}),
    onProgress,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };

  try {
    progress?.start();
    // The sitemap columns come from the fetch records, complete once the crawl is.
    if (FLAT.has(output.format) && !output.sitemapColumns) {
      return await lsStream(input, output, crawl, io, stderr, progress, report);
    }
    const done = await crawlTree(input, crawl).then(
      (result) => ({ result, error: null }),
      (error: unknown) => ({ result: null, error }),
    );
    progress?.stop();
    // stdout may be the same terminal: the erased line must be gone before anything follows.
    await stderr.flush();
    if (done.result === null) {
      if (io.signal?.aborted) {
        stderr.write(INTERRUPTED);
        return 130;
      }
      stderr.write(`${PROGRAM}: ${message(done.error)}\n`);
      return 1;
    }
    const { root, stats, outcome } = done.result;
    if (outcome.status !== 0) {
      report(stats);
      stderr.write(`${PROGRAM}: ${outcome.reason}\n`);
      return outcome.status;
    }
    let status = 0;
    try {
      if (!await writePieces(io, treePieces(output, root, stats))) {
        stderr.write(INTERRUPTED);
        status = 130;
      }
    } catch (error) {
      if (!isBrokenPipe(error)) {
        stderr.write(`${PROGRAM}: Cannot write the output: ${message(error)}\n`);
        status = 1;
      }
    }
    report(stats);
    return status;
  } finally {
    progress?.stop();
    await stderr.flush();
    log?.close();
  }
}

async function crawlTree(
  input: Extract<Input, { kind: "homepage" | "sitemap" }>,
  options: SitemapTreeOptions,
): Promise<{ root: AbstractSitemap; stats: SitemapTreeStats; outcome: TreeOutcome }> {
  if (input.kind === "homepage") {
    const root = await sitemapTreeForHomepage(input.url, options);
    return { root, stats: root.stats, outcome: crawlOutcome(root.stats) };
  }
  const { root, stats } = await crawlOneSitemap(input.url, options);
  return { root, stats, outcome: crawlOutcome(stats) };
}

function treePieces(
  output: LsOutput,
  root: AbstractSitemap,
  stats: SitemapTreeStats,
): Iterable<string> {
  const columns = output.sitemapColumns ? sitemapColumns(stats) : null;
  switch (output.format) {
    case "tabtree":
      return withNewlines(formatTabTree(root, { stripUrl: output.stripUrl, pages: output.pages }));
    case "pages":
      return pagesFormat(root, output.stripUrl, output.unique);
    case "json":
      return jsonFormat(root);
    case "ndjson":
      return ndjsonFormat(root, output.unique, columns);
    case "csv":
      return csvFormat(root, output.unique, columns);
    case "summary":
      return summaryFormat(root, stats);
    case "histogram":
      return histogramFormat(root);
  }
}

/**
 * The flat formats, written as each sitemap completes (through the stream
 * behind `streamPages()`), so the first lines come long before the crawl
 * ends. The progress line is erased when the output begins: from then on
 * the output shows the progress.
 */
async function lsStream(
  input: Extract<Input, { kind: "homepage" | "sitemap" }>,
  output: LsOutput,
  options: SitemapTreeOptions,
  io: CliIO,
  stderr: SerialWriter,
  progress: ProgressLine | null,
  report: (stats: SitemapTreeStats | null) => void,
): Promise<number> {
  const stream = pageStream(input.url, options, input.kind);
  const out = new BatchWriter(io.stdout);
  const seen = output.unique ? new Set<string>() : null;
  let origin = "";
  try {
    origin = output.stripUrl ? new URL(input.url).origin : "";
  } catch {
    // Checked already.
  }
  let started = false;
  const begin = async (): Promise<void> => {
    started = true;
    progress?.stop();
    await stderr.flush();
  };
  let sitemap: string | null = null;
  let sitemapField = "";
  try {
    if (output.format === "csv") {
      await begin();
      out.write(csvHeader());
    }
    for (;;) {
      const next = await stream.next();
      if (next.done === true) break;
      const page = next.value;
      if (seen !== null) {
        if (seen.has(page.url)) continue;
        seen.add(page.url);
      }
      if (!started) await begin();
      if (stream.sitemapUrl !== sitemap) {
        sitemap = stream.sitemapUrl;
        sitemapField = output.format === "csv" ? csvField(sitemap) : JSON.stringify(sitemap);
      }
      const line = output.format === "pages"
        ? stripOrigin(page.url, origin) + "\n"
        : output.format === "ndjson"
        ? ndjsonLine(page, sitemap, sitemapField)
        : csvRow(page, sitemapField);
      const written = out.write(line);
      if (written !== undefined) await written.catch(writeFailed);
      // A sitemap's last page: write it now, not when the next sitemap is parsed.
      if (stream.sitemapPagesLeft === 0) await out.flush().catch(writeFailed);
      if (io.signal?.aborted) break;
    }
    await out.flush().catch(writeFailed);
  } catch (error) {
    await stream.return();
    progress?.stop();
    await stderr.flush();
    if (io.signal?.aborted) {
      stderr.write(INTERRUPTED);
      return 130;
    }
    if (error instanceof WriteFailure) {
      if (isBrokenPipe(error.cause)) return 0;
      stderr.write(`${PROGRAM}: Cannot write the output: ${message(error.cause)}\n`);
      return 1;
    }
    stderr.write(`${PROGRAM}: ${message(error)}\n`);
    return 1;
  }
  progress?.stop();
  await stderr.flush();
  if (io.signal?.aborted) {
    stderr.write(INTERRUPTED);
    return 130;
  }
  const stats = stream.stats;
  report(stats);
  if (stats === null) return 0;
  const outcome = crawlOutcome(stats);
  if (outcome.status !== 0) stderr.write(`${PROGRAM}: ${outcome.reason}\n`);
  return outcome.status;
}

/** A write to stdout failed (rather than the crawl). */
class WriteFailure extends Error {}

function writeFailed(error: unknown): never {
  throw new WriteFailure("stdout", { cause: error });
}

/** `ls FILE` and `ls -`: one document parsed here, without network. */
async function lsLocal(
  input: Extract<Input, { kind: "file" | "stdin" }>,
  output: LsOutput,
  options: SitemapTreeOptions,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  let bytes: Uint8Array;
  const name = input.kind === "file" ? input.path : "stdin";
  try {
    bytes = input.kind === "file"
      ? await readFile(input.path)
      : await readAll(io.stdin ?? process.stdin);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" && input.kind === "file") {
      throw new UsageError(
        `No such file ${JSON.stringify(input.path)} (a URL starts with http:// or https://)`,
        "ls",
      );
    }
    stderr.write(`${PROGRAM}: Cannot read ${name}: ${message(error)}\n`);
    return 1;
  }
  const inflated = await decompressIfGzip(bytes, 50 * 1024 * 1024);
  if (!inflated.ok) {
    stderr.write(`${PROGRAM}: ${name}: ${inflated.reason}\n`);
    return 3;
  }
  const url = input.kind === "file" ? new URL(input.path, `file://${process.cwd()}/`).href : "";
  const root = sitemapFromString(inflated.bytes, {
    url,
    ...(options.since === undefined ? {} : { since: options.since }),
  });
  if (root instanceof InvalidSitemap) {
    stderr.write(`${PROGRAM}: no sitemap in ${name}: ${root.reason}\n`);
    return 3;
  }
  try {
    if (!await writePieces(io, treePieces(output, root, EMPTY_STATS))) return 130;
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  }
  return 0;
}

async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: (Uint8Array | string)[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

function* withNewlines(lines: Iterable<string>): Generator<string, void, undefined> {
  for (const line of lines) yield line + "\n";
}

/** Writes the output; false when interrupted part way. */
async function writePieces(io: CliIO, pieces: Iterable<string>): Promise<boolean> {
  const out = new BatchWriter(io.stdout);
  for (const piece of pieces) {
    // Await only when a batch was written: one await per page would cost more than the page.
    const written = out.write(piece);
    if (written !== undefined) {
      await written;
      if (io.signal?.aborted) return false;
    }
  }
  await out.flush();
  return true;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Deno and Bun run this module as the program; Node (and anything bundled)
// starts from bin/sitemap-tree.ts, which calls runAsCommand() unconditionally.
if (import.meta.main) await runAsCommand(main);
