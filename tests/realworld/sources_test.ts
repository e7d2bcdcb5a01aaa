/**
 * What the corpus's source projects' own tests say their fixtures hold,
 * asserted against our reading of the same files (by corpus path). Each value
 * cites the test it comes from; where we differ from the source on purpose,
 * the expectation says so in `differs` and asserts our value.
 *
 * @module
 */
import { assert, assertEquals } from "../_assert.ts";
import { decompressIfGzip } from "../../src/decompress.ts";
import type { SitemapPageJSON } from "../../src/objects/page.ts";
import { AbstractIndexSitemap } from "../../src/objects/sitemap.ts";
import { sitemapTreeForHomepage } from "../../src/sitemap_tree.ts";
import { CORPUS_PRESENT, corpusBytes, corpusFiles, readCorpusFile } from "./_corpus.ts";

/** One fixture's expected outcome; absent fields are not asserted. */
interface Expectation {
  readonly file: string;
  readonly type?: string;
  /** Page URLs, in order. */
  readonly urls?: readonly string[];
  /** Each page's lastmod as ISO 8601 (null: none), in order. */
  readonly lastModified?: readonly (string | null)[];
  readonly changeFrequency?: readonly (string | null)[];
  readonly priority?: readonly number[];
  /** Child sitemap URLs of an index or robots.txt, in order. */
  readonly children?: readonly string[];
  /** Each child's `<lastmod>` as ISO 8601 (null: none), in order. */
  readonly childLastModified?: readonly (string | null)[];
  /** Only the number of children (the source asserts a count). */
  readonly childCount?: number;
  /** Only the number of pages (the source asserts a count). */
  readonly pageCount?: number;
  /** Values computed from the pages' JSON: each `of(pages)` must deep-equal `is`. */
  readonly derived?: readonly {
    readonly what: string;
    readonly of: (pages: readonly SitemapPageJSON[]) => unknown;
    readonly is: unknown;
  }[];
  /** Where the value asserted is ours, not the source's, and why. */
  readonly differs?: string;
}

async function check(e: Expectation): Promise<void> {
  const f = corpusFiles().find((f) => f.file === e.file);
  assert(f !== undefined, `${e.file} is not in the manifest`);
  const { node } = await readCorpusFile(f);
  const pages = node.pages.map((p) => p.toJSON());
  const at = (field: string) => `${e.file}: ${field}`;
  if (e.type !== undefined) assertEquals(node.type, e.type, at("type"));
  if (e.pageCount !== undefined) assertEquals(pages.length, e.pageCount, at("page count"));
  if (e.urls !== undefined) assertEquals(pages.map((p) => p.url), e.urls, at("urls"));
  if (e.lastModified !== undefined) {
    assertEquals(pages.map((p) => p.lastModified), e.lastModified, at("lastModified"));
  }
  if (e.changeFrequency !== undefined) {
    assertEquals(pages.map((p) => p.changeFrequency), e.changeFrequency, at("changeFrequency"));
  }
  if (e.priority !== undefined) {
    assertEquals(pages.map((p) => p.priority), e.priority, at("priority"));
  }
  const children = node.subSitemaps.map((c) => c.url);
  if (e.children !== undefined) assertEquals(children, e.children, at("children"));
  if (e.childCount !== undefined) assertEquals(children.length, e.childCount, at("child count"));
  if (e.childLastModified !== undefined) {
    const dates = node instanceof AbstractIndexSitemap ? node.subSitemapLastModified : [];
    assertEquals(
      dates.map((d) => d?.toISOString() ?? null),
      e.childLastModified,
      at("child lastmod"),
    );
  }
  for (const d of e.derived ?? []) assertEquals(d.of(pages), d.is, at(d.what));
}

/** How many values an expectation asserts (for the per-source tally in the report). */
export function assertionCount(list: readonly Expectation[]): number {
  const fields = [
    "type",
    "urls",
    "lastModified",
    "changeFrequency",
    "priority",
    "children",
    "childCount",
    "childLastModified",
    "pageCount",
  ] as const;
  return list.reduce(
    (n, e) => n + fields.filter((k) => e[k] !== undefined).length + (e.derived?.length ?? 0),
    0,
  );
}

// --- crawler-commons: src/test/java/crawlercommons/sitemaps/SiteMapParserTest.java -----------

const CC = "corpus/crawler-commons/";
const SITEMAP_URLS = [
  "http://www.example.com/",
  "http://www.example.com/catalog?item=12&desc=vacation_hawaii",
  "http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
  "http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
  "http://www.example.com/catalog?item=83&desc=vacation_usa",
];

