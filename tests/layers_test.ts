/**
 * The layer rules of `src/`, checked on the import statements of every
 * module (static, `import()`, re-exports and type-only imports alike); a
 * failure names the offending import as `importer -> imported`.
 *
 * 1. No import cycle among `src/` and the entry modules.
 * 2. Nothing outside the CLI imports `src/cli/`: the CLI is `cli.ts`,
 *    `bin/` and `src/cli/`.
 * 3. `mod.ts`, `parse.ts` and `bullmq.ts` reach no CLI code, however
 *    indirectly.
 * 3b. The CLI uses the library only through what it publishes (`mod.ts`,
 *    `parse.ts`, `bullmq.ts`), the records and formats of `src/format/`, the
 *    runtime adapter (`src/runtime/mod.ts`) and leaf helpers.
 * 4. `src/parse/` imports only `src/parse/` and leaf helpers (a module
 *    directly in `src/` that imports nothing at all), and no built-in or
 *    package: parsing sits below everything else and never does I/O.
 * 5. Only `src/runtime/` asks which runtime it is on: nowhere else reads
 *    the `Deno` or `Bun` globals, `process.version(s)` or
 *    `navigator.userAgent`, or imports a `node:` built-in lazily (an
 *    `import("node:…")` is the question "is there one here?").
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { filesUnder, ROOT } from "./_repo_files.ts";

/** The library's public entry modules. */
const LIBRARY_ENTRIES = ["mod.ts", "parse.ts", "bullmq.ts"];

/** Every module of the package: `src/`, the entry modules and `bin/`, as paths from the root. */
function packageModules(): string[] {
  return [...LIBRARY_ENTRIES, "cli.ts", ...filesUnder("bin"), ...filesUnder("src")].sort();
}

/** What one module imports: other modules of ours (paths from the root) and bare specifiers. */
interface Imports {
  readonly modules: readonly string[];
  readonly bare: readonly string[];
}

/** The module's source without comments (JSDoc examples quote imports that are not edges). */
function code(file: string): string {
  return readFileSync(join(ROOT, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

/**
 * The modules a file imports or re-exports, static or `import()`, type
 * imports included: a type-only edge still ties the layers together.
 */
function importsOf(file: string, text = code(file)): Imports {
  const modules = new Set<string>();
  const bare = new Set<string>();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1]!;
    if (specifier.startsWith("./") || specifier.startsWith("../")) {
      modules.add(relative(ROOT, resolve(ROOT, dirname(file), specifier)));
    } else {
      bare.add(specifier);
    }
  }
  return { modules: [...modules], bare: [...bare] };
}

type Graph = ReadonlyMap<string, Imports>;

function packageGraph(): Graph {
  return new Map(packageModules().map((file) => [file, importsOf(file)]));
}

/** Every cycle of the graph, each as the list of files from its first node back to it. */
function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node)?.modules ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** Whether a module belongs to the command line. */
function isCli(file: string): boolean {
  return file === "cli.ts" || file.startsWith("bin/") || file.startsWith("src/cli/");
}

/** Rule 2: imports of `src/cli/` from outside the CLI, as `importer -> imported`. */
function cliImportsFromOutside(graph: Graph): string[] {
  const found: string[] = [];
  for (const [file, { modules }] of graph) {
    if (isCli(file)) continue;
    for (const to of modules) if (isCli(to)) found.push(`${file} -> ${to}`);
  }
  return found;
}

/** Rule 3: for each entry, the import chain to the first CLI module it reaches, if any. */
function cliReachedFrom(graph: Graph, entries: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of entries) {
    const via = new Map<string, string | null>([[entry, null]]);
    const queue = [entry];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (isCli(file)) {
        const chain = [file];
        for (let at = via.get(file); at != null; at = via.get(at)) chain.unshift(at);
        found.push(chain.join(" -> "));
        break;
      }
      for (const next of graph.get(file)?.modules ?? []) {
        if (!via.has(next)) {
          via.set(next, file);
          queue.push(next);
        }
      }
    }
  }
  return found;
}

/** Rule 3b: CLI imports of the library that bypass its entry modules. */
function cliImportsBelowEntries(graph: Graph): string[] {
  const allowed = (to: string): boolean =>
    isCli(to) || LIBRARY_ENTRIES.includes(to) || to.startsWith("src/format/") ||
    to === "src/runtime/mod.ts" || isLeafHelper(graph, to);
  const found: string[] = [];
  for (const [file, { modules }] of graph) {
    if (!isCli(file)) continue;
    for (const to of modules) if (!allowed(to)) found.push(`${file} -> ${to}`);
  }
  return found;
}

/** A module directly in `src/` that imports nothing at all: any layer may use it. */
function isLeafHelper(graph: Graph, file: string): boolean {
  const imports = graph.get(file);
  return /^src\/[^/]+\.ts$/.test(file) && imports !== undefined &&
    imports.modules.length === 0 && imports.bare.length === 0;
}

