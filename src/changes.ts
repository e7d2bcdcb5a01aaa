/**
 * What changed between two crawls of a site: `compareSitemapTrees()` and
 * the shapes of its answer (docs/design.md#changes-between-crawls).
 *
 * Pages are compared by URL across each whole tree; a URL listed in several
 * sitemaps counts once, as its first listing in tree order. The counts are
 * computed at once, in one pass over the packed columns (a hash table of
 * URL bytes, no page objects); the changes themselves are built one at a
 * time as they are iterated, so two trees of a million pages never need a
 * million change objects at once.
 *
 * @module
 */
import {
  F_ALTERNATES,
  F_CHANGE_FREQUENCY,
  F_IMAGES,
  F_LAST_MODIFIED,
  F_NEWS_STORY,
  F_PRIORITY,
  F_SITEMAP,
  F_VIDEOS,
  FieldComparer,
} from "./_page_fields.ts";
import { hashBytes, sameBytes, TreeIndex } from "./_tree_index.ts";
import type { SitemapPage } from "./objects/page.ts";
import { type AbstractSitemap, InvalidSitemap, type SitemapType } from "./objects/sitemap.ts";

/** How a page or a sitemap changed. */
export type SitemapChangeKind = "added" | "removed" | "changed" | "unavailable";

/** A page field that can change; `sitemap` when the page's first listing moved to another sitemap. */
export type PageChangeField =
  | "lastModified"
  | "changeFrequency"
  | "priority"
  | "images"
  | "videos"
  | "alternates"
  | "newsStory"
  | "sitemap";

/** Every {@linkcode PageChangeField}, in the order a change lists them. */
export const PAGE_CHANGE_FIELDS: readonly PageChangeField[] = Object.freeze([
  "lastModified",
  "changeFrequency",
  "priority",
  "images",
  "videos",
  "alternates",
  "newsStory",
  "sitemap",
]);

const FIELD_BITS = [
  F_LAST_MODIFIED,
  F_CHANGE_FREQUENCY,
  F_PRIORITY,
  F_IMAGES,
  F_VIDEOS,
  F_ALTERNATES,
  F_NEWS_STORY,
  F_SITEMAP,
];

/** A sitemap field that can change: its type (e.g. `urlset` to `invalid`) and an invalid sitemap's reason. */
export type SitemapChangeField = "type" | "reason";

/** One page that was added, removed, changed or is unavailable. */
export interface PageChange {
  /** Always `"page"`. */
  readonly kind: "page";
  /** `added`, `removed`, `changed`, or `unavailable` (its sitemap could not be read this time). */
  readonly change: SitemapChangeKind;
  /** The page's URL. */
  readonly page: string;
  /** The sitemap that lists it: after the change, or before it for `removed` and `unavailable`. */
  readonly sitemap: string;
  /** The sitemap that listed it before, when `fields` has `sitemap`; else null. */
  readonly previousSitemap: string | null;
  /** What changed (`changed` only; empty otherwise). */
  readonly fields: readonly PageChangeField[];
  /** The page before (null for `added`). */
  readonly before: SitemapPage | null;
  /** The page after (null for `removed` and `unavailable`). */
  readonly after: SitemapPage | null;
  /** For `unavailable`: why its sitemap could not be read; else null. */
  readonly reason: string | null;
}

/** A sitemap as a change shows it. */
export interface SitemapState {
  /** The node's type; `invalid` when it could not be read. */
  readonly type: SitemapType;
  /** An invalid sitemap's reason, else null. */
  readonly reason: string | null;
}

