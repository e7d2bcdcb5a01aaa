/**
 * The report in a real browser (Debian's chromium, headless, from
 * `file://`): what a person sees, what the keyboard does, the charts, and
 * that nothing loads and nothing from the site runs.
 */
import assert from "node:assert/strict";
import { type OpenReport, withReport } from "../../fixtures/browser.ts";
import { defectsSite } from "../../fixtures/demo_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { lastmodHistogram } from "../../src/histogram.ts";
import { SitemapNewsStory, SitemapPage } from "../../src/objects/page.ts";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
  PagesXMLSitemap,
} from "../../src/objects/sitemap.ts";
import { reportHtml } from "../../src/report/report.ts";
import { CHART_SECTIONS } from "../../src/report/_charts.ts";
import { sectionsOf } from "../../src/sections.ts";
import { sitemapTreeForHomepage } from "../../src/sitemap_tree.ts";
import { EMPTY_STATS } from "../../src/stats.ts";
import { validateSitemapTree } from "../../src/validate.ts";

const NOW = new Date("2026-12-01T09:30:00Z");

/** A browser test: chromium keeps pipes and timers of its own open while it runs. */
function browserTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });
}

/** The fixture site with defects (a missing child, duplicates) crawled on loopback. */
async function crawlFixture(): Promise<IndexWebsiteSitemap> {
  const server = await defectsSite().listen();
  try {
    return await sitemapTreeForHomepage(server.url("/"), { workers: 0, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

/** The row (summary or leaf line) of the tree node whose link is `url`. */
function row(report: OpenReport, url: string) {
  return report.page.locator(".node").filter({
    has: report.page.locator(`.url a[href="${url}"]`),
  }).first();
}

function pagesIn(node: AbstractSitemap): number {
  let n = node instanceof AbstractPagesSitemap ? node.pageCount : 0;
  for (const child of node.allSitemaps()) {
    if (child instanceof AbstractPagesSitemap) n += child.pageCount;
  }
  return n;
}

browserTest(
  "reportHtml() in chromium shows every sitemap URL with its page count as text",
  async () => {
    const tree = await crawlFixture();
    const html = reportHtml(tree, { problems: validateSitemapTree(tree, { now: NOW }), now: NOW });
    await withReport(html, async (report) => {
      const nodes = [...tree.allSitemaps()];
      assert.equal(nodes.length, 14);
      for (const node of nodes) {
        const line = row(report, node.url);
        assert.ok(await line.isVisible(), `${node.url} is visible`);
        const text = await line.innerText();
        assert.ok(text.includes(node.url), `${text} names ${node.url}`);
        assert.ok(text.includes(node.type), `${text} says ${node.type}`);
        if (node instanceof InvalidSitemap) {
          assert.ok(text.includes(node.reason), `${text} gives the reason`);
        } else {
          const pages = pagesIn(node);
          assert.ok(text.includes(`${pages} page${pages === 1 ? "" : "s"}`), `${text}: ${pages}`);
        }
      }
      const card = async (id: string) =>
        (await report.page.locator(`#${id} dd`).innerText()).split("\n")[0];
      assert.equal(await card("total-sitemaps"), "14");
      assert.equal(await card("total-pages"), "29");
      assert.equal(await card("total-distinct"), "20");
      assert.equal(await report.page.locator("#outcome").innerText(), "Sitemaps found");
      const kinds = await report.page.locator("#problem-kinds tbody tr").allInnerTexts();
      assert.deepEqual(kinds.map((k) => k.split("\t").map((c) => c.trim())), [
        // The defects edition's x-default page lists no alternates: it links back to neither.
        ["Hreflang alternates that do not link back", "hreflang-no-return", "error", "2"],
        ["Sitemaps that could not be fetched or read", "invalid-sitemap", "error", "1"],
        ["Pages listed by more than one sitemap", "duplicate-url", "warning", "9"],
      ]);
    });
  },
);

browserTest(
  "reportHtml() in chromium: collapsing a node hides its children, the keyboard opens it again",
  async () => {
    const tree = await crawlFixture();
    const robots = tree.subSitemaps[0]!;
    const index = robots.subSitemaps[0]!;
    const urlset = index.subSitemaps[0]! as AbstractPagesSitemap;
    await withReport(reportHtml(tree, { now: NOW }), async (report) => {
      const summary = report.page.locator("summary").filter({ has: row(report, robots.url) });
      assert.ok(await row(report, index.url).isVisible());
      await summary.click();
      assert.equal(await row(report, index.url).isVisible(), false);
      assert.equal(await row(report, urlset.url).isVisible(), false);
      await summary.focus();
      await report.page.keyboard.press("Enter");
      assert.ok(await row(report, index.url).isVisible());
      // A pages node starts collapsed: its sample shows once it is opened.
      const first = report.page.locator(`.sample a[href="${[...urlset.allPages()][0]!.url}"]`)
        .first();
      assert.equal(await first.isVisible(), false);
      await report.page.getByRole("button", { name: "Expand all" }).click();
      assert.ok(await first.isVisible());
      await report.page.getByRole("button", { name: "Collapse all" }).click();
      assert.equal(await row(report, robots.url).isVisible(), false);
    });
  },
);

browserTest(
  "reportHtml() in chromium draws each chart with a size, one bar per bucket and a name",
  async () => {
    const tree = await crawlFixture();
    const histogram = lastmodHistogram(tree);
    const sections = sectionsOf(tree);
    await withReport(reportHtml(tree, { now: NOW }), async (report) => {
      const { page } = report;
      const chart = page.getByRole("img", { name: `Pages by lastmod ${histogram.unit} (UTC)` });
      const box = await chart.boundingBox();
      assert.ok(box !== null && box.width > 300 && box.height > 100, JSON.stringify(box));
      assert.equal(
        await page.locator("#histogram-chart rect.bar").count(),
        histogram.buckets.length + (histogram.undated > 0 ? 1 : 0),
      );
      const bars = page.locator("#sections-chart rect.bar");
      const expected = Math.min(sections.length, CHART_SECTIONS) +
        (sections.length > CHART_SECTIONS ? 1 : 0);
      assert.equal(await bars.count(), expected);
      for (let i = 0; i < expected; i++) {
        const bar = await bars.nth(i).boundingBox();
        assert.ok(bar !== null && bar.width > 0 && bar.height > 0, `section bar ${i}`);
      }
      const sectionsBox = await page.getByRole("img", { name: "Pages per section" }).boundingBox();
      assert.ok(sectionsBox !== null && sectionsBox.height > 100);
      const axes = await page.locator(".chart .axis-title").allTextContents();
      assert.deepEqual(axes, [`Last modified (${histogram.unit}, UTC)`, "Pages", "Pages"]);
      const description = await page.locator("#histogram-desc").textContent();
      assert.ok(description?.includes("without a lastmod"), description ?? "");
    });
  },
);

browserTest(
  "reportHtml() in chromium loads nothing, logs no error, and its own style and script run",
  async () => {
    const tree = await crawlFixture();
    await withReport(reportHtml(tree, { now: NOW }), async (report) => {
      assert.deepEqual(report.requests, []);
      assert.deepEqual(report.errors, []);
      // Blocked by a wrong hash, the style sheet would leave the page white and the buttons hidden.
      const background = await report.page.evaluate(
        "getComputedStyle(document.documentElement).backgroundColor",
      );
      assert.equal(background, "rgb(244, 246, 248)");
      assert.ok(await report.page.getByRole("button", { name: "Expand all" }).isVisible());
    });
  },
);

/** A site whose sitemaps carry markup and script where URLs and titles belong. */
function hostileSite(): FixtureSite {
  return new FixtureSite()
    .file(
      "/robots.txt",
      (origin) => `Sitemap: ${origin}/hostile.xml\nSitemap: ${origin}/feed.rss\n`,
    )
    .file(
      "/hostile.xml",
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://site.test/a'onmouseover='globalThis.pwned=1</loc></url>
  <url><loc>https://site.test/&lt;script&gt;globalThis.pwned=2&lt;/script&gt;</loc></url>
  <url><loc>javascript:globalThis.pwned=3</loc></url>
  <url><loc>https://site.test/ok</loc></url>
</urlset>
`,
    )
    .file(
      "/feed.rss",
      `<?xml version="1.0"?>
<rss version="2.0"><channel><title>t</title><link>https://site.test/</link>
<item><title><![CDATA[<script>globalThis.pwned=4</script><img src=x onerror="globalThis.pwned=5">]]></title><link>https://site.test/post</link></item>
</channel></rss>
`,
    );
}

const HOSTILE_TITLE = '<script>globalThis.pwned=6</script><img src=x onerror="globalThis.pwned=7">';

/** A tree built by hand, where nothing checked the values: every field carries markup. */
function hostileTree(): IndexWebsiteSitemap {
  const page = new SitemapPage({
    url: 'https://evil.test/"><script>globalThis.pwned=8</script>',
    newsStory: new SitemapNewsStory({ title: HOSTILE_TITLE }),
  });
  return new IndexWebsiteSitemap("https://evil.test/", [
    new PagesXMLSitemap("https://evil.test/<svg onload=globalThis.pwned=9>.xml", [page]),
    new InvalidSitemap(
      "https://evil.test/bad.xml",
      'Unable to fetch sitemap from URL: 500 <img src=x onerror="globalThis.pwned=10">',
    ),
  ], {
    ...EMPTY_STATS,
    outcome: "no-sitemaps",
    outcomeReason: "<script>globalThis.pwned=11</script>",
    requests: 1,
  });
}

/** Asserts no site script ran, no element the site named exists, and nothing was requested. */
async function assertInert(report: OpenReport): Promise<void> {
  await report.page.getByRole("button", { name: "Expand all" }).click();
  await report.page.hover(".sample a >> nth=0").catch(() => {});
  await report.page.waitForTimeout(100);
  assert.equal(
    await report.page.evaluate(() => (globalThis as { pwned?: unknown }).pwned),
    undefined,
  );
  assert.equal(await report.page.locator("img, iframe, object, embed, svg:not(.chart)").count(), 0);
  assert.equal(await report.page.locator("script").count(), 1);
  assert.deepEqual(report.requests, []);
  assert.deepEqual(report.errors, []);
}

browserTest(
  "reportHtml() in chromium keeps hostile sitemap values as text and runs no site script",
  async () => {
    const server = await hostileSite().listen();
    let tree: IndexWebsiteSitemap;
    try {
      tree = await sitemapTreeForHomepage(server.url("/"), {
        workers: 0,
        useKnownPaths: false,
        timeoutMs: 5_000,
      });
    } finally {
      await server.close();
    }
    const urls = [...tree.allPages()].map((p) => p.url);
    assert.ok(urls.includes("https://site.test/a'onmouseover='globalThis.pwned=1"), urls.join(" "));
    await withReport(reportHtml(tree, { now: NOW }), async (report) => {
      await assertInert(report);
      const text = await report.page.locator("#tree").innerText();
      assert.ok(text.includes("https://site.test/a'onmouseover='globalThis.pwned=1"), text);
      assert.ok(
        text.includes(
          '<script>globalThis.pwned=4</script><img src=x onerror="globalThis.pwned=5">',
        ),
        text,
      );
      // A javascript: value, if a parser ever kept one, is shown, never linked.
      assert.equal(await report.page.locator('a[href^="javascript:" i]').count(), 0);
    });
  },
);

browserTest("reportHtml() in chromium shows markup in hand-built trees as text", async () => {
  await withReport(reportHtml(hostileTree(), { now: NOW }), async (report) => {
    await assertInert(report);
    const text = await report.page.locator("body").innerText();
    for (
      const value of [
        'https://evil.test/"><script>globalThis.pwned=8</script>',
        HOSTILE_TITLE,
        "https://evil.test/<svg onload=globalThis.pwned=9>.xml",
        'Unable to fetch sitemap from URL: 500 <img src=x onerror="globalThis.pwned=10">',
        "<script>globalThis.pwned=11</script>",
      ]
    ) {
      assert.ok(text.includes(value), `shows ${value}`);
    }
  });
});

browserTest("reportHtml() in chromium: its CSP stops a script that got into the page", async () => {
  const html = reportHtml(hostileTree(), { now: NOW }).replace(
    "</main>",
    '<script>globalThis.pwned = 12</script><img src="x.png" onerror="globalThis.pwned = 13"></main>',
  );
  await withReport(html, async (report) => {
    assert.equal(
      await report.page.evaluate(() => (globalThis as { pwned?: unknown }).pwned),
      undefined,
    );
    // The image was asked for and refused by the browser itself: nothing reached the network layer.
    assert.deepEqual(report.requests.map((u) => u.slice(u.lastIndexOf("/") + 1)), ["x.png"]);
    assert.deepEqual(report.sent, []);
    const blocked = report.errors.map((e) =>
      /^error: (Executing inline script|Executing inline event handler|Loading the image) .*Content Security Policy/
        .exec(e)?.[1]
    );
    assert.deepEqual(blocked, [
      "Executing inline script",
      "Executing inline event handler",
      "Loading the image",
    ]);
  });
});

browserTest("reportHtml() in chromium prints every node open", async () => {
  const tree = await crawlFixture();
  await withReport(reportHtml(tree, { now: NOW }), async (report) => {
    const sample = report.page.locator(".sample li").first();
    assert.equal(await sample.isVisible(), false);
    await report.page.emulateMedia({ media: "print" });
    assert.ok(await sample.isVisible());
    assert.equal(await report.page.locator(".controls").isVisible(), false);
  });
});
