/**
 * The command line's commands and flags, as data: each command is a
 * {@linkcode CommandSpec} (its operands, its own flags and the shared groups
 * {@linkcode CRAWL_FLAGS}, {@linkcode REPORT_FLAGS}), and its help is
 * written from it. A flag is defined once, so it means the same in every
 * command that takes it. A new command adds its spec to
 * {@linkcode COMMANDS} and a handler to the table in `cli.ts`.
 *
 * @module
 */
import {
  DEFAULTS,
  REPORT_DEFAULTS,
  SECTIONS_DEFAULTS,
  type SitemapTreesOptions,
} from "../../mod.ts";

/** The program's name in messages and usage. */
export const PROGRAM = "sitemap-tree";

/** A byte count as `--max-download-bytes` takes it, in the largest whole unit: `50M`. */
function bytesFlag(bytes: number): string {
  for (const [suffix, scale] of [["G", 1024 ** 3], ["M", 1024 ** 2], ["K", 1024]] as const) {
    if (bytes % scale === 0) return `${bytes / scale}${suffix}`;
  }
  return String(bytes);
}

/** Milliseconds as `--deadline` takes them, in the largest whole unit: `30m`. */
function durationFlag(ms: number): string {
  for (const [suffix, scale] of [["h", 3_600_000], ["m", 60_000], ["s", 1000]] as const) {
    if (ms % scale === 0) return `${ms / scale}${suffix}`;
  }
  return `${ms}ms`;
}

/** One flag: its long name, maybe a letter, and a value name when it takes a value. */
export interface FlagSpec {
  /** The long name, without `--`. */
  readonly name: string;
  /** The one-letter form, without `-`. */
  readonly short?: string;
  /** The value's name in the help (`N`, `DATE`); absent for a switch. */
  readonly value?: string;
  /** Whether it may be given more than once (each occurrence counts). */
  readonly multiple?: boolean;
  /**
   * The value when the flag is not given, for a default of the command line's
   * own; a flag that sets a library option has none, so the library's
   * default holds (see {@linkcode FlagSpec.option}).
   */
  readonly default?: string;
  /**
   * The library option the flag sets, whose default the help names (from
   * the library's defaults, not a copy of them).
   */
  readonly option?: keyof SitemapTreesOptions;
  /** The help text; further lines are indented under the first. */
  readonly help: string;
}

/** One command: its operands and flags, and the help it prints. */
export interface CommandSpec {
  readonly name: string;
  /** The operands as the usage line shows them, e.g. `URL|FILE|-`. */
  readonly operands: string;
  /** One line for the program's command list. */
  readonly summary: string;
  /** Paragraphs printed under the usage line of `COMMAND --help`. */
  readonly description: string;
  /** How many operands it takes. */
  readonly minOperands: number;
  readonly maxOperands: number;
  /** Groups of flags, each with a heading; shared groups are the same objects in every command. */
  readonly flags: readonly FlagGroup[];
  /** Lines after the flags (exit status). */
  readonly footer: string;
}

/** Flags listed under one heading. */
export interface FlagGroup {
  readonly heading: string;
  readonly flags: readonly FlagSpec[];
}

