/**
 * One measured run of Crawlee's sitemap loader (`@crawlee/utils`), in Node,
 * its home runtime, in a fresh process started by `bench/e2e.ts`. Prints one
 * JSON line with the same fields as `bench/_e2e_run.ts`.
 *
 *     node bench/_peer_crawlee.mjs '{"origin":"http://127.0.0.1:PORT"}'
 *
 * It starts where ours does, at the homepage: `RobotsTxtFile.find()` reads
 * robots.txt, then `parseUrlsFromSitemaps()` loads every sitemap it names,
 * following indexes (one at a time: the loader has no concurrency setting).
 * The per-request timeout is raised to 5 minutes so that slowness shows as
 * time, not as missing URLs, and `enqueueStrategy: "all"` keeps the page
 * URLs, which are on www.example.com while the sitemaps are on 127.0.0.1
 * (by default Crawlee drops entries on another hostname).
 */
import { readFileSync } from "node:fs";
import { RobotsTxtFile } from "@crawlee/utils";
import { lagMeter, round, statusMiB } from "./_peer_measure.mjs";

const spec = JSON.parse(process.argv[2]);
const baselineMiB = statusMiB("VmRSS");
const stop = lagMeter();
const cpuStart = process.cpuUsage();
const start = performance.now();
const robots = await RobotsTxtFile.find(spec.origin + "/", undefined, { timeoutMillis: 300_000 });
const urls = await robots.parseUrlsFromSitemaps({
  networkTimeouts: { request: 300_000 },
  enqueueStrategy: "all",
});
const treeMs = performance.now() - start;
const lag = stop();
const cpu = process.cpuUsage(cpuStart);
console.log(JSON.stringify({
  case: "crawlee",
  runtime: `Node ${process.versions.node}, @crawlee/utils ${
    JSON.parse(
      readFileSync(new URL("../node_modules/@crawlee/utils/package.json", import.meta.url)),
    )
      .version
  }`,
  urls: urls.length,
  treeMs: round(treeMs),
  iterMs: 0,
  totalMs: round(treeMs),
  cpuMs: round((cpu.user + cpu.system) / 1000),
  lagMs: round(lag.lagMs),
  lagAtMs: round(lag.lagAtMs),
  baselineMiB: round(baselineMiB),
  peakMiB: round(statusMiB("VmHWM")),
  sitemaps: robots.getSitemaps().length,
  invalid: [],
}));
process.exit(0);