/** One sitemap that was added, removed, changed or is unavailable. */
export interface SitemapChange {
  /** Always `"sitemap"`. */
  readonly kind: "sitemap";
  /**
   * `added`, `removed`, `changed` (its type or reason: it became invalid,
   * recovered, or became another kind of sitemap), or `unavailable` (gone
   * from the tree because a sitemap above it, or the whole site, could not be read).
   */
  readonly change: SitemapChangeKind;
  /** The sitemap's URL. */
  readonly sitemap: string;
  /** What changed (`changed` only; empty otherwise). */
  readonly fields: readonly SitemapChangeField[];
  /** The sitemap before (null for `added`). */
  readonly before: SitemapState | null;
  /** The sitemap after (null for `removed` and `unavailable`). */
  readonly after: SitemapState | null;
  /** For `unavailable`: why; else null. */
  readonly reason: string | null;
}

/** A page change or a sitemap change. */
export type SitemapTreeChange = PageChange | SitemapChange;

/** How many pages or sitemaps changed each way. */
export interface SitemapChangeTally {
  /** In `after` only. */
  readonly added: number;
  /** In `before` only, where `after` read their sitemap. */
  readonly removed: number;
  /** In both, with a difference. */
  readonly changed: number;
  /** In `before` only, where `after` could not read their sitemap. */
  readonly unavailable: number;
  /** In both, the same. */
  readonly unchanged: number;
}

/** The counts of a comparison, plain data (`JSON.stringify` gives the summary line). */
export interface SitemapChangeCounts {
  /** Pages, each URL counted once. */
  readonly pages: SitemapChangeTally;
  /** Sitemaps, each URL counted once (a website root is no sitemap). */
  readonly sitemaps: SitemapChangeTally;
  /** Changed pages per field (a page with two changed fields counts in both). */
  readonly fields: Readonly<Record<PageChangeField, number>>;
}

/**
 * The answer of {@linkcode compareSitemapTrees}: counts at once, changes on
 * iteration, each iteration building fresh change objects one at a time.
 *
 * Changes come grouped by sitemap: each sitemap of `after` in tree order
 * (its own change, then its pages' in document order: added and changed,
 * then removed and unavailable from the same sitemap of `before`), then
 * each sitemap only `before` has (likewise). The order is the same on every
 * run.
 */
export interface SitemapChanges extends Iterable<SitemapTreeChange> {
  /** Pages and sitemaps per kind of change, and changed pages per field. */
  readonly counts: SitemapChangeCounts;
  /** Changes an iteration yields (page and sitemap changes); 0 when nothing changed. */
  readonly size: number;
  /**
   * Why the whole site could not be read in `after` (every page of `before`
   * is then `unavailable` and none `removed`), or null.
   */
  readonly unreachable: string | null;
  /**
   * The page changes only, in the same order.
   *
   * @returns A fresh iterator.
   */
  pages(): IterableIterator<PageChange>;
  /**
   * The sitemap changes only, in the same order.
   *
   * @returns A fresh iterator.
   */
  sitemaps(): IterableIterator<SitemapChange>;
}

/** Page states, per listing. */
// 0: matched (the initial state).
const DUPLICATE = 1;
const REMOVED = 2;
const UNAVAILABLE = 3;

const NO_FIELDS: readonly never[] = Object.freeze([]);

