/**
 * The command line's inputs (sitemap URL, file, stdin), outputs (streaming,
 * --unique, summary, histogram, --stats --json, --no-pages) and exit codes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { gzip } from "../../fixtures/generate.ts";
import { realisticUrlset } from "../../fixtures/realistic.ts";
import { keptExtrasStats } from "../../src/parse/_kept_extras.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { sitemapIndex, urlset, withSite } from "../_tree_helpers.ts";
import { bash, CLI, lines, PAGES_XML, quote, run, smallSite } from "./_run.ts";

/** A port nothing listens on: one the OS just gave out and took back. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("ls and lint exit 1 with one stderr line when the site cannot be reached", async () => {
  const port = closedPort();
  const home = `http://127.0.0.1:${port}/`;
  for (
    const args of [
      ["ls", home],
      ["ls", home, "-f", "pages"],
      ["ls", `${home}sitemap.xml`],
      ["lint", home],
    ]
  ) {
    const result = await run([...args, "--retries", "0"]);
    assert.deepEqual(
      [result.status, result.stdout, lines(result.stderr).at(-1)],
      [1, "", `sitemap-tree: connection refused (127.0.0.1:${port})`],
      args.join(" "),
    );
    assert.equal(lines(result.stderr).length, args[1]!.endsWith(".xml") ? 2 : 1);
  }
});

Deno.test("ls and lint exit 3 when the site answers but publishes no sitemap", async () => {
  await withSite(new FixtureSite(), async (s) => {
    for (
      const args of [["ls", s.url("/")], ["ls", s.url("/"), "-f", "csv"], ["lint", s.url("/")]]
    ) {
      assert.deepEqual(await run(args), {
        status: 3,
        stdout: args.includes("csv") ? "url,lastmod,changefreq,priority,sitemap\r\n" : "",
        stderr: "sitemap-tree: no sitemap found (robots.txt 404; no well-known path answered)\n",
      }, args.join(" "));
    }
  });
});

Deno.test("ls given a sitemap URL reads it alone and says so; --homepage crawls its site", async () => {
  const site = smallSite();
  await withSite(site, async (s) => {
    const o = s.origin;
    const alone = await run(["ls", s.url("/pages.xml"), "-f", "pages"]);
    assert.deepEqual(alone, {
      status: 0,
      stdout: `${o}/\n${o}/about?a=1,2\nhttps://other.example/x\n`,
      stderr:
        `sitemap-tree: reading the sitemap at ${o}/pages.xml alone (--homepage to crawl its site)\n`,
    });
    assert.equal(site.count("/robots.txt"), 0);
    const tree = await run(["ls", s.url("/index.xml"), "--no-pages"]);
    assert.deepEqual(lines(tree.stdout), [
      `${o}/index.xml`,
      `\t${o}/pages.xml`,
      `\t${o}/missing.xml  [invalid: Unable to fetch sitemap from ${o}/missing.xml: 404 Not Found]`,
    ]);
    assert.equal(site.count("/robots.txt"), 0);
    const missing = await run(["ls", s.url("/nope.xml")]);
    assert.deepEqual([missing.status, missing.stdout, lines(missing.stderr)[1]], [
      3,
      "",
      `sitemap-tree: Unable to fetch sitemap from ${o}/nope.xml: 404 Not Found`,
    ]);
    const crawled = await run(["ls", s.url("/pages.xml"), "--homepage", "-k", "--no-pages"]);
    assert.deepEqual([crawled.status, crawled.stderr, lines(crawled.stdout)[1]], [
      0,
      "",
      `\t${o}/robots.txt`,
    ]);
    assert.equal(site.count("/robots.txt"), 1);
  });
});

Deno.test("ls reads a local file (gzipped or not) and stdin without network", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const o = "https://example.com";
    await Deno.writeTextFile(`${dir}/pages.xml`, PAGES_XML(o));
    await Deno.writeFile(`${dir}/pages.xml.gz`, gzip(PAGES_XML(o)));
    const expected = `${o}/\n${o}/about?a=1,2\nhttps://other.example/x\n`;
    for (const file of ["pages.xml", "pages.xml.gz"]) {
      assert.deepEqual(await run(["ls", `${dir}/${file}`, "-f", "pages"]), {
        status: 0,
        stdout: expected,
        stderr: "",
      }, file);
    }
    assert.deepEqual(await run(["ls", "-", "-f", "pages"], { stdin: PAGES_XML(o) }), {
      status: 0,
      stdout: expected,
      stderr: "",
    });
    assert.deepEqual(await run(["ls", "-"], { stdin: "<html><body>hi</body></html>" }), {
      status: 3,
      stdout: "",
      stderr:
        "sitemap-tree: no sitemap in stdin: Not a sitemap: the document's root element is <html> (expected urlset, sitemapindex, rss, rdf:RDF or feed)\n",
    });
    // And through a real process's stdin.
    const piped = await bash(
      `printf '%s\\n' ${quote(`${o}/a`)} ${quote(`${o}/b`)} | ${quote(Deno.execPath())} run -A ${
        quote(CLI)
      } ls - -f ndjson`,
    );
    assert.deepEqual(piped, {
      status: 0,
      stderr: "",
      stdout:
        `{"url":"${o}/a","sitemap":"","lastModified":null,"priority":0.5,"changeFrequency":null}\n` +
        `{"url":"${o}/b","sitemap":"","lastModified":null,"priority":0.5,"changeFrequency":null}\n`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const ROBOTS = (o: string): string => `Sitemap: ${o}/index.xml\nSitemap: ${o}/b.xml\n`;
const INDEX = (o: string): string =>
  `<sitemapindex xmlns="${NS}"><sitemap><loc>${o}/a.xml</loc><lastmod>2024-03-02</lastmod></sitemap><sitemap><loc>${o}/b.xml</loc></sitemap></sitemapindex>`;
const A_XML = (o: string): string =>
  `<urlset xmlns="${NS}"><url><loc>${o}/x</loc><lastmod>2024-01-15</lastmod></url><url><loc>${o}/y</loc><lastmod>2024-03-01</lastmod></url></urlset>`;
const B_XML = (o: string): string =>
  `<urlset xmlns="${NS}"><url><loc>${o}/y</loc><lastmod>2024-03-01</lastmod></url><url><loc>${o}/z</loc></url></urlset>`;

/** robots.txt -> [index -> [a.xml (/x, /y), b.xml (/y, /z)], b.xml]: b.xml is listed twice, /y by both. */
export function duplicateSite(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", ROBOTS)
    .file("/index.xml", INDEX)
    .file("/a.xml", A_XML)
    .file("/b.xml", B_XML);
}

