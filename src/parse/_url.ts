/**
 * URL checks for entries: trim, resolve relative values against the sitemap's
 * URL, keep http(s) only, normalise the WHATWG way.
 *
 * @module
 */
import { KEEP_FRAGMENT, normalBase, normalizeUrl } from "./_normalize_url.ts";

/**
 * Matches absolute http(s) URLs that the WHATWG parser would return
 * unchanged: lower-case scheme and host name (last label starting with a
 * letter, so never an IPv4 address), no port, no user info, a path of
 * characters it does not percent-encode, no `.`/`%2e` segment to remove, no
 * fragment, no `^` (Bun's parser encodes it in paths, Deno's does not), no
 * `xn--` label (the parser checks its Punycode). Such URLs skip the
 * normaliser; anything else is normalised (src/parse/_normalize_url.ts, or
 * `URL.parse` where that declines), so the result is the same either way.
 */
const ALREADY_NORMAL =
  /^https?:\/\/(?!xn--)(?:[a-z0-9-]+\.(?!xn--))*[a-z][a-z0-9-]*(?:\/(?!\.|%2[eE])[!$%&(-.0-;=?-[\]_a-z|~]*)+$/;

/**
 * Parses `base` once for many resolutions; null when it is not a URL (then
 * only absolute values resolve).
 *
 * @param base The sitemap's URL.
 * @returns The parsed URL or null.
 */
export function parseBase(base: string): URL | null {
  return URL.parse(base);
}

function isHttp(url: URL): boolean {
  return url.protocol === "https:" || url.protocol === "http:";
}

const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const TAB_NL = /[\t\n\r]/g;
const WHITESPACE = /[\t\n\f\r ]/;
/** What the URL parser strips from both ends: C0 controls and space. */
// deno-lint-ignore no-control-regex -- the parser strips exactly these
const C0_EDGES = /^[\x00-\x20]+|[\x00-\x20]+$/g;
const MARKUP = /[<>"]/;
/** Whatever can make a relative value no URL: whitespace, markup, `\`, `:`. */
const SUSPECT = /[\t\n\f\r <>"\\:]/;
/** A `\` anywhere, or a `:` before the first `/`, `?` or `#`. */
const NOT_REFERENCE = /\\|^[^/?#]*:/;

/**
 * Whether a relative value (no scheme) is no URL reference by RFC 3986
 * section 4.2: it holds a `\` (`host.com\2131.htm`, a Windows path), or its
 * first path segment holds a `:` (`httр://host/` with a Cyrillic `р`, whose
 * "scheme" is none). The WHATWG parser would resolve either against the
 * document's URL, inventing a page on its host; `./a:b` and `/a:b` are
 * references and stay. `normalizeUrlBytes` applies the same rule to bytes.
 *
 * @param relative The value, trimmed, tabs and newlines removed, with no scheme.
 * @returns True when it is not a URL reference.
 */
export function isNotUrlReference(relative: string): boolean {
  return NOT_REFERENCE.test(relative);
}

/**
 * Whether a trimmed value is prose, markup or malformed rather than a URL
 * (docs/design.md#values-that-are-not-urls): it is relative (no scheme, once
 * control characters at its ends and tabs and newlines are removed as the URL
 * parser removes them) and
 * holds whitespace, `<`, `>` or `"`, or is no URL reference
 * ({@linkcode isNotUrlReference}); or it is only control characters. Such
 * values are dropped, never resolved against the sitemap's URL. An absolute
 * URL is a URL whatever it holds: raw spaces, quotes and brackets are
 * percent-encoded, a `\` is a `/` in its path (real sitemaps list such
 * pages).
 *
 * @param trimmed The value, trimmed.
 * @returns True when the value is not a URL.
 */
export function isNotUrl(trimmed: string): boolean {
  const value = trimmed.replace(C0_EDGES, "");
  // Only control characters: the parser would return the base itself.
  if (value === "") return true;
  if (!SUSPECT.test(value)) return false;
  const parsed = value.replace(TAB_NL, "");
  if (HAS_SCHEME.test(parsed)) return false;
  return MARKUP.test(value) || WHITESPACE.test(value) || isNotUrlReference(parsed);
}

/** Counts the values a reader dropped for not being URLs, for the document's warning. */
export class NotUrlCounter {
  #count = 0;
  #first = "";

  /**
   * Counts `raw`, which did not resolve, when it is prose, markup or
   * malformed ({@linkcode isNotUrl}) rather than, say, a URL of another
   * scheme.
   *
   * @param raw The value as read.
   */
  note(raw: string): void {
    const trimmed = raw.trim();
    if (trimmed !== "" && isNotUrl(trimmed) && this.#count++ === 0) {
      this.#first = trimmed.slice(0, 80);
    }
  }

  /**
   * {@linkcode resolveSitemapUrl}, counting `raw` when it does not resolve:
   * what a reader of sitemap URLs (robots.txt `Sitemap:` lines, index
   * `<loc>`s) calls for each value.
   *
   * @param raw The `<loc>` text or `Sitemap:` value.
   * @param base The URL of the index or robots.txt, or null.
   * @returns The absolute http(s) URL without fragment, or null.
   */
  sitemapUrl(raw: string, base: URL | null): string | null {
    const url = resolveSitemapUrl(raw, base);
    if (url === null) this.note(raw);
    return url;
  }

  /**
   * The warning, or null when nothing was dropped.
   *
   * @returns One line: how many, and the first.
   */
  warning(): string | null {
    const n = this.#count;
    if (n === 0) return null;
    const values = n === 1 ? "value that is" : "values that are";
    return `Dropped ${n} ${values} not a URL (prose, markup or malformed), the first: ${
      JSON.stringify(this.#first)
    }`;
  }
}

/**
 * The page URL a `<loc>` (or feed link, or text line) stands for: trimmed,
 * resolved against `base`, WHATWG-normalised, fragment kept.
 *
 * @param raw The element's text.
 * @param base The sitemap's parsed URL, or null.
 * @returns The absolute http(s) URL, or null when `raw` is empty, not a URL
 * ({@linkcode isNotUrl}), unparseable or of another scheme.
 */
export function resolvePageUrl(raw: string, base: URL | null): string | null {
  if (ALREADY_NORMAL.test(raw)) return raw;
  const trimmed = raw.trim();
  if (trimmed === "") return null;
  if (trimmed !== raw && ALREADY_NORMAL.test(trimmed)) return trimmed;
  const fast = normalizeUrl(trimmed, normalBase(base), KEEP_FRAGMENT);
  if (fast !== undefined) return fast;
  return parseSlow(trimmed, base, true);
}

/** `URL.parse` for what the normaliser declines, with the not-a-URL rule ({@linkcode isNotUrl}). */
function parseSlow(trimmed: string, base: URL | null, fragment: boolean): string | null {
  if (isNotUrl(trimmed)) return null;
  const url = base === null ? URL.parse(trimmed) : URL.parse(trimmed, base);
  if (url === null || !isHttp(url)) return null;
  if (!fragment) url.hash = "";
  return url.href;
}

/**
 * Like {@linkcode resolvePageUrl}, for the URL of a sitemap to fetch: the
 * fragment is dropped, since it is never sent and two URLs differing only
 * there are one document.
 *
 * @param raw The `<loc>` text or `Sitemap:` value.
 * @param base The URL of the index or robots.txt, or null.
 * @returns The absolute http(s) URL without fragment, or null.
 */
export function resolveSitemapUrl(raw: string, base: URL | null): string | null {
  const trimmed = raw.trim();
  if (trimmed === "") return null;
  const fast = normalizeUrl(trimmed, normalBase(base), 0);
  if (fast !== undefined) return fast;
  return parseSlow(trimmed, base, false);
}

/**
 * Resolves an extension URL (image, video, alternate): like
 * {@linkcode resolvePageUrl}, but other schemes are kept as written, since
 * the value is data about the page, not something the crawler follows.
 *
 * @param raw The element's text or attribute value.
 * @param base The sitemap's parsed URL, or null.
 * @returns The resolved URL, the trimmed value when it does not resolve, or
 * null when it is empty.
 */
export function resolveDataUrl(raw: string, base: URL | null): string | null {
  const page = resolvePageUrl(raw, base);
  if (page !== null) return page;
  const trimmed = raw.trim();
  return trimmed === "" ? null : trimmed;
}
