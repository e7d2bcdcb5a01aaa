import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as bun from "../../src/runtime/bun.ts";
import * as deno from "../../src/runtime/deno.ts";
import * as node from "../../src/runtime/node.ts";
import { runtime } from "../../src/runtime/mod.ts";

// Which runtime asks nothing outside src/runtime/: tests/layers_test.ts checks that.

Deno.test("the three runtime adapters export the same names", () => {
  const names = (adapter: object): string[] => Object.keys(adapter).sort();
  assert.deepEqual(names(bun), names(deno));
  assert.deepEqual(names(node), names(deno));
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
