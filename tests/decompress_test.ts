import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  decompressIfGzip,
  decompressIfGzipWithStreams,
  type DecompressResult,
} from "../src/decompress.ts";
import { gzipBomb, nestedGzipBomb } from "../fixtures/bombs.ts";

const MiB = 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function gzip(data: string | Uint8Array): Uint8Array {
  const out = gzipSync(typeof data === "string" ? encoder.encode(data) : data);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice();
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function text(result: DecompressResult): string {
  assert.ok(result.ok, result.ok ? "" : result.reason);
  return decoder.decode(result.bytes);
}

const URLSET =
  '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  Array.from({ length: 200 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join(
    "\n",
  ) + "</urlset>";

Deno.test("decompressIfGzip() returns plain bytes untouched, as the same object", async () => {
  const plain = encoder.encode(URLSET);
  const result = await decompressIfGzip(plain, 10);
  assert.deepEqual(result, { ok: true, bytes: plain, gzipped: false });
  assert.ok(result.ok && result.bytes === plain);
});

Deno.test("decompressIfGzip() returns empty input untouched", async () => {
  const empty = new Uint8Array(0);
  assert.deepEqual(await decompressIfGzip(empty, 0), { ok: true, bytes: empty, gzipped: false });
});

Deno.test("decompressIfGzip() treats a lone 0x1f byte as plain", async () => {
  const one = new Uint8Array([0x1f]);
  assert.deepEqual(await decompressIfGzip(one, 100), { ok: true, bytes: one, gzipped: false });
});

Deno.test("decompressIfGzip() inflates gzip found by its magic bytes", async () => {
  const result = await decompressIfGzip(gzip(URLSET), MiB);
  assert.equal(text(result), URLSET);
  assert.deepEqual({ ...result, bytes: null }, { ok: true, bytes: null, gzipped: true });
  assert.equal(result.ok && result.bytes.constructor, Uint8Array);
});

Deno.test("decompressIfGzip() accepts output of exactly maxBytes and refuses one byte more", async () => {
  const data = gzip("x".repeat(1000));
  assert.equal(text(await decompressIfGzip(data, 1000)), "x".repeat(1000));
  assert.deepEqual(await decompressIfGzip(data, 999), {
    ok: false,
    reason: "Sitemap expands past 999 bytes",
  });
});

Deno.test("decompressIfGzip() with maxBytes 0 accepts only empty output", async () => {
  assert.equal(text(await decompressIfGzip(gzip(""), 0)), "");
  assert.deepEqual(await decompressIfGzip(gzip("a"), 0), {
    ok: false,
    reason: "Sitemap expands past 0 bytes",
  });
});

Deno.test("decompressIfGzip() inflates a document into one output chunk of the bound", async () => {
  const result = await decompressIfGzip(gzipBomb(20 * MiB + 3, { content: "xml" }), 50 * MiB);
  assert.ok(result.ok);
  // zlib's one output chunk, one byte longer than the bound: no chunks concatenated.
  assert.deepEqual([
    result.bytes.byteOffset,
    result.bytes.byteLength,
    result.bytes.buffer.byteLength,
  ], [
    0,
    20 * MiB + 3,
    50 * MiB + 1,
  ]);
});

Deno.test("decompressIfGzip() cuts a bound over 64 MiB into equal chunks", async () => {
  const result = await decompressIfGzip(gzipBomb(20 * MiB, { content: "xml" }), 100 * MiB);
  assert.ok(result.ok);
  assert.deepEqual([result.bytes.byteLength, result.bytes.buffer.byteLength], [
    20 * MiB,
    50 * MiB + 1,
  ]);
});

Deno.test("decompressIfGzip() rejects a gzip bomb", async () => {
  const bomb = gzipBomb(200 * MiB);
  assert.ok(bomb.byteLength < 250_000);
  assert.deepEqual(await decompressIfGzip(bomb, 50 * MiB), {
    ok: false,
    reason: "Sitemap expands past 52428800 bytes",
  });
});

Deno.test("decompressIfGzip() rejects an XML-looking gzip bomb", async () => {
  assert.deepEqual(await decompressIfGzip(gzipBomb(200 * MiB, { content: "xml" }), 10 * MiB), {
    ok: false,
    reason: "Sitemap expands past 10485760 bytes",
  });
});

Deno.test("decompressIfGzip() rejects a truncated gzip bomb by size, not truncation", async () => {
  const bomb = gzipBomb(200 * MiB);
  assert.deepEqual(await decompressIfGzip(bomb.subarray(0, bomb.byteLength - 1000), 10 * MiB), {
    ok: false,
    reason: "Sitemap expands past 10485760 bytes",
  });
});