/**
 * Compares two trees of one site (usually two crawls, or a snapshot and a
 * crawl): which pages and sitemaps were added, removed or changed, and which
 * could not be read this time.
 *
 * - Pages are matched by URL across each whole tree; a URL listed in
 *   several sitemaps counts once, as its first listing in tree order. A
 *   matched page is `changed` when its `lastModified`, `changeFrequency`,
 *   `priority`, `images`, `videos`, `alternates` or `newsStory` differ, or
 *   its first listing is now in another sitemap (`sitemap`).
 * - An outage is not a deletion: a page of `before` missing from `after`
 *   is `unavailable` (with the reason), not `removed`, when its sitemap, or
 *   a sitemap above it, could not be read in `after` (an invalid node, or a
 *   robots.txt or well-known path that the crawl's `stats` say failed). When
 *   `after` is a crawl that reached nothing (`stats.outcome` "unreachable"),
 *   every page and sitemap of `before` is `unavailable` and nothing is removed.
 * - Sitemaps are matched by URL: `added`, `removed`, `changed` (type or
 *   reason: became invalid, recovered, or a urlset became an index) or
 *   `unavailable` (gone because a sitemap above it could not be read).
 *
 * Compare unfiltered trees: with `since`, a crawl leaves out the older
 * pages, which then read as removed.
 *
 * @param before The earlier tree.
 * @param after The later tree.
 * @returns The counts (computed now) and the changes (built as iterated).
 *
 * @example Two versions of a sitemap
 * ```ts
 * import { compareSitemapTrees, sitemapChangeLine, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const url = "https://www.example.com/sitemap.txt";
 * const before = sitemapFromString("https://www.example.com/a\nhttps://www.example.com/b\n", { url });
 * const after = sitemapFromString("https://www.example.com/b\nhttps://www.example.com/c\n", { url });
 * const changes = compareSitemapTrees(before, after);
 * strictEqual(changes.counts.pages.added, 1);
 * deepStrictEqual([...changes].map(sitemapChangeLine), [
 *   { change: "added", page: "https://www.example.com/c", sitemap: url },
 *   { change: "removed", page: "https://www.example.com/a", sitemap: url },
 * ]);
 * ```
 */
export function compareSitemapTrees(
  before: AbstractSitemap,
  after: AbstractSitemap,
): SitemapChanges {
  return new Comparison(new TreeIndex(before), new TreeIndex(after));
}

/** A tally being counted. */
type Tally = { -readonly [K in keyof SitemapChangeTally]: number };

/** An open-addressing table of page URLs: each slot 0 (empty) or a listing + 1. */
interface UrlTable {
  readonly slots: Int32Array;
  /** The slot count - 1 (a power of two - 1). */
  readonly mask: number;
  /** Per listing: its URL's hash. */
  readonly hashes: Int32Array;
  /** The distinct URLs in the table. */
  readonly unique: number;
}

function tally(): Tally {
  return { added: 0, removed: 0, changed: 0, unavailable: 0, unchanged: 0 };
}

function stateOf(node: AbstractSitemap): SitemapState {
  return { type: node.type, reason: node instanceof InvalidSitemap ? node.reason : null };
}

class Comparison implements SitemapChanges {
  readonly counts: SitemapChangeCounts;
  readonly size: number;
  readonly unreachable: string | null;
  readonly #b: TreeIndex;
  readonly #a: TreeIndex;
  /** Per page listing of `before`: SAME (matched), DUPLICATE, REMOVED or UNAVAILABLE. */
  readonly #bState: Uint8Array;
  /** Per page listing of `after`: the `before` listing it matches (-1: added; -2: duplicate). */
  readonly #aMatch: Int32Array;
  /** Per page listing of `after`: the changed fields' bits. */
  readonly #aFields: Uint8Array;
  /** Per pages node of `before`: why its sitemap could not be read in `after`, or null. */
  readonly #verdicts: (string | null)[];
  /** Per sitemap URL: its change, for those that have one. */
  readonly #sitemapChanges = new Map<string, SitemapChange>();

  constructor(b: TreeIndex, a: TreeIndex) {
    this.#b = b;
    this.#a = a;
    this.unreachable = a.outage;
    this.#verdicts = b.pagesNodes.map((node) => this.#verdict(node));
    this.#bState = new Uint8Array(b.pageCount);
    this.#aMatch = new Int32Array(a.pageCount);
    this.#aFields = new Uint8Array(a.pageCount);
    const pages = this.#matchPages();
    const sitemaps = this.#compareSitemaps();
    const fields = {} as Record<PageChangeField, number>;
    for (const name of PAGE_CHANGE_FIELDS) fields[name] = 0;
    for (let g = 0; g < this.#aFields.length; g++) {
      const bits = this.#aFields[g]!;
      if (bits === 0) continue;
      for (let f = 0; f < FIELD_BITS.length; f++) {
        if (bits & FIELD_BITS[f]!) fields[PAGE_CHANGE_FIELDS[f]!]++;
      }
    }
    this.counts = Object.freeze({
      pages: Object.freeze(pages),
      sitemaps: Object.freeze(sitemaps),
      fields: Object.freeze(fields),
    });
    this.size = pages.added + pages.removed + pages.changed + pages.unavailable +
      sitemaps.added + sitemaps.removed + sitemaps.changed + sitemaps.unavailable;
  }

