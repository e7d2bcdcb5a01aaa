/**
 * hreflang checks across a whole tree, on its packed columns. Each page's
 * alternates (the page URL's first listing in tree order) are read once and
 * kept as numbers only: a code number and a 64-bit hash of each alternate's
 * URL (two 32-bit hashes of its UTF-8 bytes, with two seeds). Alternates are
 * matched with pages by those hashes, so a million alternates cost a few
 * typed arrays rather than a million strings in a `Map` (which took many
 * times as long, mostly in the collector: bench/README.md#validation).
 * Strings are made again only for the problems kept as examples.
 *
 * Two different URLs share both hashes with a chance of about 2^-64 per
 * pair: over a million alternates and pages, about one in 10^7 trees would
 * see one match that is not.
 *
 * @module
 */
import { checkHreflang, type HreflangProblem } from "./audit/hreflang.ts";
import { AlternatesReader } from "./_alternates.ts";
import { ColumnUrls } from "./_page_urls.ts";
import { hashBytes, type TreeIndex } from "./_tree_index.ts";
import { capacityFor, type FirstListings } from "./_tree_listings.ts";
import type { Problems } from "./_validation_report.ts";

const encoder = new TextEncoder();

/** A growable list of 32-bit integers. */
class Ints {
  #data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.#data.length) {
      const grown = new Int32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.length++] = value;
  }

  /** The values (a view: valid until the next push). */
  get values(): Int32Array {
    return this.#data.subarray(0, this.length);
  }
}

/** Every hreflang set of the tree, as numbers. */
interface Sets {
  readonly count: number;
  /** Per set: its pages node, the page's index there, and its listing. */
  readonly k: Int32Array;
  readonly i: Int32Array;
  readonly g: Int32Array;
  /** Per set: the page URL's two hashes. */
  readonly h1: Int32Array;
  readonly h2: Int32Array;
  /** Per set: where its alternates start; `count + 1` entries. */
  readonly start: Int32Array;
  /** Per alternate: its code's number in `codes`. */
  readonly code: Int32Array;
  /** Per code number: the number of the code regardless of case and spaces. */
  readonly keyOfCode: readonly number[];
  /** Per alternate: its URL's two hashes. */
  readonly ah1: Int32Array;
  readonly ah2: Int32Array;
  /** The codes met, by number, and what is wrong with each (null: nothing). */
  readonly codes: readonly string[];
  readonly codeProblems: readonly (HreflangProblem | null)[];
}

/** The second hash {@linkcode hashText} made. */
let secondHash = 0;
let scratch = new Uint8Array(1024);

/**
 * {@linkcode hashBytes} of a string's UTF-8 bytes with two seeds at once:
 * returns the first, leaves the second in {@linkcode secondHash}. An ASCII
 * string is read as it is; any other is encoded first.
 */
function hashText(text: string, seed: number, seed2: number): number {
  const n = text.length;
  let h = seed ^ n;
  let k = seed2 ^ n;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const d = text.charCodeAt(i + 3);
    if ((a | b | c | d) >= 0x80) return hashEncoded(text, seed, seed2);
    const word = a | (b << 8) | (c << 16) | (d << 24);
    h = Math.imul(h ^ word, 0x9e3779b1);
    h = (h << 13) | (h >>> 19);
    k = Math.imul(k ^ word, 0x9e3779b1);
    k = (k << 13) | (k >>> 19);
  }
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return hashEncoded(text, seed, seed2);
    h = Math.imul(h ^ c, 0x85ebca77);
    k = Math.imul(k ^ c, 0x85ebca77);
  }
  secondHash = finish(k);
  return finish(h);
}

/** The final mix of {@linkcode hashBytes}. */
function finish(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return h ^ (h >>> 16);
}

function hashEncoded(text: string, seed: number, seed2: number): number {
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  const length = encoder.encodeInto(text, scratch).written;
  secondHash = hashBytes(scratch, 0, length, seed2);
  return hashBytes(scratch, 0, length, seed);
}

/** The second hash's seed, derived from the listings' (any fixed difference will do). */
function secondSeed(seed: number): number {
  return seed ^ 0x5bd1e995;
}

