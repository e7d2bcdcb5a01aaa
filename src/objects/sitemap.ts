/**
 * The sitemap tree: index nodes that list other sitemaps, pages nodes that
 * list pages, and invalid nodes that say why a sitemap could not be read.
 *
 * Every node answers the same questions (`subSitemaps`, `pages`,
 * `allSitemaps()`, `allPages()`, `toJSON()`), with empty answers where they do
 * not apply, so callers need not check a node's type. Children are fixed when a
 * node is built: the tree is built bottom-up and never changes afterwards.
 *
 * @module
 */

import type { PackedPages } from "../parse/_result.ts";
import { RobotsTxt } from "../parse/robots_txt.ts";
import { EMPTY_STATS, type SitemapTreeStats } from "../stats.ts";
import type { SitemapPage, SitemapPageJSON } from "./page.ts";
import { isoString } from "./_iso.ts";
import { type LazyChildren, lazyIndexChildren } from "./_lazy_children.ts";
import {
  checkPackedPages,
  iteratePages,
  materialisePackedPages,
  nodePageSources,
  type PageSource,
} from "./_packed_pages.ts";

/** The `type` of each node class, as `toJSON()` writes it. */
export type SitemapType =
  | "website"
  | "robots"
  | "index"
  | "urlset"
  | "text"
  | "rss"
  | "atom"
  | "invalid";

/** The `type` of the four pages node classes. */
export type PagesSitemapType = "urlset" | "text" | "rss" | "atom";

/** An {@linkcode IndexWebsiteSitemap} as JSON. */
export interface WebsiteSitemapJSON {
  /** Which class the node is. */
  readonly type: "website";
  /** See {@linkcode AbstractSitemap.url}. */
  readonly url: string;
  /** The children as JSON, in order. */
  readonly subSitemaps: readonly SitemapJSON[];
}

/** An {@linkcode IndexRobotsTxtSitemap} or {@linkcode IndexXMLSitemap} as JSON. */
export interface IndexSitemapJSON {
  /** Which class the node is. */
  readonly type: "robots" | "index";
  /** See {@linkcode AbstractSitemap.url}. */
  readonly url: string;
  /** The children as JSON, in order. */
  readonly subSitemaps: readonly SitemapJSON[];
  /** Aligned with `subSitemaps`: each entry's `<lastmod>` as ISO 8601, or null. */
  readonly subSitemapLastModified: readonly (string | null)[];
  /**
   * A robots.txt node's text (`robots.text`), from which its rules are read
   * back; absent for an index, and for a robots.txt whose text is not known.
   */
  readonly robotsTxt?: string;
}

/** A pages node as JSON. */
export interface PagesSitemapJSON {
  /** Which class the node is. */
  readonly type: PagesSitemapType;
  /** See {@linkcode AbstractSitemap.url}. */
  readonly url: string;
  /** The pages as JSON, in order. */
  readonly pages: readonly SitemapPageJSON[];
  /** Present (and true) only for a node reused from the cache or skipped; see {@linkcode AbstractPagesSitemap.unchanged}. */
  readonly unchanged?: true;
}

/** An {@linkcode InvalidSitemap} as JSON. */
export interface InvalidSitemapJSON {
  /** Which class the node is. */
  readonly type: "invalid";
  /** See {@linkcode AbstractSitemap.url}. */
  readonly url: string;
  /** See {@linkcode InvalidSitemap.reason}. */
  readonly reason: string;
}

/** Any node as `toJSON()` writes it; `sitemapTreeFromJSON()` reads it back. */
export type SitemapJSON =
  | WebsiteSitemapJSON
  | IndexSitemapJSON
  | PagesSitemapJSON
  | InvalidSitemapJSON;

/** Reads a node's private storage; assigned in `AbstractPagesSitemap`'s static block. */
let pageSourceOf: (node: AbstractPagesSitemap) => PageSource;

const NO_SITEMAPS: readonly AbstractSitemap[] = Object.freeze([]);
const NO_PAGES: readonly SitemapPage[] = Object.freeze([]);

