/**
 * `sitemap-tree lint URL`: crawls the site like `ls`, then reports protocol
 * problems per sitemap (see `validateSitemapTree()` and
 * `lintSitemapDocument()`): as text, or with `--json` as one JSON object.
 * Exit status 1 when there is at least one error (warnings alone give 0), or
 * the crawl failed; 2 for a usage error.
 *
 * @module
 */
import { abortable } from "../_abortable.ts";
import { decompressIfGzip } from "../decompress.ts";
import { Crawler } from "../discover.ts";
import { resolveOptions, type SitemapTreeOptions } from "../options.ts";
import {
  formatValidationReport,
  lintSitemapDocument,
  mergeProblems,
  type SitemapProblem,
  validateSitemapTree,
} from "../validate.ts";
import { createParsePool, defaultWorkerCount } from "../workers/pool.ts";
import { type CliIO, isBrokenPipe } from "./_io.ts";

/** The usage text of `lint`. */
export const LINT_USAGE: string = `usage: sitemap-tree lint [options] URL

Finds every sitemap the website at URL publishes and reports protocol
problems per sitemap, with the offending URL and value: more than 50,000
URLs or 50 MB, a <loc> that is not an absolute http(s) URL, pages on another
host, unparseable or future lastmods, one lastmod for every page, priority
outside 0..1, unknown changefreq, URLs in several sitemaps, redirects and
statuses other than 200.

Options:
      --json            the report as one JSON object (problems, errors, warnings)
  -r, --no-robots       do not read robots.txt
  -k, --no-known        do not probe the well-known sitemap paths
      --no-feeds        do not read the homepage for feed links
      --examples N      problems listed per sitemap and kind (default 5; all are counted)
      --timeout MS      time for one sitemap's whole response (default 30000)
      --concurrency N   requests in flight per host (default 4)
      --user-agent UA   the User-Agent of every request
  -H, --header "Name: value"  an extra request header (repeatable)
  -h, --help            this text

Exit status: 0 no errors (warnings allowed), 1 errors found or the crawl
failed, 2 usage error.
`;

interface LintArgs {
  readonly url: string;
  readonly json: boolean;
  readonly examples: number;
  readonly options: SitemapTreeOptions;
}

class LintUsageError extends Error {}

function parseLintArgs(args: readonly string[]): LintArgs | "help" {
  let url: string | null = null;
  let json = false;
  let examples = 5;
  const headers: Record<string, string> = {};
  const options: { -readonly [K in keyof SitemapTreeOptions]: SitemapTreeOptions[K] } = {};
  const positive = (name: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !/^\d+$/.test(value) || n < 1) {
      throw new LintUsageError(
        `${name} needs a positive whole number, got ${JSON.stringify(value ?? "")}`,
      );
    }
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => eq > 0 ? arg.slice(eq + 1) : args[++i];
    switch (name) {
      case "-h":
      case "--help":
        return "help";
      case "--json":
        json = true;
        break;
      case "-r":
      case "--no-robots":
        options.useRobots = false;
        break;
      case "-k":
      case "--no-known":
        options.useKnownPaths = false;
        break;
      case "--no-feeds":
        options.useFeeds = false;
        break;
      case "--examples":
        examples = positive(name, value());
        break;
      case "--timeout":
        options.timeoutMs = positive(name, value());
        break;
      case "--concurrency":
        options.concurrency = positive(name, value());
        break;
      case "--user-agent": {
        const ua = value();
        if (ua === undefined) throw new LintUsageError("--user-agent needs a value");
        options.userAgent = ua;
        break;
      }
      case "-H":
      case "--header": {
        const header = value() ?? "";
        const colon = header.indexOf(":");
        if (colon <= 0) {
          throw new LintUsageError(`--header needs "Name: value", got ${JSON.stringify(header)}`);
        }
        headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
        break;
      }
      default:
        if (arg.startsWith("-") && arg !== "-") {
          throw new LintUsageError(`Unknown option ${JSON.stringify(arg)}`);
        }
        if (url !== null) throw new LintUsageError(`One URL only, got ${JSON.stringify(arg)} too`);
        url = arg;
    }
  }
  if (url === null) throw new LintUsageError("The website's URL is missing");
  if (Object.keys(headers).length > 0) options.headers = headers;
  return { url, json, examples, options };
}

/**
 * Runs `lint` with the arguments after the command name.
 *
 * @param args E.g. `["https://example.com/", "--json"]`.
 * @param io The standard streams.
 * @returns 0 without errors, 1 with errors or a failed crawl, 2 for a usage error.
 *
 * @example Lint a site from a script
 * ```ts ignore
 * import { lintCommand } from "./_lint.ts";
 * import { processIO } from "./_io.ts";
 *
 * const status = await lintCommand(["https://www.example.com/"], processIO());
 * ```
 */
export async function lintCommand(args: readonly string[], io: CliIO): Promise<number> {
  const encoder = new TextEncoder();
  const write = async (stream: "stdout" | "stderr", text: string): Promise<void> => {
    try {
      await io[stream].write(encoder.encode(text));
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
    }
  };
  let parsed: LintArgs | "help";
  try {
    parsed = parseLintArgs(args);
  } catch (error) {
    if (!(error instanceof LintUsageError)) throw error;
    await write("stderr", `sitemap-tree lint: ${error.message}\n\n${LINT_USAGE}`);
    return 2;
  }
  if (parsed === "help") {
    await write("stdout", LINT_USAGE);
    return 0;
  }
  const { url, json, examples } = parsed;
  const options: SitemapTreeOptions = {
    ...parsed.options,
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
  let resolved;
  try {
    resolved = resolveOptions(url, options, defaultWorkerCount());
  } catch (error) {
    await write("stderr", `sitemap-tree lint: ${(error as Error).message}\n\n${LINT_USAGE}`);
    return 2;
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
    const tree = await abortable(crawler.crawlWebsite(), resolved.signal);
    const inTree = new Set([...tree.allSitemaps()].map((node) => node.url));
    const documents = (await Promise.all(raw)).flat().filter((p) => inTree.has(p.sitemap));
    const report = mergeProblems(validateSitemapTree(tree, { examples }), documents);
    await write(
      "stdout",
      json ? JSON.stringify(report) + "\n" : formatValidationReport(report).join("\n") + "\n",
    );
    return report.errors > 0 ? 1 : 0;
  } catch (error) {
    if (io.signal?.aborted) return 130;
    await write("stderr", `sitemap-tree lint: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    pool.close();
  }
}
