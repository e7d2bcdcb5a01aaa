/**
 * The repository's files, for the tests that read the source itself (layers,
 * examples, cited documents).
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory. */
export const ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Every file under `folder` whose name ends with `ending`, skipping
 * `generated/` folders (generated data, not source).
 *
 * @param folder A folder, as a path from the root.
 * @param ending The end of the names wanted.
 * @returns The files, as paths from the root.
 */
export function filesUnder(folder: string, ending = ".ts"): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" ? [] : filesUnder(path, ending);
    return entry.name.endsWith(ending) ? [path] : [];
  });
}