/**
 * What every node of the tree has.
 *
 * @example Walk a tree without caring about node types
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { IndexWebsiteSitemap, PagesXMLSitemap, SitemapPage } from "@sitemap/tree/parse";
 *
 * const pages = new PagesXMLSitemap("https://example.com/sitemap.xml", [
 *   new SitemapPage({ url: "https://example.com/" }),
 * ]);
 * const root = new IndexWebsiteSitemap("https://example.com/", [pages]);
 * deepStrictEqual([...root.allPages()].map((page) => page.url), ["https://example.com/"]);
 * ```
 */
export abstract class AbstractSitemap {
  /** Which kind of node this is; also written by `toJSON()`. */
  abstract readonly type: SitemapType;
  /** The sitemap's URL, after redirects. */
  readonly url: string;

  /**
   * Sets the URL every node has.
   *
   * @param url The sitemap's URL, after redirects.
   */
  constructor(url: string) {
    this.url = url;
  }

  /** The direct children; empty (and frozen) for pages and invalid nodes. */
  abstract get subSitemaps(): readonly AbstractSitemap[];

  /** The pages this node lists itself; empty (and frozen) for index and invalid nodes. */
  abstract get pages(): readonly SitemapPage[];

  /**
   * Every descendant sitemap, pre-order depth-first, not including this node.
   *
   * @returns A generator over the descendants.
   *
   * @example List a tree's sitemaps
   * ```ts
   * import { deepStrictEqual } from "node:assert/strict";
   * import { IndexWebsiteSitemap, InvalidSitemap } from "@sitemap/tree/parse";
   *
   * const root = new IndexWebsiteSitemap("https://example.com/", [
   *   new InvalidSitemap("https://example.com/sitemap.xml", "Unable to fetch sitemap: 404"),
   * ]);
   * deepStrictEqual([...root.allSitemaps()].map((s) => s.type), ["invalid"]);
   * ```
   */
  *allSitemaps(): Generator<AbstractSitemap, void, undefined> {
    // An explicit stack: no generator chain as deep as the tree.
    const stack: AbstractSitemap[] = [];
    for (let i = this.subSitemaps.length - 1; i >= 0; i--) stack.push(this.subSitemaps[i]!);
    while (stack.length > 0) {
      const node = stack.pop()!;
      yield node;
      const children = node.subSitemaps;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  /**
   * Every page in this node's subtree, depth-first, each sitemap's pages in
   * document order.
   *
   * @returns A generator over the pages.
   *
   * @example Count a tree's pages
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { IndexWebsiteSitemap, PagesTextSitemap, SitemapPage } from "@sitemap/tree/parse";
   *
   * const root = new IndexWebsiteSitemap("https://example.com/", [
   *   new PagesTextSitemap("https://example.com/a.txt", [
   *     new SitemapPage({ url: "https://example.com/a" }),
   *   ]),
   * ]);
   * let count = 0;
   * for (const _ of root.allPages()) count++;
   * strictEqual(count, 1);
   * ```
   */
  abstract allPages(): Generator<SitemapPage, void, undefined>;

  /**
   * Serialises the node and its subtree (`JSON.stringify` calls this).
   *
   * @returns The node and its subtree as plain JSON data, readable back by
   * `sitemapTreeFromJSON()`.
   *
   * @example Serialise a tree
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { InvalidSitemap } from "@sitemap/tree/parse";
   *
   * strictEqual(
   *   JSON.stringify(new InvalidSitemap("https://example.com/x.xml", "Not a sitemap")),
   *   '{"type":"invalid","url":"https://example.com/x.xml","reason":"Not a sitemap"}',
   * );
   * ```
   */
  abstract toJSON(): SitemapJSON;
}

/** The date, or null for null or an invalid Date. */
function validDate(date: Date | null): Date | null {
  return date !== null && date.getTime() === date.getTime() ? date : null;
}

/**
 * A node that lists other sitemaps.
 *
 * @example Read the children's lastmod
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IndexXMLSitemap, InvalidSitemap } from "@sitemap/tree/parse";
 *
 * const child = new InvalidSitemap("https://example.com/a.xml", "Not a sitemap");
 * const index = new IndexXMLSitemap("https://example.com/index.xml", [child], [new Date(0)]);
 * strictEqual(index.subSitemapLastModified[0]?.toISOString(), "1970-01-01T00:00:00.000Z");
 * ```
 */
export abstract class AbstractIndexSitemap extends AbstractSitemap {
  #subSitemaps: readonly AbstractSitemap[] | null;
  #lastModified: readonly (Date | null)[] | null;
  /** Children not built yet (`sitemapFromString()`'s unfetched ones), else null. */
  #lazy: LazyChildren<AbstractSitemap> | null = null;

  /**
   * Builds an index node over children that are already built.
   *
   * @param url The sitemap's URL, after redirects.
   * @param subSitemaps The children, in the order the document named them.
   * @param subSitemapLastModified Each child's `<lastmod>` (aligned with
   * `subSitemaps`); all null when omitted. Invalid Dates become null.
   * @throws {RangeError} When `subSitemapLastModified` is not as long as `subSitemaps`.
   */
  constructor(
    url: string,
    subSitemaps: readonly AbstractSitemap[],
    subSitemapLastModified?: readonly (Date | null)[],
  ) {
    super(url);
    if (
      subSitemapLastModified !== undefined && subSitemapLastModified.length !== subSitemaps.length
    ) {
      throw new RangeError(
        `Expected subSitemapLastModified to hold ${subSitemaps.length} entries (one per sub-sitemap) but it holds ${subSitemapLastModified.length}`,
      );
    }
    this.#subSitemaps = subSitemaps.length === 0 ? NO_SITEMAPS : Object.freeze(subSitemaps.slice());
    this.#lastModified = Object.freeze(
      subSitemaps.map((_, i) => validDate(subSitemapLastModified?.[i] ?? null)),
    );
  }

  static {
    lazyIndexChildren.give = (node, lazy) => {
      if (!(node instanceof AbstractIndexSitemap) || node.#subSitemaps!.length > 0) {
        throw new TypeError("Lazy children go to an index node built without children");
      }
      node.#lazy = lazy as LazyChildren<AbstractSitemap>;
      node.#subSitemaps = null;
      node.#lastModified = null;
      return node;
    };
  }

  /** The direct children, in document order (frozen; the same array on every read). */
  override get subSitemaps(): readonly AbstractSitemap[] {
    if (this.#subSitemaps === null) {
      const lazy = this.#lazy!;
      this.#subSitemaps = lazy.count === 0
        ? NO_SITEMAPS
        : Object.freeze(Array.from({ length: lazy.count }, (_, i) => lazy.child(i)));
      this.#settle();
    }
    return this.#subSitemaps;
  }

  /**
   * Aligned with `subSitemaps`: the `<lastmod>` the index gave for each child,
   * or null (frozen; the same array on every read). All null for robots.txt
   * and website nodes.
   */
  get subSitemapLastModified(): readonly (Date | null)[] {
    if (this.#lastModified === null) {
      const lazy = this.#lazy!;
      this.#lastModified = Object.freeze(
        Array.from({ length: lazy.count }, (_, i) => validDate(lazy.lastModified(i))),
      );
      this.#settle();
    }
    return this.#lastModified;
  }

