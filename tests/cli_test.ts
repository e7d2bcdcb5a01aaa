import assert from "node:assert/strict";
import { main } from "../cli.ts";
import { CLEAR_LINE } from "../src/cli/_progress.ts";
import { screen } from "./cli/_terminal.ts";
import { sitemapTreeFromJSON } from "../src/objects/from_json.ts";
import { VERSION } from "../src/version.ts";
import { generatedPage, generateUrlset } from "../fixtures/generate.ts";
import { FixtureSite } from "../fixtures/site.ts";
import { withSite } from "./_tree_helpers.ts";
import {
  bash,
  CLI,
  INDEX_XML,
  lines,
  PAGES_XML,
  quote,
  ROBOTS_TXT,
  ROOT,
  run,
  smallSite,
} from "./cli/_run.ts";

const missing = (o: string): string =>
  `Unable to fetch sitemap from ${o}/missing.xml: 404 Not Found`;

Deno.test("ls prints the tab tree, with -u stripping only the site's own URLs", async () => {
  await withSite(smallSite(), async (s) => {
    const tree = await run(["ls", s.url("/")]);
    assert.deepEqual(tree, {
      status: 0,
      stderr: "",
      stdout: [
        `${s.origin}/`,
        `\t${s.origin}/robots.txt`,
        `\t\t${s.origin}/index.xml`,
        `\t\t\t${s.origin}/pages.xml`,
        `\t\t\t\t${s.origin}/`,
        `\t\t\t\t${s.origin}/about?a=1,2`,
        `\t\t\t\thttps://other.example/x`,
        `\t\t\t${s.origin}/missing.xml  [invalid: ${missing(s.origin)}]`,
        "",
      ].join("\n"),
    });
    const stripped = await run(["ls", "-u", s.url("/")]);
    assert.deepEqual(lines(stripped.stdout), [
      `${s.origin}/`,
      `\t/robots.txt`,
      `\t\t/index.xml`,
      `\t\t\t/pages.xml`,
      `\t\t\t\t/`,
      `\t\t\t\t/about?a=1,2`,
      `\t\t\t\thttps://other.example/x`,
      `\t\t\t/missing.xml  [invalid: ${missing(s.origin)}]`,
    ]);
  });
});

Deno.test("ls -f pages, json, ndjson and csv print the pages in tree order", async () => {
  await withSite(smallSite(), async (s) => {
    const o = s.origin;
    const pages = await run(["ls", s.url("/"), "-f", "pages"]);
    assert.deepEqual(pages, {
      status: 0,
      stderr: "",
      stdout: `${o}/\n${o}/about?a=1,2\nhttps://other.example/x\n`,
    });
    assert.equal(
      (await run(["ls", s.url("/"), "--format=pages", "--strip-url"])).stdout,
      `/\n/about?a=1,2\nhttps://other.example/x\n`,
    );

    const json = await run(["ls", s.url("/"), "-f", "json"]);
    assert.equal(json.status, 0);
    assert.equal(lines(json.stdout).length, 1, "one line of compact JSON");
    const tree = sitemapTreeFromJSON(JSON.parse(json.stdout));
    assert.deepEqual([...tree.allPages()].map((p) => p.url), [
      `${o}/`,
      `${o}/about?a=1,2`,
      "https://other.example/x",
    ]);
    assert.deepEqual([...tree.allSitemaps()].map((n) => [n.type, n.url]), [
      ["robots", `${o}/robots.txt`],
      ["index", `${o}/index.xml`],
      ["urlset", `${o}/pages.xml`],
      ["invalid", `${o}/missing.xml`],
    ]);
    assert.equal(JSON.stringify(tree.toJSON()) + "\n", json.stdout, "it is toJSON() exactly");

    const ndjson = await run(["ls", s.url("/"), "-f", "ndjson"]);
    assert.deepEqual(lines(ndjson.stdout), [
      `{"url":"${o}/","sitemap":"${o}/pages.xml","lastModified":"2024-05-01T00:00:00.000Z","priority":1,"changeFrequency":"daily"}`,
      `{"url":"${o}/about?a=1,2","sitemap":"${o}/pages.xml","lastModified":null,"priority":0.5,"changeFrequency":null}`,
      `{"url":"https://other.example/x","sitemap":"${o}/pages.xml","lastModified":null,"priority":0.5,"changeFrequency":null}`,
    ]);

    const csv = await run(["ls", s.url("/"), "-f", "csv"]);
    assert.equal(
      csv.stdout,
      "url,lastmod,changefreq,priority,sitemap\r\n" +
        `${o}/,2024-05-01T00:00:00.000Z,daily,1,${o}/pages.xml\r\n` +
        `"${o}/about?a=1,2",,,0.5,${o}/pages.xml\r\n` +
        `https://other.example/x,,,0.5,${o}/pages.xml\r\n`,
    );
  });
});

