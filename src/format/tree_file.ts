/**
 * A tree kept in a file, read back: a snapshot (`encodeSitemapTree()`) or
 * the JSON of `ls -f json` (`toJSON()`), told apart by their first bytes.
 * The one reader of the commands that take a saved tree (`report`,
 * `report --against`, `diff`).
 *
 * @module
 */
import { sitemapTreeFromJSON } from "../objects/from_json.ts";
import type { AbstractSitemap } from "../objects/sitemap.ts";
import { decodeSitemapTree, isSitemapSnapshot } from "../snapshot.ts";

/** How much of a file that is neither form the error quotes. */
const QUOTED = 24;

/**
 * Reads a saved tree: a snapshot when the bytes start with the snapshot's
 * magic bytes, else the JSON of a tree (`ls -f json`, `toJSON()`) when they
 * start with `{` (after white space or a byte order mark). A snapshot keeps
 * the crawl's `stats`; a tree from JSON has none.
 *
 * @param bytes The file's bytes.
 * @returns The root of the tree.
 * @throws {SitemapSnapshotError} When the bytes are a damaged, cut short or
 * newer snapshot (the message says which).
 * @throws {TypeError} When they are neither form (the message quotes how
 * they start), not valid JSON, or JSON of something else than a tree (the
 * message names the path of the first wrong value).
 *
 * @example Read back what `ls -f json` wrote
 * ```ts
 * import { readSitemapTreeFile } from "./tree_file.ts";
 * import { encodeSitemapTree } from "../snapshot.ts";
 * import { sitemapFromString } from "../sitemap_from_string.ts";
 * import assert from "node:assert/strict";
 *
 * const tree = sitemapFromString("https://www.example.com/a\n", {
 *   url: "https://www.example.com/sitemap.txt",
 * });
 * const json = new TextEncoder().encode(JSON.stringify(tree) + "\n");
 * assert.deepEqual(readSitemapTreeFile(json).toJSON(), tree.toJSON());
 * assert.deepEqual(readSitemapTreeFile(encodeSitemapTree(tree)).toJSON(), tree.toJSON());
 * assert.throws(
 *   () => readSitemapTreeFile(new TextEncoder().encode("<urlset>")),
 *   /^TypeError: Neither a snapshot nor a sitemap tree's JSON/,
 * );
 * ```
 */
export function readSitemapTreeFile(bytes: Uint8Array): AbstractSitemap {
  if (isSitemapSnapshot(bytes)) return decodeSitemapTree(bytes);
  const text = new TextDecoder().decode(bytes);
  if (!/^\s*\{/.test(text)) {
    const start = text.trimStart().slice(0, QUOTED);
    throw new TypeError(
      `Neither a snapshot nor a sitemap tree's JSON (as ls -f json writes it): it starts ${
        start === "" ? "empty" : `with ${JSON.stringify(start)}`
      }`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`Not valid JSON: ${(error as Error).message}`);
  }
  try {
    return sitemapTreeFromJSON(json);
  } catch (error) {
    throw new TypeError(`Not a sitemap tree's JSON: ${(error as Error).message}`);
  }
}
