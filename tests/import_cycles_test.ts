import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/**
 * Relative modules a file imports or re-exports, static or `import()`, type
 * imports included: a type-only cycle still ties the layers together.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8")
    // Comments may quote imports (examples in JSDoc): not edges.
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const found = new Set<string>();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) found.add(resolve(dirname(file), match[1]!));
  return [...found];
}

/** Every cycle of the graph, each as the list of files from its first node back to it. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

Deno.test("src/ has no import cycle", () => {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const named = cycles(graph).map((cycle) =>
    cycle.map((file) => relative(ROOT, file)).join(" -> ")
  );
  assert.deepEqual(named, []);
});

Deno.test("the cycle check finds a cycle where there is one", () => {
  const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assert.deepEqual(cycles(graph), [["a", "b", "c", "a"]]);
  assert.ok(importsOf(join(SRC, "sitemap_tree.ts")).includes(join(SRC, "workers/parser_pool.ts")));
});
