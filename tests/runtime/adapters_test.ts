import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as bun from "../../src/runtime/bun.ts";
import * as deno from "../../src/runtime/deno.ts";
import * as node from "../../src/runtime/node.ts";
import { runtime } from "../../src/runtime/mod.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/** What in `text` asks which runtime it runs on: a runtime's global, or a built-in loaded lazily. */
function runtimeQuestions(text: string): string[] {
  const code = text
    // Comments may name runtimes and quote examples: not questions.
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/\s\/\/ .*$/gm, "");
  const pattern =
    /\bimport\s*\(\s*["']node:[^"']+["']|\b(?:Deno|Bun)\.\w+|\bDeno\?|\btypeof (?:Deno|Bun)\b|getBuiltinModule|globalThis(?:\s+as\s+[^)]*\))?\.(?:Deno|Bun)\b|\{\s*(?:Deno|Bun)\?:/g;
  return [...code.matchAll(pattern)].map((match) => match[0]);
}

Deno.test("the three runtime adapters export the same names", () => {
  const names = (adapter: object): string[] => Object.keys(adapter).sort();
  assert.deepEqual(names(bun), names(deno));
  assert.deepEqual(names(node), names(deno));
});

Deno.test("only src/runtime/ asks which runtime it runs on or loads node: built-ins lazily", () => {
  const found = readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts") && !path.startsWith("runtime"))
    .map((path) => join(SRC, path))
    .flatMap((file) =>
      runtimeQuestions(readFileSync(file, "utf8")).map((q) => `${relative(ROOT, file)}: ${q}`)
    );
  assert.deepEqual(found, []);
});

Deno.test("the runtime check finds a runtime question where there is one", () => {
  const text = `// Deno.env in a comment is fine
    const { lookup } = await import("node:dns/promises");
    const deno = (globalThis as { Deno?: typeof Deno }).Deno;
    if (typeof Bun !== "undefined") Bun.gc(true);
    import process from "node:process";`;
  assert.deepEqual(runtimeQuestions(text), [
    'import("node:dns/promises"',
    "globalThis as { Deno?: typeof Deno }).Deno",
    "typeof Bun",
    "Bun.gc",
  ]);
});

Deno.test("the adapter loads zlib, the file system and the resolver this runtime has", async () => {
  const zlib = await runtime.loadZlib();
  assert.ok(zlib !== null);
  const text = new TextEncoder().encode("<urlset/>".repeat(100));
  const gzipped = zlib.gzipSync(text, { level: 1 });
  assert.deepEqual([gzipped[0], gzipped[1]], [0x1f, 0x8b]);
  const back = zlib.gunzipSync(gzipped, { maxOutputLength: 10_000, chunkSize: 16_384 });
  assert.equal(new TextDecoder().decode(back), "<urlset/>".repeat(100));
  const fs = await runtime.loadFileSystem();
  const dir = mkdtempSync(join(tmpdir(), "sitemap-tree-runtime-"));
  try {
    await fs.mkdir(join(dir, "a/b"), { recursive: true });
    await fs.writeFile(join(dir, "a/b/x.tmp"), text);
    await fs.rename(join(dir, "a/b/x.tmp"), join(dir, "a/b/x"));
    assert.deepEqual(await fs.readFile(join(dir, "a/b/x")), text);
    await fs.rm(join(dir, "a/b/missing"), { force: true });
    await assert.rejects(fs.readFile(join(dir, "a/b/missing")), { code: "ENOENT" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const addresses = await runtime.resolveHost("localhost");
  assert.ok(addresses.some((a) => a === "127.0.0.1" || a === "::1"), addresses.join(", "));
  assert.equal(await runtime.lowerThreadPriority(0), undefined);
});
