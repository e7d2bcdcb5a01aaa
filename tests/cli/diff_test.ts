/**
 * `ls --save FILE` and `diff BEFORE AFTER` on the changing fixture site:
 * each side a snapshot, a JSON tree, a sitemap file or a URL; the three
 * formats; damaged and foreign files; an unreachable side.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeSitemapTree } from "../../mod.ts";
import { serveVersion, V1_TO_V2_NDJSON, v1ToV2Tabtree } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { lines, run, withSiteAndDir } from "./_run.ts";

const CRAWL = ["--no-known", "--no-feeds", "--retries", "0"];

Deno.test("ls --save writes a snapshot beside the output; diff compares it, a JSON tree or a URL, in tabtree, ndjson and summary", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  await withSiteAndDir(site, async (server, dir) => {
    const o = server.origin;
    const snapshot = join(dir, "v1.snapshot");
    const json = join(dir, "v1.json");
    const listed = await run(["ls", `${o}/`, "-f", "pages", "--save", snapshot, ...CRAWL]);
    assert.deepEqual([listed.status, listed.stderr, lines(listed.stdout).length], [0, "", 12]);
    assert.deepEqual(readdirSync(dir), ["v1.snapshot"], "no temporary file stays");
    const saved = decodeSitemapTree(readFileSync(snapshot));
    assert.equal([...saved.allPages()].length, 12);
    const asJSON = await run(["ls", `${o}/`, "-f", "json", ...CRAWL]);
    writeFileSync(json, asJSON.stdout);
    assert.deepEqual(await run(["diff", snapshot, json]), {
      status: 0,
      stdout: "no changes\n",
      stderr: "",
    });

    serveVersion(site, "v2");
    const tabtree = await run(["diff", snapshot, `${o}/`, "-u", ...CRAWL]);
    assert.deepEqual([tabtree.status, tabtree.stderr], [0, ""]);
    assert.deepEqual(lines(tabtree.stdout), v1ToV2Tabtree(o));
    // The same from the JSON tree, and with whole URLs.
    const whole = await run(["diff", json, `${o}/`, ...CRAWL]);
    assert.deepEqual(
      lines(whole.stdout),
      v1ToV2Tabtree(o).map((line) => line.replace(/ \/([a-f]\.xml)/g, ` ${o}/$1`)),
    );

    const ndjson = await run(["diff", snapshot, `${o}/`, "-f", "ndjson", ...CRAWL]);
    assert.deepEqual(lines(ndjson.stdout.replaceAll(o, "")), V1_TO_V2_NDJSON);

    assert.deepEqual(await run(["diff", snapshot, `${o}/`, "-f", "summary", ...CRAWL]), {
      status: 0,
      stdout: "          ADDED  REMOVED  CHANGED  UNAVAILABLE  UNCHANGED\n" +
        "pages         2        2        3            2          4\n" +
        "sitemaps      1        1        1            0          5\n" +
        "changed fields: lastModified 1, images 1, sitemap 1\n",
      stderr: "",
    });
    // Nothing changed: ndjson prints nothing, which a script can test.
    assert.deepEqual(await run(["diff", snapshot, snapshot, "-f", "ndjson"]), {
      status: 0,
      stdout: "",
      stderr: "",
    });

    // The whole site unreachable: no diff, the crawl's reason, exit 1.
    await server.close();
    assert.deepEqual(await run(["diff", snapshot, `${o}/`, ...CRAWL]), {
      status: 1,
      stdout: "",
      stderr: `sitemap-tree: connection refused (127.0.0.1:${server.port})\n`,
    });
  });
});

Deno.test("diff: a damaged or truncated snapshot exits 1 with its error as one line; a foreign file says what it is not; a missing one is a usage error", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  await withSiteAndDir(site, async (server, dir) => {
    const good = join(dir, "good.snapshot");
    assert.equal((await run(["ls", `${server.origin}/`, "--save", good, ...CRAWL])).status, 0);
    const bytes = readFileSync(good);
    const flipped = join(dir, "flipped.snapshot");
    const cut = join(dir, "cut.snapshot");
    const html = join(dir, "page.html");
    writeFileSync(flipped, bytes.map((b, i) => i === 40 ? b ^ 1 : b));
    writeFileSync(cut, bytes.subarray(0, 100));
    writeFileSync(html, "<html><body>hello</body></html>\n");
    const cases: [string, number, string][] = [
      [flipped, 1, `${flipped}: Snapshot checksum mismatch: the file is damaged`],
      [
        cut,
        1,
        `${cut}: Snapshot is truncated: 100 bytes of the ${bytes.length} its header announces`,
      ],
      [
        join(dir, "none.snapshot"),
        2,
        `No such file ${
          JSON.stringify(join(dir, "none.snapshot"))
        } (a URL starts with http:// or https://); see sitemap-tree diff --help`,
      ],
    ];
    // The parser's reason follows; it names what the file holds.
    const foreign = await run(["diff", good, html]);
    assert.deepEqual([foreign.status, foreign.stdout, lines(foreign.stderr).length], [1, "", 1]);
    assert.match(
      foreign.stderr,
      new RegExp(
        `^sitemap-tree: ${html}: Not a snapshot \\(ls --save\\), a JSON tree \\(ls -f json\\) or a sitemap: .*html`,
        "i",
      ),
    );
    for (const [file, status, line] of cases) {
      assert.deepEqual(await run(["diff", good, file]), {
        status,
        stdout: "",
        stderr: `sitemap-tree: ${line}\n`,
      }, file);
    }
    const usage = await run(["diff", good]);
    assert.deepEqual([usage.status, usage.stderr], [
      2,
      "sitemap-tree: Missing BEFORE AFTER; see sitemap-tree diff --help\n",
    ]);
  });
});
