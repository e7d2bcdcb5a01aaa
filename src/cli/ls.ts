/**
 * `sitemap-tree ls URL|FILE|-`: a site's sitemap tree, its pages, a summary,
 * a lastmod chart or its sections (the formats are in `src/format/`). A homepage is
 * crawled with discovery, a URL that evidently names a sitemap is read
 * alone, a file or stdin is parsed without network; the flat formats are
 * written as each sitemap completes. Its flags are the `LS` spec in
 * `_spec.ts`.
 *
 * @module
 */
import process from "node:process";
import { readFile } from "node:fs/promises";
import {
  type AbstractSitemap,
  decompressSitemap,
  InvalidSitemap,
  type PageStream,
  saveSnapshot,
  type SitemapFetchStat,
  sitemapFromString,
  type SitemapPage,
  type SitemapProgressEvent,
  sitemapTreeForHomepage,
  sitemapTreeForSitemapWithStats,
  type SitemapTreeOptions,
  type SitemapTreeStats,
  streamPages,
  streamSitemapPages,
} from "../../mod.ts";
import { formatTabTree, stripOrigin } from "../format/tab_tree.ts";
import {
  csvField,
  csvFormat,
  csvHeader,
  csvRow,
  jsonFormat,
  ndjsonFormat,
  ndjsonLine,
  pagesFormat,
  sitemapColumns,
} from "../format/page_records.ts";
import { histogramFormat } from "../format/histogram.ts";
import { sectionsFormat } from "../format/sections.ts";
import { summaryFormat } from "../format/summary.ts";
import { type ParsedFlags, type RunArgs, UsageError } from "./_args.ts";
import { readAll } from "./_files.ts";
import { BatchWriter, type CliIO, isBrokenPipe, type SerialWriter } from "./_io.ts";
import { logLine, type LogSink, openLogFile } from "./_log.ts";
import {
  crawlOptions,
  eagerUnlessChosen,
  type Input,
  type LsOutput,
  lsOutput,
  readInput,
} from "./_options.ts";
import { crawlOutcome, type TreeOutcome } from "./_outcome.ts";
import { drawsProgress, ProgressLine } from "./_progress.ts";
import { type OutputFormat, PROGRAM } from "./_spec.ts";
import { formatStats } from "./_stats.ts";
import { errorMessage } from "../_error_message.ts";

const INTERRUPTED = `${PROGRAM}: Interrupted\n`;

const FLAT = new Set<OutputFormat>(["pages", "ndjson", "csv"]);
/** Formats that write every page's extensions: their crawls decode them in the parse workers. */
const WRITES_EXTENSIONS = new Set<OutputFormat>(["json", "ndjson"]);

/** A crawl's input: a homepage, or a sitemap read alone. */
export type UrlInput = Extract<Input, { kind: "homepage" | "sitemap" }>;

/**
 * Runs `ls`.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @param stderr Where messages, the log and the progress line go.
 * @returns The exit status.
 * @throws {UsageError} For a bad flag or value, or a file that does not exist.
 */
export async function lsCommand(
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const flags = parsed.flags;
  const output = lsOutput(flags);
  const options = WRITES_EXTENSIONS.has(output.format)
    ? eagerUnlessChosen(crawlOptions(flags))
    : crawlOptions(flags);
  const input = readInput(parsed.operands[0]!, flags);
  const logFile = flags.nonEmpty("log-file", "a file name");
  if (input.kind === "file" || input.kind === "stdin") {
    return await lsLocal(input, output, options, io, stderr);
  }
  return await withCrawl({ input, flags, options, logFile, io, stderr }, (crawl, reporting) => {
    const run: LsCrawl = { input, output, options: crawl, io, reporting };
    // The sitemap columns come from the fetch records, complete once the crawl
    // is; a snapshot needs the whole tree.
    return FLAT.has(output.format) && !output.sitemapColumns && output.save === null
      ? lsStream(run)
      : lsTree(run);
  });
}

