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
import { hashBytes, sameBytes } from "./_tree_index.ts";
import { pagesColumns } from "./objects/_columns.ts";
import { AbstractPagesSitemap, type AbstractSitemap } from "./objects/sitemap.ts";
import { urlByteEnds } from "./parse/_url_bytes.ts";

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

/** One section as counted, before `sectionsOf()` shapes it. */
export interface SectionTally {
  /** Origin plus the first `depth` path segments, without a trailing slash (the origin alone ends in `/`). */
  readonly prefix: string;
  /** Pages counted (first listings when counting unique URLs). */
  readonly pages: number;
  /** Every listing, duplicates included. */
  readonly listings: number;
  /** Least and greatest lastmod of the pages counted, epoch ms; NaN when none has one. */
  readonly min: number;
  readonly max: number;
  /** Pages counted without a lastmod. */
  readonly undated: number;
  /** The sitemaps listing any of its pages, in tree order, each URL once. */
  readonly sitemaps: readonly string[];
}

/** The counts of one pass; see {@linkcode pageInventory}. */
export interface PageInventory {
  /** Page listings in the tree (a URL in two sitemaps counts twice). */
  readonly listings: number;
  /** Pages counted: distinct URLs when counting unique URLs, else every listing. */
  readonly pages: number;
  /** The sections in tree order of first appearance (empty when not asked for). */
  readonly sections: readonly SectionTally[];
  /** Pages counted per month (`year * 12 + month`, UTC, month from 0) (empty when not asked for). */
  readonly months: ReadonlyMap<number, number>;
  /** Pages counted without a lastmod (0 when months were not asked for). */
  readonly undated: number;
}

/**
 * The pages nodes of a tree in tree order, the root included when it is one.
 *
 * @param tree Any node.
 * @returns The pages nodes, depth-first.
 */
export function pagesNodesOf(tree: AbstractSitemap): AbstractPagesSitemap[] {
  const nodes: AbstractPagesSitemap[] = [];
  if (tree instanceof AbstractPagesSitemap) nodes.push(tree);
  for (const node of tree.allSitemaps()) {
    if (node instanceof AbstractPagesSitemap) nodes.push(node);
  }
  return nodes;
}

/**
 * Counts a tree's pages in one pass over their columns.
 *
 * @param tree Any node.
 * @param options What to count.
 * @returns The counts.
 */
