import assert from "node:assert/strict";
import { constants, gzipSync } from "node:zlib";
import { gzipOutputExceeds } from "../src/_gzip_size.ts";
import { decompressIfGzip, decompressIfGzipWithStreams } from "../src/decompress.ts";
import { gzipBomb } from "../fixtures/bombs.ts";

const MiB = 1024 * 1024;

/** Deterministic bytes: text-like runs, a sitemap's repeats, and noise no deflate can shrink. */
function samples(): Readonly<
  Record<"empty" | "one" | "urlset" | "noise" | "zeros" | "mixed", Uint8Array>
> {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const noise = new Uint8Array(70_000).map(() => Math.floor(random() * 256));
  const entries = [];
  for (let i = 0; i < 3000; i++) {
    entries.push(
      `<url><loc>https://example.com/p/${i}?q=${Math.floor(random() * 1e6)}</loc><lastmod>2024-01-${
        10 + (i % 20)
      }</lastmod></url>`,
    );
  }
  const urlset = new TextEncoder().encode(`<urlset>${entries.join("\n")}</urlset>`);
  return {
    empty: new Uint8Array(0),
    one: new Uint8Array([0x3c]),
    urlset,
    noise,
    zeros: new Uint8Array(300_000),
    mixed: new Uint8Array([...urlset.subarray(0, 50_000), ...noise.subarray(0, 40_000)]),
  };
}

Deno.test("gzipOutputExceeds() counts exactly what zlib inflates, at every level and strategy", () => {
  const options = [
    { level: 0 },
    { level: 1 },
    { level: 6 },
    { level: 9 },
    { level: 6, strategy: constants.Z_HUFFMAN_ONLY },
    { level: 6, strategy: constants.Z_RLE },
    { level: 6, strategy: constants.Z_FIXED },
  ];
  for (const [name, bytes] of Object.entries(samples())) {
    for (const option of options) {
      const gzipped = gzipSync(bytes, option);
      const label = `${name} ${JSON.stringify(option)}`;
      assert.equal(gzipOutputExceeds(gzipped, bytes.length), false, label);
      if (bytes.length > 0) assert.equal(gzipOutputExceeds(gzipped, bytes.length - 1), true, label);
    }
  }
});

Deno.test("gzipOutputExceeds() adds up concatenated members, and skips the optional header fields", () => {
  const { urlset, noise } = samples();
  const both = new Uint8Array([...gzipSync(urlset), ...gzipSync(noise, { level: 0 })]);
  const total = urlset.length + noise.length;
  assert.equal(gzipOutputExceeds(both, total), false);
  assert.equal(gzipOutputExceeds(both, total - 1), true);
  // FEXTRA (4 bytes), FNAME, FCOMMENT and FHCRC, in the order RFC 1952 §2.3 sets them.
  const plain = gzipSync(urlset);
  const header = [0x1f, 0x8b, 8, 4 | 8 | 16 | 2, ...plain.subarray(4, 10)];
  const fields = [4, 0, 1, 2, 3, 4, ...new TextEncoder().encode("a.xml\0note\0"), 0xab, 0xcd];
  const flagged = new Uint8Array([...header, ...fields, ...plain.subarray(10)]);
  assert.equal(gzipOutputExceeds(flagged, urlset.length), false);
  assert.equal(gzipOutputExceeds(flagged, urlset.length - 1), true);
});

Deno.test("gzipOutputExceeds() is null for damaged or cut data it has not counted past the bound", () => {
  const { urlset } = samples();
  const gzipped = gzipSync(urlset);
  assert.equal(gzipOutputExceeds(gzipped.subarray(0, gzipped.length >> 1), urlset.length), null);
  // Block type 3 is reserved (RFC 1951 §3.2.3): first byte after the 10-byte header.
  const reserved = new Uint8Array(gzipped);
  reserved[10] = 0b111;
  assert.equal(gzipOutputExceeds(reserved, urlset.length), null);
  assert.equal(gzipOutputExceeds(new Uint8Array([0x1f, 0x8b, 9, ...Array(20).fill(0)]), 10), null);
  // Cut, but only after the count has passed the bound: over, whatever follows.
  assert.equal(gzipOutputExceeds(gzipped.subarray(0, gzipped.length >> 1), 100), true);
});

Deno.test("decompressIfGzip() refuses a bomb by counting, and reads a file whose trailer lies about a bomb", async () => {
  const bound = 50 * MiB;
  for (const decompress of [decompressIfGzip, decompressIfGzipWithStreams]) {
    const bomb = gzipBomb(200 * MiB, { content: "xml" });
    // The checkpoint sees each output chunk the stream inflater produces: none.
    const inflated: number[] = [];
    assert.deepEqual(await decompress(bomb, bound, (bytes) => inflated.push(bytes)), {
      ok: false,
      reason: "Sitemap expands past 52428800 bytes",
    });
    assert.deepEqual(inflated, [0], decompress.name);
    // A 1,000-byte document whose trailer claims 200 MiB: counted, found within
    // the bound, then inflated as any other, not refused as a bomb.
    const small = gzipSync(new Uint8Array(1000).fill(0x20));
    const lying = new Uint8Array(small);
    new DataView(lying.buffer).setUint32(lying.length - 4, 200 * MiB, true);
    assert.equal(gzipOutputExceeds(lying, bound), false);
    // zlib then fails the length check; Deno's DecompressionStream does not check it.
    const result = await decompress(lying, bound);
    assert.notDeepEqual(
      result,
      { ok: false, reason: "Sitemap expands past 52428800 bytes" },
      decompress.name,
    );
  }
});
