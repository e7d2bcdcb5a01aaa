/**
 * `parseRobotsTxt()`: a robots.txt read as RFC 9309 and Google's
 * open-source matcher (google/robotstxt) read it, for its `Sitemap:` lines,
 * its allow/disallow rules and its `Crawl-delay`.
 *
 * @module
 */
import { type RobotsRule, robotsTarget, RuleSet } from "./_robots_rules.ts";
import { NotUrlCounter } from "./_url.ts";

export type { RobotsRule };

/**
 * The most of a robots.txt whose rules are read, in UTF-16 units (bytes,
 * for ASCII): RFC 9309 section 2.5 asks crawlers to parse at least 500 KiB,
 * and Google ignores what follows. `Sitemap:` lines belong to no group and
 * are read from the whole document.
 */
export const MAX_ROBOTS_TXT_CHARS = 500 * 1024;

/** Google's matcher keeps 2083 × 8 − 1 bytes of a line and ignores the rest. */
const MAX_LINE = 2083 * 8 - 1;

const USER_AGENT = 0;
const ALLOW = 1;
const DISALLOW = 2;
const SITEMAP = 3;
const CRAWL_DELAY = 4;

/** Line keys, lower-cased, with the misspellings Google's matcher accepts. */
const KEYS: ReadonlyMap<string, number> = new Map([
  ["user-agent", USER_AGENT],
  ["useragent", USER_AGENT],
  ["user agent", USER_AGENT],
  ["allow", ALLOW],
  ["disallow", DISALLOW],
  ["dissallow", DISALLOW],
  ["dissalow", DISALLOW],
  ["disalow", DISALLOW],
  ["diasllow", DISALLOW],
  ["disallaw", DISALLOW],
  ["sitemap", SITEMAP],
  ["site-map", SITEMAP],
  ["crawl-delay", CRAWL_DELAY],
]);

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Strips ASCII white space only: a BOM inside the file stays and spoils its line, as in Google's matcher. */
function stripAscii(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiSpace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * A line's key and value: `key: value`, or (Google's leniency) `key value`
 * when the line is exactly two words. The line has no comment and no
 * surrounding space.
 */
function keyValue(line: string): [string, string] | null {
  let sep = line.indexOf(":");
  let valueStart = sep + 1;
  if (sep < 0) {
    sep = line.search(/[ \t]/);
    if (sep < 0) return null;
    valueStart = sep;
    if (/[ \t]/.test(stripAscii(line.slice(sep)))) return null;
  }
  const key = stripAscii(line.slice(0, sep));
  return key === "" ? null : [key, stripAscii(line.slice(valueStart))];
}

/**
 * The name a `User-agent` line gives, lower-cased: the leading run of
 * `[A-Za-z0-9_-]`, so `Googlebot/2.1` and `Foo Bar` name `googlebot` and
 * `foo`. RFC 9309's product tokens have no digits and Google's matcher cuts
 * a name at the first one; real names have them (`MJ12bot`, `360Spider`),
 * so they are kept. `*` (alone or followed by a space) is the global
 * group; null when the line names nothing usable.
 */
function agentName(value: string): string | null {
  if (value.charCodeAt(0) === 42 && (value.length === 1 || isAsciiSpace(value.charCodeAt(1)))) {
    return "*";
  }
  const name = /^[A-Za-z0-9_-]*/.exec(value)![0];
  return name === "" ? null : name.toLowerCase();
}

/**
 * The key a caller's user agent is looked up by: its product token, the
 * text before the first `/`, trimmed and lower-cased. `*` and the empty
 * string mean "any crawler": only the `*` group applies.
 */
function agentKey(userAgent: string): string {
  const slash = userAgent.indexOf("/");
  return (slash < 0 ? userAgent : userAgent.slice(0, slash)).trim().toLowerCase();
}

