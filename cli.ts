/**
 * `sitemap-tree ls URL`: the command line of `@sitemap/tree`, after USP's
 * `usp ls`. It finds every sitemap the website publishes and prints the tree
 * (`tabtree`, the default), its page URLs (`pages`), the whole tree as JSON
 * (`json`), one JSON object per page (`ndjson`) or a CSV table (`csv`).
 *
 * ```sh
 * deno run --allow-net --allow-read --allow-write jsr:@sitemap/tree/cli ls https://example.com/ -f pages
 * ```
 *
 * Streams: the output goes to stdout in batches, waiting for the reader, and a
 * reader that goes away (`| head`) ends the command quietly with status 0.
 * Everything else goes to stderr: usage errors, the `-v` log (or to
 * `--log-file`), the `--stats` report, and, only when stderr is a terminal, a
 * live progress line (`sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB ·
 * 2.3 s`) that is erased before the output is written.
 *
 * Formats: `json` is `JSON.stringify(tree.toJSON())` on one line (compact;
 * `sitemapTreeFromJSON()` reads it back); `ndjson` writes per page `url`,
 * `sitemap` (the sitemap that listed it), `lastModified`, `priority`,
 * `changeFrequency`, plus `newsStory`, `images`, `videos` and `alternates` when
 * the page has them; `csv` writes `url,lastmod,changefreq,priority,sitemap`
 * rows quoted as RFC 4180 says, ending in CRLF. `-u` (`--strip-url`) prints
 * URLs on the site's own origin as paths in `tabtree` and `pages`; URLs on
 * other hosts stay absolute (USP would print them as `/https://…`).
 *
 * `--timeout` is in milliseconds (the library's `timeoutMs`). Exit status: 0
 * when the crawl finished, even if some sitemaps were invalid; 1 for a runtime
 * failure; 2 for a usage error (one line saying what is wrong, then the usage);
 * 130 when interrupted (the first Ctrl-C stops the crawl and erases the
 * progress line; a second one kills the process as usual).
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
import { FileSitemapCache } from "./src/cache.ts";
import { formatTabTree } from "./src/format.ts";
import type { IndexWebsiteSitemap } from "./src/objects/sitemap.ts";
import type { SitemapProgressEvent, SitemapTreeOptions } from "./src/options.ts";
import { sitemapTreeForHomepage } from "./src/sitemap_tree.ts";
import { VERSION } from "./src/version.ts";
import {
  type LsCommand,
  parseArgs,
  type ParsedArgs,
  PROGRAM,
  USAGE,
  UsageError,
} from "./src/cli/_args.ts";
import {
  BatchWriter,
  type CliIO,
  isBrokenPipe,
  onFirstInterrupt,
  processIO,
  SerialWriter,
} from "./src/cli/_io.ts";
import { logLine, type LogSink, openLogFile } from "./src/cli/_log.ts";
import {
  csvFormat,
  formatStats,
  jsonFormat,
  ndjsonFormat,
  pagesFormat,
} from "./src/cli/_output.ts";
import { ProgressLine } from "./src/cli/_progress.ts";
import { lintCommand } from "./src/cli/_lint.ts";
import { batchCommand } from "./src/cli/_batch.ts";

export type { CliIO, CliWriter } from "./src/cli/_io.ts";

const INTERRUPTED = `${PROGRAM}: Interrupted\n`;

/**
 * Runs the command line.
 *
 * @param args The arguments after the script name, e.g. `["ls", "https://example.com/"]`.
 * @param io The standard streams; the process's own when omitted.
 * @returns The exit status: 0 done, 1 runtime failure, 2 usage error, 130 interrupted.
 *
 * @example List a site's pages
 * ```ts ignore
 * import { main } from "@sitemap/tree/cli";
 *
 * const status = await main(["ls", "https://example.com/", "-f", "pages"]);
 * ```
 */
export async function main(args: string[], io: CliIO = processIO()): Promise<number> {
  if (args[0] === "lint") return await lintCommand(args.slice(1), io);
  if (args[0] === "batch") return await batchCommand(args.slice(1), io);
  if (args[0] === "enqueue" || args[0] === "worker") {
    // Loaded only here: the other commands never load bullmq.
    const { queueCommand } = await import("./src/cli/_queue.ts");
    return await queueCommand(args[0], args.slice(1), io);
  }
  const stderr = new SerialWriter(io.stderr);
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`${PROGRAM}: ${error.message}\n\n${USAGE}`);
    await stderr.flush();
    return 2;
  }
  switch (parsed.command) {
    case "help":
      await writeAll(io, USAGE);
      return 0;
    case "version":
      await writeAll(io, `${VERSION}\n`);
      return 0;
    case "ls":
      return await ls(parsed, io, stderr);
  }
}

