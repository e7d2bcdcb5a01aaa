/**
 * One measured run of sitemapper, in Node, its home runtime, in a fresh
 * process started by `bench/e2e.ts`. Prints one JSON line with the same
 * fields as `bench/_e2e_run.ts`.
 *
 *     node bench/_peer_sitemapper.mjs '{"origin":"http://127.0.0.1:PORT"}'
 *
 * sitemapper does not read robots.txt, so it is given the index URL that
 * robots.txt names (one request fewer than ours and Crawlee's). Its
 * concurrency is set to 4 like ours (its default is 10), its per-request
 * timeout to 5 minutes so that slowness shows as time, not missing URLs.
 */
import { readFileSync } from "node:fs";
import Sitemapper from "sitemapper";
import { lagMeter, round, statusMiB } from "./_peer_measure.mjs";

const spec = JSON.parse(process.argv[2]);
const baselineMiB = statusMiB("VmRSS");
const stop = lagMeter();
const cpuStart = process.cpuUsage();
const start = performance.now();
const mapper = new Sitemapper({
  url: spec.origin + "/sitemap_index.xml",
  timeout: 300_000,
  concurrency: spec.concurrency ?? 4,
});
const { sites, errors } = await mapper.fetch();
const treeMs = performance.now() - start;
const lag = stop();
const cpu = process.cpuUsage(cpuStart);
console.log(JSON.stringify({
  case: "sitemapper",
  runtime: `Node ${process.versions.node}, sitemapper ${
    JSON.parse(readFileSync(new URL("../node_modules/sitemapper/package.json", import.meta.url)))
      .version
  }`,
  urls: sites.length,
  treeMs: round(treeMs),
  iterMs: 0,
  totalMs: round(treeMs),
  cpuMs: round((cpu.user + cpu.system) / 1000),
  lagMs: round(lag.lagMs),
  lagAtMs: round(lag.lagAtMs),
  baselineMiB: round(baselineMiB),
  peakMiB: round(statusMiB("VmHWM")),
  sitemaps: 0,
  invalid: errors.map((e) => `${e.url}: ${e.message}`),
}));
process.exit(0);
