/**
 * The audits of `lint` on the audit edition of the demo site
 * (`fixtures/demo_site.ts`): each robots.txt and hreflang problem in the text
 * and JSON reports, what `--robots-agent` changes, and the same report from
 * page objects as from the crawl's packed columns.
 */
import assert from "node:assert/strict";
import { auditSite } from "../../fixtures/demo_site.ts";
import {
  type SitemapProblem,
  sitemapTreeForHomepage,
  sitemapTreeFromJSON,
  validateSitemapTree,
} from "../../mod.ts";
import { withSite } from "../_tree_helpers.ts";
import { lines, run } from "../cli/_run.ts";

Deno.test("lint of the audit edition of the demo site reports each audit problem, in text and with --json", async () => {
  await withSite(auditSite(), async (s) => {
    const text = await run(["lint", s.url("/")]);
    assert.equal(text.status, 1);
    assert.deepEqual(lines(text.stdout.replaceAll(s.origin, "O")), [
      "O/private/sitemap.xml",
      '  error   disallowed-sitemap "Disallow: /private/": Disallowed for * by robots.txt line 3',
      '  error   disallowed-page    O/private/report "Disallow: /private/": Disallowed for * by robots.txt line 3',
      "O/sitemap_hreflang.xml",
      '  error   hreflang-code      O/de/ "en-UK": UK is not an ISO 3166-1 region; did you mean GB?',
      '  error   hreflang-no-return O/de/ "O/uk/": The en-UK alternate O/uk/ does not link back to this page',
      '  error   hreflang-conflict  O/es/ "es": hreflang es names two URLs in one set: O/es/ and O/mx/',
      "  warning hreflang-no-self   O/mx/: The page's 1 hreflang alternate does not include the page itself",
      "5 errors, 1 warning in 15 sitemaps (35 pages)",
    ]);
    const json = await run(["lint", s.url("/"), "--json"]);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(
      report.problems.filter((p: SitemapProblem) => p.code === "hreflang-code"),
      [{
        severity: "error",
        code: "hreflang-code",
        sitemap: s.url("/sitemap_hreflang.xml"),
        url: s.url("/de/"),
        value: "en-UK",
        message: "UK is not an ISO 3166-1 region; did you mean GB?",
        suggestion: "en-GB",
      }],
    );
    assert.deepEqual([json.status, report.errors, report.warnings], [1, 5, 1]);
  });
});

Deno.test("lint --robots-agent checks the rules of that crawler's own group, not *'s", async () => {
  await withSite(auditSite(), async (s) => {
    const result = await run([
      "lint",
      s.url("/"),
      "--robots-agent",
      "Googlebot",
      "--examples",
      "1",
    ]);
    const robots = lines(result.stdout.replaceAll(s.origin, "O")).slice(0, 2);
    assert.deepEqual(robots, [
      "O/private/sitemap.xml",
      '  error   disallowed-page    O/drafts/plan "Disallow: /drafts/": Disallowed for Googlebot by robots.txt line 7',
    ]);
    assert.equal(lines(result.stdout).at(-1), "4 errors, 1 warning in 15 sitemaps (35 pages)");
    assert.deepEqual(await run(["lint", s.url("/"), "--robots-agent", " "]), {
      status: 2,
      stdout: "",
      stderr: "sitemap-tree: Option --robots-agent needs a user agent, e.g. Googlebot; " +
        "see sitemap-tree lint --help\n",
    });
  });
});

Deno.test("validateSitemapTree() reports the same on page objects (a tree from JSON) as on the crawl's packed columns", async () => {
  await withSite(auditSite(), async (s) => {
    const tree = await sitemapTreeForHomepage(s.url("/"), { workers: 0 });
    const copy = sitemapTreeFromJSON(JSON.parse(JSON.stringify(tree)));
    const now = new Date("2026-01-01T00:00:00Z");
    const fromPacked = validateSitemapTree(tree, { now });
    const fromObjects = validateSitemapTree(copy, { now });
    // A tree from JSON has no fetch records: only the checks of the tree itself compare.
    assert.deepEqual(fromObjects.problems, fromPacked.problems);
    assert.equal(fromPacked.problems.length, 6);
  });
});