/** Writes a short text to stdout; a closed pipe is not an error. */
async function writeAll(io: CliIO, text: string): Promise<void> {
  try {
    await io.stdout.write(new TextEncoder().encode(text));
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  }
}

async function ls(cmd: LsCommand, io: CliIO, stderr: SerialWriter): Promise<number> {
  let log: LogSink | null = null;
  if (cmd.logFile !== null) {
    try {
      log = openLogFile(cmd.logFile);
    } catch (error) {
      stderr.write(
        `${PROGRAM}: Cannot open log file ${JSON.stringify(cmd.logFile)}: ${message(error)}\n`,
      );
      await stderr.flush();
      return 1;
    }
  }
  const progress = io.stderrIsTerminal
    ? new ProgressLine(stderr, io.stderrColumns === undefined ? {} : { columns: io.stderrColumns })
    : null;
  const logTo = (line: string): void => {
    if (log !== null) log.line(line);
    else if (progress !== null) progress.log(line);
    else stderr.write(line + "\n");
  };
  const onProgress = (event: SitemapProgressEvent): void => {
    progress?.update(event);
    const line = logLine(event, cmd.verbosity);
    if (line !== null) logTo(line);
  };

  try {
    progress?.start();
    const crawl = await sitemapTreeForHomepage(cmd.url, treeOptions(cmd, io, onProgress)).then(
      (tree) => ({ tree, error: null }),
      (error: unknown) => ({ tree: null, error }),
    );
    progress?.stop();
    // stdout may be the same terminal: the erased line must be gone before anything follows.
    await stderr.flush();
    const tree = crawl.tree;
    if (tree === null) {
      if (io.signal?.aborted) {
        stderr.write(INTERRUPTED);
        return 130;
      }
      stderr.write(`${PROGRAM}: ${message(crawl.error)}\n`);
      return 1;
    }

    let status = 0;
    try {
      if (!await writeOutput(io, cmd, tree)) {
        stderr.write(INTERRUPTED);
        status = 130;
      }
    } catch (error) {
      if (!isBrokenPipe(error)) {
        stderr.write(`${PROGRAM}: Cannot write the output: ${message(error)}\n`);
        status = 1;
      }
    }
    if (cmd.stats) stderr.write(formatStats(tree.stats).map((line) => line + "\n").join(""));
    return status;
  } finally {
    await stderr.flush();
    log?.close();
  }
}

function treeOptions(
  cmd: LsCommand,
  io: CliIO,
  onProgress: (event: SitemapProgressEvent) => void,
): SitemapTreeOptions {
  return {
    useRobots: cmd.useRobots,
    useKnownPaths: cmd.useKnownPaths,
    extraKnownPaths: cmd.extraPaths,
    useFeeds: cmd.useFeeds,
    skipUnchangedSitemaps: cmd.skipUnchanged,
    ...(cmd.cacheDir === null ? {} : { cache: new FileSitemapCache(cmd.cacheDir) }),
    headers: cmd.headers,
    onProgress,
    ...(cmd.since === null ? {} : { since: cmd.since }),
    ...(cmd.concurrency === null ? {} : { concurrency: cmd.concurrency }),
    ...(cmd.timeoutMs === null ? {} : { timeoutMs: cmd.timeoutMs }),
    ...(cmd.maxDepth === null ? {} : { maxDepth: cmd.maxDepth }),
    ...(cmd.workers === null ? {} : { workers: cmd.workers }),
    ...(cmd.userAgent === null ? {} : { userAgent: cmd.userAgent }),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
}

function outputPieces(cmd: LsCommand, tree: IndexWebsiteSitemap): Iterable<string> {
  switch (cmd.format) {
    case "tabtree":
      return withNewlines(formatTabTree(tree, { stripUrl: cmd.stripUrl }));
    case "pages":
      return pagesFormat(tree, cmd.stripUrl);
    case "json":
      return jsonFormat(tree);
    case "ndjson":
      return ndjsonFormat(tree);
    case "csv":
      return csvFormat(tree);
  }
}

function* withNewlines(lines: Iterable<string>): Generator<string, void, undefined> {
  for (const line of lines) yield line + "\n";
}

/** Writes the output; false when interrupted part way. */
async function writeOutput(io: CliIO, cmd: LsCommand, tree: IndexWebsiteSitemap): Promise<boolean> {
  const out = new BatchWriter(io.stdout);
  for (const piece of outputPieces(cmd, tree)) {
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

if (import.meta.main) {
  const interrupt = new AbortController();
  const stopListening = onFirstInterrupt(() => interrupt.abort());
  const status = await main(process.argv.slice(2), { ...processIO(), signal: interrupt.signal });
  stopListening();
  process.exit(status);
}