/** Where to look, what to keep, and how hard to push: every command that crawls takes these. */
export const CRAWL_FLAGS: FlagGroup = {
  heading: "Crawl",
  flags: [
    {
      name: "homepage",
      help: "treat URL as a homepage (discovery) even when it looks like a sitemap",
    },
    { name: "no-robots", option: "useRobots", short: "r", help: "do not read robots.txt" },
    {
      name: "no-known",
      option: "useKnownPaths",
      short: "k",
      help: "do not probe the well-known sitemap paths",
    },
    {
      name: "no-feeds",
      option: "useFeeds",
      help: "do not read the homepage for RSS/Atom feed links",
    },
    {
      name: "extra-path",
      option: "extraKnownPaths",
      value: "PATH",
      multiple: true,
      help: "one more well-known path to probe (repeatable; not with -k)",
    },
    {
      name: "since",
      option: "since",
      value: "DATE",
      help: "keep only pages whose lastmod is at or after DATE, or who have none\n" +
        "(ISO 8601; a date without a time is midnight UTC)",
    },
    {
      name: "skip-unchanged",
      option: "skipUnchangedSitemaps",
      help: "with --since: do not fetch children whose index lastmod is before DATE",
    },
    {
      name: "concurrency",
      option: "concurrency",
      value: "N",
      help: `requests in flight per host (default ${DEFAULTS.concurrency})`,
    },
    {
      name: "max-connections",
      option: "maxConnections",
      value: "N",
      help: `requests in flight across all hosts (default ${DEFAULTS.maxConnections})`,
    },
    {
      name: "delay-ms",
      option: "delayMs",
      value: "MS",
      help: `least time between two requests to one host (default ${DEFAULTS.delayMs})`,
    },
    {
      name: "respect-crawl-delay",
      option: "respectCrawlDelay",
      help: "honour robots.txt Crawl-delay for its host (capped at 10 s)",
    },
    {
      name: "timeout",
      option: "timeoutMs",
      value: "MS",
      help: `one sitemap's whole response, per attempt (default ${DEFAULTS.timeoutMs})`,
    },
    {
      name: "connect-timeout",
      option: "connectTimeoutMs",
      value: "MS",
      help: "response headers from a host that has not answered yet " +
        `(default ${DEFAULTS.connectTimeoutMs})`,
    },
    {
      name: "deadline",
      option: "deadlineMs",
      value: "DURATION",
      help: "a budget for each site's whole crawl, e.g. 90s, 5m, 1h, or none; what is\n" +
        `not fetched by then is invalid (default: none; batch, worker: ${
          durationFlag(DEFAULTS.siteDeadlineMs)
        } per site)`,
    },
    {
      name: "retries",
      option: "retries",
      value: "N",
      help: `retries for network errors, 408, 429, 5xx (default ${DEFAULTS.retries})`,
    },
    {
      name: "max-depth",
      option: "maxDepth",
      value: "N",
      help: `levels of nesting below robots.txt (default ${DEFAULTS.maxDepth})`,
    },
    {
      name: "max-sitemaps",
      option: "maxSitemaps",
      value: "N",
      help: `sitemaps fetched at most (default ${DEFAULTS.maxSitemaps})`,
    },
    {
      name: "max-download-bytes",
      option: "maxDownloadBytes",
      value: "BYTES",
      help: `compressed bytes read per sitemap (default ${
        bytesFlag(DEFAULTS.maxDownloadBytes)
      }; K, M, G suffixes)`,
    },
    {
      name: "allow-private-networks",
      option: "allowPrivateNetworks",
      help: "fetch sitemaps on private and loopback addresses whatever the homepage is",
    },
    {
      name: "extensions",
      option: "extensions",
      value: "WHEN",
      help: "decode image, video, news and hreflang blocks on first read (lazy) or in the\n" +
        `parse workers (eager) (default ${DEFAULTS.extensions}; eager where every page's are written:\n` +
        "ls -f json, ndjson; batch -f pages; worker)",
    },
    {
      name: "workers",
      option: "workers",
      value: "N",
      help: "parse workers; 0 parses on the main thread",
    },
    { name: "user-agent", option: "userAgent", value: "UA", help: "the User-Agent header" },
    {
      name: "header",
      option: "headers",
      short: "H",
      value: '"NAME: VALUE"',
      multiple: true,
      help: "an extra header on every request (repeatable; Latin-1 values)",
    },
    {
      name: "proxy",
      option: "proxy",
      value: "URL",
      help: "send every request through this HTTP proxy (else HTTPS_PROXY, HTTP_PROXY, NO_PROXY)",
    },
    {
      name: "cache",
      option: "cache",
      value: "DIR",
      help: "keep validators and parses in DIR; unchanged sitemaps (304) are reused",
    },
  ],
};