const DUP = ["-k", "--no-feeds"];

Deno.test("ls streams each sitemap once; --unique prints each page once in pages, ndjson and csv", async () => {
  await withSite(duplicateSite(), async (s) => {
    const o = s.origin;
    const sorted = (text: string): string[] => lines(text).sort();
    const pages = await run(["ls", s.url("/"), ...DUP, "-f", "pages"]);
    assert.deepEqual(sorted(pages.stdout), [`${o}/x`, `${o}/y`, `${o}/y`, `${o}/z`]);
    const unique = await run(["ls", s.url("/"), ...DUP, "-f", "pages", "--unique"]);
    assert.deepEqual(sorted(unique.stdout), [`${o}/x`, `${o}/y`, `${o}/z`]);
    const ndjson = await run(["ls", s.url("/"), ...DUP, "-f", "ndjson", "--unique"]);
    assert.deepEqual(sorted(ndjson.stdout).map((l) => JSON.parse(l).url), [
      `${o}/x`,
      `${o}/y`,
      `${o}/z`,
    ]);
    const csv = await run(["ls", s.url("/"), ...DUP, "-f", "csv", "--unique"]);
    const rows = csv.stdout.split("\r\n");
    assert.deepEqual([rows[0], rows.length, rows.at(-1)], [
      "url,lastmod,changefreq,priority,sitemap",
      5,
      "",
    ]);
    assert.deepEqual(rows.slice(1, 4).map((r) => r.split(",")[0]).sort(), [
      `${o}/x`,
      `${o}/y`,
      `${o}/z`,
    ]);
  });
});