/** What a command's crawl needs from its command line. */
export interface CrawlSetup {
  readonly input: UrlInput;
  readonly flags: ParsedFlags;
  /** The options of the crawl flags. */
  readonly options: SitemapTreeOptions;
  /** `--log-file`, or null. */
  readonly logFile: string | null;
  readonly io: CliIO;
  readonly stderr: SerialWriter;
}

/**
 * Runs `body` with a crawl's options and reporting: says on stderr when a
 * sitemap is read alone, opens the log and starts the progress line, and
 * settles and closes them after `body`, whatever it does.
 *
 * @param setup The input, flags, crawl options and streams.
 * @param body What to do with the crawl's options (the streams' web
 * client, interrupt and progress listener added) and the reporting.
 * @returns What `body` returns, or 1 when the log file cannot be opened (after one stderr line).
 */
export async function withCrawl<T>(
  setup: CrawlSetup,
  body: (crawl: SitemapTreeOptions, reporting: Reporting) => Promise<T>,
): Promise<T | 1> {
  const { input, io, stderr } = setup;
  if (input.kind === "sitemap") {
    stderr.write(
      `${PROGRAM}: reading the sitemap at ${input.url} alone (--homepage to crawl its site)\n`,
    );
  }
  const reporting = await openReporting(setup.flags, setup.logFile, io, stderr);
  if (reporting === null) return 1;
  try {
    const crawl: SitemapTreeOptions = {
      ...setup.options,
      onProgress: reporting.onProgress,
      ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    };
    reporting.progress?.start();
    return await body(crawl, reporting);
  } finally {
    await reporting.settle();
    reporting.close();
  }
}

/** Where `ls` (and `report`) report besides the output: stderr, the progress line, the log, `--stats`. */
export interface Reporting {
  readonly stderr: SerialWriter;
  readonly progress: ProgressLine | null;
  /** The crawl's progress events, to the progress line and (`-v`) the log. */
  readonly onProgress: (event: SitemapProgressEvent) => void;
  /** Prints the `--stats` report, when asked for. */
  readonly report: (stats: SitemapTreeStats | null) => void;
  /** Erases the progress line and writes out stderr: before the output, or a message. */
  readonly settle: () => Promise<void>;
  /** Closes the log file. */
  readonly close: () => void;
}

/** Opens the log file (null, after one stderr line, when it cannot be) and the progress line. */
export async function openReporting(
  flags: ParsedFlags,
  logFile: string | null,
  io: CliIO,
  stderr: SerialWriter,
): Promise<Reporting | null> {
  let log: LogSink | null = null;
  if (logFile !== null) {
    try {
      log = openLogFile(logFile);
    } catch (error) {
      stderr.write(
        `${PROGRAM}: Cannot open log file ${JSON.stringify(logFile)}: ${errorMessage(error)}\n`,
      );
      return null;
    }
  }
  const progress = await drawsProgress(io, !flags.has("no-progress"))
    ? new ProgressLine(stderr, io.stderrColumns === undefined ? {} : { columns: io.stderrColumns })
    : null;
  const verbosity = Math.min(2, flags.count("verbose"));
  const logTo = (line: string): void => {
    if (log !== null) log.line(line);
    else if (progress !== null) progress.log(line);
    else stderr.write(line + "\n");
  };
  return {
    stderr,
    progress,
    onProgress(event) {
      progress?.update(event);
      const line = logLine(event, verbosity);
      if (line !== null) logTo(line);
    },
    report(stats) {
      if (!flags.has("stats") || stats === null) return;
      stderr.write(
        flags.has("json")
          ? JSON.stringify(stats) + "\n"
          : formatStats(stats).map((line) => line + "\n").join(""),
      );
    },
    async settle() {
      progress?.stop();
      await stderr.flush();
    },
    close() {
      log?.close();
    },
  };
}

/** The status of an interrupted command, after its one stderr line. */
export function interrupted(stderr: SerialWriter): number {
  stderr.write(INTERRUPTED);
  return 130;
}

/** A crawl of `ls`: what to read, what to print, how, and where to report. */
interface LsCrawl {
  readonly input: UrlInput;
  readonly output: LsOutput;
  readonly options: SitemapTreeOptions;
  readonly io: CliIO;
  readonly reporting: Reporting;
}