  /** Lets go of the lazy source once both arrays are built. */
  #settle(): void {
    if (this.#subSitemaps !== null && this.#lastModified !== null) this.#lazy = null;
  }

  /** Always empty: index nodes list sitemaps, not pages. */
  override get pages(): readonly SitemapPage[] {
    return NO_PAGES;
  }

  /**
   * Every page of every descendant pages node, depth-first.
   *
   * @returns A generator over the pages.
   */
  override allPages(): Generator<SitemapPage, void, undefined> {
    return iteratePages(pageSourcesOf(this.allSitemaps()));
  }

  /**
   * Serialises the index and its subtree.
   *
   * @returns The index and its subtree as JSON data.
   */
  abstract override toJSON(): WebsiteSitemapJSON | IndexSitemapJSON;

  /** JSON of the children and their lastmod, for the subclasses' `toJSON()`. */
  protected childrenJSON(): {
    subSitemaps: SitemapJSON[];
    subSitemapLastModified: (string | null)[];
  } {
    return {
      subSitemaps: this.subSitemaps.map((node) => node.toJSON()),
      subSitemapLastModified: this.subSitemapLastModified.map((date) =>
        date === null ? null : isoString(date.getTime())
      ),
    };
  }
}

/**
 * A node that lists pages.
 *
 * Built from {@linkcode PackedPages} (what the parsers produce), it keeps only
 * those columns and builds page objects when they are read: `allPages()`
 * builds fresh objects on every traversal and keeps none, so iterating a huge
 * tree keeps memory flat; `pages` builds the whole array once and caches it
 * (after which `allPages()` yields those same cached objects).
 *
 * @example Read pages lazily
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PagesTextSitemap, SitemapPage } from "@sitemap/tree/parse";
 *
 * const node = new PagesTextSitemap("https://example.com/sitemap.txt", [
 *   new SitemapPage({ url: "https://example.com/a" }),
 * ]);
 * strictEqual(node.pageCount, 1);
 * strictEqual(node.pages[0]?.url, "https://example.com/a");
 * ```
 */
