/**
 * `sitemapFromString()`: one document in, one node out, no network (USP's
 * `sitemap_from_str`).
 *
 * @module
 */
import { extensionsOption, sinceToEpoch } from "./options.ts";
import { isRobotsUrl } from "./parse/_detect.ts";
import { parseSitemap } from "./parse/parse_sitemap.ts";
import type { ParseResult } from "./parse/_result.ts";
import { type AbstractSitemap, InvalidSitemap } from "./objects/sitemap.ts";
import { indexSitemap, pagesSitemap } from "./objects/_build.ts";
import { lazyIndexChildren } from "./objects/_lazy_children.ts";

/** Options of {@linkcode sitemapFromString}. */
export interface SitemapFromStringOptions {
  /**
   * The document's URL: relative `<loc>`s resolve against it, and a URL
   * ending in `/robots.txt` makes the content read as robots.txt. Without it,
   * relative locations are skipped. @default {""}
   */
  readonly url?: string;
  /** Keep only pages whose lastmod is at or after this instant, or that have none. */
  readonly since?: Date | string;
  /**
   * When a urlset's image, video, news and hreflang blocks are decoded: on
   * the first read of a page's extensions (`"lazy"`), or now (`"eager"`), as
   * `SitemapTreeOptions.extensions` says. @default {"lazy"}
   */
  readonly extensions?: "lazy" | "eager";
}

/** The reason given to the children of an index parsed from a string. */
export const UNFETCHED_CHILD_REASON = "Un-fetched child sitemap";

const GZIP_REASON =
  "Gzip-compressed content: sitemapFromString() reads documents, so inflate it first " +
  "(sitemapTreeForHomepage() inflates what it downloads)";

/**
 * Parses one sitemap document you already have: a `<urlset>`,
 * `<sitemapindex>`, RSS, RDF or Atom feed, a text sitemap, or a robots.txt
 * (when `url` ends in `/robots.txt`). An index's children are not fetched:
 * they become `InvalidSitemap("Un-fetched child sitemap")`. An empty string is
 * an empty text sitemap. A string is read as it is; bytes are decoded by
 * their BOM, XML declaration or UTF-8.
 *
 * @param content The document, as text or as (uncompressed) bytes.
 * @param options The document's URL, the `since` filter and when to decode extensions.
 * @returns The document's node; `InvalidSitemap` with a reason when it is not a sitemap.
 * @throws {RangeError} When `since` is not a valid date, or `extensions` is
 *   neither `"lazy"` nor `"eager"`.
 *
 * @example Parse a text sitemap
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sitemapFromString } from "@sitemap/tree";
 *
 * const node = sitemapFromString("https://www.example.com/a\nhttps://www.example.com/b\n", {
 *   url: "https://www.example.com/sitemap.txt",
 * });
 * deepStrictEqual([node.type, node.pages.map((p) => p.url)], [
 *   "text",
 *   ["https://www.example.com/a", "https://www.example.com/b"],
 * ]);
 * ```
 */
export function sitemapFromString(
  content: string | Uint8Array,
  options: SitemapFromStringOptions = {},
): AbstractSitemap {
  const url = options.url ?? "";
  const since = sinceToEpoch(options.since);
  const extensions = extensionsOption(options.extensions);
  if (typeof content !== "string" && !(content instanceof Uint8Array)) {
    throw new TypeError(`Content must be a string or a Uint8Array, got ${typeof content}`);
  }
  if (content instanceof Uint8Array && content[0] === 0x1f && content[1] === 0x8b) {
    return new InvalidSitemap(url, GZIP_REASON);
  }
  const isString = typeof content === "string";
  const bytes = isString ? new TextEncoder().encode(content) : content;
  const result = parseSitemap(bytes, {
    url,
    since,
    robots: isRobotsUrl(url),
    extensions,
    // A JavaScript string is already decoded: its XML declaration's encoding no longer applies.
    ...(isString ? { encoding: "utf-8" } : {}),
  });
  return nodeOf(url, result);
}

function nodeOf(url: string, result: ParseResult): AbstractSitemap {
  switch (result.kind) {
    case "invalid":
      return new InvalidSitemap(url, result.reason);
    case "index": {
      // Placeholders most callers never read: built when first asked for.
      const entries = result.children;
      return lazyIndexChildren.give(indexSitemap(result.format, url, [], [], result.robotsText), {
        count: entries.length,
        child: (i) => new InvalidSitemap(entries[i]!.url, UNFETCHED_CHILD_REASON),
        lastModified: (i) => {
          const epoch = entries[i]!.lastModified;
          return Number.isNaN(epoch) ? null : new Date(epoch);
        },
      });
    }
    case "pages":
      return pagesSitemap(result.format, url, result.pages);
  }
}