/** The tree formats (and the flat ones with sitemap columns): the whole tree, then the output. */
async function lsTree({ input, output, options, io, reporting }: LsCrawl): Promise<number> {
  const { stderr } = reporting;
  const done = await settledCrawl(input, options, io, reporting);
  if (typeof done === "number") return done;
  const { root, stats, outcome } = done;
  if (outcome.status !== 0) {
    reporting.report(stats);
    stderr.write(`${PROGRAM}: ${outcome.reason}\n`);
    return outcome.status;
  }
  let status = 0;
  try {
    if (!await writePieces(io, treePieces(output, root, stats.fetches))) {
      status = interrupted(stderr);
    }
  } catch (error) {
    if (!isBrokenPipe(error)) {
      stderr.write(`${PROGRAM}: Cannot write the output: ${errorMessage(error)}\n`);
      status = 1;
    }
  }
  if (status === 0) status = await save(output, root, stderr);
  reporting.report(stats);
  return status;
}

/** Writes `--save`'s snapshot, if asked for: 0, or 1 after one stderr line. */
async function save(
  output: LsOutput,
  root: AbstractSitemap,
  stderr: SerialWriter,
): Promise<number> {
  if (output.save === null) return 0;
  try {
    await saveSnapshot(output.save, root);
    return 0;
  } catch (error) {
    stderr.write(
      `${PROGRAM}: Cannot write the snapshot ${JSON.stringify(output.save)}: ${
        errorMessage(error)
      }\n`,
    );
    return 1;
  }
}

/** A finished crawl: its tree, its counters and its exit status. */
export interface CrawlResult {
  readonly root: AbstractSitemap;
  readonly stats: SitemapTreeStats;
  readonly outcome: TreeOutcome;
}

/**
 * Crawls, then erases the progress line (stdout may be the same terminal:
 * the line must be gone before anything follows).
 *
 * @returns The crawl, or the exit status of one that failed (after one
 * stderr line) or was interrupted.
 */
export async function settledCrawl(
  input: UrlInput,
  options: SitemapTreeOptions,
  io: CliIO,
  reporting: Reporting,
): Promise<CrawlResult | number> {
  const done = await crawlTree(input, options).then(
    (result) => ({ result, error: null }),
    (error: unknown) => ({ result: null, error }),
  );
  await reporting.settle();
  if (done.result !== null) return done.result;
  if (io.signal?.aborted) return interrupted(reporting.stderr);
  reporting.stderr.write(`${PROGRAM}: ${errorMessage(done.error)}\n`);
  return 1;
}

/**
 * Crawls a homepage (with discovery) or one sitemap.
 *
 * @param input What to crawl.
 * @param options The crawl options.
 * @returns The tree, the call's counters and its exit status.
 */
export async function crawlTree(
  input: UrlInput,
  options: SitemapTreeOptions,
): Promise<CrawlResult> {
  if (input.kind === "homepage") {
    const root = await sitemapTreeForHomepage(input.url, options);
    return { root, stats: root.stats, outcome: crawlOutcome(root.stats) };
  }
  const { root, stats } = await sitemapTreeForSitemapWithStats(input.url, options);
  return { root, stats, outcome: crawlOutcome(stats) };
}

/** The output of a tree format, in pieces; `fetches` are the call's records (none for a file). */
function treePieces(
  output: LsOutput,
  root: AbstractSitemap,
  fetches: readonly SitemapFetchStat[],
): Iterable<string> {
  const columns = output.sitemapColumns ? sitemapColumns(fetches) : null;
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
      return summaryFormat(root, fetches);
    case "histogram":
      return histogramFormat(root);
    case "sections":
      return sectionsFormat(root, output.depth, output.stripUrl);
  }
}

/**
 * The flat formats, written as each sitemap completes (through a
 * {@linkcode PageStream}), so the first lines come long before the crawl
 * ends. The progress line is erased when the output begins: from then on
 * the output shows the progress.
 */
