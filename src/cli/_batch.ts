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
import { parseArgs } from "node:util";
import { sitemapTreesForHomepages, type SitemapTreesOptions } from "../sitemap_trees.ts";
import { type CliIO, isBrokenPipe, SerialWriter } from "./_io.ts";
import { CLEAR_LINE } from "./_progress.ts";
import { sitePageLines, type SiteSummary, siteSummary } from "./_site_record.ts";
import { formatCount } from "./_units.ts";

const PROGRAM = "sitemap-tree";

/** Usage of `batch`. */
export const BATCH_USAGE = `Usage: ${PROGRAM} batch FILE|- [options]

Reads one homepage per line of FILE (or stdin for -; blank lines and # comments
are skipped), finds each site's sitemaps, SITES at a time, and writes NDJSON.

  -f, --format FORMAT        summary (default): one line per site with homepage,
                             status (ok, no-sitemaps, unreachable), reason,
                             sitemaps, invalidSitemaps, pages, distinctPages,
                             bytes, requests, ms; pages: one line per page with
                             its site and sitemap, then {"site":…,"summary":{…}}
  -o, --out FILE             append to FILE instead of stdout
      --resume               skip the sites already finished in --out FILE
      --site-concurrency N   sites crawled at once (default 16)
      --max-connections N    requests in flight across all sites (default 64)
      --concurrency N        requests in flight per host (default 4)
      --delay-ms MS          least time between two requests to one host (default 0)
      --respect-crawl-delay  honour robots.txt Crawl-delay (capped at 10 s)
      --timeout MS           one sitemap's whole response, per attempt (default 30000)
      --retries N            retries for network errors, 408, 429, 5xx (default 2)
      --workers N            parse workers; 0 parses on the main thread
      --user-agent UA        the User-Agent header
      --no-robots, --no-known, --no-feeds   skip a discovery source
      --no-progress          no progress line (none is drawn unless stderr is a terminal)
  -h, --help                 print this help

Exit status: 0 the run completed (a site's failure is data in the output),
1 the run could not run (input or output unusable), 2 usage error, 130 interrupted.
`;

/** What `batch` was asked to do. */
export interface BatchConfig {
  readonly input: string;
  readonly format: "summary" | "pages";
  readonly out: string | null;
  readonly resume: boolean;
  readonly progress: boolean;
  readonly options: SitemapTreesOptions;
}

/** A command line `batch`, `enqueue` or `worker` cannot run; the message names the flag. */
export class BatchUsageError extends Error {}

/** The crawl flags of `batch` and `worker`, for `node:util` `parseArgs`. */
export const CRAWL_PARSE_OPTIONS = {
  "respect-crawl-delay": { type: "boolean" },
  "no-robots": { type: "boolean" },
  "no-known": { type: "boolean" },
  "no-feeds": { type: "boolean" },
  "user-agent": { type: "string" },
  "site-concurrency": { type: "string" },
  "max-connections": { type: "string" },
  concurrency: { type: "string" },
  "delay-ms": { type: "string" },
  timeout: { type: "string" },
  retries: { type: "string" },
  workers: { type: "string" },
} as const;

/**
 * The library options the crawl flags ask for.
 *
 * @param v The parsed values.
 * @returns The options.
 * @throws {BatchUsageError} For a bad number, naming the flag.
 */
export function crawlOptionsFrom(
  v: Record<string, string | boolean | undefined>,
): SitemapTreesOptions {
  const options: Record<string, unknown> = {};
  for (const [flag, key, min] of INTEGER_FLAGS) {
    const text = v[flag];
    if (typeof text !== "string") continue;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min) {
      throw new BatchUsageError(
        `--${flag} must be an integer >= ${min}, got ${JSON.stringify(text)}`,
      );
    }
    options[key] = n;
  }
  if (v["respect-crawl-delay"]) options.respectCrawlDelay = true;
  if (v["no-robots"]) options.useRobots = false;
  if (v["no-known"]) options.useKnownPaths = false;
  if (v["no-feeds"]) options.useFeeds = false;
  if (typeof v["user-agent"] === "string") options.userAgent = v["user-agent"];
  return options as SitemapTreesOptions;
}

const INTEGER_FLAGS = [
  ["site-concurrency", "siteConcurrency", 1],
  ["max-connections", "maxConnections", 1],
  ["concurrency", "concurrency", 1],
  ["delay-ms", "delayMs", 0],
  ["timeout", "timeoutMs", 1],
  ["retries", "retries", 0],
  ["workers", "workers", 0],
] as const;

/**
 * Parses `batch`'s arguments (after the command name).
 *
 * @param args The arguments.
 * @returns The configuration, or "help".
 * @throws {Error} A usage error naming the flag or value.
 */
