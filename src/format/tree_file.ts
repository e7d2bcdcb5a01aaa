/**
 * A tree kept in a file, read back: a snapshot (`ls --save`,
 * `encodeSitemapTree()`), the JSON of `ls -f json` (`toJSON()`), or a
 * sitemap document, told apart by their first bytes. The one reader of the
 * commands that take a saved tree (`diff`, `report`, `report --against`).
 *
 * @module
 */
import { decompressSitemap } from "../decompress_sitemap.ts";
import { sitemapTreeFromJSON } from "../objects/from_json.ts";
import { type AbstractSitemap, InvalidSitemap } from "../objects/sitemap.ts";
import { sitemapFromString } from "../sitemap_from_string.ts";
import { decodeSitemapTree, isSitemapSnapshot } from "../snapshot.ts";

/** Options of {@linkcode readSitemapTreeFile}. */
export interface ReadSitemapTreeFileOptions {
  /** The URL a sitemap document is read as (its relative `<loc>`s resolve against it). @default {""} */
  readonly url?: string;
}

/**
 * Reads a saved tree: a snapshot when the bytes start with the snapshot's
 * magic bytes; the JSON of a tree (`ls -f json`, `toJSON()`) when they
 * start with `{` (after white space or a byte order mark); else a sitemap
 * document (XML, a feed or text; gzip is inflated), as `ls FILE` reads one.
 * A snapshot keeps the crawl's `stats`; the other forms have none.
 *
 * @param bytes The file's bytes.
 * @param options The URL of a sitemap document.
 * @returns The root of the tree.
 * @throws {SitemapSnapshotError} When the bytes are a damaged, cut short or
 * newer snapshot (the message says which).
 * @throws {TypeError} When they are JSON of something else than a tree, or
 * not valid JSON (`Not a JSON tree (ls -f json): …`, naming the path of the
 * first wrong value), or none of the three forms (`Not a snapshot (ls
 * --save), a JSON tree (ls -f json) or a sitemap: …` with the parser's
 * reason).
 *
 * @example Read back what `ls -f json` wrote
 * ```ts
 * import { readSitemapTreeFile } from "./tree_file.ts";
 * import { encodeSitemapTree } from "../snapshot.ts";
 * import { sitemapFromString } from "../sitemap_from_string.ts";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * const tree = sitemapFromString("https://www.example.com/a\n", {
 *   url: "https://www.example.com/sitemap.txt",
 * });
 * const json = new TextEncoder().encode(JSON.stringify(tree) + "\n");
 * deepStrictEqual((await readSitemapTreeFile(json)).toJSON(), tree.toJSON());
 * deepStrictEqual((await readSitemapTreeFile(encodeSitemapTree(tree))).toJSON(), tree.toJSON());
 * await rejects(
 *   readSitemapTreeFile(new TextEncoder().encode("<html></html>")),
 *   /^TypeError: Not a snapshot \(ls --save\), a JSON tree \(ls -f json\) or a sitemap: /,
 * );
 * ```
 */
export async function readSitemapTreeFile(
  bytes: Uint8Array,
  options: ReadSitemapTreeFileOptions = {},
): Promise<AbstractSitemap> {
  if (isSitemapSnapshot(bytes)) return decodeSitemapTree(bytes);
  const head = new TextDecoder().decode(bytes.subarray(0, 64));
  if (/^\s*\{/.test(head)) {
    try {
      return sitemapTreeFromJSON(JSON.parse(new TextDecoder().decode(bytes)));
    } catch (error) {
      throw new TypeError(`Not a JSON tree (ls -f json): ${(error as Error).message}`);
    }
  }
  const inflated = await decompressSitemap(bytes);
  const root = inflated.ok ? sitemapFromString(inflated.bytes, { url: options.url ?? "" }) : null;
  if (root === null || root instanceof InvalidSitemap) {
    const why = root === null ? (inflated as { reason: string }).reason : root.reason;
    throw new TypeError(
      `Not a snapshot (ls --save), a JSON tree (ls -f json) or a sitemap: ${why}`,
    );
  }
  return root;
}
