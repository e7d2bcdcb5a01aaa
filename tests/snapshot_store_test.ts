import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { carryForwardSitemaps, SnapshotStore } from "../src/snapshot_store.ts";
import { compareSitemapTrees } from "../src/changes.ts";
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
} from "../src/objects/sitemap.ts";
import { serveVersion } from "../fixtures/changing_site.ts";
import { FixtureSite } from "../fixtures/site.ts";

const HOME = "https://example.com/";

function text(path: string, ...pages: string[]): AbstractSitemap {
  return sitemapFromString(pages.map((p) => `https://example.com${p}\n`).join(""), {
    url: `https://example.com${path}`,
  });
}

function outline(root: AbstractSitemap): string[] {
  return [...root.allSitemaps()].map((node) =>
    `${node.type} ${node.url.slice(19)} ${node.pages.map((p) => p.url.slice(19)).join(",")}`
  );
}

Deno.test("carryForwardSitemaps() keeps the last pages of a sitemap that is invalid now, and only of one read before", () => {
  const before = new IndexWebsiteSitemap(HOME, [
    new IndexXMLSitemap("https://example.com/index.xml", [
      text("/a.txt", "/a1"),
      text("/b.txt", "/b1", "/b2"),
      new InvalidSitemap("https://example.com/c.txt", "Unable to fetch sitemap from URL: 500"),
    ]),
  ]);
  const after = new IndexWebsiteSitemap(HOME, [
    new IndexXMLSitemap("https://example.com/index.xml", [
      text("/a.txt", "/a1", "/a2"),
      new InvalidSitemap("https://example.com/b.txt", "Unable to fetch sitemap from URL: 503"),
      new InvalidSitemap("https://example.com/c.txt", "Unable to fetch sitemap from URL: 500"),
      // A URL that is its own ancestor is not a sitemap to carry.
      new InvalidSitemap("https://example.com/index.xml", "Recursion detected in URL"),
    ]),
  ]);
  const kept = carryForwardSitemaps(before, after);
  assert.deepEqual(outline(kept), [
    "index /index.xml ",
    "text /a.txt /a1,/a2",
    "text /b.txt /b1,/b2",
    "invalid /c.txt ",
    "invalid /index.xml ",
  ]);
  // Compared with what was kept, the recovery of b.txt adds nothing.
  const back = new IndexWebsiteSitemap(HOME, [
    new IndexXMLSitemap("https://example.com/index.xml", [
      text("/a.txt", "/a1", "/a2"),
      text("/b.txt", "/b1", "/b2"),
    ]),
  ]);
  assert.equal(compareSitemapTrees(kept, back).counts.pages.added, 0);
  assert.equal(compareSitemapTrees(after, back).counts.pages.added, 2);
  // Nothing to carry: the same tree.
  assert.equal(carryForwardSitemaps(before, back), back);
});

Deno.test("carryForwardSitemaps() keeps a robots.txt node's rules when it carries sitemaps below it", () => {
  const robotsText = "User-agent: *\nDisallow: /private/\nSitemap: https://example.com/a.txt\n";
  const robots = (child: AbstractSitemap) =>
    new IndexRobotsTxtSitemap("https://example.com/robots.txt", [child], [null], robotsText);
  const before = new IndexWebsiteSitemap(HOME, [robots(text("/a.txt", "/a1"))]);
  const after = new IndexWebsiteSitemap(HOME, [
    robots(
      new InvalidSitemap("https://example.com/a.txt", "Unable to fetch sitemap from URL: 503"),
    ),
  ]);
  const kept = carryForwardSitemaps(before, after);
  const node = kept.subSitemaps[0];
  assert.ok(node instanceof IndexRobotsTxtSitemap);
  assert.deepEqual(outline(kept), ["robots /robots.txt ", "text /a.txt /a1"]);
  assert.equal(node.robots.isAllowed("https://example.com/private/x"), false);
  assert.equal(node.robots.isAllowed("https://example.com/public"), true);
});

