/**
 * What a parsed command line asks of the library: the crawl options its
 * flags stand for ({@linkcode crawlOptions}, {@linkcode sitesOptions}),
 * what `ls` prints ({@linkcode lsOutput}) and what the operand names
 * ({@linkcode readInput}).
 *
 * @module
 */
import {
  FileSitemapCache,
  SECTIONS_DEFAULTS,
  type SitemapTreeOptions,
  type SitemapTreesOptions,
} from "../../mod.ts";
import type { ParsedFlags } from "./_args.ts";
import { OUTPUT_FORMATS, type OutputFormat } from "./_spec.ts";

/** The values of `--extensions`. */
const EXTENSIONS = ["lazy", "eager"] as const;

/**
 * `options` with `extensions: "eager"` unless `--extensions` chose: for a
 * command whose output writes every page's extensions, so that the parse
 * workers decode them rather than the thread that writes.
 *
 * @param options The crawl options of the command's flags.
 * @returns The options, `extensions` set.
 */
export function eagerUnlessChosen<T extends SitemapTreeOptions>(options: T): T {
  return options.extensions === undefined ? { ...options, extensions: "eager" } : options;
}

/** The library options the crawl flags (`CRAWL_FLAGS`) stand for, those given. */
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
  const cache = flags.nonEmpty("cache", "a directory");
  if (cache !== null) options.cache = new FileSitemapCache(cache);
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
  const extensions = flags.choice("extensions", EXTENSIONS);
  if (extensions !== null) options.extensions = extensions;
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

/**
 * The crawl options of a many-sites command: the crawl flags plus `--site-concurrency`.
 *
 * @param flags The command line's flags.
 * @returns The options.
 * @throws {UsageError} For a bad value, naming the flag.
 */
export function sitesOptions(flags: ParsedFlags): SitemapTreesOptions {
  const siteConcurrency = flags.integer("site-concurrency", 1);
  return {
    ...crawlOptions(flags),
    ...(siteConcurrency === null ? {} : { siteConcurrency }),
  };
}

/** What `ls` was asked to print. */
export interface LsOutput {
  readonly format: OutputFormat;
  readonly stripUrl: boolean;
  readonly unique: boolean;
  readonly pages: boolean;
  /** Add advertools' per-sitemap columns (ndjson, csv). */
  readonly sitemapColumns: boolean;
  /** Where to write the tree's snapshot (`--save`), or null. */
  readonly save: string | null;
  /** Path segments per section (sections). */
  readonly depth: number;
}

/**
 * The output flags of `ls`, checked against each other.
 *
 * @param flags The command line's flags.
 * @returns What to print.
 * @throws {UsageError} For a flag that does not apply to the format.
 */
export function lsOutput(flags: ParsedFlags): LsOutput {
  const format = flags.choice("format", OUTPUT_FORMATS)!;
  const out: LsOutput = {
    format,
    stripUrl: flags.has("strip-url"),
    unique: flags.has("unique"),
    pages: !flags.has("no-pages"),
    sitemapColumns: flags.has("sitemap-columns"),
    save: flags.nonEmpty("save", "a file name"),
    depth: flags.integer("depth", 0) ?? SECTIONS_DEFAULTS.depth,
  };
  if (flags.has("depth") && format !== "sections") {
    throw flags.error(`Option --depth applies to the sections format, not ${format}`);
  }
  if (out.sitemapColumns && format !== "ndjson" && format !== "csv") {
    throw flags.error(
      `Option --sitemap-columns applies to the ndjson and csv formats, not ${format}`,
    );
  }
  if (out.stripUrl && format !== "tabtree" && format !== "pages" && format !== "sections") {
    throw flags.error(
      `Option --strip-url applies to the tabtree, pages and sections formats, not ${format}`,
    );
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
