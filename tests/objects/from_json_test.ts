import assert from "node:assert/strict";
import { sitemapTreeFromJSON } from "../../src/objects/from_json.ts";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesAtomSitemap,
  PagesRSSSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
} from "../../src/objects/sitemap.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "../../src/objects/page.ts";
import { packPages } from "./_pack.ts";

const H = "https://example.com";

const FULL_PAGE = new SitemapPage({
  url: "https://例え.jp/ä?q=ü",
  priority: 0.3,
  lastModified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)),
  changeFrequency: "weekly",
  newsStory: new SitemapNewsStory({
    title: "Launch",
    publishDate: new Date(Date.UTC(2024, 0, 2)),
    publicationName: "Example News",
    publicationLanguage: "en",
    access: "Registration",
    genres: ["Blog"],
    keywords: ["a", "b"],
    stockTickers: ["NASDAQ:EXMP"],
  }),
  images: [
    new SitemapImage({
      loc: `${H}/a.png`,
      caption: "c",
      geoLocation: "g",
      title: "t",
      license: `${H}/l`,
    }),
    new SitemapImage({ loc: `${H}/b.png` }),
  ],
  videos: [
    new SitemapVideo({
      thumbnailLoc: `${H}/t.jpg`,
      title: "V",
      description: "D",
      contentLoc: `${H}/v.mp4`,
      playerLoc: `${H}/p`,
      duration: 61,
      expirationDate: new Date(Date.UTC(2031, 1, 1)),
      rating: 3.5,
      viewCount: 10,
      publicationDate: new Date(Date.UTC(2021, 1, 1)),
      familyFriendly: false,
      requiresSubscription: true,
      live: true,
      uploader: "U",
      tags: ["x"],
    }),
  ],
  alternates: [new SitemapAlternate({ hreflang: "x-default", href: `${H}/` })],
});

const PLAIN_PAGE = new SitemapPage({ url: `${H}/plain` });

function everyNodeType(): IndexWebsiteSitemap {
  return new IndexWebsiteSitemap(`${H}/`, [
    new IndexRobotsTxtSitemap(`${H}/robots.txt`, [
      new IndexXMLSitemap(`${H}/index.xml`, [
        new PagesXMLSitemap(`${H}/packed.xml`, packPages([FULL_PAGE, PLAIN_PAGE])),
        new PagesXMLSitemap(`${H}/array.xml`, [PLAIN_PAGE, FULL_PAGE]),
        new InvalidSitemap(`${H}/gone.xml`, "Unable to fetch sitemap from URL: 410 Gone"),
      ], [new Date(Date.UTC(2024, 5, 6)), null, new Date(0)]),
    ]),
    new PagesTextSitemap(`${H}/sitemap.txt`, [PLAIN_PAGE]),
    new PagesRSSSitemap(`${H}/feed.rss`, packPages([FULL_PAGE])),
    new PagesAtomSitemap(`${H}/feed.atom`, []),
  ]);
}

function describe(tree: AbstractSitemap): string[] {
  return [tree, ...tree.allSitemaps()].map((n) => `${n.constructor.name} ${n.type} ${n.url}`);
}

Deno.test("sitemapTreeFromJSON() inverts toJSON() for every node type and page field", () => {
  const tree = everyNodeType();
  const json = JSON.parse(JSON.stringify(tree));
  const copy = sitemapTreeFromJSON(json);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(copy)), json);
  assert.deepEqual(describe(copy), describe(tree));
  assert.deepStrictEqual([...copy.allPages()], [...tree.allPages()]);
  assert.deepStrictEqual(
    (copy.subSitemaps[0]!.subSitemaps[0] as IndexXMLSitemap).subSitemapLastModified,
    [new Date("2024-06-06T00:00:00Z"), null, new Date(0)],
  );
  assert.equal(
    (copy.subSitemaps[0]!.subSitemaps[0]!.subSitemaps[2] as InvalidSitemap).reason,
    "Unable to fetch sitemap from URL: 410 Gone",
  );
});

Deno.test("sitemapTreeFromJSON() reads a single non-root node", () => {
  const node = sitemapTreeFromJSON({ type: "atom", url: `${H}/feed.atom`, pages: [] });
  assert.ok(node instanceof PagesAtomSitemap);
  assert.equal(node.pageCount, 0);
});

Deno.test("sitemapTreeFromJSON() gives omitted page fields and lastmod lists their defaults", () => {
  const tree = sitemapTreeFromJSON({
    type: "index",
    url: `${H}/index.xml`,
    subSitemaps: [{ type: "urlset", url: `${H}/a.xml`, pages: [{ url: `${H}/1` }] }],
  });
  assert.deepStrictEqual((tree as IndexXMLSitemap).subSitemapLastModified, [null]);
  assert.deepStrictEqual([...tree.allPages()], [new SitemapPage({ url: `${H}/1` })]);
});

