/**
 * A tree's page listings numbered once per tree and kept with it: its
 * {@linkcode TreeIndex} (the pages nodes' columns), each listing's URL hash,
 * and which listing first names each URL. The content inventory, the
 * lastmod histogram, the report and `validateSitemapTree()` all read a
 * tree this way; a tree never changes once built, so the work is done once
 * for all of them (a report that validates its tree hashes its URLs once).
 *
 * @module
 */
import { hashBytes, sameBytes, TreeIndex } from "./_tree_index.ts";
import type { AbstractSitemap } from "./objects/sitemap.ts";

/** Each listing's URL hash and its URL's first listing. */
export interface FirstListings {
  /** The seed of {@linkcode hashBytes} the hashes were made with. */
  readonly seed: number;
  /** Per listing (numbered across the tree's pages nodes, in order): the hash of its URL's bytes. */
  readonly hashes: Int32Array;
  /** Per listing: the number of the first listing in tree order with the same URL (itself when first). */
  readonly first: Int32Array;
}

const indexes = new WeakMap<AbstractSitemap, TreeIndex>();
const listings = new WeakMap<AbstractSitemap, FirstListings>();

/**
 * The tree's {@linkcode TreeIndex}, built on first use and kept as long as the tree.
 *
 * @param tree Any node.
 * @returns Its index.
 */
export function treeIndexOf(tree: AbstractSitemap): TreeIndex {
  let index = indexes.get(tree);
  if (index === undefined) indexes.set(tree, index = new TreeIndex(tree));
  return index;
}

/**
 * The tree's listing hashes and first listings, computed on first use and
 * kept as long as the tree (8 bytes per listing).
 *
 * @param tree Any node.
 * @returns The hashes and first listings.
 */
export function firstListingsOf(tree: AbstractSitemap): FirstListings {
  let found = listings.get(tree);
  if (found === undefined) {
    const seed = (Math.random() * 0x1_0000_0000) | 0;
    const index = treeIndexOf(tree);
    const hashes = hashListings(index, seed);
    found = { seed, hashes, first: firstListings(index, hashes) };
    listings.set(tree, found);
  }
  return found;
}

/** Each listing's URL hash, in listing order. */
function hashListings(index: TreeIndex, seed: number): Int32Array {
  const hashes = new Int32Array(index.pageCount);
  for (let k = 0, g = 0; k < index.columns.length; k++) {
    const { count, urlBytes: bytes } = index.columns[k]!;
    const byteEnds = index.byteEnds[k]!;
    for (let i = 0, s = 0; i < count; s = byteEnds[i]!, i++) {
      hashes[g++] = hashBytes(bytes, s, byteEnds[i]!, seed);
    }
  }
  return hashes;
}

/** Listings per partition of {@linkcode repeats}: its table stays in the CPU's cache. */
const PARTITION_LISTINGS = 4096;
/** Filter bits per listing in {@linkcode firstListings}: about 6% of URLs share a bit with another. */
const FILTER_BITS_PER_LISTING = 16;

/**
 * Each listing's first listing of the same URL in tree order.
 *
 * Most trees repeat few URLs, so a bit filter over the hashes finds the
 * listings that may repeat one (their bit is set by another listing too)
 * in two passes, and only those are compared by hash and bytes: much less
 * time than comparing them all (bench/validate.ts: bench/README.md#validation).
 */