export const CRAWLER_COMMONS: readonly Expectation[] = [
  // testSitemapWithNamespace: 2 URLs, the first daily.
  {
    file: `${CC}sitemap.ns.xml`,
    type: "urlset",
    pageCount: 2,
    changeFrequency: ["daily", "daily"],
  },
  // testSitemapWithWrongNamespace, lenient mode: 2 URLs (we are always lenient).
  { file: `${CC}sitemap.badns.xml`, type: "urlset", pageCount: 2 },
  // testSitemapGZ: 5 URLs, those of getXMLSitemapAsBytes().
  { file: `${CC}xmlSitemap.gz`, type: "urlset", urls: SITEMAP_URLS },
  // testSitemapTextGZ: 5 URLs.
  { file: `${CC}sitemap.txt.gz`, type: "text", pageCount: 5 },
  // testAtomFormat: 1 URL.
  { file: `${CC}atom.xml`, type: "atom", urls: ["http://example.org/2003/12/13/atom03"] },
  {
    // testRSSFormat: 4 URLs, the second from <guid isPermaLink="false">.
    file: `${CC}feed.rss`,
    type: "rss",
    urls: [
      "https://www.example.com/blog/post/1",
      "https://www.example.com/foo?q=a&l=en",
      "https://www.example.com/foo?q=a&l=fr",
    ],
    differs:
      'a <guid isPermaLink="false"> is an identifier, not a page (RSS 2.0): crawler-commons takes ' +
      "https://www.example.com/guid.html from it, we do not (3 pages, not 4)",
  },
  {
    // testRSSPubDate: 7 items, pubDate 1483619690000 + n s for the first four, none for the rest.
    file: `${CC}xmlRss_pubDate.xml`,
    type: "rss",
    urls: [1, 2, 3, 4, 5, 6, 7].map((n) => `http://www.example.com/article_${n}`),
    lastModified: [
      "2017-01-05T12:34:51.000Z",
      "2017-01-05T12:34:52.000Z",
      "2017-01-05T12:34:53.000Z",
      "2017-01-05T12:34:54.000Z",
      "2017-01-05T13:34:55.000Z",
      null,
      null,
    ],
    differs: "article_5's pubDate has no zone: crawler-commons drops it, we read it as UTC " +
      "(src/parse/_dates.ts: a missing zone is UTC, as RFC 822 readers commonly do)",
  },
  {
    // testMissingLocSitemapIndexFile: 15 sitemaps read from <sitemap> text without <loc>.
    file: `${CC}sitemap.index.xml`,
    type: "index",
    childCount: 0,
    differs: "a <sitemap> without <loc> names no sitemap (sitemaps.org protocol; USP agrees): " +
      "crawler-commons reads 15 from the bare text, we read none",
  },
];

// --- crawler-commons: src/test/java/crawlercommons/sitemaps/SiteMapParserExtensionTest.java --
// The stored test predates the corpus's fixtures (which gained pages since):
// only values the two versions share are asserted.

const CCX = `${CC}`;
const first = (what: string, of: (p: SitemapPageJSON) => unknown, is: unknown) => ({
  what: `first page's ${what}`,
  of: (pages: readonly SitemapPageJSON[]) => of(pages[0]!),
  is,
});

