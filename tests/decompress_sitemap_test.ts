import assert from "node:assert/strict";
import { gzip } from "../fixtures/generate.ts";
import { decompressSitemap } from "../src/decompress_sitemap.ts";

const TEXT = "https://example.com/a\n";

Deno.test("decompressSitemap() inflates gzip and passes other bytes through", async () => {
  const inflated = await decompressSitemap(gzip(TEXT));
  assert.ok(inflated.ok);
  assert.deepEqual([inflated.gzipped, new TextDecoder().decode(inflated.bytes)], [true, TEXT]);
  const plain = new TextEncoder().encode(TEXT);
  assert.deepEqual(await decompressSitemap(plain), { ok: true, bytes: plain, gzipped: false });
});

Deno.test("decompressSitemap() refuses a document over its bound, 50 MiB by default", async () => {
  assert.deepEqual(await decompressSitemap(gzip("x".repeat(1000)), { maxBytes: 999 }), {
    ok: false,
    reason: "Sitemap expands past 999 bytes",
  });
  assert.deepEqual(await decompressSitemap(gzip(new Uint8Array(50 * 1024 * 1024 + 1), 1)), {
    ok: false,
    reason: "Sitemap expands past 52428800 bytes",
  });
});

Deno.test("decompressSitemap() gives a document over 8 MiB a buffer of its own size", async () => {
  const document = new TextEncoder().encode(TEXT.repeat(500_000)); // 11 MB
  const inflated = await decompressSitemap(gzip(document, 1));
  assert.ok(inflated.ok);
  assert.deepEqual(
    [inflated.bytes.byteOffset, inflated.bytes.byteLength, inflated.bytes.buffer.byteLength],
    [0, document.byteLength, document.byteLength],
  );
  assert.deepEqual(inflated.bytes, document);
});