/** How a command tells what it did, besides its output. */
export const REPORT_FLAGS: FlagGroup = {
  heading: "Reporting",
  flags: [
    {
      name: "verbose",
      short: "v",
      multiple: true,
      help: "log each sitemap fetched or invalid; -vv logs every progress event",
    },
    {
      name: "log-file",
      short: "l",
      value: "FILE",
      help: "append log lines to FILE instead of stderr",
    },
    { name: "no-progress", help: "no progress line (none is drawn unless stderr is a terminal)" },
    {
      name: "stats",
      help: "print counters to stderr after the output (with --json: one JSON line)",
    },
    { name: "json", help: "machine-readable reports: --stats, lint's report" },
  ],
};

/** Every command takes these. */
export const META_FLAGS: FlagGroup = {
  heading: "",
  flags: [
    { name: "help", short: "h", help: "print this help and exit" },
    { name: "version", help: "print the version and exit" },
  ],
};

/** A command's `--format`, with the format used when none is given. */
function formatFlag(defaultFormat: string, help: string): FlagSpec {
  return { name: "format", short: "f", value: "FORMAT", default: defaultFormat, help };
}

/** The output formats of `ls`. */
export type OutputFormat =
  | "tabtree"
  | "pages"
  | "json"
  | "ndjson"
  | "csv"
  | "summary"
  | "histogram"
  | "sections";

