import assert from "node:assert/strict";
import {
  AbstractIndexSitemap,
  AbstractPagesSitemap,
  AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesAtomSitemap,
  PagesRSSSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "../../src/objects/sitemap.ts";
import { SitemapPage } from "../../src/objects/page.ts";
import { packPages } from "./_pack.ts";

const H = "https://example.com";

function pages(...paths: string[]): SitemapPage[] {
  return paths.map((path) => new SitemapPage({ url: `${H}${path}` }));
}

/**
 * website
 * ├─ robots
 * │  ├─ index
 * │  │  ├─ urlset (packed: /a1 /a2)
 * │  │  └─ invalid
 * │  └─ text (/b1)
 * ├─ rss (packed: /c1)
 * └─ atom (no pages)
 */
function threeLevelTree(): IndexWebsiteSitemap {
  const index = new IndexXMLSitemap(`${H}/index.xml`, [
    new PagesXMLSitemap(`${H}/a.xml`, packPages(pages("/a1", "/a2"))),
    new InvalidSitemap(`${H}/broken.xml`, "Unable to fetch sitemap from URL: 404 Not Found"),
  ], [new Date(Date.UTC(2024, 4, 1)), null]);
  const robots = new IndexRobotsTxtSitemap(`${H}/robots.txt`, [
    index,
    new PagesTextSitemap(`${H}/b.txt`, pages("/b1")),
  ]);
  return new IndexWebsiteSitemap(`${H}/`, [
    robots,
    new PagesRSSSitemap(`${H}/c.rss`, packPages(pages("/c1"))),
    new PagesAtomSitemap(`${H}/d.atom`, []),
  ]);
}

Deno.test("allSitemaps() yields descendants pre-order depth-first, without the node itself", () => {
  const tree = threeLevelTree();
  assert.deepEqual([...tree.allSitemaps()].map((s) => `${s.type} ${s.url}`), [
    `robots ${H}/robots.txt`,
    `index ${H}/index.xml`,
    `urlset ${H}/a.xml`,
    `invalid ${H}/broken.xml`,
    `text ${H}/b.txt`,
    `rss ${H}/c.rss`,
    `atom ${H}/d.atom`,
  ]);
  const robots = tree.subSitemaps[0]!;
  assert.deepEqual([...robots.allSitemaps()].map((s) => s.url), [
    `${H}/index.xml`,
    `${H}/a.xml`,
    `${H}/broken.xml`,
    `${H}/b.txt`,
  ]);
  assert.deepEqual([...robots.subSitemaps[1]!.allSitemaps()], []);
});

Deno.test("allPages() yields pages depth-first, each sitemap's in document order", () => {
  const tree = threeLevelTree();
  assert.deepEqual([...tree.allPages()].map((p) => p.url), [
    `${H}/a1`,
    `${H}/a2`,
    `${H}/b1`,
    `${H}/c1`,
  ]);
  assert.deepEqual([...tree.subSitemaps[0]!.subSitemaps[0]!.allPages()].map((p) => p.url), [
    `${H}/a1`,
    `${H}/a2`,
  ]);
});

Deno.test("every node class has its type and extends the right base", () => {
  const tree = threeLevelTree();
  const nodes = [tree, ...tree.allSitemaps()];
  assert.deepEqual(nodes.map((n) => [n.constructor.name, n.type]), [
    ["IndexWebsiteSitemap", "website"],
    ["IndexRobotsTxtSitemap", "robots"],
    ["IndexXMLSitemap", "index"],
    ["PagesXMLSitemap", "urlset"],
    ["InvalidSitemap", "invalid"],
    ["PagesTextSitemap", "text"],
    ["PagesRSSSitemap", "rss"],
    ["PagesAtomSitemap", "atom"],
  ]);
  assert.deepEqual(
    nodes.map((n) => [
      n instanceof AbstractSitemap,
      n instanceof AbstractIndexSitemap,
      n instanceof AbstractPagesSitemap,
    ]),
    [
      [true, true, false],
      [true, true, false],
      [true, true, false],
      [true, false, true],
      [true, false, false],
      [true, false, true],
      [true, false, true],
      [true, false, true],
    ],
  );
});

Deno.test("subSitemaps and pages are empty where they do not apply", () => {
  const tree = threeLevelTree();
  const invalid = [...tree.allSitemaps()].find((s) => s instanceof InvalidSitemap)!;
  assert.deepEqual([tree.pages, invalid.pages, invalid.subSitemaps], [[], [], []]);
  assert.deepEqual([...invalid.allPages()], []);
  assert.deepEqual(tree.subSitemaps[1]!.subSitemaps, []);
  assert.equal(
    (invalid as InvalidSitemap).reason,
    "Unable to fetch sitemap from URL: 404 Not Found",
  );
});

Deno.test("subSitemaps and pages are frozen copies of what the constructor got", () => {
  const children: AbstractSitemap[] = [new InvalidSitemap(`${H}/x.xml`, "Not a sitemap")];
  const list = pages("/p1");
  const index = new IndexXMLSitemap(`${H}/index.xml`, children);
  const urlset = new PagesXMLSitemap(`${H}/a.xml`, list);
  children.push(new InvalidSitemap(`${H}/y.xml`, "Not a sitemap"));
  list.pop();
  assert.equal(index.subSitemaps.length, 1);
  assert.equal(urlset.pages.length, 1);
  for (const array of [index.subSitemaps, index.subSitemapLastModified, urlset.pages]) {
    assert.ok(Object.isFrozen(array));
  }
  assert.throws(() => (index.subSitemaps as AbstractSitemap[]).push(urlset), TypeError);
  assert.throws(
    () => (urlset.pages as SitemapPage[])[0] = new SitemapPage({ url: "x" }),
    TypeError,
  );
  const packed = new PagesXMLSitemap(`${H}/b.xml`, packPages(pages("/q1")));
  assert.ok(Object.isFrozen(packed.pages));
});

Deno.test("subSitemapLastModified is aligned with subSitemaps and null when not given", () => {
  const a = new InvalidSitemap(`${H}/a.xml`, "r");
  const b = new InvalidSitemap(`${H}/b.xml`, "r");
  assert.deepEqual(new IndexXMLSitemap(`${H}/i.xml`, [a, b]).subSitemapLastModified, [null, null]);
  assert.deepEqual(
    new IndexXMLSitemap(`${H}/i.xml`, [a, b], [null, new Date(0)]).subSitemapLastModified,
    [null, new Date(0)],
  );
  assert.deepEqual(
    new IndexRobotsTxtSitemap(`${H}/robots.txt`, [a], [new Date("bad")]).subSitemapLastModified,
    [null],
  );
  assert.deepEqual(new IndexWebsiteSitemap(`${H}/`, [a]).subSitemapLastModified, [null]);
  assert.throws(() => new IndexXMLSitemap(`${H}/i.xml`, [a, b], [null]), {
    name: "RangeError",
    message:
      "Expected subSitemapLastModified to hold 2 entries (one per sub-sitemap) but it holds 1",
  });
});

Deno.test("pageCount counts pages of packed and array nodes", () => {
  assert.deepEqual(
    [
      new PagesXMLSitemap(`${H}/a.xml`, packPages(pages("/1", "/2", "/3"))),
      new PagesTextSitemap(`${H}/b.txt`, pages("/1", "/2")),
      new PagesRSSSitemap(`${H}/c.rss`, packPages([])),
      new PagesAtomSitemap(`${H}/d.atom`, []),
    ].map((node) => node.pageCount),
    [3, 2, 0, 0],
  );
});

Deno.test("allPages() builds fresh pages on every traversal of a packed node", () => {
  const node = new PagesXMLSitemap(`${H}/a.xml`, packPages(pages("/1", "/2")));
  const first = [...node.allPages()];
  const second = [...node.allPages()];
  assert.deepStrictEqual(first, second);
  assert.notEqual(first[0], second[0]);
  assert.deepStrictEqual(first, pages("/1", "/2"));
});

Deno.test("pages is built once and cached, and allPages() then yields the cached pages", () => {
  const node = new PagesXMLSitemap(`${H}/a.xml`, packPages(pages("/1", "/2")));
  const cached = node.pages;
  assert.equal(node.pages, cached);
  assert.deepStrictEqual(cached, pages("/1", "/2"));
  const traversed = [...node.allPages()];
  assert.equal(traversed[0], cached[0]);
  assert.equal(traversed[1], cached[1]);
});

Deno.test("toJSON() writes each node type with its own keys", () => {
  const tree = threeLevelTree();
  const page = (path: string) => ({
    url: `${H}${path}`,
    priority: 0.5,
    lastModified: null,
    changeFrequency: null,
    newsStory: null,
    images: [],
    videos: [],
    alternates: [],
  });
  assert.deepEqual(JSON.parse(JSON.stringify(tree)), {
    type: "website",
    url: `${H}/`,
    subSitemaps: [
      {
        type: "robots",
        url: `${H}/robots.txt`,
        subSitemaps: [
          {
            type: "index",
            url: `${H}/index.xml`,
            subSitemaps: [
              { type: "urlset", url: `${H}/a.xml`, pages: [page("/a1"), page("/a2")] },
              {
                type: "invalid",
                url: `${H}/broken.xml`,
                reason: "Unable to fetch sitemap from URL: 404 Not Found",
              },
            ],
            subSitemapLastModified: ["2024-05-01T00:00:00.000Z", null],
          },
          { type: "text", url: `${H}/b.txt`, pages: [page("/b1")] },
        ],
        subSitemapLastModified: [null, null],
      },
      { type: "rss", url: `${H}/c.rss`, pages: [page("/c1")] },
      { type: "atom", url: `${H}/d.atom`, pages: [] },
    ],
  });
});

Deno.test("toJSON() of a packed node does not cache its pages", () => {
  const node = new PagesXMLSitemap(`${H}/a.xml`, packPages(pages("/1")));
  node.toJSON();
  assert.notEqual([...node.allPages()][0], [...node.allPages()][0]);
});

Deno.test("a packed node rejects columns shorter than their count", () => {
  const packed = { ...packPages(pages("/1", "/2")), count: 3 };
  assert.throws(() => new PagesXMLSitemap(`${H}/a.xml`, packed), {
    name: "RangeError",
    message: "Expected PackedPages.urlEnds to hold 3 entries but it holds 2",
  });
});

Deno.test("allPages() of an index mixes cached and fresh pages of its children", () => {
  const tree = threeLevelTree();
  const urlset = [...tree.allSitemaps()].find((s) => s.type === "urlset")!;
  const cached = urlset.pages;
  const first = [...tree.allPages()];
  const second = [...tree.allPages()];
  assert.deepEqual(first.map((p) => p.url), [`${H}/a1`, `${H}/a2`, `${H}/b1`, `${H}/c1`]);
  assert.deepEqual(first.map((p, i) => p === second[i]), [true, true, true, false]);
  assert.equal(first[0], cached[0]);
});
