/**
 * Reads the real-world corpus (`../shared/realworld/` from the project root,
 * never copied into the project) the way the library reads documents, and
 * summarises each result for the committed snapshot.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { decompressIfGzip } from "../../src/decompress.ts";
import { pagesSitemap } from "../../src/objects/_build.ts";
import type { SitemapPageJSON } from "../../src/objects/page.ts";
import { type AbstractSitemap, InvalidSitemap } from "../../src/objects/sitemap.ts";
import { parseSitemapGeneral } from "../../src/parse/parse_sitemap.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";

/** The corpus folder, beside the project. */
export const CORPUS_DIR: string = fileURLToPath(
  new URL("../../../shared/realworld/", import.meta.url),
);

/** Whether the corpus is there (a bare clone does not have it). */
export const CORPUS_PRESENT: boolean = existsSync(`${CORPUS_DIR}manifest.json`);

/** One document of `manifest.json`. */
export interface CorpusFile {
  /** Corpus path, e.g. `corpus/gofeed/rss_channel_item_guid.xml`: the snapshot's key. */
  readonly file: string;
  readonly source: string;
  readonly repo: string;
  /** The path in the source repository. */
  readonly path: string;
  readonly kind: string;
}

/** The manifest's documents, in manifest order. */
export function corpusFiles(): CorpusFile[] {
  const manifest = JSON.parse(readFileSync(`${CORPUS_DIR}manifest.json`, "utf8")) as {
    files: CorpusFile[];
  };
  return manifest.files;
}

/** The bytes of one corpus document, by corpus path. */
export function corpusBytes(file: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(`${CORPUS_DIR}${file}`));
}

/**
 * Bounds every document is read within. Decompression: the crawler's default
 * `maxSitemapBytes`. The general reader's run: smaller chunks and limits than
 * the defaults, so that a document that needed more would show as a changed
 * warning in the snapshot rather than as time or memory.
 */
export const BOUNDS = {
  maxInflatedBytes: 50 * 1024 * 1024,
  chunkBytes: 64 * 1024,
  maxDepth: 64,
  maxTokenLength: 1024 * 1024,
} as const;

/** Whether the library reads this document as robots.txt. */
export function isRobots(f: CorpusFile): boolean {
  return f.source === "crawler-commons-robots" || f.path.split("/").pop() === "robots.txt";
}

/**
 * The URL the document is read under: its repository path on example.com,
 * or `/robots.txt` there for robots.txt documents (the library reads
 * robots.txt only under that name).
 */
export function corpusUrl(f: CorpusFile): string {
  return isRobots(f) ? "https://example.com/robots.txt" : `https://example.com/${f.path}`;
}

/** What one document reads as. */
export interface CorpusRead {
  readonly node: AbstractSitemap;
  /** The gzip outcome: null when the bytes were not gzip. */
  readonly gzip: string | null;
  /** The general reader's warning (truncation, limits), or null. */
  readonly warning: string | null;
  /** The general reader's pages, to hold the byte-level reader to. */
  readonly generalPages: readonly SitemapPageJSON[] | null;
}

/**
 * Reads a document as the crawler does: inflate it when it is gzip (within
 * the crawler's default bound), then `sitemapFromString()`. The general
 * reader also reads it, within {@linkcode BOUNDS}, for the warning and for
 * comparison.
 */
export async function readCorpusFile(f: CorpusFile): Promise<CorpusRead> {
  const url = corpusUrl(f);
  let bytes: Uint8Array = corpusBytes(f.file);
  let gzip: string | null = null;
  const inflated = await decompressIfGzip(bytes, BOUNDS.maxInflatedBytes);
  if (!inflated.ok) {
    // What the crawler's parse job makes of a body it cannot inflate.
    return {
      node: new InvalidSitemap(url, inflated.reason),
      gzip: "refused",
      warning: null,
      generalPages: null,
    };
  }
  if (inflated.gzipped) {
    gzip = inflated.warning === undefined ? "inflated" : `inflated: ${inflated.warning}`;
    bytes = inflated.bytes;
  }
  const node = sitemapFromString(bytes, { url });
  const general = parseSitemapGeneral(bytes, {
    url,
    robots: isRobots(f),
    chunkBytes: BOUNDS.chunkBytes,
    maxDepth: BOUNDS.maxDepth,
    maxTokenLength: BOUNDS.maxTokenLength,
  });
  const warning = general.kind === "invalid" ? null : general.warning;
  const generalPages = general.kind === "pages"
    ? pagesSitemap(general.format, url, general.pages).pages.map((p) => p.toJSON())
    : null;
  return { node, gzip, warning, generalPages };
}

/** A page's JSON without its null and empty fields, at any depth, nor the default priority: what a reviewer reads. */
export function compactPage(page: SitemapPageJSON): Record<string, unknown> {
  const out = compact(page) as Record<string, unknown>;
  if (out.priority === 0.5) delete out.priority;
  return out;
}

function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compact);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null || (Array.isArray(field) && field.length === 0)) continue;
    out[key] = compact(field);
  }
  return out;
}

/** SHA-256 (hex, first 16 digits) of a value's JSON: field order is fixed by the classes' `toJSON()`. */
export function stableHash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** Documents with at most this many pages (or children) are snapshotted whole. */
const FULL_LIST_MAX = 4;
/** Larger ones: this many from the start and one from the end, plus the hash of all. */
const HEAD = 2;

/** The snapshot entry of one document. */
export interface SnapshotEntry {
  readonly type: string;
  readonly gzip?: string;
  readonly reason?: string;
  readonly warning?: string;
  readonly pageCount?: number;
  readonly pagesHash?: string;
  readonly pages?: readonly Record<string, unknown>[];
  readonly lastPage?: Record<string, unknown>;
  readonly childCount?: number;
  readonly children?: readonly string[];
  readonly lastChild?: string;
}

function sample<T, U>(list: readonly T[], map: (item: T) => U): { head: U[]; last?: U } {
  if (list.length <= FULL_LIST_MAX) return { head: list.map(map) };
  return { head: list.slice(0, HEAD).map(map), last: map(list[list.length - 1]!) };
}

/** Summarises a read for the snapshot. */
export function snapshotEntry(read: CorpusRead): SnapshotEntry {
  const { node } = read;
  const entry: Record<string, unknown> = { type: node.type };
  if (read.gzip !== null) entry.gzip = read.gzip;
  if (node.type === "invalid") {
    entry.reason = (node as unknown as { reason: string }).reason;
    return entry as unknown as SnapshotEntry;
  }
  if (read.warning !== null) entry.warning = read.warning;
  if (node.type === "index" || node.type === "robots") {
    const urls = node.subSitemaps.map((c) => c.url);
    entry.childCount = urls.length;
    const { head, last } = sample(urls, (u) => u);
    entry.children = head;
    if (last !== undefined) entry.lastChild = last;
    return entry as unknown as SnapshotEntry;
  }
  const pages = node.pages.map((p) => p.toJSON());
  entry.pageCount = pages.length;
  entry.pagesHash = stableHash(pages);
  const { head, last } = sample(pages, compactPage);
  entry.pages = head;
  if (last !== undefined) entry.lastPage = last;
  return entry as unknown as SnapshotEntry;
}
