/**
 * robots.txt rule matching (RFC 9309 section 2.2.2): the octet form both
 * sides are compared in, the path a URL is matched by, and a rule set
 * compiled once into a trie so that a check walks the path once, with no
 * regular expression per call.
 *
 * @module
 */

/** One `Allow` or `Disallow` line, as written. */
export interface RobotsRule {
  /** True for `Allow`, false for `Disallow`. */
  readonly allow: boolean;
  /** The path pattern as written (comment and surrounding space removed). */
  readonly pattern: string;
  /** The line it is on, from 1. */
  readonly line: number;
}

const HEX = "0123456789ABCDEF";

/** ASCII characters RFC 3986 leaves unreserved: `A-Z a-z 0-9 - . _ ~`. */
const UNRESERVED = new Uint8Array(128);
/** ASCII characters kept as they are: unreserved, reserved (RFC 3986 section 2.2) and `%`. */
const KEEP = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-._~]/.test(ch)) UNRESERVED[c] = 1;
  if (UNRESERVED[c] === 1 || ":/?[]@!$&'()*+,;=%".includes(ch)) KEEP[c] = 1;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

function percent(byte: number): string {
  return "%" + HEX[byte >> 4] + HEX[byte & 15];
}

const ENCODER = new TextEncoder();

/**
 * The octet form RFC 9309 section 2.2.2 compares in, for a rule's pattern
 * and a URL's path alike: non-ASCII is UTF-8 percent-encoded, ASCII that is
 * neither unreserved nor reserved (space, `"`, `<`, `|`, controls…) is
 * percent-encoded, an encoded unreserved character (`%62` is `b`) is
 * decoded, and the other escapes get upper-case hex (`%2f` is `%2F`).
 * Google's matcher does the first and last only; the decoding follows the
 * RFC's table.
 *
 * @param s A pattern or a path.
 * @returns Its normal form (`s` itself when there is nothing to change).
 */
export function normalizeRobotsPath(s: string): string {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 128 || c === 37 || KEEP[c] !== 1) break;
    i++;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      const hi = i + 2 < n ? hexValue(s.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
      if (lo < 0) {
        out += "%";
        continue;
      }
      const byte = hi * 16 + lo;
      out += byte < 128 && UNRESERVED[byte] === 1 ? String.fromCharCode(byte) : percent(byte);
      i += 2;
    } else if (c < 128) {
      out += KEEP[c] === 1 ? s[i] : percent(c);
    } else {
      // One code point (a surrogate pair is two units); a lone surrogate encodes as U+FFFD.
      const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      const pair = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
      for (const byte of ENCODER.encode(s.slice(i, pair ? i + 2 : i + 1))) out += percent(byte);
      if (pair) i++;
    }
  }
  return out;
}

/**
 * An absolute http(s) URL whose path and query the WHATWG parser would
 * leave as written (characters it never encodes, no backslash), so that
 * the part after the authority is the path to match.
 */
const PLAIN_HTTP = /^https?:\/\/[^/?#\\\s]+((?:[/?][A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?)$/;
/** A `.` or `..` segment (maybe `%2e`-encoded), which the parser would remove. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?]|$)/i;
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** What the path of a string without a scheme is read against: the host does not matter. */
const ANY_ORIGIN = "http://robots.invalid";

function pathOf(url: URL): string {
  const path = url.pathname + url.search;
  return path.startsWith("/") ? path : "/" + path;
}

/**
 * The path a rule is matched against (path and query, no fragment, `/` when
 * empty), in {@linkcode normalizeRobotsPath} form. An absolute URL is read
 * the WHATWG way (so `ツ` and `%E3%83%84` are one path); a string without a
 * scheme the way Google's matcher reads it: `/a?b` is a path, and in
 * `example.com/a` or `//host/a` the part before the first `/`, `?` or `;` is
 * the host.
 *
 * @param url The URL or path.
 * @returns The path to match.
 * @throws {TypeError} When `url` has a scheme but does not parse.
 */
export function robotsTarget(url: string | URL): string {
  if (typeof url !== "string") return normalizeRobotsPath(pathOf(url));
  const plain = PLAIN_HTTP.exec(url);
  if (plain !== null && !DOT_SEGMENT.test(plain[1]!)) {
    const rest = plain[1]!;
    const path = rest === "" ? "/" : rest.charCodeAt(0) === 63 ? "/" + rest : rest;
    return rest.includes("%") ? normalizeRobotsPath(path) : path;
  }
  if (HAS_SCHEME.test(url)) {
    const parsed = URL.parse(url);
    if (parsed === null) throw new TypeError(`Not a URL: ${JSON.stringify(url)}`);
    return normalizeRobotsPath(pathOf(parsed));
  }
  return normalizeRobotsPath(pathOf(new URL(schemelessPath(url), ANY_ORIGIN)));
}

/** Google's reading of a URL without a scheme: the path after the host, or `/`. */
function schemelessPath(url: string): string {
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  const from = url.startsWith("//") ? 2 : 0;
  let start = -1;
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 59) {
      start = i;
      break;
    }
  }
  const hash = url.indexOf("#", from);
  if (start < 0 || (hash >= 0 && hash < start)) return "/";
  const path = url.slice(start, hash < 0 ? url.length : hash);
  return path.startsWith("/") ? path : "/" + path;
}

