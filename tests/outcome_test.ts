/**
 * `tree.stats.outcome` and `outcomeReason`: an unreachable site, a site that
 * answers without sitemaps and a site with sitemaps are told apart on the root.
 */
import { assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import {
  deniedFetch,
  FixtureSite,
  outline,
  sitemapIndex,
  urlset,
  withSite,
} from "./_tree_helpers.ts";
import { runtimeName } from "../fixtures/serve.ts";

const base: SitemapTreeOptions = { workers: 0, timeoutMs: 2_000 };

/** A URL on 127.0.0.1 where nothing listens (a fixture site, closed again). */
async function closedPort(): Promise<string> {
  const server = await new FixtureSite().listen();
  const origin = server.origin;
  await server.close();
  return origin;
}

Deno.test("outcome is unreachable with 'connection refused' when nothing listens, after a handful of requests", async () => {
  const origin = await closedPort();
  // One request at a time, so that the count is exact (with 4 in flight, 4 to
  // 6 requests are sent before the third refusal is in, by the runtime's timing).
  const tree = await sitemapTreeForHomepage(origin + "/", { ...base, concurrency: 1 });
  const port = new URL(origin).port;
  assertEquals(outline(tree, origin), ["website /"]);
  assertEquals(
    [tree.stats.outcome, tree.stats.outcomeReason],
    ["unreachable", `connection refused (127.0.0.1:${port})`],
  );
  // robots.txt, 14 well-known paths and the homepage, 3 attempts each, were 48
  // requests: now the third refusal in a row gives the host up, and nothing
  // else is sent.
  assertEquals(tree.stats.requests, 3);
  // The tree shows no sitemap; the robots.txt that failed is still listed.
  assertEquals(tree.stats.sitemapsByType, {});
  assertEquals(tree.stats.invalid, [{
    url: `${origin}/robots.txt`,
    reason:
      `Unable to fetch sitemap from ${origin}/robots.txt: connection refused (127.0.0.1:${port})`,
  }]);
});

Deno.test("outcome is no-sitemaps when the site 404s everywhere, and the stats count no sitemap", async () => {
  await withSite(new FixtureSite(), async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /"]);
    assertEquals(
      [tree.stats.outcome, tree.stats.outcomeReason],
      ["no-sitemaps", "no sitemap found (robots.txt 404; no well-known path answered)"],
    );
    // The missing robots.txt is not counted as an invalid sitemap the tree does not show.
    assertEquals([tree.stats.sitemapsByType, tree.stats.invalid], [{}, []]);
    assertEquals(tree.stats.fetches.filter((f) => f.url.endsWith("/robots.txt")).length, 1);
  });
});

Deno.test("outcome is no-sitemaps for a robots.txt without Sitemap lines", async () => {
  const site = new FixtureSite().file("/robots.txt", "User-agent: *\nDisallow: /private\n");
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /", "  robots /robots.txt"]);
    assertEquals(
      [tree.stats.outcome, tree.stats.outcomeReason],
      [
        "no-sitemaps",
        "no sitemap found (robots.txt lists no sitemap; no well-known path answered)",
      ],
    );
  });
});

Deno.test("an HTML page at /robots.txt is no robots.txt, and HTML soft-404s are no sitemaps", async () => {
  const page = "<!doctype html>\n<html><body>Welcome</body></html>\n";
  const site = new FixtureSite()
    .file("/robots.txt", page, { contentType: "text/html" })
    .file("/sitemap.xml", page, { contentType: "text/html" });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assertEquals(outline(tree, server.origin), ["website /"]);
    assertEquals([tree.stats.sitemapsByType, tree.stats.invalid], [{}, []]);
    assertEquals(
      [tree.stats.outcome, tree.stats.outcomeReason],
      [
        "no-sitemaps",
        "no sitemap found (robots.txt is an HTML page; no well-known path holds a sitemap)",
      ],
    );
  });
});