async function lsStream({ input, output, options, io, reporting }: LsCrawl): Promise<number> {
  const stream = input.kind === "sitemap"
    ? streamSitemapPages(input.url, options)
    : streamPages(input.url, options);
  try {
    await writeStream(stream, output, flatLine(output, input.url), io, reporting);
  } catch (error) {
    await stream.return();
    return await streamFailed(error, io, reporting);
  }
  await reporting.settle();
  if (io.signal?.aborted) return interrupted(reporting.stderr);
  const stats = stream.stats;
  reporting.report(stats);
  if (stats === null) return 0;
  const outcome = crawlOutcome(stats);
  if (outcome.status !== 0) reporting.stderr.write(`${PROGRAM}: ${outcome.reason}\n`);
  return outcome.status;
}

/** Writes a line per page as the stream yields them; a failed write throws a {@linkcode WriteFailure}. */
async function writeStream(
  stream: PageStream,
  output: LsOutput,
  line: (page: SitemapPage, sitemap: string) => string,
  io: CliIO,
  reporting: Reporting,
): Promise<void> {
  const out = new BatchWriter(io.stdout);
  const seen = output.unique ? new Set<string>() : null;
  let started = false;
  const begin = async (): Promise<void> => {
    started = true;
    await reporting.settle();
  };
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
    const written = out.write(line(page, stream.sitemapUrl));
    if (written !== undefined) await written.catch(writeFailed);
    // A sitemap's last page: write it now, not when the next sitemap is parsed.
    if (stream.sitemapPagesLeft === 0) await out.flush().catch(writeFailed);
    if (io.signal?.aborted) break;
  }
  await out.flush().catch(writeFailed);
}

/** A flat format's line of one page; the listing sitemap's field is encoded once per sitemap. */
function flatLine(output: LsOutput, url: string): (page: SitemapPage, sitemap: string) => string {
  let origin = "";
  try {
    origin = output.stripUrl ? new URL(url).origin : "";
  } catch {
    // Checked already.
  }
  let last: string | null = null;
  let field = "";
  return (page, sitemap) => {
    if (sitemap !== last) {
      last = sitemap;
      field = output.format === "csv" ? csvField(sitemap) : JSON.stringify(sitemap);
    }
    return output.format === "pages"
      ? stripOrigin(page.url, origin) + "\n"
      : output.format === "ndjson"
      ? ndjsonLine(page, sitemap, field)
      : csvRow(page, field);
  };
}

/** The status of a stream that failed: interrupted, stdout gone or unwritable, or the crawl. */
async function streamFailed(error: unknown, io: CliIO, reporting: Reporting): Promise<number> {
  await reporting.settle();
  if (io.signal?.aborted) return interrupted(reporting.stderr);
  if (error instanceof WriteFailure) {
    if (isBrokenPipe(error.cause)) return 0;
    reporting.stderr.write(`${PROGRAM}: Cannot write the output: ${errorMessage(error.cause)}\n`);
    return 1;
  }
  reporting.stderr.write(`${PROGRAM}: ${errorMessage(error)}\n`);
  return 1;
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
    stderr.write(`${PROGRAM}: Cannot read ${name}: ${errorMessage(error)}\n`);
    return 1;
  }
  const inflated = await decompressSitemap(bytes);
  if (!inflated.ok) {
    stderr.write(`${PROGRAM}: ${name}: ${inflated.reason}\n`);
    return 3;
  }
  const url = input.kind === "file" ? new URL(input.path, `file://${process.cwd()}/`).href : "";
  const root = sitemapFromString(inflated.bytes, {
    url,
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
  });
  if (root instanceof InvalidSitemap) {
    stderr.write(`${PROGRAM}: no sitemap in ${name}: ${root.reason}\n`);
    return 3;
  }
  try {
    if (!await writePieces(io, treePieces(output, root, []))) return 130;
  } catch (error) {
    if (!isBrokenPipe(error)) throw error;
  }
  return await save(output, root, stderr);
}

function* withNewlines(lines: Iterable<string>): Generator<string, void, undefined> {
  for (const line of lines) yield line + "\n";
}

/** Writes the output; false when interrupted part way. */
export async function writePieces(io: CliIO, pieces: Iterable<string>): Promise<boolean> {
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