function firstListings(index: TreeIndex, hashes: Int32Array): Int32Array {
  const total = hashes.length;
  const first = new Int32Array(total);
  for (let g = 0; g < total; g++) first[g] = g;
  if (total < PARTITION_LISTINGS) {
    repeats(index, hashes, first.slice(), first);
    return first;
  }
  const mask = 2 ** Math.ceil(Math.log2(total * FILTER_BITS_PER_LISTING)) - 1;
  const once = new Int32Array((mask + 1) >>> 5);
  const twice = new Int32Array((mask + 1) >>> 5);
  for (let g = 0; g < total; g++) {
    const bit = hashes[g]! & mask;
    const word = bit >>> 5;
    const flag = 1 << (bit & 31);
    if ((once[word]! & flag) !== 0) twice[word]! |= flag;
    else once[word]! |= flag;
  }
  let candidates = 0;
  for (let g = 0; g < total; g++) {
    const bit = hashes[g]! & mask;
    if ((twice[bit >>> 5]! & (1 << (bit & 31))) !== 0) candidates++;
  }
  const list = new Int32Array(candidates);
  for (let g = 0, n = 0; g < total; g++) {
    const bit = hashes[g]! & mask;
    if ((twice[bit >>> 5]! & (1 << (bit & 31))) !== 0) list[n++] = g;
  }
  repeats(index, hashes, list, first);
  return first;
}

/**
 * Sets `first` for the listings of `list` (ascending) that repeat an
 * earlier one of the list.
 *
 * One hash table over a million URLs misses the cache on nearly every
 * probe, which cost four times the rest of the pass. So the listings are
 * sorted stably by the hash's top bits into partitions of a few thousand,
 * and each partition gets a small table of its own: the earliest listing of
 * a URL still comes first in its partition.
 */
function repeats(index: TreeIndex, hashes: Int32Array, list: Int32Array, first: Int32Array): void {
  const total = list.length;
  const bits = Math.max(0, Math.ceil(Math.log2(total / PARTITION_LISTINGS)));
  const shift = 32 - bits;
  const parts = 1 << bits;
  const partOf = (h: number) => bits === 0 ? 0 : h >>> shift;
  const starts = new Int32Array(parts + 1);
  for (let n = 0; n < total; n++) starts[partOf(hashes[list[n]!]!) + 1]!++;
  let largest = 0;
  for (let p = 0; p < parts; p++) {
    largest = Math.max(largest, starts[p + 1]!);
    starts[p + 1]! += starts[p]!;
  }
  const order = new Int32Array(total);
  const fill = starts.slice(0, parts);
  for (let n = 0; n < total; n++) order[fill[partOf(hashes[list[n]!]!)]!++] = list[n]!;
  const mask = capacityFor(largest) - 1;
  // Pairs of (hash, listing + 1); 0 marks an empty slot.
  const slots = new Int32Array((mask + 1) * 2);
  for (let p = 0; p < parts; p++) {
    slots.fill(0);
    for (let at = starts[p]!; at < starts[p + 1]!; at++) {
      const g = order[at]!;
      const h = hashes[g]!;
      let slot = h & mask;
      let earlier = -1;
      for (let v: number; (v = slots[slot * 2 + 1]!) !== 0; slot = (slot + 1) & mask) {
        if (slots[slot * 2] === h && sameUrl(index, v - 1, g)) {
          earlier = v - 1;
          break;
        }
      }
      if (earlier >= 0) {
        first[g] = earlier;
        continue;
      }
      slots[slot * 2] = h;
      slots[slot * 2 + 1] = g + 1;
    }
  }
}

/** Whether listings `a` and `b` (numbered across the tree's pages nodes) have the same URL. */
function sameUrl(index: TreeIndex, a: number, b: number): boolean {
  const ka = index.pagesNodeOf(a, 0);
  const kb = index.pagesNodeOf(b, ka);
  const ia = a - index.bases[ka]!;
  const ib = b - index.bases[kb]!;
  return sameBytes(
    index.columns[ka]!.urlBytes,
    index.urlStart(ka, ia),
    index.byteEnds[ka]![ia]!,
    index.columns[kb]!.urlBytes,
    index.urlStart(kb, ib),
    index.byteEnds[kb]![ib]!,
  );
}

/**
 * Table capacity (a power of two) for `n` entries at most half full.
 *
 * @param n Entries.
 * @returns The capacity.
 */
export function capacityFor(n: number): number {
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  return capacity;
}
