/**
 * hreflang checks across a whole tree, on its packed columns: each page's
 * alternates (the page URL's first listing in tree order) are read once,
 * and an alternate is looked up among the other pages' sets, or among all
 * page URLs by their hashes, never through page objects.
 *
 * @module
 */
import { checkHreflang, type HreflangProblem } from "./audit/hreflang.ts";
import { AlternatesReader } from "./_alternates.ts";
import { ColumnUrls } from "./_page_urls.ts";
import { hashBytes, sameBytes, type TreeIndex } from "./_tree_index.ts";
import type { FirstListings } from "./_tree_listings.ts";
import type { Problems } from "./_validation_report.ts";
import type { AlternateData } from "./parse/_result.ts";

const encoder = new TextEncoder();

/** One page's hreflang set. */
interface HreflangSet {
  /** The sitemap of the page's first listing. */
  readonly sitemap: string;
  readonly url: string;
  readonly alternates: readonly AlternateData[];
}

/** An alternate not found among the sets: a page of the tree without alternates, or no page. */
interface Unresolved {
  readonly set: HreflangSet;
  readonly alternate: AlternateData;
  readonly target: Target;
}

/** An alternate URL looked for among every page URL of the tree. */
interface Target {
  readonly bytes: Uint8Array;
  inTree: boolean;
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
  const sets = hreflangSets(index, listings);
  if (sets.length === 0) return;
  const byUrl = new Map<string, HreflangSet>();
  for (const set of sets) byUrl.set(set.url, set);
  const codes = new Map<string, HreflangProblem | null>();
  const unresolved: Unresolved[] = [];
  const targets = new Map<string, Target>();
  for (const set of sets) {
    checkCodes(set, codes, problems);
    checkSelf(set, problems);
    checkConflicts(set, problems);
    for (const alternate of returnsToCheck(set)) {
      const other = byUrl.get(alternate.href);
      if (other !== undefined) {
        if (!names(other, set.url)) noReturn(set, alternate, problems);
        continue;
      }
      let target = targets.get(alternate.href);
      if (target === undefined) {
        targets.set(
          alternate.href,
          target = { bytes: encoder.encode(alternate.href), inTree: false },
        );
      }
      unresolved.push({ set, alternate, target });
    }
  }
  if (unresolved.length === 0) return;
  findInTree(targets, index, listings);
  // In the tree without an hreflang set: it names nothing, so not this page.
  for (const { set, alternate, target } of unresolved) {
    if (target.inTree) noReturn(set, alternate, problems);
  }
}

/** The hreflang sets of the tree's pages, each page URL once (its first listing), in tree order. */
function hreflangSets(index: TreeIndex, listings: FirstListings): HreflangSet[] {
  const sets: HreflangSet[] = [];
  const first = listings.first;
  for (let k = 0; k < index.columns.length; k++) {
    const columns = index.columns[k]!;
    const reader = new AlternatesReader(columns);
    if (reader.empty) continue;
    const sitemap = index.pagesNodeUrl(k);
    const base = index.bases[k]!;
    let urls: ColumnUrls | null = null;
    for (let i = 0; i < columns.count; i++) {
      if (!reader.mayHave(i) || first[base + i] !== base + i) continue;
      const alternates = reader.at(i);
      if (alternates === null) continue;
      urls ??= new ColumnUrls(columns, index.byteEnds[k]!);
      sets.push({ sitemap, url: urls.at(i), alternates });
    }
  }
  return sets;
}

/** Each alternate's code, checked once per distinct code of the tree. */
function checkCodes(
  set: HreflangSet,
  codes: Map<string, HreflangProblem | null>,
  problems: Problems,
): void {
  for (const { hreflang } of set.alternates) {
    let problem = codes.get(hreflang);
    if (problem === undefined) codes.set(hreflang, problem = checkHreflang(hreflang));
    if (problem === null) continue;
    if (!problems.wants(set.sitemap, "hreflang-code")) {
      problems.skip(set.sitemap, "hreflang-code", "error");
      continue;
    }
    problems.add({
      severity: "error",
      code: "hreflang-code",
      sitemap: set.sitemap,
      url: set.url,
      value: hreflang,
      message: problem.message,
      ...(problem.suggestion === null ? {} : { suggestion: problem.suggestion }),
    });
  }
}

