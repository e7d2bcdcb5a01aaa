import { strictEqual as equal } from "node:assert/strict";
import {
  atAscii,
  byteIndex,
  isSpace,
  plainAscii,
  skipSpace,
  trimSpaceEnd,
} from "../../src/parse/_ascii_bytes.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

Deno.test("isSpace() takes XML's four whitespace characters only", () => {
  const spaces = [0x20, 0x09, 0x0a, 0x0d];
  for (let c = 0; c < 256; c++) equal(isSpace(c), spaces.includes(c), `0x${c.toString(16)}`);
});

Deno.test("skipSpace() and trimSpaceEnd() bound a value without its XML whitespace", () => {
  const b = bytes(" \t\r\n 0.8 \n\f");
  const s = skipSpace(b, 0, b.length);
  equal(s, 5);
  // A form feed is not XML whitespace: it stays.
  equal(trimSpaceEnd(b, s, b.length), b.length);
  equal(trimSpaceEnd(b, s, b.length - 1), 8);
  const blank = bytes("  \n ");
  equal(skipSpace(blank, 0, blank.length), blank.length);
  equal(trimSpaceEnd(blank, 2, blank.length), 2);
});

Deno.test("atAscii() matches a word at an offset and never past the end", () => {
  const b = bytes("<![CDATA[x]]>");
  equal(atAscii(b, 2, "[CDATA["), true);
  equal(atAscii(b, 1, "[CDATA["), false);
  equal(atAscii(b, 10, "]]>!"), false);
});

Deno.test("plainAscii() refuses references, non-ASCII, control bytes and the byte asked", () => {
  equal(plainAscii(bytes(" weekly\t\r\n"), 0, 10), true);
  equal(plainAscii(bytes("a&amp;b"), 0, 7), false);
  equal(plainAscii(bytes("caf\u00e9"), 0, 5), false);
  equal(plainAscii(bytes("a\u0001b"), 0, 3), false);
  equal(plainAscii(bytes("a\u007fb"), 0, 3), false);
  equal(plainAscii(bytes("a\rb"), 0, 3, 0x0d), false);
});

Deno.test("byteIndex() finds the first byte at every place of the eight-byte steps and the tail, and never past the end it is given", () => {
  for (let n = 0; n <= 20; n++) {
    for (let at = 0; at < n; at++) {
      const b = new Uint8Array(n + 4).fill(0x61);
      b[at] = 0x3c;
      if (at + 2 < n) b[at + 2] = 0x3c;
      b[n + 1] = 0x3c; // past `end`: never found
      equal(byteIndex(b, 0x3c, 0, n), at, `n ${n}, at ${at}`);
      equal(byteIndex(b, 0x3c, at + 1, n), at + 2 < n ? at + 2 : -1, `n ${n}, from ${at + 1}`);
    }
    equal(byteIndex(new Uint8Array(n).fill(0x61), 0x3c, 0, n), -1);
  }
});
