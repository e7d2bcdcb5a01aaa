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
import Sitemapper from "sitemapper";
import { measurePeer } from "./_peer_measure.mjs";

const spec = JSON.parse(process.argv[2]);
await measurePeer("sitemapper", "sitemapper", async () => {
  const mapper = new Sitemapper({
    url: spec.origin + "/sitemap_index.xml",
    timeout: 300_000,
    concurrency: spec.concurrency ?? 4,
  });
  const { sites, errors } = await mapper.fetch();
  return { urls: sites.length, sitemaps: 0, invalid: errors.map((e) => `${e.url}: ${e.message}`) };
});