/** Rule 4: imports of `src/parse/` that reach above it. */
function parseImportsAbove(graph: Graph): string[] {
  const found: string[] = [];
  for (const [file, { modules, bare }] of graph) {
    if (!file.startsWith("src/parse/")) continue;
    for (const to of modules) {
      if (!to.startsWith("src/parse/") && !isLeafHelper(graph, to)) found.push(`${file} -> ${to}`);
    }
    for (const specifier of bare) found.push(`${file} -> ${specifier}`);
  }
  return found;
}

/** Ways code asks which runtime it is on. */
const RUNTIME_PROBES: readonly RegExp[] = [
  /\b(?:globalThis|self|window)\s*\.\s*(?:Deno|Bun)\b/g,
  /\btypeof\s+(?:Deno|Bun)\b/g,
  /\b(?:Deno|Bun)\.[A-Za-z_$]+/g,
  /[{;,]\s*(?:Deno|Bun)\??\s*:/g,
  /["'](?:Deno|Bun)["']\s+in\b/g,
  /\bprocess\s*\.\s*versions?\b/g,
  /\bnavigator\s*\.\s*userAgent\b/g,
  /\bimport\s*\(\s*["']node:[^"']+["']\s*\)/g,
];

/** The runtime probes in a module's code, as written. */
function runtimeProbes(text: string): string[] {
  return RUNTIME_PROBES.flatMap((probe) => [...text.matchAll(probe)].map((m) => m[0].trim()));
}

/** Rule 5: modules outside `src/runtime/` that ask which runtime they are on, with what they ask. */
function runtimeQuestionsOutside(files: readonly string[], read = code): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (file.startsWith("src/runtime/")) continue;
    const probes = [...new Set(runtimeProbes(read(file)))];
    if (probes.length > 0) found.push(`${file}: ${probes.join(", ")}`);
  }
  return found;
}

Deno.test("src/ and the entry modules have no import cycle", () => {
  const named = cycles(packageGraph()).map((cycle) => cycle.join(" -> "));
  assert.deepEqual(named, []);
});

Deno.test("nothing outside the CLI imports src/cli/", () => {
  assert.deepEqual(cliImportsFromOutside(packageGraph()), []);
});

Deno.test("mod.ts, parse.ts and bullmq.ts reach no CLI code", () => {
  assert.deepEqual(cliReachedFrom(packageGraph(), LIBRARY_ENTRIES), []);
});

Deno.test("the CLI uses the library only through mod.ts, parse.ts, bullmq.ts and src/format/", () => {
  assert.deepEqual(cliImportsBelowEntries(packageGraph()), []);
});

Deno.test("src/parse/ imports only src/parse/ and leaf helpers", () => {
  assert.deepEqual(parseImportsAbove(packageGraph()), []);
});

Deno.test("only src/runtime/ asks which runtime it is on", () => {
  assert.deepEqual(runtimeQuestionsOutside(packageModules()), []);
});

Deno.test("the layer checks name the import that breaks a rule", () => {
  const graph: Graph = new Map(
    Object.entries({
      "mod.ts": ["src/a.ts"],
      "src/a.ts": ["src/b.ts"],
      "src/b.ts": ["src/cli/_x.ts", "src/a.ts"],
      "src/cli/_x.ts": [],
      "src/cli/_y.ts": ["mod.ts", "src/format/f.ts", "src/_leaf.ts", "src/parse/q.ts"],
      "src/_leaf.ts": [],
      "src/parse/p.ts": ["src/parse/q.ts", "src/_leaf.ts", "src/a.ts"],
      "src/parse/q.ts": [],
    }).map((
      [file, modules],
    ) => [file, { modules, bare: file === "src/parse/q.ts" ? ["node:fs"] : [] }]),
  );
  assert.deepEqual(cycles(graph), [["src/a.ts", "src/b.ts", "src/a.ts"]]);
  assert.deepEqual(cliImportsFromOutside(graph), ["src/b.ts -> src/cli/_x.ts"]);
  assert.deepEqual(cliImportsBelowEntries(graph), ["src/cli/_y.ts -> src/parse/q.ts"]);
  assert.deepEqual(cliReachedFrom(graph, ["mod.ts"]), [
    "mod.ts -> src/a.ts -> src/b.ts -> src/cli/_x.ts",
  ]);
  assert.deepEqual(parseImportsAbove(graph), [
    "src/parse/p.ts -> src/a.ts",
    "src/parse/q.ts -> node:fs",
  ]);
  const sources: Record<string, string> = {
    "src/x.ts": 'const deno = (globalThis as { Deno?: typeof Deno }).Deno;\nDeno.env.get("A");',
    "src/y.ts": 'const zlib = await import("node:zlib");\nif (process.versions.bun) {}',
    "src/z.ts": 'import { gzipSync } from "node:zlib";\nconst note = "runs on Deno and Bun";',
    "src/runtime/deno.ts": "Deno.env.get('A');",
  };
  assert.deepEqual(runtimeQuestionsOutside(Object.keys(sources), (file) => sources[file]!), [
    "src/x.ts: typeof Deno, Deno.env, { Deno?:",
    'src/y.ts: process.versions, import("node:zlib")',
  ]);
  assert.deepEqual(
    importsOf("src/cli/_x.ts", 'import type { A } from "../a.ts";\nimport("bullmq");'),
    {
      modules: ["src/a.ts"],
      bare: ["bullmq"],
    },
  );
});
