/**
 * A saved tree read back from a file or stdin ({@linkcode loadTreeFile}: a
 * snapshot, `ls -f json` output or a sitemap), for `diff` and `report`.
 *
 * @module
 */
import process from "node:process";
import { readFile } from "node:fs/promises";
import { type AbstractSitemap, SitemapSnapshotError } from "../../mod.ts";
import { readSitemapTreeFile } from "../format/tree_file.ts";
import type { UsageError } from "./_args.ts";
import type { CliIO } from "./_io.ts";

/** A saved tree that could not be read or used; the message is the one stderr line. */
export class TreeFileError extends Error {
  /**
   * @param message What went wrong, naming the file.
   */
  constructor(message: string) {
    super(message);
    this.name = "TreeFileError";
  }
}

/**
 * Reads a saved tree (`readSitemapTreeFile()`) from a file, or from stdin for `-`.
 *
 * @param source The file's name, or `-`.
 * @param io The streams (stdin).
 * @param missing The usage error for a file that does not exist.
 * @returns The tree.
 * @throws {UsageError} The one `missing` gives, when there is no such file.
 * @throws {TreeFileError} When it cannot be read or holds no tree (damaged, another kind of
 * file), with the one stderr line: `Cannot read FILE: …` or `FILE: why`.
 */
export async function loadTreeFile(
  source: string,
  io: CliIO,
  missing: () => UsageError,
): Promise<AbstractSitemap> {
  const name = source === "-" ? "stdin" : source;
  let bytes: Uint8Array;
  try {
    bytes = source === "-" ? await readAll(io.stdin ?? process.stdin) : await readFile(source);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT" && source !== "-") throw missing();
    throw new TreeFileError(`Cannot read ${name}: ${(error as Error).message ?? String(error)}`);
  }
  try {
    // A sitemap document is named by its file's URL, as `ls FILE` names it.
    const url = source === "-" ? "" : new URL(source, `file://${process.cwd()}/`).href;
    return await readSitemapTreeFile(bytes, { url });
  } catch (error) {
    if (!(error instanceof SitemapSnapshotError || error instanceof TypeError)) throw error;
    throw new TreeFileError(`${name}: ${error.message}`);
  }
}

/**
 * Every byte of a stream (stdin).
 *
 * @param stream The stream.
 * @returns Its bytes.
 */
export async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: (Uint8Array | string)[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}