/** Every output format, in the order the usage lists them. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  "tabtree",
  "pages",
  "json",
  "ndjson",
  "csv",
  "summary",
  "histogram",
  "sections",
];

const EXIT_STATUS = `Exit status: 0 at least one sitemap was read (even if some were invalid),
1 the site could not be reached, a bot wall answered instead, or another
runtime failure (one line on stderr says which), 2 usage error, 3 the site
answered but publishes no sitemap, 130 interrupted.
`;

/** `ls`: the tree, its pages or a summary. */
export const LS: CommandSpec = {
  name: "ls",
  operands: "URL|FILE|-",
  summary: "print a site's sitemap tree, its pages, a summary, a lastmod chart or its sections",
  description: `Finds every sitemap the website at URL publishes (robots.txt, well-known
paths, nested indexes) and prints the tree or its pages. A URL that is
evidently a sitemap (robots.txt, or a path ending .xml, .xml.gz, .gz, .txt,
.rss, .atom) is read alone, without discovery (stderr says so; --homepage
crawls its site instead). A FILE, or - for stdin, is parsed without network.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Output",
      flags: [
        formatFlag(
          "tabtree",
          "tabtree (default): sitemaps and pages as a tab-indented tree\n" +
            "pages: one page URL per line, as each sitemap completes\n" +
            "json: the tree as one line of JSON (toJSON(), compact)\n" +
            "ndjson: one JSON object per page, as each sitemap completes\n" +
            "csv: url,lastmod,changefreq,priority,sitemap (RFC 4180, CRLF)\n" +
            "summary: one row per sitemap, then totals (distinct, duplicate pages)\n" +
            "histogram: a bar chart of pages by lastmod month\n" +
            "sections: pages per path prefix, their share, lastmod range, sitemaps",
        ),
        {
          name: "depth",
          value: "N",
          help:
            `sections: path segments per section (default ${SECTIONS_DEFAULTS.depth}; 0 groups by host)`,
        },
        {
          name: "strip-url",
          short: "u",
          help: "print URLs on the site's host as paths (tabtree, pages, sections)",
        },
        { name: "unique", help: "print each page once (pages, ndjson, csv)" },
        { name: "no-pages", help: "tabtree: the sitemaps only, without their pages" },
        {
          name: "sitemap-columns",
          help: "ndjson, csv: add each sitemap's Last-Modified, ETag and download date\n" +
            "(advertools' columns; written once the crawl is done)",
        },
        {
          name: "save",
          value: "FILE",
          help: "also write the tree as a snapshot to FILE, for diff (written whole,\n" +
            "by rename, once the crawl is done; not when it read no sitemap)",
        },
      ],
    },
    CRAWL_FLAGS,
    REPORT_FLAGS,
    META_FLAGS,
  ],
  footer: EXIT_STATUS,
};

/** The output formats of `diff` and `watch`. */
export type ChangeFormat = "tabtree" | "ndjson" | "summary";

/** Every change format, in the order the usage lists them. */
export const CHANGE_FORMATS: readonly ChangeFormat[] = ["tabtree", "ndjson", "summary"];

/** The output flags of `diff` and `watch`. */
const CHANGE_OUTPUT: readonly FlagSpec[] = [
  formatFlag(
    "tabtree",
    "tabtree (default): a line per change, grouped by sitemap: + added,\n" +
      "- removed, ~ changed (fields as before → after), ? unavailable\n" +
      "ndjson: one JSON object per change (nothing when nothing changed)\n" +
      "summary: pages and sitemaps per kind of change",
  ),
  {
    name: "strip-url",
    short: "u",
    help: "tabtree: print URLs on the site's host as paths",
  },
];

/** `diff`: what changed between two versions of a site. */
export const DIFF: CommandSpec = {
  name: "diff",
  operands: "BEFORE AFTER",
  summary: "print what changed between two snapshots, JSON trees or crawls of a site",
  description: `Compares two versions of a site's sitemaps and prints what changed: pages
added, removed, changed (naming the fields: lastModified, changeFrequency,
priority, images, videos, alternates, newsStory, sitemap when it moved) or
unavailable (their sitemap could not be read in AFTER: an outage is not a
deletion), and sitemaps added, removed or changed. BEFORE and AFTER are each a
snapshot (ls --save), a JSON tree (ls -f json), a sitemap file, or a URL
crawled now with the crawl flags.`,
  minOperands: 2,
  maxOperands: 2,
  flags: [
    { heading: "Output", flags: CHANGE_OUTPUT },
    CRAWL_FLAGS,
    {
      heading: "Reporting",
      flags: REPORT_FLAGS.flags.filter((f) =>
        ["verbose", "log-file", "no-progress"].includes(f.name)
      ),
    },
    META_FLAGS,
  ],
  footer: `Exit status: 0 compared (whether or not anything changed), 1 a side could
not be read (a damaged snapshot: one line says what is wrong) or its site not
reached, 2 usage error, 3 a URL's site answered but publishes no sitemap,
130 interrupted.
`,
};

const STATE: FlagSpec = {
  name: "state",
  value: "DIR",
  help: "keep each site's last good snapshot, and the crawl cache, in DIR",
};

/** `watch`: the cron form of `diff`. */
export const WATCH: CommandSpec = {
  name: "watch",
  operands: "URL",
  summary: "print what changed on a site since the last run (state kept in --state DIR)",
  description: `The cron form of diff. The first run crawls URL, records its state in DIR and
says so on stderr. Each later run crawls again with the cache in DIR (an
unchanged sitemap costs one conditional request and no parse), prints what
changed since the last good run ("no changes" when nothing did), then replaces
the state (written whole, by rename). A run whose crawl fails (the site
unreachable, or no sitemap) leaves the state as it was and exits non-zero, so
the next good run compares with the last good state. A sitemap that cannot be
read keeps its last pages in the state and is reported (? lines) on each run
until it answers again. A DIR may hold many sites (batch --state uses the same
layout); two runs for one site at once are refused (a lock file beside its
state, with the process id).`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Output",
      flags: [{ ...STATE, help: STATE.help + " (required)" }, ...CHANGE_OUTPUT],
    },
    CRAWL_FLAGS,
    REPORT_FLAGS,
    META_FLAGS,
  ],
  footer: `Exit status: 0 the changes were printed and the state replaced (or the first
state recorded), 1 the site could not be reached (the state is kept), the state
is damaged, in use by another run, or cannot be written, 2 usage error, 3 the
site answered but publishes no sitemap (the state is kept), 130 interrupted.
`,
};

/** `lint`: protocol problems per sitemap. */
export const LINT: CommandSpec = {
  name: "lint",
  operands: "URL",
  summary: "report protocol problems per sitemap (exit 1 when there are errors)",
  description: `Finds every sitemap the website at URL publishes (or reads the one sitemap
URL names) and reports protocol problems per sitemap, in tree order, with the
offending URL and value: more than 50,000 URLs or 50 MB, a <loc> that is not an
absolute http(s) URL, pages on another host, unparseable or future lastmods,
one lastmod for every page, priority outside 0..1, unknown changefreq, URLs in
several sitemaps, redirects and statuses other than 200; pages and sitemaps
that robots.txt disallows (for --robots-agent); hreflang codes that are no
language or region, alternates that do not link back, sets that leave the page
out or give one code two URLs.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Report",
      flags: [
        {
          name: "examples",
          value: "N",
          default: "5",
          help: "problems listed per sitemap and kind (default 5; all are counted)",
        },
        {
          name: "robots-agent",
          value: "UA",
          default: "*",
          help: "check robots.txt rules as this crawler does (default *, the rules of\n" +
            "crawlers without a group of their own; e.g. Googlebot, as Search Console)",
        },
      ],
    },
    CRAWL_FLAGS,
    { heading: "Reporting", flags: REPORT_FLAGS.flags.filter((f) => f.name === "json") },
    META_FLAGS,
  ],
  footer: `Exit status: 0 no errors (warnings allowed), 1 errors found, the site
could not be reached or another runtime failure, 2 usage error, 3 the site
answered but publishes no sitemap.
`,
};

