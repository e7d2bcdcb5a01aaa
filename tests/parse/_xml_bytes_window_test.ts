/**
 * TextWindow (the byte-level readers' text from decoded windows) against a
 * TextDecoder call per range, on documents that mix ASCII with multi-byte
 * characters, stray bytes and truncated sequences, read in order (as the
 * readers read) and at random.
 */
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { attributeValue, runText, TextWindow } from "../../src/parse/_xml_bytes.ts";
import { Rng } from "./_xml_gen.ts";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Pieces a document is made of: ASCII runs dominate, as in sitemaps. */
const PIECES: readonly number[][] = [
  [0x61],
  [0x3c],
  [0x20],
  [0x0d, 0x0a],
  [0x26, 0x61, 0x6d, 0x70, 0x3b], // &amp;
  [0xc3, 0xa9], // é
  [0xe2, 0x82, 0xac], // €
  [0xf0, 0x9f, 0x98, 0x80], // an astral character
  [0x80], // a stray continuation byte
  [0xc3], // a lead byte without its continuation
  [0xf0, 0x9f], // a truncated four-byte sequence
  [0xef, 0xbb, 0xbf], // a BOM, kept as U+FEFF
];

function documentOf(rng: Rng, bytes: number, nonAsciiPer1000: number): Uint8Array {
  const out: number[] = [];
  while (out.length < bytes) {
    const piece = rng.int(1000) < nonAsciiPer1000 ? PIECES[5 + rng.int(7)]! : PIECES[rng.int(5)]!;
    const repeat = 1 + rng.int(40);
    for (let r = 0; r < repeat && out.length < bytes; r++) out.push(...piece);
  }
  return Uint8Array.from(out);
}

Deno.test("TextWindow: every range reads as a TextDecoder call on it, in order and at random", () => {
  const rng = new Rng(12);
  let ranges = 0;
  for (
    const [bytes, density] of [[3_000, 0], [300_000, 0], [40_000, 2], [40_000, 50], [600_000, 1]]
  ) {
    const b = documentOf(rng, bytes!, density!);
    for (const ordered of [true, false]) {
      const window = new TextWindow(b);
      let a = 0;
      for (let k = 0; k < 3000; k++) {
        a = ordered ? a + rng.int(400) : rng.int(b.length);
        if (a >= b.length) break;
        const e = Math.min(b.length, a + rng.int(k % 50 === 0 ? 3000 : 90));
        const expected = decoder.decode(b.subarray(a, e));
        equal(window.decode(a, e), expected, `decode [${a}, ${e}) of ${bytes}/${density}`);
        equal(window.run(a, e), runText(b, a, e));
        equal(window.attribute(a, e), attributeValue(b, a, e));
        ranges++;
      }
    }
  }
  equal(ranges, 19_897); // ordered reads stop at the end of a document
});

Deno.test("TextWindow: a window that ends at a non-ASCII character gives the text across it whole", () => {
  const b = new TextEncoder().encode("https://example.com/caf\u00e9/x" + "a".repeat(70_000));
  const window = new TextWindow(b);
  deepStrictEqual(
    [
      window.decode(0, 8),
      window.decode(8, 26),
      window.decode(26, 28),
      window.decode(69_990, 70_000),
    ],
    ["https://", "example.com/caf\u00e9/", "xa", "aaaaaaaaaa"],
  );
});
