/**
 * Index children built when first read: `sitemapFromString()` gives an
 * index's unfetched children this way, since most callers never read those
 * placeholders (an index of 50,000 children would otherwise build 50,000
 * `InvalidSitemap`s and `Date`s up front). Internal: not exported by the package.
 *
 * @module
 */

/**
 * How many children, and how to build the i-th (an `AbstractSitemap`: this
 * module names no node class, so that sitemap.ts can import it) and its
 * `<lastmod>` (null when none).
 */
export interface LazyChildren<Child = unknown> {
  readonly count: number;
  child(i: number): Child;
  lastModified(i: number): Date | null;
}

/**
 * Gives a new index node (an `AbstractIndexSitemap`) with no children the
 * children of `lazy`, built when `subSitemaps` or `subSitemapLastModified`
 * is first read. Set by `AbstractIndexSitemap`, which alone can reach the
 * node's fields.
 */
export const lazyIndexChildren: {
  give: <T extends object>(node: T, lazy: LazyChildren) => T;
} = {
  give: () => {
    throw new Error("AbstractIndexSitemap is not loaded");
  },
};
