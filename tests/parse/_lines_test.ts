import { deepStrictEqual } from "node:assert/strict";
import { LineSplitter } from "../../src/parse/_lines.ts";

function split(chunks: string[]): string[] {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l));
  for (const c of chunks) s.write(c);
  s.end();
  return lines;
}

Deno.test("LineSplitter splits on LF, CRLF and CR, across chunk boundaries", () => {
  deepStrictEqual(split(["a\nb\r\nc\rd"]), ["a", "b", "c", "d"]);
  deepStrictEqual(split(["a\r", "\nb"]), ["a", "b"]);
  deepStrictEqual(split(["a\r", "\r", "\nb"]), ["a", "", "b"]);
  deepStrictEqual(split(["ab", "cd", "\n", "ef"]), ["abcd", "ef"]);
  deepStrictEqual(split(["a\n\n"]), ["a", ""]);
  deepStrictEqual(split([""]), []);
});

Deno.test("LineSplitter drops lines over the limit whole, across chunks, and keeps the rest", () => {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l), 5);
  s.write("ok\n123");
  s.write("456789");
  s.write("0\nfine\n12345\n123456");
  s.end();
  deepStrictEqual(lines, ["ok", "fine", "12345"]);
});
