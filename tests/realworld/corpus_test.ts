/**
 * The real-world corpus as a regression test: every document of
 * `../shared/realworld/manifest.json` is read, and its outcome compared with
 * `corpus_snapshot.json`, which names each document by its corpus path.
 *
 * Regenerate the snapshot after a deliberate change, review its diff, and
 * say in the commit why it changed:
 *
 *     CORPUS_UPDATE=1 npx --yes deno@2.9.6 test --allow-all --no-check tests/realworld/corpus_test.ts
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { assertEquals } from "../_assert.ts";
import {
  CORPUS_DIR,
  CORPUS_PRESENT,
  corpusFiles,
  readCorpusFile,
  type SnapshotEntry,
  snapshotEntry,
} from "./_corpus.ts";

const SNAPSHOT = fileURLToPath(new URL("./corpus_snapshot.json", import.meta.url));
const UPDATE = process.env.CORPUS_UPDATE === "1" || process.argv.includes("--update");

if (!CORPUS_PRESENT) {
  console.log(`corpus_test: skipped, the real-world corpus is not at ${CORPUS_DIR}`);
}

function differences(file: string, was: SnapshotEntry | undefined, now: SnapshotEntry): string[] {
  if (was === undefined) return [`${file}: not in the snapshot`];
  const out: string[] = [];
  const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
  for (const key of keys) {
    const a = JSON.stringify((was as unknown as Record<string, unknown>)[key]);
    const b = JSON.stringify((now as unknown as Record<string, unknown>)[key]);
    if (a !== b) out.push(`${file}: ${key} was ${a ?? "absent"}, now ${b ?? "absent"}`);
  }
  return out;
}

Deno.test({
  name: "every corpus document reads without throwing, as the snapshot records",
  ignore: !CORPUS_PRESENT,
  fn: async () => {
    const files = corpusFiles();
    const snapshot: Record<string, SnapshotEntry> = UPDATE
      ? {}
      : JSON.parse(readFileSync(SNAPSHOT, "utf8"));
    const now: Record<string, SnapshotEntry> = {};
    const failures: string[] = [];
    for (const f of files) {
      let entry: SnapshotEntry;
      try {
        const read = await readCorpusFile(f);
        entry = snapshotEntry(read);
        if (read.generalPages !== null) {
          const fast = read.node.pages.map((p) => JSON.stringify(p.toJSON()));
          const general = read.generalPages.map((p) => JSON.stringify(p));
          const i = fast.findIndex((p, i) => p !== general[i]);
          if (i !== -1 || fast.length !== general.length) {
            failures.push(
              `${f.file}: sitemapFromString() and the general reader differ ` +
                `(${fast.length} vs ${general.length} pages, first difference at page ${
                  i === -1 ? Math.min(fast.length, general.length) : i
                })`,
            );
          }
        }
      } catch (e) {
        failures.push(`${f.file}: threw ${e instanceof Error ? e.stack : String(e)}`);
        continue;
      }
      now[f.file] = entry;
      if (!UPDATE) failures.push(...differences(f.file, snapshot[f.file], entry));
    }
    for (const file of Object.keys(snapshot)) {
      if (!(file in now)) failures.push(`${file}: in the snapshot, not in the corpus`);
    }
    if (UPDATE) {
      writeFileSync(SNAPSHOT, JSON.stringify(now, null, 2) + "\n");
      console.log(`corpus_test: wrote ${Object.keys(now).length} entries to ${SNAPSHOT}`);
    }
    assertEquals(failures, [], `${failures.length} corpus differences:\n${failures.join("\n")}`);
    assertEquals(Object.keys(now).length, files.length);
  },
});