/** A rule with a `*`: its literal prefix is the trie path, the rest is checked piece by piece. */
interface WildRule {
  readonly rule: RobotsRule;
  readonly priority: number;
  /** The pieces between the `*`s after the prefix; the first follows the first `*`. */
  readonly pieces: readonly string[];
  /** Whether the pattern ends in `$`: the last piece must end the path. */
  readonly anchored: boolean;
}

class TrieNode {
  children: Map<number, TrieNode> | null = null;
  /** The first plain `Allow` / `Disallow` whose pattern ends here. */
  allow: RobotsRule | null = null;
  disallow: RobotsRule | null = null;
  /** The same for patterns ending here with `$`: only a path of exactly this length. */
  exactAllow: RobotsRule | null = null;
  exactDisallow: RobotsRule | null = null;
  wild: WildRule[] | null = null;

  child(c: number): TrieNode {
    this.children ??= new Map();
    let next = this.children.get(c);
    if (next === undefined) {
      next = new TrieNode();
      this.children.set(c, next);
    }
    return next;
  }
}

function wildMatches(path: string, from: number, w: WildRule): boolean {
  const { pieces } = w;
  const last = pieces.length - 1;
  let at = from;
  for (let i = 0; i < last; i++) {
    const piece = pieces[i]!;
    if (piece === "") continue;
    const found = path.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  const tail = pieces[last]!;
  if (w.anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === "" || path.indexOf(tail, at) >= 0;
}

/**
 * The rules of one user agent (all its groups merged), compiled: the
 * literal prefix of every pattern (up to its first `*`, without a final
 * `$`) is a path in a trie, so a check walks the URL's path once and looks
 * only at the rules whose prefix it passes. The most specific match (the
 * longest normalised pattern, RFC 9309 section 2.2.2) wins, `Allow` on a tie.
 */
export class RuleSet {
  readonly #root = new TrieNode();

  /**
   * Adds a rule. An empty pattern matches nothing (an empty `Disallow:`
   * allows everything). As Google's matcher does, an `Allow` whose last
   * segment starts with `index.htm` also allows its directory (`/a/` for
   * `/a/index.html`).
   *
   * @param rule The rule as written.
   */
  add(rule: RobotsRule): void {
    const pattern = normalizeRobotsPath(rule.pattern);
    if (pattern === "") return;
    this.#addPattern(rule, pattern);
    if (!rule.allow) return;
    const slash = pattern.lastIndexOf("/");
    if (slash >= 0 && pattern.startsWith("/index.htm", slash)) {
      this.#addPattern(rule, pattern.slice(0, slash + 1) + "$");
    }
  }

  #addPattern(rule: RobotsRule, pattern: string): void {
    const anchored = pattern.endsWith("$");
    const body = anchored ? pattern.slice(0, -1) : pattern;
    const star = body.indexOf("*");
    const prefix = star < 0 ? body : body.slice(0, star);
    let node = this.#root;
    for (let i = 0; i < prefix.length; i++) node = node.child(prefix.charCodeAt(i));
    if (star >= 0) {
      const pieces = body.slice(star + 1).split("*");
      (node.wild ??= []).push({ rule, priority: pattern.length, pieces, anchored });
    } else if (anchored) {
      if (rule.allow) node.exactAllow ??= rule;
      else node.exactDisallow ??= rule;
    } else if (rule.allow) {
      node.allow ??= rule;
    } else {
      node.disallow ??= rule;
    }
  }

  /**
   * The rule that decides for `path`, or null when none matches.
   *
   * @param path A path in {@linkcode robotsTarget} form.
   * @returns The winning rule.
   */
  decide(path: string): RobotsRule | null {
    let allow: RobotsRule | null = null;
    let allowAt = 0;
    let disallow: RobotsRule | null = null;
    let disallowAt = 0;
    const n = path.length;
    let node = this.#root;
    for (let depth = 0;; depth++) {
      if (node.allow !== null && depth > allowAt) {
        allow = node.allow;
        allowAt = depth;
      }
      if (node.disallow !== null && depth > disallowAt) {
        disallow = node.disallow;
        disallowAt = depth;
      }
      if (depth === n) {
        if (node.exactAllow !== null && depth + 1 > allowAt) {
          allow = node.exactAllow;
          allowAt = depth + 1;
        }
        if (node.exactDisallow !== null && depth + 1 > disallowAt) {
          disallow = node.exactDisallow;
          disallowAt = depth + 1;
        }
      }
      if (node.wild !== null) {
        for (const w of node.wild) {
          const allowing = w.rule.allow;
          if (w.priority <= (allowing ? allowAt : disallowAt) || !wildMatches(path, depth, w)) {
            continue;
          }
          if (allowing) {
            allow = w.rule;
            allowAt = w.priority;
          } else {
            disallow = w.rule;
            disallowAt = w.priority;
          }
        }
      }
      if (depth === n || node.children === null) break;
      const next = node.children.get(path.charCodeAt(depth));
      if (next === undefined) break;
      node = next;
    }
    return disallowAt > allowAt ? disallow : allow;
  }
}
