/**
 * The command line's argument parser: small and strict, so a typo is a usage
 * error (exit 2) rather than a silently different crawl.
 *
 * @module
 */

/** The output formats of `ls`. */
export type OutputFormat = "tabtree" | "pages" | "json" | "ndjson" | "csv";

/** Every output format, in the order the usage lists them. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  "tabtree",
  "pages",
  "json",
  "ndjson",
  "csv",
];

/** What `ls` was asked to do. */
export interface LsCommand {
  readonly command: "ls";
  /** The homepage, checked to be an absolute http(s) URL. */
  readonly url: string;
  readonly format: OutputFormat;
  readonly useRobots: boolean;
  readonly useKnownPaths: boolean;
  readonly stripUrl: boolean;
  /** 0 quiet, 1 one line per sitemap fetched or invalid, 2 every progress event. */
  readonly verbosity: 0 | 1 | 2;
  readonly logFile: string | null;
  readonly since: Date | null;
  readonly concurrency: number | null;
  /** Milliseconds. */
  readonly timeoutMs: number | null;
  readonly maxDepth: number | null;
  readonly workers: number | null;
  readonly userAgent: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly extraPaths: readonly string[];
  readonly useFeeds: boolean;
  /** Directory of a file cache, or null for none. */
  readonly cacheDir: string | null;
  readonly skipUnchanged: boolean;
  readonly stats: boolean;
}

/** A parsed command line. */
export type ParsedArgs = { readonly command: "help" } | { readonly command: "version" } | LsCommand;