/**
 * Checks every hreflang set of the tree: each code (`hreflang-code`), that
 * the page names itself (`hreflang-no-self`), that no code names two URLs
 * (`hreflang-conflict`), and that each alternate in the tree names the page
 * back (`hreflang-no-return`).
 *
 * @param index The tree's pages nodes.
 * @param listings Which listing first names each URL, and the URL hashes.
 * @param problems Where the problems go.
 */
export function checkHreflangSets(
  index: TreeIndex,
  listings: FirstListings,
  problems: Problems,
): void {
  const sets = collectSets(index, listings);
  if (sets.count === 0) return;
  const target = targetsOf(sets);
  const report = new Reporter(index, sets, problems);
  /** Alternates found in no set: each is a problem if its URL is a page of the tree. */
  const unresolved = new Ints();
  for (let s = 0; s < sets.count; s++) {
    report.codes(s);
    if (!namesItself(sets, target, s)) report.noSelf(s);
    checkConflicts(sets, s, report);
    for (let a = sets.start[s]!; a < sets.start[s + 1]!; a++) {
      const t = target[a]!;
      if (t === s || repeats(sets, a, sets.start[s]!)) continue;
      if (t < 0) unresolved.push(a);
      else if (!names(sets, t, sets.h1[s]!, sets.h2[s]!)) report.noReturn(s, a);
    }
  }
  if (unresolved.length === 0) return;
  const inTree = pagesAmong(sets, unresolved.values, index, listings);
  // A page of the tree without an hreflang set names nothing, so not this page.
  for (const a of unresolved.values) if (inTree.has(a)) report.noReturn(setOf(sets, a), a);
}

/** The hreflang sets of the tree's pages, each page URL once (its first listing), in tree order. */
function collectSets(index: TreeIndex, listings: FirstListings): Sets {
  const first = listings.first;
  const seed2 = secondSeed(listings.seed);
  const k = new Ints(), i = new Ints(), g = new Ints(), h1 = new Ints(), h2 = new Ints();
  const start = new Ints(), code = new Ints(), ah1 = new Ints();
  const ah2 = new Ints();
  const codeIds = new Map<string, number>();
  const keyIds = new Map<string, number>();
  const codes: string[] = [];
  const keyOfCode: number[] = [];
  for (let n = 0; n < index.columns.length; n++) {
    const columns = index.columns[n]!;
    const reader = new AlternatesReader(columns);
    if (reader.empty) continue;
    const base = index.bases[n]!;
    const bytes = columns.urlBytes;
    for (let p = 0; p < columns.count; p++) {
      if (!reader.mayHave(p) || first[base + p] !== base + p) continue;
      const alternates = reader.at(p);
      if (alternates === null) continue;
      k.push(n);
      i.push(p);
      g.push(base + p);
      h1.push(listings.hashes[base + p]!);
      h2.push(hashBytes(bytes, index.urlStart(n, p), index.byteEnds[n]![p]!, seed2));
      start.push(code.length);
      for (const { hreflang, href } of alternates) {
        let id = codeIds.get(hreflang);
        if (id === undefined) {
          codeIds.set(hreflang, id = codes.length);
          codes.push(hreflang);
          const key = hreflang.trim().toLowerCase();
          let keyId = keyIds.get(key);
          if (keyId === undefined) keyIds.set(key, keyId = keyIds.size);
          keyOfCode.push(keyId);
        }
        code.push(id);
        ah1.push(hashText(href, listings.seed, seed2));
        ah2.push(secondHash);
      }
    }
  }
  start.push(code.length);
  return {
    count: k.length,
    k: k.values,
    i: i.values,
    g: g.values,
    h1: h1.values,
    h2: h2.values,
    start: start.values,
    code: code.values,
    keyOfCode,
    ah1: ah1.values,
    ah2: ah2.values,
    codes,
    codeProblems: codes.map(checkHreflang),
  };
}