/** `report`: one self-contained HTML page of a site's sitemaps. */
export const REPORT: CommandSpec = {
  name: "report",
  operands: "URL|FILE|-",
  summary: "write a site's sitemaps as one self-contained HTML page",
  description: `Crawls the website at URL as ls does (a URL that is evidently a sitemap is
read alone), or reads FILE or - (a snapshot from ls --save, the JSON of
ls -f json, or a sitemap), and writes one HTML page: the outcome and totals, the sitemap
tree, pages by lastmod month and by section, the protocol problems, and with
--against what changed since an earlier crawl. It loads nothing when viewed
and runs no script from the site. The file is written whole (to a temporary
name, then renamed), also when the site cannot be reached or publishes no
sitemap, so the report shows that outcome; the exit status says it too.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Output",
      flags: [
        {
          name: "out",
          short: "o",
          value: "FILE",
          help: "where the report goes (required); - for stdout",
        },
        {
          name: "against",
          value: "FILE",
          help: "an earlier crawl (ls --save or ls -f json output): show the changes",
        },
        {
          name: "sample",
          value: "N",
          default: String(REPORT_DEFAULTS.sample),
          help:
            `page URLs listed per sitemap and per kind of change (default ${REPORT_DEFAULTS.sample})`,
        },
        {
          name: "depth",
          value: "N",
          default: String(REPORT_DEFAULTS.depth),
          help: `path segments of a section (default ${REPORT_DEFAULTS.depth})`,
        },
        {
          name: "no-problems",
          help: "leave out the protocol problems (checking a large tree takes longer than\n" +
            "crawling it)",
        },
      ],
    },
    CRAWL_FLAGS,
    REPORT_FLAGS,
    META_FLAGS,
  ],
  footer: `Exit status: 0 the report was written (at least one sitemap was read, or
FILE held a tree), 1 the site could not be reached (the report is written and
says so) or another runtime failure (one line on stderr says which; no
report), 2 usage error, 3 the site answered but publishes no sitemap (the
report is written and says so), 130 interrupted.
`,
};

/**
 * The crawl flags that apply to a list of homepages (`--homepage` is
 * implied); `--max-connections` spans the run, with its own default.
 */
const SITES_CRAWL_FLAGS: FlagGroup = {
  heading: CRAWL_FLAGS.heading,
  flags: CRAWL_FLAGS.flags.filter((f) => f.name !== "homepage").map((f) =>
    f.name === "max-connections"
      ? {
        ...f,
        help: `requests in flight across all sites (default ${DEFAULTS.siteMaxConnections})`,
      }
      : f
  ),
};

const SITE_CONCURRENCY: FlagSpec = {
  name: "site-concurrency",
  option: "siteConcurrency",
  value: "N",
  help: `sites crawled at once (default ${DEFAULTS.siteConcurrency})`,
};

/** `batch`: many sites in one process. */
export const BATCH: CommandSpec = {
  name: "batch",
  operands: "FILE|-",
  summary: "find the sitemaps of every homepage listed in FILE, NDJSON out",
  description: `Reads one homepage per line of FILE (or stdin for -; blank lines and #
comments are skipped), crawls the sites, --site-concurrency at a time with one
connection cap and parse pool for all, and writes NDJSON as each site finishes.
A site is crawled once: a line whose normalised homepage (scheme, host, port)
an earlier line named is skipped, as enqueue does, and stderr says how many.
A line is written whole or not at all, so --resume continues a killed run.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Output",
      flags: [
        formatFlag(
          "summary",
          "summary (default): one line per site: homepage, status (ok,\n" +
            "no-sitemaps, unreachable, blocked, invalid-input), reason, sitemaps,\n" +
            "invalidSitemaps, pages, distinctPages, bytes, requests, ms\n" +
            "(with --state: state, changes)\n" +
            'pages: one line per page with its site and sitemap, then {"site":…,"summary":{…}}\n' +
            'changes: with --state, one line per change with its site, then {"site":…,"summary":{…}}',
        ),
        { name: "out", short: "o", value: "FILE", help: "append to FILE instead of stdout" },
        { name: "resume", help: "with --out: skip the sites already finished in FILE" },
        {
          ...STATE,
          help: STATE.help + ", as watch does;\n" +
            "summary lines gain the site's state and change counts",
        },
        SITE_CONCURRENCY,
      ],
    },
    SITES_CRAWL_FLAGS,
    { heading: "Reporting", flags: REPORT_FLAGS.flags.filter((f) => f.name === "no-progress") },
    META_FLAGS,
  ],
  footer: `Exit status: 0 the run completed (a site's failure is data in the output),
1 it could not run (input or output unusable) or a site's state could not be
written (one stderr line per site), 2 usage error, 130 interrupted.
`,
};

