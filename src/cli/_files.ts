/**
 * The files a command reads and writes whole: a saved tree read back
 * ({@linkcode loadTreeFile}: a snapshot or `ls -f json` output, from a file
 * or stdin) and a file written so that a reader sees the old one or the new
 * one, never half ({@linkcode writeFileWhole}).
 *
 * @module
 */
import process from "node:process";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { AbstractSitemap } from "../../mod.ts";
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
 * Reads a saved tree from a file, or from stdin for `-`.
 *
 * @param source The file's name, or `-`.
 * @param io The streams (stdin).
 * @param missing The usage error for a file that does not exist.
 * @returns The tree.
 * @throws {UsageError} The one `missing` gives, when there is no such file.
 * @throws {TreeFileError} When it cannot be read or holds no tree (damaged, another kind of file).
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
    return readSitemapTreeFile(bytes);
  } catch (error) {
    throw new TreeFileError(`${name}: ${(error as Error).message}`);
  }
}

/**
 * Writes `data` to `path` through a temporary file beside it, renamed into
 * place: `path` is the old file or the new one whole, never a part; no
 * temporary file stays behind a failure.
 *
 * @param path The file.
 * @param data Its new content.
 * @throws {Error} When the file cannot be written (the runtime's error).
 */
export async function writeFileWhole(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
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