Deno.test("ls -f summary: one row per sitemap, then totals with distinct and duplicate pages", async () => {
  const site = duplicateSite().status("/missing.xml", 404);
  site.file(
    "/index.xml",
    (o) =>
      INDEX(o).replace(
        "</sitemapindex>",
        `<sitemap><loc>${o}/missing.xml</loc></sitemap></sitemapindex>`,
      ),
  );
  await withSite(site, async (s) => {
    const o = s.origin;
    const summary = await run(["ls", s.url("/"), ...DUP, "-f", "summary"]);
    assert.equal(summary.status, 0);
    const rows = lines(summary.stdout).map((line) => line.split(/ {2,}/).map((c) => c.trim()));
    const bytes = (body: (o: string) => string): string =>
      `${new TextEncoder().encode(body(o)).length} B`;
    const indexBytes = new TextEncoder().encode(INDEX(o)).length +
      `<sitemap><loc>${o}/missing.xml</loc></sitemap>`.length;
    const reason = `Unable to fetch sitemap from ${o}/missing.xml: 404 Not Found`;
    assert.deepEqual(rows, [
      ["TYPE", "PAGES", "BYTES", "LASTMOD", "STATUS", "SITEMAP"],
      ["robots", "0", bytes(ROBOTS), "-", "200", `${o}/robots.txt`],
      ["index", "0", `${indexBytes} B`, "-", "200", `${o}/index.xml`],
      ["urlset", "2", bytes(A_XML), "2024-03-02", "200", `${o}/a.xml`],
      ["urlset", "2", bytes(B_XML), "-", "200", `${o}/b.xml`],
      ["invalid", "0", "0 B", "-", "404", `${o}/missing.xml`, `(${reason})`],
      ["urlset", "2", bytes(B_XML), "-", "200", `${o}/b.xml`],
      [""],
      [`6 sitemaps (1 invalid), 6 pages: 3 distinct, 3 duplicates; ${
        [ROBOTS, A_XML, B_XML].reduce(
          (n, f) => n + new TextEncoder().encode(f(o)).length,
          indexBytes,
        )
      } B downloaded`],
    ]);
    // The URL column is indented by depth.
    assert.ok(lines(summary.stdout)[3]!.endsWith(`200         ${o}/a.xml`));
  });
});

Deno.test("ls -f histogram: pages by lastmod month, empty months included, then undated", async () => {
  await withSite(duplicateSite(), async (s) => {
    const histogram = await run(["ls", s.url("/"), ...DUP, "-f", "histogram"]);
    assert.deepEqual(histogram, {
      status: 0,
      stderr: "",
      stdout: [
        `2024-01  1  ${"█".repeat(17)}`,
        "2024-02  0",
        `2024-03  3  ${"█".repeat(50)}`,
        `no date  2  ${"█".repeat(33)}`,
        "",
      ].join("\n"),
    });
  });
});

Deno.test("ls --stats --json writes the root's counters as one JSON line on stderr", async () => {
  await withSite(duplicateSite(), async (s) => {
    const result = await run(["ls", s.url("/"), ...DUP, "-f", "json", "--stats", "--json"]);
    assert.equal(result.status, 0);
    const stats = JSON.parse(result.stderr);
    assert.equal(result.stderr.indexOf("\n"), result.stderr.length - 1);
    assert.deepEqual(
      [stats.sitemapsByType, stats.requests, stats.pagesFound, stats.fetches.length],
      [{ robots: 1, index: 1, urlset: 3 }, 4, 4, 4],
    );
  });
});

Deno.test("cli.ts as a process: flat formats print a sitemap's pages while another is still downloading", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`)
    .file("/index.xml", (o) => sitemapIndex([`${o}/slow.xml`, `${o}/fast.xml`]))
    .file("/fast.xml", urlset(["/a", "/b", "/c"]))
    .hang("/slow.xml");
  await withSite(site, async (s) => {
    for (const format of ["pages", "ndjson", "csv"]) {
      site.clearLog();
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, "ls", s.url("/"), "-k", "--no-feeds", "-f", format],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      let exited = false;
      child.status.then(() => (exited = true));
      const reader = child.stdout.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const wanted = format === "csv" ? 4 : 3;
      while (text.split("\n").length <= wanted) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      // fast.xml's pages are out, and the crawl is still waiting for slow.xml.
      const urls = lines(text.replaceAll("\r", "")).slice(format === "csv" ? 1 : 0).map((line) =>
        format === "ndjson" ? JSON.parse(line).url : line.split(",")[0]
      );
      assert.deepEqual(urls, ["https://site.test/a", "https://site.test/b", "https://site.test/c"]);
      assert.equal(site.count("/slow.xml"), 1);
      assert.equal(exited, false, format);
      child.kill("SIGINT");
      reader.releaseLock();
      const output = await child.output();
      assert.deepEqual([output.code, new TextDecoder().decode(output.stderr)], [
        130,
        "sitemap-tree: Interrupted\n",
      ]);
    }
  });
});

Deno.test("lint lists problems in tree order; a 'more' line counts the rest and is no error of its own", async () => {
  const bad = (o: string): string =>
    `<urlset xmlns="${NS}">${
      [1, 2, 3].map((i) => `<url><loc>${o}/p${i}</loc><priority>${i + 1}</priority></url>`).join("")
    }</urlset>`;
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`)
    // The index's own problem (a relative <loc>) is found in its document, the
    // child's in the tree: the index still comes first.
    .file("/index.xml", sitemapIndex(["bad.xml"]))
    .file("/bad.xml", bad);
  await withSite(site, async (s) => {
    const result = await run(["lint", s.url("/"), ...DUP, "--examples", "1"]);
    assert.equal(result.status, 1);
    assert.deepEqual(lines(result.stdout.replaceAll(s.origin, "O")), [
      "O/index.xml",
      '  error   invalid-loc     bad.xml "bad.xml": The <loc> is not an absolute http(s) URL (the protocol requires one)',
      "O/bad.xml",
      '  error   bad-priority    O/p1 "2": The <priority> is not a number from 0.0 to 1.0',
      "          … 2 more bad-priority problems like the above",
      "4 errors, 0 warnings in 3 sitemaps (3 pages)",
    ]);
  });
});

