/**
 * `sitemap-tree report URL|FILE|- -o FILE.html`: a site's sitemaps as one
 * self-contained HTML page (`reportHtml()`, docs/design.md#the-report). A URL is crawled
 * as `ls` crawls it (same flags, progress line, log and `--stats`); a FILE
 * or stdin holds a saved tree (`ls --save`, `ls -f json`) or a sitemap. The
 * problems (`validateSitemapTree()`) are in the page unless
 * `--no-problems`; `--against FILE` adds the changes since an earlier
 * crawl. The page is written whole, whatever the crawl's outcome, so a
 * site that could not be reached or publishes no sitemap gets a page that
 * says so (and the exit status 1 or 3). Its flags are the `REPORT` spec in
 * `_spec.ts`.
 *
 * @module
 */
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  type AbstractSitemap,
  IndexWebsiteSitemap,
  reportHtml,
  type ReportHtmlOptions,
  type SitemapTreeStats,
  validateSitemapTree,
} from "../../mod.ts";
import type { ParsedFlags, RunArgs } from "./_args.ts";
import { loadTreeFile, TreeFileError } from "./_files.ts";
import { replaceFile } from "../runtime/mod.ts";
import { type CliIO, isBrokenPipe, type SerialWriter } from "./_io.ts";
import { crawlOptions, readInput } from "./_options.ts";
import type { TreeOutcome } from "./_outcome.ts";
import { PROGRAM } from "./_spec.ts";
import { type CrawlSetup, interrupted, type Reporting, settledCrawl, withCrawl } from "./ls.ts";
import { errorMessage } from "../_error_message.ts";

/** What `report` was asked to write. */
interface ReportSettings {
  /** The file, or `-` for stdout. */
  readonly out: string;
  /** The earlier crawl's file, or null. */
  readonly against: string | null;
  readonly sample: number;
  readonly depth: number;
  /** Whether to check the tree for problems. */
  readonly problems: boolean;
}

/**
 * Runs `report`.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @param stderr Where messages, the log and the progress line go.
 * @returns The exit status: 0 written, 1 unreachable (written) or a failure (not written), 3 no sitemap (written), 130 interrupted.
 * @throws {UsageError} For a bad flag or value, a file that does not exist, or no directory for `-o`.
 */
export async function reportCommand(
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const flags = parsed.flags;
  const settings = reportSettings(flags);
  const options = crawlOptions(flags);
  const input = readInput(parsed.operands[0]!, flags);
  const logFile = flags.nonEmpty("log-file", "a file name");
  if (settings.against === "-" && input.kind === "stdin") {
    throw flags.error("Option --against and the operand cannot both read stdin (-)");
  }
  let against: AbstractSitemap | undefined;
  let made: Made | number;
  try {
    // The earlier crawl first: a bad file should not cost a crawl.
    if (settings.against !== null) {
      against = await loadTreeFile(
        settings.against,
        io,
        () => flags.error(`Option --against: no such file ${JSON.stringify(settings.against)}`),
      );
    }
    made = input.kind === "file" || input.kind === "stdin"
      ? await savedTree(input.kind === "file" ? input.path : "-", flags, io)
      : await crawl({ input, flags, options, logFile, io, stderr });
  } catch (error) {
    if (!(error instanceof TreeFileError)) throw error;
    stderr.write(`${PROGRAM}: ${error.message}\n`);
    return 1;
  }
  if (typeof made === "number") return made;
  const html = reportHtml(
    made.tree,
    {
      ...(against === undefined ? {} : { against }),
      ...(settings.problems
        ? { problems: validateSitemapTree(made.tree, { examples: Math.max(1, settings.sample) }) }
        : {}),
      sample: settings.sample,
      depth: settings.depth,
    } satisfies ReportHtmlOptions,
  );
  const written = await writeReport(settings.out, html, io);
  if (written !== null) {
    stderr.write(`${PROGRAM}: Cannot write ${settings.out}: ${written}\n`);
    return 1;
  }
  if (made.reporting !== undefined) made.reporting.report(made.stats);
  if (made.outcome.status !== 0) stderr.write(`${PROGRAM}: ${made.outcome.reason}\n`);
  return made.outcome.status;
}

