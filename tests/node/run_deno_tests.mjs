// Runs `Deno.test` files on Node >= 20.16, so the pool's tests run on
// worker_threads too:
//
//     node tests/node/run_deno_tests.mjs tests/workers/_parse_pool_test.ts
//
// Each test file is bundled for Node (`deno bundle --platform node`) into
// node_modules/.cache/sitemap-tree/node-tests/<its folder>/, beside bundles of
// the scripts it starts in subprocesses (`_*script.ts`) and of the parse
// worker (worker.js, which the bundled pool loads from beside itself), and the
// JavaScript files of its folder (test workers). Then `Deno.test` is shimmed
// (name and fn, or { name, fn, ignore }), the bundles are imported and their
// tests run in order, the files split between a few Node processes at once
// (one per core). Exits 1 when a test fails.
import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  importTests,
  installDenoTest,
  runSharded,
  runTests,
  testFiles,
} from "../../fixtures/_deno_test_shim.mjs";

const root = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const out = join(root, "node_modules/.cache/sitemap-tree/node-tests");

/** Bundles waiting to run: each is its own `deno bundle` process (~0.8 s, most of it start-up). */
const pending = [];

function bundle(entry, output) {
  pending.push([entry, output]);
}

/** Runs the pending bundles a few at a time: one after another they took ~30 s of the suite. */
async function runBundles() {
  const run = promisify(execFile);
  const next = async () => {
    for (let job = pending.shift(); job !== undefined; job = pending.shift()) {
      const [entry, output] = job;
      await run("npx", [
        "--yes",
        "deno@2.9.6",
        "bundle",
        "--quiet",
        "--platform",
        "node",
        entry,
        "-o",
        output,
      ], { cwd: root });
    }
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, next));
}

/** Runs bundled test files: `[file, bundle]` pairs. */
async function runBundled(pairs) {
  installDenoTest();
  for (const [file, output] of pairs) await importTests(file, pathToFileURL(output).href);
  await runTests(`Node ${process.version}`);
}

if (process.argv[2] === "--bundled") {
  // A shard of the run below: `--bundled FILE BUNDLE...`.
  const args = process.argv.slice(3);
  await runBundled(args.flatMap((_, k) => k % 2 === 0 ? [[args[k], args[k + 1]]] : []));
  process.exit();
}

const bundles = [];
const prepared = new Set();
for (const file of testFiles(process.argv.slice(2))) {
  const folder = dirname(resolve(root, file));
  const target = join(out, relative(root, folder));
  mkdirSync(target, { recursive: true });
  if (!prepared.has(folder)) {
    prepared.add(folder);
    bundle("src/workers/worker.ts", join(target, "worker.js"));
    for (const name of readdirSync(folder)) {
      if (/^_.*script\.ts$/.test(name)) {
        bundle(join(folder, name), join(target, name.replace(/\.ts$/, ".js")));
      } else if (name.endsWith(".js")) {
        copyFileSync(join(folder, name), join(target, name));
      }
    }
  }
  const output = join(target, basename(file).replace(/\.ts$/, ".js"));
  bundle(file, output);
  bundles.push([file, output]);
}

await runBundles();
// The files in a few Node processes at once, as `deno test --parallel` runs them.
const script = new URL(import.meta.url).pathname;
await runSharded(
  bundles,
  (part) => [process.execPath, [script, "--bundled", ...part.flat()]],
  `Node ${process.version}`,
  runBundled,
);