export abstract class AbstractPagesSitemap extends AbstractSitemap {
  /** The document's format. */
  abstract override readonly type: PagesSitemapType;
  /** How many pages this node lists; reading it builds no page objects. */
  readonly pageCount: number;
  /**
   * True when the sitemap was not parsed in this call: the server answered
   * `304 Not Modified` and the cached result was reused, or
   * `skipUnchangedSitemaps` skipped it. With `since`, such a node lists only
   * the cached pages that still count as changed (often none).
   */
  readonly unchanged: boolean;
  #packed: PackedPages | null;
  #pages: readonly SitemapPage[] | null;

  /**
   * Builds a pages node.
   *
   * @param url The sitemap's URL, after redirects.
   * @param pages The pages in column form (kept as is, read lazily) or as
   * objects (copied into a frozen array).
   * @param options `unchanged`: see {@linkcode AbstractPagesSitemap.unchanged} (default false).
   * @throws {RangeError} When packed columns are shorter than their `count`
   * or their URL offsets are out of order.
   */
  constructor(
    url: string,
    pages: PackedPages | readonly SitemapPage[],
    options: { readonly unchanged?: boolean } = {},
  ) {
    super(url);
    this.unchanged = options.unchanged === true;
    if (isPageArray(pages)) {
      this.#packed = null;
      this.#pages = pages.length === 0 ? NO_PAGES : Object.freeze(pages.slice());
      this.pageCount = pages.length;
    } else {
      checkPackedPages(pages);
      this.#packed = pages.count === 0 ? null : pages;
      this.#pages = pages.count === 0 ? NO_PAGES : null;
      this.pageCount = pages.count;
    }
  }

  /** Always empty: pages nodes have no sub-sitemaps. */
  override get subSitemaps(): readonly AbstractSitemap[] {
    return NO_SITEMAPS;
  }

  /**
   * The pages, in document order (frozen). The first read builds every page
   * object and caches the array, which then costs memory as long as the node
   * lives; use `allPages()` to stream instead.
   */
  override get pages(): readonly SitemapPage[] {
    if (this.#pages === null) {
      this.#pages = Object.freeze(materialisePackedPages(this.#packed!));
      // The objects now hold everything; the columns would only double the cost.
      this.#packed = null;
    }
    return this.#pages;
  }

  /**
   * This node's pages in document order. Until `pages` is read, each call
   * builds fresh page objects and caches none.
   *
   * @returns A generator over the pages.
   */
  override allPages(): Generator<SitemapPage, void, undefined> {
    return iteratePages([pageSourceOf(this)]);
  }

  static {
    pageSourceOf = (node) => node.#pages ?? node.#packed!;
    nodePageSources.read = (node) => pageSourceOf(node as AbstractPagesSitemap);
  }

  /**
   * Serialises the node and its pages, building page objects only for the
   * while (the `pages` cache is not filled).
   *
   * @returns `{ type, url, pages }`, plus `unchanged: true` when it is.
   */
  override toJSON(): PagesSitemapJSON {
    const pages: SitemapPageJSON[] = [];
    for (const page of this.allPages()) pages.push(page.toJSON());
    return this.unchanged
      ? { type: this.type, url: this.url, pages, unchanged: true }
      : { type: this.type, url: this.url, pages };
  }
}

/** The page sources of the pages nodes among `nodes`, each read when reached. */
function* pageSourcesOf(nodes: Iterable<AbstractSitemap>): Generator<PageSource, void, undefined> {
  for (const node of nodes) {
    if (node instanceof AbstractPagesSitemap) yield pageSourceOf(node);
  }
}

function isPageArray(pages: PackedPages | readonly SitemapPage[]): pages is readonly SitemapPage[] {
  return Array.isArray(pages);
}