export const CRAWLER_COMMONS_EXTENSIONS: readonly Expectation[] = [
  {
    // testVideosSitemap: the first URL's video attributes.
    file: `${CCX}sitemap-videos.xml`,
    derived: [
      first("video locations", (p) => {
        const v = p.videos[0]!;
        return [v.thumbnailLoc, v.contentLoc, v.playerLoc];
      }, [
        "http://www.example.com/thumbs/123.jpg",
        "http://www.example.com/video123.flv",
        "http://www.example.com/videoplayer.swf?video=123",
      ]),
      first("video title", (p) => p.videos[0]!.title, "Grilling steaks for summer"),
      first("video duration", (p) => p.videos[0]!.duration, 600),
      first("video dates", (p) => [p.videos[0]!.expirationDate, p.videos[0]!.publicationDate], [
        "2009-11-05T11:20:30.000Z",
        "2007-11-05T11:20:30.000Z",
      ]),
      first("video rating and views", (p) => [p.videos[0]!.rating, p.videos[0]!.viewCount], [
        4.2,
        12345,
      ]),
      first("video flags", (p) => {
        const v = p.videos[0]!;
        return [v.familyFriendly, v.requiresSubscription, v.live];
      }, [true, true, false]),
      first("video uploader", (p) => p.videos[0]!.uploader, "GrillyMcGrillerson"),
      first("video tags", (p) => p.videos[0]!.tags, ["sample_tag1", "sample_tag2"]),
      first(
        "video description",
        (p) => p.videos[0]!.description,
        "Alkis shows you how to get perfectly done steaks every\n        time",
      ),
    ],
    differs: "the description keeps the document's line break and indentation as written; " +
      "crawler-commons expects them collapsed to one space",
  },
  {
    // testImageSitemap: one URL, two images, the second with every attribute.
    file: `${CCX}sitemap-images.xml`,
    pageCount: 1,
    derived: [first("images", (p) => p.images, [
      {
        loc: "http://example.com/image.jpg",
        caption: null,
        geoLocation: null,
        title: null,
        license: null,
      },
      {
        loc: "http://example.com/photo.jpg",
        caption: "This is the caption.",
        geoLocation: "Limerick, Ireland",
        title: "Example photo shot in Limerick, Ireland",
        license: "https://creativecommons.org/licenses/by/4.0/legalcode",
      },
    ])],
  },
  {
    // testXHTMLLinksSitemap: three URLs sharing the same three alternates.
    file: `${CCX}sitemap-links.xml`,
    pageCount: 3,
    derived: [{
      what: "alternates of every page",
      of: (pages) => pages.map((p) => p.alternates),
      is: Array(3).fill([
        { hreflang: "de", href: "http://www.example.com/deutsch/" },
        { hreflang: "de-ch", href: "http://www.example.com/schweiz-deutsch/" },
        { hreflang: "en", href: "http://www.example.com/english/" },
      ]),
    }],
  },
  {
    // testNewsSitemap: the first URL's news attributes.
    file: `${CCX}sitemap-news.xml`,
    derived: [
      first("news story", (p) => {
        const n = p.newsStory!;
        return [n.publicationName, n.publicationLanguage, n.title];
      }, ["The Example Times", "en", "Companies A, B in Merger Talks"]),
      first("news keywords", (p) => p.newsStory!.keywords, [
        "business",
        "merger",
        "acquisition",
        "A",
        "B",
      ]),
      first("news genres", (p) => p.newsStory!.genres, ["PressRelease", "Blog"]),
      first("news stock tickers", (p) => p.newsStory!.stockTickers, ["NASDAQ:A", "NASDAQ:B"]),
    ],
  },
  {
    // testShinpaideshuNewsSitemap: 3 URLs, each with a publication name and a 2017 date.
    file: `${CCX}shinpaideshou-news-sitemap.xml`,
    pageCount: 3,
    derived: [{
      what: "news publication years",
      of: (pages) => pages.map((p) => p.newsStory?.publishDate?.slice(0, 4)),
      is: ["2017", "2017", "2017"],
    }, {
      what: "news publication names present",
      of: (pages) => pages.map((p) => p.newsStory?.publicationName != null),
      is: [true, true, true],
    }],
  },
  // testHebdenbridgetimesArticlesSitemap: 74 URLs.
  { file: `${CCX}hebdenbridgetimes-articles-sitemap.xml`, type: "urlset", pageCount: 74 },
];

// --- crawler-commons: src/test/java/crawlercommons/robots/SimpleRobotRulesParserTest.java ----

const CCR = "corpus/crawler-commons-robots/";
const NEWSWEEK = ["http://www.newsweek.com/sitemap_index.xml"];
export const CRAWLER_COMMONS_ROBOTS: readonly Expectation[] = [
  {
    // testSitemap: 3 sitemaps, the last one's case kept.
    file: `${CCR}sitemap-robots.txt`,
    children: ["http://domain.com/sitemap.xml", "http://domain.com/dir/MixedCased-sitemap.xml"],
    differs: "a bare URL line without Sitemap: is no record (RFC 9309 §2.2: records are " +
      "name: value lines), so 2 sitemaps where crawler-commons guesses a third",
  },
  // testRelativeSitemap: 1, resolved against the robots.txt URL; testSitemapDedup: 1.
  { file: `${CCR}relative-sitemap-robots.txt`, childCount: 1 },
  { file: `${CCR}sitemap-robots-dedup.txt`, childCount: 1 },
  // testRobotsWithUTF8BOM / UTF16LEBOM / UTF16BEBOM check a rule read through the BOM;
  // the part we read, the Sitemap line, comes through each BOM the same.
  { file: `${CCR}robots-with-utf8-bom.txt`, children: NEWSWEEK },
  { file: `${CCR}robots-with-utf16le-bom.txt`, children: NEWSWEEK },
  { file: `${CCR}robots-with-utf16be-bom.txt`, children: NEWSWEEK },
];

// --- StormCrawler: core/src/test/java/.../bolt/SiteMapParserBoltTest.java --------------------
// The stored test names the fixtures digitalpebble.*; the corpus holds them
// under their later stormcrawler.* names. Each extension test checks the
// first URL's attributes.

