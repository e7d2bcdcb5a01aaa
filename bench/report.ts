/**
 * The report of the seed benchmark's site (robots.txt -> an index of 20
 * gzipped urlsets x 50,000 URLs with `<loc>` + `<lastmod>`, 50 ms latency,
 * served by `bench/_e2e_server.ts` in a process of its own), made by the
 * command line in the same run as the crawl alone it is compared with:
 *
 * - per round, in turn: the crawl alone (`sitemapTreeForHomepage()`,
 *   default options); `sitemap-tree report URL -o FILE` (the CLI's `main()`
 *   in this process: crawl, `validateSitemapTree()`, `reportHtml()`, the
 *   file written whole); and the same with `--no-problems`. Each is timed
 *   whole; the ratio is its time over the crawl alone of the same round
 *   (target <= 1.3x). The order rotates from round to round, so no variant
 *   always runs on a machine the one before it warmed or loaded.
 * - where the time goes: `validateSitemapTree()` and `reportHtml()` timed
 *   alone on the crawl-alone tree;
 * - the file's size (target <= 5 MB) and chromium's `load` event opening it
 *   from `file://` in a fresh profile (target <= 2 s): the page's own
 *   navigation timing, and the wall time of the navigation.
 *
 * A first crawl warms the machine and is not counted; timings are medians
 * of `--runs` rounds (default 5), with their range.
 *
 * Then the widest tree the defaults allow, built in-process: 1,000,000
 * pages in 10,000 urlsets of 100 (`maxSitemaps` is 10,000), every sitemap
 * a node of the tree and a sample of its own, saved as a snapshot and
 * reported by `sitemap-tree report SNAPSHOT -o FILE`: its time, size and
 * load time.
 *
 *     npx --yes deno@2.9.6 run -A bench/report.ts [--runs N]
 *
 * @module
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type CliIO, main } from "../cli.ts";
import {
  type AbstractSitemap,
  encodeSitemapTree,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  reportHtml,
  sitemapFromString,
  sitemapTreeForHomepage,
  validateSitemapTree,
} from "../mod.ts";
import { openReport } from "../fixtures/browser.ts";
import { figure, median, ms, ratio, startE2eServer } from "./_rounds.ts";
import { numberFlag } from "./_flags.ts";

const RUNS = numberFlag("runs", 5);
const OUT = fileURLToPath(new URL("./generated/report/", import.meta.url));
mkdirSync(OUT, { recursive: true });

const server = await startE2eServer();

const megabytes = (bytes: number) =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${Math.round(bytes / 1e3)} KB`;

/** Streams for `main()`: stdout and stderr kept as text, no terminal. */
function quietIO(): { io: CliIO; stderr: () => string } {
  let stderr = "";
  const decoder = new TextDecoder();
  return {
    io: {
      stdout: { write: () => Promise.resolve() },
      stderr: {
        write(chunk) {
          stderr += decoder.decode(chunk);
          return Promise.resolve();
        },
      },
      stderrIsTerminal: false,
    },
    stderr: () => stderr,
  };
}

/** Runs `sitemap-tree report ...args` in this process; its wall time, ms. */
async function reportCommand(args: readonly string[]): Promise<number> {
  const { io, stderr } = quietIO();
  const started = performance.now();
  const status = await main(["report", ...args], io);
  const elapsed = performance.now() - started;
  if (status !== 0) throw new Error(`report ${args.join(" ")} exited ${status}: ${stderr()}`);
  return elapsed;
}

const sites = server.sites;
const home = `${sites.main.origin}/`;
const seedFile = `${OUT}seed.html`;
const seedPlainFile = `${OUT}seed-no-problems.html`;
const crawls: number[] = [];
const withProblems: number[] = [];
const withoutProblems: number[] = [];
const validations: number[] = [];
const reports: number[] = [];
let pages = 0;
try {
  await sitemapTreeForHomepage(home);
  const variants: (() => Promise<void>)[] = [
    async () => {
      const started = performance.now();
      const tree = await sitemapTreeForHomepage(home);
      crawls.push(performance.now() - started);
      pages = tree.stats.pagesKept;
      let t = performance.now();
      const problems = validateSitemapTree(tree);
      validations.push(performance.now() - t);
      t = performance.now();
      reportHtml(tree, { problems });
      reports.push(performance.now() - t);
    },
    async () => {
      withProblems.push(await reportCommand([home, "-o", seedFile]));
    },
    async () => {
      withoutProblems.push(await reportCommand([home, "-o", seedPlainFile, "--no-problems"]));
    },
  ];
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < variants.length; i++) await variants[(round + i) % variants.length]!();
  }
} finally {
  await server.close();
}

/** Chromium's load event (the page's navigation timing) and the driver's wall time, per fresh open. */
async function loadTimes(file: string): Promise<{ loads: number[]; navigations: number[] }> {
  const html = readFileSync(file, "utf8");
  const loads: number[] = [];
  const navigations: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    const report = await openReport(html);
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

const seedLoads = await loadTimes(seedFile);
const wideSnapshot = `${OUT}wide.snapshot`;
const wideFile = `${OUT}wide.html`;
writeFileSync(wideSnapshot, encodeSitemapTree(wideTree()));
const wideMs = await reportCommand([wideSnapshot, "-o", wideFile]);
const wideBytes = statSync(wideFile).size;
const wideLoads = await loadTimes(wideFile);
const bytes = statSync(seedFile).size;

const over = (times: readonly number[]) => times.map((t, i) => t / crawls[i]!);
const met = (ok: boolean) => ok ? "met" : "MISSED";
const rows = [
  ["pages in the tree", pages.toLocaleString("en"), "", ""],
  ["crawl alone (`sitemapTreeForHomepage()`, default options)", figure(crawls, ms), "", ""],
  ["`report URL -o FILE` (problems checked, the default)", figure(withProblems, ms), "", ""],
  [
    "… over the crawl alone",
    figure(over(withProblems), ratio),
    "≤ 1.3×",
    met(median(over(withProblems)) <= 1.3),
  ],
  ["`report URL -o FILE --no-problems`", figure(withoutProblems, ms), "", ""],
  [
    "… over the crawl alone",
    figure(over(withoutProblems), ratio),
    "≤ 1.3×",
    met(median(over(withoutProblems)) <= 1.3),
  ],
  ["of which `validateSitemapTree(tree)`", figure(validations, ms), "", ""],
  ["of which `reportHtml(tree, { problems })`", figure(reports, ms), "", ""],
  ["report file", megabytes(bytes), "≤ 5 MB", met(bytes <= 5e6)],
  [
    "chromium `load` event (file://, fresh profile)",
    figure(seedLoads.loads, ms),
    "≤ 2 s",
    met(median(seedLoads.loads) <= 2000),
  ],
  ["navigation wall time, as the test driver sees it", figure(seedLoads.navigations, ms), "", ""],
  ["wide tree (10,000 urlsets): `report SNAPSHOT -o FILE`", ms(wideMs), "", ""],
  ["wide tree: report file", megabytes(wideBytes), "≤ 5 MB", met(wideBytes <= 5e6)],
  [
    "wide tree: chromium `load` event",
    figure(wideLoads.loads, ms),
    "≤ 2 s",
    met(median(wideLoads.loads) <= 2000),
  ],
];
console.log(`| what | figure | target | result |\n| --- | --- | --- | --- |`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
