/**
 * The command line's one argument parser, for every command, on the
 * runtime's own `node:util` `parseArgs` (Deno, Bun and Node all have it).
 *
 * A command is a {@linkcode CommandSpec}: its operands, its own flags and
 * the shared ones ({@linkcode CRAWL_FLAGS}, {@linkcode REPORT_FLAGS}). A flag
 * is defined once, so it means the same in every command that takes it, and
 * its value is checked once ({@linkcode ParsedFlags}), so the same mistake gets
 * the same message everywhere: one line naming the flag as it was written.
 * A new command adds its spec to {@linkcode COMMANDS} and a handler in
 * `cli.ts`.
 *
 * @module
 */
import { parseArgs as parseTokens } from "node:util";
import type { SitemapTreeOptions } from "../options.ts";
import { MAX_TIMER_MS } from "../_option_checks.ts";

/** The program's name in messages and usage. */
export const PROGRAM = "sitemap-tree";

/** A command line that cannot be run; the message is one line naming the bad flag or value. */
export class UsageError extends Error {
  /** The command whose `--help` explains it, or null for the program's. */
  readonly command: string | null;
  /**
   * @param message One line, naming the offending argument.
   * @param command The command it belongs to.
   */
  constructor(message: string, command: string | null = null) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
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
    { name: "no-robots", short: "r", help: "do not read robots.txt" },
    { name: "no-known", short: "k", help: "do not probe the well-known sitemap paths" },
    { name: "no-feeds", help: "do not read the homepage for RSS/Atom feed links" },
    {
      name: "extra-path",
      value: "PATH",
      multiple: true,
      help: "one more well-known path to probe (repeatable; not with -k)",
    },
    {
      name: "since",
      value: "DATE",
      help: "keep only pages whose lastmod is at or after DATE, or who have none\n" +
        "(ISO 8601; a date without a time is midnight UTC)",
    },
    {
      name: "skip-unchanged",
      help: "with --since: do not fetch children whose index lastmod is before DATE",
    },
    { name: "concurrency", value: "N", help: "requests in flight per host (default 4)" },
    {
      name: "max-connections",
      value: "N",
      help: "requests in flight across all hosts (default 64)",
    },
    {
      name: "delay-ms",
      value: "MS",
      help: "least time between two requests to one host (default 0)",
    },
    {
      name: "respect-crawl-delay",
      help: "honour robots.txt Crawl-delay for its host (capped at 10 s)",
    },
    {
      name: "timeout",
      value: "MS",
      help: "one sitemap's whole response, per attempt (default 30000)",
    },
    {
      name: "connect-timeout",
      value: "MS",
      help: "response headers from a host that has not answered yet (default 10000)",
    },
    {
      name: "deadline",
      value: "DURATION",
      help: "a budget for each site's whole crawl, e.g. 90s, 5m, 1h, or none; what is\n" +
        "not fetched by then is invalid (default: none; batch, worker: 30m per site)",
    },
    { name: "retries", value: "N", help: "retries for network errors, 408, 429, 5xx (default 2)" },
    { name: "max-depth", value: "N", help: "levels of nesting below robots.txt (default 11)" },
    { name: "max-sitemaps", value: "N", help: "sitemaps fetched at most (default 10000)" },
    {
      name: "max-download-bytes",
      value: "BYTES",
      help: "compressed bytes read per sitemap (default 50M; K, M, G suffixes)",
    },
    {
      name: "allow-private-networks",
      help: "fetch sitemaps on private and loopback addresses whatever the homepage is",
    },
    { name: "workers", value: "N", help: "parse workers; 0 parses on the main thread" },
    { name: "user-agent", value: "UA", help: "the User-Agent header" },
    {
      name: "header",
      short: "H",
      value: '"NAME: VALUE"',
      multiple: true,
      help: "an extra header on every request (repeatable; Latin-1 values)",
    },
    {
      name: "proxy",
      value: "URL",
      help: "send every request through this HTTP proxy (else HTTPS_PROXY, HTTP_PROXY, NO_PROXY)",
    },
    {
      name: "cache",
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

/** The output formats of `ls`. */
export type OutputFormat =
  | "tabtree"
  | "pages"
  | "json"
  | "ndjson"
  | "csv"
  | "summary"
  | "histogram";

/** Every output format, in the order the usage lists them. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  "tabtree",
  "pages",
  "json",
  "ndjson",
  "csv",
  "summary",
  "histogram",
];

const EXIT_STATUS = `Exit status: 0 at least one sitemap was read (even if some were invalid),
1 the site could not be reached or another runtime failure (one line on
stderr says which), 2 usage error, 3 the site answered but publishes no
sitemap, 130 interrupted.
`;

/** `ls`: the tree, its pages or a summary. */
export const LS: CommandSpec = {
  name: "ls",
  operands: "URL|FILE|-",
  summary: "print a site's sitemap tree, its pages, a summary or a lastmod chart",
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
        {
          name: "format",
          short: "f",
          value: "FORMAT",
          help: "tabtree (default): sitemaps and pages as a tab-indented tree\n" +
            "pages: one page URL per line, as each sitemap completes\n" +
            "json: the tree as one line of JSON (toJSON(), compact)\n" +
            "ndjson: one JSON object per page, as each sitemap completes\n" +
            "csv: url,lastmod,changefreq,priority,sitemap (RFC 4180, CRLF)\n" +
            "summary: one row per sitemap, then totals (distinct, duplicate pages)\n" +
            "histogram: a bar chart of pages by lastmod month",
        },
        {
          name: "strip-url",
          short: "u",
          help: "print URLs on the site's host as paths (tabtree, pages)",
        },
        { name: "unique", help: "print each page once (pages, ndjson, csv)" },
        { name: "no-pages", help: "tabtree: the sitemaps only, without their pages" },
        {
          name: "sitemap-columns",
          help: "ndjson, csv: add each sitemap's Last-Modified, ETag and download date\n" +
            "(advertools' columns; written once the crawl is done)",
        },
      ],
    },
    CRAWL_FLAGS,
    REPORT_FLAGS,
    META_FLAGS,
  ],
  footer: EXIT_STATUS,
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
several sitemaps, redirects and statuses other than 200.`,
  minOperands: 1,
  maxOperands: 1,
  flags: [
    {
      heading: "Report",
      flags: [
        {
          name: "examples",
          value: "N",
          help: "problems listed per sitemap and kind (default 5; all are counted)",
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

/** The crawl flags that apply to a list of homepages (`--homepage` is implied). */
const SITES_CRAWL_FLAGS: FlagGroup = {
  heading: CRAWL_FLAGS.heading,
  flags: CRAWL_FLAGS.flags.filter((f) => f.name !== "homepage"),
};

const SITE_CONCURRENCY: FlagSpec = {
  name: "site-concurrency",
  value: "N",
  help: "sites crawled at once (default 16)",
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
        {
          name: "format",
          short: "f",
          value: "FORMAT",
          help: "summary (default): one line per site: homepage, status (ok,\n" +
            "no-sitemaps, unreachable, invalid-input), reason, sitemaps,\n" +
            "invalidSitemaps, pages, distinctPages, bytes, requests, ms\n" +
            'pages: one line per page with its site and sitemap, then {"site":…,"summary":{…}}',
        },
        { name: "out", short: "o", value: "FILE", help: "append to FILE instead of stdout" },
        { name: "resume", help: "with --out: skip the sites already finished in FILE" },
        SITE_CONCURRENCY,
      ],
    },
    SITES_CRAWL_FLAGS,
    { heading: "Reporting", flags: REPORT_FLAGS.flags.filter((f) => f.name === "no-progress") },
    META_FLAGS,
  ],
  footer: `Exit status: 0 the run completed (a site's failure is data in the output),
1 it could not run (input or output unusable), 2 usage error, 130 interrupted.
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
        redisTimeout("worker", ", at start or later"),
        {
          name: "grace",
          value: "MS",
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
  [LS, LINT, BATCH, ENQUEUE, WORKER].map((c) => [c.name, c]),
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
      if (left.length > 24) {
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

/** A parsed command line. */
export type ParsedArgs =
  | { readonly kind: "help"; readonly command: CommandSpec | null }
  | { readonly kind: "version" }
  | {
    readonly kind: "run";
    readonly command: CommandSpec;
    readonly operands: readonly string[];
    readonly flags: ParsedFlags;
  };

/**
 * Parses the command line (without the runtime and script name): the
 * command comes first, then its flags and operands in any order.
 *
 * @param args E.g. `["ls", "https://example.com/", "-f", "pages"]`.
 * @returns What to do.
 * @throws {UsageError} For an unknown command or flag, a missing value, or the wrong number of operands.
 */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const first = args[0];
  if (first === undefined) {
    throw new UsageError(`Missing command (one of ${[...COMMANDS.keys()].join(", ")})`);
  }
  if (first.startsWith("-") && first !== "-") {
    // `--help` wins over whatever else was typed, as it does after a command.
    if (args.includes("--help") || args.includes("-h")) return { kind: "help", command: null };
    if (args.includes("--version")) return { kind: "version" };
    throw new UsageError(
      `Missing command before ${first} (one of ${[...COMMANDS.keys()].join(", ")})`,
    );
  }
  const command = COMMANDS.get(first);
  if (command === undefined) {
    throw new UsageError(
      `Unknown command ${JSON.stringify(first)} (one of ${[...COMMANDS.keys()].join(", ")})`,
    );
  }
  const flags = parseFlags(args.slice(1), command.flags, command.name);
  // `ls --help` works whatever else was typed.
  if (flags.has("help")) return { kind: "help", command };
  if (flags.has("version")) return { kind: "version" };
  const operands = flags.operands;
  if (operands.length < command.minOperands) {
    throw new UsageError(`Missing ${command.operands}`, command.name);
  }
  if (operands.length > 0 && command.maxOperands === 0) {
    throw new UsageError(
      `${command.name} takes no operands, got ${operands.length}: ${operands.join(" ")}`,
      command.name,
    );
  }
  if (operands.length > command.maxOperands) {
    throw new UsageError(
      `Expected ${
        command.maxOperands === 1 ? "one" : command.maxOperands
      } ${command.operands} operand, got ${operands.length}: ${operands.join(" ")}`,
      command.name,
    );
  }
  return { kind: "run", command, operands, flags };
}

/** One flag as the user wrote it (`-f` or `--format`) with its value ("" for a switch). */
interface Occurrence {
  readonly written: string;
  readonly value: string;
}

function parseFlags(
  args: readonly string[],
  groups: readonly FlagGroup[],
  command: string | null,
): ParsedFlags {
  const specs = new Map<string, FlagSpec>();
  for (const group of groups) for (const flag of group.flags) specs.set(flag.name, flag);
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple: true }> =
    {};
  for (const spec of specs.values()) {
    options[spec.name] = {
      type: spec.value === undefined ? "boolean" : "string",
      ...(spec.short === undefined ? {} : { short: spec.short }),
      multiple: true,
    };
  }
  // Not strict: the tokens are checked here, so each mistake gets a message of ours.
  const { tokens } = parseTokens({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const seen = new Map<string, Occurrence[]>();
  const operands: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      operands.push(token.value);
      continue;
    }
    if (token.kind !== "option") continue;
    const spec = specs.get(token.name);
    if (spec === undefined) {
      throw new UsageError(`Unknown option ${JSON.stringify(token.rawName)}`, command);
    }
    const written = token.rawName;
    let value = "";
    if (spec.value === undefined) {
      if (token.value !== undefined) {
        throw new UsageError(`Option ${written} takes no value`, command);
      }
    } else {
      // `--format --stats` took "--stats" as the value: more likely a forgotten value.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith("--"))) {
        throw new UsageError(`Option ${written} needs a value (${spec.value})`, command);
      }
      value = token.value;
    }
    const list = seen.get(spec.name) ?? [];
    list.push({ written, value });
    seen.set(spec.name, list);
  }
  return new ParsedFlags(seen, operands, command);
}

