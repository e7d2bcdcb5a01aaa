/**
 * The sitemap tree as nested `<details>`: each node's type, page count,
 * bytes, HTTP status or invalid reason, and the lastmod its index gave it;
 * a pages node holds a sample of its page URLs, not all of them.
 *
 * @module
 */
import { isoString } from "../objects/_iso.ts";
import {
  AbstractIndexSitemap,
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
} from "../objects/sitemap.ts";
import type { SitemapFetchStat } from "../stats.ts";
import { formatBytes, formatCount } from "../format/_units.ts";
import { type Html, linkTo, markup } from "./_html.ts";

/** Index levels shown open when the report opens; deeper ones start collapsed. */
const OPEN_LEVELS = 3;

/**
 * An index with more children than this starts collapsed: a browser lays
 * out only what is open, and thousands of rows at once cost seconds.
 */
const OPEN_CHILDREN = 100;

/** How the tree is drawn. */
export interface TreeView {
  /** Fetch records by requested and final URL (empty for a tree that was not crawled). */
  readonly fetches: ReadonlyMap<string, SitemapFetchStat>;
  /** Page URLs shown per pages node. */
  readonly sample: number;
  /** Page URLs the whole tree may still show; each sample takes from it. */
  budget: number;
}

/**
 * The fetch records of a crawl by URL, requested and final, the first record winning.
 *
 * @param fetches The call's fetch records.
 * @returns The records by URL.
 */
export function fetchesByUrl(
  fetches: readonly SitemapFetchStat[],
): Map<string, SitemapFetchStat> {
  const byUrl = new Map<string, SitemapFetchStat>();
  for (const f of fetches) {
    if (!byUrl.has(f.finalUrl)) byUrl.set(f.finalUrl, f);
    if (!byUrl.has(f.url)) byUrl.set(f.url, f);
  }
  return byUrl;
}

/** Pages listed in a node's subtree, every listing counted. */
function subtreePages(node: AbstractSitemap): number {
  let n = node instanceof AbstractPagesSitemap ? node.pageCount : 0;
  for (const child of node.allSitemaps()) {
    if (child instanceof AbstractPagesSitemap) n += child.pageCount;
  }
  return n;
}

/**
 * A count and its noun: `1 page`, `2 pages`.
 *
 * @param n The count.
 * @param one The noun for one.
 * @param many The noun for any other count.
 * @returns E.g. `50,000 pages`.
 */
export function counted(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The facts after a node's URL: children, pages, bytes, status, lastmod. */
function facts(node: AbstractSitemap, view: TreeView, lastmod: Date | null): string {
  const parts: string[] = [];
  if (node instanceof AbstractIndexSitemap) {
    parts.push(counted(node.subSitemaps.length, "sitemap", "sitemaps"));
  }
  if (!(node instanceof InvalidSitemap)) parts.push(counted(subtreePages(node), "page", "pages"));
  const fetch = view.fetches.get(node.url);
  if (fetch !== undefined && fetch.downloadedBytes > 0) {
    parts.push(formatBytes(fetch.downloadedBytes));
  }
  if (fetch !== undefined && fetch.status !== null) parts.push(`HTTP ${fetch.status}`);
  if (lastmod !== null) parts.push(`lastmod ${isoString(lastmod.getTime()).slice(0, 10)}`);
  return parts.join(" · ");
}

/** The first `sample` pages of a pages node, as a list, and how many are left out. */
function sampleList(node: AbstractPagesSitemap, view: TreeView): Html {
  const sample = Math.min(view.sample, view.budget);
  view.budget -= Math.min(sample, node.pageCount);
  const items: Html[] = [];
  if (sample > 0) {
    for (const page of node.allPages()) {
      const title = page.newsStory?.title;
      const said = title ? markup` <span class="muted">— ${title}</span>` : "";
      items.push(markup`<li>${linkTo(page.url)}${said}</li>`);
      if (items.length >= sample) break;
    }
  }
  const rest = node.pageCount - items.length;
  const more = rest > 0
    ? markup`<li class="more">… ${counted(rest, "more page", "more pages")} not listed here</li>`
    : "";
  return markup`<ol class="sample">${items}${more}</ol>`;
}

function label(node: AbstractSitemap, view: TreeView, lastmod: Date | null): Html {
  const meta = facts(node, view, lastmod);
  // The spaces between the parts are for copying and reading aloud; CSS sets the gaps.
  const metaPart = meta === "" ? "" : markup` <span class="meta">${meta}</span>`;
  const reason = node instanceof InvalidSitemap
    ? markup` <span class="reason">${node.reason}</span>`
    : "";
  return markup`<span class="node"><span class="type type-${node.type}">${node.type}</span> <span class="url">${
    linkTo(node.url)
  }</span>${metaPart}${reason}</span>`;
}

/**
 * One node and its subtree as a list item: a `<details>` when it has
 * children or pages to show, a plain line otherwise.
 *
 * @param node The node.
 * @param view How to draw it.
 * @param level Its depth (the root is 0).
 * @param lastmod The lastmod its index gave it, or null.
 * @returns The markup.
 */
export function treeNode(
  node: AbstractSitemap,
  view: TreeView,
  level = 0,
  lastmod: Date | null = null,
): Html {
  const head = label(node, view, lastmod);
  if (node instanceof AbstractIndexSitemap && node.subSitemaps.length > 0) {
    const lastmods = node instanceof IndexWebsiteSitemap ? [] : node.subSitemapLastModified;
    const children = node.subSitemaps.map((child, i) =>
      treeNode(child, view, level + 1, lastmods[i] ?? null)
    );
    const open = level === 0 ||
        (level < OPEN_LEVELS && node.subSitemaps.length <= OPEN_CHILDREN)
      ? " open"
      : "";
    return markup`<li><details${open}><summary>${head}</summary><ul>${children}</ul></details></li>`;
  }
  if (node instanceof AbstractPagesSitemap && node.pageCount > 0) {
    const pages = sampleList(node, view);
    return markup`<li><details><summary>${head}</summary>${pages}</details></li>`;
  }
  return markup`<li><div class="leaf">${head}</div></li>`;
}
