/**
 * Node builders shared by everything that turns a parse result (or its JSON)
 * into tree nodes: the crawler, `sitemapFromString()` and `sitemapTreeFromJSON()`.
 *
 * @module
 */
import type { IndexEntry, PackedPages } from "../parse/_result.ts";
import type { SitemapPage } from "./page.ts";
import {
  type AbstractPagesSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexXMLSitemap,
  PagesAtomSitemap,
  PagesRSSSitemap,
  type PagesSitemapType,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "./sitemap.ts";

const PAGES_CLASSES = {
  urlset: PagesXMLSitemap,
  text: PagesTextSitemap,
  rss: PagesRSSSitemap,
  atom: PagesAtomSitemap,
} as const;

/** The pages node of `type`. */
export function pagesSitemap(
  type: PagesSitemapType,
  url: string,
  pages: PackedPages | readonly SitemapPage[],
  options: { readonly unchanged?: boolean } = {},
): AbstractPagesSitemap {
  return new PAGES_CLASSES[type](url, pages, options);
}

/**
 * The index node of a robots.txt or `<sitemapindex>` whose entries became
 * `children`; a robots.txt keeps `robotsText`, its text.
 */
export function indexSitemap(
  format: "robots" | "index",
  url: string,
  children: readonly AbstractSitemap[],
  entries: readonly IndexEntry[],
  robotsText = "",
): IndexRobotsTxtSitemap | IndexXMLSitemap {
  const lastmods = entries.map((e) =>
    Number.isNaN(e.lastModified) ? null : new Date(e.lastModified)
  );
  return format === "robots"
    ? new IndexRobotsTxtSitemap(url, children, lastmods, robotsText)
    : new IndexXMLSitemap(url, children, lastmods);
}