  /**
   * Why `before`'s node `node` is missing from `after` for want of a read:
   * the first of it and its ancestors that `after` has, if that one failed;
   * the site's outage when none is there; null when it was simply removed.
   */
  #verdict(node: number): string | null {
    const b = this.#b;
    const a = this.#a;
    for (let at = node; at >= 0; at = b.parents[at]!) {
      const url = b.nodes[at]!.url;
      const failure = a.failureOf(url);
      if (failure !== null) return failure;
      if (a.firstOf.has(url)) return null;
    }
    return a.outage;
  }

  /** Matches every page listing of `before` to `after`'s by URL; returns the page counts. */
  #matchPages(): SitemapChangeTally {
    const seed = (Math.random() * 0x1_0000_0000) | 0;
    const counts = tally();
    const table = this.#indexAfter(seed);
    this.#matchBefore(table, seed, counts);
    counts.added = table.unique - counts.changed - counts.unchanged;
    return counts;
  }

  /**
   * Puts `after`'s URLs, first listings only, in an open-addressing table of
   * listing + 1; marks each listing added (-1) or a repeat (-2).
   */
  #indexAfter(seed: number): UrlTable {
    const a = this.#a;
    const mask = capacityFor(a.pageCount) - 1;
    const slots = new Int32Array(mask + 1);
    const aHash = new Int32Array(a.pageCount);
    const aMatch = this.#aMatch;
    let unique = 0;
    for (let k = 0, g = 0; k < a.columns.length; k++) {
      const { urlBytes: bytes, count } = a.columns[k]!;
      const ends = a.byteEnds[k]!;
      for (let i = 0, s = 0; i < count; i++, g++) {
        const e = ends[i]!;
        const h = aHash[g] = hashBytes(bytes, s, e, seed);
        let slot = h & mask;
        aMatch[g] = -1;
        for (let v: number; (v = slots[slot]!) !== 0; slot = (slot + 1) & mask) {
          if (aHash[v - 1] === h && this.#sameUrl(a, v - 1, bytes, s, e)) {
            aMatch[g] = -2;
            break;
          }
        }
        if (aMatch[g] === -1) {
          slots[slot] = g + 1;
          unique++;
        }
        s = e;
      }
    }
    return { slots, mask, hashes: aHash, unique };
  }

  /**
   * Looks each of `before`'s listings up in `after`'s table and counts it: a
   * match unchanged or changed (its fields compared), else removed or
   * unavailable; a URL seen before in `before` is a duplicate. The
   * unmatched go in a table of their own.
   */
  #matchBefore(table: UrlTable, seed: number, counts: Tally): void {
    const a = this.#a;
    const b = this.#b;
    const { slots, mask, hashes: aHash } = table;
    const aMatch = this.#aMatch;
    const bHash = new Int32Array(b.pageCount);
    let gone: Int32Array | null = null;
    const comparer = new FieldComparer();
    const bState = this.#bState;
    let hint = 0;
    for (let k = 0, g = 0; k < b.columns.length; k++) {
      const columns = b.columns[k]!;
      const bytes = columns.urlBytes;
      const ends = b.byteEnds[k]!;
      const url = b.pagesNodeUrl(k);
      const verdict = this.#verdicts[k]!;
      for (let i = 0, s = 0; i < columns.count; i++, g++) {
        const e = ends[i]!;
        const h = bHash[g] = hashBytes(bytes, s, e, seed);
        let found = -1;
        for (let slot = h & mask, v: number; (v = slots[slot]!) !== 0; slot = (slot + 1) & mask) {
          if (aHash[v - 1] === h && this.#sameUrl(a, v - 1, bytes, s, e)) {
            found = v - 1;
            break;
          }
        }
        if (found >= 0) {
          if (aMatch[found]! >= 0) {
            bState[g] = DUPLICATE;
          } else {
            aMatch[found] = g;
            const ka = hint = a.pagesNodeOf(found, hint);
            const ia = found - a.bases[ka]!;
            let bits = comparer.compare(a.columns[ka]!, ia, columns, i);
            if (a.pagesNodeUrl(ka) !== url) bits |= F_SITEMAP;
            this.#aFields[found] = bits;
            if (bits === 0) counts.unchanged++;
            else counts.changed++;
          }
        } else {
          gone ??= new Int32Array(capacityFor(b.pageCount));
          if (this.#seenGone(gone, bHash, g, h, bytes, s, e)) {
            bState[g] = DUPLICATE;
          } else if (verdict === null) {
            bState[g] = REMOVED;
            counts.removed++;
          } else {
            bState[g] = UNAVAILABLE;
            counts.unavailable++;
          }
        }
        s = e;
      }
    }
  }

  /** Whether `before`'s listing `g` repeats an unmatched URL listed earlier; records it if not. */
  #seenGone(
    table: Int32Array,
    hashes: Int32Array,
    g: number,
    h: number,
    bytes: Uint8Array,
    s: number,
    e: number,
  ): boolean {
    const mask = table.length - 1;
    let slot = h & mask;
    for (let v: number; (v = table[slot]!) !== 0; slot = (slot + 1) & mask) {
      if (hashes[v - 1] === h && this.#sameUrl(this.#b, v - 1, bytes, s, e)) return true;
    }
    table[slot] = g + 1;
    return false;
  }

  /** Whether listing `g` of `tree` has the URL `bytes[s, e)`. */
  #sameUrl(tree: TreeIndex, g: number, bytes: Uint8Array, s: number, e: number): boolean {
    const k = tree.pagesNodeOf(g, 0);
    const i = g - tree.bases[k]!;
    return sameBytes(
      tree.columns[k]!.urlBytes,
      tree.urlStart(k, i),
      tree.byteEnds[k]![i]!,
      bytes,
      s,
      e,
    );
  }

  /** Compares the sitemaps by URL, keeping each change; returns the sitemap counts. */
  #compareSitemaps(): SitemapChangeTally {
    const a = this.#a;
    const b = this.#b;
    const counts = tally();
    for (const [url, at] of a.firstOf) {
      const after = stateOf(a.nodes[at]!);
      const bt = b.firstOf.get(url);
      if (bt === undefined) {
        counts.added++;
        this.#sitemapChanges.set(url, sitemapChange("added", url, null, after, NO_FIELDS, null));
        continue;
      }
      const before = stateOf(b.nodes[bt]!);
      const fields: SitemapChangeField[] = [];
      if (before.type !== after.type) fields.push("type");
      if (before.reason !== after.reason) fields.push("reason");
      if (fields.length === 0) {
        counts.unchanged++;
        continue;
      }
      counts.changed++;
      this.#sitemapChanges.set(url, sitemapChange("changed", url, before, after, fields, null));
    }
    for (const [url, bt] of b.firstOf) {
      if (a.firstOf.has(url)) continue;
      const reason = this.#verdict(bt);
      const before = stateOf(b.nodes[bt]!);
      const change = reason === null ? "removed" : "unavailable";
      counts[change]++;
      this.#sitemapChanges.set(url, sitemapChange(change, url, before, null, NO_FIELDS, reason));
    }
    return counts;
  }

  [Symbol.iterator](): IterableIterator<SitemapTreeChange> {
    return this.#changes(true, true);
  }

  pages(): IterableIterator<PageChange> {
    return this.#changes(true, false) as IterableIterator<PageChange>;
  }

  sitemaps(): IterableIterator<SitemapChange> {
    return this.#changes(false, true) as IterableIterator<SitemapChange>;
  }

  *#changes(pages: boolean, sitemaps: boolean): Generator<SitemapTreeChange, void, undefined> {
    for (const url of this.#a.firstOf.keys()) yield* this.#group(url, pages, sitemaps);
    for (const url of this.#b.firstOf.keys()) {
      if (!this.#a.firstOf.has(url)) yield* this.#group(url, pages, sitemaps);
    }
  }

  /** The changes of one sitemap URL: its own, then its pages'. */
  *#group(url: string, pages: boolean, sitemaps: boolean): Generator<SitemapTreeChange> {
    if (sitemaps) {
      const change = this.#sitemapChanges.get(url);
      if (change !== undefined) yield change;
    }
    if (!pages) return;
    const a = this.#a;
    const b = this.#b;
    for (const k of a.pagesNodesOf.get(url) ?? []) {
      for (let i = 0, g = a.bases[k]!; g < a.bases[k + 1]!; i++, g++) {
        const match = this.#aMatch[g]!;
        if (match === -1) {
          yield pageChange("added", url, null, NO_FIELDS, null, a.page(k, i), null);
        } else if (match >= 0 && this.#aFields[g] !== 0) {
          const bits = this.#aFields[g]!;
          const fields = PAGE_CHANGE_FIELDS.filter((_, f) => (bits & FIELD_BITS[f]!) !== 0);
          const kb = b.pagesNodeOf(match, 0);
          const previous = bits & F_SITEMAP ? b.pagesNodeUrl(kb) : null;
          const before = b.page(kb, match - b.bases[kb]!);
          yield pageChange("changed", url, previous, fields, before, a.page(k, i), null);
        }
      }
    }
    for (const k of b.pagesNodesOf.get(url) ?? []) {
      const reason = this.#verdicts[k]!;
      for (let i = 0, g = b.bases[k]!; g < b.bases[k + 1]!; i++, g++) {
        const state = this.#bState[g]!;
        if (state === REMOVED || state === UNAVAILABLE) {
          const change = state === REMOVED ? "removed" : "unavailable";
          yield pageChange(change, url, null, NO_FIELDS, b.page(k, i), null, reason);
        }
      }
    }
  }
}

