/**
 * `watch URL --state DIR` on the changing fixture site: the first run
 * records, later runs print the changes and replace the state, a 503
 * urlset keeps its pages through the outage, an unreachable site leaves the
 * state byte-identical, an unchanged site costs one conditional request per
 * sitemap, and the lock keeps two runs of one site apart.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { SnapshotStore } from "../../mod.ts";
import { serveSitemaps, serveVersion, v1ToV2Tabtree } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { lines, run, withSiteAndDir } from "./_run.ts";

/** Crawl flags that keep the request log to the site's own sitemaps. */
const CRAWL = ["--no-known", "--no-feeds", "--retries", "0"];

/** A hash of every file under `dir`, by path: what "the state is untouched" means. */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else {out[path.slice(dir.length)] = createHash("sha256").update(readFileSync(path)).digest(
          "hex",
        );}
    }
  };
  walk(dir);
  return out;
}

const REASON_503 = (o: string): string =>
  `Unable to fetch sitemap from ${o}/e.xml: 503 Service Unavailable`;

Deno.test("watch records the first run, prints each later run's changes, keeps a 503 urlset's pages through the outage, and keeps the state when the site is unreachable", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  await withSiteAndDir(site, async (server, dir) => {
    const o = server.origin;
    const home = `${o}/`;
    const file = new SnapshotStore(dir).fileOf(home);
    const watch = (...flags: string[]) => run(["watch", home, "--state", dir, ...CRAWL, ...flags]);
    assert.deepEqual(await watch(), {
      status: 0,
      stdout: "",
      stderr:
        `sitemap-tree: recorded the first state of ${home} (7 sitemaps, 12 pages) in ${file}; ` +
        "the next run prints what changed\n",
    });
    assert.deepEqual(await watch(), { status: 0, stdout: "no changes\n", stderr: "" });

    serveVersion(site, "v2");
    const v2 = await watch("-u");
    assert.deepEqual([v2.status, v2.stderr], [0, ""]);
    assert.deepEqual(lines(v2.stdout), v1ToV2Tabtree(o));
    // Still down: said again, its pages still unavailable (not removed, not forgotten).
    const down = await watch("-f", "ndjson");
    assert.deepEqual(lines(down.stdout.replaceAll(o, "")), [
      `{"change":"changed","sitemap":"/e.xml","fields":["type","reason"],"before":{"type":"urlset","reason":null},"after":{"type":"invalid","reason":"${
        REASON_503("")
      }"}}`,
      `{"change":"unavailable","page":"https://shop.test/p9","sitemap":"/e.xml","reason":"${
        REASON_503("")
      }"}`,
      `{"change":"unavailable","page":"https://shop.test/p10","sitemap":"/e.xml","reason":"${
        REASON_503("")
      }"}`,
    ]);
    // Back: its pages compare with those kept, so only the new lastmod shows.
    serveVersion(site, "v3");
    assert.deepEqual(await watch("-u"), {
      status: 0,
      stdout: "  /e.xml\n~   https://shop.test/p10  lastModified - → 2024-03-01\n",
      stderr: "",
    });
    assert.deepEqual(await watch("-f", "summary"), {
      status: 0,
      stdout: "          ADDED  REMOVED  CHANGED  UNAVAILABLE  UNCHANGED\n" +
        "pages         0        0        0            0         11\n" +
        "sitemaps      0        0        0            0          7\n",
      stderr: "",
    });

    await server.close();
    const before = hashTree(dir);
    assert.deepEqual(await watch(), {
      status: 1,
      stdout: "",
      stderr:
        `sitemap-tree: connection refused (127.0.0.1:${server.port}); the state in ${dir} is kept\n`,
    });
    assert.deepEqual(hashTree(dir), before);
    assert.ok(Object.keys(before).some((path) => path.endsWith(".snapshot")));
  });
});

Deno.test("watch on an unchanged site of 20 urlsets: one conditional request per sitemap, all 304, nothing parsed, no changes", async () => {
  const site = serveSitemaps(new FixtureSite(), 20, 50);
  await withSiteAndDir(site, async (server, dir) => {
    const home = `${server.origin}/`;
    const first = await run(["watch", home, "--state", dir, ...CRAWL]);
    assert.equal(first.status, 0);
    site.clearLog();
    const again = await run(["watch", home, "--state", dir, ...CRAWL, "--stats", "--json"]);
    assert.deepEqual([again.status, again.stdout], [0, "no changes\n"]);
    const stats = JSON.parse(lines(again.stderr)[0]!);
    assert.deepEqual(
      [stats.requests, stats.notModified, stats.parsed, stats.bytesDownloaded, stats.pagesKept],
      [22, 22, 0, 0, 1000],
    );
    // robots.txt, the index and the 20 urlsets, each asked for once, conditionally.
    assert.equal(site.log.length, 22);
    assert.deepEqual(
      site.log.filter((r) => r.headers["if-none-match"] === undefined).map((r) => r.path),
      [],
    );
    assert.equal(new Set(site.log.map((r) => r.path)).size, 22);
  });
});

