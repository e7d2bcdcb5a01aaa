/**
 * The report as text: its policy, its escaping, its sampling, its problems
 * and changes sections, its options. What the page looks like and does is
 * tested in chromium (report_browser_test.ts).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesTextSitemap,
  PagesXMLSitemap,
  REPORT_DEFAULTS,
  reportHtml,
  sitemapFromString,
  SitemapNewsStory,
  SitemapPage,
  type SitemapValidationReport,
} from "../../mod.ts";
import { groupProblems } from "../../src/report/_problems.ts";
import { escapeHtml, markup } from "../../src/report/_html.ts";
import { EMPTY_STATS } from "../../src/stats.ts";

const H = "https://site.test";
const NOW = new Date("2026-12-01T09:30:00Z");

function pagesNode(path: string, count: number): PagesXMLSitemap {
  const pages = Array.from(
    { length: count },
    (_, i) => new SitemapPage({ url: `${H}${path}/${i}` }),
  );
  return new PagesXMLSitemap(`${H}${path}.xml`, pages);
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

Deno.test("reportHtml() allows its own style and script by hash and nothing else", () => {
  const page = reportHtml(new IndexWebsiteSitemap(`${H}/`, [pagesNode("/a", 3)]), { now: NOW });
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
  const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
  const hash = (text: string) => createHash("sha256").update(text).digest("base64");
  assert.equal(
    csp,
    `default-src 'none'; style-src 'sha256-${hash(style)}'; script-src 'sha256-${
      hash(script)
    }'; base-uri 'none'; form-action 'none'`,
  );
  assert.equal(occurrences(page, "<script"), 1);
  assert.equal(occurrences(page, "<style"), 1);
  assert.equal(occurrences(page, " style="), 0);
  assert.doesNotMatch(page, /\s(?:src|srcset|href)=(?!"https:\/\/site\.test\/)|@import|url\(/);
  // The policy comes before anything it governs.
  assert.ok(page.indexOf("Content-Security-Policy") < page.indexOf("<style>"));
});

Deno.test("reportHtml() escapes every value from the site", () => {
  const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
  const tree = new IndexWebsiteSitemap(`https://e.test/${evil}`, [
    new PagesXMLSitemap(`https://e.test/s.xml?${evil}`, [
      new SitemapPage({
        url: `https://e.test/p${evil}`,
        newsStory: new SitemapNewsStory({ title: evil }),
      }),
    ]),
    new InvalidSitemap(`https://e.test/bad${evil}`, `500 ${evil}`),
  ], {
    ...EMPTY_STATS,
    outcome: "no-sitemaps",
    outcomeReason: evil,
    requests: 1,
  });
  const problems: SitemapValidationReport = {
    problems: [{
      severity: "error",
      code: "invalid-sitemap",
      sitemap: `https://e.test/bad${evil}`,
      url: evil,
      value: evil,
      message: evil,
    }],
    errors: 1,
    warnings: 0,
    sitemaps: 2,
    pages: 1,
  };
  const page = reportHtml(tree, { problems, against: new IndexWebsiteSitemap(`${H}/`, []) });
  assert.equal(occurrences(page, "<script"), 1);
  assert.equal(occurrences(page, "<img"), 0);
  assert.ok(occurrences(page, escapeHtml(evil)) >= 10, "every field shows the value as text");
});

Deno.test("markup escapes values and keeps its own markup, lists joined, nothing for null", () => {
  const inner = markup`<b>${"<i>"}</b>`;
  assert.equal(
    markup`<p title="${`a"b'c`}">${inner}${["&", 1, null, undefined, false]}</p>`.text,
    '<p title="a&quot;b&#39;c"><b>&lt;i&gt;</b>&amp;1</p>',
  );
});

Deno.test("reportHtml() links only http(s) URLs", () => {
  const tree = new PagesTextSitemap(`${H}/s.txt`, [
    new SitemapPage({ url: "javascript:alert(1)" }),
    new SitemapPage({ url: "data:text/html,x" }),
    new SitemapPage({ url: `${H}/ok` }),
  ]);
  const page = reportHtml(tree);
  assert.equal(occurrences(page, 'href="javascript:'), 0);
  assert.equal(occurrences(page, 'href="data:'), 0);
  assert.equal(occurrences(page, `<a href="${H}/ok">`), 1);
  assert.equal(occurrences(page, "<span>javascript:alert(1)</span>"), 1);
});

Deno.test("reportHtml() lists at most `sample` page URLs per sitemap and counts the rest", () => {
  const tree = new IndexWebsiteSitemap(`${H}/`, [
    new IndexXMLSitemap(`${H}/index.xml`, [pagesNode("/a", 100), pagesNode("/b", 3)]),
  ]);
  const page = reportHtml(tree, { sample: 5 });
  assert.equal(occurrences(page, `<a href="${H}/a/`), 5);
  assert.equal(occurrences(page, `<a href="${H}/a/4"`), 1);
  assert.equal(occurrences(page, `<a href="${H}/a/5"`), 0);
  assert.equal(occurrences(page, "… 95 more pages not listed here"), 1);
  assert.equal(occurrences(page, `<a href="${H}/b/`), 3);
  assert.equal(occurrences(page, "more page"), 1);
  assert.equal(occurrences(reportHtml(tree, { sample: 0 }), `<a href="${H}/a/`), 0);
  assert.equal(REPORT_DEFAULTS.sample, 20);
  assert.equal(occurrences(reportHtml(tree), `<a href="${H}/a/`), 20);
});

Deno.test("reportHtml() holds at most 5,000 sample URLs however many sitemaps there are", () => {
  const tree = (sitemaps: number, pages: number) =>
    new IndexWebsiteSitemap(`${H}/`, [
      new IndexXMLSitemap(
        `${H}/i.xml`,
        Array.from({ length: sitemaps }, (_, i) => pagesNode(`/s${i}`, pages)),
      ),
    ]);
  const some = reportHtml(tree(2_000, 10));
  assert.equal(occurrences(some, '<li><a href="'), 4_000);
  assert.equal(occurrences(some, "… 8 more pages not listed here"), 2_000);
  assert.ok(some.includes("Open a sitemap to see its first 2 page URLs. "));
  const many = reportHtml(tree(6_000, 3));
  assert.equal(occurrences(many, '<li><a href="'), 5_000);
  assert.equal(occurrences(many, "… 2 more pages not listed here"), 5_000);
  assert.equal(occurrences(many, "… 3 more pages not listed here"), 1_000);
  assert.ok(many.includes("(5,000 in all: the sitemaps after that show counts only)"));
});

Deno.test("reportHtml() opens the top levels of the tree but not an index of more than 100 sitemaps", () => {
  const index = (path: string, n: number) =>
    new IndexXMLSitemap(
      `${H}${path}.xml`,
      Array.from({ length: n }, (_, i) => pagesNode(`${path}/${i}`, 1)),
    );
  const page = reportHtml(
    new IndexWebsiteSitemap(`${H}/`, [index("/small", 100), index("/big", 101)]),
  );
  const opening = (url: string) => {
    const match = new RegExp(
      `<details( open)?><summary><span class="node"><span class="type type-\\w+">\\w+</span> <span class="url"><a href="${url}">`,
    ).exec(page);
    assert.ok(match, url);
    return match[1] ?? "closed";
  };
  assert.equal(opening(`${H}/`), " open");
  assert.equal(opening(`${H}/small.xml`), " open");
  assert.equal(opening(`${H}/big.xml`), "closed");
  assert.equal(opening(`${H}/small/0.xml`), "closed");
});

Deno.test("reportHtml() counts a code's problems with those left out of the examples", () => {
  const problem = (sitemap: string, code: "duplicate-url" | "invalid-sitemap", n: number) => ({
    severity: code === "invalid-sitemap" ? "error" as const : "warning" as const,
    code,
    sitemap,
    url: `${sitemap}#${n}`,
    value: null,
    message: `m${n}`,
  });
  const report: SitemapValidationReport = {
    problems: [
      problem(`${H}/a.xml`, "duplicate-url", 1),
      problem(`${H}/a.xml`, "duplicate-url", 2),
      {
        severity: "warning",
        code: "more",
        sitemap: `${H}/a.xml`,
        url: null,
        value: "40",
        message: "40 more duplicate-url problems like the above",
      },
      problem(`${H}/b.xml`, "invalid-sitemap", 3),
      problem(`${H}/c.xml`, "duplicate-url", 4),
    ],
    errors: 1,
    warnings: 43,
    sitemaps: 3,
    pages: 50,
  };
  assert.deepEqual(
    groupProblems(report).map((g) => [g.code, g.severity, g.count, g.examples.length]),
    [
      ["invalid-sitemap", "error", 1, 1],
      ["duplicate-url", "warning", 43, 3],
    ],
  );
  const page = reportHtml(new IndexWebsiteSitemap(`${H}/`, []), { problems: report });
  assert.ok(page.includes('<td class="num">43</td>'));
  assert.ok(page.includes('<strong class="sev-error">1 error</strong>'));
  assert.ok(page.includes("3 of 43 shown"));
});

Deno.test("reportHtml() says whether problems were checked", () => {
  const tree = new IndexWebsiteSitemap(`${H}/`, []);
  assert.ok(reportHtml(tree).includes("Not checked for this report"));
  const clean = { problems: [], errors: 0, warnings: 0, sitemaps: 4, pages: 1 };
  assert.ok(
    reportHtml(tree, { problems: clean }).includes("No problems: 4 sitemaps and 1 page checked."),
  );
});

Deno.test("reportHtml() shows what changed since an earlier tree", () => {
  const url = `${H}/sitemap.txt`;
  const before = new IndexWebsiteSitemap(`${H}/`, [
    sitemapFromString(`${H}/a\n${H}/b\n${H}/c\n`, { url }),
    sitemapFromString(`${H}/n/1\n`, { url: `${H}/news.txt` }),
  ]);
  const after = new IndexWebsiteSitemap(`${H}/`, [
    sitemapFromString(`${H}/b\n${H}/c\n${H}/d\n${H}/e\n`, { url }),
    new InvalidSitemap(
      `${H}/news.txt`,
      "Unable to fetch sitemap from URL: 503 Service Unavailable",
    ),
  ]);
  const page = reportHtml(after, { against: before, sample: 1 });
  const counts = /<table id="change-counts">[\s\S]*?<\/table>/.exec(page)![0];
  const cells = [...counts.matchAll(/<td class="num[^"]*">([\d,]+)<\/td>/g)].map((m) => m[1]);
  // Pages: added, removed, changed, unavailable, unchanged; then the same for sitemaps.
  assert.deepEqual(cells, ["2", "1", "0", "1", "2", "0", "0", "1", "0", "1"]);
  assert.ok(page.includes("<h3>Pages added: first 1 of 2</h3>"));
  assert.ok(page.includes(`<ol class="sample" id="pages-added"><li><a href="${H}/d"`));
  assert.ok(page.includes(`<ol class="sample" id="pages-removed"><li><a href="${H}/a"`));
  assert.ok(page.includes("(Unable to fetch sitemap from URL: 503 Service Unavailable)"));
  assert.ok(
    page.includes(`<td class="change-changed">changed</td><td class="url"><a href="${H}/news.txt"`),
  );
  assert.ok(page.includes("<td>text → invalid</td>"));
  assert.ok(!reportHtml(after).includes('id="changes"'));
});

Deno.test("reportHtml() of a tree that was not crawled says what it cannot know", () => {
  const page = reportHtml(sitemapFromString(`${H}/a\n`, { url: `${H}/s.txt` }), { now: NOW });
  assert.ok(
    page.includes('<span id="outcome" class="outcome outcome-ok">Read without a crawl</span>'),
  );
  assert.ok(page.includes("HTTP statuses, sizes and timings are not known"));
  assert.ok(page.includes("<dd>2026-12-01 09:30 UTC</dd>"));
  assert.ok(
    page.includes(
      '<div class="card" id="total-time"><dt>Time taken</dt><dd>—<small>not recorded</small></dd></div>',
    ),
  );
});

Deno.test("reportHtml() rejects a negative sample, a fractional depth and an invalid date, naming them", () => {
  const tree = new IndexWebsiteSitemap(`${H}/`, []);
  const cases: [Parameters<typeof reportHtml>[1], string][] = [
    [{ sample: -1 }, 'Option "sample" must be an integer >= 0, got -1'],
    [{ depth: 0.5 }, 'Option "depth" must be an integer >= 0, got 0.5'],
    [{ now: new Date("nope") }, 'Option "now" must be a valid Date, got Invalid Date'],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => reportHtml(tree, options), new RangeError(message));
  }
});
