import { strictEqual as equal } from "node:assert/strict";
import { fnv1a, fnv1aWords, fnv1aWordsAscii, FNV_BASIS } from "../../src/parse/_fnv.ts";

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