Deno.test("sitemapTreeFromJSON() names the path and value of what is wrong", () => {
  const cases: [unknown, string][] = [
    [null, "Expected $ to be an object but got null"],
    [[], "Expected $ to be an object but got []"],
    [
      {
        type: "website",
        url: `${H}/`,
        subSitemaps: [
          { type: "invalid", url: "a", reason: "r" },
          { type: "invalid", url: "b", reason: "r" },
          { type: "foo", url: "c" },
        ],
      },
      'Expected "type" at $.subSitemaps[2] to be one of website, robots, index, urlset, text, rss, atom, invalid but got "foo"',
    ],
    [{ type: "invalid", reason: "r" }, 'Expected "url" at $ to be a string but got undefined'],
    [{ type: "invalid", url: "u" }, 'Expected "reason" at $ to be a string but got undefined'],
    [{ type: "urlset", url: "u" }, 'Expected "pages" at $ to be an array but got undefined'],
    [
      { type: "index", url: "u", subSitemaps: {} },
      'Expected "subSitemaps" at $ to be an array but got {}',
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p" }, { url: "q", priority: 2 }] },
      'Expected "priority" at $.pages[1] to be a number from 0 to 1 but got 2',
    ],
    [
      { type: "text", url: "u", pages: [{ url: "p", changeFrequency: "sometimes" }] },
      'Expected "changeFrequency" at $.pages[0] to be one of always, hourly, daily, weekly, monthly, yearly, never or null but got "sometimes"',
    ],
    [
      { type: "rss", url: "u", pages: [{ url: "p", lastModified: "yesterday" }] },
      'Expected "lastModified" at $.pages[0] to be an ISO 8601 date string or null but got "yesterday"',
    ],
    [
      { type: "rss", url: "u", pages: [{ url: "p", newsStory: { publishDate: null } }] },
      'Expected "title" at $.pages[0].newsStory to be a string but got undefined',
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p", images: [{ loc: "i" }, 7] }] },
      "Expected $.pages[0].images[1] to be an object but got 7",
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p", videos: [{ duration: "long" }] }] },
      'Expected "duration" at $.pages[0].videos[0] to be a finite number or null but got "long"',
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p", videos: [{ live: "yes" }] }] },
      'Expected "live" at $.pages[0].videos[0] to be a boolean or null but got "yes"',
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p", videos: [{ tags: ["a", 1] }] }] },
      "Expected $.pages[0].videos[0].tags[1] to be a string but got 1",
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "p", alternates: [{ hreflang: "de" }] }] },
      'Expected "href" at $.pages[0].alternates[0] to be a string but got undefined',
    ],
    [
      { type: "robots", url: "u", subSitemaps: [], robotsTxt: 42 },
      'Expected "robotsTxt" at $ to be a string or null but got 42',
    ],
    [
      { type: "robots", url: "u", subSitemaps: [], subSitemapLastModified: [null] },
      'Expected "subSitemapLastModified" at $ to be an array of 0 entries (one per sub-sitemap) but got [null]',
    ],
    [
      {
        type: "index",
        url: "u",
        subSitemaps: [{ type: "invalid", url: "a", reason: "r" }],
        subSitemapLastModified: [12],
      },
      "Expected $.subSitemapLastModified[0] to be an ISO 8601 date string or null but got 12",
    ],
    [
      { type: "invalid", url: "u".repeat(200) },
      'Expected "reason" at $ to be a string but got undefined',
    ],
    [
      { type: "urlset", url: "u", pages: [{ url: "x".repeat(200), priority: "high" }] },
      'Expected "priority" at $.pages[0] to be a number from 0 to 1 but got "high"',
    ],
    [
      { type: "urlset", url: "u", pages: ["x".repeat(200)] },
      `Expected $.pages[0] to be an object but got "${"x".repeat(76)}...`,
    ],
  ];
  for (const [json, message] of cases) {
    assert.throws(() => sitemapTreeFromJSON(json), { name: "TypeError", message });
  }
});

Deno.test("sitemapTreeFromJSON() reads a robots.txt node's text back into its rules; without it, no rules", () => {
  const json = {
    type: "robots",
    url: "https://example.com/robots.txt",
    subSitemaps: [],
    subSitemapLastModified: [],
    robotsTxt: "User-agent: *\nDisallow: /private/\n",
  };
  const node = sitemapTreeFromJSON(json);
  assert.ok(node instanceof IndexRobotsTxtSitemap);
  assert.deepEqual(node.toJSON(), json);
  assert.equal(node.robots.isAllowed("https://example.com/private/a"), false);
  const { robotsTxt: _, ...older } = json;
  const bare = sitemapTreeFromJSON(older) as IndexRobotsTxtSitemap;
  assert.deepEqual(
    [bare.toJSON(), bare.robots.text, bare.robots.isAllowed("https://example.com/private/a")],
    [older, "", true],
  );
});
