/**
 * One pass over a tree's pages in column form, counting what the content
 * inventory (`sectionsOf()`), the lastmod histogram and the report show:
 * distinct URLs, pages per path prefix, and pages per lastmod month.
 *
 * It reads the packed URL bytes and lastmod column directly: no page
 * object, no string and no `Date` per page. A section's key is hashed from
 * the URL's bytes; only a new section or a new month allocates.
 *
 * @module
 */
import { hashBytes, sameBytes, type TreeIndex } from "./_tree_index.ts";
import { firstListingsOf, treeIndexOf } from "./_tree_listings.ts";
import type { AbstractSitemap } from "./objects/sitemap.ts";

const SLASH = 0x2f;
const COLON = 0x3a;
const QUESTION = 0x3f;
const HASH = 0x23;
const DAY_MS = 86_400_000;

const decoder = new TextDecoder();

/** What to count; see {@linkcode pageInventory}. */
export interface InventoryOptions {
  /** Path segments per section, or null to count no sections. */
  readonly depth: number | null;
  /** Count pages per lastmod month. */
  readonly months: boolean;
  /** Count each URL once (its first listing in tree order) rather than every listing. */
  readonly unique: boolean;
}

/** The pages under one path prefix; see `sectionsOf()`. */
export interface SitemapSection {
  /**
   * The origin and the first `depth` non-empty path segments, without a
   * trailing slash: `https://www.example.com/blog`. Pages with fewer
   * segments form the section of their own path (`https://www.example.com/about`);
   * the home page and pages without a path are the origin's section,
   * which ends in `/` (`https://www.example.com/`). Query and fragment never count.
   */
  readonly prefix: string;
  /** Distinct page URLs in the section (a URL listed by several sitemaps counts once). */
  readonly pages: number;
  /** Listings of those pages, duplicates included (advertools' row count). */
  readonly listings: number;
  /** `pages` over the tree's distinct pages, from 0 to 1. */
  readonly share: number;
  /** The oldest lastmod among the section's pages, or null when none has one. */
  readonly lastModifiedMin: Date | null;
  /** The newest lastmod among the section's pages, or null when none has one. */
  readonly lastModifiedMax: Date | null;
  /** Pages without a lastmod (not part of the range). */
  readonly undated: number;
  /** The sitemaps that list any of its pages, by URL, in tree order. */
  readonly sitemaps: readonly string[];
}

/** The counts of one pass; see {@linkcode pageInventory}. */
export interface PageInventory {
  /** Page listings in the tree (a URL in two sitemaps counts twice). */
  readonly listings: number;
  /** Pages counted: distinct URLs when counting unique URLs, else every listing. */
  readonly pages: number;
  /** The sections in tree order of first appearance (empty when not asked for). */
  readonly sections: SitemapSection[];
  /** Pages nodes in the tree. */
  readonly pagesNodes: number;
  /** Pages counted per month (`year * 12 + month`, UTC, month from 0) (empty when not asked for). */
  readonly months: ReadonlyMap<number, number>;
  /** Pages counted without a lastmod (0 when months were not asked for). */
  readonly undated: number;
}

/**
 * Counts a tree's pages in one pass over their columns.
 *
 * @param tree Any node.
 * @param options What to count.
 * @returns The counts.
 */
export function pageInventory(tree: AbstractSitemap, options: InventoryOptions): PageInventory {
  const index = treeIndexOf(tree);
  const listings = index.pageCount;
  const seed = (Math.random() * 0x1_0000_0000) | 0;
  const firsts = options.unique ? firstListingsOf(tree).first : null;
  const depth = options.depth;
  const sections = depth === null ? null : new SectionTable(seed, depth);
  const months = options.months ? new MonthCounter() : null;
  let pages = 0;
  for (let k = 0, g = 0; k < index.columns.length; k++) {
    const { count, urlBytes: bytes, lastModified: lastmods } = index.columns[k]!;
    const byteEnds = index.byteEnds[k]!;
    for (let i = 0, s = 0; i < count; s = byteEnds[i]!, i++, g++) {
      const first = firsts === null || firsts[g] === g;
      const ms = lastmods[i]!;
      if (first) {
        pages++;
        months?.add(ms);
      }
      sections?.add(bytes, s, byteEnds[i]!, k, first, ms);
    }
  }
  return {
    listings,
    pages,
    sections: sections === null ? [] : sections.list(index, pages),
    pagesNodes: index.columns.length,
    months: months === null ? new Map() : months.counts(),
    undated: months === null ? 0 : months.undated,
  };
}

