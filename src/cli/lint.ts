/**
 * `sitemap-tree lint URL`: crawls the site like `ls` and reports protocol
 * problems per sitemap (`lintSitemapTree()`): as text, or with `--json` as
 * one JSON object.
 * Its flags are the `LINT` command spec in `_spec.ts`. Exit status
 * 1 when there is at least one error (warnings alone give 0) or the site
 * could not be reached; 3 when it publishes no sitemap.
 *
 * @module
 */
import { formatValidationReport, lintSitemapTree, type SitemapLintResult } from "../../mod.ts";
import type { RunArgs } from "./_args.ts";
import { type CliIO, isBrokenPipe } from "./_io.ts";
import { crawlOptions, readInput } from "./_options.ts";
import { crawlOutcome } from "./_outcome.ts";
import { PROGRAM } from "./_spec.ts";

/**
 * Runs `lint` with the arguments after the command name.
 *
 * @param parsed The parsed command line.
 * @param io The standard streams.
 * @returns 0 without errors, 1 with errors or an unreachable site, 3 when the site has no sitemap.
 * @throws {UsageError} For a value the crawl options refuse.
 *
 * @example Lint one sitemap served from memory
 * ```ts
 * import { ok, strictEqual } from "node:assert/strict";
 * import { lintCommand } from "./lint.ts";
 * import { parseArgs } from "./_args.ts";
 * import type { CliIO } from "./_io.ts";
 *
 * const fetch = (input: RequestInfo | URL): Promise<Response> =>
 *   Promise.resolve(
 *     String(input) === "https://www.example.com/urls.txt"
 *       ? new Response("https://www.example.com/a\nhttps://elsewhere.example/b\n")
 *       : new Response(null, { status: 404 }),
 *   );
 * let stdout = "";
 * const io: CliIO = {
 *   stdout: {
 *     write: (chunk) => {
 *       stdout += new TextDecoder().decode(chunk);
 *       return Promise.resolve();
 *     },
 *   },
 *   stderr: { write: () => Promise.resolve() },
 *   stderrIsTerminal: false,
 *   fetch,
 * };
 * const parsed = parseArgs(["lint", "https://www.example.com/urls.txt"]);
 * ok(parsed.kind === "run");
 * strictEqual(await lintCommand(parsed, io), 1);
 * ok(stdout.includes("https://elsewhere.example/b"), stdout);
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
  const robotsUserAgent = flags.string("robots-agent")!.trim();
  if (robotsUserAgent === "") {
    throw flags.error(`Option ${flags.written("robots-agent")} needs a user agent, e.g. Googlebot`);
  }
  const json = flags.has("json");
  const input = readInput(parsed.operands[0]!, flags);
  if (input.kind === "file" || input.kind === "stdin") {
    throw flags.error(
      `lint reads a URL (http:// or https://), got ${JSON.stringify(parsed.operands[0])}`,
    );
  }
  const options = {
    ...crawlOptions(flags),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    from: input.kind,
    examples,
    robotsUserAgent,
  };
  if (input.kind === "sitemap") {
    await write(
      "stderr",
      `${PROGRAM}: reading the sitemap at ${input.url} alone (--homepage to crawl its site)\n`,
    );
  }
  let linted: SitemapLintResult;
  try {
    linted = await lintSitemapTree(input.url, options);
  } catch (error) {
    if (io.signal?.aborted) return 130;
    // The library checks the options before it fetches anything: a value it refuses is a usage error.
    if (error instanceof TypeError || error instanceof RangeError) throw flags.error(error.message);
    await write("stderr", `${PROGRAM}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
  const { tree, report } = linted;
  const outcome = crawlOutcome(tree.stats);
  if (outcome.status !== 0) {
    await write("stderr", `${PROGRAM}: ${outcome.reason}\n`);
    return outcome.status;
  }
  await write(
    "stdout",
    json ? JSON.stringify(report) + "\n" : formatValidationReport(report).join("\n") + "\n",
  );
  return report.errors > 0 ? 1 : 0;
}
