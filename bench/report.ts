/**
 * The report of the seed benchmark's site (robots.txt -> an index of 20
 * gzipped urlsets x 50,000 URLs with `<loc>` + `<lastmod>`, 50 ms latency,
 * served by `bench/_e2e_server.ts` in a process of its own), in the same
 * run as the crawl it reports:
 *
 * - the crawl alone (`sitemapTreeForHomepage()`, default options) and then
 *   `reportHtml()` of that tree, per round; the ratio is (crawl + report) /
 *   crawl (target <= 1.3x), and the same with `validateSitemapTree()`'s
 *   problems in the report, for comparison;
 * - the report's size in bytes (target <= 5 MB);
 * - chromium's `load` event, opening the file from `file://` (target <= 2 s):
 *   the page's own navigation timing, and the wall time of the navigation.
 *
 * A first crawl warms the machine and is not counted; timings are medians
 * of `--runs` rounds (default 5), with their range.
 *
 * Then the widest tree the defaults allow, built in-process: 1,000,000
 * pages in 10,000 urlsets of 100 (`maxSitemaps` is 10,000), every sitemap
 * a node of the tree and a sample of its own: its size and load time.
 *
 *     npx --yes deno@2.9.6 run -A bench/report.ts [--runs N]
 *
 * @module
 */
import process from "node:process";
import { mkdirSync, writeFileSync } from "node:fs";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  reportHtml,
  sitemapFromString,
  sitemapTreeForHomepage,
  validateSitemapTree,
} from "../mod.ts";
import { openReport } from "../fixtures/browser.ts";
import type { E2eSites } from "./_e2e_server.ts";

const args = process.argv.slice(2);
const at = args.indexOf("--runs");
const RUNS = at >= 0 ? Number(args[at + 1]) : 5;

const server = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("./_e2e_server.ts", import.meta.url).pathname, "--no-scale"],
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();

/** The server's first stdout line: the sites, once they listen. */
async function sitesOf(child: Deno.ChildProcess): Promise<E2eSites> {
  let text = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const end = text.indexOf("\n");
    if (end >= 0) return JSON.parse(text.slice(0, end)) as E2eSites;
  }
  throw new Error("The benchmark server exited before listening");
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function figure(values: readonly number[], unit: (x: number) => string): string {
  return `${unit(median(values))} (${unit(Math.min(...values))}–${unit(Math.max(...values))})`;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const ratio = (x: number) => `${x.toFixed(2)}×`;

const sites = await sitesOf(server);
const home = `${sites.main.origin}/`;
const crawls: number[] = [];
const reports: number[] = [];
const validations: number[] = [];
let html = "";
let pages = 0;
try {
  await sitemapTreeForHomepage(home);
  for (let round = 0; round < RUNS; round++) {
    let started = performance.now();
    const tree = await sitemapTreeForHomepage(home);
    crawls.push(performance.now() - started);
    started = performance.now();
    html = reportHtml(tree);
    reports.push(performance.now() - started);
    started = performance.now();
    reportHtml(tree, { problems: validateSitemapTree(tree) });
    validations.push(performance.now() - started);
    pages = tree.stats.pagesKept;
  }
} finally {
  await server.stdin.close();
  await server.status;
}

const bytes = new TextEncoder().encode(html).length;
const out = new URL("./generated/report/", import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL("seed.html", out), html);

/** Chromium's load event (the page's navigation timing) and the driver's wall time, per fresh open. */
async function loadTimes(page: string): Promise<{ loads: number[]; navigations: number[] }> {
  const loads: number[] = [];
  const navigations: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    const report = await openReport(page);
    try {
      const timing = await report.page.evaluate(
        "JSON.stringify(performance.getEntriesByType('navigation')[0])",
      ) as string;
      loads.push((JSON.parse(timing) as { loadEventStart: number }).loadEventStart);
      navigations.push(report.loadMs);
      if (report.errors.length > 0 || report.requests.length > 0) {
        throw new Error(`The report logged ${report.errors} and requested ${report.requests}`);
      }
    } finally {
      await report.close();
    }
  }
  return { loads, navigations };
}

/** 1,000,000 pages in 10,000 urlsets of 100, under five indexes of 2,000. */
function wideTree(): AbstractSitemap {
  const origin = "https://www.example.com";
  const indexes = Array.from({ length: 5 }, (_, x) => {
    const urlsets = Array.from({ length: 2_000 }, (_, u) => {
      const first = (x * 2_000 + u) * 100;
      let xml = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
      for (let i = first; i < first + 100; i++) {
        xml += `<url><loc>${origin}/c${i % 97}/p/${i}</loc><lastmod>2024-0${
          1 + i % 9
        }-15</lastmod></url>`;
      }
      return sitemapFromString(xml + "</urlset>", { url: `${origin}/sitemaps/${x}/${u}.xml` });
    });
    return new IndexXMLSitemap(`${origin}/sitemaps/${x}.xml`, urlsets);
  });
  return new IndexWebsiteSitemap(`${origin}/`, [
    new IndexRobotsTxtSitemap(`${origin}/robots.txt`, indexes),
  ]);
}

const seedLoads = await loadTimes(html);
const wide = wideTree();
const started = performance.now();
const wideHtml = reportHtml(wide);
const wideMs = performance.now() - started;
const wideBytes = new TextEncoder().encode(wideHtml).length;
writeFileSync(new URL("wide.html", out), wideHtml);
const wideLoads = await loadTimes(wideHtml);
const loads = seedLoads.loads;
const navigations = seedLoads.navigations;

const withReport = crawls.map((c, i) => (c + reports[i]!) / c);
const withProblems = crawls.map((c, i) => (c + validations[i]!) / c);
const rows = [
  ["pages in the tree", pages.toLocaleString("en"), "", ""],
  ["crawl alone (default options)", figure(crawls, ms), "", ""],
  ["reportHtml(tree)", figure(reports, ms), "", ""],
  [
    "crawl + report, over the crawl",
    figure(withReport, ratio),
    "≤ 1.3×",
    median(withReport) <= 1.3 ? "met" : "MISSED",
  ],
  [
    "the same with validateSitemapTree() problems",
    figure(withProblems, ratio),
    "(comparison)",
    "",
  ],
  ["report file", `${(bytes / 1e6).toFixed(3)} MB`, "≤ 5 MB", bytes <= 5e6 ? "met" : "MISSED"],
  [
    "chromium load event (file://, fresh profile)",
    figure(loads, ms),
    "≤ 2 s",
    median(loads) <= 2000 ? "met" : "MISSED",
  ],
  ["navigation wall time, as the test driver sees it", figure(navigations, ms), "", ""],
  ["wide tree: 1,000,000 pages in 10,000 urlsets, reportHtml(tree)", ms(wideMs), "", ""],
  [
    "wide tree: report file",
    `${(wideBytes / 1e6).toFixed(3)} MB`,
    "≤ 5 MB",
    wideBytes <= 5e6 ? "met" : "MISSED",
  ],
  [
    "wide tree: chromium load event",
    figure(wideLoads.loads, ms),
    "≤ 2 s",
    median(wideLoads.loads) <= 2000 ? "met" : "MISSED",
  ],
];
console.log(`| what | figure | target | result |\n| --- | --- | --- | --- |`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