/** A command line that cannot be run; the message is one line naming the bad value. */
export class UsageError extends Error {
  /**
   * @param message One line, naming the offending argument.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The program's name in messages and usage. */
export const PROGRAM = "sitemap-tree";

/** The usage text `--help` prints and usage errors repeat. */
export const USAGE: string = `usage: ${PROGRAM} ls [options] URL

Finds every sitemap the website at URL publishes (robots.txt, well-known
paths, nested indexes) and prints the tree or its pages.

Options:
  -f, --format FORMAT   tabtree (default): sitemaps and pages as a tab-indented tree
                        pages: one page URL per line
                        json: the tree as one line of JSON (toJSON(), compact)
                        ndjson: one JSON object per page, with its sitemap's URL
                        csv: url,lastmod,changefreq,priority,sitemap (RFC 4180, CRLF)
  -r, --no-robots       do not read robots.txt
  -k, --no-known        do not probe the well-known sitemap paths
  -u, --strip-url       print URLs on the site's host as paths (tabtree and pages)
  -v, --verbose         log each sitemap fetched or invalid; -vv logs every progress event
  -l, --log-file FILE   append log lines to FILE instead of stderr
      --since DATE      keep only pages whose lastmod is at or after DATE, or who have none
                        (ISO 8601; a date without a time is midnight UTC)
      --concurrency N   requests in flight per host (default 4)
      --timeout MS      milliseconds for one sitemap's whole response (default 30000)
      --max-depth N     levels of nesting below robots.txt and the well-known paths (default 11)
      --workers N       parse workers; 0 parses on the main thread (default: min(4, cores))
      --user-agent UA   the User-Agent header
      --header "NAME: VALUE"
                        an extra header on every request (repeatable)
      --extra-path PATH one more well-known path to probe (repeatable; not with -k)
      --no-feeds        do not read the homepage for RSS/Atom feed links
      --cache DIR       keep each sitemap's validators and parse in DIR between runs;
                        unchanged sitemaps (304) are reused without parsing
      --skip-unchanged  with --since: do not fetch children whose index lastmod is
                        before DATE (trusts the site's index)
      --stats           print counters to stderr after the output
  -h, --help            print this help and exit
      --version         print the version and exit

Options taking a value also accept --name=VALUE (long) and -fVALUE (short).
Exit status: 0 done (even if some sitemaps were invalid), 1 runtime failure,
2 usage error, 130 interrupted.
`;

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface Spec {
  readonly long: string;
  readonly short?: string;
  readonly value: boolean;
}

const SPECS: readonly Spec[] = [
  { long: "format", short: "f", value: true },
  { long: "no-robots", short: "r", value: false },
  { long: "no-known", short: "k", value: false },
  { long: "strip-url", short: "u", value: false },
  { long: "verbose", short: "v", value: false },
  { long: "log-file", short: "l", value: true },
  { long: "since", value: true },
  { long: "concurrency", value: true },
  { long: "timeout", value: true },
  { long: "max-depth", value: true },
  { long: "workers", value: true },
  { long: "user-agent", value: true },
  { long: "header", value: true },
  { long: "extra-path", value: true },
  { long: "no-feeds", value: false },
  { long: "cache", value: true },
  { long: "skip-unchanged", value: false },
  { long: "stats", value: false },
  { long: "help", short: "h", value: false },
  { long: "version", value: false },
];

const BY_LONG = new Map(SPECS.map((spec) => [spec.long, spec]));
const BY_SHORT = new Map(
  SPECS.flatMap((spec) => spec.short === undefined ? [] : [[spec.short, spec] as const]),
);

/** One option occurrence, as written, with its value when it takes one. */
interface Occurrence {
  readonly spec: Spec;
  /** How the user wrote it, for messages: `--format` or `-f`. */
  readonly written: string;
  readonly value: string;
}

/**
 * Parses the command line (without the runtime and script name).
 *
 * @param args The arguments, e.g. `["ls", "https://example.com/", "-f", "pages"]`.
 * @returns What to do.
 * @throws {UsageError} For an unknown command or option, a missing or extra
 * argument, or a value that is not valid for its option.
 */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const occurrences: Occurrence[] = [];
  const positionals: string[] = [];
  let i = 0;
  const next = (written: string): string => {
    if (i >= args.length) throw new UsageError(`Option ${written} needs a value`);
    return args[i++]!;
  };
  while (i < args.length) {
    const arg = args[i++]!;
    if (arg === "--") {
      positionals.push(...args.slice(i));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const written = `--${name}`;
      const spec = BY_LONG.get(name);
      if (spec === undefined) throw new UsageError(`Unknown option ${JSON.stringify(written)}`);
      if (!spec.value && eq !== -1) throw new UsageError(`Option ${written} takes no value`);
      const value = !spec.value ? "" : eq !== -1 ? arg.slice(eq + 1) : next(written);
      occurrences.push({ spec, written, value });
    } else if (arg.startsWith("-") && arg.length > 1) {
      // Short flags bundle (`-rku`, `-vv`); a value-taking one ends the bundle
      // and takes the rest of the word or the next argument (`-fpages`, `-f pages`).
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        const written = `-${letter}`;
        const spec = BY_SHORT.get(letter);
        if (spec === undefined) throw new UsageError(`Unknown option ${JSON.stringify(written)}`);
        if (!spec.value) {
          occurrences.push({ spec, written, value: "" });
          continue;
        }
        const rest = arg.slice(j + 1);
        occurrences.push({ spec, written, value: rest !== "" ? rest : next(written) });
        break;
      }
    } else {
      positionals.push(arg);
    }
  }

  // Help and version win over everything else on the line, as users expect
  // `ls --help` to work whatever else they typed.
  if (occurrences.some((o) => o.spec.long === "help")) return { command: "help" };
  if (occurrences.some((o) => o.spec.long === "version")) return { command: "version" };

  const command = positionals.shift();
  if (command === undefined) throw new UsageError("Missing command (the only command is ls)");
  if (command !== "ls") {
    throw new UsageError(
      `Unknown command ${JSON.stringify(command)} (the only command is ls)`,
    );
  }
  if (positionals.length === 0) throw new UsageError("Missing URL");
  if (positionals.length > 1) {
    throw new UsageError(`Expected one URL, got ${positionals.length}: ${positionals.join(" ")}`);
  }
  return lsCommand(checkUrl(positionals[0]!), occurrences);
}

