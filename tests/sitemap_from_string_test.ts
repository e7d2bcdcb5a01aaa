import assert from "node:assert/strict";
import { sitemapFromString, UNFETCHED_CHILD_REASON } from "../src/sitemap_from_string.ts";
import {
  type AbstractIndexSitemap,
  IndexRobotsTxtSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
} from "../src/objects/sitemap.ts";

const H = "https://example.com";
const INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${H}/a.xml</loc><lastmod>2024-05-01</lastmod></sitemap>
  <sitemap><loc>${H}/b.xml</loc></sitemap>
  <sitemap><loc>${H}/c.xml.gz</loc><lastmod>2024-05-03T10:20:30+02:00</lastmod></sitemap>
</sitemapindex>`;

/** The node as `sitemapFromString()` built it before its children were lazy. */
function eager(
  Node: typeof IndexXMLSitemap | typeof IndexRobotsTxtSitemap,
  url: string,
  children: readonly [string, Date | null][],
): AbstractIndexSitemap {
  return new Node(
    url,
    children.map(([child]) => new InvalidSitemap(child, UNFETCHED_CHILD_REASON)),
    children.map(([, date]) => date),
  );
}

Deno.test("sitemapFromString() returns an index whose unfetched children and lastmods are as before", () => {
  const url = `${H}/index.xml`;
  const expected = eager(IndexXMLSitemap, url, [
    [`${H}/a.xml`, new Date(Date.UTC(2024, 4, 1))],
    [`${H}/b.xml`, null],
    [`${H}/c.xml.gz`, new Date(Date.UTC(2024, 4, 3, 8, 20, 30))],
  ]);
  // Read in either order first: each array is built on its own first read.
  const childrenFirst = sitemapFromString(INDEX, { url }) as AbstractIndexSitemap;
  assert.deepEqual(childrenFirst.subSitemaps.map((c) => c.toJSON()), [
    { type: "invalid", url: `${H}/a.xml`, reason: UNFETCHED_CHILD_REASON },
    { type: "invalid", url: `${H}/b.xml`, reason: UNFETCHED_CHILD_REASON },
    { type: "invalid", url: `${H}/c.xml.gz`, reason: UNFETCHED_CHILD_REASON },
  ]);
  assert.deepEqual(childrenFirst.toJSON(), expected.toJSON());
  const datesFirst = sitemapFromString(INDEX, { url }) as AbstractIndexSitemap;
  assert.deepEqual(
    datesFirst.subSitemapLastModified.map((d) => d?.toISOString() ?? null),
    ["2024-05-01T00:00:00.000Z", null, "2024-05-03T08:20:30.000Z"],
  );
  assert.equal(JSON.stringify(datesFirst), JSON.stringify(expected));
  assert.deepEqual([...datesFirst.allSitemaps()].map((c) => c.url), [
    `${H}/a.xml`,
    `${H}/b.xml`,
    `${H}/c.xml.gz`,
  ]);
});

Deno.test("sitemapFromString() gives an index the same frozen children and lastmods on every read", () => {
  const node = sitemapFromString(INDEX, { url: `${H}/index.xml` }) as AbstractIndexSitemap;
  const children = node.subSitemaps;
  const dates = node.subSitemapLastModified;
  assert.equal(node.subSitemaps, children);
  assert.equal(node.subSitemaps[0], children[0]);
  assert.equal(node.subSitemapLastModified, dates);
  assert.equal(node.subSitemapLastModified[0], dates[0]);
  assert.deepEqual([Object.isFrozen(children), Object.isFrozen(dates)], [true, true]);
  assert.deepEqual([...node.allPages()], []);
});

Deno.test("sitemapFromString() returns a robots.txt node whose children are as before", () => {
  const url = `${H}/robots.txt`;
  const text = `User-agent: *\nDisallow: /private/\nSitemap: ${H}/a.xml\nSitemap: ${H}/b.xml\n`;
  const node = sitemapFromString(text, { url }) as IndexRobotsTxtSitemap;
  const expected = new IndexRobotsTxtSitemap(
    url,
    [`${H}/a.xml`, `${H}/b.xml`].map((child) => new InvalidSitemap(child, UNFETCHED_CHILD_REASON)),
    [null, null],
    text,
  );
  assert.deepEqual(node.toJSON(), expected.toJSON());
  assert.equal(node.robots.isAllowed(`${H}/private/x`), false);
});

Deno.test("sitemapFromString() returns an index of no children as an empty index", () => {
  const node = sitemapFromString(
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></sitemapindex>`,
    { url: `${H}/index.xml` },
  ) as AbstractIndexSitemap;
  assert.deepEqual(node.toJSON(), eager(IndexXMLSitemap, `${H}/index.xml`, []).toJSON());
  assert.deepEqual([node.subSitemaps.length, node.subSitemapLastModified.length], [0, 0]);
});