const REDIS: FlagSpec = {
  name: "redis",
  value: "URL",
  help: "redis://[user:password@]host:port[/db] (required)",
};
const QUEUE: FlagSpec = { name: "queue", value: "NAME", help: "the queue (default sitemap-sites)" };

/** How long `enqueue` and `worker` wait for a Redis that does not answer, ms. */
export const REDIS_TIMEOUT_MS: Readonly<Record<"enqueue" | "worker", number>> = Object.freeze({
  enqueue: 10_000,
  worker: 60_000,
});

/** How long a stopped worker's jobs in hand may take to finish before they go back to the queue, ms. */
export const WORKER_GRACE_MS = 5_000;

function redisTimeout(command: "enqueue" | "worker", when: string): FlagSpec {
  return {
    name: "redis-timeout",
    value: "MS",
    default: String(REDIS_TIMEOUT_MS[command]),
    help: `give up (exit 1) when Redis has not answered\nfor MS${when} (default ${
      REDIS_TIMEOUT_MS[command]
    })`,
  };
}

/** `enqueue`: homepages onto a BullMQ queue. */
export const ENQUEUE: CommandSpec = {
  name: "enqueue",
  operands: "FILE|-",
  summary: "put one job per homepage of FILE on a BullMQ queue in Redis",
  description: `Adds one job per homepage line of FILE (or stdin) to the queue; the job id is
the normalised homepage, so a site enqueued twice is one job. Prints
{"offered":N,"added":M}. Workers (the worker command) crawl the jobs.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    { heading: "Queue", flags: [REDIS, QUEUE, redisTimeout("enqueue", "")] },
    META_FLAGS,
  ],
  footer: "Exit status: 0 done, 1 Redis unusable, 2 usage error, 130 interrupted.\n",
};

/** `worker`: crawls a BullMQ queue's sites. */
export const WORKER: CommandSpec = {
  name: "worker",
  operands: "",
  summary: "crawl the sites of a BullMQ queue, one NDJSON file per site under --out DIR",
  description: `Takes site jobs from the queue, --site-concurrency at a time, and writes each
site's pages and then its summary to one NDJSON file under DIR (written whole,
by rename); a job's return value is the summary. Any number of workers on any
number of machines may share one Redis; the jobs of a worker that dies are
taken over by BullMQ's stalled-job check. Runs until interrupted, or with
--drain until no job is waiting, delayed or active.

