import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { CHECKPOINT_BYTES, ParseCancelled } from "../src/_checkpoint.ts";
import { parseSitemap } from "../src/parse/parse_sitemap.ts";
import { runParseJob } from "../src/workers/_job.ts";

const URL_ENTRY = (i: number) =>
  `<url><loc>https://www.example.com/p/${i}</loc><lastmod>2024-01-01</lastmod></url>\n`;

/** A urlset of about `mib` MiB; UTF-8 takes the byte-level reader, Latin-1 the tokenizer. */
function urlset(mib: number, encoding = "UTF-8"): Uint8Array {
  const entries: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < mib * CHECKPOINT_BYTES; i++) {
    const entry = URL_ENTRY(i);
    entries.push(entry);
    bytes += entry.length;
  }
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="${encoding}"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      entries.join("")
    }</urlset>\n`,
  );
}

function offsetsSeen(bytes: Uint8Array): number[] {
  const seen: number[] = [];
  const result = parseSitemap(bytes, {
    url: "https://www.example.com/sitemap.xml",
    checkpoint: (at) => seen.push(at),
  });
  assert.equal(result.kind, "pages");
  return seen;
}

Deno.test("parseSitemap() calls its checkpoint at least every 1 MiB, on the byte-level reader and on the tokenizer", () => {
  const fast = urlset(3.5);
  const fastSeen = offsetsSeen(fast);
  // From the root's start tag, then from each checkpoint: 1 MiB and the rest of one entry.
  const gaps = fastSeen.map((at, k) => at - (fastSeen[k - 1] ?? 0));
  assert.equal(gaps.length, 3);
  for (const gap of gaps) {
    assert.ok(gap >= CHECKPOINT_BYTES && gap < CHECKPOINT_BYTES + 200, `${gap}`);
  }
  const general = urlset(3.5, "ISO-8859-1");
  // The decoder's pieces: 16 KiB first, then 1 MiB each.
  const first = 16 << 10;
  assert.deepEqual(offsetsSeen(general), [
    0,
    first,
    first + CHECKPOINT_BYTES,
    first + 2 * CHECKPOINT_BYTES,
    first + 3 * CHECKPOINT_BYTES,
  ]);
});

Deno.test("parseSitemap() lets a checkpoint's ParseCancelled through instead of an invalid result", () => {
  for (const encoding of ["UTF-8", "ISO-8859-1"]) {
    const bytes = urlset(2.5, encoding);
    assert.throws(
      () =>
        parseSitemap(bytes, {
          url: "https://www.example.com/sitemap.xml",
          checkpoint: (at) => {
            if (at >= CHECKPOINT_BYTES) throw new ParseCancelled(at);
          },
        }),
      (error) => error instanceof ParseCancelled && error.at >= CHECKPOINT_BYTES,
    );
  }
});

Deno.test("runParseJob() reports a cancelled job as invalid, with where it stopped", async () => {
  const bytes = urlset(2.5);
  const job = {
    url: "https://www.example.com/sitemap.xml.gz",
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 50 << 20,
  };
  const whileInflating = await runParseJob(
    { ...job, bytes: new Uint8Array(gzipSync(bytes)) },
    (at) => {
      throw new ParseCancelled(at);
    },
  );
  assert.deepEqual({ ...whileInflating, parseMs: 0 }, {
    result: { kind: "invalid", reason: "Parse cancelled at byte 0" },
    decompressedBytes: 0,
    parseMs: 0,
    cancelled: { at: 0, total: 0 },
  });
  const whileParsing = await runParseJob({ ...job, bytes }, (at) => {
    if (at > 0) throw new ParseCancelled(at);
  });
  const at = whileParsing.cancelled?.at ?? 0;
  assert.ok(at >= CHECKPOINT_BYTES && at < CHECKPOINT_BYTES + 200, `${at}`);
  assert.deepEqual({ ...whileParsing, parseMs: 0 }, {
    result: { kind: "invalid", reason: `Parse cancelled at byte ${at}` },
    decompressedBytes: bytes.byteLength,
    parseMs: 0,
    cancelled: { at, total: bytes.byteLength },
  });
});