Deno.test("decompressIfGzip() rejects a gzip bomb whose trailer lies about its size", async () => {
  const liar = gzipBomb(200 * MiB, { claimedBytes: 4 * MiB });
  assert.deepEqual(await decompressIfGzip(liar, 20 * MiB), {
    ok: false,
    reason: "Sitemap expands past 20971520 bytes",
  });
});

Deno.test("decompressIfGzip() refuses gzip whose length field does not match", async () => {
  assert.deepEqual(await decompressIfGzip(gzipBomb(MiB, { claimedBytes: MiB + 1 }), 4 * MiB), {
    ok: false,
    reason: "Invalid gzip data: incorrect length check",
  });
});

Deno.test("decompressIfGzip() inflates a bomb that fits its bound, byte for byte", async () => {
  const result = await decompressIfGzip(gzipBomb(3 * MiB + 5, { content: "xml" }), 4 * MiB);
  assert.ok(result.ok);
  assert.equal(result.bytes.byteLength, 3 * MiB + 5);
  assert.match(decoder.decode(result.bytes.subarray(0, 200)), /^<\?xml[^]*<urlset[^]*<url><loc>/);
});

Deno.test("decompressIfGzip() keeps the inflated prefix of truncated gzip, with a warning", async () => {
  const data = gzip(URLSET);
  const result = await decompressIfGzip(data.subarray(0, data.byteLength - 200), MiB);
  assert.ok(result.ok);
  assert.equal(result.warning, "Gzip data ends early (truncated download?)");
  assert.equal(result.gzipped, true);
  const prefix = decoder.decode(result.bytes);
  assert.ok(prefix.length > 1000, `prefix of ${prefix.length} chars`);
  assert.ok(URLSET.startsWith(prefix));
});

Deno.test("decompressIfGzip() warns when only the gzip trailer is missing", async () => {
  const data = gzip(URLSET);
  const result = await decompressIfGzip(data.subarray(0, data.byteLength - 3), MiB);
  assert.deepEqual({ ...result, bytes: text(result) }, {
    ok: true,
    bytes: URLSET,
    gzipped: true,
    warning: "Gzip data ends early (truncated download?)",
  });
});

Deno.test("decompressIfGzip() refuses gzip cut before anything inflates, with a reason", async () => {
  // Inside the header, and right after it: nothing inflated is nothing to keep
  // (an empty document would read as an empty text sitemap).
  const data = gzip(URLSET);
  for (const cut of [new Uint8Array([0x1f, 0x8b, 8]), data.subarray(0, 10)]) {
    assert.deepEqual(await decompressIfGzip(cut, MiB), {
      ok: false,
      reason: "Gzip data ends before any of it inflates (truncated download?)",
    });
  }
  // A complete gzip of nothing is an empty document, not a truncation.
  const empty = await decompressIfGzip(gzip(""), MiB);
  assert.deepEqual({ ...empty, bytes: text(empty) }, {
    ok: true,
    bytes: "",
    gzipped: true,
  });
});

Deno.test("decompressIfGzip() refuses corrupt gzip", async () => {
  const data = gzip(URLSET);
  data[12] = 0xff; // inside the first deflate block header
  data[13]! ^= 0x55;
  const result = await decompressIfGzip(data, MiB);
  assert.equal(result.ok, false);
  assert.match(result.ok ? "" : result.reason, /^Invalid gzip data: \S/);
});

Deno.test("decompressIfGzip() refuses gzip whose CRC does not match", async () => {
  const data = gzip(URLSET);
  data[data.byteLength - 6]! ^= 1;
  assert.deepEqual(await decompressIfGzip(data, MiB), {
    ok: false,
    reason: "Invalid gzip data: incorrect data check",
  });
});

Deno.test("decompressIfGzip() refuses a gzip header with an unknown method", async () => {
  const data = gzip(URLSET);
  data[2] = 7;
  assert.deepEqual(await decompressIfGzip(data, MiB), {
    ok: false,
    reason: "Invalid gzip data: unknown compression method",
  });
});

Deno.test("decompressIfGzip() inflates every concatenated gzip member", async () => {
  const result = await decompressIfGzip(
    concat(gzip("<urlset>"), gzip("<url/>"), gzip("</urlset>")),
    100,
  );
  assert.deepEqual({ ...result, bytes: text(result) }, {
    ok: true,
    bytes: "<urlset><url/></urlset>",
    gzipped: true,
  });
});

Deno.test("decompressIfGzip() bounds concatenated members in total", async () => {
  const members = concat(gzip("a".repeat(600)), gzip("b".repeat(600)));
  assert.deepEqual(await decompressIfGzip(members, 1000), {
    ok: false,
    reason: "Sitemap expands past 1000 bytes",
  });
});

