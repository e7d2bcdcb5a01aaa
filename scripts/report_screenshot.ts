/**
 * Writes `docs/report.png`, the README's picture of a report, through the
 * command line as a user makes one: the fixture site with defects
 * (fixtures/demo_site.ts) served on 127.0.0.1, `sitemap-tree ls URL -f json`
 * edited into an "earlier crawl" (two pages gone, one new, a lastmod moved,
 * the missing sitemap still readable then), and `sitemap-tree report URL
 * --against earlier.json --sample 5 -o report.html`, so every section
 * shows: the problems, and the changes.
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
import { main } from "../cli.ts";
import {
  type PagesSitemapJSON,
  type SitemapJSON,
  SitemapPage,
  type SitemapPageJSON,
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

/** Runs the command line in this process; its stdout, or a throw naming the failure. */
async function cli(args: string[]): Promise<string> {
  let stdout = "";
  let stderr = "";
  const decoder = new TextDecoder();
  const status = await main([...args, "--workers", "0"], {
    stdout: {
      write(chunk) {
        stdout += decoder.decode(chunk, { stream: true });
        return Promise.resolve();
      },
    },
    stderr: {
      write(chunk) {
        stderr += decoder.decode(chunk);
        return Promise.resolve();
      },
    },
    stderrIsTerminal: false,
  });
  if (status !== 0) throw new Error(`sitemap-tree ${args.join(" ")}: exit ${status}: ${stderr}`);
  return stdout + decoder.decode();
}

const dir = mkdtempSync(join(tmpdir(), "sitemap-report-shot-"));
try {
  const file = join(dir, "report.html");
  const server = await defectsSite().listen();
  try {
    const json = JSON.parse(await cli(["ls", server.url("/"), "-f", "json"])) as SitemapJSON;
    const before = join(dir, "earlier.json");
    writeFileSync(before, JSON.stringify(earlier(json, server.origin)));
    await cli(["report", server.url("/"), "--against", before, "--sample", "5", "-o", file]);
  } finally {
    await server.close();
  }
  const docs = new URL("../docs/", import.meta.url);
  mkdirSync(docs, { recursive: true });
  const { context, profile } = await launch();
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await page.screenshot({ path: new URL("report.png", docs).pathname, fullPage: true });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("wrote docs/report.png");
