/**
 * URL checks for entries: trim, resolve relative values against the sitemap's
 * URL, keep http(s) only, normalise the WHATWG way.
 *
 * @module
 */

/**
 * Matches absolute http(s) URLs that the WHATWG parser would return
 * unchanged: lower-case scheme and host name (last label starting with a
 * letter, so never an IPv4 address), no port, no user info, a path of
 * characters it does not percent-encode, no `.`/`%2e` segment to remove, no
 * fragment. Such URLs skip `new URL()`, which costs several times more than
 * this test; anything else takes the slow path and comes out normalised, so
 * the result is the same either way.
 */
const ALREADY_NORMAL =
  /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?:\/(?!\.|%2[eE])[!$%&(-.0-;=?-[\]^_a-z|~]*)+$/;

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

/**
 * The page URL a `<loc>` (or feed link, or text line) stands for: trimmed,
 * resolved against `base`, WHATWG-normalised, fragment kept.
 *
 * @param raw The element's text.
 * @param base The sitemap's parsed URL, or null.
 * @returns The absolute http(s) URL, or null when `raw` is empty, unparseable
 * or of another scheme.
 */
export function resolvePageUrl(raw: string, base: URL | null): string | null {
  if (ALREADY_NORMAL.test(raw)) return raw;
  const trimmed = raw.trim();
  if (trimmed === "") return null;
  if (trimmed !== raw && ALREADY_NORMAL.test(trimmed)) return trimmed;
  const url = base === null ? URL.parse(trimmed) : URL.parse(trimmed, base);
  return url !== null && isHttp(url) ? url.href : null;
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
  const url = base === null ? URL.parse(trimmed) : URL.parse(trimmed, base);
  if (url === null || !isHttp(url)) return null;
  url.hash = "";
  return url.href;
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