Deno.test("ls --since keeps pages changed since, or undated", async () => {
  await withSite(smallSite(), async (s) => {
    const after = await run(["ls", s.url("/"), "-f", "pages", "--since", "2024-05-02"]);
    assert.equal(after.stdout, `${s.origin}/about?a=1,2\nhttps://other.example/x\n`);
    const at = await run(["ls", s.url("/"), "-f", "pages", "--since", "2024-05-01"]);
    assert.equal(lines(at.stdout).length, 3);
  });
});

Deno.test("ls -r, -k, --no-feeds and --extra-path choose where to look", async () => {
  const site = smallSite()
    .file("/sitemap.xml", (o) => generateUrlset(1, { host: o }))
    .file("/custom.txt", (o) => `${o}/from-custom\n`);
  await withSite(site, async (s) => {
    const o = s.origin;
    const noRobots = await run(["ls", s.url("/"), "-r", "-f", "pages"]);
    assert.equal(noRobots.stdout, generatedPage(0, { host: o }).loc + "\n");
    assert.equal(site.count("/robots.txt"), 0);

    site.clearLog();
    const noKnown = await run(["ls", s.url("/"), "-k", "-f", "pages"]);
    assert.equal(lines(noKnown.stdout).length, 3);
    // "/" is the homepage, read for feed links.
    assert.deepEqual(site.log.map((r) => r.path).sort(), [
      "/",
      "/index.xml",
      "/missing.xml",
      "/pages.xml",
      "/robots.txt",
    ]);

    site.clearLog();
    await run(["ls", s.url("/"), "-k", "--no-feeds"]);
    assert.deepEqual(site.log.map((r) => r.path).sort(), [
      "/index.xml",
      "/missing.xml",
      "/pages.xml",
      "/robots.txt",
    ]);

    const extra = await run(["ls", s.url("/"), "-r", "--extra-path", "custom.txt"]);
    assert.deepEqual(lines(extra.stdout), [
      `${o}/`,
      `\t${o}/sitemap.xml`,
      `\t\t${generatedPage(0, { host: o }).loc}`,
      `\t${o}/custom.txt`,
      `\t\t${o}/from-custom`,
    ]);
  });
});

Deno.test("ls sends --header and --user-agent on every request", async () => {
  const site = smallSite();
  await withSite(site, async (s) => {
    const result = await run([
      "ls",
      s.url("/"),
      "-k",
      "--header",
      "X-Probe: one",
      "--header=Accept-Language: de",
      "--user-agent",
      "cli-test/1.0",
      "--concurrency",
      "1",
      "--timeout",
      "5000",
      "--max-depth",
      "5",
      "--workers",
      "0",
    ]);
    assert.equal(result.status, 0);
    assert.equal(site.log.length, 5, "robots.txt, 3 sitemaps and the homepage (feed links)");
    for (const request of site.log) {
      assert.equal(request.headers["x-probe"], "one", request.path);
      assert.equal(request.headers["accept-language"], "de", request.path);
      assert.equal(request.headers["user-agent"], "cli-test/1.0", request.path);
    }
  });
});

