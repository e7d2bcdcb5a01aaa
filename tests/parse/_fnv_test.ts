import { strictEqual as equal } from "node:assert/strict";
import { deepStrictEqual as deepEqual } from "node:assert/strict";
import {
  fnv1a,
  fnv1aWords,
  fnv1aWordsAscii,
  fnv1aWordsCopy,
  FNV_BASIS,
} from "../../src/parse/_fnv.ts";

const encoder = new TextEncoder();

Deno.test("fnv1aWordsAscii() gives fnv1aWords()'s state over the string's bytes, any length", () => {
  // The index reader hashes a URL from the document's bytes or from its
  // text, and must find the same URL either way.
  const text = "https://www.example.com/sitemap-9.xml";
  for (let n = 0; n <= text.length; n++) {
    const s = text.slice(0, n);
    const bytes = encoder.encode(s);
    const view = new DataView(bytes.buffer);
    equal(fnv1aWordsAscii(s, FNV_BASIS), fnv1aWords(view, bytes, 0, n, FNV_BASIS), `length ${n}`);
  }
});

Deno.test("fnv1a() is FNV-1a: the published 32-bit values of '', 'a' and 'foobar'", () => {
  equal(fnv1a(new Uint8Array(0), 0, 0) >>> 0, 0x811c9dc5);
  equal(fnv1a(encoder.encode("a"), 0, 1) >>> 0, 0xe40c292c);
  equal(fnv1a(encoder.encode("foobar"), 0, 6) >>> 0, 0xbf9cf968);
});

Deno.test("fnv1aWords() reads a range of a larger buffer, whatever its alignment", () => {
  const bytes = encoder.encode("xxhttps://a.example/yy");
  const view = new DataView(bytes.buffer);
  const alone = encoder.encode("https://a.example/");
  equal(
    fnv1aWords(view, bytes, 2, 20, 7),
    fnv1aWords(new DataView(alone.buffer), alone, 0, alone.length, 7),
  );
});

Deno.test("fnv1aWordsCopy() copies the range where asked and gives fnv1aWords()'s state over it, any length", () => {
  // The pages builder hashes URLs it copies with this and others with
  // fnv1aWords: a duplicate must hash the same either way.
  const src = encoder.encode("..https://www.example.com/p/123?q=1..");
  for (let n = 0; n <= 35; n++) {
    const out = new Uint8Array(n + 3).fill(0x2a);
    const h = fnv1aWordsCopy(src, 2, 2 + n, out, 3, 11);
    const expected = src.slice(2, 2 + n);
    deepEqual(out, Uint8Array.of(0x2a, 0x2a, 0x2a, ...expected), `copy of ${n}`);
    equal(h, fnv1aWords(new DataView(expected.buffer), expected, 0, n, 11), `length ${n}`);
  }
});
