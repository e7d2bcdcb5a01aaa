// Node >= 20 smoke test of the library as Node users get it: plain JavaScript
// (here: `deno bundle --platform node mod.ts`, standing in for JSR's npm
// layer, with the parse worker bundled beside it as worker.js), parsing on
// node:worker_threads. Serves a tiny site with node:http on 127.0.0.1 and checks the tree.
//
// Run: node tests/node/node_smoke.mjs <path to bundled mod.js>
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";

const modPath = process.argv[2];
if (!modPath) throw new Error("usage: node tests/node/node_smoke.mjs <bundled mod.js>");
const modUrl = new URL(modPath, `file://${process.cwd()}/`).href;
const { sitemapTreeForHomepage, InvalidSitemap, streamPages } = await import(modUrl);

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const urlset = (paths) =>
  `<urlset xmlns="${NS}">${
    paths.map((p) => `<url><loc>https://site.test${p}</loc></url>`).join("")
  }</urlset>`;
const routes = {
  "/robots.txt": ["text/plain", "Sitemap: /index.xml\n"],
  "/index.xml": [
    "application/xml",
    `<sitemapindex xmlns="${NS}"><sitemap><loc>/a.xml.gz</loc></sitemap><sitemap><loc>/missing.xml</loc></sitemap></sitemapindex>`,
  ],
  "/a.xml.gz": ["application/gzip", gzipSync(urlset(["/one", "/two"]))],
  // 30 sitemaps for a stream to wait on (streamPages holds ~6 at a time).
  "/many.xml": [
    "application/xml",
    `<sitemapindex xmlns="${NS}">${
      Array.from({ length: 30 }, (_, i) => `<sitemap><loc>/m${i}.xml</loc></sitemap>`).join("")
    }</sitemapindex>`,
  ],
  ...Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [`/m${i}.xml`, ["application/xml", urlset([`/m${i}`])]]),
  ),
};
// Any warning Node prints (MaxListenersExceededWarning above all) fails the run.
const warnings = [];
process.on("warning", (warning) => warnings.push(`${warning.name}: ${warning.message}`));
const server = createServer((req, res) => {
  const route = routes[req.url];
  if (!route) return res.writeHead(404).end("Not Found");
  res.writeHead(200, { "content-type": route[0] }).end(route[1]);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
try {
  const tree = await sitemapTreeForHomepage(`${origin}/`, {
    useKnownPaths: false,
    useFeeds: false,
  });
  const lines = [...tree.allSitemaps()].map((s) =>
    s instanceof InvalidSitemap
      ? `invalid ${s.url.replace(origin, "")}`
      : `${s.type} ${s.url.replace(origin, "")}`
  );
  assert.deepEqual(lines, [
    "robots /robots.txt",
    "index /index.xml",
    "urlset /a.xml.gz",
    "invalid /missing.xml",
  ]);
  // A worker that could not start would be reported here.
  assert.deepEqual(tree.stats.warnings, []);
  assert.deepEqual([...tree.allPages()].map((p) => p.url), [
    "https://site.test/one",
    "https://site.test/two",
  ]);
  const streamed = [];
  for await (const page of streamPages(`${origin}/`, { useKnownPaths: false, useFeeds: false })) {
    streamed.push(page.url);
  }
  assert.deepEqual(streamed.sort(), ["https://site.test/one", "https://site.test/two"]);
  let many = 0;
  const manyOptions = {
    useRobots: false,
    useFeeds: false,
    extraKnownPaths: ["/many.xml"],
    concurrency: 1,
  };
  for await (const _ of streamPages(`${origin}/`, manyOptions)) many++;
  assert.equal(many, 30);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(warnings, []);

  // Workers started from `node --input-type=module -e`: that flag does not
  // apply to a worker's module file, and inherited it made them fail to start.
  const script = `
    const m = await import(${JSON.stringify(modUrl)});
    const tree = await m.sitemapTreeForHomepage(${JSON.stringify(`${origin}/`)}, {
      useKnownPaths: false, useFeeds: false, workers: 2,
    });
    console.log(JSON.stringify({ pages: [...tree.allPages()].length, warnings: tree.stats.warnings }));
  `;
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], (error, out, err) => {
      if (error) reject(new Error(`${error.message}\n${err}`));
      else resolve(out);
    });
  });
  assert.deepEqual(JSON.parse(stdout), { pages: 2, warnings: [] });
  console.log(`Node ${process.version} smoke test:`);
  console.log("node: 4 passed, 0 failed");
} finally {
  server.close();
}