/**
 * The flags of one command line, read through typed getters that check the
 * value and throw a {@linkcode UsageError} naming the flag. A flag given
 * twice keeps its last value, unless it is `multiple`.
 */
export class ParsedFlags {
  readonly #seen: ReadonlyMap<string, readonly Occurrence[]>;
  readonly #command: string | null;
  /** The arguments that are not flags, in order. */
  readonly operands: readonly string[];

  constructor(
    seen: ReadonlyMap<string, readonly Occurrence[]>,
    operands: readonly string[],
    command: string | null,
  ) {
    this.#seen = seen;
    this.operands = operands;
    this.#command = command;
  }

  /** Whether the flag was given. */
  has(name: string): boolean {
    return this.#seen.has(name);
  }

  /** How often it was given (`-vv` is 2). */
  count(name: string): number {
    return this.#seen.get(name)?.length ?? 0;
  }

  /** The flag as the user last wrote it, for messages (`--name` when not given). */
  written(name: string): string {
    return this.#last(name)?.written ?? `--${name}`;
  }

  /** A usage error for this command. */
  error(message: string): UsageError {
    return new UsageError(message, this.#command);
  }

  /** The last value, or null when not given. */
  string(name: string): string | null {
    return this.#last(name)?.value ?? null;
  }

  /** A value that must not be empty (a file or directory name). */
  nonEmpty(name: string, what: string): string | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    if (o.value === "") throw this.error(`Option ${o.written} needs ${what}`);
    return o.value;
  }

