// The npm package as a Node user gets it: builds and packs the tarball
// (build/npm.mjs), installs it into a scratch project in a temp dir from the
// local file (no registry: the package has no dependencies), then, against the
// fixture site (hono on 127.0.0.1, port 0, served by node:http):
//
// - imports the package and crawls with parse workers (a SitemapParserPool of
//   2, and a call's own workers), and runs streamPages();
// - runs `npx sitemap-tree ls URL` and checks its output and exit codes;
// - type-checks a small TypeScript consumer against the shipped .d.ts.
//
// Run: node tests/node/npm_package.mjs (Node >= 20; needs `npm ci` for
// typescript, @types/node and hono).
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, pack, PACKAGE_NAME } from "../../build/npm.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

// The site: robots.txt -> an index of a plain urlset, a gzipped urlset, a
// missing one and SMALL small ones. Big enough that the parse workers have real
// work, and more children than Node's 10-listener warning threshold waiting.
const A_PAGES = 3_000;
const B_PAGES = 5_000;
const SMALL = 16;
const SMALL_PAGES = 10;
const smallPaths = Array.from({ length: SMALL }, (_, i) => `/small_${i}.xml`);

/** @type {{ origin: string, url(path: string): string, close(): Promise<void> }} */
let site;
/** @type {string} */
let project;
/** @type {string} */
let closedPort;

before(async () => {
  build();
  const tarball = pack();
  execFileSync(process.execPath, [TSC, "-p", join(ROOT, "build", "tsconfig.fixtures.json")], {
    stdio: "inherit",
  });
  const fixtures = join(ROOT, "dist", "fixtures", "fixtures");
  const { FixtureSite } = await import(pathToFileURL(join(fixtures, "site.js")).href);
  const { generateIndex, generateUrlset } = await import(
    pathToFileURL(join(fixtures, "generate.js")).href
  );
  site = new FixtureSite()
    .file("/robots.txt", (origin) => `Sitemap: ${origin}/sitemap_index.xml\n`)
    .file(
      "/sitemap_index.xml",
      (origin) =>
        generateIndex(
          [`${origin}/a.xml`, `${origin}/b.xml.gz`, `${origin}/missing.xml`].concat(
            smallPaths.map((path) => origin + path),
          ),
        ),
    )
    .file("/a.xml", generateUrlset(A_PAGES, { host: "https://a.example", lastmod: true }))
    .file("/b.xml.gz", generateUrlset(B_PAGES, { host: "https://b.example", seed: 2 }), {
      gzip: "file",
    });
  for (const [i, path] of smallPaths.entries()) {
    site.file(path, generateUrlset(SMALL_PAGES, { host: "https://c.example", seed: 3 + i }));
  }
  site = await site.listen();
  closedPort = String(await freePort());

  project = mkdtempSync(join(tmpdir(), "sitemap-tree-npm-"));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  // --offline: from the local file only; a dependency the package should not have would fail here.
  execFileSync(NPM, ["install", "--offline", "--no-audit", "--no-fund", tarball], {
    cwd: project,
    stdio: ["ignore", "ignore", "inherit"],
  });
});

