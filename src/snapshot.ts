/**
 * Snapshots: a whole tree in a compact, versioned, self-checking binary form,
 * to keep between crawls and compare with `compareSitemapTrees()`.
 *
 * A snapshot is a 24-byte prefix (the magic bytes `SMTREESN`, the format
 * version, reserved flags, a checksum of everything after the prefix, the
 * total length), then the content's length, the root's stats as JSON, the
 * numbers of nodes and pages, and the tree in pre-order: each node's type, URL and what
 * its type has (children and their index lastmods, a robots.txt's text, an
 * invalid node's reason, a pages node's pages in their packed columns, front-coded; see
 * `_snapshot_pages.ts`). Nothing is read
 * into a tree unless all of it checks out: a damaged, truncated or foreign
 * file throws a {@linkcode SitemapSnapshotError} saying what is wrong.
 *
 * @module
 */
import { checksum } from "./_checksum.ts";
import { ByteReader, ByteWriter, malformed, SitemapSnapshotError } from "./_snapshot_io.ts";
import { readPages, writePages } from "./_snapshot_pages.ts";
import { pagesColumns } from "./objects/_columns.ts";
import { indexSitemap, pagesSitemap } from "./objects/_build.ts";
import {
  AbstractIndexSitemap,
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
  type PagesSitemapType,
  type SitemapType,
} from "./objects/sitemap.ts";
import { EMPTY_STATS, type SitemapTreeStats } from "./stats.ts";

export { SitemapSnapshotError } from "./_snapshot_io.ts";

const MAGIC = "SMTREESN";
const MAGIC_BYTES = new TextEncoder().encode(MAGIC);
/**
 * The format this library writes; bumped when the layout or a meaning
 * changes. Version 2 added a robots.txt node's text; version 1 is still read
 * (its robots.txt nodes have no rules). Version 3 stores kept extensions as
 * their bytes; versions 1 and 2 never hold them and are still read.
 */
const VERSION = 3;
/** The oldest format this library reads. */
const OLDEST_VERSION = 1;
/** magic (8) + version (4) + flags (4) + checksum (4) + total length (4). */
const PREFIX_BYTES = 24;

/** Each node type's code in the format (fixed: changing one is a new version). */
const CODES: Readonly<Record<SitemapType, number>> = {
  website: 0,
  robots: 1,
  index: 2,
  urlset: 3,
  text: 4,
  rss: 5,
  atom: 6,
  invalid: 7,
};
/** Node types by code. */
const TYPES: readonly SitemapType[] = (Object.keys(CODES) as SitemapType[])
  .sort((a, b) => CODES[a] - CODES[b]);
/** The code's high bit marks a pages node that is `unchanged`. */
const UNCHANGED = 0x80;

/**
 * Whether `bytes` begin like a snapshot (the magic bytes), without checking
 * the rest: how a caller tells a snapshot from a JSON tree or a sitemap.
 *
 * @param bytes A file's bytes, or its first few.
 * @returns True when they start with the snapshot's magic bytes.
 *
 * @example Tell a snapshot from JSON
 * ```ts
 * import { encodeSitemapTree, isSitemapSnapshot, sitemapFromString } from "@sitemap/tree";
 * import { strictEqual } from "node:assert/strict";
 *
 * const tree = sitemapFromString("https://www.example.com/a\n");
 * strictEqual(isSitemapSnapshot(encodeSitemapTree(tree)), true);
 * strictEqual(isSitemapSnapshot(new TextEncoder().encode(JSON.stringify(tree))), false);
 * ```
 */
export function isSitemapSnapshot(bytes: Uint8Array): boolean {
  return bytes instanceof Uint8Array && bytes.length >= MAGIC_BYTES.length &&
    MAGIC_BYTES.every((b, i) => bytes[i] === b);
}