/** Per alternate: the set of the page its URL is, or -1 when it is no page with a set. */
function targetsOf(sets: Sets): Int32Array {
  const mask = capacityFor(sets.count) - 1;
  // Set number + 1 per slot; 0 marks an empty slot.
  const slots = new Int32Array(mask + 1);
  for (let s = 0; s < sets.count; s++) {
    let slot = sets.h1[s]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = s + 1;
  }
  const alternates = sets.ah1.length;
  const target = new Int32Array(alternates).fill(-1);
  for (let a = 0; a < alternates; a++) {
    const x = sets.ah1[a]!;
    const y = sets.ah2[a]!;
    for (let slot = x & mask, v: number; (v = slots[slot]!) !== 0; slot = (slot + 1) & mask) {
      if (sets.h1[v - 1] === x && sets.h2[v - 1] === y) {
        target[a] = v - 1;
        break;
      }
    }
  }
  return target;
}

/** Whether set `t` names the URL whose hashes are `x` and `y`. */
function names(sets: Sets, t: number, x: number, y: number): boolean {
  for (let b = sets.start[t]!; b < sets.start[t + 1]!; b++) {
    if (sets.ah1[b] === x && sets.ah2[b] === y) return true;
  }
  return false;
}

function namesItself(sets: Sets, target: Int32Array, s: number): boolean {
  for (let a = sets.start[s]!; a < sets.start[s + 1]!; a++) if (target[a] === s) return true;
  return false;
}

/** Whether alternate `a` names the same URL as an earlier one of its set (which starts at `from`). */
function repeats(sets: Sets, a: number, from: number): boolean {
  for (let b = from; b < a; b++) {
    if (sets.ah1[b] === sets.ah1[a] && sets.ah2[b] === sets.ah2[a]) return true;
  }
  return false;
}

/** One code (any case) naming two URLs in set `s`: reported once per code. */
function checkConflicts(sets: Sets, s: number, report: Reporter): void {
  const from = sets.start[s]!;
  const to = sets.start[s + 1]!;
  const keyOf = sets.keyOfCode;
  for (let a = from + 1; a < to; a++) {
    const key = keyOf[sets.code[a]!]!;
    let earlier = -1;
    let reported = false;
    for (let b = from; b < a; b++) {
      if (keyOf[sets.code[b]!] !== key) continue;
      if (earlier < 0) earlier = b;
      // An earlier alternate of this code with another URL already made it a conflict.
      if (b > earlier && (sets.ah1[b] !== sets.ah1[earlier] || sets.ah2[b] !== sets.ah2[earlier])) {
        reported = true;
      }
    }
    if (earlier < 0 || reported) continue;
    if (sets.ah1[a] !== sets.ah1[earlier] || sets.ah2[a] !== sets.ah2[earlier]) {
      report.conflict(s, earlier, a);
    }
  }
}

/** The set that alternate `a` belongs to. */
function setOf(sets: Sets, a: number): number {
  let lo = 0;
  let hi = sets.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sets.start[mid]! <= a) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Which of the alternates `wanted` name a page of the tree (with no set of
 * its own): one pass over every listing's hash, the second hash made only
 * where the first matches.
 */
function pagesAmong(
  sets: Sets,
  wanted: Int32Array,
  index: TreeIndex,
  listings: FirstListings,
): Set<number> {
  const mask = capacityFor(wanted.length) - 1;
  const slots = new Int32Array(mask + 1);
  for (let w = 0; w < wanted.length; w++) {
    let slot = sets.ah1[wanted[w]!]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = w + 1;
  }
  const seed2 = secondSeed(listings.seed);
  const found = new Set<number>();
  const hashes = listings.hashes;
  for (let g = 0, k = 0; g < hashes.length; g++) {
    const x = hashes[g]!;
    let y: number | null = null;
    for (let slot = x & mask, v: number; (v = slots[slot]!) !== 0; slot = (slot + 1) & mask) {
      const a = wanted[v - 1]!;
      if (sets.ah1[a] !== x) continue;
      if (y === null) {
        k = index.pagesNodeOf(g, k);
        const p = g - index.bases[k]!;
        y = hashBytes(
          index.columns[k]!.urlBytes,
          index.urlStart(k, p),
          index.byteEnds[k]![p]!,
          seed2,
        );
      }
      if (sets.ah2[a] === y) found.add(a);
    }
  }
  return found;
}

type HreflangCode =
  | "hreflang-code"
  | "hreflang-no-return"
  | "hreflang-no-self"
  | "hreflang-conflict";