Deno.test("carryForwardSitemaps() puts back a robots.txt that failed and was left out of the tree, without the sitemaps read elsewhere", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  const server = await site.listen();
  try {
    const options = { workers: 0, useFeeds: false, retries: 0 };
    const v1 = await sitemapTreeForHomepage(server.origin, options);
    // robots.txt answers 503; the index is found at its well-known path instead.
    site.status("/robots.txt", 503);
    const down = await sitemapTreeForHomepage(server.origin, options);
    const urls = (root: AbstractSitemap) =>
      root.subSitemaps.map((n) => `${n.type} ${n.url.slice(server.origin.length)}`);
    assert.deepEqual(urls(down), ["index /sitemap_index.xml"]);
    const kept = carryForwardSitemaps(v1, down);
    assert.deepEqual(urls(kept), ["robots /robots.txt", "index /sitemap_index.xml"]);
    assert.deepEqual(kept.subSitemaps[0]!.subSitemaps, []);
    // When robots.txt is back, nothing reads as changed.
    assert.equal(compareSitemapTrees(kept, v1).size, 0);
    assert.equal(compareSitemapTrees(down, v1).counts.sitemaps.added, 1);
  } finally {
    await server.close();
  }
});

Deno.test("SnapshotStore names each site's file safely for any file system, one file per key", () => {
  const store = new SnapshotStore("/state/");
  const keys = [
    "https://example.com/",
    "http://example.com/",
    "https://example.com:8443/",
    "https://user:Pass@example.com/",
    "https://user:pass@example.com/",
    "https://[::1]:8080/",
    "https://xn--bcher-kva.example/",
    "https://example.com/sitemaps/news.xml?page=2&x=CON",
    `https://${"a".repeat(200)}.example/`,
  ];
  const names = keys.map((key) => store.fileOf(key));
  assert.equal(new Set(names).size, keys.length);
  for (const name of names) {
    assert.ok(name.startsWith("/state/"), name);
    assert.match(basename(name), /^[a-z0-9][a-z0-9._-]{0,95}\.[0-9a-f]{16}\.snapshot$/, name);
  }
  assert.equal(basename(names[0]!), "https_example.com.0c8b41cfdcb3c914.snapshot");
});

Deno.test("SnapshotStore.compare(): recorded, then updated with the changes; a failed crawl is kept; a damaged file is reported and never overwritten", async () => {
  const dir = mkdtempSync(join(tmpdir(), "store-test-"));
  const store = new SnapshotStore(dir);
  try {
    const url = "https://example.com/sitemap.txt";
    const first = await store.compare(url, text("/sitemap.txt", "/a"));
    assert.deepEqual([first.state, first.changes, first.reason], ["recorded", null, null]);
    assert.equal(await store.read(url), null, "nothing is written before save()");
    await first.save();
    const next = await store.compare(url, text("/sitemap.txt", "/a", "/b"));
    assert.deepEqual([next.state, next.changes?.counts.pages.added], ["updated", 1]);
    await next.save();
    assert.deepEqual((await store.read(url))!.pages.map((p) => p.url), [
      "https://example.com/a",
      "https://example.com/b",
    ]);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".tmp")), []);

    const failed = new IndexWebsiteSitemap(HOME, [], {
      ...(await sitemapTreeForHomepage("http://127.0.0.1:1/", { retries: 0, workers: 0 })).stats,
    });
    const kept = await store.compare(url, failed);
    assert.equal(kept.state, "kept");
    assert.match(kept.reason!, /^unreachable: /);

    const file = store.fileOf(url);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    const damaged = await store.compare(url, text("/sitemap.txt", "/c"));
    assert.deepEqual([damaged.state, damaged.reason], [
      "damaged",
      `${file}: Snapshot is truncated: ${
        bytes.length - 1
      } bytes of the ${bytes.length} its header announces`,
    ]);
    await damaged.save();
    assert.equal(readFileSync(file).length, bytes.length - 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