/**
 * Writes a tree as a snapshot: every node, page and extension (images,
 * videos, news, alternates), invalid nodes with their reasons, index
 * lastmods, robots.txt texts (whose rules `robots` reads back), the
 * `unchanged` flag, and the root's `stats`. Pages are read in
 * their packed form, without building page objects.
 *
 * URLs are front-coded and lastmods stored as differences, so a sitemap of
 * similar URLs costs a few bytes per page
 * (bench/README.md#change-detection-and-snapshots).
 *
 * @param tree The root of the tree (any node).
 * @returns The snapshot, in a buffer of its own; {@linkcode decodeSitemapTree} reads it back.
 * @throws {RangeError} When the snapshot would pass 4 GiB.
 *
 * @example Save a tree and read it back
 * ```ts
 * import { decodeSitemapTree, encodeSitemapTree, sitemapFromString } from "@sitemap/tree";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const tree = sitemapFromString(
 *   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *     <url><loc>https://www.example.com/</loc><lastmod>2025-01-01</lastmod></url>
 *   </urlset>`,
 *   { url: "https://www.example.com/sitemap.xml" },
 * );
 * const bytes = encodeSitemapTree(tree);
 * deepStrictEqual(decodeSitemapTree(bytes).toJSON(), tree.toJSON());
 * ```
 */
export function encodeSitemapTree(tree: AbstractSitemap): Uint8Array {
  const w = new ByteWriter();
  const stats = tree instanceof IndexWebsiteSitemap && tree.stats !== EMPTY_STATS
    ? JSON.stringify(tree.stats)
    : "";
  w.string(stats);
  // The counts come first, so that a tree cut short cannot pass for a smaller one.
  let nodes = 1;
  let pages = tree instanceof AbstractPagesSitemap ? tree.pageCount : 0;
  for (const node of tree.allSitemaps()) {
    nodes++;
    if (node instanceof AbstractPagesSitemap) pages += node.pageCount;
  }
  w.varint(nodes);
  w.varint(pages);
  // Pre-order, children pushed last to first, so they come out in order.
  const stack: AbstractSitemap[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    writeNode(w, node);
    const children = node.subSitemaps;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  // The content's own length leads it: padding can never pass for content.
  const head = new ByteWriter();
  head.varint(w.length);
  const total = PREFIX_BYTES + head.length + w.length;
  if (total > 0xffff_ffff) {
    throw new RangeError(`A snapshot of this tree would take ${total} bytes, past 4 GiB`);
  }
  const out = new Uint8Array(total);
  out.set(MAGIC_BYTES, 0);
  out.set(head.buffer.subarray(0, head.length), PREFIX_BYTES);
  out.set(w.buffer.subarray(0, w.length), PREFIX_BYTES + head.length);
  const view = new DataView(out.buffer);
  view.setUint32(8, VERSION, true);
  view.setUint32(12, 0, true);
  view.setUint32(20, total, true);
  view.setUint32(16, checksum(out, PREFIX_BYTES), true);
  return out;
}

function writeNode(w: ByteWriter, node: AbstractSitemap): void {
  const code = CODES[node.type] ?? -1;
  if (code < 0) throw new TypeError(`Cannot snapshot a node of type ${String(node.type)}`);
  const unchanged = node instanceof AbstractPagesSitemap && node.unchanged;
  w.byte(code | (unchanged ? UNCHANGED : 0));
  w.string(node.url);
  if (node instanceof InvalidSitemap) {
    w.string(node.reason);
  } else if (node instanceof AbstractPagesSitemap) {
    writePages(w, pagesColumns(node));
  } else {
    const children = node.subSitemaps;
    w.varint(children.length);
    if (node instanceof AbstractIndexSitemap && node.type !== "website") {
      for (const date of node.subSitemapLastModified) w.f64(date === null ? NaN : date.getTime());
    }
    if (node instanceof IndexRobotsTxtSitemap) w.string(node.robots.text);
  }
}

/**
 * Reads a snapshot back into a tree whose `toJSON()` equals the original's,
 * with the same node classes and, on a website root, the same `stats`.
 * Pages stay in their packed form until read, as a crawl's do.
 *
 * Everything is checked first (the magic bytes, the version, the length,
 * the checksum) and the whole content after: bytes that are not exactly a
 * snapshot this library wrote throw, never a smaller tree.
 *
 * @param bytes The snapshot ({@linkcode encodeSitemapTree}'s output); not changed.
 * @returns The root of the tree.
 * @throws {SitemapSnapshotError} When the bytes are not a snapshot (`Not a
 * sitemap-tree snapshot …`), are cut short (`Snapshot is truncated …`),
 * damaged (`Snapshot checksum mismatch: the file is damaged`), written by a
 * newer version (`Snapshot version 2 is newer than this library reads (1)`),
 * or do not add up.
 * @throws {TypeError} When `bytes` is not a `Uint8Array`.
 *
 * @example A damaged snapshot throws
 * ```ts
 * import { decodeSitemapTree, encodeSitemapTree, sitemapFromString } from "@sitemap/tree";
 * import { throws } from "node:assert/strict";
 *
 * const bytes = encodeSitemapTree(sitemapFromString("https://www.example.com/a\n"));
 * bytes[30]! ^= 1;
 * throws(() => decodeSitemapTree(bytes), /^SitemapSnapshotError: Snapshot checksum mismatch/);
 * ```
 */
export function decodeSitemapTree(bytes: Uint8Array): AbstractSitemap {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`Expected the snapshot's bytes as a Uint8Array but got ${typeof bytes}`);
  }
  const version = checkPrefix(bytes);
  // The checksum reads 32-bit words, which need an aligned start: a copy
  // (not `slice()`, which a Node Buffer answers with a view).
  if (bytes.byteOffset % 4 !== 0) bytes = new Uint8Array(bytes);
  if (checksum(bytes, PREFIX_BYTES) !== view(bytes).getUint32(16, true)) {
    throw new SitemapSnapshotError("Snapshot checksum mismatch: the file is damaged");
  }
  const outer = new ByteReader(bytes, PREFIX_BYTES, bytes.length);
  const length = outer.varint("content length");
  if (length > outer.end - outer.at) {
    malformed(`${length} bytes of content in ${outer.end - outer.at}`);
  }
  const end = outer.at + length;
  if (end !== bytes.length) malformed(`${bytes.length - end} bytes after the content`);
  const r = new ByteReader(bytes, outer.at, end);
  const statsJSON = r.string("stats");
  const nodes = r.count("node count", 2);
  const pages = r.varint("page count");
  const stats = statsJSON === "" ? EMPTY_STATS : parseStats(statsJSON);
  const root = readTree(r, stats, nodes, version);
  let read = root instanceof AbstractPagesSitemap ? root.pageCount : 0;
  for (const node of root.allSitemaps()) {
    if (node instanceof AbstractPagesSitemap) read += node.pageCount;
  }
  if (read !== pages) malformed(`${read} pages where ${pages} were written`);
  if (r.at !== end) malformed(`${end - r.at} bytes after the tree`);
  return root;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

