/**
 * `watch` as cron runs it: the seed benchmark's site (robots.txt -> an
 * index of 20 gzipped urlsets x 50,000 URLs with `<loc>` + `<lastmod>`),
 * every document served with an ETag that answers `If-None-Match` with 304,
 * and the command run as a process of its own (`deno run cli.ts watch URL
 * --state DIR --stats --json -f summary`, default crawl flags: robots.txt,
 * the well-known paths and the homepage's feed links) under `/usr/bin/time`:
 *
 *   1. first run: everything downloaded and parsed, the state recorded;
 *   2. unchanged: `--runs` repeats, medians;
 *   3. one urlset changed (5% of its lastmods moved, 1% of its pages gone);
 *   4. the site down: exit 1, every file of the state directory unchanged.
 *
 * Run: deno run -A bench/watch.ts [--runs=N] [--children=N]
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FixtureSite } from "../fixtures/site.ts";
import { generateIndex, generateUrlset, gzip } from "../fixtures/generate.ts";
import type { SitemapTreeStats } from "../mod.ts";

const RUNS = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const CHILDREN = Number(Deno.args.find((a) => a.startsWith("--children="))?.slice(11) ?? 20);
const URLS = 50_000;
const CLI = new URL("../cli.ts", import.meta.url).pathname;

const site = new FixtureSite();
const childPaths = Array.from({ length: CHILDREN }, (_, i) => `/sitemap-${i}.xml.gz`);
const conditional = { conditional: true } as const;
site.file("/robots.txt", "Sitemap: /index.xml\n", conditional);
site.file("/index.xml", generateIndex(childPaths), conditional);
const xml = childPaths.map((_, i) =>
  generateUrlset(URLS, { seed: i + 1, host: `https://www.example.com/s${i}`, lastmod: true })
);
childPaths.forEach((path, i) => {
  site.file(path, gzip(xml[i]!), { ...conditional, contentType: "application/gzip" });
});
const server = await site.listen();
const dir = mkdtempSync(join(tmpdir(), "watch-bench-"));

interface Run {
  readonly status: number;
  readonly seconds: number;
  readonly rssMiB: number;
  readonly stats:
    | Pick<
      SitemapTreeStats,
      "requests" | "notModified" | "parsed" | "bytesDownloaded"
    >
    | null;
  readonly stdout: string;
}

async function watch(): Promise<Run> {
  const output = await new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "TIME %M %e",
      Deno.execPath(),
      "run",
      "-A",
      "--no-check",
      CLI,
      "watch",
      server.url("/"),
      "--state",
      dir,
      "--stats",
      "--json",
      "-f",
      "summary",
      "--retries",
      "0",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr).trimEnd().split("\n");
  const [, kb, seconds] = stderr.at(-1)!.split(" ");
  const json = stderr.find((line) => line.startsWith("{"));
  return {
    status: output.code,
    seconds: Number(seconds),
    rssMiB: Number(kb) / 1024,
    stats: json === undefined ? null : JSON.parse(json),
    stdout: new TextDecoder().decode(output.stdout),
  };
}

function row(label: string, run: Run): string {
  const s = run.stats;
  const sitemapRequests = s === null ? "-" : String(s.notModified + s.parsed);
  return [
    label.padEnd(34),
    String(run.status).padStart(4),
    run.seconds.toFixed(2).padStart(7),
    run.rssMiB.toFixed(0).padStart(7),
    String(s?.requests ?? "-").padStart(8),
    sitemapRequests.padStart(9),
    String(s?.notModified ?? "-").padStart(5),
    String(s?.parsed ?? "-").padStart(7),
    (s === null ? "-" : (s.bytesDownloaded / 1e6).toFixed(1)).padStart(7),
  ].join("  ");
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function hashTree(root: string): string {
  const h = createHash("sha256");
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else h.update(path).update(readFileSync(path));
    }
  };
  walk(root);
  return h.digest("hex");
}

console.log(
  `site: robots.txt -> index -> ${CHILDREN} gzipped urlsets x ${URLS.toLocaleString("en")} URLs, ` +
    `ETags; watch as a process, default crawl flags; ${RUNS} unchanged runs (median)`,
);
console.log(
  [
    "run".padEnd(34),
    "exit",
    "   wall s",
    "RSS MiB",
    "requests",
    "sitemaps",
    " 304",
    " parsed",
    "     MB",
  ].join("  "),
);
const first = await watch();
console.log(row("1. first run (records)", first));
const unchanged: Run[] = [];
for (let i = 0; i < RUNS; i++) unchanged.push(await watch());
const steady = median(unchanged);
console.log(row("2. unchanged", steady));
console.log(`   output: ${JSON.stringify(steady.stdout.trim())}`);

// One urlset: 5% of its lastmods moved, 1% of its pages gone.
let moved = 0;
const changed = xml[0]!.replace(
  /<lastmod>[^<]*<\/lastmod>/g,
  (tag) => moved++ % 20 === 0 ? "<lastmod>2030-01-01</lastmod>" : tag,
).replace(
  /<url>(?:(?!<\/url>)[\s\S])*<\/url>\s*/g,
  (entry) => (moved++ % 100 === 0 ? "" : entry),
);
site.file(childPaths[0]!, gzip(changed), { ...conditional, contentType: "application/gzip" });
const after = await watch();
console.log(row("3. one urlset changed", after));
console.log(after.stdout.trimEnd().split("\n").map((line) => `   ${line}`).join("\n"));

const stateBefore = hashTree(dir);
await server.close();
const down = await watch();
console.log(row("4. site down", down));
console.log(`   state directory unchanged: ${hashTree(dir) === stateBefore}`);
const snapshot = readdirSync(dir).find((name) => name.endsWith(".snapshot"))!;
console.log(
  `   snapshot: ${(statSync(join(dir, snapshot)).size / 1e6).toFixed(1)} MB for ${
    (CHILDREN * URLS).toLocaleString("en")
  } pages; cache: ${readdirSync(join(dir, "cache")).length} entries`,
);
rmSync(dir, { recursive: true, force: true });