/** The days a lookup table maps to months: 1970 to 2099, where nearly every lastmod falls. */
const TABLE_DAYS = 47_482;
const TABLE_FIRST_MONTH = 1970 * 12;
const TABLE_MONTHS = 130 * 12;
let monthOfTableDay: Int16Array | null = null;

/** Pages per lastmod month: a dense count over 1970-2099, a map for the rest. */
class MonthCounter {
  readonly #dense = new Float64Array(TABLE_MONTHS);
  readonly #other = new Map<number, number>();
  readonly #table: Int16Array;
  undated = 0;

  constructor() {
    if (monthOfTableDay === null) {
      monthOfTableDay = new Int16Array(TABLE_DAYS);
      for (let day = 0; day < TABLE_DAYS; day++) {
        monthOfTableDay[day] = monthOfDay(day) - TABLE_FIRST_MONTH;
      }
    }
    this.#table = monthOfTableDay;
  }

  /** Counts a lastmod (epoch ms; NaN for none). */
  add(ms: number): void {
    if (ms !== ms) {
      this.undated++;
      return;
    }
    const day = Math.floor(ms / DAY_MS);
    if (day >= 0 && day < TABLE_DAYS) {
      this.#dense[this.#table[day]!]!++;
      return;
    }
    const month = monthOfDay(day);
    this.#other.set(month, (this.#other.get(month) ?? 0) + 1);
  }

  /** The counts by month number. */
  counts(): Map<number, number> {
    const counts = new Map(this.#other);
    for (let m = 0; m < TABLE_MONTHS; m++) {
      if (this.#dense[m]! > 0) counts.set(TABLE_FIRST_MONTH + m, this.#dense[m]!);
    }
    return counts;
  }
}

/**
 * The month (`year * 12 + month`, month from 0) of a day since the epoch,
 * by Howard Hinnant's `civil_from_days`: the same as `Date`'s UTC fields,
 * without making a `Date`.
 *
 * @param day Days since 1970-01-01.
 * @returns The month number.
 */
export function monthOfDay(day: number): number {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 2 : mp - 10;
  const year = yoe + era * 400 + (month <= 1 ? 1 : 0);
  return year * 12 + month;
}

/** Where the origin of the URL whose section {@linkcode sectionEnd} last read ends. */
let originEnd = 0;
/** How many path segments {@linkcode sectionEnd} last took (fewer than `depth` for a short path). */
let segmentsRead = 0;

/**
 * Where the section key of the URL in `b[s, e)` ends: after its origin
 * (scheme and authority) and its first `depth` non-empty path segments;
 * the query and fragment never count. Sets {@linkcode originEnd} and
 * {@linkcode segmentsRead}.
 */
function sectionEnd(b: Uint8Array, s: number, e: number, depth: number): number {
  let p = s;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c === COLON) {
      if (i + 2 < e && b[i + 1] === SLASH && b[i + 2] === SLASH) p = i + 3;
      break;
    }
    if (c === SLASH || c === QUESTION || c === HASH) break;
  }
  while (p < e && !isDelimiter(b[p]!)) p++;
  originEnd = p;
  let end = p;
  let n = 0;
  while (n < depth && p < e) {
    const c = b[p]!;
    if (c === QUESTION || c === HASH) break;
    if (c === SLASH) {
      p++;
      continue;
    }
    while (p < e && !isDelimiter(b[p]!)) p++;
    end = p;
    n++;
  }
  segmentsRead = n;
  return end;
}

function isDelimiter(c: number): boolean {
  return c === SLASH || c === QUESTION || c === HASH;
}

/** The sections met so far, by key bytes, with their counts in parallel arrays. */
class SectionTable {
  readonly #seed: number;
  readonly #depth: number;
  #slots = new Int32Array(16);
  readonly #hashes: number[] = [];
  readonly #keys: Uint8Array[] = [];
  readonly #roots: boolean[] = [];
  /** Whether the key has `depth` segments: then it is a prefix of every URL of its section. */
  readonly #full: boolean[] = [];
  readonly #pages: number[] = [];
  readonly #listings: number[] = [];
  readonly #min: number[] = [];
  readonly #max: number[] = [];
  readonly #undated: number[] = [];
  /** Per section: the numbers of the pages nodes listing it, and the last one added. */
  readonly #nodes: number[][] = [];
  readonly #lastNode: number[] = [];
  /** The section of the previous listing: consecutive pages usually share one. */
  #last = -1;