/** What a file that is not a snapshot looks like, when it is something we know. */
function looksLike(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
  if (text.startsWith("SMTREEC")) return ": it is a sitemap cache entry";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return ": it is gzip";
  if (text.startsWith("{")) return ": it looks like JSON (read that with sitemapTreeFromJSON())";
  if (text.startsWith("<")) return ": it looks like XML";
  return "";
}

/** Checks the prefix; returns the format version. */
function checkPrefix(bytes: Uint8Array): number {
  const n = bytes.length;
  const head = bytes.subarray(0, MAGIC_BYTES.length);
  if (!MAGIC_BYTES.every((b, i) => i >= n || head[i] === b)) {
    throw new SitemapSnapshotError(
      `Not a sitemap-tree snapshot (magic bytes ${hex(head)}, expected ${
        hex(MAGIC_BYTES)
      } "${MAGIC}")${looksLike(bytes)}`,
    );
  }
  if (n < PREFIX_BYTES) {
    throw new SitemapSnapshotError(
      `Snapshot is truncated: ${n} bytes, less than its ${PREFIX_BYTES}-byte header`,
    );
  }
  const v = view(bytes);
  const version = v.getUint32(8, true);
  if (version > VERSION) {
    throw new SitemapSnapshotError(
      `Snapshot version ${version} is newer than this library reads (${VERSION})`,
    );
  }
  if (version < OLDEST_VERSION) {
    throw new SitemapSnapshotError(
      `Snapshot version ${version} is not one this library reads (${OLDEST_VERSION} to ${VERSION})`,
    );
  }
  const flags = v.getUint32(12, true);
  if (flags !== 0) {
    throw new SitemapSnapshotError(
      `Snapshot uses features this library does not read (flags 0x${flags.toString(16)})`,
    );
  }
  const total = v.getUint32(20, true);
  if (n < total) {
    throw new SitemapSnapshotError(
      `Snapshot is truncated: ${n} bytes of the ${total} its header announces`,
    );
  }
  if (n > total) {
    throw new SitemapSnapshotError(
      `Snapshot is longer than its header says: ${n} bytes, ${total} announced`,
    );
  }
  return version;
}