const SC = "corpus/stormcrawler/stormcrawler.sitemap.";
const SC_IMAGE = first("image", (p) => p.images[0], {
  loc: "http://example.com/photo.jpg",
  caption: "This is the caption.",
  geoLocation: "Limerick, Ireland",
  title: "Example photo shot in Limerick, Ireland",
  license: "https://creativecommons.org/licenses/by/4.0/legalcode",
});
const SC_NEWS = first("news story", (p) => p.newsStory, {
  title: "Companies A, B in Merger Talks",
  publishDate: "2008-12-23T00:00:00.000Z",
  publicationName: "The Example Times",
  publicationLanguage: "en",
  access: null,
  genres: ["PressRelease", "Blog"],
  keywords: ["business", "merger", "acquisition", "A", "B"],
  stockTickers: ["NASDAQ:A", "NASDAQ:B"],
});
const SC_LINKS = first("alternates", (p) => p.alternates, [
  { hreflang: "en", href: "http://www.example.com/english/" },
]);
const SC_VIDEO = first("video", (p) => {
  const v = p.videos[0]!;
  return [
    v.thumbnailLoc,
    v.title,
    v.description,
    v.contentLoc,
    v.playerLoc,
    v.expirationDate,
    v.rating,
    v.viewCount,
    v.publicationDate,
    v.familyFriendly,
    v.tags,
    v.requiresSubscription,
    v.uploader,
    v.live,
  ];
}, [
  "http://www.example.com/thumbs/123.jpg",
  "Grilling steaks for summer",
  "Alkis shows you how to get perfectly done steaks every time",
  "http://www.example.com/video123.flv",
  "http://www.example.com/videoplayer.swf?video=123",
  "2009-11-05T11:20:30.000Z",
  4.2,
  12345,
  "2007-11-05T11:20:30.000Z",
  true,
  ["sample_tag1", "sample_tag2"],
  true,
  "GrillyMcGrillerson",
  false,
]);

export const STORMCRAWLER: readonly Expectation[] = [
  // testSitemapParsing: 6 outlinks.
  { file: `${SC}xml`, type: "urlset", pageCount: 6 },
  { file: `${SC}extensions.image.xml`, derived: [SC_IMAGE] },
  { file: `${SC}extensions.news.xml`, derived: [SC_NEWS] },
  { file: `${SC}extensions.links.xml`, derived: [SC_LINKS] },
  { file: `${SC}extensions.video.xml`, derived: [SC_VIDEO] },
  // testSitemapParsingWithAllExtensions: all four on the first URL.
  { file: `${SC}extensions.all.xml`, derived: [SC_IMAGE, SC_NEWS, SC_VIDEO, SC_LINKS] },
];

// --- advertools: tests/test_sitemaps.py ---------------------------------------------------

const AT = "corpus/advertools/";
const some = (what: string, has: (p: SitemapPageJSON) => boolean) => ({
  what: `some page has ${what}`,
  of: (pages: readonly SitemapPageJSON[]) => pages.some(has),
  is: true,
});

export const ADVERTOOLS: readonly Expectation[] = [
  // test_regular_sitemap, test_gz_sitemap, test_gz_declared_but_regular_sitemap: 5 rows each.
  { file: `${AT}regular_sitemap.xml`, type: "urlset", pageCount: 5 },
  { file: `${AT}zipped_sitemap.xml.gz`, type: "urlset", pageCount: 5 },
  { file: `${AT}regular_sitemap.xml.gz`, type: "urlset", pageCount: 5 },
  // test_image_sitemap / test_video_sitemap / test_news_sitemap: the extension columns exist.
  { file: `${AT}image_sitemap.xml`, derived: [some("images", (p) => p.images.length > 0)] },
  {
    file: `${AT}video_sitemap.xml`,
    derived: [some("a video content_loc", (p) => p.videos.some((v) => v.contentLoc !== null))],
  },
  { file: `${AT}news_sitemap.xml`, derived: [some("a news story", (p) => p.newsStory !== null)] },
  {
    // test_error_sitemap: advertools raises.
    file: `${AT}error_sitemap.xml`,
    type: "urlset",
    pageCount: 0,
    differs: "a broken document is not an exception here: an empty urlset whose parse " +
      "warning (it ends before </urlset>) goes to stats.warnings",
  },
];

// --- ekalinin/sitemap.js: tests/sitemap-parser.test.ts, sitemap-index-parser.test.ts -------
// alltags.xml, alltags.cdata.xml and bad-tag-sitemap.xml all parse to
// tests/mocks/sampleconfig.normalized.json's urls; the three index mocks to
// sampleconfig-index.normalized.json's sitemaps.

