import assert from "node:assert/strict";
import { parseArgs, type ParsedFlags } from "../../src/cli/_args.ts";
import {
  crawlOptions,
  eagerUnlessChosen,
  lsOutput,
  readInput,
  sitesOptions,
} from "../../src/cli/_options.ts";
import { batchConfig } from "../../src/cli/batch.ts";
import { CRAWL_FLAGS } from "../../src/cli/_spec.ts";

const URL_ = "https://example.com/";

/** What `ls URL` asks of the library: the switches' values, every other option left to it. */
const DEFAULT_LINE = {
  useRobots: true,
  useKnownPaths: true,
  extraKnownPaths: [],
  useFeeds: true,
  skipUnchangedSitemaps: false,
  headers: {},
};

function flags(...args: string[]): ParsedFlags {
  const parsed = parseArgs(["ls", URL_, ...args]);
  if (parsed.kind !== "run") throw new Error(`expected a run, got ${parsed.kind}`);
  return parsed.flags;
}

Deno.test("crawlOptions() and lsOutput() give the library's defaults for `ls URL`", () => {
  const f = flags();
  assert.deepEqual(crawlOptions(f), DEFAULT_LINE);
  assert.deepEqual(lsOutput(f), {
    format: "tabtree",
    stripUrl: false,
    unique: false,
    pages: true,
    sitemapColumns: false,
    save: null,
    depth: 1,
  });
  assert.deepEqual(readInput(URL_, f), { kind: "homepage", url: URL_ });
});

Deno.test("crawlOptions() maps every numeric crawl flag to its library option", () => {
  assert.deepEqual(
    crawlOptions(flags(
      "--concurrency",
      "8",
      "--max-connections=16",
      "--delay-ms",
      "250",
      "--timeout=1500",
      "--connect-timeout",
      "700",
      "--deadline",
      "90s",
      "--retries",
      "0",
      "--max-depth",
      "0",
      "--max-sitemaps",
      "5",
      "--workers",
      "0",
      "--max-download-bytes",
      "2M",
    )),
    {
      ...DEFAULT_LINE,
      concurrency: 8,
      maxConnections: 16,
      delayMs: 250,
      timeoutMs: 1500,
      connectTimeoutMs: 700,
      deadlineMs: 90_000,
      retries: 0,
      maxDepth: 0,
      maxSitemaps: 5,
      workers: 0,
      maxDownloadBytes: 2 * 1024 * 1024,
    },
  );
  const bytes = (v: string): number | undefined =>
    crawlOptions(flags("--max-download-bytes", v)).maxDownloadBytes;
  assert.deepEqual([bytes("1000"), bytes("4k"), bytes("1G")], [1000, 4096, 1024 ** 3]);
});

Deno.test("crawlOptions() reads --deadline as a duration with its unit, or none", () => {
  const deadline = (v: string): number | null | undefined =>
    crawlOptions(flags("--deadline", v)).deadlineMs;
  assert.deepEqual(
    ["1500ms", "90s", "1.5s", "5m", "1h", "none"].map(deadline),
    [1500, 90_000, 1500, 300_000, 3_600_000, null],
  );
  assert.equal("deadlineMs" in crawlOptions(flags()), false);
});

Deno.test("crawlOptions() reads --since as ISO 8601, zone-less times as UTC", () => {
  const since = (value: string): string =>
    (crawlOptions(flags("--since", value)).since as Date).toISOString();
  assert.equal(since("2024"), "2024-01-01T00:00:00.000Z");
  assert.equal(since("2024-05"), "2024-05-01T00:00:00.000Z");
  assert.equal(since("2024-05-01"), "2024-05-01T00:00:00.000Z");
  assert.equal(since("2024-05-01T12:30"), "2024-05-01T12:30:00.000Z");
  assert.equal(since("2024-05-01 12:30:15.5"), "2024-05-01T12:30:15.500Z");
  assert.equal(since("2024-05-01T12:00:00+02:00"), "2024-05-01T10:00:00.000Z");
});