function capacityFor(n: number): number {
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  return capacity;
}

function sitemapChange(
  change: SitemapChangeKind,
  sitemap: string,
  before: SitemapState | null,
  after: SitemapState | null,
  fields: readonly SitemapChangeField[],
  reason: string | null,
): SitemapChange {
  return Object.freeze({
    kind: "sitemap",
    change,
    sitemap,
    fields: Object.freeze(fields),
    before: before && Object.freeze(before),
    after: after && Object.freeze(after),
    reason,
  });
}

function pageChange(
  change: SitemapChangeKind,
  sitemap: string,
  previousSitemap: string | null,
  fields: readonly PageChangeField[],
  before: SitemapPage | null,
  after: SitemapPage | null,
  reason: string | null,
): PageChange {
  return Object.freeze({
    kind: "page",
    change,
    page: (after ?? before)!.url,
    sitemap,
    previousSitemap,
    fields: Object.freeze(fields),
    before,
    after,
    reason: change === "unavailable" ? reason : null,
  });
}

/** A page change as one line of `diff -f ndjson`: `page` and `sitemap`, and what changed. */
export interface PageChangeLine {
  /** `added`, `removed`, `changed` or `unavailable`. */
  readonly change: SitemapChangeKind;
  /** The page's URL. */
  readonly page: string;
  /** The sitemap that lists it (before the change, for `removed` and `unavailable`). */
  readonly sitemap: string;
  /** `changed` only: the fields that changed. */
  readonly fields?: readonly PageChangeField[];
  /** `changed` only: each changed field's value before, as the page's JSON has it. */
  readonly before?: Readonly<Partial<Record<PageChangeField, unknown>>>;
  /** `changed` only: each changed field's value after. */
  readonly after?: Readonly<Partial<Record<PageChangeField, unknown>>>;
  /** `unavailable` only: why its sitemap could not be read. */
  readonly reason?: string;
}