Deno.test("watch refuses to run while another run of the site holds its lock, and takes over a lock whose process is gone", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  await withSiteAndDir(site, async (server, dir) => {
    const home = `${server.origin}/`;
    const lock = new SnapshotStore(dir).fileOf(home).replace(/\.snapshot$/, ".lock");
    // Another run, here and now.
    site.latencyMs = 300;
    const first = run(["watch", home, "--state", dir, ...CRAWL]);
    for (let i = 0; i < 100 && !existsSync(lock); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const owner = JSON.parse(readFileSync(lock, "utf8"));
    assert.deepEqual([owner.pid, owner.host], [process.pid, hostname()]);
    const second = await run(["watch", home, "--state", dir, ...CRAWL]);
    assert.deepEqual([second.status, second.stdout], [1, ""]);
    assert.equal(
      second.stderr,
      `sitemap-tree: ${lock} is held by process ${process.pid} on ${hostname()} since ${owner.since}: ` +
        "another run for this site is going on (if none is, remove the file)\n",
    );
    assert.equal((await first).status, 0);
    assert.equal(existsSync(lock), false, "released");
    site.latencyMs = 0;

    // A run that died: its process is gone, so its lock is stale.
    const dead = spawnSync("true").pid!;
    writeFileSync(
      lock,
      JSON.stringify({ pid: dead, host: hostname(), since: "2024-01-01T00:00:00.000Z" }),
    );
    assert.deepEqual(await run(["watch", home, "--state", dir, ...CRAWL]), {
      status: 0,
      stdout: "no changes\n",
      stderr: "",
    });
    assert.equal(existsSync(lock), false);

    // A lock from another host cannot be checked: refused.
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere", since: "then" }));
    const mtime = statSync(lock).mtimeMs;
    const refused = await run(["watch", home, "--state", dir, ...CRAWL]);
    assert.deepEqual([refused.status, refused.stderr], [
      1,
      `sitemap-tree: ${lock} is held by process 1 on elsewhere since then: ` +
      "another run for this site is going on (if none is, remove the file)\n",
    ]);
    assert.equal(statSync(lock).mtimeMs, mtime);
  });
});

Deno.test("watch: a damaged state exits 1 naming the file and stays as it is; a site without sitemaps exits 3 and keeps the state", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  await withSiteAndDir(site, async (server, dir) => {
    const home = `${server.origin}/`;
    const file = new SnapshotStore(dir).fileOf(home);
    assert.equal((await run(["watch", home, "--state", dir, ...CRAWL])).status, 0);
    const bytes = readFileSync(file);
    bytes[40]! ^= 1;
    writeFileSync(file, bytes);
    const before = hashTree(dir);
    assert.deepEqual(await run(["watch", home, "--state", dir, ...CRAWL]), {
      status: 1,
      stdout: "",
      stderr: `sitemap-tree: ${file}: Snapshot checksum mismatch: the file is damaged ` +
        "(remove it to record a new state)\n",
    });
    assert.deepEqual(hashTree(dir), before);

    rmSync(file);
    assert.equal((await run(["watch", home, "--state", dir, ...CRAWL])).status, 0);
    site.status("/robots.txt", 404);
    const kept = hashTree(dir);
    assert.deepEqual(await run(["watch", home, "--state", dir, ...CRAWL]), {
      status: 3,
      stdout: "",
      stderr:
        `sitemap-tree: no sitemap found (robots.txt 404; well-known paths not probed); the state in ${dir} is kept\n`,
    });
    assert.deepEqual(hashTree(dir), kept);
  });
});

Deno.test("watch usage errors name the flag and exit 2", async () => {
  const see = "; see sitemap-tree watch --help\n";
  const cases: [string[], string][] = [
    [["watch", "https://example.com/"], "sitemap-tree: watch needs --state DIR" + see],
    [
      ["watch", "sites.txt", "--state", "d"],
      'sitemap-tree: watch needs an http(s) URL, got "sites.txt"' + see,
    ],
    [
      ["watch", "https://example.com/", "--state", "d", "-f", "csv"],
      'sitemap-tree: Option -f must be one of tabtree, ndjson, summary, got "csv"' + see,
    ],
    [
      ["watch", "https://example.com/", "--state", "d", "-u", "-f", "ndjson"],
      "sitemap-tree: Option --strip-url applies to the tabtree format, not ndjson" + see,
    ],
  ];
  for (const [args, stderr] of cases) {
    assert.deepEqual(await run(args), { status: 2, stdout: "", stderr }, args.join(" "));
  }
});