  constructor(seed: number, depth: number) {
    this.#seed = seed;
    this.#depth = depth;
  }

  /** Counts one listing, the URL `b[s, e)`, listed by pages node `node`. */
  add(b: Uint8Array, s: number, e: number, node: number, first: boolean, ms: number): void {
    let id = this.#last;
    if (id < 0 || !this.#continues(id, b, s, e)) {
      id = this.#find(b, s, sectionEnd(b, s, e, this.#depth));
      this.#last = id;
    }
    this.#listings[id]!++;
    if (this.#lastNode[id] !== node) {
      this.#lastNode[id] = node;
      this.#nodes[id]!.push(node);
    }
    if (!first) return;
    this.#pages[id]!++;
    if (ms !== ms) this.#undated[id]!++;
    else {
      // NaN compares false either way, so the first date sets both.
      if (!(ms >= this.#min[id]!)) this.#min[id] = ms;
      if (!(ms <= this.#max[id]!)) this.#max[id] = ms;
    }
  }

  /**
   * Whether the URL `b[s, e)` is in section `id` by its key alone: the key
   * has every segment and is followed by the end of the path's segment.
   * Consecutive pages usually share a section, and this reads the URL once.
   */
  #continues(id: number, b: Uint8Array, s: number, e: number): boolean {
    if (!this.#full[id]) return false;
    const key = this.#keys[id]!;
    const n = key.length;
    if (e - s < n) return false;
    if (s + n !== e && !isDelimiter(b[s + n]!)) return false;
    // Backwards: keys of one site differ in their last segment, not in their origin.
    for (let i = n - 1; i >= 0; i--) if (key[i] !== b[s + i]) return false;
    return true;
  }

  /** The section of key `b[s, e)`, made when new. */
  #find(b: Uint8Array, s: number, e: number): number {
    const h = hashBytes(b, s, e, this.#seed);
    let mask = this.#slots.length - 1;
    let slot = h & mask;
    for (let v: number; (v = this.#slots[slot]!) !== 0; slot = (slot + 1) & mask) {
      const key = this.#keys[v - 1]!;
      if (this.#hashes[v - 1] === h && sameBytes(key, 0, key.length, b, s, e)) return v - 1;
    }
    const id = this.#keys.length;
    this.#keys.push(b.slice(s, e));
    this.#roots.push(e === originEnd);
    this.#full.push(segmentsRead === this.#depth);
    this.#hashes.push(h);
    this.#pages.push(0);
    this.#listings.push(0);
    this.#min.push(NaN);
    this.#max.push(NaN);
    this.#undated.push(0);
    this.#nodes.push([]);
    this.#lastNode.push(-1);
    this.#slots[slot] = id + 1;
    if ((id + 1) * 2 > this.#slots.length) {
      this.#slots = new Int32Array(this.#slots.length * 2);
      mask = this.#slots.length - 1;
      for (let j = 0; j <= id; j++) {
        let at = this.#hashes[j]! & mask;
        while (this.#slots[at] !== 0) at = (at + 1) & mask;
        this.#slots[at] = j + 1;
      }
    }
    return id;
  }

  /** The sections in order of first appearance, their sitemaps named and their share of `pages`. */
  list(index: TreeIndex, pages: number): SitemapSection[] {
    return this.#keys.map((key, id) => {
      const min = this.#min[id]!;
      const max = this.#max[id]!;
      return {
        prefix: decoder.decode(key) + (this.#roots[id] ? "/" : ""),
        pages: this.#pages[id]!,
        listings: this.#listings[id]!,
        share: pages === 0 ? 0 : this.#pages[id]! / pages,
        lastModifiedMin: min === min ? new Date(min) : null,
        lastModifiedMax: max === max ? new Date(max) : null,
        undated: this.#undated[id]!,
        sitemaps: [...new Set(this.#nodes[id]!.map((k) => index.pagesNodeUrl(k)))],
      };
    });
  }
}