  /** Every value, in order. */
  strings(name: string): string[] {
    return (this.#seen.get(name) ?? []).map((o) => o.value);
  }

  /** One of `choices`. */
  choice<T extends string>(name: string, choices: readonly T[]): T | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const found = choices.find((c) => c === o.value);
    if (found === undefined) {
      throw this.error(
        `Option ${o.written} must be one of ${choices.join(", ")}, got ${JSON.stringify(o.value)}`,
      );
    }
    return found;
  }

  /** A whole number >= `min`, digits only ("1e3", "0x10" and "4.0" are more likely typos). */
  integer(name: string, min: number): number | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const n = /^[0-9]+$/.test(o.value) ? Number(o.value) : NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw this.error(
        `Option ${o.written} must be an integer >= ${min}, got ${JSON.stringify(o.value)}`,
      );
    }
    return n;
  }

  /** A byte count >= 1, with an optional binary K, M or G suffix (`50M` is 52428800). */
  bytes(name: string): number | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    const match = /^([0-9]+)([KMG]?)$/i.exec(o.value);
    const scale = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[
      (match?.[2] ?? "").toUpperCase() as "" | "K" | "M" | "G"
    ];
    const n = match === null ? NaN : Number(match[1]) * scale;
    if (!Number.isSafeInteger(n) || n < 1) {
      throw this.error(
        `Option ${o.written} must be a byte count such as 1048576 or 50M, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return n;
  }

  /**
   * A duration in milliseconds, written with its unit (`1500ms`, `90s`, `5m`,
   * `1.5h`), or null for `none`; `undefined` when not given.
   */
  duration(name: string): number | null | undefined {
    const o = this.#last(name);
    if (o === undefined) return undefined;
    if (o.value === "none") return null;
    const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$/.exec(o.value);
    const scale = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[
      (match?.[2] ?? "ms") as "ms" | "s" | "m" | "h"
    ];
    const ms = match === null ? NaN : Math.round(Number(match[1]) * scale);
    if (!(ms >= 1 && ms <= MAX_TIMER_MS)) {
      throw this.error(
        `Option ${o.written} must be a duration such as 90s, 5m or 1h (at most 596h), or none, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return ms;
  }

  /** An ISO 8601 date; a time without a zone is UTC, as sitemap lastmods are here. */
  date(name: string): Date | null {
    const o = this.#last(name);
    if (o === undefined) return null;
    // Date.parse alone accepts "1" or "March 7"; a date filter wants ISO 8601.
    const iso =
      /^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;
    const match = iso.exec(o.value);
    const text = match !== null && match[3] !== undefined && match[6] === undefined
      ? `${o.value}Z`
      : o.value;
    const ms = match === null ? NaN : Date.parse(text.replace(" ", "T"));
    if (Number.isNaN(ms)) {
      throw this.error(
        `Option ${o.written} must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got ${
          JSON.stringify(o.value)
        }`,
      );
    }
    return new Date(ms);
  }

  /** `--header` values folded into one record (repeats joined with ", ", as HTTP does). */
  headers(name: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const { written, value } of this.#seen.get(name) ?? []) {
      const colon = value.indexOf(":");
      const key = colon === -1 ? "" : value.slice(0, colon).trim();
      if (!HEADER_NAME.test(key)) {
        throw this.error(
          `Option ${written} must look like "Name: value", got ${JSON.stringify(value)}`,
        );
      }
      const text = value.slice(colon + 1).trim();
      if (/[\r\n\0]/.test(text)) {
        throw this.error(`Option ${written} value must be one line, got ${JSON.stringify(value)}`);
      }
      // fetch() throws on a header value that is not a ByteString, mid-crawl.
      if (/[\u0100-\uffff]/.test(text)) {
        throw this.error(
          `Option ${written} value must be Latin-1 (HTTP header values are bytes; percent-encode others), got ${
            JSON.stringify(value)
          }`,
        );
      }
      const existing = Object.keys(headers).find((k) => k.toLowerCase() === key.toLowerCase());
      if (existing === undefined) headers[key] = text;
      else headers[existing] = `${headers[existing]}, ${text}`;
    }
    return headers;
  }

  #last(name: string): Occurrence | undefined {
    const list = this.#seen.get(name);
    return list === undefined ? undefined : list[list.length - 1];
  }
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The library options the {@linkcode CRAWL_FLAGS} stand for (those given). */
export function crawlOptions(flags: ParsedFlags): SitemapTreeOptions {
  const useKnownPaths = !flags.has("no-known");
  const extra = flags.strings("extra-path");
  if (extra.some((p) => p === "")) {
    throw flags.error(`Option ${flags.written("extra-path")} needs a path`);
  }
  if (!useKnownPaths && extra.length > 0) {
    // The library probes extra paths only with the well-known ones (as USP does).
    throw flags.error(`Option ${flags.written("extra-path")} has no effect with --no-known`);
  }
  const since = flags.date("since");
  if (flags.has("skip-unchanged") && since === null) {
    throw flags.error("Option --skip-unchanged needs --since");
  }
  const options: { -readonly [K in keyof SitemapTreeOptions]: SitemapTreeOptions[K] } = {
    useRobots: !flags.has("no-robots"),
    useKnownPaths,
    extraKnownPaths: extra,
    useFeeds: !flags.has("no-feeds"),
    skipUnchangedSitemaps: flags.has("skip-unchanged"),
    headers: flags.headers("header"),
  };
  if (since !== null) options.since = since;
  const numbers: [keyof SitemapTreeOptions, string, number][] = [
    ["concurrency", "concurrency", 1],
    ["maxConnections", "max-connections", 1],
    ["delayMs", "delay-ms", 0],
    ["timeoutMs", "timeout", 1],
    ["connectTimeoutMs", "connect-timeout", 1],
    ["retries", "retries", 0],
    ["maxDepth", "max-depth", 0],
    ["maxSitemaps", "max-sitemaps", 1],
    ["workers", "workers", 0],
  ];
  for (const [option, flag, min] of numbers) {
    const n = flags.integer(flag, min);
    if (n !== null) (options as Record<string, unknown>)[option] = n;
  }
  const deadlineMs = flags.duration("deadline");
  if (deadlineMs !== undefined) options.deadlineMs = deadlineMs;
  const maxDownloadBytes = flags.bytes("max-download-bytes");
  if (maxDownloadBytes !== null) options.maxDownloadBytes = maxDownloadBytes;
  if (flags.has("respect-crawl-delay")) options.respectCrawlDelay = true;
  if (flags.has("allow-private-networks")) options.allowPrivateNetworks = true;
  const proxy = flags.string("proxy");
  if (proxy !== null) {
    if (!/^https?:\/\/[^/]/i.test(proxy) || !URL.canParse(proxy)) {
      throw flags.error(
        `Option ${
          flags.written("proxy")
        } must be an http(s) URL such as http://proxy.example:3128, got ${JSON.stringify(proxy)}`,
      );
    }
    options.proxy = proxy;
  }
  const ua = flags.string("user-agent");
  if (ua !== null) {
    if (/[\u0100-\uffff\r\n\0]/.test(ua)) {
      throw flags.error(
        `Option ${flags.written("user-agent")} must be one line of Latin-1, got ${
          JSON.stringify(ua)
        }`,
      );
    }
    options.userAgent = ua;
  }
  return options;
}