Deno.test("lint warns of a redirected sitemap, not of a redirected robots.txt", async () => {
  const site = new FixtureSite()
    .redirect("/robots.txt", "/real/robots.txt")
    .file("/real/robots.txt", (o) => `Sitemap: ${o}/old.xml\n`)
    .redirect("/old.xml", "/new.xml")
    .file("/new.xml", (o) => `<urlset xmlns="${NS}"><url><loc>${o}/a</loc></url></urlset>`);
  await withSite(site, async (s) => {
    const result = await run(["lint", s.url("/"), ...DUP]);
    assert.deepEqual(lines(result.stdout.replaceAll(s.origin, "O")), [
      "O/new.xml",
      '  warning redirect        O/old.xml "O/new.xml": O/old.xml redirects to O/new.xml; list the final URL instead',
      "0 errors, 1 warning in 2 sitemaps (1 page)",
    ]);
    assert.equal(result.status, 0);
  });
});

Deno.test("lint of the defects edition of the demo site reports only its documents' own defects, none of host or relative locs", async () => {
  const { defectsSite } = await import("../../fixtures/demo_site.ts");
  await withSite(defectsSite(), async (s) => {
    const result = await run(["lint", s.url("/")]);
    const codes = lines(result.stdout).flatMap((line) =>
      /^ {2}(?:error|warning) +(\S+)/.exec(line)?.[1] ?? []
    );
    assert.deepEqual([...new Set(codes)].sort(), [
      "bad-changefreq",
      "bad-priority",
      "duplicate-url",
      "hreflang-no-return",
      "invalid-loc",
      "invalid-sitemap",
    ]);
    // Its x-default page lists no alternates, so it names neither of the pages that name it.
    assert.equal(lines(result.stdout).at(-1), "9 errors, 9 warnings in 14 sitemaps (29 pages)");
    assert.equal(result.stdout.includes("cross-host"), false);
  });
});

Deno.test("ls --proxy sends every request through the proxy, which alone resolves the site's name", async () => {
  const { startProxy } = await import("../../fixtures/proxy.ts");
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/a.xml"]))
    .file("/a.xml", urlset(["/a", "/b"]));
  await withSite(site, async (server) => {
    const proxy = await startProxy({ "site.test": server.origin });
    try {
      const result = await run([
        "ls",
        "http://site.test/",
        ...DUP,
        "-f",
        "pages",
        "--proxy",
        proxy.url,
      ]);
      assert.deepEqual(result, {
        status: 0,
        stdout: "https://site.test/a\nhttps://site.test/b\n",
        stderr: "",
      });
      assert.deepEqual(proxy.log, [
        "GET http://site.test/robots.txt",
        "GET http://site.test/index.xml",
        "GET http://site.test/a.xml",
      ]);
    } finally {
      await proxy.close();
    }
  });
});

