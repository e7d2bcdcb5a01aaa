/**
 * The audits of `validateSitemapTree()` and `lint` beyond the protocol:
 * robots.txt rules (`disallowed-page`, `disallowed-sitemap`, for
 * `robotsUserAgent` / `--robots-agent`) and hreflang sets across the whole
 * tree (`hreflang-code`, `hreflang-no-return`, `hreflang-no-self`,
 * `hreflang-conflict`), on fixture sites and on trees built in memory.
 */
import assert from "node:assert/strict";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  sitemapFromString,
  type SitemapProblem,
  validateSitemapTree,
} from "../mod.ts";

const O = "https://example.com";
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ' +
  'xmlns:xhtml="http://www.w3.org/1999/xhtml"';

/** A urlset of pages, each `[path, [hreflang, path][]]`, on {@linkcode O}. */
function hreflangUrlset(url: string, pages: readonly [string, readonly [string, string][]][]) {
  const body = pages.map(([loc, links]) =>
    `<url><loc>${O}${loc}</loc>${
      links.map(([code, href]) =>
        `<xhtml:link rel="alternate" hreflang="${code}" href="${
          href.startsWith("http") ? href : O + href
        }"/>`
      ).join("")
    }</url>`
  ).join("");
  return sitemapFromString(`<urlset ${NS}>${body}</urlset>`, { url: `${O}${url}` });
}

/** robots.txt (with `robots` as its text) -> the sitemaps, on {@linkcode O}. */
function site(robots: string, sitemaps: readonly AbstractSitemap[]): IndexWebsiteSitemap {
  return new IndexWebsiteSitemap(`${O}/`, [
    new IndexRobotsTxtSitemap(`${O}/robots.txt`, sitemaps, undefined, robots),
  ]);
}

/** `sitemap code url value` per problem, `O` for the origin. */
function brief(problems: readonly SitemapProblem[], origin = O): string[] {
  const short = (s: string | null) => s === null ? "-" : s.replaceAll(origin, "O");
  return problems.map((p) =>
    `${short(p.sitemap)} ${p.severity} ${p.code} ${short(p.url)} ${short(p.value)}`
  );
}

Deno.test("disallowed-page checks a page against its own origin's robots.txt only, for the agent asked", () => {
  const pages = sitemapFromString(
    [
      `${O}/`,
      `${O}/private/a`,
      `${O}/private/public-b`,
      `${O}/robots.txt`,
      "https://other.example/private/c",
    ].join("\n"),
    { url: `${O}/sitemap.txt` },
  );
  const tree = site(
    "User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nUser-agent: BadBot\nDisallow: /\n",
    [pages],
  );
  assert.deepEqual(brief(validateSitemapTree(tree).problems), [
    "O/sitemap.txt error disallowed-page O/private/a Disallow: /private/",
    "O/sitemap.txt error cross-host https://other.example/private/c https://other.example",
  ]);
  assert.deepEqual(
    brief(validateSitemapTree(tree, { robotsUserAgent: "BadBot/2.0" }).problems).filter((p) =>
      p.includes("disallowed")
    ),
    [
      "O/sitemap.txt error disallowed-sitemap - Disallow: /",
      "O/sitemap.txt error disallowed-page O/ Disallow: /",
      "O/sitemap.txt error disallowed-page O/private/a Disallow: /",
      "O/sitemap.txt error disallowed-page O/private/public-b Disallow: /",
    ],
  );
  assert.throws(() => validateSitemapTree(tree, { robotsUserAgent: 7 as unknown as string }), {
    name: "TypeError",
    message: 'Option "robotsUserAgent" must be a string, got 7',
  });
});

Deno.test("disallowed-page of a page cross-submitted from another host names that host's robots.txt", () => {
  const B = "https://b.example";
  const listed = sitemapFromString(`${B}/ok\n${B}/tmp/x\n${B}/private/y\n`, { url: `${O}/b.txt` });
  const tree = new IndexWebsiteSitemap(`${O}/`, [
    new IndexRobotsTxtSitemap(`${O}/robots.txt`, [], undefined, "User-agent: *\nDisallow: /tmp/\n"),
    new IndexRobotsTxtSitemap(
      `${B}/robots.txt`,
      [listed],
      undefined,
      "User-agent: *\nDisallow: /private/\n",
    ),
  ]);
  assert.deepEqual(
    validateSitemapTree(tree).problems.map((p) => [p.code, p.url, p.message]),
    [["disallowed-page", `${B}/private/y`, `Disallowed for * by ${B}/robots.txt line 2`]],
  );
});

Deno.test("disallowed-sitemap: a sitemap its robots.txt disallows, named by the rule; robots.txt itself never is", () => {
  const tree = site("User-agent: *\nDisallow: /\nAllow: /open/\n", [
    new IndexXMLSitemap(`${O}/open/index.xml`, [
      sitemapFromString(`${O}/open/a\n`, { url: `${O}/closed/a.txt` }),
    ]),
  ]);
  assert.deepEqual(brief(validateSitemapTree(tree).problems), [
    "O/closed/a.txt error disallowed-sitemap - Disallow: /",
  ]);
});

Deno.test("hreflang-no-return across sitemaps: an alternate in another sitemap must name the page back; one outside the tree need not", () => {
  const tree = site("", [
    hreflangUrlset("/en.xml", [
      ["/en", [["en", "/en"], ["de", "/de"], ["fr", "/fr"], ["x-default", "/"]]],
    ]),
    hreflangUrlset("/de.xml", [["/de", [["de", "/de"], ["en", "/en"]]]]),
    // In the tree without alternates of its own: it names nothing back.
    sitemapFromString(`${O}/fr\n`, { url: `${O}/plain.txt` }),
    // The x-default page is listed nowhere: nothing to check.
  ]);
  const report = validateSitemapTree(tree);
  assert.deepEqual(brief(report.problems), ["O/en.xml error hreflang-no-return O/en O/fr"]);
  assert.equal(
    report.problems[0]!.message,
    `The fr alternate ${O}/fr does not link back to this page`,
  );
});

Deno.test("hreflang-conflict is one code (any case) with two URLs; hreflang-no-self a set without its page", () => {
  const tree = site("", [
    hreflangUrlset("/s.xml", [
      ["/a", [["en-GB", "/a"], ["EN-gb", "/b"], ["en-gb", "/c"], ["de", "/d"], ["de", "/d"]]],
      ["/b", [["en-GB", "/a"], ["x-default", "/b"]]],
      ["/c", [["en-GB", "/a"], ["de", "/d"]]],
    ]),
  ]);
  assert.deepEqual(brief(validateSitemapTree(tree).problems), [
    "O/s.xml error hreflang-conflict O/a EN-gb",
    "O/s.xml warning hreflang-no-self O/c -",
  ]);
  assert.equal(
    validateSitemapTree(tree).problems[0]!.message,
    `hreflang EN-gb names two URLs in one set: ${O}/a and ${O}/b`,
  );
});

Deno.test("hreflang-code checks each code once, gives the fix, and every problem is counted though few are listed", () => {
  const pages: [string, [string, string][]][] = Array.from({ length: 30 }, (_, i) => [
    `/p${i}`,
    [["en-UK", `/p${i}`], ["eng", `/p${i}`], ["x-default", `/p${i}`]],
  ]);
  const report = validateSitemapTree(site("", [hreflangUrlset("/s.xml", pages)]), {
    examples: 2,
  });
  assert.deepEqual(
    report.problems.map((p) => [p.code, p.url?.replace(O, "O") ?? null, p.value, p.suggestion]),
    [
      ["hreflang-code", "O/p0", "en-UK", "en-GB"],
      ["hreflang-code", "O/p0", "eng", "en"],
      ["more", null, "58", undefined],
    ],
  );
  assert.equal(report.errors, 60);
});

Deno.test("duplicate-url finds every URL repeated among tens of thousands of listings", () => {
  const urls = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${O}/p/${from + i}`).join("\n");
  const tree = site("", [
    sitemapFromString(urls(0, 20_000), { url: `${O}/a.txt` }),
    sitemapFromString(urls(19_990, 30_000), { url: `${O}/b.txt` }),
  ]);
  const report = validateSitemapTree(tree, { examples: 3 });
  assert.deepEqual(brief(report.problems), [
    "O/b.txt warning duplicate-url O/p/19990 O/a.txt",
    "O/b.txt warning duplicate-url O/p/19991 O/a.txt",
    "O/b.txt warning duplicate-url O/p/19992 O/a.txt",
    "O/b.txt warning more - 7",
  ]);
  assert.equal(report.warnings, 10);
});