/**
 * The root of every tree `sitemapTreeForHomepage()` returns: its children are
 * the robots.txt node (if fetched), then each sitemap found at a well-known path.
 *
 * @example Build a root
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IndexWebsiteSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new IndexWebsiteSitemap("https://example.com/", []).type, "website");
 * ```
 */
export class IndexWebsiteSitemap extends AbstractIndexSitemap {
  /** Always `"website"`. */
  override readonly type: "website" = "website";

  /**
   * Diagnostics of the call that built this tree: sitemaps by type, invalid
   * ones with reasons, requests, bytes, pages, timings. All zero for a tree
   * built by hand or from JSON (stats are not part of the JSON form).
   */
  readonly stats: SitemapTreeStats;

  /**
   * Builds the root of a tree.
   *
   * @param url The homepage URL.
   * @param subSitemaps The robots.txt node, then the well-known-path sitemaps.
   * @param stats Diagnostics of the call that built it.
   */
  constructor(
    url: string,
    subSitemaps: readonly AbstractSitemap[],
    stats: SitemapTreeStats = EMPTY_STATS,
  ) {
    super(url, subSitemaps);
    this.stats = stats;
  }

  /**
   * Serialises the tree.
   *
   * @returns `{ type, url, subSitemaps }` (a website has no lastmod list).
   */
  override toJSON(): WebsiteSitemapJSON {
    return { type: this.type, url: this.url, subSitemaps: this.childrenJSON().subSitemaps };
  }
}

/**
 * A robots.txt file, as an index of the sitemaps its `Sitemap:` lines name.
 *
 * @example Build a robots.txt node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IndexRobotsTxtSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new IndexRobotsTxtSitemap("https://example.com/robots.txt", []).type, "robots");
 * ```
 */
export class IndexRobotsTxtSitemap extends AbstractIndexSitemap {
  /** Always `"robots"`. */
  override readonly type: "robots" = "robots";
  /** The text until `robots` is first read, then null. */
  #text: string | null;
  #robots: RobotsTxt | null;

  /**
   * Builds a robots.txt node over children that are already built.
   *
   * @param url The robots.txt's URL, after redirects.
   * @param subSitemaps The sitemaps its `Sitemap:` lines name, in order.
   * @param subSitemapLastModified Aligned with `subSitemaps`; all null when omitted.
   * @param robots The robots.txt's text (its rules are parsed when
   * {@linkcode IndexRobotsTxtSitemap.robots} is first read) or its parsed
   * form; empty when omitted (no rules: everything allowed).
   * @throws {RangeError} When `subSitemapLastModified` is not as long as `subSitemaps`.
   */
  constructor(
    url: string,
    subSitemaps: readonly AbstractSitemap[],
    subSitemapLastModified?: readonly (Date | null)[],
    robots: string | RobotsTxt = "",
  ) {
    super(url, subSitemaps, subSitemapLastModified);
    this.#text = typeof robots === "string" ? robots : null;
    this.#robots = typeof robots === "string" ? null : robots;
  }

  /**
   * The robots.txt itself: its `Sitemap:` lines, its rules for each user
   * agent (`isAllowed()`, `matchingRule()`) and its `Crawl-delay`s, read
   * from its text when first asked for. A node built without text (by hand,
   * or from JSON written before robots.txt rules were kept) has no rules.
   *
   * @example Is a page disallowed?
   * ```ts
   * import { strictEqual } from "node:assert/strict";
   * import { IndexRobotsTxtSitemap } from "./sitemap.ts";
   *
   * const node = new IndexRobotsTxtSitemap("https://example.com/robots.txt", [], undefined,
   *   "User-agent: *\nDisallow: /private/\n");
   * strictEqual(node.robots.isAllowed("https://example.com/private/a"), false);
   * ```
   */
  get robots(): RobotsTxt {
    if (this.#robots === null) {
      this.#robots = new RobotsTxt(this.#text ?? "", this.url);
      this.#text = null;
    }
    return this.#robots;
  }

  /**
   * Serialises the index and its subtree, with the robots.txt's text when it has one.
   *
   * @returns `{ type, url, subSitemaps, subSitemapLastModified, robotsTxt }`
   * (`robotsTxt` left out when empty).
   */
  override toJSON(): IndexSitemapJSON {
    const text = this.#text ?? this.#robots!.text;
    return text === ""
      ? { type: this.type, url: this.url, ...this.childrenJSON() }
      : { type: this.type, url: this.url, ...this.childrenJSON(), robotsTxt: text };
  }
}

