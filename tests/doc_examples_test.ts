/**
 * Examples are tests: every public function and class has one, and every
 * example in a JSDoc comment runs (`deno task test:doc`) and checks its
 * result with `node:assert/strict`'s strict functions, imported by name.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { filesUnder, ROOT } from "./_repo_files.ts";
const ENTRIES = ["mod.ts", "parse.ts", "cli.ts", "bullmq.ts"];

/**
 * The strict functions of `node:assert/strict`. Imported by name, `equal`
 * and `deepEqual` are the loose ones in Deno 2.9, so they are not here.
 */
const STRICT = new Set([
  "ok",
  "strictEqual",
  "notStrictEqual",
  "deepStrictEqual",
  "notDeepStrictEqual",
  "throws",
  "doesNotThrow",
  "rejects",
  "doesNotReject",
  "match",
  "doesNotMatch",
  "fail",
]);

/** One fenced code block of a JSDoc comment. */
interface Example {
  readonly where: string;
  /** The fence's info string: `ts`, `ts ignore`, ... */
  readonly info: string;
  readonly code: string;
}

/** The `.ts` files of the package that `deno task test:doc` may read: the entries and `src/`. */
function packageFiles(): string[] {
  return [...ENTRIES, ...filesUnder("src")];
}

/** The code blocks of every JSDoc comment of `file`, but shell and other non-script blocks. */
function examplesOf(file: string): Example[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  const examples: Example[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    // Only the leading ` * ` goes, so the text keeps the comment's line breaks.
    const text = comment[0].replace(/^[ \t]*\*(?: |(?=\n)|$)/gm, "");
    const line = source.slice(0, comment.index).split("\n").length;
    for (const block of text.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)) {
      const info = block[1]!.trim();
      if (!/^(ts|tsx|js|jsx|typescript|javascript)\b/.test(info)) continue;
      const at = line + text.slice(0, block.index).split("\n").length - 1;
      examples.push({ where: `${file}:${at}`, info, code: block[2]! });
    }
  }
  return examples;
}

