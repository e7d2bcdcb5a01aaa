/**
 * `batch FILE|-`: many sites in one process through
 * `sitemapTreesForHomepages`, one homepage per input line, NDJSON out.
 *
 * Each site's output is written in one piece once the site is finished:
 * `--format summary` one line per site, `--format pages` its page lines and
 * then one `{"site":…,"summary":{…}}` line. A site counts as done once its
 * last line is complete, so `--resume` cuts a run killed mid-write back to
 * the last finished site and skips the sites already there.
 *
 * @module
 */
import { createReadStream, openSync, readFileSync, writeSync } from "node:fs";
import { closeSync, ftruncateSync, statSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";
import { siteKey } from "../_site_key.ts";
import {
  sitemapTreesForHomepages,
  type SitemapTreesOptions,
  SnapshotStore,
  type StoredComparison,
} from "../../mod.ts";
import type { ParsedFlags, RunArgs } from "./_args.ts";
import { eagerUnlessChosen, sitesOptions } from "./_options.ts";
import { PROGRAM } from "./_spec.ts";
import { type CliIO, isBrokenPipe, type SerialWriter } from "./_io.ts";
import { drawsProgress, ProgressLine } from "./_progress.ts";
import {
  siteEndLine,
  sitePageLines,
  siteStateFields,
  type SiteSummary,
  siteSummary,
} from "../format/site_record.ts";
import { changeLines } from "../format/changes.ts";
import { formatCount } from "../format/_units.ts";
import { errorMessage } from "../_error_message.ts";

/** What `batch` was asked to do. */
export interface BatchConfig {
  readonly input: string;
  readonly format: "summary" | "pages" | "changes";
  readonly out: string | null;
  readonly resume: boolean;
  /** The state directory (`--state`), or null. */
  readonly state: string | null;
  readonly progress: boolean;
  readonly options: SitemapTreesOptions;
}

/**
 * What a parsed `batch` command line asks for.
 *
 * @param operands Its operands (FILE or -).
 * @param flags Its flags.
 * @returns The configuration.
 * @throws {UsageError} For a bad flag or value, naming it.
 */
export function batchConfig(operands: readonly string[], flags: ParsedFlags): BatchConfig {
  const format = flags.choice("format", ["summary", "pages", "changes"] as const)!;
  const out = flags.nonEmpty("out", "a file name");
  if (flags.has("resume") && out === null) {
    throw flags.error("Option --resume needs --out FILE");
  }
  const state = flags.nonEmpty("state", "a directory");
  if (format === "changes" && state === null) {
    throw flags.error("Option --format changes needs --state DIR (the state to compare with)");
  }
  // The page lines write every page's extensions: decoded in the parse workers.
  const options = format === "pages" ? eagerUnlessChosen(sitesOptions(flags)) : sitesOptions(flags);
  return {
    input: operands[0]!,
    format,
    out,
    resume: flags.has("resume"),
    state,
    progress: !flags.has("no-progress"),
    // With --state, the state's cache unless --cache names another.
    options: state === null || options.cache !== undefined
      ? options
      : { ...options, cache: new SnapshotStore(state).cache },
  };
}

/** The counters of the progress line. */
export interface BatchCounts {
  readonly done: number;
  /** Sites in the input, when known (a file); null for stdin. */
  readonly total: number | null;
  readonly pages: number;
  /** Sites that were unreachable or not a URL. */
  readonly failures: number;
}

/**
 * The progress line: `sites 120/1,000 · pages 12,345 · failures 3 · 45.1 sites/s · ETA 20 s`.
 *
 * @param counts The counters.
 * @param elapsedMs Milliseconds since the run started.
 * @returns The text.
 */
export function batchProgressText(counts: BatchCounts, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? counts.done / (elapsedMs / 1000) : 0;
  const total = counts.total === null ? "?" : formatCount(counts.total);
  let eta = "";
  if (counts.total !== null && rate > 0) {
    eta = ` · ETA ${Math.ceil(Math.max(0, counts.total - counts.done) / rate)} s`;
  }
  return `sites ${formatCount(counts.done)}/${total} · pages ${formatCount(counts.pages)} · ` +
    `failures ${formatCount(counts.failures)} · ${rate.toFixed(1)} sites/s${eta}`;
}

/** A line's homepage: the trimmed line, or null for a blank line or a `#` comment. */
function homepageOf(raw: string): string | null {
  const line = raw.trim();
  return line === "" || line.startsWith("#") ? null : line;
}

/**
 * The homepages of a text: trimmed lines, without blank lines and `#` comments.
 *
 * @param lines The lines.
 * @returns The homepages.
 */
export async function* homepagesOf(lines: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const raw of lines) {
    const homepage = homepageOf(raw);
    if (homepage !== null) yield homepage;
  }
}

