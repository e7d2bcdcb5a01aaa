/**
 * `validateSitemapTree()` against what it must stay close to, in one run:
 *
 * 1. The walk: iterating every page of a tree and reading its alternates
 *    (`for (const page of tree.allPages()) page.alternates`), on two trees of
 *    1,000,000 pages in 20 urlsets of 50,000, built in this process: the seed
 *    benchmark's shape (`<loc>` + `<lastmod>`), and the same with 25% of the
 *    pages carrying 4 hreflang alternates (clusters of four languages spread
 *    over different urlsets, a few wrong codes and missing return links), both
 *    under a robots.txt of five `Disallow` rules (one of them covering a
 *    listed section). Target, on the tree with alternates: validate <= 3x
 *    the walk, in wall time and in the process's CPU time (steadier when
 *    other work shares the machine).
 * 2. The crawl: the seed benchmark's site (robots.txt -> an index of 20
 *    gzipped urlsets x 50,000 URLs, 50 ms latency, `bench/_e2e_server.ts` in
 *    a process of its own) crawled with the default options, then validated,
 *    then `reportHtml()` with those problems; each is shown over the crawl.
 *
 * Every validation runs on a tree it has not seen (the tree's listings are
 * kept with it once computed, so a second call on the same tree costs less):
 * the in-process trees are rebuilt over the same columns each round. A first
 * round warms up and is not counted; figures are medians of `--runs` rounds
 * (default 5), with their range.
 *
 *     npx --yes deno@2.9.6 run -A bench/validate.ts [--runs N] [--no-crawl]
 *
 * @module
 */
import process from "node:process";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  PagesXMLSitemap,
  reportHtml,
  sitemapFromString,
  sitemapTreeForHomepage,
  validateSitemapTree,
} from "../mod.ts";
import { nodePageSources } from "../src/objects/_packed_pages.ts";
import type { PackedPages } from "../src/parse/_result.ts";
import { numberFlag } from "./_flags.ts";
import { figure, median, ms, ratio, startE2eServer } from "./_rounds.ts";

const RUNS = numberFlag("runs", 5);
const CRAWL = !process.argv.includes("--no-crawl");

const ORIGIN = "https://www.example.com";
const FILES = 20;
const PER_FILE = 50_000;
const PAGES = FILES * PER_FILE;
/** Pages per language: cluster `c` has page `c` of each (every fourth `c` has a cluster). */
const PER_LANGUAGE = PAGES / 4;
const LANGUAGES = ["en", "de", "fr", "es"] as const;
const ROBOTS_TXT = "User-agent: *\nDisallow: /search\nDisallow: /cart/\nDisallow: /*?sessionid=\n" +
  "Disallow: /en/s13/\nDisallow: /account$\n";

function pageUrl(p: number): string {
  const language = LANGUAGES[Math.floor(p / PER_LANGUAGE)]!;
  const c = p % PER_LANGUAGE;
  return `${ORIGIN}/${language}/s${c % 97}/page/${c}`;
}

function lastmod(p: number): string {
  return `2024-${String(1 + p % 12).padStart(2, "0")}-${String(1 + p % 28).padStart(2, "0")}`;
}

/** The alternates of page `p`, or "" when it carries none (3 in 4 pages). */
function alternates(p: number): string {
  const c = p % PER_LANGUAGE;
  if (c % 4 !== 0) return "";
  const own = Math.floor(p / PER_LANGUAGE);
  let links = "";
  for (let j = 0; j < 4; j++) {
    // A few defects: a German page that leaves out its English version, a wrong region.
    if (own === 1 && j === 0 && c % 997 === 0) continue;
    const code = j === 0 && c % 1009 === 0 ? "en-UK" : LANGUAGES[j];
    links += `<xhtml:link rel="alternate" hreflang="${code}" href="${
      pageUrl(j * PER_LANGUAGE + c)
    }"/>`;
  }
  return links;
}