/** What is wrong with one example: nothing when it runs and asserts as the house style asks. */
function faultsOf(example: Example): string[] {
  const faults: string[] = [];
  if (example.info.split(/\s+/).length > 1) faults.push(`is \`${example.info}\`, so it never runs`);
  const imports = [
    ...example.code.matchAll(/import\s+([^;]*?)\s+from\s+["'](node:assert(?:\/strict)?)["']/g),
  ];
  const names: string[] = [];
  for (const [, clause = "", module] of imports) {
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    if (module !== "node:assert/strict" || named === null) {
      faults.push(`imports ${clause.trim()} from ${module} (import the strict functions by name)`);
      continue;
    }
    for (const part of named[1]!.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
      const name = part.split(/\s+as\s+/)[0]!;
      if (STRICT.has(name)) names.push(part.split(/\s+as\s+/).at(-1)!);
      else faults.push(`imports ${name}, which is not one of the strict functions`);
    }
  }
  if (!names.some((name) => new RegExp(`\\b${name}\\(`).test(example.code))) {
    faults.push("asserts nothing");
  }
  if (/\bconsole\.\w+\(/.test(example.code)) faults.push("prints instead of asserting");
  return faults.map((fault) => `${example.where}: the example ${fault}`);
}

Deno.test("every example runs and asserts with node:assert/strict's strict functions, imported by name", () => {
  const examples = packageFiles().flatMap(examplesOf);
  assert.ok(examples.length >= 80, `only ${examples.length} examples found`);
  assert.deepStrictEqual(examples.flatMap(faultsOf), []);
});

Deno.test("the example check names an ignored, printing or loosely asserting example", () => {
  const faults = faultsOf({
    where: "x.ts:1",
    info: "ts ignore",
    code: 'import { deepEqual } from "node:assert/strict";\nconsole.log(deepEqual(1, 1));\n',
  });
  assert.deepStrictEqual(faults, [
    "x.ts:1: the example is `ts ignore`, so it never runs",
    "x.ts:1: the example imports deepEqual, which is not one of the strict functions",
    "x.ts:1: the example asserts nothing",
    "x.ts:1: the example prints instead of asserting",
  ]);
  assert.deepStrictEqual(
    faultsOf({
      where: "y.ts:2",
      info: "ts",
      code: 'import assert from "node:assert/strict";\nassert.equal(1, 1);\n',
    }),
    [
      "y.ts:2: the example imports assert from node:assert/strict (import the strict functions by name)",
      "y.ts:2: the example asserts nothing",
    ],
  );
  assert.deepStrictEqual(
    faultsOf({
      where: "z.ts:3",
      info: "ts",
      code: 'import { strictEqual } from "node:assert/strict";\nstrictEqual(1, 1);\n',
    }),
    [],
  );
});

/** A JSDoc node of `deno doc --json`, as far as this test reads it. */
interface DocNode {
  readonly name: string;
  readonly declarations?: readonly {
    readonly kind: string;
    readonly jsDoc?: { readonly tags?: readonly { readonly kind: string }[] };
  }[];
}

Deno.test("every public function and class of mod.ts, parse.ts, cli.ts and bullmq.ts has an example", () => {
  const run = spawnSync(process.execPath, ["doc", "--json", ...ENTRIES], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  assert.strictEqual(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as {
    nodes: Record<string, { symbols?: readonly DocNode[] }>;
  };
  const missing: string[] = [];
  let checked = 0;
  for (const [module, { symbols = [] }] of Object.entries(doc.nodes)) {
    for (const symbol of symbols) {
      for (const declaration of symbol.declarations ?? []) {
        if (declaration.kind !== "function" && declaration.kind !== "class") continue;
        checked++;
        if (!declaration.jsDoc?.tags?.some((tag) => tag.kind === "example")) {
          missing.push(`${module.replace(/^.*\//, "")}: ${declaration.kind} ${symbol.name}`);
        }
      }
    }
  }
  assert.ok(checked >= 50, `only ${checked} functions and classes found`);
  assert.deepStrictEqual(missing, []);
});

Deno.test("deno task test:doc type-checks and runs every file that has an example", () => {
  const config = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as {
    tasks: Record<string, string>;
  };
  const commands = config.tasks["test:doc"]!.split("&&").map((c) => c.trim().split(/\s+/));
  const withExamples = packageFiles().filter((file) => examplesOf(file).length > 0);
  // The examples are type-checked once (`deno check --doc`), then run without a
  // second check, which would type-check the worker module again in every
  // example that starts a worker.
  for (const verb of ["check", "test"]) {
    const command = commands.find((c) => c[0] === "deno" && c[1] === verb && c.includes("--doc"));
    assert.ok(command !== undefined, `no deno ${verb} --doc in ${config.tasks["test:doc"]}`);
    const targets = command.slice(2).filter((arg) => !arg.startsWith("-"));
    const unread = withExamples.filter((file) =>
      !targets.some((target) =>
        target === file || (target.endsWith("/") && file.startsWith(target))
      )
    );
    assert.deepStrictEqual(unread, [], `deno ${verb} --doc`);
  }
});

/** The script blocks of a markdown file: `ts`, `js` and the like, with their info strings. */
function markdownExamplesOf(file: string): Example[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```/gm)].flatMap((block) => {
    const info = block[1]!.trim();
    if (!/^(ts|tsx|js|jsx|typescript|javascript)\b/.test(info)) return [];
    const at = text.slice(0, block.index).split("\n").length;
    return [{ where: `${file}:${at}`, info, code: block[2]! }];
  });
}

Deno.test("deno task test:doc type-checks the code of the README and of every page of docs/", () => {
  const config = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as {
    tasks: Record<string, string>;
  };
  const command = config.tasks["test:doc"]!.split("&&").map((c) => c.trim().split(/\s+/))
    .find((c) => c[0] === "deno" && c[1] === "check" && c.includes("--doc-only"));
  assert.ok(command !== undefined, `no deno check --doc-only in ${config.tasks["test:doc"]}`);
  assert.deepStrictEqual(command.slice(2).filter((arg) => !arg.startsWith("-")), [
    "README.md",
    "docs/*.md",
  ]);
  const pages = ["README.md", ...filesUnder("docs", ".md")];
  const examples = pages.flatMap(markdownExamplesOf);
  assert.ok(examples.length >= 8, `only ${examples.length} examples found`);
  // `ignore` only where Deno cannot resolve the import: the npm package's own name.
  assert.deepStrictEqual(
    examples.filter((e) => e.info.split(/\s+/).includes("ignore"))
      .filter((e) => !/from "sitemap-tree-ts/.test(e.code)).map((e) => e.where),
    [],
  );
});
