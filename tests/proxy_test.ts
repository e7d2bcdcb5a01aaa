/**
 * Crawling through an HTTP proxy that alone resolves names: a fake host
 * `site.test` that no DNS knows, mapped by a test proxy on 127.0.0.1 to the
 * fixture site. Runs on Deno, Bun and Node (`proxy` option: Deno's
 * `createHttpClient({ proxy })`, Bun's `fetch(url, { proxy })`, Node's
 * transport over `node:http`), and through the `HTTP_PROXY` variable in a
 * child process of the same runtime.
 */
import process from "node:process";
import { spawn } from "node:child_process";
import { assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { createUrlGuard } from "../src/guard.ts";
import { WebClient } from "../src/fetch.ts";
import { exemptFromProxy, proxyFor } from "../src/_proxy.ts";
import { startProxy } from "../fixtures/proxy.ts";
import { FixtureSite, outline, sitemapIndex, urlset, withSite } from "./_tree_helpers.ts";
import { runtimeName } from "../fixtures/serve.ts";

const SITE = "http://site.test";

function proxiedSite(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", "User-agent: *\nSitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/a.xml", "/b.xml"]))
    .file("/a.xml", urlset(["/a"]))
    .file("/b.xml", urlset(["/b"]));
}

/** A crawl of site.test through the proxy at `proxyUrl`: robots.txt and what it lists only. */
function crawlThrough(proxyUrl: string): ReturnType<typeof sitemapTreeForHomepage> {
  return sitemapTreeForHomepage(SITE + "/", {
    workers: 0,
    useKnownPaths: false,
    useFeeds: false,
    proxy: proxyUrl,
  });
}

const TREE = [
  "website /",
  "  robots /robots.txt",
  "    index /index.xml",
  "      urlset /a.xml",
  "        - https://site.test/a",
  "      urlset /b.xml",
  "        - https://site.test/b",
];

Deno.test("proxy: the whole tree of a name only the proxy resolves, no local resolution", async () => {
  await withSite(proxiedSite(), async (server) => {
    const proxy = await startProxy({ "site.test": server.origin });
    try {
      const tree = await crawlThrough(proxy.url);
      assertEquals(outline(tree, SITE), TREE);
      assertEquals([tree.stats.outcome, tree.stats.outcomeReason], ["ok", null]);
      assertEquals(proxy.log, [
        `GET ${SITE}/robots.txt`,
        `GET ${SITE}/index.xml`,
        `GET ${SITE}/a.xml`,
        `GET ${SITE}/b.xml`,
      ]);
    } finally {
      await proxy.close();
    }
  });
});

Deno.test("proxy: IP literals and reserved names are still refused behind it", async () => {
  const site = new FixtureSite().file(
    "/robots.txt",
    "Sitemap: http://127.0.0.1:9/x.xml\nSitemap: http://metadata.google.internal/x.xml\n",
  );
  await withSite(site, async (server) => {
    const proxy = await startProxy({ "site.test": server.origin });
    try {
      const tree = await crawlThrough(proxy.url);
      const why = 'allowPrivateNetworks is "if-homepage-is" and the homepage is public';
      assertEquals(outline(tree, SITE), [
        "website /",
        "  robots /robots.txt",
        `    invalid http://127.0.0.1:9/x.xml: Refused private-network address 127.0.0.1 (loopback; ${why})`,
        `    invalid http://metadata.google.internal/x.xml: Refused private-network name metadata.google.internal (cloud metadata name; ${why})`,
      ]);
      assertEquals(proxy.log, [`GET ${SITE}/robots.txt`]);
    } finally {
      await proxy.close();
    }
  });
});

Deno.test("without a proxy the same name is 'host not found' (the guard's lookup fails)", async () => {
  const notFound = (host: string): Promise<never> =>
    Promise.reject(
      Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }),
    );
  // The lookup is faked: a real one would ask the resolver outside loopback.
  const web = new WebClient({
    userAgent: "sitemap-tree-test/1.0",
    timeoutMs: 2_000,
    retries: 2,
    maxDownloadBytes: 1024,
    concurrency: 4,
    checkUrl: createUrlGuard(new URL(SITE), "if-homepage-is", { resolve: notFound }),
  });
  const results = await Promise.all([web.get(`${SITE}/robots.txt`), web.get(`${SITE}/a.xml`)]);
  assertEquals(results.map((r) => !r.ok && r.failure), [
    { kind: "host-not-found", cause: "host not found (site.test)" },
    { kind: "host-not-found", cause: "host not found (site.test)" },
  ]);
  assertEquals([web.stats.requests, web.stats.retries, web.firstFailure?.cause], [
    0,
    0,
    "host not found (site.test)",
  ]);
});

Deno.test("NO_PROXY matching: hosts, subdomains, ports and *", () => {
  const cases: [string, string, boolean][] = [
    ["http://site.test/", "site.test", true],
    ["http://a.site.test/", ".site.test", true],
    ["http://a.site.test/", "*.site.test", true],
    ["http://notsite.test/", "site.test", false],
    ["http://site.test:8080/", "site.test:8080", true],
    ["http://site.test/", "site.test:8080", false],
    ["https://site.test/", "site.test:443", true],
    ["http://example.org/", "localhost, 127.0.0.1 *", true],
    ["http://example.org/", "", false],
  ];
  assertEquals(
    cases.map(([url, noProxy]) => exemptFromProxy(new URL(url), noProxy)),
    cases.map(([, , exempt]) => exempt),
  );
  assertEquals(
    proxyFor(new URL("https://x.test/"), "http://127.0.0.1:3128"),
    "http://127.0.0.1:3128",
  );
});

/** Runs a crawl of site.test in a child process of this runtime with `env`; returns its stdout lines. */
function crawlInChild(env: Record<string, string>): Promise<string[]> {
  // Bundled for Node (tests/node/run_deno_tests.mjs), the script beside this file is `.js` too.
  const bundled = import.meta.url.endsWith(".js");
  const script = new URL(`./_proxy_child_script.${bundled ? "js" : "ts"}`, import.meta.url)
    .pathname;
  const args = runtimeName() === "deno" ? ["run", "-A", "--no-check", script] : [script];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on(
      "close",
      (code) =>
        code === 0 ? resolve(out.trimEnd().split("\n")) : reject(new Error(`child exited ${code}`)),
    );
  });
}

Deno.test("HTTP_PROXY: the runtime's own fetch and the guard both honour it", async () => {
  await withSite(proxiedSite(), async (server) => {
    const proxy = await startProxy({ "site.test": server.origin });
    try {
      const lines = await crawlInChild({ HTTP_PROXY: proxy.url, NO_PROXY: "" });
      assertEquals(lines, [...TREE, "ok"]);
      assertEquals(proxy.log.length, 4);
    } finally {
      await proxy.close();
    }
  });
});
