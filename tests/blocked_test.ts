/**
 * Blocked is not empty: a site behind a bot wall (each vendor's, served on
 * loopback by `fixtures/bot_walls.ts`) has the outcome `blocked`, its
 * sitemaps' reasons name the vendor, a wall is never retried, and the
 * command line exits 1 saying so; a plain 404 site still exits 3.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOT_WALLS, walledSite } from "../fixtures/bot_walls.ts";
import { sitemapTreeForHomepage, sitemapTreeForSitemapWithStats } from "../src/sitemap_tree.ts";
import { InvalidSitemap } from "../src/objects/sitemap.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { FixtureSite, outline, urlset, withSite } from "./_tree_helpers.ts";
import { run } from "./cli/_run.ts";

/** Retries on, as by default: a wall must not be asked again. */
const base: SitemapTreeOptions = { workers: 0, timeoutMs: 5_000, retries: 2 };

/** Each vendor's wall, and the words the outcome uses for it. */
const VENDORS: readonly [name: string, blockedBy: string][] = [
  ["Cloudflare header", "blocked by a Cloudflare challenge"],
  ["Cloudflare interstitial", "blocked by a Cloudflare challenge"],
  ["Cloudflare block page", "blocked by Cloudflare's firewall"],
  ["Akamai", "blocked by Akamai"],
  ["DataDome", "blocked by a DataDome challenge"],
  ["HUMAN (PerimeterX)", "blocked by a HUMAN (PerimeterX) challenge"],
  ["Sucuri", "blocked by the Sucuri firewall"],
  ["Imperva block page", "blocked by Imperva"],
  ["Imperva challenge", "blocked by an Imperva challenge"],
];

Deno.test("sitemapTreeForHomepage() behind each vendor's wall is blocked, naming the vendor, each request sent once", async () => {
  for (const [name, blockedBy] of VENDORS) {
    const site = walledSite(BOT_WALLS[name]!);
    await withSite(site, async (server) => {
      const tree = await sitemapTreeForHomepage(server.url("/"), base);
      assert.deepEqual(outline(tree, server.origin), ["website /"], name);
      assert.deepEqual(
        [tree.stats.outcome, tree.stats.outcomeReason],
        ["blocked", `${blockedBy} (robots.txt and 15 other requests)`],
        name,
      );
      // robots.txt, 14 well-known paths and the homepage: once each, no retry.
      assert.equal(site.log.length, 16, name);
      assert.equal(tree.stats.requests, 16, name);
      const robots = tree.stats.invalid;
      assert.equal(robots.length, 1, name);
      assert.equal(robots[0]!.url, server.url("/robots.txt"), name);
      assert.ok(
        robots[0]!.reason.startsWith(blockedBy.replace(/^b/, "B") + " ("),
        robots[0]!.reason,
      );
    });
  }
});

Deno.test("a walled sitemap is an InvalidSitemap naming the wall, its siblings are kept, and it is not retried", async () => {
  const wall = BOT_WALLS.DataDome!;
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /walled.xml\nSitemap: /open.xml\n")
    .file("/open.xml", urlset(["/a"]))
    .route("/walled.xml", () => new Response(wall.body, { status: 503, headers: wall.headers }))
    .status("/plain.xml", 503);
  await withSite(site, async (server) => {
    const options = { ...base, useKnownPaths: false, useFeeds: false };
    const tree = await sitemapTreeForHomepage(server.url("/"), options);
    assert.deepEqual(outline(tree, server.origin), [
      "website /",
      "  robots /robots.txt",
      "    invalid /walled.xml: Blocked by a DataDome challenge (503)",
      "    urlset /open.xml",
      "      - https://site.test/a",
    ]);
    assert.equal(tree.stats.outcome, "ok");
    assert.equal(site.count("/walled.xml"), 1);
    // A plain 503 is retried, as before.
    const plain = await sitemapTreeForSitemapWithStats(server.url("/plain.xml"), options);
    assert.ok(plain.root instanceof InvalidSitemap);
    assert.equal(site.count("/plain.xml"), 3);
    assert.deepEqual(
      [plain.stats.outcome, plain.stats.outcomeReason],
      [
        "no-sitemaps",
        `Unable to fetch sitemap from ${server.url("/plain.xml")}: 503 Service Unavailable`,
      ],
    );
  });
});

Deno.test("Cloudflare's cf-mitigated header on a 200 is a wall too, not a sitemap", async () => {
  const site = new FixtureSite().file("/sitemap.xml", urlset(["/a"]), {
    headers: { "cf-mitigated": "challenge" },
  });
  await withSite(site, async (server) => {
    const { root, stats } = await sitemapTreeForSitemapWithStats(server.url("/sitemap.xml"), base);
    assert.ok(root instanceof InvalidSitemap);
    assert.deepEqual(
      [root.reason, stats.outcome, stats.outcomeReason],
      [
        "Blocked by a Cloudflare challenge (200)",
        "blocked",
        "blocked by a Cloudflare challenge (1 request)",
      ],
    );
  });
});

Deno.test("a site whose robots.txt answers but whose every probe meets a wall is blocked, counting the walls", async () => {
  const site = walledSite(BOT_WALLS.Sucuri!, { "/robots.txt": "User-agent: *\nDisallow:\n" });
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    assert.deepEqual(
      [tree.stats.outcome, tree.stats.outcomeReason],
      ["blocked", "blocked by the Sucuri firewall (15 requests)"],
    );
  });
});

Deno.test("ls and lint exit 1 behind a wall, with one line naming it and what to try; a 404 site still exits 3", async () => {
  await withSite(walledSite(BOT_WALLS["Cloudflare interstitial"]!), async (s) => {
    for (
      const args of [["ls", s.url("/")], ["ls", s.url("/"), "-f", "pages"], ["lint", s.url("/")]]
    ) {
      assert.deepEqual(await run(args), {
        status: 1,
        stdout: "",
        stderr:
          "sitemap-tree: blocked by a Cloudflare challenge (robots.txt and 15 other requests); " +
          "try --user-agent or --header\n",
      }, args.join(" "));
    }
  });
  await withSite(new FixtureSite(), async (s) => {
    const result = await run(["ls", s.url("/")]);
    assert.deepEqual(result, {
      status: 3,
      stdout: "",
      stderr: "sitemap-tree: no sitemap found (robots.txt 404; no well-known path answered)\n",
    });
  });
});

Deno.test("batch reports a walled site as blocked", async () => {
  const dir = mkdtempSync(join(tmpdir(), "blocked-test-"));
  try {
    await withSite(walledSite(BOT_WALLS.Akamai!), async (s) => {
      const list = join(dir, "sites.txt");
      writeFileSync(list, `${s.url("/")}\n`);
      const result = await run(["batch", list]);
      const summary = JSON.parse(result.stdout);
      assert.deepEqual(
        [result.status, summary.status, summary.reason, summary.requests],
        [0, "blocked", "blocked by Akamai (robots.txt and 15 other requests)", 16],
      );
    });
  } finally {
    rmSync(dir, { recursive: true });
  }
});
