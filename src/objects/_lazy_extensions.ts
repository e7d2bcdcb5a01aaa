/**
 * How a packed source hands a {@linkcode SitemapPage} its extensions to build
 * on first read, kept out of page.ts so that the public module exports
 * nothing of it. Generic in the extension classes, so that this module needs
 * nothing from page.ts (no import cycle, not even of types).
 *
 * @module
 */

/** A page's extensions, as an {@linkcode ExtensionsSource} builds them. */
export interface PageExtensions<News, Image, Video, Alternate> {
  readonly newsStory: News | null;
  /** Fresh lists: the page freezes them without a copy. */
  readonly images: readonly Image[];
  readonly videos: readonly Video[];
  readonly alternates: readonly Alternate[];
}

/** Where a page gets its extensions when one of them is first read. */
export interface ExtensionsSource<News, Image, Video, Alternate> {
  /**
   * Builds page `index`'s extensions.
   *
   * @param index The page's index in the source.
   * @returns Its extensions.
   */
  extensions(index: number): PageExtensions<News, Image, Video, Alternate>;
}

/**
 * The source and index the next `SitemapPage` constructor takes (and clears):
 * set just before `new SitemapPage(...)` by the packed reader only.
 */
export const pendingExtensions: {
  source: ExtensionsSource<unknown, unknown, unknown, unknown> | null;
  index: number;
} = { source: null, index: 0 };
