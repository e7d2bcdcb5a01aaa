// Same emitted JS on Node and Deno: parseSitemap (and gunzip + parse as a
// worker's job runs it) of one gzipped urlset, from two tsc builds of the
// library alternated round by round, CPU time medians. For A/B checks of a
// parse change on both runtimes (bench/README.md#workers-and-node).
//
// Build each tree first (node node_modules/typescript/bin/tsc -p build/tsconfig.bench.json),
// then, from the repository root:
//   node bench/parse_ab.mjs GZ_URLSET DIST_A DIST_B [rounds]
//   deno run -A bench/parse_ab.mjs GZ_URLSET DIST_A DIST_B [rounds]
// where DIST_x is a `dist/bench` directory (absolute, or relative to the working directory).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import process from "node:process";

const args = typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2);
const [gzPath, distA, distB, roundsArg] = args;
if (gzPath === undefined || distA === undefined || distB === undefined) {
  throw new Error("usage: parse_ab.mjs GZ_URLSET DIST_A DIST_B [rounds]");
}
const rounds = Number(roundsArg ?? 15);
const gz = new Uint8Array(readFileSync(gzPath));
const xml = new Uint8Array(gunzipSync(gz));
const url = "https://www.example.com/sitemaps/s.xml";
const rt = typeof Deno !== "undefined" ? `deno ${Deno.version.v8}` : `node ${process.versions.v8}`;

async function load(dist) {
  const base = pathToFileURL(resolve(dist) + "/");
  const { parseSitemap } = await import(new URL("src/parse/parse_sitemap.js", base).href);
  const { runParseJob } = await import(new URL("src/workers/_job.js", base).href);
  return { parseSitemap, runParseJob };
}
const builds = { A: await load(distA), B: await load(distB) };

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const steps = {
  parse: (b) => b.parseSitemap(xml, { url }),
  job: (b) =>
    b.runParseJob({
      bytes: gz.slice(),
      url,
      since: NaN,
      robots: false,
      contentType: null,
      maxSitemapBytes: 50 << 20,
    }),
};
const samples = {};
for (const step of Object.keys(steps)) {
  for (const name of Object.keys(builds)) {
    for (let i = 0; i < 3; i++) await steps[step](builds[name]);
    samples[`${step} ${name}`] = [];
  }
}
for (let r = 0; r < rounds; r++) {
  for (const step of Object.keys(steps)) {
    const order = r % 2 === 0 ? ["A", "B"] : ["B", "A"];
    for (const name of order) {
      const c = cpu();
      await steps[step](builds[name]);
      samples[`${step} ${name}`].push(cpu() - c);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mb = xml.length / 1e6;
for (const step of Object.keys(steps)) {
  const a = median(samples[`${step} A`]);
  const b = median(samples[`${step} B`]);
  console.log(
    `${rt.padEnd(24)} ${step.padEnd(6)} ${mb.toFixed(1)} MB  A ${a.toFixed(1)} ms  B ${
      b.toFixed(1)
    } ms  B/A ${(b / a).toFixed(3)}`,
  );
}
