/**
 * The feeds an HTML page links to: `<link rel="alternate">` RSS and Atom
 * links read from the homepage, which discovery adds to the tree. One linear
 * scan over the text, no DOM; malformed markup ends it early, never in a
 * throw.
 *
 * @module
 */

/** Feed links read from a page at most (a guard against pages listing thousands). */
export const MAX_FEED_LINKS = 20;

/**
 * A page's bytes as text: the charset its Content-Type names, else UTF-8
 * (an unknown charset is read as UTF-8 too).
 *
 * @param bytes The page's body, decompressed.
 * @param contentType The response's Content-Type, or null.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { decodeHtml } from "./html_feeds.ts";
 *
 * strictEqual(decodeHtml(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "text/html; charset=latin1"), "café");
 * ```
 */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

const FEED_TYPES = new Set(["application/rss+xml", "application/atom+xml"]);
/** Elements whose content is text, not markup: a `<link` inside them is not a link. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noscript", "template"]);
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * The feed URLs an HTML page links to with `<link rel="alternate"
 * type="application/rss+xml">` or `type="application/atom+xml"`, in document
 * order, deduplicated, at most `max`. Attribute names, `rel` tokens and types
 * are matched case-insensitively, in any order and any quoting; character
 * references in values are decoded; hrefs resolve against the first
 * `<base href>` (itself resolved against `pageUrl`), else `pageUrl`. Comments
 * and the content of `script`, `style` and other raw-text elements are
 * skipped. One linear pass; malformed markup ends it early, never in a throw.
 *
 * @param html The page's text.
 * @param pageUrl The page's URL (after redirects).
 * @param max The most feeds returned.
 * @returns Absolute http(s) URLs.
 *
 * @example One RSS feed
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { findFeedLinks } from "./html_feeds.ts";
 *
 * const feeds = findFeedLinks(
 *   `<head><LINK type='application/rss+xml' REL=alternate href="/feed?a=1&amp;b=2"></head>`,
 *   "https://example.com/",
 * );
 * deepStrictEqual(feeds, ["https://example.com/feed?a=1&b=2"]);
 * ```
 */
export function findFeedLinks(html: string, pageUrl: string, max = MAX_FEED_LINKS): string[] {
  const hrefs: string[] = [];
  let base: string | null = null;
  const n = html.length;
  let i = 0;
  while (i < n && hrefs.length < max) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    let j = lt + 1;
    if (html.charCodeAt(j) === 0x2f /* / */) {
      const end = html.indexOf(">", j);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    const nameStart = j;
    while (j < n && isTagNameChar(html.charCodeAt(j))) j++;
    if (j === nameStart) {
      i = lt + 1;
      continue;
    }
    const name = html.slice(nameStart, j).toLowerCase();
    const tag = readAttributes(html, j);
    i = tag.end;
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, "ig");
      close.lastIndex = i;
      if (close.exec(html) === null) break;
      i = close.lastIndex;
      continue;
    }
    const attrs = tag.attributes;
    if (name === "base" && base === null && attrs.has("href")) {
      base = attrs.get("href")!.trim();
    } else if (name === "link") {
      const rel = (attrs.get("rel") ?? "").toLowerCase().split(/[\t\n\f\r ]+/);
      const type = (attrs.get("type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
      const href = (attrs.get("href") ?? "").trim();
      if (rel.includes("alternate") && FEED_TYPES.has(type) && href !== "") hrefs.push(href);
    }
  }
  let baseUrl = pageUrl;
  if (base !== null && base !== "") {
    try {
      baseUrl = new URL(base, pageUrl).href;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  const urls: string[] = [];
  const keys = new Set<string>();
  for (const href of hrefs) {
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    if (keys.has(url.href)) continue;
    keys.add(url.href);
    urls.push(url.href);
  }
  return urls;
}

function isTagNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x2d || c === 0x5f || c === 0x3a;
}

/** HTML's ASCII white space, which (unlike XML's) includes form feed. */
function isHtmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Reads a start tag's attributes from `i` to its `>`; the first of repeated names wins. */
function readAttributes(html: string, i: number): { attributes: Map<string, string>; end: number } {
  const attributes = new Map<string, string>();
  const n = html.length;
  for (;;) {
    while (i < n && (isHtmlSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 0x2f)) i++;
    if (i >= n) return { attributes, end: n };
    if (html.charCodeAt(i) === 0x3e /* > */) return { attributes, end: i + 1 };
    const nameStart = i;
    while (i < n) {
      const c = html.charCodeAt(i);
      if (isHtmlSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d) break;
      i++;
    }
    // A stray `=` where a name should start: take it as part of the name, as HTML does.
    if (i === nameStart) i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isHtmlSpace(html.charCodeAt(i))) i++;
    let value = "";
    if (html.charCodeAt(i) === 0x3d /* = */) {
      i++;
      while (i < n && isHtmlSpace(html.charCodeAt(i))) i++;
      const quote = html.charCodeAt(i);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", i + 1);
        const end = close < 0 ? n : close;
        value = html.slice(i + 1, end);
        i = close < 0 ? n : close + 1;
      } else {
        const start = i;
        while (i < n && !isHtmlSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
        value = html.slice(start, i);
      }
    }
    if (!attributes.has(name)) attributes.set(name, decodeReferences(value));
  }
}

function decodeReferences(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});?/g, (whole, ref) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : "\ufffd";
    }
    return NAMED_REFERENCES[ref] ?? whole;
  });
}