function lsCommand(url: string, occurrences: readonly Occurrence[]): LsCommand {
  let format: OutputFormat = "tabtree";
  let useRobots = true;
  let useKnownPaths = true;
  let stripUrl = false;
  let verbose = 0;
  let logFile: string | null = null;
  let since: Date | null = null;
  let concurrency: number | null = null;
  let timeoutMs: number | null = null;
  let maxDepth: number | null = null;
  let workers: number | null = null;
  let userAgent: string | null = null;
  const headers: Record<string, string> = {};
  const extraPaths: string[] = [];
  let useFeeds = true;
  let cacheDir: string | null = null;
  let skipUnchanged = false;
  let stats = false;
  for (const { spec, written, value } of occurrences) {
    switch (spec.long) {
      case "format":
        format = checkFormat(written, value);
        break;
      case "no-robots":
        useRobots = false;
        break;
      case "no-known":
        useKnownPaths = false;
        break;
      case "strip-url":
        stripUrl = true;
        break;
      case "verbose":
        verbose++;
        break;
      case "log-file":
        if (value === "") throw new UsageError(`Option ${written} needs a file name`);
        logFile = value;
        break;
      case "since":
        since = checkDate(written, value);
        break;
      case "concurrency":
        concurrency = checkInteger(written, value, 1);
        break;
      case "timeout":
        timeoutMs = checkInteger(written, value, 1);
        break;
      case "max-depth":
        maxDepth = checkInteger(written, value, 0);
        break;
      case "workers":
        workers = checkInteger(written, value, 0);
        break;
      case "user-agent":
        userAgent = value;
        break;
      case "header":
        addHeader(headers, written, value);
        break;
      case "extra-path":
        if (value === "") throw new UsageError(`Option ${written} needs a path`);
        extraPaths.push(value);
        break;
      case "no-feeds":
        useFeeds = false;
        break;
      case "cache":
        if (value === "") throw new UsageError(`Option ${written} needs a directory`);
        cacheDir = value;
        break;
      case "skip-unchanged":
        skipUnchanged = true;
        break;
      case "stats":
        stats = true;
        break;
    }
  }
  if (stripUrl && format !== "tabtree" && format !== "pages") {
    throw new UsageError(
      `Option --strip-url applies to the tabtree and pages formats, not ${format}`,
    );
  }
  if (!useKnownPaths && extraPaths.length > 0) {
    // The library probes extra paths only with the well-known ones (as USP does).
    throw new UsageError("Option --extra-path has no effect with --no-known");
  }
  if (skipUnchanged && since === null) {
    throw new UsageError("Option --skip-unchanged needs --since");
  }
  return {
    command: "ls",
    url,
    format,
    useRobots,
    useKnownPaths,
    stripUrl,
    verbosity: verbose >= 2 ? 2 : verbose === 1 ? 1 : 0,
    logFile,
    since,
    concurrency,
    timeoutMs,
    maxDepth,
    workers,
    userAgent,
    headers,
    extraPaths,
    useFeeds,
    cacheDir,
    skipUnchanged,
    stats,
  };
}

function checkUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`URL is not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`URL must be http or https, got ${JSON.stringify(value)}`);
  }
  return value;
}

function checkFormat(written: string, value: string): OutputFormat {
  const format = OUTPUT_FORMATS.find((f) => f === value);
  if (format === undefined) {
    throw new UsageError(
      `Option ${written} must be one of ${OUTPUT_FORMATS.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return format;
}

function checkInteger(written: string, value: string, min: number): number {
  // Digits only: "1e3", "0x10", " 4" and "4.0" are more likely typos than intent.
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(
      `Option ${written} must be an integer >= ${min}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function checkDate(written: string, value: string): Date {
  // Date.parse alone accepts "1" or "March 7"; a date filter wants ISO 8601.
  const iso = /^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;
  const match = iso.exec(value);
  // A time without a zone means UTC, as sitemap lastmod values do here, not the machine's zone.
  const text = match !== null && match[3] !== undefined && match[6] === undefined
    ? `${value}Z`
    : value;
  const ms = match === null ? NaN : Date.parse(text.replace(" ", "T"));
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `Option ${written} must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return new Date(ms);
}

function addHeader(headers: Record<string, string>, written: string, value: string): void {
  const colon = value.indexOf(":");
  const name = colon === -1 ? "" : value.slice(0, colon).trim();
  if (!HEADER_NAME.test(name)) {
    throw new UsageError(
      `Option ${written} must look like "Name: value", got ${JSON.stringify(value)}`,
    );
  }
  const text = value.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(text)) {
    throw new UsageError(`Option ${written} value must be one line, got ${JSON.stringify(value)}`);
  }
  // HTTP folds repeated fields into one comma-separated list; so do we.
  const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
  if (existing === undefined) headers[name] = text;
  else headers[existing] = `${headers[existing]}, ${text}`;
}