Deno.test("crawlOptions() reads --user-agent, repeated -H/--header and --extra-path", () => {
  const o = crawlOptions(flags(
    "--user-agent",
    "probe/1.0",
    "-H",
    "X-Token: abc",
    "--header=Accept-Language:de",
    "--header",
    "x-token:  def ",
    "--header",
    "X-Latin: caf\u00e9",
    "--extra-path",
    "custom.xml",
    "--extra-path=/a/b.xml",
  ));
  assert.equal(o.userAgent, "probe/1.0");
  assert.deepEqual(o.headers, {
    "X-Token": "abc, def",
    "Accept-Language": "de",
    "X-Latin": "caf\u00e9",
  });
  assert.deepEqual(o.extraKnownPaths, ["custom.xml", "/a/b.xml"]);
});

Deno.test("readInput() tells a homepage from a sitemap URL, a file and stdin", () => {
  const f = flags();
  const kind = (operand: string): string => readInput(operand, f).kind;
  assert.deepEqual(
    [
      "https://example.com/",
      "https://example.com/blog",
      "https://example.com/robots.txt",
      "https://example.com/sitemap.xml",
      "https://example.com/s.XML.GZ",
      "https://example.com/s.gz",
      "https://example.com/urls.txt",
      "https://example.com/feed.rss",
      "https://example.com/feed.atom",
      "https://example.com/sitemap.xml?page=2",
      "-",
      "sitemap.xml",
      "./dir/urls.txt",
    ].map(kind),
    [
      "homepage",
      "homepage",
      "sitemap",
      "sitemap",
      "sitemap",
      "sitemap",
      "sitemap",
      "sitemap",
      "sitemap",
      "sitemap",
      "stdin",
      "file",
      "file",
    ],
  );
  assert.equal(readInput("https://example.com/sitemap.xml", flags("--homepage")).kind, "homepage");
});

Deno.test("crawlOptions() sets the library option each crawl flag's spec names", () => {
  const samples: Record<string, string> = {
    N: "3",
    MS: "1500",
    DURATION: "90s",
    BYTES: "2M",
    DATE: "2024-05-01",
    PATH: "a.xml",
    UA: "probe/1.0",
    '"NAME: VALUE"': "X-A: 1",
    URL: "http://proxy.example:3128",
    DIR: "cache-dir",
    WHEN: "eager",
  };
  const base = crawlOptions(flags()) as Record<string, unknown>;
  const named = CRAWL_FLAGS.flags.filter((flag) => flag.option !== undefined);
  for (const flag of named) {
    const args = flag.value === undefined
      ? [`--${flag.name}`]
      : [`--${flag.name}`, samples[flag.value]!];
    if (flag.name === "skip-unchanged") args.push("--since", "2024-05-01");
    const options = crawlOptions(flags(...args)) as Record<string, unknown>;
    assert.notDeepEqual(options[flag.option!], base[flag.option!], flag.name);
  }
  const batch = parseArgs(["batch", "-", "--site-concurrency", "3"]);
  assert.ok(batch.kind === "run");
  assert.equal(sitesOptions(batch.flags).siteConcurrency, 3);
  assert.equal(named.length, 24);
});

Deno.test("--extensions takes lazy or eager; eagerUnlessChosen() picks eager only when it is not given", () => {
  assert.equal(crawlOptions(flags("--extensions", "lazy")).extensions, "lazy");
  assert.equal(crawlOptions(flags("--extensions=eager")).extensions, "eager");
  assert.throws(
    () => crawlOptions(flags("--extensions", "later")),
    { message: 'Option --extensions must be one of lazy, eager, got "later"' },
  );
  assert.equal(eagerUnlessChosen(crawlOptions(flags())).extensions, "eager");
  assert.equal(eagerUnlessChosen(crawlOptions(flags("--extensions", "lazy"))).extensions, "lazy");
});

Deno.test("batch -f pages decodes extensions in the parse workers; -f summary leaves them for a read", () => {
  const batch = (...args: string[]): ParsedFlags => {
    const parsed = parseArgs(["batch", "-", ...args]);
    if (parsed.kind !== "run") throw new Error(`expected a run, got ${parsed.kind}`);
    return parsed.flags;
  };
  assert.equal(batchConfig(["-"], batch("--format", "pages")).options.extensions, "eager");
  assert.equal(
    batchConfig(["-"], batch("--format", "pages", "--extensions", "lazy")).options.extensions,
    "lazy",
  );
  assert.equal(batchConfig(["-"], batch()).options.extensions, undefined);
});
