/**
 * How the scheduler overlaps slow responses: an index of 20 children, each
 * answering after 300 ms, fetched at concurrency 4. Sequential fetching would
 * take ~6 s; 5 rounds of 4 should take ~1.5 s (plus robots.txt and the index).
 *
 * Run: deno run -A bench/latency_rounds.ts
 */
import { sitemapTreeForHomepage } from "../mod.ts";
import { FixtureSite } from "../fixtures/site.ts";

const children = Array.from({ length: 20 }, (_, i) => `/child${i}.xml`);
const site = new FixtureSite()
  .file("/robots.txt", "Sitemap: /index.xml\n", { latencyMs: 0 })
  .file(
    "/index.xml",
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
      children.map((c) => `<sitemap><loc>${c}</loc></sitemap>`).join("")
    }</sitemapindex>`,
    { latencyMs: 0 },
  );
for (const child of children) {
  site.file(
    child,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://site.test${child}</loc></url></urlset>`,
    { latencyMs: 300 },
  );
}
const server = await site.listen();
try {
  for (const workers of [0, 2]) {
    const started = performance.now();
    const tree = await sitemapTreeForHomepage(server.url("/"), {
      concurrency: 4,
      useKnownPaths: false,
      workers,
    });
    const ms = performance.now() - started;
    console.log(
      `workers=${workers}: ${[...tree.allPages()].length} pages from 20 children x 300 ms ` +
        `at concurrency 4 in ${(ms / 1000).toFixed(2)} s (max in flight ${site.maxInFlight})`,
    );
  }
} finally {
  await server.close();
}