/**
 * The lines of a file, or of stdin for `-`, read as they are needed.
 *
 * @param input The path or `-`.
 * @returns The lines.
 */
export function linesOf(input: string): AsyncIterable<string> {
  const stream = input === "-" ? process.stdin : createReadStream(input);
  return createInterface({ input: stream, crlfDelay: Infinity });
}

/**
 * Lets each site through once: the first line of each {@linkcode siteKey}
 * (the key `enqueue` makes a job id), except the sites an earlier run
 * finished. Later lines of a key are counted as duplicates.
 */
export class UniqueSites {
  readonly #done: ReadonlySet<string>;
  readonly #seen = new Set<string>();
  #read = 0;
  #duplicates = 0;

  /**
   * @param done Homepages finished already (`--resume`), as written then.
   */
  constructor(done: Iterable<string> = []) {
    this.#done = new Set([...done].map(siteKey));
  }

  /**
   * Whether to crawl this homepage.
   *
   * @param homepage One homepage line.
   * @returns True the first time its site is met and it is not done.
   */
  accept(homepage: string): boolean {
    this.#read++;
    const key = siteKey(homepage);
    if (this.#done.has(key)) return false;
    if (this.#seen.has(key)) {
      this.#duplicates++;
      return false;
    }
    this.#seen.add(key);
    return true;
  }

  /** Homepage lines offered so far. */
  get read(): number {
    return this.#read;
  }

  /** Lines skipped because an earlier line named the same site. */
  get duplicates(): number {
    return this.#duplicates;
  }
}

/** The sites a file will crawl: its distinct homepages not finished already. */
function countSites(input: string, done: ReadonlySet<string>): number {
  const sites = new UniqueSites(done);
  let n = 0;
  // As readline splits them: a lone \r ends a line too.
  for (const raw of readFileSync(input, "utf8").split(/\r\n|\n|\r/)) {
    const homepage = homepageOf(raw);
    if (homepage !== null && sites.accept(homepage)) n++;
  }
  return n;
}

/**
 * The sites finished in an earlier run's output, whose file is cut back to
 * the end of the last finished site (a killed run may have left half a
 * site's lines, or half a line).
 *
 * @param path The output file; missing means nothing is finished.
 * @returns The homepages finished.
 */
export function finishedSites(path: string): Set<string> {
  const done = new Set<string>();
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return done;
    throw error;
  }
  let at = 0;
  const encoder = new TextEncoder();
  let keepBytes = 0;
  let bytes = 0;
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) break;
    const line = text.slice(at, nl);
    bytes += encoder.encode(line).byteLength + 1;
    at = nl + 1;
    let record: { homepage?: unknown; status?: unknown; site?: unknown; summary?: unknown };
    try {
      record = JSON.parse(line);
    } catch {
      break;
    }
    if (typeof record.homepage === "string" && typeof record.status === "string") {
      done.add(record.homepage);
    } else if (typeof record.site === "string" && typeof record.summary === "object") {
      done.add(record.site);
    } else continue;
    keepBytes = bytes;
  }
  if (at < text.length || keepBytes < bytes) {
    const fd = openSync(path, "r+");
    try {
      ftruncateSync(fd, keepBytes);
    } finally {
      closeSync(fd);
    }
  }
  return done;
}

/**
 * Runs `batch`.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @param stderr Where messages and the progress line go.
 * @returns The exit status.
 * @throws {UsageError} For a bad flag or value (before anything runs).
 */
export async function batchCommand(
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  return await runBatch(batchConfig(parsed.operands, parsed.flags), io, stderr);
}

/** What a run starts from: the input checked, the output open, the sites known in advance. */
interface BatchStart {
  /** Sites the input will crawl (a file), or null (stdin). */
  readonly total: number | null;
  /** Homepages an earlier run finished (`--resume`). */
  readonly skip: ReadonlySet<string>;
  /** The output file, or null for stdout. */
  readonly fd: number | null;
}

/** The counters of a run, as the progress line shows them. */
interface RunningCounts {
  done: number;
  readonly total: number | null;
  pages: number;
  failures: number;
}

/**
 * Runs a parsed `batch`.
 *
 * @param config What to do.
 * @param io The standard streams.
 * @param stderr Where messages and the progress line go.
 * @returns The exit status.
 */
export async function runBatch(
  config: BatchConfig,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const start = startBatch(config, stderr);
  if (start === null) return 1;
  const counts: RunningCounts = { done: 0, total: start.total, pages: 0, failures: 0 };
  const progressText = (elapsedMs: number): string => batchProgressText(counts, elapsedMs);
  const progress = await drawsProgress(io, config.progress)
    ? new ProgressLine(stderr, {
      intervalMs: 250,
      text: progressText,
      ...(io.stderrColumns === undefined ? {} : { columns: io.stderrColumns }),
    })
    : null;
  const started = performance.now();
  progress?.start();
  const sites = new UniqueSites(start.skip);
  const { status, failure } = await crawlSites(config, sites, start.fd, counts, io);
  // The line is erased (on a terminal only) before the messages below.
  progress?.stop();
  stderr.write(failure);
  if (status === 130) stderr.write(`${PROGRAM}: Interrupted\n`);
  if (status !== 0) return status;
  reportSkipped(config.input, sites, stderr);
  if (progress !== null) stderr.write(progressText(performance.now() - started) + "\n");
  return status;
}