/** What `ls` was asked to print. */
export interface LsOutput {
  readonly format: OutputFormat;
  readonly stripUrl: boolean;
  readonly unique: boolean;
  readonly pages: boolean;
  /** Add advertools' per-sitemap columns (ndjson, csv). */
  readonly sitemapColumns: boolean;
}

/**
 * The output flags of `ls`, checked against each other.
 *
 * @param flags The command line's flags.
 * @returns What to print.
 * @throws {UsageError} For a flag that does not apply to the format.
 */
export function lsOutput(flags: ParsedFlags): LsOutput {
  const format = flags.choice("format", OUTPUT_FORMATS) ?? "tabtree";
  const out: LsOutput = {
    format,
    stripUrl: flags.has("strip-url"),
    unique: flags.has("unique"),
    pages: !flags.has("no-pages"),
    sitemapColumns: flags.has("sitemap-columns"),
  };
  if (out.sitemapColumns && format !== "ndjson" && format !== "csv") {
    throw flags.error(
      `Option --sitemap-columns applies to the ndjson and csv formats, not ${format}`,
    );
  }
  if (out.stripUrl && format !== "tabtree" && format !== "pages") {
    throw flags.error(`Option --strip-url applies to the tabtree and pages formats, not ${format}`);
  }
  if (out.unique && format !== "pages" && format !== "ndjson" && format !== "csv") {
    throw flags.error(
      `Option --unique applies to the pages, ndjson and csv formats, not ${format}`,
    );
  }
  if (!out.pages && format !== "tabtree") {
    throw flags.error(`Option --no-pages applies to the tabtree format, not ${format}`);
  }
  if (flags.has("json") && !flags.has("stats")) {
    throw flags.error("Option --json in ls applies to --stats; add --stats");
  }
  return out;
}