Deno.test("outcome is ok when a sitemap is read, and when robots.txt lists only broken ones", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/a.xml"]))
    .file("/a.xml", urlset(["/a"]));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, useKnownPaths: false });
    assertEquals([tree.stats.outcome, tree.stats.outcomeReason], ["ok", null]);
    assertEquals(tree.stats.sitemapsByType, { robots: 1, index: 1, urlset: 1 });
  });
  const broken = new FixtureSite().file("/robots.txt", "Sitemap: /gone.xml\n");
  await withSite(broken, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), { ...base, useKnownPaths: false });
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /gone.xml: Unable to fetch sitemap from /gone.xml: 404 Not Found",
    ]);
    assertEquals([tree.stats.outcome, tree.stats.outcomeReason], ["ok", null]);
    assertEquals(tree.stats.sitemapsByType, { robots: 1, invalid: 1 });
  });
});

Deno.test("a permission error is not retried, gives the host up, and names the flag on Deno", async () => {
  const { fetch: denied, calls } = deniedFetch();
  const tree = await sitemapTreeForHomepage("https://site.test/", {
    ...base,
    fetch: denied,
    concurrency: 1,
  });
  assertEquals(
    [tree.stats.outcome, tree.stats.outcomeReason],
    [
      "unreachable",
      runtimeName() === "deno"
        ? "permission denied: run Deno with --allow-net"
        : "permission denied (site.test:443)",
    ],
  );
  assertEquals([calls(), tree.stats.requests], [1, 1]);
});

Deno.test("outcome is unreachable with 'host not found' for a name the resolver does not know", async () => {
  const notFound: typeof fetch = () =>
    Promise.reject(
      Object.assign(new TypeError("fetch failed"), {
        cause: Object.assign(new Error("getaddrinfo ENOTFOUND nonexistent.invalid"), {
          code: "ENOTFOUND",
        }),
      }),
    );
  const tree = await sitemapTreeForHomepage("https://nonexistent.invalid/", {
    ...base,
    fetch: notFound,
    concurrency: 1,
  });
  assertEquals(
    [tree.stats.outcome, tree.stats.outcomeReason, tree.stats.requests],
    ["unreachable", "host not found (nonexistent.invalid)", 1],
  );
});

Deno.test("outcome is unreachable with 'TLS failure' for https to a plain-HTTP port, not retried", async () => {
  await withSite(new FixtureSite().file("/robots.txt", "Sitemap: /a.xml\n"), async (server) => {
    const where = `127.0.0.1:${server.port}`;
    const tree = await sitemapTreeForHomepage(`https://${where}/`, { ...base, concurrency: 1 });
    const detail = runtimeName() === "deno"
      ? "received corrupt message of type InvalidContentType"
      : "EPROTO: The TLS handshake failed. Does the server speak TLS on this port?";
    assertEquals(
      [tree.stats.outcome, tree.stats.outcomeReason],
      ["unreachable", `TLS failure (${where}: ${detail})`],
    );
    // The port speaks no TLS for any path: the host is given up after the first.
    assertEquals(tree.stats.requests, 1);
  });
});

Deno.test({
  name: "a real crawl under Deno without --allow-net is unreachable and names the flag",
  ignore: runtimeName() !== "deno",
  fn: async () => {
    const origin = await closedPort();
    const child = new URL("./_outcome_child.ts", import.meta.url).pathname;
    // Deno.Command, not node:child_process: Deno grants a child deno that
    // spawn() starts all permissions, as node would have.
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-check", "--no-prompt", child, origin + "/"],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const lines = new TextDecoder().decode(output.stdout).trimEnd().split("\n");
    // Not retried: the 16 requests (robots.txt, 14 well-known paths, the
    // homepage) each tried once at most, none after the host was given up.
    assertEquals(lines[0], "unreachable permission denied: run Deno with --allow-net");
    assertEquals(Number(lines[1]) <= 4, true, `requests: ${lines[1]}`);
  },
});
