import assert from "node:assert/strict";
import { gzip } from "../fixtures/generate.ts";
import { lintSitemapTree } from "../src/lint_sitemap_tree.ts";
import { IndexWebsiteSitemap, PagesXMLSitemap } from "../src/objects/sitemap.ts";
import { FixtureSite, withSite } from "./_tree_helpers.ts";

const OPTIONS = { workers: 0, useKnownPaths: false, useFeeds: false, timeoutMs: 2_000 } as const;

/** A urlset of one page, `/p` on the site, with the given tags. */
function onePage(tags: string): (origin: string) => string {
  return (o) =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${o}/p</loc>${tags}</url></urlset>`;
}

/** `sitemap code url value` per problem, the site's origin shortened to A. */
function brief(
  problems: readonly { sitemap: string; code: string; url: string | null; value: string | null }[],
  origin: string,
): string[] {
  const short = (s: string | null): string => s === null ? "-" : s.replaceAll(origin, "A");
  return problems.map((p) => `${short(p.sitemap)} ${p.code} ${short(p.url)} ${short(p.value)}`);
}

Deno.test("lintSitemapTree() adds each downloaded document's own problems to the tree's, in tree order", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /a.xml.gz\nSitemap: /b.xml\n")
    .file("/a.xml.gz", (o) => gzip(onePage("<priority>2</priority>")(o)))
    .file("/b.xml", onePage("<changefreq>often</changefreq>"));
  await withSite(site, async (server) => {
    const { tree, report } = await lintSitemapTree(server.url("/"), OPTIONS);
    assert.equal(tree.stats.outcome, "ok");
    assert.deepEqual(brief(report.problems, server.origin), [
      "A/a.xml.gz bad-priority A/p 2",
      "A/b.xml duplicate-url A/p A/a.xml.gz",
      "A/b.xml bad-changefreq A/p often",
    ]);
    assert.deepEqual([report.errors, report.sitemaps, report.pages], [2, 3, 2]);
  });
});

Deno.test("lintSitemapTree() from a sitemap reads that one, under its site's homepage", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /other.xml\n")
    .file("/s.xml", onePage("<priority>-1</priority>"));
  await withSite(site, async (server) => {
    const { tree, report } = await lintSitemapTree(server.url("/s.xml"), {
      ...OPTIONS,
      from: "sitemap",
      examples: 1,
    });
    assert.ok(tree instanceof IndexWebsiteSitemap);
    assert.equal(tree.url, server.url("/"));
    assert.deepEqual(tree.subSitemaps.map((node) => [node.constructor, node.url]), [
      [PagesXMLSitemap, server.url("/s.xml")],
    ]);
    assert.equal(tree.stats.requests, 1);
    assert.deepEqual(brief(report.problems, server.origin), ["A/s.xml bad-priority A/p -1"]);
  });
  await assert.rejects(
    lintSitemapTree("https://example.com/", { from: "robots" as "sitemap" }),
    new RangeError('Option "from" must be "homepage" or "sitemap", got "robots"'),
  );
  await assert.rejects(
    lintSitemapTree("ftp://example.com/s.xml", { from: "sitemap" }),
    new TypeError('Sitemap URL must be http(s), got "ftp://example.com/s.xml"'),
  );
});