const SJ = "corpus/sitemap-js/";
const RT = "https://roosterteeth.com/episode/";
const SJ_JUNK = "&%3E%3C'%22";
const SJ_URLSET = {
  type: "urlset",
  urls: [
    `${RT}rouletsplay-2018-goldeneye-source${SJ_JUNK}`,
    `${RT}let-s-play-2018-minecraft-episode-310${SJ_JUNK}`,
    `${RT}let-s-watch-2018-house-party-part-2`,
    `http://www.example.org/business/article55.html${SJ_JUNK}`,
    `http://example.com/2${SJ_JUNK}`,
    `http://example.com/1${SJ_JUNK}`,
    `http://example.com/${SJ_JUNK}/`,
  ],
  lastModified: [
    null,
    null,
    "2016-09-12T00:00:00.000Z",
    "2015-06-27T15:30:00.000Z",
    "2011-06-27T00:00:00.000Z",
    "2011-06-27T00:00:00.000Z",
    "2011-06-27T00:00:00.000Z",
  ],
  changeFrequency: ["weekly", "weekly", "daily", null, "always", "always", "always"],
  priority: [0.5, 0.5, 0.6, 0.5, 0.9, 0.9, 0.9],
  differs: "the last URL is WHATWG-normalised (http://example.com/&%3E%3C'%22/; sitemap.js keeps " +
    "http://example.com&><'\"/ as written), and a missing priority is 0.5 (the protocol's default)",
} as const;
const SJ_INDEX = {
  type: "index",
  children: ["https://www.example.com/sitemap1.xml.gz", "https://www.example.com/sitemap2.xml.gz"],
  childLastModified: ["2004-10-01T18:23:17.000Z", "2005-01-01T00:00:00.000Z"],
} as const;

export const SITEMAP_JS: readonly Expectation[] = [
  { file: `${SJ}alltags.xml`, ...SJ_URLSET },
  { file: `${SJ}alltags.cdata.xml`, ...SJ_URLSET },
  { file: `${SJ}bad-tag-sitemap.xml`, ...SJ_URLSET },
  { file: `${SJ}alltags-index.xml`, ...SJ_INDEX },
  { file: `${SJ}alltags-index.cdata.xml`, ...SJ_INDEX },
  { file: `${SJ}bad-tag-index.xml`, ...SJ_INDEX },
  {
    // "rejects malformed file": sitemap.js throws.
    file: `${SJ}unescaped-lt.xml`,
    type: "urlset",
    pageCount: 0,
    differs: "no exception: the one <loc> (http://example.com&><'\"/) has a forbidden host " +
      "code point, so it is no URL and the urlset is empty",
  },
];

// --- benbalter/sitemap-parser: test/test_sitemap_parser.rb --------------------------------
// Per document here; the recursive totals (6, 12) are checked on a tree below.

const BB = "corpus/benbalter-sitemap-parser/";
const BB_PAGES = ["", "about/", "contact/"].map((p) => `http://ben.balter.com/${p}`);
export const BENBALTER: readonly Expectation[] = [
  // test_array / test_xml: 3 URLs; test_gzip_sitemap: the gzipped copy gives these three.
  { file: `${BB}sitemap.xml`, type: "urlset", pageCount: 3 },
  { file: `${BB}sitemap.xml.gz`, type: "urlset", urls: BB_PAGES },
  {
    // test_malformed_sitemap: raises "Malformed sitemap, url without loc".
    file: `${BB}malformed_sitemap.xml`,
    type: "urlset",
    urls: BB_PAGES.slice(1),
    differs: "a <url> without <loc> is skipped and the others are kept, not the document refused",
  },
];

/** benbalter's recursive tests: the index, its children served from the corpus by name. */
const BB_TREES: readonly { readonly index: string; readonly pages: number }[] = [
  { index: "sitemap_index.xml", pages: 6 }, // test_nested_sitemap
  { index: "whitespace_sitemap_index.xml", pages: 6 }, // test_nested_sitemap_with_whitespace
  { index: "nested_sitemap_index.xml", pages: 12 }, // test_multiple_nested_sitemaps
];

// --- Apache Nutch: src/plugin/feed/src/test/.../TestFeedParser.java ------------------------

export const NUTCH: readonly Expectation[] = [{
  // testParseFetchChannel: 3 parse results, among them these 2 links.
  file: "corpus/nutch/rsstest.rss",
  type: "rss",
  urls: ["http://www-scf.usc.edu/~mattmann/", "http://www.nutch.org/"],
  differs: "Nutch's third result is the channel itself; the channel's <link> is no page",
}];

// --- aafeher/go-sitemap-parser: sitemap_test.go, TestS_Parse -------------------------------
// The fixtures say http://HOST/, which the Go test server replaces; as plain
// documents the host is "host". Every page: priority 0.5, lastmod
// 2024-02-12 12:34:56 CET except page-04 (2024-02-12 UTC).

