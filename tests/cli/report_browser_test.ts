/**
 * The page `sitemap-tree report` writes, opened from its file in a real
 * browser (Debian's chromium, headless): it loads nothing, logs no error,
 * shows the sitemaps and the changes as text, and runs nothing a site
 * put in its sitemaps. Deno only (playwright-core drives the browser).
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OpenReport, withReport } from "../../fixtures/browser.ts";
import { serveVersion } from "../../fixtures/changing_site.ts";
import { defectsSite } from "../../fixtures/demo_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { withSite } from "../_tree_helpers.ts";
import { run } from "./_run.ts";

/** A browser test: chromium keeps pipes and timers of its own open while it runs. */
function browserTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });
}

/** Runs `report` with `args` and opens the file it wrote in chromium. */
async function reportIn(
  args: readonly string[],
  check: (report: OpenReport) => Promise<void>,
  status = 0,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sitemap-report-cli-"));
  try {
    const out = join(dir, "report.html");
    const result = await run(["report", ...args, "-o", out]);
    assert.equal(result.status, status, result.stderr);
    await withReport(readFileSync(out, "utf8"), check);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Nothing loaded, nothing logged, and the page's own script ran (its buttons show). */
async function assertClean(report: OpenReport): Promise<void> {
  assert.deepEqual(report.requests, []);
  assert.deepEqual(report.errors, []);
  assert.ok(await report.page.getByRole("button", { name: "Expand all" }).isVisible());
}

browserTest("report URL: the page opens in chromium with every sitemap URL as text", async () => {
  await withSite(defectsSite(), async (s) => {
    await reportIn([s.url("/")], async (report) => {
      await assertClean(report);
      await report.page.getByRole("button", { name: "Expand all" }).click();
      const tree = await report.page.locator("#tree").innerText();
      for (
        const path of [
          "/robots.txt",
          "/sitemap_index.xml",
          "/sitemap_pages.xml.gz",
          "/sitemap_media.xml",
          "/sitemap_alternates.xml",
          "/sitemap.txt",
          "/sitemap_news.xml",
          "/sitemap.xml",
          "/sitemap_archive.xml",
          "/sitemap_missing.xml",
          "/feeds/rss.xml",
          "/feeds/rdf.xml",
          "/feeds/atom.xml",
          "/feeds/atom03.xml",
        ]
      ) {
        assert.ok(tree.includes(s.origin + path), path);
      }
      assert.equal(await report.page.locator("#outcome").innerText(), "Sitemaps found");
      const problems = await report.page.locator("#problems").innerText();
      assert.ok(problems.includes("1 error, 9 warnings"), problems);
    });
  });
});

browserTest("report URL --against FILE: the changes show in chromium as text", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sitemap-report-against-"));
  try {
    await withSite(serveVersion(new FixtureSite(), "v1"), async (s, fixture) => {
      const crawl = ["-k", "--no-feeds", "--retries", "0"];
      const before = await run(["ls", s.url("/"), ...crawl, "-f", "json"]);
      writeFileSync(join(dir, "v1.json"), before.stdout);
      serveVersion(fixture, "v2");
      await reportIn([s.url("/"), ...crawl, "--against", join(dir, "v1.json")], async (report) => {
        await assertClean(report);
        const text = (id: string) => report.page.locator(`#${id}`).innerText();
        assert.equal(
          (await text("change-counts")).replace(/\s+/g, " ").trim(),
          "added removed changed unavailable unchanged Pages 2 2 3 2 4 Sitemaps 1 1 1 0 5",
        );
        assert.deepEqual((await text("pages-added")).split("\n").sort(), [
          "https://shop.test/new1",
          "https://shop.test/p11",
        ]);
        assert.deepEqual((await text("pages-removed")).split("\n").sort(), [
          "https://shop.test/p7",
          "https://shop.test/p8",
        ]);
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Set by any script a sitemap smuggled into the page. */
async function pwned(report: OpenReport): Promise<unknown> {
  await report.page.getByRole("button", { name: "Expand all" }).click();
  await report.page.hover(".sample a >> nth=0").catch(() => {});
  await report.page.waitForTimeout(100);
  return await report.page.evaluate(() => (globalThis as { pwned?: unknown }).pwned);
}

const TITLE = '<script>globalThis.pwned="title"</script><img src=x onerror="globalThis.pwned=1">';

browserTest("report URL: a <loc> and a title carrying script stay text and never run", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/hostile.xml\nSitemap: ${o}/feed.rss\n`)
    .file(
      "/hostile.xml",
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://site.test/a'onmouseover='globalThis.pwned=2</loc></url>
<url><loc>javascript:globalThis.pwned=3</loc></url>
<url><loc>https://site.test/ok</loc></url></urlset>`,
    )
    .file(
      "/feed.rss",
      `<rss version="2.0"><channel><title>t</title><link>https://site.test/</link>
<item><title><![CDATA[${TITLE}]]></title><link>https://site.test/post</link></item>
</channel></rss>`,
    );
  await withSite(site, async (s) => {
    await reportIn([s.url("/"), "-k"], async (report) => {
      assert.equal(await pwned(report), undefined);
      await assertClean(report);
      const tree = await report.page.locator("#tree").innerText();
      assert.ok(tree.includes("https://site.test/a'onmouseover='globalThis.pwned=2"), tree);
      assert.ok(tree.includes(TITLE), tree);
      assert.equal(await report.page.locator("script").count(), 1);
      assert.equal(await report.page.locator("img, iframe, object, embed").count(), 0);
      assert.equal(await report.page.locator('a[href^="javascript:" i]').count(), 0);
    });
  });
});

browserTest(
  "report FILE.json: markup in a saved tree's URLs, titles and reasons stays text",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitemap-report-hostile-"));
    try {
      const loc = 'https://evil.test/"><script>globalThis.pwned=4</script>';
      const reason = '500 <img src=x onerror="globalThis.pwned=5">';
      const json = {
        type: "website",
        url: "https://evil.test/",
        subSitemaps: [
          {
            type: "urlset",
            url: "https://evil.test/<svg onload=globalThis.pwned=6>.xml",
            pages: [{ url: loc, newsStory: { title: TITLE } }],
          },
          { type: "invalid", url: "javascript:globalThis.pwned=7", reason },
        ],
      };
      writeFileSync(join(dir, "tree.json"), JSON.stringify(json));
      await reportIn([join(dir, "tree.json")], async (report) => {
        assert.equal(await pwned(report), undefined);
        await assertClean(report);
        const tree = await report.page.locator("#tree").innerText();
        for (
          const value of [
            loc,
            TITLE,
            reason,
            "https://evil.test/<svg onload=globalThis.pwned=6>.xml",
          ]
        ) {
          assert.ok(tree.includes(value), value);
        }
        assert.equal(await report.page.locator("script").count(), 1);
        assert.equal(
          await report.page.locator("img, iframe, object, embed, svg:not(.chart)").count(),
          0,
        );
        assert.equal(await report.page.locator('a[href^="javascript:" i]').count(), 0);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
