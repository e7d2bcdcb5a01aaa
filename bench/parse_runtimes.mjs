// CPU per document of the same emitted JS on Node, Deno or Bun: the plain
// seed-style urlset, issue 24's realistic mix and ours (fixtures/realistic.ts),
// 50,000 URLs each, parsed on the calling thread (`parse`: parseSitemap of the
// inflated XML; `job`: runParseJob of the gzip body, a worker's unit of work)
// or in a pool of one warmed worker (`pool`: CPU of every thread of the
// process). Prints the first pass and the median of the later ones, per
// document, as JSON (bench/README.md#issue-24-nodes-parse-what-was-left).
//
// Write the documents once (Deno, which imports the TypeScript generator):
//   deno run -A bench/parse_runtimes.mjs --generate DIR [docs]
// build the library (node node_modules/typescript/bin/tsc -p build/tsconfig.bench.json),
// then, from the repository root, any of:
//   node bench/parse_runtimes.mjs DIR dist/bench [parse|job|pool] [docs] [passes]
//   deno run -A bench/parse_runtimes.mjs DIR dist/bench [parse|job|pool] [docs] [passes]
//   bun bench/parse_runtimes.mjs DIR dist/bench [parse|job|pool] [docs] [passes]
// An A/B of two builds alternates fresh processes of this script, one per build.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import process from "node:process";

const args = typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2);
const SHAPES = ["plain", "issue", "ours"];
const PER_DOC = 50_000;

if (args[0] === "--generate") {
  const dir = args[1];
  const docs = Number(args[2] ?? 20);
  const gen = await import("../fixtures/realistic.ts");
  mkdirSync(dir, { recursive: true });
  const enc = new TextEncoder();
  for (let k = 0; k < docs; k++) {
    const parts = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    ];
    for (let n = k * PER_DOC; n < (k + 1) * PER_DOC; n++) {
      const day = new Date(Date.UTC(2024, 0, 1) + ((n * 2654435761) % 366) * 86_400_000);
      parts.push(
        `<url><loc>https://www.example.com/p/${n}</loc><lastmod>${
          day.toISOString().slice(0, 10)
        }</lastmod></url>\n`,
      );
    }
    parts.push("</urlset>\n");
    const offset = k * PER_DOC;
    const docsOf = {
      plain: parts.join(""),
      issue: gen.realisticUrlset(PER_DOC, k + 1, { offset, mix: gen.REALISTIC_MIX_ISSUE24 }),
      ours: gen.realisticUrlset(PER_DOC, k + 1, { offset, mix: gen.REALISTIC_MIX }),
    };
    for (const shape of SHAPES) {
      writeFileSync(`${dir}/${shape}-${k}.xml.gz`, gzipSync(enc.encode(docsOf[shape])));
    }
  }
  process.exit(0);
}

const [dir, dist, mode = "job", docsArg, passesArg] = args;
if (dir === undefined || dist === undefined) {
  throw new Error("usage: parse_runtimes.mjs DIR DIST [parse|job|pool] [docs] [passes]");
}
const docs = Number(docsArg ?? 20);
const passes = Number(passesArg ?? 1);
const rt = typeof Deno !== "undefined" ? "deno" : typeof Bun !== "undefined" ? "bun" : "node";
const base = pathToFileURL(resolve(dist) + "/");
const { parseSitemap } = await import(new URL("src/parse/parse_sitemap.js", base).href);
const { runParseJob } = await import(new URL("src/workers/_job.js", base).href);
const { createParsePool } = await import(new URL("src/workers/_parse_pool.js", base).href);

/** CPU nanoseconds of the calling thread (Linux). */
function threadNs() {
  return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]);
}

/** CPU nanoseconds of every thread of the process (Linux). */
function processNs() {
  let total = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      total += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended.
    }
  }
  return total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const figures = {};
for (const shape of SHAPES) {
  const gz = [];
  const xml = [];
  for (let k = 0; k < docs; k++) {
    gz.push(new Uint8Array(readFileSync(`${dir}/${shape}-${k}.xml.gz`)));
    if (mode === "parse") xml.push(new Uint8Array(gunzipSync(gz[k])));
  }
  const pool = mode === "pool"
    ? createParsePool({ workers: 1, jobTimeoutMs: 60_000, warmUp: "full" })
    : null;
  pool?.warm();
  await pool?.ready();
  const perPass = [];
  for (let p = 0; p < passes; p++) {
    const ms = [];
    for (let k = 0; k < docs; k++) {
      const url = `https://www.example.com/sitemaps/${shape}-${k}.xml`;
      const job = {
        bytes: gz[k].slice(),
        url,
        since: NaN,
        robots: false,
        contentType: null,
        maxSitemapBytes: 50 << 20,
      };
      const clock = pool === null ? threadNs : processNs;
      const t = clock();
      if (mode === "parse") parseSitemap(xml[k], { url });
      else if (pool === null) await runParseJob(job);
      else await pool.parse(job);
      ms.push((clock() - t) / 1e6);
    }
    perPass.push(ms);
  }
  pool?.close();
  const first = perPass[0];
  const later = perPass.length > 1 ? perPass.slice(1).flat() : first.slice(Math.min(5, docs - 1));
  figures[shape] = {
    first: first.slice(0, 3).map((x) => +x.toFixed(1)),
    steady: +median(later).toFixed(1),
  };
}
console.log(JSON.stringify({ rt, mode, docs, passes, ...figures }));