/** A tree saved in a file or given on stdin, reported as it is: no crawl, status 0. */
async function savedTree(source: string, flags: ParsedFlags, io: CliIO): Promise<Made> {
  const missing = () =>
    flags.error(`No such file ${JSON.stringify(source)} (a URL starts with http:// or https://)`);
  return {
    tree: await loadTreeFile(source, io, missing),
    stats: null,
    outcome: { status: 0, reason: "" },
  };
}

/** The flags of `report`'s output, checked; `-o` is required and its directory must exist. */
function reportSettings(flags: ParsedFlags): ReportSettings {
  const out = flags.nonEmpty("out", "a file name (or - for stdout)");
  if (out === null) {
    throw flags.error("Missing -o FILE: where the report goes (- for stdout)");
  }
  if (out !== "-") {
    // Checked before the crawl, so a typo does not cost one; the write itself says any other failure.
    const dir = dirname(resolve(out));
    if (kindOf(dir) === "missing") {
      throw flags.error(`Option ${flags.written("out")}: no such directory ${JSON.stringify(dir)}`);
    }
    if (kindOf(resolve(out)) === "directory") {
      throw flags.error(`Option ${flags.written("out")} names a directory: ${JSON.stringify(out)}`);
    }
  }
  if (flags.has("json") && !flags.has("stats")) {
    throw flags.error("Option --json in report applies to --stats; add --stats");
  }
  return {
    out,
    against: flags.nonEmpty("against", "a file name"),
    sample: flags.integer("sample", 0)!,
    depth: flags.integer("depth", 0)!,
    problems: !flags.has("no-problems"),
  };
}

/**
 * What is at `path`: a directory, something else, nothing (it or a parent is
 * missing), or unknown (it cannot be looked at, e.g. without Deno's read
 * permission).
 */
function kindOf(path: string): "directory" | "other" | "missing" | "unknown" {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unknown";
  }
}

/** A tree to report, with the crawl's counters and outcome (none for a saved tree). */
interface Made {
  readonly tree: AbstractSitemap;
  readonly stats: SitemapTreeStats | null;
  readonly outcome: TreeOutcome;
  /** Where the crawl reports `--stats`; absent for a saved tree. */
  readonly reporting?: Reporting;
}

/**
 * Crawls the site (or reads the one sitemap) with the progress line and the
 * log; the status instead of a tree when it failed or was interrupted.
 */
function crawl(setup: CrawlSetup): Promise<Made | number> {
  return withCrawl(setup, async (options, reporting) => {
    const done = await settledCrawl(setup.input, options, setup.io, reporting);
    if (typeof done === "number") return done;
    // Interrupted as the crawl ended: no report of a crawl the user stopped.
    if (setup.io.signal?.aborted) return interrupted(reporting.stderr);
    const { root, stats, outcome } = done;
    // A sitemap read alone sits under its site's root, which carries the
    // crawl's counters: the report shows statuses and sizes from them.
    const tree = root instanceof IndexWebsiteSitemap
      ? root
      : new IndexWebsiteSitemap(new URL("/", setup.input.url).href, [root], stats);
    return { tree, stats, outcome, reporting };
  });
}

/** Writes the page to its file (whole) or stdout; the error's message, or null when written. */
async function writeReport(out: string, html: string, io: CliIO): Promise<string | null> {
  const bytes = new TextEncoder().encode(html);
  try {
    if (out === "-") await io.stdout.write(bytes);
    else await replaceFile(out, bytes);
  } catch (error) {
    // A reader that went away (`| head`) is not a failure, as with ls.
    if (out === "-" && isBrokenPipe(error)) return null;
    return errorMessage(error);
  }
  return null;
}
