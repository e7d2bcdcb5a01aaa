/**
 * `deno bench -A bench/decompress_bench.ts`: the two inflaters of
 * src/decompress.ts on a realistic sitemap and on a bomb. Peak memory of the
 * bomb rejection is measured separately, in fresh processes, by
 * bench/bomb_rss.ts.
 *
 * @module
 */
import { decompressIfGzip, decompressIfGzipWithStreams } from "../src/decompress.ts";
import { gzipBomb, gzipUrlset } from "../fixtures/bombs.ts";

const MiB = 1024 * 1024;
const MAX_BYTES = 50 * MiB;
// 50,000 <url> entries with <loc> and <lastmod>: ~4-5 MB of XML, the seed benchmark's shape.
const { gzip: urlset, xmlBytes } = gzipUrlset(50_000);
const bomb = gzipBomb(200 * MiB);

async function mustInflate(
  inflate: typeof decompressIfGzip,
  bytes: Uint8Array,
  expected: number,
): Promise<void> {
  const result = await inflate(bytes, MAX_BYTES);
  if (!result.ok || result.bytes.byteLength !== expected) {
    throw new Error(`Expected ${expected} bytes, got ${JSON.stringify(result)}`);
  }
}

async function mustReject(inflate: typeof decompressIfGzip, bytes: Uint8Array): Promise<void> {
  const result = await inflate(bytes, MAX_BYTES);
  if (result.ok) throw new Error(`Bomb accepted: ${result.bytes.byteLength} bytes`);
}

const urlsetGroup = `urlset ${(urlset.byteLength / 1e6).toFixed(2)} MB gzip -> ${
  (xmlBytes / 1e6).toFixed(2)
} MB`;

Deno.bench("node:zlib gunzipSync", { group: urlsetGroup, baseline: true }, async () => {
  await mustInflate(decompressIfGzip, urlset, xmlBytes);
});

Deno.bench("DecompressionStream in 4 KiB pieces", { group: urlsetGroup }, async () => {
  await mustInflate(decompressIfGzipWithStreams, urlset, xmlBytes);
});

const bombGroup = `bomb ${(bomb.byteLength / 1e3).toFixed(0)} KB -> 200 MiB, bound 50 MiB`;

Deno.bench("node:zlib gunzipSync", { group: bombGroup, baseline: true }, async () => {
  await mustReject(decompressIfGzip, bomb);
});

Deno.bench("DecompressionStream in 4 KiB pieces", { group: bombGroup }, async () => {
  await mustReject(decompressIfGzipWithStreams, bomb);
});