const GO = "corpus/go-sitemap-parser/";
const GO_FREQ: Record<string, string> = {
  "01": "always",
  "02": "hourly",
  "03": "daily",
  "04": "weekly",
  "05": "monthly",
  "06": "yearly",
  "07": "never",
};
const GO_FILES: Record<string, readonly string[]> = {
  "01": ["01"],
  "02": ["02", "03"],
  "03": ["04", "05", "06"],
  "04": ["07"],
  "05": ["08", "09"],
  "06": ["10", "11", "12"],
};

function goSitemap(file: string, pages: readonly string[]): Expectation {
  return {
    file,
    type: "urlset",
    urls: pages.map((n) => `http://host/page-${n}`),
    lastModified: pages.map((n) =>
      n === "04" ? "2024-02-12T00:00:00.000Z" : "2024-02-12T11:34:56.000Z"
    ),
    changeFrequency: pages.map((n) => GO_FREQ[n] ?? "monthly"),
    priority: pages.map(() => 0.5),
  };
}

export const GO_SITEMAP_PARSER: readonly Expectation[] = [
  ...Object.entries(GO_FILES).flatMap(([n, pages]) => [
    goSitemap(`${GO}sitemap-${n}.xml`, pages),
    goSitemap(`${GO}sitemap-${n}.xml.gz`, pages),
  ]),
  {
    file: `${GO}sitemapindex-1.xml`,
    type: "index",
    children: ["01", "02", "03"].map((n) => `http://host/sitemap-${n}.xml`),
  },
  {
    file: `${GO}sitemapindex-2.xml`,
    type: "index",
    children: ["04", "05", "06"].map((n) => `http://host/sitemap-${n}.xml`),
  },
  {
    // "robots.txt with sitemapindex.xml.gz": the gzipped index lists the gzipped sitemaps.
    file: `${GO}sitemapindex-1.xml.gz`,
    type: "index",
    children: ["01", "02", "03"].map((n) => `http://host/sitemap-${n}.xml.gz`),
  },
  { file: `${GO}sitemapindex-with-invalid-sitemap.xml`, children: ["http://host/invalid.xml"] },
  { file: `${GO}sitemapindex-with-invalid-sitemap.xml.gz`, children: ["http://host/invalid.xml"] },
  { file: `${GO}test__robots-empty__robots.txt`, type: "robots", children: [] },
  { file: `${GO}test__robots-without-sitemap__robots.txt`, type: "robots", children: [] },
  {
    file: `${GO}test__robots-with-sitemapindex__robots.txt`,
    type: "robots",
    children: ["http://host/sitemapindex-1.xml"],
  },
  {
    file: `${GO}test__robots-with-sitemapindex-2__robots.txt`,
    type: "robots",
    children: ["http://host/sitemapindex-1.xml", "http://host/sitemapindex-2.xml"],
  },
  {
    file: `${GO}test__robots-with-sitemapindex-gz__robots.txt`,
    type: "robots",
    children: ["http://host/sitemapindex-1.xml.gz"],
  },
  {
    file: `${GO}test__robots-with-invalid-sitemap__robots.txt`,
    type: "robots",
    children: ["http://host/invalid.xml"],
  },
  // "sitemapindex.xml.gz corrupted file" and corrupted.gz: an error there, an invalid node here.
  { file: `${GO}sitemapindex-empty-corrupted.xml.gz`, type: "invalid" },
  { file: `${GO}corrupted.gz`, type: "invalid" },
];

// --- oxffaa/gopher-parse-sitemap: sitemap_test.go against testdata/*.golden ---------------

const GP = "corpus/gopher-parse-sitemap/";
export const GOPHER_PARSE_SITEMAP: readonly Expectation[] = [
  {
    file: `${GP}sitemap.xml`,
    type: "urlset",
    urls: ["", "tools/", "contribution-to-oss/", "page-1/"].map((p) => `http://host/${p}`),
    lastModified: [
      null,
      "2015-05-07T10:13:09.000Z",
      "2015-05-07T00:00:00.000Z",
      "2015-05-07T10:13:09.000Z",
    ],
    changeFrequency: [null, null, "monthly", "monthly"],
    priority: [0.5, 0.5, 0.5, 0.9],
    differs: "a missing <changefreq> is null: the golden file prints Go's zero value, always",
  },
  {
    file: `${GP}sitemap-index.xml`,
    type: "index",
    children: [1, 2, 3].map((n) => `http://www.example.com/sitemap${n}.xml.gz`),
    childLastModified: ["2004-10-01T18:23:17.000Z", "2005-01-01T00:00:00.000Z", null],
  },
];

// --- mmcdole/gofeed: testdata/parser/{rss,atom}/<fixture>.json -------------------------------
// The expected JSON beside each fixture in gofeed's repository (not in the
// corpus); only fixtures whose stored JSON matches the corpus's version are used.
// gofeed reports every link; a page is the item's first link (USP's choice).

