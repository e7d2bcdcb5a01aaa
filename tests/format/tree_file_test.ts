import assert from "node:assert/strict";
import { encodeSitemapTree, sitemapFromString, SitemapSnapshotError } from "../../mod.ts";
import { readSitemapTreeFile } from "../../src/format/tree_file.ts";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

const TREE = sitemapFromString(
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc><lastmod>2024-05-01</lastmod></url></urlset>',
  { url: "https://www.example.com/sitemap.xml" },
);

Deno.test("readSitemapTreeFile() reads a snapshot, and JSON after a byte order mark and white space", () => {
  assert.deepEqual(readSitemapTreeFile(encodeSitemapTree(TREE)).toJSON(), TREE.toJSON());
  const json = JSON.stringify(TREE);
  assert.deepEqual(readSitemapTreeFile(encode(`\uFEFF \n${json}\n`)).toJSON(), TREE.toJSON());
});

Deno.test("readSitemapTreeFile() says what a file holds instead of a tree", () => {
  const cases: [string, string][] = [
    [
      "https://www.example.com/a\n",
      `Neither a snapshot nor a sitemap tree's JSON (as ls -f json writes it): it starts with "https://www.example.com/"`,
    ],
    [
      "  \n",
      "Neither a snapshot nor a sitemap tree's JSON (as ls -f json writes it): it starts empty",
    ],
    ['{"type":"urlset"', "Not valid JSON: "],
    [
      '{"type":"urlset","url":"https://www.example.com/s.xml"}',
      `Not a sitemap tree's JSON: Expected "pages" at $ to be an array but got undefined`,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => readSitemapTreeFile(encode(text)),
      (e: Error) => e instanceof TypeError && e.message.startsWith(message),
      text,
    );
  }
  const damaged = encodeSitemapTree(TREE);
  damaged[damaged.length - 1]! ^= 1;
  assert.throws(
    () => readSitemapTreeFile(damaged),
    (e: Error) =>
      e instanceof SitemapSnapshotError &&
      e.message === "Snapshot checksum mismatch: the file is damaged",
  );
});
