import assert from "node:assert/strict";
import { type LsCommand, parseArgs, UsageError } from "../../src/cli/_args.ts";

const URL_ = "https://example.com/";

const DEFAULTS: LsCommand = {
  command: "ls",
  url: URL_,
  format: "tabtree",
  useRobots: true,
  useKnownPaths: true,
  stripUrl: false,
  verbosity: 0,
  logFile: null,
  since: null,
  concurrency: null,
  timeoutMs: null,
  maxDepth: null,
  workers: null,
  userAgent: null,
  headers: {},
  extraPaths: [],
  useFeeds: true,
  cacheDir: null,
  skipUnchanged: false,
  stats: false,
};

function ls(...args: string[]): LsCommand {
  const parsed = parseArgs(["ls", URL_, ...args]);
  if (parsed.command !== "ls") throw new Error(`expected ls, got ${parsed.command}`);
  return parsed;
}

function usageError(args: string[]): string {
  try {
    parseArgs(args);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  throw new Error(`expected a usage error for ${args.join(" ")}`);
}

Deno.test("parseArgs() gives the defaults for `ls URL`", () => {
  assert.deepEqual(parseArgs(["ls", URL_]), DEFAULTS);
});

Deno.test("parseArgs() reads every format, long, short, =value and attached", () => {
  for (const format of ["tabtree", "pages", "json", "ndjson", "csv"] as const) {
    assert.deepEqual(ls("--format", format).format, format);
    assert.deepEqual(ls(`--format=${format}`).format, format);
    assert.deepEqual(ls("-f", format).format, format);
    assert.deepEqual(ls(`-f${format}`).format, format);
  }
  assert.deepEqual(ls("-f", "json", "-f", "csv").format, "csv", "the last one wins");
});

Deno.test("parseArgs() reads USP's boolean flags, bundled or not", () => {
  assert.deepEqual(ls("-r").useRobots, false);
  assert.deepEqual(ls("--no-robots").useRobots, false);
  assert.deepEqual(ls("-k").useKnownPaths, false);
  assert.deepEqual(ls("--no-known").useKnownPaths, false);
  assert.deepEqual(ls("-u").stripUrl, true);
  assert.deepEqual(ls("--strip-url").stripUrl, true);
  const bundled = ls("-rkuvv");
  assert.deepEqual(
    [bundled.useRobots, bundled.useKnownPaths, bundled.stripUrl, bundled.verbosity],
    [false, false, true, 2],
  );
  assert.deepEqual(ls("--stats").stats, true);
  assert.deepEqual(ls("--no-feeds").useFeeds, false);
});

Deno.test("parseArgs() counts -v: -v is 1, -vv and -v -v are 2, more stays 2", () => {
  assert.deepEqual(ls("-v").verbosity, 1);
  assert.deepEqual(ls("--verbose").verbosity, 1);
  assert.deepEqual(ls("-vv").verbosity, 2);
  assert.deepEqual(ls("-v", "--verbose").verbosity, 2);
  assert.deepEqual(ls("-vvv").verbosity, 2);
});

Deno.test("parseArgs() reads the log file and a short option whose value ends a bundle", () => {
  assert.deepEqual(ls("-l", "out.log").logFile, "out.log");
  assert.deepEqual(ls("--log-file=out.log").logFile, "out.log");
  const cmd = ls("-vlout.log");
  assert.deepEqual([cmd.verbosity, cmd.logFile], [1, "out.log"]);
  assert.deepEqual(ls("-vfpages").format, "pages");
});

Deno.test("parseArgs() reads the numeric options as integers", () => {
  const cmd = ls("--concurrency", "8", "--timeout=1500", "--max-depth", "0", "--workers", "0");
  assert.deepEqual(
    [cmd.concurrency, cmd.timeoutMs, cmd.maxDepth, cmd.workers],
    [8, 1500, 0, 0],
  );
});

Deno.test("parseArgs() reads --since as ISO 8601, zone-less times as UTC", () => {
  const since = (value: string): string => ls("--since", value).since!.toISOString();
  assert.deepEqual(since("2024"), "2024-01-01T00:00:00.000Z");
  assert.deepEqual(since("2024-05"), "2024-05-01T00:00:00.000Z");
  assert.deepEqual(since("2024-05-01"), "2024-05-01T00:00:00.000Z");
  assert.deepEqual(since("2024-05-01T12:30"), "2024-05-01T12:30:00.000Z");
  assert.deepEqual(since("2024-05-01 12:30:15.5"), "2024-05-01T12:30:15.500Z");
  assert.deepEqual(since("2024-05-01T12:00:00+02:00"), "2024-05-01T10:00:00.000Z");
  assert.deepEqual(since("2024-05-01T12:00:00Z"), "2024-05-01T12:00:00.000Z");
});

Deno.test("parseArgs() reads --user-agent, repeated --header and --extra-path", () => {
  const cmd = ls(
    "--user-agent",
    "probe/1.0",
    "--header",
    "X-Token: abc",
    "--header=Accept-Language:de",
    "--header",
    "x-token:  def ",
    "--extra-path",
    "custom.xml",
    "--extra-path=/a/b.xml",
  );
  assert.deepEqual(cmd.userAgent, "probe/1.0");
  assert.deepEqual(cmd.headers, { "X-Token": "abc, def", "Accept-Language": "de" });
  assert.deepEqual(cmd.extraPaths, ["custom.xml", "/a/b.xml"]);
  assert.deepEqual(ls("--header", "X-Empty:").headers, { "X-Empty": "" });
});

Deno.test("parseArgs() reads the cache directory and --skip-unchanged (with --since)", () => {
  assert.deepEqual(ls("--cache", ".sitemap-cache").cacheDir, ".sitemap-cache");
  assert.deepEqual(ls("--cache=/tmp/c").cacheDir, "/tmp/c");
  const cmd = ls("--skip-unchanged", "--since", "2024-05-01");
  assert.deepEqual([cmd.skipUnchanged, cmd.since?.toISOString()], [
    true,
    "2024-05-01T00:00:00.000Z",
  ]);
});

Deno.test("parseArgs() takes options anywhere and everything after -- as positional", () => {
  assert.deepEqual(parseArgs(["-f", "pages", "ls", URL_]), { ...DEFAULTS, format: "pages" });
  assert.deepEqual(parseArgs(["ls", "--", URL_]), DEFAULTS);
  assert.deepEqual(
    usageError(["ls", URL_, "--", "-f"]),
    "Expected one URL, got 2: https://example.com/ -f",
  );
});

Deno.test("parseArgs() gives help and version precedence over everything else", () => {
  assert.deepEqual(parseArgs(["--help"]), { command: "help" });
  assert.deepEqual(parseArgs(["-h"]), { command: "help" });
  assert.deepEqual(parseArgs(["ls", "--help"]), { command: "help" });
  assert.deepEqual(parseArgs(["ls", "ftp://x", "--format", "nope", "-h"]), { command: "help" });
  assert.deepEqual(parseArgs(["--version"]), { command: "version" });
  assert.deepEqual(parseArgs(["ls", "--version"]), { command: "version" });
});

Deno.test("parseArgs() names the problem in every usage error", () => {
  const cases: [string[], string][] = [
    [[], "Missing command (the only command is ls)"],
    [["list", URL_], 'Unknown command "list" (the only command is ls)'],
    [[URL_], 'Unknown command "https://example.com/" (the only command is ls)'],
    [["ls"], "Missing URL"],
    [
      ["ls", URL_, "https://example.org/"],
      "Expected one URL, got 2: https://example.com/ https://example.org/",
    ],
    [["ls", "example.com"], 'URL is not an absolute URL: "example.com"'],
    [["ls", "ftp://example.com/"], 'URL must be http or https, got "ftp://example.com/"'],
    [["ls", "file:///etc/passwd"], 'URL must be http or https, got "file:///etc/passwd"'],
    [["ls", URL_, "--bogus"], 'Unknown option "--bogus"'],
    [["ls", URL_, "--bogus=1"], 'Unknown option "--bogus"'],
    [["ls", URL_, "-x"], 'Unknown option "-x"'],
    [["ls", URL_, "-rx"], 'Unknown option "-x"'],
    [["ls", URL_, "-V"], 'Unknown option "-V"'],
    [["ls", URL_, "--stats=yes"], "Option --stats takes no value"],
    [["ls", URL_, "-f"], "Option -f needs a value"],
    [["ls", URL_, "--format"], "Option --format needs a value"],
    [
      ["ls", URL_, "--format", "xml"],
      'Option --format must be one of tabtree, pages, json, ndjson, csv, got "xml"',
    ],
    [
      ["ls", URL_, "-fTABTREE"],
      'Option -f must be one of tabtree, pages, json, ndjson, csv, got "TABTREE"',
    ],
    [["ls", URL_, "--concurrency", "0"], 'Option --concurrency must be an integer >= 1, got "0"'],
    [
      ["ls", URL_, "--concurrency=four"],
      'Option --concurrency must be an integer >= 1, got "four"',
    ],
    [["ls", URL_, "--timeout", "1.5"], 'Option --timeout must be an integer >= 1, got "1.5"'],
    [["ls", URL_, "--timeout", "1e3"], 'Option --timeout must be an integer >= 1, got "1e3"'],
    [["ls", URL_, "--timeout", "-5"], 'Option --timeout must be an integer >= 1, got "-5"'],
    [["ls", URL_, "--max-depth", ""], 'Option --max-depth must be an integer >= 0, got ""'],
    [
      ["ls", URL_, "--workers", "99999999999999999999"],
      'Option --workers must be an integer >= 0, got "99999999999999999999"',
    ],
    [
      ["ls", URL_, "--since", "yesterday"],
      'Option --since must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got "yesterday"',
    ],
    [
      ["ls", URL_, "--since", "2024-13-01"],
      'Option --since must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got "2024-13-01"',
    ],
    [
      ["ls", URL_, "--header", "NoColon"],
      'Option --header must look like "Name: value", got "NoColon"',
    ],
    [
      ["ls", URL_, "--header", "Bad Name: x"],
      'Option --header must look like "Name: value", got "Bad Name: x"',
    ],
    [["ls", URL_, "--header", ": x"], 'Option --header must look like "Name: value", got ": x"'],
    [["ls", URL_, "--header", "X: a\nb"], 'Option --header value must be one line, got "X: a\\nb"'],
    [["ls", URL_, "--log-file="], "Option --log-file needs a file name"],
    [["ls", URL_, "--extra-path="], "Option --extra-path needs a path"],
    [["ls", URL_, "--cache="], "Option --cache needs a directory"],
    [["ls", URL_, "--cache"], "Option --cache needs a value"],
    [["ls", URL_, "--skip-unchanged"], "Option --skip-unchanged needs --since"],
    [["ls", URL_, "--no-feeds=1"], "Option --no-feeds takes no value"],
    [
      ["ls", URL_, "-k", "--extra-path", "a.xml"],
      "Option --extra-path has no effect with --no-known",
    ],
    [
      ["ls", URL_, "-u", "-f", "json"],
      "Option --strip-url applies to the tabtree and pages formats, not json",
    ],
    [
      ["ls", URL_, "--strip-url", "-f", "csv"],
      "Option --strip-url applies to the tabtree and pages formats, not csv",
    ],
  ];
  for (const [args, expected] of cases) {
    assert.deepEqual(usageError(args), expected, args.join(" "));
  }
});