A site whose file cannot be written (a full disk, DIR removed or read-only)
fails at once, naming the cause, and is not crawled again (retry the failed
jobs once DIR is fixed); each failure is one stderr line, and a summary line
ends the run. SIGINT (Ctrl-C) or SIGTERM: no more jobs are taken, the jobs in
hand get --grace to finish and are then handed back to the queue; a second
signal exits at once. A lost Redis is one line, its return another.`,
  minOperands: 0,
  maxOperands: 0,
  flags: [
    {
      heading: "Queue",
      flags: [
        REDIS,
        QUEUE,
        { name: "out", short: "o", value: "DIR", help: "where the site files go (required)" },
        { name: "drain", help: "stop once the queue has no job waiting, delayed or active" },
        {
          ...STATE,
          help: STATE.help + " (shared storage for\n" +
            "a fleet); summaries gain the site's state and change counts",
        },
        redisTimeout("worker", ", at start or later"),
        {
          name: "grace",
          value: "MS",
          default: String(WORKER_GRACE_MS),
          help: "on SIGINT or SIGTERM, how long the sites in hand may take to\n" +
            `finish before they go back to the queue (default ${WORKER_GRACE_MS})`,
        },
        { name: "name", value: "NAME", help: "this worker's name (a job's processedBy)" },
        {
          name: "stalled-interval",
          value: "MS",
          help: "how often jobs of dead workers are looked for (default 30000)",
        },
        {
          name: "lock-duration",
          value: "MS",
          help: "how long a job's lock lasts unrenewed (default 30000)",
        },
        SITE_CONCURRENCY,
      ],
    },
    SITES_CRAWL_FLAGS,
    META_FLAGS,
  ],
  footer: `Exit status: 0 done, 1 Redis or DIR unusable, a site failed, or Redis lost the
queue (restarted without persistence), 2 usage error, 130 interrupted (143 by SIGTERM).
`,
};

/** The commands, in the order the program's help lists them. */
export const COMMANDS: Map<string, CommandSpec> = new Map(
  [LS, LINT, DIFF, WATCH, REPORT, BATCH, ENQUEUE, WORKER].map((c) => [c.name, c]),
);

/** The program's help: the commands, and where each one's flags are. */
export function programUsage(): string {
  const width = Math.max(...[...COMMANDS.keys()].map((n) => n.length));
  const list = [...COMMANDS.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: ${PROGRAM} COMMAND [options] ...

Commands:
${list.join("\n")}

Run "${PROGRAM} COMMAND --help" for a command's options.
  -h, --help     print this help and exit
      --version  print the version and exit
`;
}

/** The help of one command, written from its spec. */
export function commandUsage(spec: CommandSpec): string {
  const out = [`usage: ${PROGRAM} ${spec.name} [options] ${spec.operands}`, "", spec.description];
  for (const group of spec.flags) {
    out.push("", group.heading === "" ? "Other:" : `${group.heading}:`);
    for (const flag of group.flags) {
      const left = `${flag.short === undefined ? "    " : `-${flag.short}, `}--${flag.name}${
        flag.value === undefined ? "" : ` ${flag.value}`
      }`;
      const [first, ...rest] = flag.help.split("\n");
      if (left.length >= 24) {
        out.push(`  ${left}`, `  ${" ".repeat(24)}${first}`);
      } else {
        out.push(`  ${left.padEnd(24)}${first}`);
      }
      for (const line of rest) out.push(`  ${" ".repeat(24)}${line}`);
    }
  }
  out.push(
    "",
    "Options taking a value also accept --name=VALUE (long) and -fVALUE (short).",
    spec.footer,
  );
  return out.join("\n");
}