const GF = "corpus/gofeed/";
export const GOFEED: readonly Expectation[] = [
  { file: `${GF}rss_channel_item_link.xml`, urls: ["http://example.org/"] },
  {
    file: `${GF}rss_channel_item_links.xml`,
    urls: ["http://example.org/"],
    differs: 'gofeed\'s "link" is the last of the three (http://example3.org); a page is the first',
  },
  {
    file: `${GF}rdf_item_links.xml`,
    urls: ["http://example.org/"],
    differs: 'gofeed\'s "link" is the last of the three (http://example3.org); a page is the first',
  },
  { file: `${GF}rdf_item_link.xml`, urls: ["http://example.org/"] },
  { file: `${GF}rss_channel_item_uri_at_protocol.xml`, urls: ["http://example.com/item"] },
  // xml:base="http://example.org/feeds/" and <link>post/1</link>.
  { file: `${GF}rss_channel_item_xml_base.xml`, urls: ["http://example.org/feeds/post/1"] },
  {
    // gofeed: guid "abc123", isPermalink "true" by default.
    file: `${GF}rss_channel_item_guid_no_permalink.xml`,
    type: "rss",
    pageCount: 0,
    differs: "a guid is a page URL only when it is an absolute http(s) URL: abc123 names no page",
  },
  // isPermaLink="false": gofeed reports the guid; it is no page URL.
  { file: `${GF}rss_channel_item_guid.xml`, type: "rss", pageCount: 0 },
  { file: `${GF}atom03_feed_entry_link_href.xml`, urls: ["http://www.example.org/"] },
  { file: `${GF}atom03_feed_entry_link_multiple.xml`, urls: ["http://www.example.org/"] },
  { file: `${GF}atom10_feed_entry_link_no_rel.xml`, urls: ["http://example.org/"] },
  // Links without href: gofeed's links have no "href", so no page.
  { file: `${GF}atom03_feed_entry_link.xml`, type: "atom", pageCount: 0 },
  { file: `${GF}atom03_feed_entry_link_rel.xml`, type: "atom", pageCount: 0 },
];

// --- kurtmckee/feedparser: the "Expect:" line each test feed carries -----------------------
// feedparser's test runner evaluates it against the parsed feed; its entry
// "link" is our page URL.

const FP = "corpus/feedparser/";
const fpLink = (name: string, url: string): Expectation => ({ file: `${FP}${name}`, urls: [url] });
const EXAMPLE = "http://www.example.com/";
const GUID = "http://guid.example.com/";
const LINK = "http://link.example.com/";

export const FEEDPARSER: readonly Expectation[] = [
  // entries[0]['link'] (or links[0]['href'], links[0] being the alternate one) == ...
  fpLink("entry_link_alternate_map_link.xml", EXAMPLE),
  fpLink("entry_link_alternate_map_link_2.xml", EXAMPLE),
  fpLink("entry_link_alternate_map_link_3.xml", `${EXAMPLE}alternate`),
  fpLink("entry_link_href.xml", EXAMPLE),
  fpLink("entry_link_multiple.xml", EXAMPLE),
  fpLink("entry_link_no_rel.xml", EXAMPLE),
  fpLink("entry_link_rel.xml", EXAMPLE),
  {
    file: `${FP}entry_link_rel_enclosure_no_href.xml`,
    urls: [`${EXAMPLE}alternate`],
    differs: "both entries link the same page: feedparser lists two entries, a sitemap one page",
  },
  {
    file: `${FP}entry_link_no_href.xml`,
    pageCount: 0,
    differs: "an Atom link's IRI is its href (RFC 4287 §4.2.7.1): feedparser also reads the " +
      "element's text (http://www.example.com/), we do not",
  },
  {
    file: `${FP}entry_link_no_href_link_priority.xml`,
    pageCount: 0,
    differs: "links without href: feedparser reads their text (…/alternate), we do not",
  },
  // entries[0]['guid'] / ['link'] and guidislink: a permalink guid is the link when there is none.
  fpLink("item_guid.xml", GUID),
  fpLink("item_guid_guidislink.xml", GUID),
  fpLink("item_guid_isPermaLink_guidislink.xml", GUID),
  fpLink("item_guid_isPermaLink_map_link.xml", GUID),
  fpLink("item_guid_map_link.xml", GUID),
  fpLink("item_guid_conflict_link.xml", LINK),
  fpLink("item_guid_isPermaLink_conflict_link.xml", LINK),
  fpLink("item_guid_isPermaLink_conflict_link_not_guidislink.xml", LINK),
  fpLink("item_guid_not_permalink_conflict_link.xml", LINK),
  fpLink("item_guid_not_permalink_not_guidislink_2.xml", LINK),
  // not entries[0].has_key('link') / not guidislink: isPermaLink="false" and no <link>, no page.
  { file: `${FP}item_guid_not_permalink.xml`, type: "rss", pageCount: 0 },
  { file: `${FP}item_guid_not_permalink_not_guidislink.xml`, type: "rss", pageCount: 0 },
  fpLink("item_link.xml", "http://example.com/"),
  fpLink("rdf_item_link.xml", "http://example.com/1"),
  // "not bozo and version == ...": every RSS version reads as a feed, 0.91 Netscape DOCTYPE included.
  ...[
    "090",
    "091_netscape",
    "091_userland",
    "092",
    "093",
    "094",
    "10",
    "10_not_default_ns",
    "20",
    "201",
    "21",
    "missing",
  ].map((v): Expectation => ({ file: `${FP}rss_version_${v}.xml`, type: "rss" })),
];