/** What the operand of `ls` or `lint` names. */
export type Input =
  | { readonly kind: "homepage"; readonly url: string }
  | { readonly kind: "sitemap"; readonly url: string }
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "stdin" };

const SITEMAP_PATH = /(?:\/robots\.txt|\.xml|\.xml\.gz|\.gz|\.txt|\.rss|\.atom)$/i;

/**
 * Reads the operand: `-` is stdin; an http(s) URL is a sitemap when its path
 * evidently names one (robots.txt, `.xml`, `.xml.gz`, `.gz`, `.txt`, `.rss`,
 * `.atom`) and `--homepage` was not given, else a homepage; a URL with
 * another scheme is a usage error; anything else is a local file.
 *
 * @param operand The argument.
 * @param flags The command's flags.
 * @returns The input.
 * @throws {UsageError} For a URL that is not http(s).
 */
export function readInput(operand: string, flags: ParsedFlags): Input {
  if (operand === "-") return { kind: "stdin" };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(operand)) {
    let url: URL;
    try {
      url = new URL(operand);
    } catch {
      throw flags.error(`URL is not a valid URL: ${JSON.stringify(operand)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw flags.error(`URL must be http or https, got ${JSON.stringify(operand)}`);
    }
    if (!flags.has("homepage") && SITEMAP_PATH.test(url.pathname)) {
      return { kind: "sitemap", url: operand };
    }
    return { kind: "homepage", url: operand };
  }
  return { kind: "file", path: operand };
}