export function parseBatchArgs(args: readonly string[]): BatchConfig | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: "string", short: "f" },
        out: { type: "string", short: "o" },
        resume: { type: "boolean" },
        "no-progress": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        ...CRAWL_PARSE_OPTIONS,
      },
    });
  } catch (error) {
    throw new BatchUsageError(error instanceof Error ? error.message : String(error));
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) return "help";
  if (parsed.positionals.length !== 1) {
    throw new BatchUsageError(
      `batch takes one FILE or -, got ${parsed.positionals.length}: ${
        JSON.stringify(parsed.positionals)
      }`,
    );
  }
  const format = (v.format as string | undefined) ?? "summary";
  if (format !== "summary" && format !== "pages") {
    throw new BatchUsageError(`--format must be summary or pages, got ${JSON.stringify(format)}`);
  }
  const out = (v.out as string | undefined) ?? null;
  if (v.resume && out === null) throw new BatchUsageError("--resume needs --out FILE");
  const options = crawlOptionsFrom(v);
  return {
    input: parsed.positionals[0]!,
    format,
    out,
    resume: v.resume === true,
    progress: v["no-progress"] !== true,
    options,
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

/**
 * The homepages of a text: trimmed lines, without blank lines and `#` comments.
 *
 * @param lines The lines.
 * @returns The homepages.
 */
export async function* homepagesOf(lines: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    yield line;
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

function countHomepages(input: string): number {
  let n = 0;
  for (const raw of readFileSync(input, "utf8").split("\n")) {
    const line = raw.trim();
    if (line !== "" && !line.startsWith("#")) n++;
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
 * Runs `batch` with its arguments.
 *
 * @param args The arguments after `batch`.
 * @param io The standard streams.
 * @returns The exit status.
 */
export async function batchCommand(args: readonly string[], io: CliIO): Promise<number> {
  const stderr = new SerialWriter(io.stderr);
  let config: BatchConfig | "help";
  try {
    config = parseBatchArgs(args);
  } catch (error) {
    if (!(error instanceof BatchUsageError)) throw error;
    stderr.write(`${PROGRAM} batch: ${error.message} (see batch --help)\n`);
    await stderr.flush();
    return 2;
  }
  if (config === "help") {
    await io.stdout.write(new TextEncoder().encode(BATCH_USAGE));
    return 0;
  }
  try {
    return await runBatch(config, io, stderr);
  } finally {
    await stderr.flush();
  }
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
  let total: number | null = null;
  let skip = new Set<string>();
  let fd: number | null = null;
  try {
    if (config.input !== "-") {
      if (!statSync(config.input).isFile()) throw new Error(`${config.input} is not a file`);
      total = countHomepages(config.input);
    }
  } catch (error) {
    stderr.write(`${PROGRAM} batch: Cannot read ${config.input}: ${messageOf(error)}\n`);
    return 1;
  }
  if (config.out !== null) {
    try {
      if (config.resume) skip = finishedSites(config.out);
      fd = openSync(config.out, "a");
    } catch (error) {
      stderr.write(`${PROGRAM} batch: Cannot write ${config.out}: ${messageOf(error)}\n`);
      return 1;
    }
  }
  const encoder = new TextEncoder();
  const write = async (text: string): Promise<void> => {
    const bytes = encoder.encode(text);
    if (fd === null) {
      await io.stdout.write(bytes);
      return;
    }
    for (let at = 0; at < bytes.byteLength;) at += writeSync(fd, bytes, at);
  };
  let done = 0;
  let pages = 0;
  let failures = 0;
  if (total !== null) {
    // Sites finished earlier count as done in the total's terms.
    total = Math.max(0, total - skip.size);
  }
  const started = performance.now();
  const draw = (): void => {
    let text = batchProgressText({ done, total, pages, failures }, performance.now() - started);
    const columns = io.stderrColumns ?? 0;
    if (columns > 1 && text.length > columns - 1) text = text.slice(0, columns - 1);
    stderr.write(CLEAR_LINE + text);
  };
  const live = config.progress && io.stderrIsTerminal && process.env.TERM !== "dumb";
  const timer = live ? setInterval(draw, 250) : null;
  if (live) draw();
  const inputs = (async function* () {
    for await (const homepage of homepagesOf(linesOf(config.input))) {
      if (!skip.has(homepage)) yield homepage;
    }
  })();
  const options: SitemapTreesOptions = {
    ...config.options,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
  let status = 0;
  try {
    for await (const result of sitemapTreesForHomepages(inputs, options)) {
      const summary: SiteSummary = siteSummary(result);
      let text: string;
      if (config.format === "summary") {
        text = JSON.stringify(summary) + "\n";
      } else {
        const parts = [...sitePageLines(result)];
        const { homepage: _, ...rest } = summary;
        parts.push(
          `{"site":${JSON.stringify(summary.homepage)},"summary":${JSON.stringify(rest)}}\n`,
        );
        text = parts.join("");
      }
      await write(text);
      done++;
      pages += summary.pages;
      if (summary.status === "unreachable") failures++;
    }
  } catch (error) {
    if (io.signal?.aborted) {
      status = 130;
    } else if (isBrokenPipe(error)) {
      status = 0;
    } else {
      stderr.write(`${CLEAR_LINE}${PROGRAM} batch: ${messageOf(error)}\n`);
      status = 1;
    }
  } finally {
    if (timer !== null) clearInterval(timer);
    if (fd !== null) closeSync(fd);
  }
  if (live) stderr.write(CLEAR_LINE);
  if (status === 130) stderr.write(`${PROGRAM}: Interrupted\n`);
  else if (status === 0 && live) {
    stderr.write(
      batchProgressText({ done, total, pages, failures }, performance.now() - started) + "\n",
    );
  }
  return status;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