/** A sitemap change as one line of `diff -f ndjson`: `sitemap`, no `page`. */
export interface SitemapChangeLine {
  /** `added`, `removed`, `changed` or `unavailable`. */
  readonly change: SitemapChangeKind;
  /** The sitemap's URL. */
  readonly sitemap: string;
  /** `added` and `removed`: the sitemap's type. */
  readonly type?: SitemapType;
  /** `changed` only: `type` and/or `reason`. */
  readonly fields?: readonly SitemapChangeField[];
  /** `changed` only: each changed field's value before. */
  readonly before?: Readonly<Partial<SitemapState>>;
  /** `changed` only: each changed field's value after. */
  readonly after?: Readonly<Partial<SitemapState>>;
  /** `unavailable` only: why. */
  readonly reason?: string;
}

/**
 * One change as the plain object of its NDJSON line
 * (docs/design.md#changes-between-crawls), for
 * `JSON.stringify`: `change` is `added`, `removed`, `changed` or
 * `unavailable`; page lines carry `page` and `sitemap`, sitemap lines
 * `sitemap` and no `page`; `changed` lines carry `fields` and the `before`
 * and `after` values of those fields (dates as ISO 8601, extensions as
 * their JSON); `unavailable` lines carry `reason`. A caller adds its own
 * keys (a batch adds the site) by spreading it.
 *
 * @param change A change from {@linkcode compareSitemapTrees}.
 * @returns The line's object; `JSON.stringify` of it is the line.
 *
 * @example A changed lastmod
 * ```ts
 * import { compareSitemapTrees, sitemapChangeLine, sitemapFromString } from "@sitemap/tree";
 * import { strictEqual } from "node:assert/strict";
 *
 * const url = "https://www.example.com/sitemap.xml";
 * const doc = (day: string) =>
 *   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>${day}</lastmod></url></urlset>`;
 * const [change] = compareSitemapTrees(
 *   sitemapFromString(doc("2025-01-01"), { url }),
 *   sitemapFromString(doc("2025-02-01"), { url }),
 * );
 * strictEqual(
 *   JSON.stringify(sitemapChangeLine(change!)),
 *   '{"change":"changed","page":"https://www.example.com/a","sitemap":"https://www.example.com/sitemap.xml",' +
 *     '"fields":["lastModified"],"before":{"lastModified":"2025-01-01T00:00:00.000Z"},' +
 *     '"after":{"lastModified":"2025-02-01T00:00:00.000Z"}}',
 * );
 * ```
 */
