/**
 * `sitemap-tree watch URL --state DIR`: the cron form of `diff`. The state
 * is a {@linkcode SnapshotStore} in DIR (the layout `batch --state` uses
 * too): the site's last good snapshot, and the crawl cache that makes an
 * unchanged sitemap cost one conditional request. A run takes the site's
 * lock, crawls, prints the changes since the stored snapshot, and only then
 * replaces it; a crawl that failed leaves the state as it was.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  InvalidSitemap,
  type SitemapTreeOptions,
  SnapshotStore,
} from "../../mod.ts";
import { siteKey } from "../_site_key.ts";
import { formatCount } from "../format/_units.ts";
import type { ParsedFlags, RunArgs } from "./_args.ts";
import type { CliIO, SerialWriter } from "./_io.ts";
import { type HeldLock, takeLock } from "./_lock.ts";
import { crawlOptions, readInput } from "./_options.ts";
import { PROGRAM } from "./_spec.ts";
import { type ChangeOutput, changeOutput, changePieces, writeChanges } from "./diff.ts";
import {
  type CrawlResult,
  crawlTree,
  interrupted,
  openReporting,
  type Reporting,
  type UrlInput,
} from "./ls.ts";
import { errorMessage } from "../_error_message.ts";

/**
 * Runs `watch`.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @param stderr Where messages and the progress line go.
 * @returns The exit status.
 * @throws {UsageError} For a bad flag or value.
 */
export async function watchCommand(
  parsed: RunArgs,
  io: CliIO,
  stderr: SerialWriter,
): Promise<number> {
  const run = watchRun(parsed);
  const lock = lockState(run, stderr);
  if (lock === null) return 1;
  const reporting = await openReporting(run.flags, run.logFile, io, stderr);
  if (reporting === null) {
    lock.release();
    return 1;
  }
  try {
    const done = await crawlSite(run, io, stderr, reporting);
    if (typeof done === "number") return done;
    return await recordChanges(run, done, io, stderr, reporting);
  } finally {
    await reporting.settle();
    reporting.close();
    lock.release();
  }
}

/** What a `watch` run reads from its command line, and where its state is. */
interface WatchRun {
  readonly flags: ParsedFlags;
  /** `--state`. */
  readonly dir: string;
  readonly output: ChangeOutput;
  /** The options of the crawl flags. */
  readonly options: SitemapTreeOptions;
  readonly input: UrlInput;
  /** `--log-file`, or null. */
  readonly logFile: string | null;
  readonly store: SnapshotStore;
  /** The site's key in the store. */
  readonly key: string;
  /** The site's state file in the store. */
  readonly file: string;
}

/** Reads the command line and names the site's state; throws a UsageError for a bad flag or URL. */
function watchRun(parsed: RunArgs): WatchRun {
  const flags = parsed.flags;
  const dir = flags.nonEmpty("state", "a directory");
  if (dir === null) throw flags.error("watch needs --state DIR");
  const output = changeOutput(flags);
  const options = crawlOptions(flags);
  const input = readInput(parsed.operands[0]!, flags);
  if (input.kind !== "homepage" && input.kind !== "sitemap") {
    throw flags.error(`watch needs an http(s) URL, got ${JSON.stringify(parsed.operands[0])}`);
  }
  const logFile = flags.nonEmpty("log-file", "a file name");
  const store = new SnapshotStore(dir);
  // A homepage's state is its site's, as batch keys it; a sitemap read alone has its own.
  const key = input.kind === "homepage" ? siteKey(input.url) : new URL(input.url).href;
  return { flags, dir, output, options, input, logFile, store, key, file: store.fileOf(key) };
}

/** Creates the state directory and takes the site's lock; null, after one stderr line, when either fails. */
function lockState(run: WatchRun, stderr: SerialWriter): HeldLock | null {
  let lock;
  try {
    mkdirSync(run.dir, { recursive: true });
    lock = takeLock(run.file.replace(/\.snapshot$/, ".lock"));
  } catch (error) {
    stderr.write(`${PROGRAM}: Cannot use the state directory ${run.dir}: ${errorMessage(error)}\n`);
    return null;
  }
  if (typeof lock === "string") {
    stderr.write(`${PROGRAM}: ${lock}\n`);
    return null;
  }
  return lock;
}

/**
 * Crawls with the state's cache, then settles the progress line: the crawl,
 * or the exit status of one that failed (the state kept) or was interrupted.
 */
async function crawlSite(
  run: WatchRun,
  io: CliIO,
  stderr: SerialWriter,
  reporting: Reporting,
): Promise<CrawlResult | number> {
  const crawl: SitemapTreeOptions = {
    ...run.options,
    cache: run.options.cache ?? run.store.cache,
    onProgress: reporting.onProgress,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
  reporting.progress?.start();
  let done;
  try {
    done = await crawlTree(run.input, crawl);
  } catch (error) {
    await reporting.settle();
    if (io.signal?.aborted) return interrupted(stderr);
    stderr.write(`${PROGRAM}: ${errorMessage(error)}; the state in ${run.dir} is kept\n`);
    return 1;
  }
  await reporting.settle();
  if (io.signal?.aborted) return interrupted(stderr);
  return done;
}

/**
 * Compares the crawl with the stored state, prints the changes, then
 * replaces the state (a crawl that failed keeps it); the exit status.
 */
async function recordChanges(
  run: WatchRun,
  { root, stats, outcome }: CrawlResult,
  io: CliIO,
  stderr: SerialWriter,
  reporting: Reporting,
): Promise<number> {
  reporting.report(stats);
  const comparison = await run.store.compare(run.key, root, stats);
  switch (comparison.state) {
    case "kept":
      stderr.write(`${PROGRAM}: ${outcome.reason}; the state in ${run.dir} is kept\n`);
      return outcome.status === 0 ? 1 : outcome.status;
    case "damaged":
      stderr.write(`${PROGRAM}: ${comparison.reason} (remove it to record a new state)\n`);
      return 1;
    case "recorded":
    case "updated":
      break;
  }
  let status = 0;
  if (comparison.changes !== null) {
    // Printed before the state is replaced: a run that dies between the two
    // prints the same changes again next time, rather than losing them.
    status = await writeChanges(changePieces(run.output, comparison.changes, root), io, stderr);
    if (status !== 0) return status;
  }
  try {
    await comparison.save();
  } catch (error) {
    stderr.write(
      `${PROGRAM}: Cannot write the state ${comparison.file}: ${errorMessage(error)}\n`,
    );
    return 1;
  }
  if (comparison.state === "recorded") {
    stderr.write(
      `${PROGRAM}: recorded the first state of ${run.input.url} (${
        describe(root)
      }) in ${comparison.file}; ` +
        `the next run prints what changed\n`,
    );
  }
  return status;
}

/** "N sitemaps, M pages". */
function describe(root: AbstractSitemap): string {
  let sitemaps = 0;
  let pages = 0;
  for (const node of [root, ...root.allSitemaps()]) {
    if (node.type === "website" || node instanceof InvalidSitemap) continue;
    sitemaps++;
    if (node instanceof AbstractPagesSitemap) pages += node.pageCount;
  }
  const plural = (n: number, word: string): string =>
    `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(sitemaps, "sitemap")}, ${plural(pages, "page")}`;
}
