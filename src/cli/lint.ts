/**
 * `sitemap-tree lint URL`: crawls the site like `ls`, then reports protocol
 * problems per sitemap (see `validateSitemapTree()` and
 * `lintSitemapDocument()`): as text, or with `--json` as one JSON object.
 * Its flags are the `LINT` command spec in `_spec.ts`. Exit status
 * 1 when there is at least one error (warnings alone give 0) or the site
 * could not be reached; 3 when it publishes no sitemap.
 *
 * @module
 */
import { abortable } from "../_abortable.ts";
import { decompressIfGzip } from "../decompress.ts";
import { Crawler } from "../discover.ts";
import { checkSitemapUrl, resolveOptions, type SitemapTreeOptions } from "../options.ts";
import {
  formatValidationReport,
  lintSitemapDocument,
  mergeProblems,
  type SitemapProblem,
  validateSitemapTree,
} from "../validate.ts";
import { createParsePool, defaultWorkerCount } from "../workers/pool.ts";
import { type CliIO, isBrokenPipe } from "./_io.ts";
import type { RunArgs } from "./_args.ts";
import { crawlOptions, readInput } from "./_options.ts";
import { PROGRAM } from "./_spec.ts";
import { crawlOutcome } from "./_outcome.ts";
import { IndexWebsiteSitemap } from "../objects/sitemap.ts";

/**
 * Runs `lint` with the arguments after the command name.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @returns 0 without errors, 1 with errors or an unreachable site, 3 when the site has no sitemap.
 * @throws {UsageError} For a value the crawl options refuse.
 *
 * @example Lint a site from a script
 * ```ts ignore
 * import { lintCommand } from "./lint.ts";
 * import { parseArgs } from "./_args.ts";
 * import { processIO } from "./_io.ts";
 *
 * const parsed = parseArgs(["lint", "https://www.example.com/"]);
 * if (parsed.kind === "run") await lintCommand(parsed, processIO());
 * ```
 */
export async function lintCommand(parsed: RunArgs, io: CliIO): Promise<number> {
  const encoder = new TextEncoder();
  const write = async (stream: "stdout" | "stderr", text: string): Promise<void> => {
    try {
      await io[stream].write(encoder.encode(text));
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
    }
  };
  const flags = parsed.flags;
  const examples = flags.integer("examples", 1)!;
  const json = flags.has("json");
  const input = readInput(parsed.operands[0]!, flags);
  if (input.kind === "file" || input.kind === "stdin") {
    throw flags.error(
      `lint reads a URL (http:// or https://), got ${JSON.stringify(parsed.operands[0])}`,
    );
  }
  const url = input.url;
  const options: SitemapTreeOptions = {
    ...crawlOptions(flags),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
  let resolved;
  try {
    resolved = resolveOptions(
      input.kind === "sitemap" ? checkSitemapUrl(url) : url,
      options,
      defaultWorkerCount(),
    );
  } catch (error) {
    throw flags.error((error as Error).message);
  }
  if (input.kind === "sitemap") {
    await write(
      "stderr",
      `${PROGRAM}: reading the sitemap at ${url} alone (--homepage to crawl its site)\n`,
    );
  }
  const pool = createParsePool({ workers: resolved.workers, jobTimeoutMs: resolved.timeoutMs });
  const raw: Promise<readonly SitemapProblem[]>[] = [];
  const inspect = (docUrl: string, bytes: Uint8Array, robots: boolean): void => {
    if (robots) return;
    raw.push((async () => {
      const inflated = await decompressIfGzip(bytes, resolved.maxSitemapBytes);
      return inflated.ok ? lintSitemapDocument(inflated.bytes, docUrl, { examples }) : [];
    })());
  };
  try {
    const crawler = new Crawler(resolved, pool, null, inspect);
    const tree = input.kind === "sitemap"
      ? await abortable(crawler.crawlSitemap(checkSitemapUrl(url).href), resolved.signal).then(
        ({ root, stats }) => new IndexWebsiteSitemap(resolved.homepage.href, [root], stats),
      )
      : await abortable(crawler.crawlWebsite(), resolved.signal);
    const outcome = crawlOutcome(tree.stats);
    if (outcome.status !== 0) {
      await write("stderr", `${PROGRAM}: ${outcome.reason}\n`);
      return outcome.status;
    }
    const inTree = new Set([...tree.allSitemaps()].map((node) => node.url));
    const documents = (await Promise.all(raw)).flat().filter((p) => inTree.has(p.sitemap));
    const order = [...tree.allSitemaps()].map((node) => node.url);
    const report = mergeProblems(validateSitemapTree(tree, { examples }), documents, order);
    await write(
      "stdout",
      json ? JSON.stringify(report) + "\n" : formatValidationReport(report).join("\n") + "\n",
    );
    return report.errors > 0 ? 1 : 0;
  } catch (error) {
    if (io.signal?.aborted) return 130;
    await write("stderr", `${PROGRAM}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    pool.close();
  }
}