/**
 * An XML `<sitemapindex>`.
 *
 * @example Build an index node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { IndexXMLSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new IndexXMLSitemap("https://example.com/sitemap_index.xml", []).type, "index");
 * ```
 */
export class IndexXMLSitemap extends AbstractIndexSitemap {
  /** Always `"index"`. */
  override readonly type: "index" = "index";

  /**
   * Serialises the index and its subtree.
   *
   * @returns `{ type, url, subSitemaps, subSitemapLastModified }`.
   */
  override toJSON(): IndexSitemapJSON {
    return { type: this.type, url: this.url, ...this.childrenJSON() };
  }
}

/**
 * An XML `<urlset>`.
 *
 * @example Build a urlset node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PagesXMLSitemap, SitemapPage } from "@sitemap/tree/parse";
 *
 * const node = new PagesXMLSitemap("https://example.com/sitemap.xml", [
 *   new SitemapPage({ url: "https://example.com/" }),
 * ]);
 * strictEqual(node.type, "urlset");
 * strictEqual(node.pageCount, 1);
 * ```
 */
export class PagesXMLSitemap extends AbstractPagesSitemap {
  /** Always `"urlset"`. */
  override readonly type: "urlset" = "urlset";
}

/**
 * A plain-text sitemap: one URL per line.
 *
 * @example Build a text node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PagesTextSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new PagesTextSitemap("https://example.com/sitemap.txt", []).type, "text");
 * ```
 */
export class PagesTextSitemap extends AbstractPagesSitemap {
  /** Always `"text"`. */
  override readonly type: "text" = "text";
}

/**
 * An RSS 2.0 or RSS 1.0 (RDF) feed; each item's title and date are its page's news story.
 *
 * @example Build an RSS node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PagesRSSSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new PagesRSSSitemap("https://example.com/feed.rss", []).type, "rss");
 * ```
 */
export class PagesRSSSitemap extends AbstractPagesSitemap {
  /** Always `"rss"`. */
  override readonly type: "rss" = "rss";
}

/**
 * An Atom 0.3 or 1.0 feed; each entry's title and date are its page's news story.
 *
 * @example Build an Atom node
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PagesAtomSitemap } from "@sitemap/tree/parse";
 *
 * strictEqual(new PagesAtomSitemap("https://example.com/feed.atom", []).type, "atom");
 * ```
 */
export class PagesAtomSitemap extends AbstractPagesSitemap {
  /** Always `"atom"`. */
  override readonly type: "atom" = "atom";
}

/**
 * A sitemap that could not be fetched or read, with the reason.
 *
 * @example Build an invalid node
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { InvalidSitemap } from "@sitemap/tree/parse";
 *
 * const node = new InvalidSitemap("https://example.com/x.xml", "Unable to fetch sitemap: 404");
 * deepStrictEqual(
 *   [node.type, node.reason, node.pages],
 *   ["invalid", "Unable to fetch sitemap: 404", []],
 * );
 * ```
 */
export class InvalidSitemap extends AbstractSitemap {
  /** Always `"invalid"`. */
  override readonly type: "invalid" = "invalid";
  /** Why the sitemap could not be used, in words a person can act on. */
  readonly reason: string;

  /**
   * Builds an invalid node.
   *
   * @param url The sitemap's URL, after redirects.
   * @param reason Why it could not be used.
   */
  constructor(url: string, reason: string) {
    super(url);
    this.reason = reason;
  }

  /** Always empty. */
  override get subSitemaps(): readonly AbstractSitemap[] {
    return NO_SITEMAPS;
  }

  /** Always empty. */
  override get pages(): readonly SitemapPage[] {
    return NO_PAGES;
  }

  /**
   * Yields nothing: an invalid sitemap has no pages.
   *
   * @returns An empty generator.
   */
  override *allPages(): Generator<SitemapPage, void, undefined> {}

  /**
   * Serialises the node.
   *
   * @returns `{ type, url, reason }`.
   */
  override toJSON(): InvalidSitemapJSON {
    return { type: this.type, url: this.url, reason: this.reason };
  }
}
