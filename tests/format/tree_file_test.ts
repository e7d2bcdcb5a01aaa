import assert from "node:assert/strict";
import { gzip } from "../../fixtures/generate.ts";
import { encodeSitemapTree, sitemapFromString, SitemapSnapshotError } from "../../mod.ts";
import { readSitemapTreeFile } from "../../src/format/tree_file.ts";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

const XML =
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod></url></urlset>';
const TREE = sitemapFromString(XML, { url: "https://www.example.com/sitemap.xml" });

Deno.test("readSitemapTreeFile() reads a snapshot, JSON after a byte order mark, and a sitemap", async () => {
  assert.deepEqual((await readSitemapTreeFile(encodeSitemapTree(TREE))).toJSON(), TREE.toJSON());
  const json = JSON.stringify(TREE);
  assert.deepEqual(
    (await readSitemapTreeFile(encode(`\uFEFF \n${json}\n`))).toJSON(),
    TREE.toJSON(),
  );
  const url = "https://www.example.com/sitemap.xml";
  for (const bytes of [encode(XML), gzip(XML)]) {
    assert.deepEqual((await readSitemapTreeFile(bytes, { url })).toJSON(), TREE.toJSON());
  }
});

Deno.test("readSitemapTreeFile() says what a file holds instead of a tree", async () => {
  const cases: [string, string][] = [
    [
      "<html><body>hi</body></html>",
      "Not a snapshot (ls --save), a JSON tree (ls -f json) or a sitemap: Not a sitemap: the document's root element is <html>",
    ],
    ['{"type":"urlset"', "Not a JSON tree (ls -f json): "],
    [
      '{"type":"urlset","url":"https://www.example.com/s.xml"}',
      `Not a JSON tree (ls -f json): Expected "pages" at $ to be an array but got undefined`,
    ],
  ];
  for (const [text, message] of cases) {
    await assert.rejects(
      readSitemapTreeFile(encode(text)),
      (e: Error) => e instanceof TypeError && e.message.startsWith(message),
      text,
    );
  }
  const damaged = encodeSitemapTree(TREE);
  damaged[damaged.length - 1]! ^= 1;
  await assert.rejects(
    readSitemapTreeFile(damaged),
    (e: Error) =>
      e instanceof SitemapSnapshotError &&
      e.message === "Snapshot checksum mismatch: the file is damaged",
  );
});
