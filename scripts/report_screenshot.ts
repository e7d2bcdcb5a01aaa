/**
 * Writes `docs/report.png`, the README's picture of a report: the fixture
 * site with defects (fixtures/demo_site.ts) crawled on 127.0.0.1, its lint
 * problems, and its changes since an "earlier crawl" made from the same
 * tree's JSON with a few edits (two pages gone, one new, a lastmod moved,
 * the missing sitemap still readable then), so every section shows.
 * Also writes the page itself to `docs/report-example.html`.
 *
 *     npx --yes deno@2.9.6 run -A scripts/report_screenshot.ts
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launch } from "../fixtures/browser.ts";
import { defectsSite } from "../fixtures/demo_site.ts";
import {
  type PagesSitemapJSON,
  reportHtml,
  type SitemapJSON,
  SitemapPage,
  type SitemapPageJSON,
  sitemapTreeForHomepage,
  sitemapTreeFromJSON,
  validateSitemapTree,
} from "../mod.ts";

/** The earlier crawl: the JSON of this one, edited where a month of a site's life would. */
function earlier(json: SitemapJSON, origin: string): SitemapJSON {
  const edit = (node: SitemapJSON): SitemapJSON => {
    if (node.type === "invalid" && node.url.endsWith("/sitemap_missing.xml")) {
      const pages: PagesSitemapJSON["pages"] = [`${origin}/spring-sale`, `${origin}/old-promo`]
        .map(pageJSON);
      return { type: "urlset", url: node.url, pages };
    }
    if ("subSitemaps" in node) return { ...node, subSitemaps: node.subSitemaps.map(edit) };
    if (node.type === "urlset" && node.url.includes("sitemap_pages")) {
      const pages = [...node.pages.slice(1), pageJSON(`${origin}/retired`)];
      pages[0] = { ...pages[0]!, lastModified: "2023-02-01T00:00:00.000Z" };
      return { ...node, pages };
    }
    return node;
  };
  return edit(json);
}

function pageJSON(url: string): SitemapPageJSON {
  return new SitemapPage({ url }).toJSON();
}

const server = await defectsSite().listen();
let html: string;
try {
  const tree = await sitemapTreeForHomepage(server.url("/"), { workers: 0 });
  const before = sitemapTreeFromJSON(earlier(tree.toJSON(), server.origin));
  html = reportHtml(tree, {
    problems: validateSitemapTree(tree),
    against: before,
    sample: 5,
  });
} finally {
  await server.close();
}
const docs = new URL("../docs/", import.meta.url);
mkdirSync(docs, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "sitemap-report-shot-"));
const file = join(dir, "report.html");
writeFileSync(file, html);
const { context, profile } = await launch();
try {
  const page = context.pages()[0] ?? await context.newPage();
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  await page.screenshot({ path: new URL("report.png", docs).pathname, fullPage: true });
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}
console.log("wrote docs/report.png");