function parseStats(json: string): SitemapTreeStats {
  let stats: unknown;
  try {
    stats = JSON.parse(json);
  } catch {
    malformed("the stats are not JSON");
  }
  if (
    typeof stats !== "object" || stats === null ||
    typeof (stats as { outcome?: unknown }).outcome !== "string"
  ) malformed("the stats are not an object with an outcome");
  return deepFreeze(stats) as SitemapTreeStats;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A node whose children are still being read. */
interface Frame {
  readonly type: SitemapType;
  readonly url: string;
  readonly size: number;
  /** A robots.txt node's text. */
  readonly text: string;
  /** Each child's index lastmod, epoch ms (NaN for none). */
  readonly lastModified: { readonly url: string; readonly lastModified: number }[];
  readonly children: AbstractSitemap[];
}

/** Reads the nodes in pre-order, building each once its children are built. */
function readTree(
  r: ByteReader,
  stats: SitemapTreeStats,
  nodes: number,
  version: number,
): AbstractSitemap {
  const open: Frame[] = [];
  let index = 0;
  while (true) {
    if (index === nodes) malformed(`more than the ${nodes} nodes written`);
    const at = `node ${index++}`;
    const code = r.byte(at);
    const type = TYPES[code & ~UNCHANGED];
    if (type === undefined) malformed(`${at} has type code ${code}`);
    const pages = type !== "website" && type !== "robots" && type !== "index" &&
      type !== "invalid";
    if (code & UNCHANGED && !pages) malformed(`${at} is a ${type} marked unchanged`);
    if (type === "website" && (index > 1)) malformed(`${at} is a website inside the tree`);
    const url = r.string(`${at}'s URL`);
    let node: AbstractSitemap | null = null;
    if (type === "invalid") {
      node = new InvalidSitemap(url, r.string(`${at}'s reason`));
    } else if (pages) {
      node = pagesSitemap(type as PagesSitemapType, url, readPages(r, version >= 3), {
        unchanged: (code & UNCHANGED) !== 0,
      });
    } else {
      const size = r.count(`${at}'s children`);
      const lastModified: { url: string; lastModified: number }[] = [];
      if (type !== "website") {
        r.need(size * 8, `${at}'s lastmods`);
        for (let i = 0; i < size; i++) {
          lastModified.push({ url: "", lastModified: r.f64(`${at}'s lastmods`) });
        }
      }
      const text = type === "robots" && version >= 2 ? r.string(`${at}'s robots.txt`) : "";
      if (size > 0) open.push({ type, url, size, lastModified, text, children: [] });
      else node = indexNode(type, url, [], [], stats, text);
    }
    // A finished node completes its parent, which may complete its own.
    while (node !== null) {
      const parent = open.at(-1);
      if (parent === undefined) {
        if (stats !== EMPTY_STATS && node.type !== "website") {
          malformed("stats on a non-website root");
        }
        return node;
      }
      parent.children.push(node);
      node = null;
      if (parent.children.length === parent.size) {
        open.pop();
        node = indexNode(
          parent.type,
          parent.url,
          parent.children,
          parent.lastModified,
          stats,
          parent.text,
        );
      }
    }
  }
}

function indexNode(
  type: SitemapType,
  url: string,
  children: readonly AbstractSitemap[],
  lastModified: readonly { readonly url: string; readonly lastModified: number }[],
  stats: SitemapTreeStats,
  text: string,
): AbstractSitemap {
  return type === "website"
    ? new IndexWebsiteSitemap(url, children, stats)
    : indexSitemap(type === "robots" ? "robots" : "index", url, children, lastModified, text);
}
