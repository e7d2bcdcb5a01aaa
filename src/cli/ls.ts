/**
 * `sitemap-tree ls URL|FILE|-`: a site's sitemap tree, its pages, a summary
 * or a lastmod chart (the formats are in `src/format/`). A homepage is
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
  FileSitemapCache,
  InvalidSitemap,
  type SitemapFetchStat,
  sitemapFromString,
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
import { summaryFormat } from "../format/summary.ts";
import { type RunArgs, UsageError } from "./_args.ts";
import { BatchWriter, type CliIO, isBrokenPipe, type SerialWriter } from "./_io.ts";
import { logLine, type LogSink, openLogFile } from "./_log.ts";
import { crawlOptions, type Input, type LsOutput, lsOutput, readInput } from "./_options.ts";
import { crawlOutcome, type TreeOutcome } from "./_outcome.ts";
import { drawsProgress, ProgressLine } from "./_progress.ts";
import { type OutputFormat, PROGRAM } from "./_spec.ts";
import { formatStats } from "./_stats.ts";

const INTERRUPTED = `${PROGRAM}: Interrupted\n`;

const FLAT = new Set<OutputFormat>(["pages", "ndjson", "csv"]);

export async function lsCommand(
  parsed: RunArgs,
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
      if (!await writePieces(io, treePieces(output, root, stats.fetches))) {
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
  const stream = input.kind === "sitemap"
    ? streamSitemapPages(input.url, options)
    : streamPages(input.url, options);
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
  const inflated = await decompressSitemap(bytes);
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
    if (!await writePieces(io, treePieces(output, root, []))) return 130;
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