// --- Running them ---------------------------------------------------------------------------

for (
  const [source, list] of [
    ["crawler-commons SiteMapParserTest", CRAWLER_COMMONS],
    ["crawler-commons SiteMapParserExtensionTest", CRAWLER_COMMONS_EXTENSIONS],
    ["crawler-commons SimpleRobotRulesParserTest", CRAWLER_COMMONS_ROBOTS],
    ["StormCrawler SiteMapParserBoltTest", STORMCRAWLER],
    ["advertools test_sitemaps", ADVERTOOLS],
    ["sitemap.js parser tests", SITEMAP_JS],
    ["benbalter sitemap-parser tests", BENBALTER],
    ["Nutch TestFeedParser", NUTCH],
    ["go-sitemap-parser TestS_Parse", GO_SITEMAP_PARSER],
    ["gopher-parse-sitemap golden files", GOPHER_PARSE_SITEMAP],
    ["gofeed's expected JSON", GOFEED],
    ["feedparser's Expect lines", FEEDPARSER],
  ] as const
) {
  Deno.test({
    name: `corpus fixtures read as ${source} expects (${assertionCount(list)} values)`,
    ignore: !CORPUS_PRESENT,
    fn: async () => {
      for (const e of list) await check(e);
    },
  });
}

// scrapy: tests/test_utils_gz.py (the gzip helpers scrapy's SitemapSpider uses).
Deno.test({
  name: "scrapy's gzip samples inflate as scrapy's test_utils_gz expects",
  ignore: !CORPUS_PRESENT,
  fn: async () => {
    // test_gunzip_basic / test_max_length: 9950 bytes, and a bound of 9949 refuses it.
    const sample = corpusBytes("corpus/scrapy/feed-sample1.xml.gz");
    const whole = await decompressIfGzip(sample, 9950);
    assertEquals(whole.ok && whole.bytes.length, 9950);
    assertEquals(await decompressIfGzip(sample, 9949), {
      ok: false,
      reason: "Sitemap expands past 9949 bytes",
    });
    // test_gunzip_truncated_short: what inflated ends with "</html>".
    const short = await decompressIfGzip(
      corpusBytes("corpus/scrapy/truncated-crc-error-short.gz"),
      1 << 20,
    );
    assert(short.ok);
    assertEquals(new TextDecoder().decode(short.bytes.subarray(-7)), "</html>");
    // test_gunzip_no_gzip_file_raises: scrapy raises; we hand back the bytes as they are.
    const plain = corpusBytes("corpus/scrapy/feed-sample1.xml");
    const notGzip = await decompressIfGzip(plain, 1 << 20);
    assertEquals(notGzip.ok && notGzip.gzipped, false);
  },
});

Deno.test({
  name: "benbalter's nested index fixtures give the page totals its recursive tests expect",
  ignore: !CORPUS_PRESENT,
  fn: async () => {
    // https://example.com/<name> serves corpus/benbalter-sitemap-parser/<name>; robots.txt names the index.
    for (const { index, pages } of BB_TREES) {
      const fake = ((input: RequestInfo | URL) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (path === "/robots.txt") {
          return Promise.resolve(new Response(`Sitemap: https://example.com/${index}\n`));
        }
        try {
          return Promise.resolve(new Response(corpusBytes(`${BB}${path.slice(1)}`)));
        } catch {
          return Promise.resolve(new Response("", { status: 404 }));
        }
      }) as typeof fetch;
      const tree = await sitemapTreeForHomepage("https://example.com/", {
        fetch: fake,
        workers: 0,
        useKnownPaths: false,
        useFeeds: false,
      });
      assertEquals([...tree.allPages()].length, pages, index);
      assertEquals([...tree.allSitemaps()].filter((n) => n.type === "invalid").length, 0, index);
    }
  },
});
