/**
 * The state of a monitored site between runs: a directory holding the last
 * good snapshot of each site ({@linkcode SnapshotStore}) and the crawl cache
 * that makes a repeat crawl cost one conditional request per unchanged
 * sitemap. `watch`, `batch --state` and the queue worker's `stateDir` keep
 * their state here, so one directory serves all three.
 *
 * A snapshot is replaced only after a crawl whose `stats.outcome` is `"ok"`,
 * through a temporary file and a rename, so a failed or killed run leaves
 * the previous state as it was and the next good run compares with it. A
 * sitemap that could not be read this time keeps its previous pages in the
 * new snapshot ({@linkcode carryForwardSitemaps}): when it answers again,
 * its pages are compared with the last ones seen, not reported as added.
 *
 * @module
 */
import { FileSitemapCache } from "./cache.ts";
import { compareSitemapTrees, type SitemapChanges } from "./changes.ts";
import { decodeSitemapTree, encodeSitemapTree, SitemapSnapshotError } from "./snapshot.ts";
import { failuresLeftOut } from "./_tree_index.ts";
import {
  AbstractIndexSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
} from "./objects/sitemap.ts";
import type { SitemapTreeStats } from "./stats.ts";
import { replaceFile, runtime } from "./runtime/mod.ts";
import { errorMessage } from "./_error_message.ts";

/**
 * The tree to keep after a crawl: `current`, where each sitemap that could
 * not be read this time (an invalid node, or a robots.txt or well-known
 * path whose failure `current`'s stats record) and was read before is
 * replaced by its subtree from `previous`. Its pages are what was last
 * seen, so when the sitemap answers again they are compared with those,
 * not counted as added; and while it stays unreadable each comparison
 * reports it again (its pages `unavailable`). Only the first node of a URL
 * in tree order is replaced, as {@linkcode compareSitemapTrees} matches
 * sitemaps by their first node.
 *
 * @param previous The tree kept before (a snapshot).
 * @param current The tree of this crawl.
 * @returns `current` itself when nothing was carried forward, else a new root sharing its nodes.
 *
 * @example A urlset that answers 503 keeps its pages
 * ```ts
 * import {
 *   carryForwardSitemaps,
 *   IndexWebsiteSitemap,
 *   InvalidSitemap,
 *   sitemapFromString,
 * } from "@sitemap/tree";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const url = "https://www.example.com/sitemap.txt";
 * const read = sitemapFromString("https://www.example.com/a\n", { url });
 * const before = new IndexWebsiteSitemap("https://www.example.com/", [read]);
 * const after = new IndexWebsiteSitemap("https://www.example.com/", [
 *   new InvalidSitemap(url, "Unable to fetch sitemap from URL: 503 Service Unavailable"),
 * ]);
 * const kept = carryForwardSitemaps(before, after);
 * deepStrictEqual([...kept.allPages()].map((page) => page.url), ["https://www.example.com/a"]);
 * ```
 */
export function carryForwardSitemaps(
  previous: AbstractSitemap,
  current: AbstractSitemap,
): AbstractSitemap {
  const readBefore = new Map<string, AbstractSitemap>();
  for (const node of [previous, ...previous.allSitemaps()]) {
    if (!readBefore.has(node.url)) readBefore.set(node.url, node);
  }
  const valid = (url: string): AbstractSitemap | null => {
    const node = readBefore.get(url);
    return node === undefined || node instanceof InvalidSitemap ? null : node;
  };
  const seen = new Set<string>();
  // A carried subtree leaves out the sitemaps this crawl read elsewhere.
  const carry = (node: AbstractSitemap): AbstractSitemap | null => {
    if (seen.has(node.url)) return null;
    seen.add(node.url);
    if (!(node instanceof AbstractIndexSitemap)) return node;
    const kept = node.subSitemaps.map(carry);
    return kept.every((child, i) => child === node.subSitemaps[i])
      ? node
      : withChildren(node, kept);
  };
  const rebuild = (node: AbstractSitemap): AbstractSitemap => {
    const before = node instanceof InvalidSitemap && !seen.has(node.url) ? valid(node.url) : null;
    if (before !== null) return carry(before) ?? node;
    seen.add(node.url);
    if (!(node instanceof AbstractIndexSitemap)) return node;
    const children: (AbstractSitemap | null)[] = node.subSitemaps.map(rebuild);
    if (node instanceof IndexWebsiteSitemap) {
      // A robots.txt or well-known path that failed is left out of the tree.
      const leftOut = failuresLeftOut(node.stats);
      previous.subSitemaps.forEach((child, i) => {
        if (seen.has(child.url) || !leftOut.has(child.url) || valid(child.url) !== child) return;
        children.splice(Math.min(i, children.length), 0, carry(child));
      });
    }
    return children.length === node.subSitemaps.length &&
        children.every((child, i) => child === node.subSitemaps[i])
      ? node
      : withChildren(node, children);
  };
  return rebuild(current);
}