/** Whether the set names `url` among its alternates. */
function names(set: HreflangSet, url: string): boolean {
  for (const alternate of set.alternates) if (alternate.href === url) return true;
  return false;
}

/** Google asks each version to list itself among its alternates. */
function checkSelf(set: HreflangSet, problems: Problems): void {
  if (names(set, set.url)) return;
  if (!problems.wants(set.sitemap, "hreflang-no-self")) {
    problems.skip(set.sitemap, "hreflang-no-self", "warning");
    return;
  }
  const n = set.alternates.length;
  problems.add({
    severity: "warning",
    code: "hreflang-no-self",
    sitemap: set.sitemap,
    url: set.url,
    value: null,
    message: `The page's ${n} hreflang alternate${
      n === 1 ? " does" : "s do"
    } not include the page itself`,
  });
}

/** One code (any case) naming two URLs in one set: reported once per code. */
function checkConflicts(set: HreflangSet, problems: Problems): void {
  const alternates = set.alternates;
  if (alternates.length < 2) return;
  const seen = new Map<string, string>();
  const reported = new Set<string>();
  for (const { hreflang, href } of alternates) {
    const code = hreflang.trim().toLowerCase();
    const earlier = seen.get(code);
    if (earlier === undefined) {
      seen.set(code, href);
      continue;
    }
    if (earlier === href || reported.has(code)) continue;
    reported.add(code);
    if (!problems.wants(set.sitemap, "hreflang-conflict")) {
      problems.skip(set.sitemap, "hreflang-conflict", "error");
      continue;
    }
    problems.add({
      severity: "error",
      code: "hreflang-conflict",
      sitemap: set.sitemap,
      url: set.url,
      value: hreflang,
      message: `hreflang ${hreflang} names two URLs in one set: ${earlier} and ${href}`,
    });
  }
}

/** The alternates other than the page itself, each URL once. */
function returnsToCheck(set: HreflangSet): AlternateData[] {
  const out: AlternateData[] = [];
  for (const alternate of set.alternates) {
    const href = alternate.href;
    if (href === set.url || out.some((a) => a.href === href)) continue;
    out.push(alternate);
  }
  return out;
}

function noReturn(set: HreflangSet, alternate: AlternateData, problems: Problems): void {
  if (!problems.wants(set.sitemap, "hreflang-no-return")) {
    problems.skip(set.sitemap, "hreflang-no-return", "error");
    return;
  }
  problems.add({
    severity: "error",
    code: "hreflang-no-return",
    sitemap: set.sitemap,
    url: set.url,
    value: alternate.href,
    message:
      `The ${alternate.hreflang} alternate ${alternate.href} does not link back to this page`,
  });
}

/** Marks the targets that are page URLs of the tree: one pass over the listings' hashes. */
function findInTree(targets: Map<string, Target>, index: TreeIndex, listings: FirstListings): void {
  const wanted = new Map<number, Target[]>();
  for (const target of targets.values()) {
    const h = hashBytes(target.bytes, 0, target.bytes.length, listings.seed);
    const list = wanted.get(h);
    if (list === undefined) wanted.set(h, [target]);
    else list.push(target);
  }
  const hashes = listings.hashes;
  for (let g = 0, k = 0; g < hashes.length; g++) {
    const list = wanted.get(hashes[g]!);
    if (list === undefined) continue;
    k = index.pagesNodeOf(g, k);
    const i = g - index.bases[k]!;
    const bytes = index.columns[k]!.urlBytes;
    const s = index.urlStart(k, i);
    const e = index.byteEnds[k]![i]!;
    for (const target of list) {
      if (!target.inTree && sameBytes(bytes, s, e, target.bytes, 0, target.bytes.length)) {
        target.inTree = true;
      }
    }
  }
}
