/**
 * `sitemap-tree diff BEFORE AFTER`: what changed between two versions of a
 * site, each a snapshot (`ls --save`), a JSON tree (`ls -f json`), a
 * sitemap file or a URL crawled now; printed as `tabtree`, `ndjson` or
 * `summary` (the formats are in `src/format/changes.ts`, shared with
 * `watch`). It exits 0 whether or not anything changed, as `git diff` does
 * without `--exit-code`: 1 is a failure here (docs/design.md#exit-status), and
 * the `ndjson` output is empty when nothing changed, which a script can test.
 *
 * @module
 */
import {
  type AbstractSitemap,
  compareSitemapTrees,
  type SitemapChanges,
  type SitemapTreeOptions,
} from "../../mod.ts";
import { changeLines, changeSummary, changeTabTree } from "../format/changes.ts";
import { originOf } from "../format/tab_tree.ts";
import { type ParsedFlags, type RunArgs, UsageError } from "./_args.ts";
import { loadTreeFile, TreeFileError } from "./_files.ts";
import { type CliIO, isBrokenPipe, type SerialWriter } from "./_io.ts";
import { crawlOptions, type Input, readInput } from "./_options.ts";
import { CHANGE_FORMATS, type ChangeFormat, PROGRAM } from "./_spec.ts";
import { crawlTree, interrupted, openReporting, type Reporting, writePieces } from "./ls.ts";
import { errorMessage } from "../_error_message.ts";

/** How `diff` and `watch` print changes. */
export interface ChangeOutput {
  readonly format: ChangeFormat;
  readonly stripUrl: boolean;
}

/**
 * The output flags of `diff` and `watch`, checked against each other.
 *
 * @param flags The command line's flags.
 * @returns What to print.
 * @throws {UsageError} For `-u` with a format other than tabtree.
 */
export function changeOutput(flags: ParsedFlags): ChangeOutput {
  const format = flags.choice("format", CHANGE_FORMATS)!;
  const stripUrl = flags.has("strip-url");
  if (stripUrl && format !== "tabtree") {
    throw flags.error(`Option --strip-url applies to the tabtree format, not ${format}`);
  }
  if (flags.has("json") && !flags.has("stats")) {
    throw flags.error("Option --json applies to --stats; add --stats");
  }
  return { format, stripUrl };
}

/**
 * The output of the changes in a format.
 *
 * @param output The format, and whether to strip the site's origin.
 * @param changes The changes.
 * @param after The later tree (its origin is stripped with `-u`).
 * @returns The text, in pieces.
 */
export function changePieces(
  output: ChangeOutput,
  changes: SitemapChanges,
  after: AbstractSitemap,
): Iterable<string> {
  switch (output.format) {
    case "tabtree":
      return changeTabTree(changes, output.stripUrl ? originOf(after) : "");
    case "ndjson":
      return changeLines(changes);
    case "summary":
      return changeSummary(changes);
  }
}

/**
 * Writes the changes to stdout: 0, 130 when interrupted, 1 after one stderr
 * line when stdout cannot be written (a reader that went away is no failure).
 */
export async function writeChanges(
  pieces: Iterable<string>,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  try {
    return await writePieces(io, pieces) ? 0 : interrupted(stderr);
  } catch (error) {
    if (isBrokenPipe(error)) return 0;
    stderr.write(`${PROGRAM}: Cannot write the output: ${errorMessage(error)}\n`);
    return 1;
  }
}

/** One side of a diff, read; or why it could not be, with the exit status. */
type Side =
  | { readonly tree: AbstractSitemap }
  | { readonly status: number; readonly line: string };

/**
 * Runs `diff`.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @param stderr Where messages and the progress line go.
 * @returns The exit status.
 * @throws {UsageError} For a bad flag or value, or a file that does not exist.
 */
export async function diffCommand(
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const flags = parsed.flags;
  const output = changeOutput(flags);
  const options = crawlOptions(flags);
  const inputs = parsed.operands.map((operand) => readInput(operand, flags));
  if (inputs.some((input) => input.kind === "stdin")) {
    throw flags.error("diff compares files and URLs, not stdin");
  }
  const logFile = flags.nonEmpty("log-file", "a file name");
  const reporting = await openReporting(flags, logFile, io, stderr);
  if (reporting === null) return 1;
  try {
    const trees: AbstractSitemap[] = [];
    for (const input of inputs) {
      const side = await readSide(input, options, io, reporting);
      if (!("tree" in side)) {
        await reporting.settle();
        if (io.signal?.aborted) return interrupted(stderr);
        stderr.write(`${PROGRAM}: ${side.line}\n`);
        return side.status;
      }
      trees.push(side.tree);
    }
    await reporting.settle();
    const [before, after] = trees as [AbstractSitemap, AbstractSitemap];
    return await writeChanges(
      changePieces(output, compareSitemapTrees(before, after), after),
      io,
      stderr,
    );
  } finally {
    await reporting.settle();
    reporting.close();
  }
}

/** Reads one side: crawls a URL, or reads a file as a snapshot, a JSON tree or a sitemap (`readSitemapTreeFile()`). */
async function readSide(
  input: Input,
  options: SitemapTreeOptions,
  io: CliIO,
  reporting: Reporting,
): Promise<Side> {
  if (input.kind === "homepage" || input.kind === "sitemap") {
    reporting.progress?.start();
    try {
      const { root, outcome } = await crawlTree(input, {
        ...options,
        onProgress: reporting.onProgress,
        ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      });
      if (outcome.status !== 0) return { status: outcome.status, line: outcome.reason };
      return { tree: root };
    } catch (error) {
      return { status: 1, line: errorMessage(error) };
    } finally {
      await reporting.settle();
    }
  }
  const path = input.kind === "file" ? input.path : "-";
  const missing = () =>
    new UsageError(
      `No such file ${JSON.stringify(path)} (a URL starts with http:// or https://)`,
      "diff",
    );
  try {
    return { tree: await loadTreeFile(path, io, missing) };
  } catch (error) {
    if (!(error instanceof TreeFileError)) throw error;
    return { status: 1, line: error.message };
  }
}
