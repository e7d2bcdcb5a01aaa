/**
 * `sitemap-tree report`: the page it writes (from a crawl, a snapshot, a
 * `-f json` file, stdin), `--against`, `--no-problems`, the file written
 * whole, usage errors and exit statuses. What the page looks like in a
 * browser is `report_browser_test.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveVersion } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { encodeSitemapTree, sitemapTreeForHomepage } from "../../mod.ts";
import { replaceFile } from "../../src/runtime/mod.ts";
import { withSite } from "../_tree_helpers.ts";
import { PAGES_XML, run, smallSite } from "./_run.ts";

/** Runs `body` with a fresh temporary directory, removed afterwards. */
async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sitemap-report-cli-"));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .replace(/ ([,;.)])/g, "$1")
    .replace(/\( /g, "(");
}

/** The sitemaps of `smallSite()`, in tree order. */
function smallSitemaps(origin: string): string[] {
  return ["/robots.txt", "/index.xml", "/pages.xml", "/missing.xml"].map((path) => origin + path);
}

/** A port nothing listens on: one the OS just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

Deno.test("report URL -o FILE writes one page with every sitemap, the totals and the problems", async () => {
  await withDir(async (dir) => {
    await withSite(smallSite(), async (s) => {
      const out = join(dir, "site.html");
      const result = await run(["report", s.url("/"), "-o", out]);
      assert.deepEqual(result, { status: 0, stdout: "", stderr: "" });
      // Written whole: no temporary file beside it.
      assert.deepEqual(readdirSync(dir), ["site.html"]);
      const html = readFileSync(out, "utf8");
      assert.ok(html.startsWith("<!doctype html>\n"), html.slice(0, 40));
      const text = textOf(html);
      for (const url of smallSitemaps(s.origin)) assert.ok(text.includes(url), url);
      assert.ok(text.includes("Outcome Sitemaps found"), text.slice(0, 400));
      assert.ok(text.includes("Problems 2 errors, 0 warnings; 4 sitemaps and 3 pages checked."));
      assert.ok(text.includes("Pages on another host than their sitemap cross-host error 1"));
      assert.ok(
        text.includes("Sitemaps that could not be fetched or read invalid-sitemap error 1"),
      );
    });
  });
});

Deno.test("report --no-problems leaves the check out; --sample and --depth reach the page", async () => {
  await withDir(async (dir) => {
    await withSite(smallSite(), async (s) => {
      const out = join(dir, "site.html");
      const result = await run([
        "report",
        s.url("/"),
        "-o",
        out,
        "--no-problems",
        "--sample",
        "1",
        "--depth",
        "2",
      ]);
      assert.deepEqual(result, { status: 0, stdout: "", stderr: "" });
      const text = textOf(readFileSync(out, "utf8"));
      assert.ok(text.includes("Problems Not checked for this report (report --no-problems"));
      assert.ok(text.includes("Open a sitemap to see its first page URL."), "sample 1");
      assert.ok(text.includes("Distinct pages per path prefix of 2 segments"), "depth 2");
    });
  });
});

Deno.test("report -o - writes the page to stdout and no file", async () => {
  await withDir(async (dir) => {
    await withSite(smallSite(), async (s) => {
      const result = await run(["report", s.url("/"), "-o", "-", "--no-problems"]);
      assert.deepEqual([result.status, result.stderr], [0, ""]);
      assert.ok(result.stdout.startsWith("<!doctype html>\n"));
      assert.ok(result.stdout.endsWith("</html>\n"));
      assert.ok(textOf(result.stdout).includes(`${s.origin}/index.xml`));
      assert.deepEqual(readdirSync(dir), []);
    });
  });
});

Deno.test("report reads a snapshot, a -f json file, stdin and a sitemap file, without network", async () => {
  await withDir(async (dir) => {
    let origin = "";
    await withSite(smallSite(), async (s) => {
      origin = s.origin;
      const tree = await sitemapTreeForHomepage(s.url("/"), { workers: 0 });
      writeFileSync(join(dir, "site.snapshot"), encodeSitemapTree(tree));
      const json = await run(["ls", s.url("/"), "-f", "json"]);
      assert.equal(json.status, 0);
      writeFileSync(join(dir, "site.json"), json.stdout);
    });
    // The site is gone: these read the files only.
    const fromSnapshot = await run([
      "report",
      join(dir, "site.snapshot"),
      "-o",
      join(dir, "a.html"),
    ]);
    assert.deepEqual(fromSnapshot, { status: 0, stdout: "", stderr: "" });
    const snapshotText = textOf(readFileSync(join(dir, "a.html"), "utf8"));
    for (const url of smallSitemaps(origin)) assert.ok(snapshotText.includes(url), url);
    // A snapshot keeps the crawl's counters: the outcome, statuses and sizes.
    assert.ok(snapshotText.includes("Outcome Sitemaps found Crawled"), snapshotText.slice(0, 300));
    assert.ok(snapshotText.includes("404 Not Found"));

    const fromJson = await run(["report", join(dir, "site.json"), "-o", join(dir, "b.html")]);
    assert.deepEqual(fromJson, { status: 0, stdout: "", stderr: "" });
    const jsonText = textOf(readFileSync(join(dir, "b.html"), "utf8"));
    for (const url of smallSitemaps(origin)) assert.ok(jsonText.includes(url), url);
    assert.ok(jsonText.includes("Outcome Read without a crawl"), jsonText.slice(0, 300));

    const fromStdin = await run(["report", "-", "-o", "-", "--no-problems"], {
      stdin: readFileSync(join(dir, "site.json"), "utf8"),
    });
    assert.deepEqual([fromStdin.status, fromStdin.stderr], [0, ""]);
    assert.ok(textOf(fromStdin.stdout).includes(`${origin}/pages.xml`));

    // A sitemap document is read as ls FILE reads it, under its file's URL.
    writeFileSync(join(dir, "pages.xml"), PAGES_XML("https://example.com"));
    const fromSitemap = await run(["report", join(dir, "pages.xml"), "-o", "-", "--no-problems"]);
    assert.deepEqual([fromSitemap.status, fromSitemap.stderr], [0, ""]);
    const sitemapText = textOf(fromSitemap.stdout);
    assert.ok(sitemapText.includes(`file://${join(dir, "pages.xml")}`), sitemapText.slice(0, 300));
    assert.ok(sitemapText.includes("https://example.com/about?a=1,2"));
  });
});

Deno.test("report --against SNAPSHOT|JSON shows what changed since the earlier crawl", async () => {
  await withDir(async (dir) => {
    await withSite(serveVersion(new FixtureSite(), "v1"), async (s, fixture) => {
      const crawl = ["-k", "--no-feeds", "--retries", "0"];
      const before = await run(["ls", s.url("/"), ...crawl, "-f", "json"]);
      writeFileSync(join(dir, "v1.json"), before.stdout);
      const v1 = await sitemapTreeForHomepage(s.url("/"), {
        workers: 0,
        useKnownPaths: false,
        useFeeds: false,
      });
      writeFileSync(join(dir, "v1.snapshot"), encodeSitemapTree(v1));
      serveVersion(fixture, "v2");
      for (const earlier of ["v1.snapshot", "v1.json"]) {
        const out = join(dir, `${earlier}.html`);
        const result = await run([
          "report",
          s.url("/"),
          ...crawl,
          "-o",
          out,
          "--against",
          join(dir, earlier),
        ]);
        assert.deepEqual(result, { status: 0, stdout: "", stderr: "" }, earlier);
        const html = readFileSync(out, "utf8");
        const text = textOf(html);
        // added, removed, changed, unavailable, unchanged
        assert.ok(text.includes("Changes since the earlier crawl"), earlier);
        assert.ok(text.includes("Pages 2 2 3 2 4"), earlier);
        const list = (kind: string) =>
          [...(html.match(new RegExp(`<ol class="sample" id="pages-${kind}">(.*?)</ol>`))?.[1] ??
            "").matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]).sort();
        assert.deepEqual(list("added"), ["https://shop.test/new1", "https://shop.test/p11"]);
        assert.deepEqual(list("removed"), ["https://shop.test/p7", "https://shop.test/p8"]);
        assert.deepEqual(list("changed"), [
          "https://shop.test/p1",
          "https://shop.test/p2",
          "https://shop.test/p5",
        ]);
        assert.deepEqual(list("unavailable"), ["https://shop.test/p10", "https://shop.test/p9"]);
      }
    });
  });
});

Deno.test("report still writes the page when the site publishes no sitemap (3) or cannot be reached (1)", async () => {
  await withDir(async (dir) => {
    await withSite(new FixtureSite(), async (s) => {
      const out = join(dir, "none.html");
      assert.deepEqual(await run(["report", s.url("/"), "-o", out]), {
        status: 3,
        stdout: "",
        stderr: "sitemap-tree: no sitemap found (robots.txt 404; no well-known path answered)\n",
      });
      const text = textOf(readFileSync(out, "utf8"));
      assert.ok(
        text.includes(
          "Outcome No sitemap found",
        ) && text.includes("no sitemap found (robots.txt 404; no well-known path answered)"),
        text.slice(0, 400),
      );
    });
    const port = await closedPort();
    const out = join(dir, "down.html");
    assert.deepEqual(
      await run(["report", `http://127.0.0.1:${port}/`, "-o", out, "--retries", "0"]),
      {
        status: 1,
        stdout: "",
        stderr: `sitemap-tree: connection refused (127.0.0.1:${port})\n`,
      },
    );
    const text = textOf(readFileSync(out, "utf8"));
    assert.ok(text.includes("Outcome Site unreachable"), text.slice(0, 400));
    assert.ok(text.includes(`connection refused (127.0.0.1:${port})`));
  });
});

Deno.test("report interrupted mid-crawl exits 130 and writes no page", async () => {
  await withDir(async (dir) => {
    const site = smallSite().hang("/index.xml");
    await withSite(site, async (s) => {
      const interrupt = new AbortController();
      const waitForHang = (async () => {
        while (site.count("/index.xml") === 0) await new Promise((r) => setTimeout(r, 20));
        interrupt.abort();
      })();
      const out = join(dir, "site.html");
      const result = await run(["report", s.url("/"), "-k", "-o", out], {
        signal: interrupt.signal,
      });
      await waitForHang;
      assert.deepEqual(result, { status: 130, stdout: "", stderr: "sitemap-tree: Interrupted\n" });
      assert.deepEqual(readdirSync(dir), []);
    });
  });
});

Deno.test("report exits 1 and writes nothing for a saved tree it cannot use", async () => {
  await withDir(async (dir) => {
    writeFileSync(join(dir, "page.html"), "<html><body>Not found</body></html>");
    writeFileSync(join(dir, "broken.json"), '{"type":"urlset",');
    writeFileSync(join(dir, "other.json"), '{"type":"page"}');
    const tree = await sitemapTreeForHomepage("http://127.0.0.1:9/", {
      fetch: () => Promise.resolve(new Response("Sitemap: http://127.0.0.1:9/a.txt\n")),
      workers: 0,
      useKnownPaths: false,
    });
    const snapshot = encodeSitemapTree(tree);
    snapshot[snapshot.length - 1]! ^= 1;
    writeFileSync(join(dir, "damaged.snapshot"), snapshot);
    const out = join(dir, "out.html");
    const cases: [string, string][] = [
      [
        "page.html",
        "Not a snapshot (ls --save), a JSON tree (ls -f json) or a sitemap: Not a sitemap: the document's root element is <html>",
      ],
      ["broken.json", "Not a JSON tree (ls -f json): "],
      ["other.json", `Not a JSON tree (ls -f json): Expected "type" at $ to be one of `],
      ["damaged.snapshot", "Snapshot checksum mismatch: the file is damaged"],
    ];
    for (const [name, reason] of cases) {
      for (const args of [[join(dir, name)], [tree.url, "--against", join(dir, name)]]) {
        const result = await run(["report", ...args, "-o", out]);
        assert.deepEqual([result.status, result.stdout], [1, ""], name);
        assert.ok(
          result.stderr.startsWith(`sitemap-tree: ${join(dir, name)}: ${reason}`),
          result.stderr,
        );
        assert.equal(result.stderr.split("\n").length, 2, result.stderr);
      }
    }
    assert.deepEqual(readdirSync(dir).includes("out.html"), false);
  });
});

Deno.test("report names the flag or value of every usage error (exit 2)", async () => {
  await withDir(async (dir) => {
    mkdirSync(join(dir, "sub"));
    const url = "http://127.0.0.1:9/";
    const cases: [string[], string][] = [
      [["report", url], "Missing -o FILE: where the report goes (- for stdout)"],
      [["report", url, "-o", ""], "Option -o needs a file name (or - for stdout)"],
      [
        ["report", url, "-o", join(dir, "nope", "x.html")],
        `Option -o: no such directory ${JSON.stringify(join(dir, "nope"))}`,
      ],
      [
        ["report", url, "--out", join(dir, "sub")],
        `Option --out names a directory: ${JSON.stringify(join(dir, "sub"))}`,
      ],
      [
        ["report", url, "-o", "-", "--sample", "-1"],
        'Option --sample must be an integer >= 0, got "-1"',
      ],
      [
        ["report", url, "-o", "-", "--depth", "one"],
        'Option --depth must be an integer >= 0, got "one"',
      ],
      [
        ["report", url, "-o", "-", "--against", join(dir, "missing.snapshot")],
        `Option --against: no such file ${JSON.stringify(join(dir, "missing.snapshot"))}`,
      ],
      [
        ["report", join(dir, "missing.json"), "-o", "-"],
        `No such file ${
          JSON.stringify(join(dir, "missing.json"))
        } (a URL starts with http:// or https://)`,
      ],
      [
        ["report", "-", "-o", "-", "--against", "-"],
        "Option --against and the operand cannot both read stdin (-)",
      ],
      [
        ["report", url, "-o", "-", "--json"],
        "Option --json in report applies to --stats; add --stats",
      ],
      [["report", url, "-o", "-", "--format", "csv"], 'Unknown option "--format"'],
      [
        ["report", "ftp://example.com/", "-o", "-"],
        'URL must be http or https, got "ftp://example.com/"',
      ],
      [["report", "-o", "-"], "Missing URL|FILE|-"],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual(
        await run(args),
        {
          status: 2,
          stdout: "",
          stderr: `sitemap-tree: ${message}; see sitemap-tree report --help\n`,
        },
        args.join(" "),
      );
    }
    assert.deepEqual(readdirSync(dir), ["sub"]);
  });
});

Deno.test("report --help says the page is written whatever the outcome; the program's help lists report", async () => {
  const help = await run(["report", "--help"]);
  assert.equal(help.status, 0);
  assert.ok(help.stdout.startsWith("usage: sitemap-tree report [options] URL|FILE|-\n"));
  for (
    const line of [
      "  -o, --out FILE          where the report goes (required); - for stdout\n",
      "      --sample N          page URLs listed per sitemap and per kind of change (default 20)\n",
      "      --no-problems       leave out the protocol problems",
      "      --max-sitemaps N    sitemaps fetched at most (default 10000)\n",
      "1 the site could not be reached (the report is written and\nsays so)",
      "3 the site answered but publishes no sitemap (the\nreport is written and says so)",
    ]
  ) {
    assert.ok(help.stdout.includes(line), line);
  }
  const program = await run(["--help"]);
  assert.ok(
    program.stdout.includes(
      "\n  report   write a site's sitemaps as one self-contained HTML page\n",
    ),
  );
});

Deno.test("replaceFile() leaves the old file or the new one, and no temporary file", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "report.html");
    await replaceFile(file, new TextEncoder().encode("old"));
    await replaceFile(file, new TextEncoder().encode("new"));
    assert.equal(readFileSync(file, "utf8"), "new");
    // A rename that fails (onto a directory that is not empty) keeps what was there.
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "taken", "keep"), "kept");
    await assert.rejects(replaceFile(join(dir, "taken"), new TextEncoder().encode("new")));
    assert.deepEqual(readdirSync(dir).sort(), ["report.html", "taken"]);
    assert.equal(readFileSync(join(dir, "taken", "keep"), "utf8"), "kept");
  });
});