Deno.test("ls --sitemap-columns adds each sitemap's Last-Modified, ETag and download date to ndjson and csv", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /a.xml\nSitemap: /b.xml\n")
    .file("/a.xml", urlset(["/a"]), {
      headers: { etag: '"v1,a"', "last-modified": "Wed, 01 May 2024 10:00:00 GMT" },
    })
    .file("/b.xml", urlset(["/b"]));
  await withSite(site, async (s) => {
    const o = s.origin;
    const before = Date.now();
    const ndjson = await run(["ls", s.url("/"), ...DUP, "-f", "ndjson", "--sitemap-columns"]);
    const after = Date.now();
    const records = lines(ndjson.stdout).map((line) => JSON.parse(line));
    const dates = records.map((r) => Date.parse(r.downloadDate));
    assert.ok(dates.every((d) => d >= before - 1000 && d <= after), JSON.stringify(records));
    assert.deepEqual(records.map(({ downloadDate: _, ...rest }) => rest), [
      {
        url: "https://site.test/a",
        sitemap: `${o}/a.xml`,
        lastModified: null,
        priority: 0.5,
        changeFrequency: null,
        sitemapLastModified: "2024-05-01T10:00:00.000Z",
        etag: '"v1,a"',
      },
      {
        url: "https://site.test/b",
        sitemap: `${o}/b.xml`,
        lastModified: null,
        priority: 0.5,
        changeFrequency: null,
        sitemapLastModified: null,
        etag: null,
      },
    ]);
    const csv = await run(["ls", s.url("/"), ...DUP, "-f", "csv", "--sitemap-columns"]);
    const rows = csv.stdout.split("\r\n");
    assert.deepEqual(rows.map((row) => row.replace(/,[0-9T:.Z-]{24}$/, ",DATE")), [
      "url,lastmod,changefreq,priority,sitemap,sitemap_last_modified,etag,download_date",
      `https://site.test/a,,,0.5,${o}/a.xml,2024-05-01T10:00:00.000Z,"""v1,a""",DATE`,
      `https://site.test/b,,,0.5,${o}/b.xml,,,DATE`,
      "",
    ]);
  });
});

Deno.test("deno task ls and main pass a command through: `deno task ls lint URL` lints, `deno task main -- lint` finds the showcase clean", async () => {
  await withSite(smallSite(), async (s) => {
    const deno = quote(Deno.execPath());
    const lint = await bash(`${deno} task ls lint ${quote(s.url("/"))} -k --no-feeds`);
    assert.equal(lint.status, 1, lint.stderr);
    assert.equal(lines(lint.stdout).at(-1), "2 errors, 0 warnings in 4 sitemaps (3 pages)");
    const ls = await bash(`${deno} task ls ${quote(s.url("/"))} -k --no-feeds -f pages`);
    assert.deepEqual([ls.status, lines(ls.stdout).length], [0, 3]);
  });
  // `npm run main` runs `deno task main --`: the README's showcase on the bundled demo site,
  // a clean site, so lint prints its one summary line and exits 0.
  const summary = await bash(`${Deno.execPath()} task main -- -f summary`);
  assert.equal(summary.status, 0, summary.stderr);
  assert.match(
    summary.stdout,
    /\n13 sitemaps \(0 invalid\), 29 pages: 29 distinct, 0 duplicates; [\d.]+ kB downloaded\n$/,
  );
  const lint = await bash(`${Deno.execPath()} task main -- lint`);
  assert.deepEqual([lint.status, lint.stdout], [0, "No problems in 13 sitemaps (29 pages)\n"]);
  // All of stderr is deno task's own "Task main …" line: lint writes nothing there.
  assert.deepEqual(lines(lint.stderr).map((line) => /Task\S* \S*main/.test(line)), [true]);
});

Deno.test("ls -f json and ndjson decode extensions as they parse (eager); --extensions lazy leaves them to the writer", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/s.xml\n`)
    .file("/s.xml", realisticUrlset(300, 3));
  await withSite(site, async (server) => {
    for (const format of ["json", "ndjson"]) {
      const args = ["ls", server.url("/"), "-k", "--no-feeds", "-f", format];
      const before = keptExtrasStats.decodes;
      const eager = await run(args);
      const afterEager = keptExtrasStats.decodes;
      const lazy = await run([...args, "--extensions", "lazy"]);
      assert.deepStrictEqual(
        [eager.status, afterEager - before, lazy.status, keptExtrasStats.decodes - afterEager],
        [0, 0, 0, 1],
        format,
      );
      assert.ok(eager.stdout.includes('"images":[{"loc":'), format);
      assert.strictEqual(eager.stdout, lazy.stdout, format);
    }
  });
});