after(async () => {
  await site?.close();
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

/**
 * Runs a command in the scratch project.
 *
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function run(file, args, timeout = 30_000) {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: project, timeout, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code ?? null), stdout, stderr });
      },
    );
  });
}

/** A port nothing listens on: bound once, then released. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const CRAWL = `
import { InvalidSitemap, SitemapParserPool, sitemapTreeForHomepage, streamPages } from "${PACKAGE_NAME}";

const home = process.argv[2];
const options = { useKnownPaths: false, useFeeds: false };
const shape = (tree) => ({
  sitemaps: [...tree.allSitemaps()].map((s) =>
    s instanceof InvalidSitemap ? "invalid " + new URL(s.url).pathname : s.type + " " + new URL(s.url).pathname
  ),
  pages: [...tree.allPages()].length,
  first: [...tree.allPages()][0].url,
  warnings: tree.stats.warnings,
});

const pool = new SitemapParserPool({ workers: 2 });
await pool.ready();
const poolSize = pool.size;
const withPool = shape(await sitemapTreeForHomepage(home, { ...options, pool }));
pool.close();
const ownWorkers = shape(await sitemapTreeForHomepage(home, { ...options, workers: 2 }));
const hosts = {};
for await (const page of streamPages(home, { ...options, workers: 2 })) {
  const host = new URL(page.url).host;
  hosts[host] = (hosts[host] ?? 0) + 1;
}
console.log(JSON.stringify({ poolSize, withPool, ownWorkers, streamed: hosts }));
`;

const EXPECTED_SHAPE = {
  sitemaps: [
    "robots /robots.txt",
    "index /sitemap_index.xml",
    "urlset /a.xml",
    "urlset /b.xml.gz",
    "invalid /missing.xml",
    ...smallPaths.map((path) => `urlset ${path}`),
  ],
  pages: A_PAGES + B_PAGES + SMALL * SMALL_PAGES,
};

/** @type {Promise<{ code: number | null, stdout: string, stderr: string }> | undefined} */
let crawled;
function crawl() {
  writeFileSync(join(project, "crawl.mjs"), CRAWL);
  crawled ??= run(process.execPath, ["crawl.mjs", `${site.origin}/`]);
  return crawled;
}

test("the installed package crawls the fixture site on parse workers and streams its pages", async () => {
  const { code, stdout, stderr } = await crawl();
  assert.equal(code, 0, `crawl.mjs failed or did not exit by itself:\n${stderr}`);
  const result = JSON.parse(stdout);
  for (const tree of [result.withPool, result.ownWorkers]) {
    assert.deepEqual(tree.sitemaps, EXPECTED_SHAPE.sitemaps);
    assert.equal(tree.pages, EXPECTED_SHAPE.pages);
    assert.match(tree.first, /^https:\/\/a\.example\/page\/0\//);
    assert.deepEqual(tree.warnings, []);
  }
  assert.deepEqual(result.streamed, {
    "a.example": A_PAGES,
    "b.example": B_PAGES,
    "c.example": SMALL * SMALL_PAGES,
  });
  // Both workers started and parsed: a pool that fell back to this thread has size 0.
  assert.equal(result.poolSize, 2);
});

test("the installed package writes nothing to stderr on Node (no listener-leak warning)", async () => {
  const { code, stderr } = await crawl();
  assert.equal(code, 0);
  assert.equal(stderr, "");
});

// Node loads its bundled fetch (undici, ~40 ms) on the first use of Headers,
// Request or Response; the package's transport is node:http, so the first
// request must leave before that load, not wait for it.
const FIRST_REQUEST = `
import http from "node:http";

// Which of the lazy web classes was touched first, and whether before the first request went out.
let touched = null;
for (const name of ["Headers", "Request", "Response"]) {
  const lazy = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: lazy.enumerable,
    get() {
      touched ??= name;
      return lazy.get ? lazy.get.call(globalThis) : lazy.value;
    },
    set: lazy.set,
  });
}
let atRequest;
const request = http.request;
http.request = function (...args) {
  if (atRequest === undefined) atRequest = touched;
  return request.apply(this, args);
};

const { sitemapTreeForSitemap } = await import("${PACKAGE_NAME}");
const server = http.createServer((incoming, response) => {
  response.writeHead(200, { "content-type": "application/xml" });
  response.end('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://' + incoming.headers.host + '/p</loc></url></urlset>');
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const atImport = touched;
const tree = await sitemapTreeForSitemap("http://127.0.0.1:" + server.address().port + "/sitemap.xml", {
  allowPrivateNetworks: true,
  workers: 0,
});
server.close();
console.log(JSON.stringify({ atImport, atRequest, pages: [...tree.allPages()].map((p) => new URL(p.url).pathname) }));
`;

test("the installed package's first request leaves before Node loads its bundled fetch", async () => {
  writeFileSync(join(project, "first_request.mjs"), FIRST_REQUEST);
  const { code, stdout, stderr } = await run(process.execPath, ["first_request.mjs"]);
  assert.equal(code, 0, stderr);
  // null: none of Headers, Request or Response had been touched by then.
  assert.deepEqual(JSON.parse(stdout), { atImport: null, atRequest: null, pages: ["/p"] });
});

test("npx sitemap-tree ls URL prints the tree and exits 0", async () => {
  const { code, stdout, stderr } = await run(NPX, [
    "--no",
    "sitemap-tree",
    "ls",
    "-k",
    "--no-feeds",
    "-u",
    `${site.origin}/`,
  ]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  const lines = stdout.split("\n");
  assert.deepEqual(lines.slice(0, 4), [
    `${site.origin}/`,
    "\t/robots.txt",
    "\t\t/sitemap_index.xml",
    "\t\t\t/a.xml",
  ]);
  // Home, robots, index, 3 + SMALL children, every page, and the final newline.
  assert.equal(lines.length, 3 + 3 + SMALL + EXPECTED_SHAPE.pages + 1);
  assert.equal(lines.at(-1), "");
});

test("npx sitemap-tree exits 2 for a bad flag, naming it in one line", async () => {
  const { code, stdout, stderr } = await run(NPX, ["--no", "sitemap-tree", "ls", "--bogus", "x"]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.equal(stderr, 'sitemap-tree: Unknown option "--bogus"; see sitemap-tree ls --help\n');
});

test("npx sitemap-tree exits 1 when nothing listens at URL, saying so in one line", async () => {
  const { code, stdout, stderr } = await run(NPX, [
    "--no",
    "sitemap-tree",
    "ls",
    `http://127.0.0.1:${closedPort}/`,
  ]);
  assert.equal(stdout, "");
  assert.equal(stderr, `sitemap-tree: connection refused (127.0.0.1:${closedPort})\n`);
  assert.equal(code, 1);
});

test("npx sitemap-tree enqueue without bullmq installed says how to get it, exit 1", async () => {
  // bullmq is an optional peer dependency: the scratch project does not have it.
  const { code, stdout, stderr } = await run(NPX, [
    "--no",
    "sitemap-tree",
    "enqueue",
    `${site.origin}/`,
  ]);
  assert.equal(stdout, "");
  assert.equal(stderr, "sitemap-tree: enqueue needs the bullmq package: npm install bullmq\n");
  assert.equal(code, 1);
});

const CONSUMER = `
import {
  type IndexWebsiteSitemap,
  InvalidSitemap,
  sitemapTreeForHomepage,
  type SitemapTreeOptions,
  streamPages,
} from "${PACKAGE_NAME}";
import { sitemapFromString } from "${PACKAGE_NAME}/parse";
import { main } from "${PACKAGE_NAME}/cli";

const options: SitemapTreeOptions = { workers: 2, useFeeds: false };
const tree: IndexWebsiteSitemap = await sitemapTreeForHomepage("https://example.com/", options);
const urls: string[] = [...tree.allPages()].map((page) => page.url);
const invalid: string[] = [...tree.allSitemaps()]
  .filter((node) => node instanceof InvalidSitemap)
  .map((node) => node.reason);
for await (const page of streamPages("https://example.com/")) urls.push(page.url);
const status: number = await main(["--version"]);
console.log(urls, invalid, status, sitemapFromString);
// @ts-expect-error workers is a number: a .d.ts that typed options loosely would let this pass.
const wrong: SitemapTreeOptions = { workers: "2" };
console.log(wrong);
`;

test("a TypeScript consumer type-checks against the shipped .d.ts", () => {
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "consumer.ts"), CONSUMER);
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        lib: ["es2023"],
        module: "nodenext",
        moduleResolution: "nodenext",
        strict: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules", "@types")],
      },
      include: ["src"],
    }),
  );
  let output = "";
  try {
    execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], {
      cwd: project,
      encoding: "utf8",
    });
  } catch (error) {
    output = String(error.stdout) + String(error.stderr);
  }
  assert.equal(output, "");
});