Deno.test("decompressIfGzip() inflates gzip inside gzip", async () => {
  const result = await decompressIfGzip(gzip(gzip(URLSET)), MiB);
  assert.deepEqual({ ...result, bytes: text(result) }, { ok: true, bytes: URLSET, gzipped: true });
});

Deno.test("decompressIfGzip() bounds the inner layer of gzip inside gzip", async () => {
  assert.deepEqual(await decompressIfGzip(nestedGzipBomb(2, 200 * MiB), 20 * MiB), {
    ok: false,
    reason: "Sitemap expands past 20971520 bytes",
  });
});

Deno.test("decompressIfGzip() refuses gzip nested three deep", async () => {
  assert.deepEqual(await decompressIfGzip(gzip(gzip(gzip(URLSET))), MiB), {
    ok: false,
    reason: "Nested gzip deeper than 2 levels refused",
  });
  assert.deepEqual(await decompressIfGzip(nestedGzipBomb(), 50 * MiB), {
    ok: false,
    reason: "Nested gzip deeper than 2 levels refused",
  });
});

Deno.test("decompressIfGzip() throws a RangeError for a negative or NaN maxBytes", async () => {
  await assert.rejects(() => decompressIfGzip(gzip("x"), -1), {
    name: "RangeError",
    message: "maxBytes must be a number >= 0, got -1",
  });
  await assert.rejects(() => decompressIfGzip(gzip("x"), NaN), {
    name: "RangeError",
    message: "maxBytes must be a number >= 0, got NaN",
  });
});

Deno.test("decompressIfGzip() accepts an unlimited maxBytes", async () => {
  assert.equal(text(await decompressIfGzip(gzip(URLSET), Infinity)), URLSET);
});

// The fallback inflater, forced.

Deno.test("decompressIfGzipWithStreams() inflates gzip and returns plain bytes untouched", async () => {
  assert.equal(text(await decompressIfGzipWithStreams(gzip(URLSET), MiB)), URLSET);
  const plain = encoder.encode(URLSET);
  const result = await decompressIfGzipWithStreams(plain, 10);
  assert.ok(result.ok && result.bytes === plain && !result.gzipped);
});

Deno.test("decompressIfGzipWithStreams() accepts exactly maxBytes and refuses one byte more", async () => {
  const data = gzip("x".repeat(1000));
  assert.equal(text(await decompressIfGzipWithStreams(data, 1000)), "x".repeat(1000));
  assert.deepEqual(await decompressIfGzipWithStreams(data, 999), {
    ok: false,
    reason: "Sitemap expands past 999 bytes",
  });
});

Deno.test("decompressIfGzipWithStreams() rejects a gzip bomb", async () => {
  assert.deepEqual(await decompressIfGzipWithStreams(gzipBomb(200 * MiB), 20 * MiB), {
    ok: false,
    reason: "Sitemap expands past 20971520 bytes",
  });
});

Deno.test("decompressIfGzipWithStreams() keeps the prefix of truncated gzip, with a warning", async () => {
  const data = gzip(URLSET);
  const result = await decompressIfGzipWithStreams(data.subarray(0, data.byteLength - 200), MiB);
  assert.ok(result.ok);
  assert.match(result.warning ?? "", /^Gzip data ends early or is damaged: /);
  assert.ok(result.bytes.byteLength > 1000);
  assert.ok(URLSET.startsWith(decoder.decode(result.bytes)));
});

Deno.test("decompressIfGzipWithStreams() refuses gzip cut before anything inflates, with a reason", async () => {
  const data = gzip(URLSET);
  const result = await decompressIfGzipWithStreams(data.subarray(0, 12), MiB);
  assert.equal(result.ok, false);
  assert.match(
    result.ok ? "" : result.reason,
    /^Gzip data inflates to nothing \(truncated download or damaged data\): \S/,
  );
});

Deno.test("decompressIfGzipWithStreams() refuses corrupt gzip", async () => {
  const data = gzip(URLSET);
  data[2] = 7;
  const result = await decompressIfGzipWithStreams(data, MiB);
  assert.equal(result.ok, false);
  assert.match(result.ok ? "" : result.reason, /^Invalid gzip data: \S/);
});

Deno.test("decompressIfGzipWithStreams() inflates gzip inside gzip and refuses a third layer", async () => {
  assert.equal(text(await decompressIfGzipWithStreams(gzip(gzip(URLSET)), MiB)), URLSET);
  assert.deepEqual(await decompressIfGzipWithStreams(gzip(gzip(gzip(URLSET))), MiB), {
    ok: false,
    reason: "Nested gzip deeper than 2 levels refused",
  });
});