/** A `Crawl-delay` value in seconds, or null when it is not a non-negative number. */
function delayOf(value: string): number | null {
  if (value === "") return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** One group as read: the agents of its `User-agent` lines and its rules. */
interface Group {
  readonly agents: string[];
  readonly rules: RobotsRule[];
}

/** What one pass over the lines gives. */
interface Parsed {
  readonly groups: Group[];
  readonly delays: Map<string, number>;
}

/** The `Sitemap:` lines read so far: their URLs once each, and the values that are no URL. */
class SitemapLines {
  readonly urls: string[] = [];
  readonly #seen = new Set<string>();
  readonly #base: URL | null;
  readonly notUrls: NotUrlCounter = new NotUrlCounter();

  constructor(base: URL | null) {
    this.#base = base;
  }

  /** Reads one `Sitemap:` value: its first word, resolved against the robots.txt's URL. */
  add(value: string): void {
    const url = this.notUrls.sitemapUrl(value.split(/[ \t]/, 1)[0]!, this.#base);
    if (url !== null && !this.#seen.has(url)) {
      this.#seen.add(url);
      this.urls.push(url);
    }
  }
}

/** A line's key code and value, or null for a line without one (blank, comment, no key). */
function directive(raw: string): [number | undefined, string] | null {
  const line = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw;
  const hash = line.indexOf("#");
  const kv = keyValue(stripAscii(hash < 0 ? line : line.slice(0, hash)));
  return kv === null ? null : [KEYS.get(kv[0].toLowerCase()), kv[1]];
}

const LINE_BREAK = /\r\n|\r|\n/;

function readLines(text: string, sitemaps: SitemapLines): Parsed {
  const groups: Group[] = [];
  const delays = new Map<string, number>();
  let group: Group | null = null;
  // A User-agent line after an allow/disallow line starts a new group; other lines
  // (Sitemap, Crawl-delay, unknown ones, blank lines) do not end one (RFC 9309 section 2.2.4).
  let sawRule = false;
  const lines = text.split(LINE_BREAK);
  for (let i = 0; i < lines.length; i++) {
    const found = directive(lines[i]!);
    if (found === null) continue;
    const [key, value] = found;
    switch (key) {
      case USER_AGENT: {
        if (group === null || sawRule) {
          group = { agents: [], rules: [] };
          groups.push(group);
          sawRule = false;
        }
        const name = agentName(value);
        if (name !== null) group.agents.push(name);
        break;
      }
      case ALLOW:
      case DISALLOW:
        if (group === null) break;
        sawRule = true;
        group.rules.push({ allow: key === ALLOW, pattern: value, line: i + 1 });
        break;
      case SITEMAP:
        sitemaps.add(value);
        break;
      case CRAWL_DELAY: {
        // The delay is the agents' named so far in this group (as crawler-commons assigns it),
        // first value wins.
        const seconds = delayOf(value);
        if (group === null || seconds === null) break;
        for (const agent of group.agents) if (!delays.has(agent)) delays.set(agent, seconds);
        break;
      }
    }
  }
  return { groups, delays };
}

/**
 * The `Sitemap:` lines of the part of a robots.txt past
 * {@linkcode MAX_ROBOTS_TXT_CHARS}, read into `sitemaps`; returns the lines
 * as written, so that the text kept reads the same again.
 */
function readTailSitemaps(tail: string, sitemaps: SitemapLines): string[] {
  const kept: string[] = [];
  for (const line of tail.split(LINE_BREAK)) {
    const found = directive(line);
    if (found === null || found[0] !== SITEMAP) continue;
    sitemaps.add(found[1]);
    kept.push(line);
  }
  return kept;
}

/**
 * Where the rules of a long robots.txt end: after its last line break within
 * {@linkcode MAX_ROBOTS_TXT_CHARS} (a rule cut in half would be a broader
 * rule), or at the limit when the first line is longer.
 */
function rulesEnd(body: string): number {
  for (let i = MAX_ROBOTS_TXT_CHARS - 1; i >= 0; i--) {
    const c = body.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return MAX_ROBOTS_TXT_CHARS;
}

/** Each named agent's merged rules, and the `*` group's; agents in the same groups share one set. */
function compile(
  groups: readonly Group[],
): { agents: Map<string, RuleSet>; global: RuleSet | null } {
  const memberships = new Map<string, number[]>();
  groups.forEach((group, index) => {
    for (const agent of group.agents) {
      const list = memberships.get(agent);
      if (list === undefined) memberships.set(agent, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    }
  });
  const shared = new Map<string, RuleSet>();
  const setOf = (indexes: readonly number[]): RuleSet => {
    const key = indexes.join(",");
    let set = shared.get(key);
    if (set === undefined) {
      set = new RuleSet();
      for (const index of indexes) for (const rule of groups[index]!.rules) set.add(rule);
      shared.set(key, set);
    }
    return set;
  };
  const agents = new Map<string, RuleSet>();
  let global: RuleSet | null = null;
  for (const [agent, indexes] of memberships) {
    if (agent === "*") global = setOf(indexes);
    else agents.set(agent, setOf(indexes));
  }
  return { agents, global };
}

function isRobotsTxtPath(path: string): boolean {
  return path.startsWith("/robots.txt") && (path.length === 11 || path.charCodeAt(11) === 63);
}

/**
 * A parsed robots.txt: the sitemaps it names, and which URLs each crawler
 * may fetch. Build one with {@linkcode parseRobotsTxt}.
 *
 * Rules are compiled when it is built, so {@linkcode RobotsTxt.isAllowed}
 * walks the URL's path once whatever the number of rules.
 *
 * @example One file, read for two crawlers
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { RobotsTxt } from "@sitemap/tree/parse";
 *
 * const robots = new RobotsTxt(
 *   "User-agent: *\nDisallow: /search\n\nUser-agent: Googlebot\nAllow: /\n\n" +
 *     "Sitemap: https://example.com/sitemap.xml\n",
 *   "https://example.com/robots.txt",
 * );
 * deepStrictEqual(robots.sitemaps, ["https://example.com/sitemap.xml"]);
 * strictEqual(robots.isAllowed("https://example.com/search?q=a"), false);
 * strictEqual(robots.isAllowed("https://example.com/search?q=a", "Googlebot/2.1"), true);
 * ```
 */
export class RobotsTxt {
  /** The robots.txt URL it was read from, or null when none was given. */
  readonly url: string | null;
  /**
   * The text read, without its BOM: the whole document when it is at most
   * {@linkcode MAX_ROBOTS_TXT_CHARS} long; else its lines up to that size,
   * whose rules count, followed by the `Sitemap:` lines of the rest. Parsing
   * it again gives the same rules and sitemaps.
   */
  readonly text: string;
  /**
   * The `Sitemap:` URLs, absolute (relative ones resolved against `url`),
   * without fragment, each once, in order. They belong to no group, and
   * are read from the whole document however long.
   */
  readonly sitemaps: readonly string[];
  /**
   * What was dropped from the `Sitemap:` lines for being prose, markup or
   * malformed rather than a URL (`Dropped 2 values that are not a URL …`),
   * or null.
   */
  readonly warning: string | null;
  readonly #agents: ReadonlyMap<string, RuleSet>;
  readonly #global: RuleSet | null;
  readonly #delays: ReadonlyMap<string, number>;
  #lastAgent: string | null = null;
  #lastSet: RuleSet | null = null;

  /**
   * Parses `text`; the same as {@linkcode parseRobotsTxt}.
   *
   * @param text The robots.txt, decoded.
   * @param url Its URL, against which relative `Sitemap:` values resolve.
   */
  constructor(text: string, url?: string | URL) {
    const base = url === undefined ? null : URL.parse(String(url));
    this.url = base === null ? null : base.href;
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const sitemaps = new SitemapLines(base);
    const end = body.length <= MAX_ROBOTS_TXT_CHARS ? body.length : rulesEnd(body);
    const head = end === body.length ? body : body.slice(0, end);
    const parsed = readLines(head, sitemaps);
    const tail = end === body.length ? [] : readTailSitemaps(body.slice(end), sitemaps);
    const last = head.charCodeAt(head.length - 1);
    this.text = tail.length === 0
      ? head
      : `${head}${last === 10 || last === 13 ? "" : "\n"}${tail.join("\n")}\n`;
    this.sitemaps = Object.freeze(sitemaps.urls);
    this.warning = sitemaps.notUrls.warning();
    this.#delays = parsed.delays;
    const { agents, global } = compile(parsed.groups);
    this.#agents = agents;
    this.#global = global;
  }

  /** The rules that apply to `userAgent`: its own groups, else the `*` groups, else none. */
  #rulesFor(userAgent: string): RuleSet | null {
    if (userAgent === this.#lastAgent) return this.#lastSet;
    const key = agentKey(userAgent);
    const set = this.#agents.get(key) ?? this.#global;
    this.#lastAgent = userAgent;
    this.#lastSet = set;
    return set;
  }

  /**
   * The rule that decides whether `userAgent` may fetch `url`: the most
   * specific matching `Allow` or `Disallow` of the agent's groups, `Allow`
   * on a tie. Null when no rule matches (then the URL is allowed).
   *
   * @param url An absolute URL, or a path such as `/a?b` (see {@linkcode RobotsTxt.isAllowed}).
   * @param userAgent The crawler's user agent or product token; `*` for any crawler.
   * @returns The deciding rule, or null.
   * @throws {TypeError} When `url` has a scheme but is not a URL.
   *
   * @example The line that blocks a page
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { parseRobotsTxt } from "./robots_txt.ts";
   *
   * const robots = parseRobotsTxt("User-agent: *\nDisallow: /private/\n");
   * deepStrictEqual(robots.matchingRule("https://example.com/private/a"), {
   *   allow: false,
   *   pattern: "/private/",
   *   line: 2,
   * });
   * ```
   */
  matchingRule(url: string | URL, userAgent: string = "*"): RobotsRule | null {
    const set = this.#rulesFor(userAgent);
    // Parsed even without rules: a string that is no URL throws whatever the rules.
    const path = robotsTarget(url);
    if (set === null || isRobotsTxtPath(path)) return null;
    return set.decide(path);
  }

  /**
   * Whether `userAgent`'s rules disallow anything at all: false when its
   * groups (or the `*` groups it falls back to) hold no `Disallow` with a
   * pattern, so that every URL is allowed. A cheap test before checking
   * many URLs.
   *
   * @param userAgent The crawler's user agent or product token; `*` for any crawler.
   * @returns True when some URL may be disallowed.
   *
   * @example An empty Disallow disallows nothing
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { parseRobotsTxt } from "./robots_txt.ts";
   *
   * const robots = parseRobotsTxt("User-agent: *\nDisallow:\n\nUser-agent: BadBot\nDisallow: /\n");
   * strictEqual(robots.disallowsAny(), false);
   * strictEqual(robots.disallowsAny("BadBot"), true);
   * ```
   */
  disallowsAny(userAgent: string = "*"): boolean {
    return this.#rulesFor(userAgent)?.disallows === true;
  }

  /**
   * Whether `userAgent` may fetch `url`.
   *
   * The groups are chosen by the agent's product token (the text before
   * `/`, case-insensitive): every group naming it, merged, else every `*`
   * group, else none (all allowed). Paths match with `*` and a final `$`,
   * after percent-encoding is normalised on both sides; the longest
   * matching pattern wins and `Allow` wins a tie; `/robots.txt` is always
   * allowed. The URL's host is not compared: pass URLs of the site this
   * robots.txt belongs to.
   *
   * @param url An absolute URL, or a path such as `/a?b`. A string without
   *   a scheme is read as Google's matcher reads it (`example.com/a` is the
   *   path `/a`).
   * @param userAgent The crawler's user agent or product token
   *   (`Googlebot`, `my-bot/1.0`); `*` for any crawler.
   * @returns True when the URL may be fetched.
   * @throws {TypeError} When `url` has a scheme but is not a URL.
   *
   * @example Longest match, Allow on a tie
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { parseRobotsTxt } from "./robots_txt.ts";
   *
   * const robots = parseRobotsTxt(
   *   "User-agent: *\nDisallow: /shop/\nAllow: /shop/catalog\n\nUser-agent: Googlebot\nDisallow: /\n",
   * );
   * strictEqual(robots.isAllowed("https://example.com/shop/cart"), false);
   * strictEqual(robots.isAllowed("https://example.com/shop/catalog/1"), true);
   * strictEqual(robots.isAllowed("https://example.com/", "Googlebot/2.1"), false);
   * ```
   */
  isAllowed(url: string | URL, userAgent: string = "*"): boolean {
    const rule = this.matchingRule(url, userAgent);
    return rule === null || rule.allow;
  }

  /**
   * The `Crawl-delay` asked of `userAgent`, in seconds: from the lines that
   * follow its `User-agent` line in a group (the first valid value), else,
   * when no group names the agent, from the `*` group's. Null when there is
   * none. Not part of RFC 9309, but widely honoured.
   *
   * @param userAgent The crawler's user agent or product token; `*` for any crawler.
   * @returns Seconds, or null.
   *
   * @example The agent's own value, then the `*` group's
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { parseRobotsTxt } from "./robots_txt.ts";
   *
   * const robots = parseRobotsTxt("User-agent: *\nCrawl-delay: 2\n\nUser-agent: slowbot\nCrawl-delay: 10\n");
   * strictEqual(robots.crawlDelay("slowbot/1.0"), 10);
   * strictEqual(robots.crawlDelay("my-bot/1.0"), 2);
   * ```
   */
  crawlDelay(userAgent: string = "*"): number | null {
    const key = agentKey(userAgent);
    if (key !== "*" && this.#agents.has(key)) return this.#delays.get(key) ?? null;
    return this.#delays.get("*") ?? null;
  }
}

/**
 * Parses a robots.txt (RFC 9309, as Google's open-source matcher reads it:
 * lines end in LF, CRLF or CR; a UTF-8 BOM is skipped; `#` starts a
 * comment; keys are case-insensitive, with or without the colon; rules
 * outside a group are ignored).
 *
 * @param text The robots.txt, decoded.
 * @param url Its URL, against which relative `Sitemap:` values resolve.
 * @returns The parsed robots.txt.
 *
 * @example Sitemaps and rules
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { parseRobotsTxt } from "@sitemap/tree/parse";
 *
 * const robots = parseRobotsTxt(
 *   "User-agent: *\nDisallow: /search\n\nSitemap: /sitemap.xml\n",
 *   "https://www.example.com/robots.txt",
 * );
 * deepStrictEqual(robots.sitemaps, ["https://www.example.com/sitemap.xml"]);
 * strictEqual(robots.isAllowed("https://www.example.com/search?q=x"), false);
 * ```
 */
export function parseRobotsTxt(text: string, url?: string | URL): RobotsTxt {
  return new RobotsTxt(text, url);
}
