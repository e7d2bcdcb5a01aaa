import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { TextSitemapReader } from "../../src/parse/_text.ts";
import { fixture, pagesOf, parse, rows, urls } from "./_unpack.ts";

Deno.test("text sitemap: absolute http(s) lines kept, trimmed, deduplicated; others skipped", () => {
  const result = pagesOf(
    parse(fixture("sitemap.txt"), { url: "https://www.example.com/sitemap.txt" }),
  );
  equal(result.format, "text");
  equal(result.found, 4);
  equal(result.warning, null);
  deepStrictEqual(urls(result.pages), [
    "https://www.example.com/",
    "https://www.example.com/help/shipping",
    "https://www.example.com/help/returns",
    "https://www.example.com/help/faq",
  ]);
  deepStrictEqual(rows(result.pages)[0], {
    url: "https://www.example.com/",
    lastModified: null,
    priority: 0.5,
    changeFrequency: null,
  });
});

Deno.test("text sitemap: an empty or blank document is an empty text sitemap", () => {
  for (const doc of ["", " \n\r\n\t "]) {
    const result = pagesOf(parse(doc));
    deepStrictEqual([result.format, result.pages.count, result.found], ["text", 0, 0]);
  }
});

Deno.test("TextSitemapReader joins a URL split across chunks", () => {
  const reader = new TextSitemapReader();
  reader.write("https://www.exa");
  reader.write("mple.com/a\r");
  reader.write("\nhttps://www.example.com/b");
  deepStrictEqual(urls(pagesOf(reader.end()).pages), [
    "https://www.example.com/a",
    "https://www.example.com/b",
  ]);
});