Deno.test("ls --max-depth 0 marks children of robots.txt as too deep", async () => {
  await withSite(smallSite(), async (s) => {
    const result = await run(["ls", s.url("/"), "-k", "--max-depth", "0"]);
    assert.equal(result.status, 0);
    const out = lines(result.stdout);
    assert.equal(out[1], `\t${s.origin}/robots.txt`);
    assert.match(
      out[2]!,
      /^\t\thttp:\/\/127\.0\.0\.1:\d+\/index\.xml {2}\[invalid: Recursion level exceeded/,
    );
  });
});

Deno.test("ls -v logs each sitemap fetched or invalid, -vv every event, -l to a file", async () => {
  await withSite(smallSite(), async (s) => {
    const o = s.origin;
    const v = await run(["ls", s.url("/"), "-k", "-v", "-f", "pages"]);
    assert.equal(v.status, 0);
    assert.equal(lines(v.stdout).length, 3);
    // The fixtures are ASCII: characters are bytes.
    assert.deepEqual(lines(v.stderr).sort(), [
      `fetched ${o}/index.xml (${INDEX_XML(o).length} bytes)`,
      `fetched ${o}/pages.xml (${PAGES_XML(o).length} bytes)`,
      `fetched ${o}/robots.txt (${ROBOTS_TXT(o).length} bytes)`,
      `invalid ${o}/missing.xml: ${missing(s.origin)}`,
    ]);

    const vv = await run(["ls", s.url("/"), "-k", "-vv", "-f", "pages"]);
    const detail = lines(vv.stderr);
    assert.equal(detail.length, 7, vv.stderr);
    for (const line of detail) {
      assert.match(
        line,
        /^(fetched|parsed|invalid) http:\/\/127\.0\.0\.1:\d+\/\S+.* in \d+\.\d (ms|s); sitemaps \d+ done \/ \d+ queued, pages \d+, \d+(\.\d)? k?B, \d+\.\d s$/,
      );
    }
    assert.ok(detail.some((l) => l.startsWith(`parsed ${o}/pages.xml (3 pages) in `)));

    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/ls.log`;
      await Deno.writeTextFile(file, "earlier line\n");
      const logged = await run(["ls", s.url("/"), "-k", "-v", "--log-file", file, "-f", "pages"]);
      assert.deepEqual([logged.status, logged.stderr], [0, ""]);
      const logLines = lines(await Deno.readTextFile(file));
      assert.equal(logLines[0], "earlier line", "the log file is appended to");
      assert.deepEqual(logLines.slice(1).sort(), lines(v.stderr).sort());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("ls --stats reports the root's counters on stderr after the output", async () => {
  await withSite(smallSite(), async (s) => {
    const result = await run(["ls", s.url("/"), "-k", "--stats", "-f", "pages"]);
    assert.equal(result.status, 0);
    assert.equal(lines(result.stdout).length, 3);
    const report = lines(result.stderr);
    assert.deepEqual(report.slice(0, 4), [
      "sitemaps      4 (robots 1, index 1, urlset 1, invalid 1)",
      "invalid       1",
      `  ${s.origin}/missing.xml: ${missing(s.origin)}`,
      "requests      5",
    ]);
    assert.match(report[4]!, /^downloaded {4}\d+ B$/);
    assert.match(report[5]!, /^decompressed {2}\d+ B$/);
    assert.equal(report[6], "pages         3 found, 3 kept");
    assert.match(report[7]!, /^parse time {4}\d+\.\d m?s$/);
    assert.match(report[8]!, /^elapsed {7}\d+\.\d m?s$/);
    assert.equal(report.length, 9);
  });
});

Deno.test("ls --cache reuses unchanged sitemaps on the next run (304s)", async () => {
  const site = new FixtureSite();
  // Answers a matching If-None-Match with 304, as a real server with ETags does.
  const etagged = (path: string, body: (origin: string) => string): void => {
    site.route(path, (c) => {
      if (c.req.header("if-none-match") === '"v1"') {
        return new Response(null, { status: 304, headers: { etag: '"v1"' } });
      }
      return new Response(body(new URL(c.req.url).origin), {
        headers: { etag: '"v1"', "content-type": "application/xml" },
      });
    });
  };
  etagged("/robots.txt", ROBOTS_TXT);
  etagged("/index.xml", INDEX_XML);
  etagged("/pages.xml", PAGES_XML);
  const dir = await Deno.makeTempDir();
  try {
    await withSite(site, async (s) => {
      const args = [
        "ls",
        s.url("/"),
        "-k",
        "--no-feeds",
        "--cache",
        `${dir}/cache`,
        "--stats",
        "-v",
        "--log-file",
        `${dir}/log`,
      ];
      const first = await run(args);
      const second = await run(args);
      assert.deepEqual([first.status, second.status], [0, 0]);
      assert.equal(second.stdout, first.stdout);
      assert.equal(lines(first.stdout).length, 8);
      assert.ok(!first.stderr.includes("not modified"), first.stderr);
      assert.ok(
        lines(second.stderr).includes("not modified  3 (304, reused from the cache)"),
        second.stderr,
      );
      const o = s.origin;
      const log = lines(await Deno.readTextFile(`${dir}/log`));
      assert.deepEqual(log.slice(4).sort(), [
        `invalid ${o}/missing.xml: ${missing(o)}`,
        `unchanged ${o}/index.xml (not parsed: 304 Not Modified or skipped)`,
        `unchanged ${o}/pages.xml (not parsed: 304 Not Modified or skipped)`,
        `unchanged ${o}/robots.txt (not parsed: 304 Not Modified or skipped)`,
      ]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ls draws the progress line only on a terminal and erases it before the output", async () => {
  const site = smallSite();
  site.latencyMs = 150;
  await withSite(site, async (s) => {
    const o = s.origin;
    const shown = await run(["ls", s.url("/"), "-k", "-v"], { terminal: true });
    assert.equal(shown.status, 0);
    assert.ok(shown.stderr.startsWith(CLEAR_LINE + "sitemaps "), "drawn in place");
    assert.match(
      shown.stderr.slice(CLEAR_LINE.length),
      /^sitemaps \d+ done \/ \d+ queued · pages \d+ · \d+ B · \d\.\d s/,
    );
    // Log lines go above the line; at the end the line is erased and the cursor
    // waits at the start of an empty line for the output.
    assert.ok(shown.stderr.endsWith(CLEAR_LINE));
    const rendered = screen(shown.stderr);
    assert.equal(rendered.pop(), "");
    assert.deepEqual(rendered.sort(), [
      `fetched ${o}/index.xml (${INDEX_XML(o).length} bytes)`,
      `fetched ${o}/pages.xml (${PAGES_XML(o).length} bytes)`,
      `fetched ${o}/robots.txt (${ROBOTS_TXT(o).length} bytes)`,
      `invalid ${o}/missing.xml: ${missing(o)}`,
    ]);
    assert.equal(lines(shown.stdout).length, 8);

    const quiet = await run(["ls", s.url("/"), "-k"], { terminal: false });
    assert.deepEqual([quiet.status, quiet.stderr], [0, ""]);
    assert.equal(quiet.stdout, shown.stdout);
  });
});

Deno.test("ls stops quietly with status 0 when the reader closes the pipe", async () => {
  await withSite(smallSite(), async (s) => {
    let writes = 0;
    const closed = await run(["ls", s.url("/"), "-f", "pages"], {
      stdoutWrite: () => {
        writes++;
        return Promise.reject(new Deno.errors.BrokenPipe("Broken pipe (os error 32)"));
      },
    });
    assert.deepEqual(closed, { status: 0, stdout: "", stderr: "" });
    assert.equal(writes, 1);

    const failed = await run(["ls", s.url("/"), "-f", "pages"], {
      stdoutWrite: () => Promise.reject(new Error("No space left on device")),
    });
    assert.deepEqual(failed, {
      status: 1,
      stdout: "",
      stderr: "sitemap-tree: Cannot write the output: No space left on device\n",
    });
  });
});

Deno.test("ls interrupted mid-crawl erases the progress line and exits 130", async () => {
  const site = smallSite().hang("/index.xml");
  await withSite(site, async (s) => {
    const interrupt = new AbortController();
    const waitForHang = (async () => {
      while (site.count("/index.xml") === 0) await new Promise((r) => setTimeout(r, 20));
      // Long enough for the progress line to be drawn at least once.
      await new Promise((r) => setTimeout(r, 250));
      interrupt.abort();
    })();
    const result = await run(["ls", s.url("/"), "-k"], {
      terminal: true,
      signal: interrupt.signal,
    });
    await waitForHang;
    assert.equal(result.status, 130);
    assert.equal(result.stdout, "");
    assert.ok(result.stderr.startsWith(CLEAR_LINE + "sitemaps "), "the line was drawn");
    assert.deepEqual(screen(result.stderr), ["sitemap-tree: Interrupted", ""]);
  });
});

Deno.test("ls exits 1 when the log file cannot be opened, before any request", async () => {
  const site = smallSite();
  await withSite(site, async (s) => {
    const result = await run(["ls", s.url("/"), "-l", "/nonexistent-dir/ls.log"]);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^sitemap-tree: Cannot open log file "\/nonexistent-dir\/ls\.log": .+\n$/,
    );
    assert.equal(site.log.length, 0);
  });
});

Deno.test("main() answers --help and --version on stdout, usage errors with 2 and one line on stderr", async () => {
  const help = await run(["--help"]);
  assert.equal(help.status, 0);
  assert.ok(
    help.stdout.startsWith("usage: sitemap-tree COMMAND [options] ...\n\nCommands:\n  ls "),
  );
  assert.ok(help.stdout.includes("\n  lint  "));
  assert.equal(help.stderr, "");
  const lsHelp = await run(["ls", "--help"]);
  assert.ok(lsHelp.stdout.startsWith("usage: sitemap-tree ls [options] URL|FILE|-\n"));
  const lintHelp = await run(["lint", "-h"]);
  assert.ok(lintHelp.stdout.startsWith("usage: sitemap-tree lint [options] URL\n"));
  assert.deepEqual(await run(["ls", "--version"]), {
    status: 0,
    stdout: `${VERSION}\n`,
    stderr: "",
  });
  let noneErr = "";
  const none = await main([], {
    stdout: { write: () => Promise.resolve() },
    stderr: {
      write(chunk) {
        noneErr += new TextDecoder().decode(chunk);
        return Promise.resolve();
      },
    },
    stderrIsTerminal: false,
  });
  assert.equal(none, 2);
  assert.equal(noneErr, `sitemap-tree: Missing command\n\n${help.stdout}`);
  for (
    const [args, message, command] of [
      [["ls"], "Missing URL|FILE|-", "ls"],
      [["ls", "ftp://example.com/"], 'URL must be http or https, got "ftp://example.com/"', "ls"],
      [["ls", "http://127.0.0.1:9/", "--bogus"], 'Unknown option "--bogus"', "ls"],
      [
        ["ls", "http://127.0.0.1:9/", "--concurrency", "x"],
        'Option --concurrency must be an integer >= 1, got "x"',
        "ls",
      ],
      [
        ["lint", "http://127.0.0.1:9/", "--header", "X-A: 日本"],
        'Option --header value must be Latin-1 (HTTP header values are bytes; percent-encode others), got "X-A: 日本"',
        "lint",
      ],
      [
        ["lint", "http://127.0.0.1:9/", "--examples", "0"],
        'Option --examples must be an integer >= 1, got "0"',
        "lint",
      ],
      [["lint", "urls.txt"], 'lint reads a URL (http:// or https://), got "urls.txt"', "lint"],
      [
        ["ls", "no-such-file.xml"],
        'No such file "no-such-file.xml" (a URL starts with http:// or https://)',
        "ls",
      ],
      [
        ["frobnicate"],
        'Unknown command "frobnicate" (one of ls, lint, diff, watch, report, batch, enqueue, worker)',
        null,
      ],
    ] as const
  ) {
    const result = await run([...args]);
    assert.deepEqual(result, {
      status: 2,
      stdout: "",
      stderr: `sitemap-tree: ${message}; see sitemap-tree${
        command === null ? "" : ` ${command}`
      } --help\n`,
    }, args.join(" "));
  }
});

Deno.test("cli.ts as a process (Deno and Bun): | head ends it quietly with 0; usage errors exit 2", async () => {
  // Far more output than a pipe buffers, so the writer really meets the closed pipe.
  const site = new FixtureSite()
    .file("/robots.txt", (o) => `Sitemap: ${o}/big.xml\n`)
    .file("/big.xml", (o) => generateUrlset(20_000, { host: o }));
  await withSite(site, async (s) => {
    const deno = quote(Deno.execPath());
    const head = await bash(
      `${deno} run -A ${quote(CLI)} ls ${quote(s.url("/"))} -k -f pages | head -n 3`,
    );
    assert.equal(head.stderr, "");
    assert.equal(head.status, 0);
    assert.deepEqual(lines(head.stdout).map((l) => l.replace(/\/[a-z]+$/, "")), [
      `${s.origin}/page/0`,
      `${s.origin}/page/1`,
      `${s.origin}/page/2`,
    ]);

    // The same pipe under Bun, whose streams are node:process ones.
    const bun = new URL("node_modules/.bin/bun", ROOT).pathname;
    const bunHead = await bash(
      `${quote(bun)} ${quote(CLI)} ls ${quote(s.url("/"))} -k -f pages | head -n 3`,
    );
    assert.deepEqual(bunHead, head);

    const usage = await bash(`${deno} run -A ${quote(CLI)} ls ${quote(s.url("/"))} --format xml`);
    assert.equal(usage.status, 2);
    assert.equal(usage.stdout, "");
    assert.equal(
      lines(usage.stderr)[0],
      'sitemap-tree: Option --format must be one of tabtree, pages, json, ndjson, csv, summary, histogram, sections, got "xml"; see sitemap-tree ls --help',
    );
  });
});

Deno.test("cli.ts as a process: Ctrl-C (SIGINT) during the crawl exits 130 with one line, SIGTERM 143", async () => {
  for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    const site = smallSite().hang("/index.xml");
    await withSite(site, async (s) => {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, "ls", s.url("/"), "-k"],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      while (site.count("/index.xml") === 0) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
      const output = await child.output();
      const decoder = new TextDecoder();
      assert.deepEqual(
        [output.code, output.signal, decoder.decode(output.stdout), decoder.decode(output.stderr)],
        [status, null, "", "sitemap-tree: Interrupted\n"],
        signal,
      );
    });
  }
});