/**
 * An index node like `node` with other children (null: left out, with its
 * lastmod); a child with no counterpart in `node` has no lastmod.
 */
function withChildren(
  node: AbstractIndexSitemap,
  children: readonly (AbstractSitemap | null)[],
): AbstractIndexSitemap {
  const kept: AbstractSitemap[] = [];
  const lastmods: (Date | null)[] = [];
  children.forEach((child, i) => {
    if (child === null) return;
    kept.push(child);
    lastmods.push(node.subSitemaps[i]?.url === child.url ? node.subSitemapLastModified[i]! : null);
  });
  if (node instanceof IndexWebsiteSitemap) {
    return new IndexWebsiteSitemap(node.url, kept, node.stats);
  }
  return node instanceof IndexRobotsTxtSitemap
    ? new IndexRobotsTxtSitemap(node.url, kept, lastmods, node.robots)
    : new IndexXMLSitemap(node.url, kept, lastmods);
}

/**
 * Writes a tree's snapshot ({@linkcode encodeSitemapTree}) to a file, whole
 * or not at all: to a temporary file beside it, then renamed over it, so a
 * reader sees the old file or the new one and a failed or killed write
 * leaves the old one as it was.
 *
 * @param file The file; its directory must exist.
 * @param tree The tree.
 * @throws When the file cannot be written (no temporary file stays).
 *
 * @example Save a tree, read it back
 * ```ts
 * import { decodeSitemapTree, saveSnapshot, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual } from "node:assert/strict";
 * import { mkdtempSync, readFileSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = mkdtempSync(join(tmpdir(), "snapshot-"));
 * const tree = sitemapFromString("https://www.example.com/a\n");
 * await saveSnapshot(join(dir, "site.snapshot"), tree);
 * deepStrictEqual(decodeSitemapTree(readFileSync(join(dir, "site.snapshot"))).toJSON(), tree.toJSON());
 * rmSync(dir, { recursive: true });
 * ```
 */
export async function saveSnapshot(file: string, tree: AbstractSitemap): Promise<void> {
  await replaceFile(file, encodeSitemapTree(tree));
}

/**
 * What a {@linkcode SnapshotStore} makes of a crawl: `recorded` (nothing
 * was stored for the site: this crawl becomes its state), `updated`
 * (compared with the stored state, which this crawl replaces), `kept` (the
 * crawl failed: the stored state stays as it is) or `damaged` (the stored
 * state cannot be read, damaged or not permitted: it stays as it is, for a
 * person to look at).
 */
export type SnapshotState = "recorded" | "updated" | "kept" | "damaged";

/** A crawl compared with a site's stored state, to be saved once its changes are out. */
export interface StoredComparison {
  /** What {@linkcode StoredComparison.save} does: record, update, or nothing (`kept`, `damaged`). */
  readonly state: SnapshotState;
  /** The changes since the stored state (`updated` only; else null). */
  readonly changes: SitemapChanges | null;
  /**
   * `kept`: the crawl's outcome and reason (`unreachable: connection
   * refused …`); `damaged`: the file and what is wrong with it; else null.
   */
  readonly reason: string | null;
  /** The stored state's file. */
  readonly file: string;
  /**
   * Writes the new state (`recorded`, `updated`; a no-op otherwise):
   * to a temporary file, then renamed over the old one.
   *
   * @throws When the file cannot be written; the old state is then untouched.
   */
  save(): Promise<void>;
}

/**
 * A directory of site states: one snapshot per site, named from the site's
 * key so that the name is safe on every file system, and a
 * {@linkcode FileSitemapCache} in `cache/` for the crawls.
 *
 * Writes go to a temporary file renamed into place, so a reader (another
 * process, another machine on shared storage) sees the old snapshot or the
 * new one, never a mix; two writers of one site leave one of their
 * snapshots whole. A snapshot that was damaged anyway is reported, never
 * overwritten.
 *
 * @example Keep a site's state between two crawls
 * ```ts
 * import { SnapshotStore, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = mkdtempSync(join(tmpdir(), "state-"));
 * const store = new SnapshotStore(dir);
 * const url = "https://www.example.com/sitemap.txt";
 * const first = await store.compare(url, sitemapFromString("https://www.example.com/a\n", { url }));
 * strictEqual(first.state, "recorded");
 * await first.save();
 * const next = await store.compare(url, sitemapFromString("https://www.example.com/b\n", { url }));
 * deepStrictEqual([next.state, next.changes?.counts.pages.added], ["updated", 1]);
 * rmSync(dir, { recursive: true });
 * ```
 */
export class SnapshotStore {
  /** The directory. */
  readonly directory: string;
  /** The crawl cache kept beside the snapshots (`<directory>/cache`). */
  readonly cache: FileSitemapCache;

