/**
 * One side of a tree comparison: the tree's sitemaps in order, its pages
 * nodes' columns, and its failures, read once without building a page.
 *
 * @module
 */
import type { PackedPages } from "./parse/_result.ts";
import { urlByteEnds } from "./parse/_url_bytes.ts";
import { pagesColumns } from "./objects/_columns.ts";
import { packedPageAt } from "./objects/_packed_pages.ts";
import type { SitemapPage } from "./objects/page.ts";
import type { SitemapTreeStats } from "./stats.ts";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
} from "./objects/sitemap.ts";

const decoder = new TextDecoder();

/** A tree's sitemaps and pages, numbered: what the comparison reads. */
export class TreeIndex {
  /** Every sitemap in pre-order: the root too, unless it is the website (the homepage is no sitemap). */
  readonly nodes: AbstractSitemap[] = [];
  /** Each node's parent in {@linkcode nodes}, or -1 under the root. */
  readonly parents: number[] = [];
  /** Each sitemap URL's first node. */
  readonly firstOf: Map<string, number> = new Map();
  /** The pages nodes, as indexes into {@linkcode nodes}, in order. */
  readonly pagesNodes: number[] = [];
  /** Per pages node: its pages as columns. */
  readonly columns: PackedPages[] = [];
  /** Per pages node: where each URL ends in its `urlBytes`, in bytes. */
  readonly byteEnds: Uint32Array[] = [];
  /** Per pages node: the number of its first page among all the tree's pages; then the total. */
  readonly bases: number[] = [0];
  /** Per sitemap URL: the pages nodes with that URL (a URL the tree names twice has two). */
  readonly pagesNodesOf: Map<string, number[]> = new Map();
  /**
   * Why the whole site could not be read (a website root whose crawl
   * reached no server, or was refused everywhere), else null.
   */
  readonly outage: string | null;
  /** Sitemaps the crawl requested and could not read but left out of the tree, with why. */
  readonly failures: ReadonlyMap<string, string> = new Map();

  /** @param root The tree's root. */
  constructor(root: AbstractSitemap) {
    const stack: [AbstractSitemap, number][] = [];
    let outage: string | null = null;
    if (root instanceof IndexWebsiteSitemap) {
      const stats = root.stats;
      if (stats.outcome !== "ok" && stats.outcome !== "no-sitemaps") {
        const why = stats.outcomeReason ?? "no request was answered";
        outage = stats.outcome === "blocked"
          ? `Site ${why}`
          : `${
            stats.outcome === "unreachable" ? "Site unreachable" : `Site ${stats.outcome}`
          }: ${why}`;
      }
      this.failures = failuresLeftOut(stats);
      const children = root.subSitemaps;
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, -1]);
    } else {
      stack.push([root, -1]);
    }
    this.outage = outage;
    while (stack.length > 0) {
      const [node, parent] = stack.pop()!;
      const index = this.nodes.length;
      this.nodes.push(node);
      this.parents.push(parent);
      if (!this.firstOf.has(node.url)) this.firstOf.set(node.url, index);
      if (node instanceof AbstractPagesSitemap) this.#addPages(node, index);
      const children = node.subSitemaps;
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, index]);
    }
  }

  #addPages(node: AbstractPagesSitemap, index: number): void {
    const k = this.columns.length;
    const columns = pagesColumns(node);
    this.pagesNodes.push(index);
    this.columns.push(columns);
    this.byteEnds.push(urlByteEnds(columns));
    this.bases.push(this.bases[k]! + columns.count);
    const list = this.pagesNodesOf.get(node.url);
    if (list === undefined) this.pagesNodesOf.set(node.url, [k]);
    else list.push(k);
  }

  /** Pages in the tree, every listing counted. */
  get pageCount(): number {
    return this.bases[this.bases.length - 1]!;
  }

  /** The pages node (its number among pages nodes) that holds page `g`. */
  pagesNodeOf(g: number, hint: number): number {
    const bases = this.bases;
    if (g >= bases[hint]! && g < bases[hint + 1]!) return hint;
    let lo = 0;
    let hi = bases.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bases[mid]! <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Where page `i` of pages node `k` starts in its `urlBytes`. */
  urlStart(k: number, i: number): number {
    return i === 0 ? 0 : this.byteEnds[k]![i - 1]!;
  }

  /** Page `i` of pages node `k`, built now. */
  page(k: number, i: number): SitemapPage {
    const columns = this.columns[k]!;
    const url = decoder.decode(
      columns.urlBytes.subarray(this.urlStart(k, i), this.byteEnds[k]![i]!),
    );
    return packedPageAt(columns, i, url);
  }

  /** The URL of pages node `k`. */
  pagesNodeUrl(k: number): string {
    return this.nodes[this.pagesNodes[k]!]!.url;
  }

  /**
   * Why the sitemap at `url` could not be read in this tree's crawl (its
   * invalid node, or a failure left out of the tree), or null when it was
   * read or not asked for.
   */
  failureOf(url: string): string | null {
    const at = this.firstOf.get(url);
    if (at !== undefined) {
      const node = this.nodes[at]!;
      return node instanceof InvalidSitemap ? node.reason : null;
    }
    return this.failures.get(url) ?? null;
  }
}

/**
 * The sitemaps a crawl requested and could not read, with why, from its
 * counters: a robots.txt or well-known path that failed is left out of the
 * tree, not forgotten (one that could not be read, that is; one that is
 * gone, 404 or 410, or is no sitemap, an HTML page answering 200, is simply
 * not there), and the invalid sitemaps the counters list.
 *
 * @param stats A crawl's counters.
 * @returns Reasons by URL, requested and final.
 */
export function failuresLeftOut(stats: SitemapTreeStats): Map<string, string> {
  const failures = new Map<string, string>();
  for (const fetch of stats.fetches) {
    const status = fetch.status;
    if (fetch.outcome !== "failed" || status === 404 || status === 410) continue;
    if (status !== null && status >= 200 && status < 300) continue;
    const why = status === null ? "no response" : `HTTP ${status}`;
    failures.set(fetch.url, `Unable to fetch sitemap from URL: ${why}`);
    failures.set(fetch.finalUrl, `Unable to fetch sitemap from URL: ${why}`);
  }
  for (const invalid of stats.invalid) failures.set(invalid.url, invalid.reason);
  return failures;
}

/**
 * 32-bit hash of `b[s, e)`: four bytes a step, multiply-rotate, then mixed.
 *
 * @param b The bytes.
 * @param s Start.
 * @param e End.
 * @param seed Varies the hash per comparison, so no crafted set of URLs collides every time.
 * @returns The hash.
 */
export function hashBytes(b: Uint8Array, s: number, e: number, seed: number): number {
  let h = seed ^ (e - s);
  let i = s;
  for (; i + 4 <= e; i += 4) {
    h = Math.imul(
      h ^ (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)),
      0x9e3779b1,
    );
    h = (h << 13) | (h >>> 19);
  }
  for (; i < e; i++) h = Math.imul(h ^ b[i]!, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return h ^ (h >>> 16);
}

/** Whether `a[as, ae)` and `b[bs, be)` hold the same bytes. */
export function sameBytes(
  a: Uint8Array,
  as: number,
  ae: number,
  b: Uint8Array,
  bs: number,
  be: number,
): boolean {
  if (ae - as !== be - bs) return false;
  for (let i = 0; i < ae - as; i++) if (a[as + i] !== b[bs + i]) return false;
  return true;
}