export function sitemapChangeLine(change: SitemapTreeChange): PageChangeLine | SitemapChangeLine {
  return change.kind === "page" ? pageLine(change) : sitemapLine(change);
}

function pageLine(c: PageChange): PageChangeLine {
  const head = { change: c.change, page: c.page, sitemap: c.sitemap };
  if (c.change === "unavailable") return { ...head, reason: c.reason ?? "" };
  if (c.change !== "changed") return head;
  const values = (page: SitemapPage, sitemap: string | null): Record<string, unknown> => {
    const json = page.toJSON() as unknown as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of c.fields) out[field] = field === "sitemap" ? sitemap : json[field];
    return out;
  };
  return {
    ...head,
    fields: [...c.fields],
    before: values(c.before!, c.previousSitemap),
    after: values(c.after!, c.sitemap),
  };
}

function sitemapLine(c: SitemapChange): SitemapChangeLine {
  const head = { change: c.change, sitemap: c.sitemap };
  switch (c.change) {
    case "added":
      return { ...head, type: c.after!.type };
    case "removed":
      return { ...head, type: c.before!.type };
    case "unavailable":
      return { ...head, reason: c.reason ?? "" };
    case "changed": {
      const pick = (state: SitemapState): Partial<SitemapState> =>
        Object.fromEntries(c.fields.map((field) => [field, state[field]]));
      return { ...head, fields: [...c.fields], before: pick(c.before!), after: pick(c.after!) };
    }
  }
}