/** One urlset of the tree, as a document. */
function urlset(file: number, withAlternates: boolean): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  for (let p = file * PER_FILE; p < (file + 1) * PER_FILE; p++) {
    parts.push(
      `<url><loc>${pageUrl(p)}</loc><lastmod>${lastmod(p)}</lastmod>${
        withAlternates ? alternates(p) : ""
      }</url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

/** The 20 urlsets' columns, parsed once. */
function columnsOf(withAlternates: boolean): PackedPages[] {
  return Array.from({ length: FILES }, (_, file) => {
    const node = sitemapFromString(urlset(file, withAlternates), {
      url: `${ORIGIN}/sitemap-${file}.xml`,
    });
    return nodePageSources.read(node) as PackedPages;
  });
}

/** A fresh tree over the same columns: robots.txt -> index -> 20 urlsets. */
function treeOf(columns: readonly PackedPages[]): AbstractSitemap {
  const urlsets = columns.map((c, file) => new PagesXMLSitemap(`${ORIGIN}/sitemap-${file}.xml`, c));
  const index = new IndexXMLSitemap(`${ORIGIN}/sitemap_index.xml`, urlsets);
  return new IndexWebsiteSitemap(`${ORIGIN}/`, [
    new IndexRobotsTxtSitemap(`${ORIGIN}/robots.txt`, [index], undefined, ROBOTS_TXT),
  ]);
}

function walk(tree: AbstractSitemap): number {
  let n = 0;
  for (const page of tree.allPages()) n += 1 + page.alternates.length;
  return n;
}

function time<T>(fn: () => T): [number, T] {
  const started = performance.now();
  const value = fn();
  return [performance.now() - started, value];
}

/** The process's CPU time spent in `fn`, ms: steadier than wall time on a shared machine. */
function cpuTime(fn: () => unknown): number {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const rows: string[][] = [];

for (const withAlternates of [false, true]) {
  const columns = columnsOf(withAlternates);
  const walks: number[] = [];
  const validations: number[] = [];
  const cpuRatios: number[] = [];
  let problems = "";
  for (let round = 0; round <= RUNS; round++) {
    const [walkMs] = time(() => walk(treeOf(columns)));
    const [validateMs, report] = time(() => validateSitemapTree(treeOf(columns)));
    const walkCpu = cpuTime(() => walk(treeOf(columns)));
    const validateCpu = cpuTime(() => validateSitemapTree(treeOf(columns)));
    problems = `${report.errors} errors, ${report.warnings} warnings`;
    if (round === 0) continue;
    walks.push(walkMs);
    validations.push(validateMs);
    cpuRatios.push(validateCpu / walkCpu);
  }
  const name = withAlternates ? "25% of pages with 4 alternates" : "<loc> + <lastmod>";
  const ratios = walks.map((w, i) => validations[i]! / w);
  const target = withAlternates ? "≤ 3×" : "";
  const result = (list: number[]) => withAlternates ? median(list) <= 3 ? "met" : "MISSED" : "";
  rows.push(
    [`1M pages, ${name}: walk (allPages + alternates)`, figure(walks, ms), "", ""],
    [`… validateSitemapTree() (${problems})`, figure(validations, ms), "", ""],
    ["… validate over the walk (wall time)", figure(ratios, ratio), target, result(ratios)],
    ["… validate over the walk (CPU time)", figure(cpuRatios, ratio), target, result(cpuRatios)],
  );
}

/** The seed site's crawl, its validation and its report with problems, per round. */
async function crawlRounds(): Promise<void> {
  const server = await startE2eServer();
  const home = `${server.sites.main.origin}/`;
  const crawls: number[] = [];
  const validations: number[] = [];
  const reports: number[] = [];
  try {
    await sitemapTreeForHomepage(home);
    for (let round = 0; round < RUNS; round++) {
      const [crawlMs, tree] = await (async () => {
        const started = performance.now();
        const t = await sitemapTreeForHomepage(home);
        return [performance.now() - started, t] as const;
      })();
      const [validateMs, report] = time(() => validateSitemapTree(tree));
      const [reportMs] = time(() => reportHtml(tree, { problems: report }));
      crawls.push(crawlMs);
      validations.push(validateMs);
      reports.push(reportMs);
    }
  } finally {
    await server.close();
  }
  const over = (list: readonly number[]) => crawls.map((c, i) => (c + list[i]!) / c);
  const withBoth = crawls.map((c, i) => (c + validations[i]! + reports[i]!) / c);
  rows.push(
    ["seed site, 1M pages: crawl (default options)", figure(crawls, ms), "", ""],
    ["… validateSitemapTree(tree)", figure(validations, ms), "", ""],
    ["… crawl + validate, over the crawl", figure(over(validations), ratio), "", ""],
    ["… reportHtml(tree, { problems }) after it", figure(reports, ms), "", ""],
    [
      "… crawl + validate + report, over the crawl",
      figure(withBoth, ratio),
      "≤ 1.3×",
      median(withBoth) <= 1.3 ? "met" : "MISSED",
    ],
  );
}

if (CRAWL) await crawlRounds();

console.log(`| what | figure | target | result |\n| --- | --- | --- | --- |`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