/** Builds the problems of the sets, reading strings back only for the examples kept. */
class Reporter {
  readonly #index: TreeIndex;
  readonly #sets: Sets;
  readonly #problems: Problems;
  /** Per pages node: its URLs and alternates, read again for examples. */
  readonly #readers = new Map<number, { urls: ColumnUrls; alternates: AlternatesReader }>();

  constructor(index: TreeIndex, sets: Sets, problems: Problems) {
    this.#index = index;
    this.#sets = sets;
    this.#problems = problems;
  }

  #sitemap(s: number): string {
    return this.#index.pagesNodeUrl(this.#sets.k[s]!);
  }

  #reader(s: number): { urls: ColumnUrls; alternates: AlternatesReader } {
    const k = this.#sets.k[s]!;
    let reader = this.#readers.get(k);
    if (reader === undefined) {
      const columns = this.#index.columns[k]!;
      reader = {
        urls: new ColumnUrls(columns, this.#index.byteEnds[k]!),
        alternates: new AlternatesReader(columns),
      };
      this.#readers.set(k, reader);
    }
    return reader;
  }

  #url(s: number): string {
    return this.#reader(s).urls.at(this.#sets.i[s]!);
  }

  /** The href of alternate `a` of set `s`. */
  #href(s: number, a: number): string {
    const alternates = this.#reader(s).alternates.at(this.#sets.i[s]!)!;
    return alternates[a - this.#sets.start[s]!]!.href;
  }

  /** Keeps a problem of set `s`'s page (after `#wanted`). */
  #add(
    s: number,
    code: HreflangCode,
    severity: "error" | "warning",
    value: string | null,
    message: string,
    suggestion: string | null = null,
  ): void {
    this.#problems.add({
      severity,
      code,
      sitemap: this.#sitemap(s),
      url: this.#url(s),
      value,
      message,
      ...(suggestion === null ? {} : { suggestion }),
    });
  }

  /** Whether a problem of `code` in set `s`'s sitemap is kept; counted here when not. */
  #wanted(s: number, code: HreflangCode, severity: "error" | "warning"): boolean {
    const sitemap = this.#sitemap(s);
    if (this.#problems.wants(sitemap, code)) return true;
    this.#problems.skip(sitemap, code, severity);
    return false;
  }

  /** Each alternate's code, as checked once per distinct code. */
  codes(s: number): void {
    const sets = this.#sets;
    for (let a = sets.start[s]!; a < sets.start[s + 1]!; a++) {
      const id = sets.code[a]!;
      const problem = sets.codeProblems[id]!;
      if (problem === null || !this.#wanted(s, "hreflang-code", "error")) continue;
      this.#add(s, "hreflang-code", "error", sets.codes[id]!, problem.message, problem.suggestion);
    }
  }

  /** Google asks each version to list itself among its alternates. */
  noSelf(s: number): void {
    if (!this.#wanted(s, "hreflang-no-self", "warning")) return;
    const n = this.#sets.start[s + 1]! - this.#sets.start[s]!;
    const alternates = `${n} hreflang alternate${n === 1 ? " does" : "s do"}`;
    this.#add(
      s,
      "hreflang-no-self",
      "warning",
      null,
      `The page's ${alternates} not include the page itself`,
    );
  }

  /** Alternates `earlier` and `a` of set `s`: one code, two URLs. */
  conflict(s: number, earlier: number, a: number): void {
    if (!this.#wanted(s, "hreflang-conflict", "error")) return;
    const code = this.#sets.codes[this.#sets.code[a]!]!;
    const urls = `${this.#href(s, earlier)} and ${this.#href(s, a)}`;
    this.#add(
      s,
      "hreflang-conflict",
      "error",
      code,
      `hreflang ${code} names two URLs in one set: ${urls}`,
    );
  }

  /** Alternate `a` of set `s` is a page of the tree that does not name the page back. */
  noReturn(s: number, a: number): void {
    if (!this.#wanted(s, "hreflang-no-return", "error")) return;
    const href = this.#href(s, a);
    const code = this.#sets.codes[this.#sets.code[a]!]!;
    const message = `The ${code} alternate ${href} does not link back to this page`;
    this.#add(s, "hreflang-no-return", "error", href, message);
  }
}