  /**
   * A store in `directory`; nothing touches the disk until the first read or write.
   *
   * @param directory Where the snapshots live; created when first written.
   * @throws {TypeError} When `directory` is not a non-empty string.
   */
  constructor(directory: string) {
    if (typeof directory !== "string" || directory === "") {
      throw new TypeError(`SnapshotStore needs a directory path, got ${JSON.stringify(directory)}`);
    }
    this.directory = directory;
    this.cache = new FileSitemapCache(this.#path("cache"));
  }

  /**
   * The file that holds a site's state: the key made safe for any file
   * system (lower case, letters, digits, `.`, `-` and `_`, at most 96
   * characters), then a hash of the whole key, so keys that read alike
   * never share a file.
   *
   * @param key The site's key: its normalised homepage, or a sitemap URL read alone.
   * @returns The path, inside {@linkcode SnapshotStore.directory}.
   *
   * @example A homepage's file
   * ```ts
   * import { SnapshotStore } from "@sitemap/tree";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(
   *   new SnapshotStore("state").fileOf("https://www.example.com/"),
   *   "state/https_www.example.com.78741b7aa5f8cdfb.snapshot",
   * );
   * ```
   */
  fileOf(key: string): string {
    return this.#path(`${stateName(key)}.snapshot`);
  }

  /** `name` inside the directory. */
  #path(name: string): string {
    return /[/\\]$/.test(this.directory) ? this.directory + name : `${this.directory}/${name}`;
  }

  /**
   * Reads a site's stored tree.
   *
   * @param key The site's key.
   * @returns The tree, or null when none is stored.
   * @throws {SitemapSnapshotError} When the file is not a whole snapshot (the message names the file).
   * @throws When the file exists but cannot be read.
   */
  async read(key: string): Promise<AbstractSitemap | null> {
    const { readFile } = await runtime.loadFileSystem();
    const file = this.fileOf(key);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return null;
      throw error;
    }
    try {
      return decodeSitemapTree(bytes);
    } catch (error) {
      if (!(error instanceof SitemapSnapshotError)) throw error;
      throw new SitemapSnapshotError(`${file}: ${error.message}`);
    }
  }

  /**
   * Replaces a site's stored tree: written to a temporary file, then renamed.
   *
   * @param key The site's key.
   * @param tree The tree to keep.
   * @throws When the directory or file cannot be written (no temporary file stays).
   */
  async write(key: string, tree: AbstractSitemap): Promise<void> {
    const { mkdir } = await runtime.loadFileSystem();
    await mkdir(this.directory, { recursive: true });
    await saveSnapshot(this.fileOf(key), tree);
  }

  /**
   * Compares a crawl with the site's stored state; {@linkcode StoredComparison.save}
   * then keeps it. A crawl whose outcome is not `"ok"` is `kept` (the state
   * is not replaced); with nothing stored it is `recorded`; an unreadable
   * state is `damaged`; else `updated`, and saving keeps the crawl with the
   * sitemaps it could not read carried forward ({@linkcode carryForwardSitemaps}).
   *
   * @param key The site's key.
   * @param tree The crawl's tree.
   * @param stats The crawl's counters, when its root does not carry them
   * (a sitemap read alone); a website root's own are used otherwise.
   * @returns The comparison; failures are in it, not thrown.
   */
  async compare(
    key: string,
    tree: AbstractSitemap,
    stats?: SitemapTreeStats,
  ): Promise<StoredComparison> {
    const file = this.fileOf(key);
    const counters = stats ?? (tree instanceof IndexWebsiteSitemap ? tree.stats : null);
    const answer = (
      state: SnapshotState,
      changes: SitemapChanges | null,
      reason: string | null,
      keep: AbstractSitemap | null,
    ): StoredComparison => ({
      state,
      changes,
      reason,
      file,
      save: () => keep === null ? Promise.resolve() : this.write(key, keep),
    });
    if (counters !== null && counters.outcome !== "ok") {
      return answer("kept", null, `${counters.outcome}: ${counters.outcomeReason ?? ""}`, null);
    }
    let previous: AbstractSitemap | null;
    try {
      previous = await this.read(key);
    } catch (error) {
      const message = errorMessage(error);
      return answer(
        "damaged",
        null,
        error instanceof SitemapSnapshotError ? message : `${file}: ${message}`,
        null,
      );
    }
    if (previous === null) return answer("recorded", null, null, tree);
    return answer(
      "updated",
      compareSitemapTrees(previous, tree),
      null,
      carryForwardSitemaps(previous, tree),
    );
  }
}

/** A key as a file name: a readable part safe everywhere, then 16 hex digits of its FNV-1a 64. */
function stateName(key: string): string {
  const readable = key.toLowerCase().replace(/^([a-z][a-z0-9+.-]*):\/\//, "$1_")
    .replace(/[^a-z0-9.-]+/g, "_").replace(/^[._-]+|[._-]+$/g, "").slice(0, 96)
    .replace(/[._-]+$/, "");
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(key)) {
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `${readable === "" ? "site" : readable}.${h.toString(16).padStart(16, "0")}`;
}
