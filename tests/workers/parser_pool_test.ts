import { deepStrictEqual, throws } from "node:assert/strict";
import { SitemapParserPool } from "../../src/workers/parser_pool.ts";
import { sitemapTreeForHomepage } from "../../src/sitemap_tree.ts";
import { assertRejects } from "../_assert.ts";
import { gzipSync } from "node:zlib";
import { FixtureSite, withSite } from "../_tree_helpers.ts";

const BUN = new URL("../../node_modules/.bin/bun", import.meta.url);

async function runScript(runtime: "deno" | "bun"): Promise<unknown> {
  const script = new URL("./_shared_pool_script.ts", import.meta.url);
  const [command, args] = runtime === "bun"
    ? [BUN.pathname, [script.pathname]]
    : [Deno.execPath(), ["run", "-A", script.href]];
  const child = new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).spawn();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const { code, signal, stdout, stderr } = await child.output();
    deepStrictEqual(
      { code, signal, stderr: new TextDecoder().decode(stderr) },
      { code: 0, signal: null, stderr: "" },
      "exited by itself in time",
    );
    return JSON.parse(new TextDecoder().decode(stdout));
  } finally {
    clearTimeout(deadline);
  }
}

const EXPECTED = {
  sizeBeforeClose: 2,
  sizeAfterClose: 2,
  // 2 workers (twice), then 1 worker, against 0.
  sameAsInThread: [true, true, true],
  streamedSame: true,
  pages: 27,
  afterClose: ["      invalid /sitemap_pages.xml.gz: Parser pool was closed"],
};

Deno.test("SitemapParserPool: shared by calls and streams, same trees as in-thread, left open by them, then closed; the process exits", async () => {
  deepStrictEqual(await runScript("deno"), EXPECTED);
});

Deno.test("SitemapParserPool: the same under Bun", async () => {
  deepStrictEqual(await runScript("bun"), EXPECTED);
});

Deno.test("SitemapParserPool: with 0 workers parses on the calling thread; bad options are refused", async () => {
  using pool = new SitemapParserPool({ workers: 0 });
  await pool.ready();
  deepStrictEqual(pool.size, 0);
  throws(() => new SitemapParserPool({ workers: -1 }), {
    name: "RangeError",
    message: "Invalid number of parse workers: -1",
  });
  throws(() => new SitemapParserPool({ workers: 1, jobTimeoutMs: 0 }), {
    name: "RangeError",
    message: "Invalid parse job timeout: 0 ms",
  });
  await assertRejects(
    // deno-lint-ignore no-explicit-any
    () => sitemapTreeForHomepage("http://127.0.0.1:9/", { pool: {} as any }),
    TypeError,
    'Option "pool" must be a SitemapParserPool',
  );
});

Deno.test("SitemapParserPool whose workers cannot start: the crawl parses on the calling thread and says so once in stats.warnings", async () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "Worker")!;
  Reflect.deleteProperty(globalThis, "Worker");
  let pool: SitemapParserPool;
  try {
    pool = new SitemapParserPool({ workers: 2 });
  } finally {
    Object.defineProperty(globalThis, "Worker", saved);
  }
  try {
    const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
    const site = new FixtureSite()
      .file("/robots.txt", "Sitemap: /a.xml.gz\nSitemap: /b.xml.gz\n")
      .file("/a.xml.gz", gzipSync(`<urlset xmlns="${NS}"><url><loc>/a</loc></url></urlset>`))
      .file("/b.xml.gz", gzipSync(`<urlset xmlns="${NS}"><url><loc>/b</loc></url></urlset>`));
    await withSite(site, async (server) => {
      const tree = await sitemapTreeForHomepage(server.url("/"), {
        pool,
        useKnownPaths: false,
        useFeeds: false,
      });
      deepStrictEqual([...tree.allPages()].map((page) => page.url).sort(), [
        server.url("/a"),
        server.url("/b"),
      ]);
      deepStrictEqual(tree.stats.warnings, [{
        url: server.url("/"),
        warning:
          "Parse workers could not start (this runtime has no global Worker): sitemaps were parsed on the calling thread",
      }]);
    });
  } finally {
    pool.close();
  }
});
