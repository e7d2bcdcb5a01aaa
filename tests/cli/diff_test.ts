/**
 * `ls --save FILE` and `diff BEFORE AFTER` on the changing fixture site:
 * each side a snapshot, a JSON tree, a sitemap file or a URL; the three
 * formats; damaged and foreign files; an unreachable side.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeSitemapTree } from "../../mod.ts";
import { serveVersion } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { lines, run } from "./_run.ts";

const CRAWL = ["--no-known", "--no-feeds", "--retries", "0"];

const V1_TO_V2 = (o: string): string[] => [
  "  /a.xml",
  "~   https://shop.test/p1  lastModified 2024-01-01 → 2024-02-01",
  "~   https://shop.test/p2  images [https://shop.test/img/p2-front.jpg] → [https://shop.test/img/p2-side.jpg]",
  "+   https://shop.test/new1",
  "  /c.xml",
  "~   https://shop.test/p5  sitemap /b.xml → /c.xml",
  `~ /e.xml  urlset → invalid: Unable to fetch sitemap from ${o}/e.xml: 503 Service Unavailable`,
  "?   https://shop.test/p9",
  "?   https://shop.test/p10",
  "+ /f.xml  urlset",
  "+   https://shop.test/p11",
  "- /d.xml  urlset",
  "-   https://shop.test/p7",
  "-   https://shop.test/p8",
];

Deno.test("ls --save writes a snapshot beside the output; diff compares it, a JSON tree or a URL, in tabtree, ndjson and summary", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  const server = await site.listen();
  const o = server.origin;
  const dir = mkdtempSync(join(tmpdir(), "diff-test-"));
  const snapshot = join(dir, "v1.snapshot");
  const json = join(dir, "v1.json");
  try {
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
    assert.deepEqual(lines(tabtree.stdout), V1_TO_V2(o));
    // The same from the JSON tree, and with whole URLs.
    const whole = await run(["diff", json, `${o}/`, ...CRAWL]);
    assert.deepEqual(
      lines(whole.stdout),
      V1_TO_V2(o).map((line) => line.replace(/ \/([a-f]\.xml)/g, ` ${o}/$1`)),
    );

    const ndjson = await run(["diff", snapshot, `${o}/`, "-f", "ndjson", ...CRAWL]);
    const reason = "Unable to fetch sitemap from /e.xml: 503 Service Unavailable";
    assert.deepEqual(lines(ndjson.stdout.replaceAll(o, "")), [
      '{"change":"changed","page":"https://shop.test/p1","sitemap":"/a.xml","fields":["lastModified"],"before":{"lastModified":"2024-01-01T00:00:00.000Z"},"after":{"lastModified":"2024-02-01T00:00:00.000Z"}}',
      '{"change":"changed","page":"https://shop.test/p2","sitemap":"/a.xml","fields":["images"],"before":{"images":[{"loc":"https://shop.test/img/p2-front.jpg","caption":null,"geoLocation":null,"title":null,"license":null}]},"after":{"images":[{"loc":"https://shop.test/img/p2-side.jpg","caption":null,"geoLocation":null,"title":null,"license":null}]}}',
      '{"change":"added","page":"https://shop.test/new1","sitemap":"/a.xml"}',
      '{"change":"changed","page":"https://shop.test/p5","sitemap":"/c.xml","fields":["sitemap"],"before":{"sitemap":"/b.xml"},"after":{"sitemap":"/c.xml"}}',
      `{"change":"changed","sitemap":"/e.xml","fields":["type","reason"],"before":{"type":"urlset","reason":null},"after":{"type":"invalid","reason":"${reason}"}}`,
      `{"change":"unavailable","page":"https://shop.test/p9","sitemap":"/e.xml","reason":"${reason}"}`,
      `{"change":"unavailable","page":"https://shop.test/p10","sitemap":"/e.xml","reason":"${reason}"}`,
      '{"change":"added","sitemap":"/f.xml","type":"urlset"}',
      '{"change":"added","page":"https://shop.test/p11","sitemap":"/f.xml"}',
      '{"change":"removed","sitemap":"/d.xml","type":"urlset"}',
      '{"change":"removed","page":"https://shop.test/p7","sitemap":"/d.xml"}',
      '{"change":"removed","page":"https://shop.test/p8","sitemap":"/d.xml"}',
    ]);

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
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("diff: a damaged or truncated snapshot exits 1 with its error as one line; a foreign file says what it is not; a missing one is a usage error", async () => {
  const site = serveVersion(new FixtureSite(), "v1");
  const server = await site.listen();
  const dir = mkdtempSync(join(tmpdir(), "diff-test-"));
  const good = join(dir, "good.snapshot");
  try {
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
        `^sitemap-tree: ${html} is not a snapshot \\(ls --save\\), a JSON tree \\(ls -f json\\) or a sitemap: .*html`,
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
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
