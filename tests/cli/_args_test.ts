import assert from "node:assert/strict";
import { parseArgs, type ParsedFlags, UsageError } from "../../src/cli/_args.ts";
import { crawlOptions, lsOutput, readInput } from "../../src/cli/_options.ts";
import { COMMANDS } from "../../src/cli/_spec.ts";

const URL_ = "https://example.com/";

function flags(...args: string[]): ParsedFlags {
  const parsed = parseArgs(["ls", URL_, ...args]);
  if (parsed.kind !== "run") throw new Error(`expected a run, got ${parsed.kind}`);
  return parsed.flags;
}

/** The message of the usage error `args` give, checked the way `ls` checks them. */
function usageError(args: string[]): string {
  try {
    const parsed = parseArgs(args);
    if (parsed.kind === "run") {
      lsOutput(parsed.flags);
      crawlOptions(parsed.flags);
      readInput(parsed.operands[0]!, parsed.flags);
      parsed.flags.nonEmpty("log-file", "a file name");
      parsed.flags.nonEmpty("cache", "a directory");
    }
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  throw new Error(`expected a usage error for ${args.join(" ")}`);
}

Deno.test("parseArgs() reads every format, long, short, =value and attached", () => {
  for (const format of ["tabtree", "pages", "json", "ndjson", "csv", "summary", "histogram"]) {
    for (
      const args of [["--format", format], [`--format=${format}`], ["-f", format], [`-f${format}`]]
    ) {
      assert.equal(lsOutput(flags(...args)).format, format);
    }
  }
  assert.equal(lsOutput(flags("-f", "json", "-f", "csv")).format, "csv", "the last one wins");
});

Deno.test("parseArgs() reads switches bundled or not, and counts -v", () => {
  const o = crawlOptions(
    flags("-rk", "--no-feeds", "--respect-crawl-delay", "--allow-private-networks"),
  );
  assert.deepEqual(
    [o.useRobots, o.useKnownPaths, o.useFeeds, o.respectCrawlDelay, o.allowPrivateNetworks],
    [false, false, false, true, true],
  );
  assert.equal(flags("-v").count("verbose"), 1);
  assert.equal(flags("-vv").count("verbose"), 2);
  assert.equal(flags("-v", "--verbose").count("verbose"), 2);
  const f = flags("-vlout.log");
  assert.deepEqual([f.count("verbose"), f.string("log-file")], [1, "out.log"]);
  assert.equal(lsOutput(flags("-uvfpages")).stripUrl, true);
});

Deno.test("parseArgs() takes the command first, flags anywhere after it, and -- ends the flags", () => {
  const parsed = parseArgs(["ls", "-f", "pages", URL_]);
  assert.ok(parsed.kind === "run");
  assert.deepEqual([parsed.command.name, parsed.operands], ["ls", [URL_]]);
  const dashed = parseArgs(["ls", "--", "-"]);
  assert.ok(dashed.kind === "run");
  assert.deepEqual(dashed.operands, ["-"]);
  const lint = parseArgs(["lint", URL_, "-H", "X: 1", "--examples", "2"]);
  assert.ok(lint.kind === "run");
  assert.deepEqual([lint.command.name, lint.flags.integer("examples", 1)], ["lint", 2]);
});

Deno.test("parseArgs() gives help and version precedence over everything else", () => {
  assert.deepEqual(parseArgs(["--help"]), { kind: "help", command: null });
  assert.deepEqual(parseArgs(["-h"]), { kind: "help", command: null });
  assert.deepEqual(parseArgs(["ls", "ftp://x", "--format", "nope", "-h"]), {
    kind: "help",
    command: COMMANDS.get("ls"),
  });
  assert.deepEqual(parseArgs(["lint", "--help"]), { kind: "help", command: COMMANDS.get("lint") });
  assert.deepEqual(parseArgs(["--version"]), { kind: "version" });
  assert.deepEqual(parseArgs(["ls", "--version"]), { kind: "version" });
});

Deno.test("parseArgs() names the flag in every usage error", () => {
  const cases: [string[], string][] = [
    [[], "Missing command (one of ls, lint, diff, watch, report, batch, enqueue, worker)"],
    [
      ["list", URL_],
      'Unknown command "list" (one of ls, lint, diff, watch, report, batch, enqueue, worker)',
    ],
    [
      [URL_],
      'Unknown command "https://example.com/" (one of ls, lint, diff, watch, report, batch, enqueue, worker)',
    ],
    [["ls"], "Missing URL|FILE|-"],
    [
      ["ls", URL_, "https://example.org/"],
      "Expected one URL|FILE|- operand, got 2: https://example.com/ https://example.org/",
    ],
    [["ls", "ftp://example.com/"], 'URL must be http or https, got "ftp://example.com/"'],
    [["ls", "file:///etc/passwd"], 'URL must be http or https, got "file:///etc/passwd"'],
    [["ls", URL_, "--bogus"], 'Unknown option "--bogus"'],
    [["ls", URL_, "--bogus=1"], 'Unknown option "--bogus"'],
    [["ls", URL_, "-x"], 'Unknown option "-x"'],
    [["ls", URL_, "-rx"], 'Unknown option "-x"'],
    [["lint", URL_, "-f", "pages"], 'Unknown option "-f"'],
    [["ls", URL_, "--stats=yes"], "Option --stats takes no value"],
    [["ls", URL_, "-f"], "Option -f needs a value (FORMAT)"],
    [["ls", URL_, "--format", "--stats"], "Option --format needs a value (FORMAT)"],
    [
      ["ls", URL_, "--format", "xml"],
      'Option --format must be one of tabtree, pages, json, ndjson, csv, summary, histogram, sections, got "xml"',
    ],
    [["ls", URL_, "--concurrency", "0"], 'Option --concurrency must be an integer >= 1, got "0"'],
    [["ls", URL_, "--timeout", "1e3"], 'Option --timeout must be an integer >= 1, got "1e3"'],
    [["ls", URL_, "--retries", "-1"], 'Option --retries must be an integer >= 0, got "-1"'],
    [
      ["ls", URL_, "--max-connections", "x"],
      'Option --max-connections must be an integer >= 1, got "x"',
    ],
    [["ls", URL_, "--delay-ms", "0.5"], 'Option --delay-ms must be an integer >= 0, got "0.5"'],
    [["ls", URL_, "--max-sitemaps", "0"], 'Option --max-sitemaps must be an integer >= 1, got "0"'],
    [
      ["ls", URL_, "--connect-timeout", "0"],
      'Option --connect-timeout must be an integer >= 1, got "0"',
    ],
    ...["90", "0s", "5 m", "1d", "600h"].map((v): [string[], string] => [
      ["ls", URL_, "--deadline", v],
      `Option --deadline must be a duration such as 90s, 5m or 1h (at most 596h), or none, got "${v}"`,
    ]),
    [
      ["ls", URL_, "--max-download-bytes", "50MB"],
      'Option --max-download-bytes must be a byte count such as 1048576 or 50M, got "50MB"',
    ],
    [
      ["ls", URL_, "--since", "yesterday"],
      'Option --since must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got "yesterday"',
    ],
    [["ls", URL_, "-H", "NoColon"], 'Option -H must look like "Name: value", got "NoColon"'],
    [["ls", URL_, "-H", "-x"], 'Option -H must look like "Name: value", got "-x"'],
    [["ls", URL_, "-vH", "-x", "--bogus"], 'Unknown option "--bogus"'],
    [["ls", URL_, "--since", "-1", "--stats=1"], "Option --stats takes no value"],
    [["ls", URL_, "--header", "X: a\nb"], 'Option --header value must be one line, got "X: a\\nb"'],
    [
      ["ls", URL_, "--header", "X-A: 日本"],
      'Option --header value must be Latin-1 (HTTP header values are bytes; percent-encode others), got "X-A: 日本"',
    ],
    [
      ["ls", URL_, "--user-agent", "bot/日本"],
      'Option --user-agent must be one line of Latin-1, got "bot/日本"',
    ],
    [
      ["ls", URL_, "--proxy", "proxy.example:3128"],
      'Option --proxy must be an http(s) URL such as http://proxy.example:3128, got "proxy.example:3128"',
    ],
    [["ls", URL_, "--log-file="], "Option --log-file needs a file name"],
    [["ls", URL_, "--extra-path="], "Option --extra-path needs a path"],
    [["ls", URL_, "--cache="], "Option --cache needs a directory"],
    [["ls", URL_, "--skip-unchanged"], "Option --skip-unchanged needs --since"],
    [
      ["ls", URL_, "-k", "--extra-path", "a.xml"],
      "Option --extra-path has no effect with --no-known",
    ],
    [
      ["ls", URL_, "-u", "-f", "json"],
      "Option --strip-url applies to the tabtree, pages and sections formats, not json",
    ],
    [
      ["ls", URL_, "--unique"],
      "Option --unique applies to the pages, ndjson and csv formats, not tabtree",
    ],
    [
      ["ls", URL_, "--no-pages", "-f", "csv"],
      "Option --no-pages applies to the tabtree format, not csv",
    ],
    [["ls", URL_, "--json"], "Option --json in ls applies to --stats; add --stats"],
    [
      ["ls", URL_, "--sitemap-columns", "-f", "pages"],
      "Option --sitemap-columns applies to the ndjson and csv formats, not pages",
    ],
    [["ls", URL_, "--depth", "2"], "Option --depth applies to the sections format, not tabtree"],
    [
      ["ls", URL_, "-f", "sections", "--depth", "-1"],
      'Option --depth must be an integer >= 0, got "-1"',
    ],
  ];
  for (const [args, expected] of cases) {
    assert.equal(usageError(args), expected, args.join(" "));
  }
});
