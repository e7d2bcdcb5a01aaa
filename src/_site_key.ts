/**
 * The key that says two homepages are one site: `batch` crawls each key once
 * and `enqueue` makes it the job id, so both count the same lines as
 * duplicates.
 *
 * @module
 */

/**
 * The key of a homepage: its normalised URL (scheme, host and port, path
 * `/`) when it is an http(s) URL, else the trimmed text. Trimming drops a
 * line's `\r` too, so a CRLF list names the same sites as an LF one.
 *
 * @param homepage A homepage as given.
 * @returns The key.
 *
 * @example Two spellings of one site
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { siteKey } from "./_site_key.ts";
 *
 * strictEqual(siteKey("HTTPS://Example.com/blog?x=1\r"), "https://example.com/");
 * strictEqual(siteKey(" not a url "), "not a url");
 * ```
 */
export function siteKey(homepage: string): string {
  const text = homepage.trim();
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") {
      url.pathname = "/";
      url.search = "";
      url.hash = "";
      return url.href;
    }
  } catch {
    // Not a URL: the crawl reports it as that site's input error.
  }
  return text;
}
