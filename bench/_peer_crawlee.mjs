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
import { RobotsTxtFile } from "@crawlee/utils";
import { measurePeer } from "./_peer_measure.mjs";

const spec = JSON.parse(process.argv[2]);
await measurePeer("crawlee", "@crawlee/utils", async () => {
  const robots = await RobotsTxtFile.find(spec.origin + "/", undefined, { timeoutMillis: 300_000 });
  const urls = await robots.parseUrlsFromSitemaps({
    networkTimeouts: { request: 300_000 },
    enqueueStrategy: "all",
  });
  return { urls: urls.length, sitemaps: robots.getSitemaps().length, invalid: [] };
});
