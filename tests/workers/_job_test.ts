import assert from "node:assert/strict";
import { type ParseJob, runParseJob } from "../../src/workers/_job.ts";

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/old</loc><lastmod>2020-01-01</lastmod></url>
  <url><loc>https://example.com/new</loc><lastmod>2024-06-01</lastmod></url>
</urlset>
`;
const URLSET_BYTES = new TextEncoder().encode(URLSET).byteLength;

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function job(bytes: Uint8Array, overrides: Partial<ParseJob> = {}): ParseJob {
  return {
    bytes,
    url: "https://example.com/sitemap.xml.gz",
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 1_000_000,
    ...overrides,
  };
}

function urlsOf(result: Awaited<ReturnType<typeof runParseJob>>["result"]): string[] {
  assert.equal(result.kind, "pages");
  if (result.kind !== "pages") return [];
  const text = new TextDecoder().decode(result.pages.urlBytes);
  return Array.from(
    result.pages.urlEnds,
    (end, i) => text.slice(result.pages.urlEnds[i - 1] ?? 0, end),
  );
}

Deno.test("runParseJob() inflates and parses a gzipped urlset", async () => {
  const outcome = await runParseJob(job(await gzip(URLSET)));
  assert.deepEqual(urlsOf(outcome.result), ["https://example.com/old", "https://example.com/new"]);
  assert.equal(outcome.decompressedBytes, URLSET_BYTES);
  assert.equal(typeof outcome.parseMs, "number");
});

Deno.test("runParseJob() applies since and still counts what it found", async () => {
  const outcome = await runParseJob(job(await gzip(URLSET), { since: Date.UTC(2023, 0, 1) }));
  assert.deepEqual(urlsOf(outcome.result), ["https://example.com/new"]);
  assert.equal(outcome.result.kind === "pages" ? outcome.result.found : -1, 2);
});

Deno.test("runParseJob() refuses a plain body past maxSitemapBytes", async () => {
  const outcome = await runParseJob(
    job(new TextEncoder().encode(URLSET), { maxSitemapBytes: 100 }),
  );
  assert.deepEqual(outcome.result, { kind: "invalid", reason: "Sitemap expands past 100 bytes" });
  assert.equal(outcome.decompressedBytes, URLSET_BYTES);
});

Deno.test("runParseJob() refuses gzip that expands past maxSitemapBytes", async () => {
  const outcome = await runParseJob(job(await gzip(URLSET), { maxSitemapBytes: 100 }));
  assert.deepEqual(outcome.result, { kind: "invalid", reason: "Sitemap expands past 100 bytes" });
  assert.equal(outcome.decompressedBytes, 0);
});

Deno.test("runParseJob() reports gzip it cannot inflate", async () => {
  const bytes = new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const outcome = await runParseJob(job(bytes));
  assert.deepEqual(outcome.result, {
    kind: "invalid",
    reason: "Invalid gzip data: unknown compression method",
  });
});

Deno.test("runParseJob() keeps the pages of a truncated gzip stream, with its warning", async () => {
  const gzipped = await gzip(URLSET);
  // Cutting the trailer leaves the whole document inflatable: only the
  // decompressor can tell that the download ended early.
  const outcome = await runParseJob(job(gzipped.subarray(0, gzipped.byteLength - 8)));
  assert.deepEqual(urlsOf(outcome.result), ["https://example.com/old", "https://example.com/new"]);
  assert.equal(
    outcome.result.kind === "pages" ? outcome.result.warning : null,
    "Gzip data ends early (truncated download?)",
  );
});

Deno.test("runParseJob() makes gzip cut before anything inflates an invalid sitemap, not text(0)", async () => {
  const gzipped = await gzip(URLSET);
  const outcome = await runParseJob(job(gzipped.subarray(0, 10)));
  assert.deepEqual(outcome.result, {
    kind: "invalid",
    reason: "Gzip data ends before any of it inflates (truncated download?)",
  });
});

Deno.test("runParseJob() makes a UTF-32 body an invalid sitemap with the reason", async () => {
  const le = new Uint8Array([
    0xff,
    0xfe,
    0,
    0,
    0x3c,
    0,
    0,
    0,
    0x61,
    0,
    0,
    0,
    0x2f,
    0,
    0,
    0,
    0x3e,
    0,
    0,
    0,
  ]);
  const outcome = await runParseJob(job(le));
  assert.deepEqual(outcome.result, {
    kind: "invalid",
    reason: "Not a sitemap: the document is encoded as UTF-32LE (byte order mark FF FE 00 00), " +
      "which cannot be decoded (the Encoding Standard has no UTF-32); serve it as UTF-8",
  });
});

Deno.test("runParseJob() resolves rather than rejects on a bad job", async () => {
  const outcome = await runParseJob(job(new Uint8Array(10), { maxSitemapBytes: NaN }));
  assert.deepEqual(outcome.result, {
    kind: "invalid",
    reason: "Parser failed: maxBytes must be a number >= 0, got NaN",
  });
});

Deno.test("runParseJob() reports the inflated size of a gzipped body past 64 KiB (freed after parsing)", async () => {
  const rows = Array.from(
    { length: 2_000 },
    (_, i) => `  <url><loc>https://example.com/page/${i}</loc></url>\n`,
  ).join("");
  const text = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${rows}</urlset>
`;
  const size = new TextEncoder().encode(text).byteLength;
  assert.ok(size > 64 * 1024);
  const outcome = await runParseJob(job(await gzip(text)));
  assert.equal(outcome.decompressedBytes, size);
  assert.equal(outcome.result.kind === "pages" && outcome.result.pages.count, 2_000);
});