export function pageInventory(tree: AbstractSitemap, options: InventoryOptions): PageInventory {
  const nodes = pagesNodesOf(tree);
  let listings = 0;
  for (const node of nodes) listings += node.pageCount;
  const seed = (Math.random() * 0x1_0000_0000) | 0;
  const urls = options.unique ? new UrlTable(listings, seed) : null;
  const depth = options.depth;
  const sections = depth === null ? null : new SectionTable(seed);
  const months = new Map<number, number>();
  const countMonths = options.months;
  let pages = 0;
  let undated = 0;
  let lastDay = NaN;
  let lastMonth = 0;
  for (let k = 0; k < nodes.length; k++) {
    const columns = pagesColumns(nodes[k]!);
    const count = columns.count;
    if (count === 0) continue;
    const bytes = columns.urlBytes;
    const ends = urlByteEnds(columns);
    const lastmods = columns.lastModified;
    urls?.addNode(bytes, ends);
    for (let i = 0, s = 0; i < count; s = ends[i]!, i++) {
      const e = ends[i]!;
      const first = urls === null || urls.add(bytes, s, e);
      const ms = lastmods[i]!;
      if (first) {
        pages++;
        if (countMonths) {
          if (ms !== ms) undated++;
          else {
            const day = Math.floor(ms / DAY_MS);
            if (day !== lastDay) {
              lastDay = day;
              lastMonth = monthOfDay(day);
            }
            months.set(lastMonth, (months.get(lastMonth) ?? 0) + 1);
          }
        }
      }
      if (sections !== null) sections.add(bytes, s, sectionEnd(bytes, s, e, depth!), k, first, ms);
    }
  }
  return {
    listings,
    pages,
    sections: sections === null ? [] : sections.tallies(nodes),
    months,
    undated,
  };
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

/**
 * Where the section key of the URL in `b[s, e)` ends: after its origin
 * (scheme and authority) and its first `depth` non-empty path segments;
 * the query and fragment never count. Sets {@linkcode originEnd}.
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
  for (let n = 0; n < depth && p < e;) {
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
  return end;
}

function isDelimiter(c: number): boolean {
  return c === SLASH || c === QUESTION || c === HASH;
}

/** Table capacity for `n` entries at most half full. */
function capacityFor(n: number): number {
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  return capacity;
}

/**
 * The URLs seen so far, as listing numbers in an open-addressing table over
 * the nodes' own URL bytes: it answers "first listing of this URL?".
 */
class UrlTable {
  readonly #seed: number;
  readonly #mask: number;
  /** Listing number + 1 per slot; 0 is empty. */
  readonly #slots: Int32Array;
  /** Each listing's hash. */
  readonly #hashes: Int32Array;
  /** Per node added: its URL bytes, byte ends, and first listing number. */
  readonly #bytes: Uint8Array[] = [];
  readonly #ends: Uint32Array[] = [];
  readonly #bases: number[] = [];
  /** Listings added so far. */
  #next = 0;

  constructor(listings: number, seed: number) {
    this.#seed = seed;
    const capacity = capacityFor(listings);
    this.#mask = capacity - 1;
    this.#slots = new Int32Array(capacity);
    this.#hashes = new Int32Array(listings);
  }

  /** Starts the listings of the next node. */
  addNode(bytes: Uint8Array, ends: Uint32Array): void {
    this.#bytes.push(bytes);
    this.#ends.push(ends);
    this.#bases.push(this.#next);
  }

  /** Adds the next listing, the URL `bytes[s, e)` of the current node; true when no earlier listing had it. */
  add(bytes: Uint8Array, s: number, e: number): boolean {
    const g = this.#next++;
    const h = this.#hashes[g] = hashBytes(bytes, s, e, this.#seed);
    let slot = h & this.#mask;
    for (let v: number; (v = this.#slots[slot]!) !== 0; slot = (slot + 1) & this.#mask) {
      if (this.#hashes[v - 1] === h && this.#same(v - 1, bytes, s, e)) return false;
    }
    this.#slots[slot] = g + 1;
    return true;
  }

  /** Whether listing `g` holds the bytes `b[s, e)`. */
  #same(g: number, b: Uint8Array, s: number, e: number): boolean {
    const bases = this.#bases;
    let lo = 0;
    let hi = bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bases[mid]! <= g) lo = mid;
      else hi = mid - 1;
    }
    const i = g - bases[lo]!;
    const ends = this.#ends[lo]!;
    return sameBytes(this.#bytes[lo]!, i === 0 ? 0 : ends[i - 1]!, ends[i]!, b, s, e);
  }
}

/** The sections met so far, by key bytes, with their counts in parallel arrays. */
class SectionTable {
  readonly #seed: number;
  #slots = new Int32Array(16);
  readonly #hashes: number[] = [];
  readonly #keys: Uint8Array[] = [];
  readonly #roots: boolean[] = [];
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

  constructor(seed: number) {
    this.#seed = seed;
  }

  /** Counts one listing whose section key is `b[s, e)`, listed by pages node `node`. */
  add(b: Uint8Array, s: number, e: number, node: number, first: boolean, ms: number): void {
    let id = this.#last;
    if (id < 0 || !sameBytes(this.#keys[id]!, 0, this.#keys[id]!.length, b, s, e)) {
      id = this.#find(b, s, e);
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

  /** The sections in order of first appearance, their sitemaps named. */
  tallies(nodes: readonly AbstractPagesSitemap[]): SectionTally[] {
    return this.#keys.map((key, id) => ({
      prefix: decoder.decode(key) + (this.#roots[id] ? "/" : ""),
      pages: this.#pages[id]!,
      listings: this.#listings[id]!,
      min: this.#min[id]!,
      max: this.#max[id]!,
      undated: this.#undated[id]!,
      sitemaps: [...new Set(this.#nodes[id]!.map((k) => nodes[k]!.url))],
    }));
  }
}