/** Checks the input, opens the output and counts the sites; null, after one stderr line, when one is unusable. */
function startBatch(config: BatchConfig, stderr: SerialWriter): BatchStart | null {
  const cannot = (what: "read" | "write", name: string, error: unknown): null => {
    stderr.write(`${PROGRAM} batch: Cannot ${what} ${name}: ${errorMessage(error)}\n`);
    return null;
  };
  try {
    if (config.input !== "-" && !statSync(config.input).isFile()) {
      throw new Error(`${config.input} is not a file`);
    }
  } catch (error) {
    return cannot("read", config.input, error);
  }
  let skip = new Set<string>();
  let fd: number | null = null;
  if (config.out !== null) {
    try {
      if (config.resume) skip = finishedSites(config.out);
      fd = openSync(config.out, "a");
    } catch (error) {
      return cannot("write", config.out, error);
    }
  }
  try {
    const total = config.input === "-" ? null : countSites(config.input, skip);
    return { total, skip, fd };
  } catch (error) {
    if (fd !== null) closeSync(fd);
    return cannot("read", config.input, error);
  }
}

/**
 * Crawls the sites and writes each one's lines once it is finished, counting
 * as it goes; closes the output. The exit status, and the stderr line of a
 * failure.
 */
async function crawlSites(
  config: BatchConfig,
  sites: UniqueSites,
  fd: number | null,
  counts: RunningCounts,
  io: CliIO,
): Promise<{ status: number; failure: string }> {
  const encoder = new TextEncoder();
  const write = async (text: string): Promise<void> => {
    const bytes = encoder.encode(text);
    if (fd === null) {
      await io.stdout.write(bytes);
      return;
    }
    for (let at = 0; at < bytes.byteLength;) at += writeSync(fd, bytes, at);
  };
  const inputs = (async function* () {
    for await (const homepage of homepagesOf(linesOf(config.input))) {
      if (sites.accept(homepage)) yield homepage;
    }
  })();
  const options: SitemapTreesOptions = {
    ...config.options,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
  const store = config.state === null ? null : new SnapshotStore(config.state);
  let unsaved = "";
  try {
    for await (const result of sitemapTreesForHomepages(inputs, options)) {
      let summary: SiteSummary = siteSummary(result);
      let comparison: StoredComparison | null = null;
      if (store !== null) {
        if (result.error === undefined) {
          comparison = await store.compare(siteKey(result.homepage), result.tree);
        }
        summary = { ...summary, ...siteStateFields(comparison) };
      }
      await write(
        config.format === "summary" ? JSON.stringify(summary) + "\n" : [
          ...(config.format === "pages"
            ? sitePageLines(result)
            : changeLines(comparison?.changes ?? [], result.homepage)),
          siteEndLine(summary),
        ].join(""),
      );
      // Saved once the site's lines are out: a run killed in between
      // reports the same changes again, rather than losing them.
      try {
        await comparison?.save();
      } catch (error) {
        unsaved += `${PROGRAM} batch: Cannot write the state of ${result.homepage} (${
          comparison!.file
        }): ${errorMessage(error)}\n`;
      }
      counts.done++;
      counts.pages += summary.pages;
      if (
        summary.status === "unreachable" || summary.status === "blocked" ||
        summary.status === "invalid-input"
      ) counts.failures++;
    }
    return { status: unsaved === "" ? 0 : 1, failure: unsaved };
  } catch (error) {
    if (io.signal?.aborted) return { status: 130, failure: "" };
    if (isBrokenPipe(error)) return { status: 0, failure: "" };
    return { status: 1, failure: `${PROGRAM} batch: ${errorMessage(error)}\n` };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The stderr lines of a completed run that read no homepage, or skipped duplicates. */
function reportSkipped(input: string, sites: UniqueSites, stderr: SerialWriter): void {
  if (sites.read === 0) {
    const where = input === "-" ? "stdin" : input;
    stderr.write(
      `${PROGRAM} batch: No homepages in ${where} (blank lines and # comments are skipped)\n`,
    );
  }
  if (sites.duplicates > 0) {
    stderr.write(
      `${PROGRAM} batch: Skipped ${formatCount(sites.duplicates)} duplicate ${
        sites.duplicates === 1 ? "homepage" : "homepages"
      } (the same site as an earlier line)\n`,
    );
  }
}
