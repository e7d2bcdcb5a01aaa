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
import type { RunArgs } from "./_args.ts";
import type { CliIO, SerialWriter } from "./_io.ts";
import { takeLock } from "./_lock.ts";
import { crawlOptions, readInput } from "./_options.ts";
import { PROGRAM } from "./_spec.ts";
import { changeOutput, changePieces, writeChanges } from "./diff.ts";
import { crawlTree, interrupted, openReporting } from "./ls.ts";
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
  const file = store.fileOf(key);
  let lock;
  try {
    mkdirSync(dir, { recursive: true });
    lock = takeLock(file.replace(/\.snapshot$/, ".lock"));
  } catch (error) {
    stderr.write(`${PROGRAM}: Cannot use the state directory ${dir}: ${errorMessage(error)}\n`);
    return 1;
  }
  if (typeof lock === "string") {
    stderr.write(`${PROGRAM}: ${lock}\n`);
    return 1;
  }
  const reporting = await openReporting(flags, logFile, io, stderr);
  if (reporting === null) {
    lock.release();
    return 1;
  }
  try {
    const crawl: SitemapTreeOptions = {
      ...options,
      cache: options.cache ?? store.cache,
      onProgress: reporting.onProgress,
      ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    };
    reporting.progress?.start();
    let done;
    try {
      done = await crawlTree(input, crawl);
    } catch (error) {
      await reporting.settle();
      if (io.signal?.aborted) return interrupted(stderr);
      stderr.write(`${PROGRAM}: ${errorMessage(error)}; the state in ${dir} is kept\n`);
      return 1;
    }
    await reporting.settle();
    if (io.signal?.aborted) return interrupted(stderr);
    const { root, stats, outcome } = done;
    reporting.report(stats);
    const comparison = await store.compare(key, root, stats);
    switch (comparison.state) {
      case "kept":
        stderr.write(`${PROGRAM}: ${outcome.reason}; the state in ${dir} is kept\n`);
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
      status = await writeChanges(changePieces(output, comparison.changes, root), io, stderr);
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
        `${PROGRAM}: recorded the first state of ${input.url} (${
          describe(root)
        }) in ${comparison.file}; ` +
          `the next run prints what changed\n`,
      );
    }
    return status;
  } finally {
    await reporting.settle();
    reporting.close();
    lock.release();
  }
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
