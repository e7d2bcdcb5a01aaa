import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import process from "node:process";
import { main } from "../../cli.ts";
import { batchProgressText, finishedSites } from "../../src/cli/batch.ts";
import { serveSites } from "../../fixtures/sites.ts";

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(
  args: string[],
  stdoutWrite?: (chunk: Uint8Array) => Promise<void>,
): Promise<Run> {
  const decoder = new TextDecoder();
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    stdout: {
      write: stdoutWrite ?? ((chunk) => {
        stdout += decoder.decode(chunk);
        return Promise.resolve();
      }),
    },
    stderr: {
      write: (chunk) => {
        stderr += decoder.decode(chunk);
        return Promise.resolve();
      },
    },
    stderrIsTerminal: false,
  });
  return { status, stdout, stderr };
}

/** The summary fields that do not depend on timing, for exact comparison. */
function stable(line: string): string {
  const { ms: _, reason, ...rest } = JSON.parse(line);
  // An unreachable site's reason names its port; keep the kind of failure.
  return JSON.stringify({ ...rest, reason: reason === null ? null : String(reason).split(":")[0] });
}

async function withSites<T>(
  count: number,
  body: (dir: string, list: string, homepages: readonly string[]) => Promise<T>,
): Promise<T> {
  const sites = await serveSites({ count });
  const dir = mkdtempSync(join(tmpdir(), "batch-test-"));
  const list = join(dir, "sites.txt");
  writeFileSync(list, `# fixture sites\n\n${sites.homepages.join("\n")}\nnot a url\n`);
  try {
    return await body(dir, list, sites.homepages);
  } finally {
    await sites.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A scratch directory for one test, removed afterwards. */
async function inTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "batch-test-"));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

Deno.test("batch writes one summary line per site, comments and blank lines skipped", async () => {
  await withSites(15, async (dir, list, homepages) => {
    const out = join(dir, "out.ndjson");
    const result = await run(["batch", list, "--out", out, "--workers", "0", "--retries", "0"]);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, "");
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 16);
    const byHomepage = new Map(lines.map((l) => [JSON.parse(l).homepage as string, stable(l)]));
    const at = (i: number) => JSON.parse(byHomepage.get(homepages[i]!)!);
    assert.deepEqual(at(0), {
      homepage: homepages[0],
      status: "ok",
      reason: null,
      sitemaps: 4,
      invalidSitemaps: 0,
      pages: 10,
      distinctPages: 10,
      bytes: at(0).bytes,
      requests: 18,
    });
    assert.deepEqual(
      { ...at(3), bytes: 0 },
      {
        homepage: homepages[3],
        status: "ok",
        reason: null,
        sitemaps: 1,
        invalidSitemaps: 0,
        pages: 5,
        distinctPages: 5,
        bytes: 0,
        requests: 16,
      },
    );
    assert.deepEqual(at(7), {
      homepage: homepages[7],
      status: "no-sitemaps",
      reason: "no sitemap found (robots.txt 404; no well-known path answered)",
      sitemaps: 0,
      invalidSitemaps: 0,
      pages: 0,
      distinctPages: 0,
      bytes: at(7).bytes,
      requests: 16,
    });
    assert.equal(at(13).status, "unreachable");
    assert.equal(at(13).reason, "connection refused (127.0.0.2");
    assert.equal(at(13).pages, 0);
    assert.deepEqual(JSON.parse(byHomepage.get("not a url")!), {
      homepage: "not a url",
      status: "invalid-input",
      reason: "Homepage URL is not a valid URL",
      sitemaps: 0,
      invalidSitemaps: 0,
      pages: 0,
      distinctPages: 0,
      bytes: 0,
      requests: 0,
    });
  });
});

Deno.test("batch --format pages writes each page with its site and sitemap, then the site's summary", async () => {
  await withSites(4, async (_dir, list, homepages) => {
    const result = await run(["batch", list, "-f", "pages", "--workers", "0", "--retries", "0"]);
    assert.equal(result.status, 0);
    const lines = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const h = homepages[0]!;
    const origin = h.slice(0, -1);
    const site0 = lines.filter((l) => l.site === h);
    assert.equal(site0.length, 11);
    assert.deepEqual(site0[0], {
      site: h,
      url: `${origin}/post/0`,
      sitemap: `${origin}/posts.xml`,
      lastModified: "2024-01-01T00:00:00.000Z",
      priority: 0.5,
      changeFrequency: null,
    });
    assert.equal(site0[10].summary.status, "ok");
    assert.equal(site0[10].summary.pages, 10);
    assert.equal(site0[10].homepage, undefined);
    // 3 index sites x 10 pages and 1 known-path site x 5, each with a summary, plus "not a url".
    assert.equal(lines.length, 3 * 11 + 6 + 1);
    assert.deepEqual(lines.filter((l) => l.site === "not a url").map((l) => l.summary.status), [
      "invalid-input",
    ]);
  });
});

Deno.test("batch --resume skips finished sites and cuts a half-written site", async () => {
  await withSites(6, async (dir, list, homepages) => {
    const out = join(dir, "out.ndjson");
    const full = await run(["batch", list, "-o", out, "-f", "pages", "--workers", "0"]);
    assert.equal(full.status, 0);
    const complete = readFileSync(out, "utf8");
    const lines = complete.split("\n");
    // Keep the first two finished sites, then half of the third site's lines and half a line.
    const ends = lines.flatMap((l, i) => (l.includes('"summary":') ? [i] : []));
    const kept = lines.slice(0, ends[1]! + 1).join("\n") + "\n";
    const partial = lines.slice(ends[1]! + 1, ends[1]! + 3).join("\n") + "\n" +
      lines[ends[1]! + 3]!.slice(0, 20);
    writeFileSync(out, kept + partial);
    const firstTwo = [...finishedSites(out)];
    assert.equal(firstTwo.length, 2);
    assert.equal(readFileSync(out, "utf8"), kept);
    const resumed = await run([
      "batch",
      list,
      "-o",
      out,
      "-f",
      "pages",
      "--resume",
      "--workers",
      "0",
    ]);
    assert.equal(resumed.status, 0);
    const after = readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    const summaries = after.filter((l) => l.summary !== undefined).map((l) => l.site as string);
    assert.deepEqual([...summaries].sort(), [...homepages, "not a url"].sort());
    assert.equal(after.length, complete.trimEnd().split("\n").length);
    assert.deepEqual(summaries.slice(0, 2), firstTwo);
  });
});

Deno.test("batch crawls a site listed 50 times once, whatever the spelling, and says how many lines it skipped", async () => {
  const sites = await serveSites({ count: 2 });
  try {
    await inTempDir(async (dir) => {
      const [home, other] = sites.homepages as [string, string];
      const origin = home.slice(0, -1);
      // 47 times as written, then CRLF, a trailing \r, an upper-case scheme with a path, another site.
      const spellings = [`${home}\r`, ` ${home} \r`, `${origin.toUpperCase()}/blog?page=2`];
      const list = join(dir, "sites.txt");
      writeFileSync(list, [...Array(47).fill(home), ...spellings, other].join("\r\n") + "\n");
      const result = await run(["batch", list, "--workers", "0", "--retries", "0"]);
      assert.equal(result.status, 0);
      assert.deepEqual(
        result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).homepage).sort(),
        [home, other].sort(),
      );
      assert.equal(
        result.stderr,
        "sitemap-tree batch: Skipped 49 duplicate homepages (the same site as an earlier line)\n",
      );
      assert.equal(sites.requestsFor(home, "/robots.txt"), 1);
    });
  } finally {
    await sites.close();
  }
});

Deno.test("batch: a line that is not a URL is invalid-input, its reason cut to 200 characters", async () => {
  await inTempDir(async (dir) => {
    const list = join(dir, "sites.txt");
    const long = `http://exa mple.com/${"a".repeat(3000)}`;
    writeFileSync(list, `ftp://example.com/\n${long}\n`);
    const result = await run(["batch", list, "--workers", "0"]);
    assert.deepEqual([result.status, result.stderr], [0, ""]);
    const [ftp, bad] = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual([ftp.status, ftp.reason], [
      "invalid-input",
      'Homepage URL must be http(s), got "ftp://example.com/"',
    ]);
    assert.equal(bad.homepage, long);
    assert.equal(bad.status, "invalid-input");
    assert.equal(bad.reason, `Homepage URL is not a valid URL: "${long}`.slice(0, 199) + "…");
  });
});

Deno.test("batch of an input without homepages says so on stderr", async () => {
  await inTempDir(async (dir) => {
    const list = join(dir, "sites.txt");
    for (const text of ["", "# only a comment\n\n  \n"]) {
      writeFileSync(list, text);
      const result = await run(["batch", list]);
      assert.deepEqual(result, {
        status: 0,
        stdout: "",
        stderr:
          `sitemap-tree batch: No homepages in ${list} (blank lines and # comments are skipped)\n`,
      });
    }
  });
});

Deno.test("batch writes no terminal control codes to a stderr that is not a terminal", async () => {
  await inTempDir(async (dir) => {
    const list = join(dir, "sites.txt");
    writeFileSync(list, "not a url\n");
    const full = () => Promise.reject(new Error("No space left on device (os error 28)"));
    const result = await run(["batch", list, "--workers", "0"], full);
    assert.deepEqual([result.status, result.stderr], [
      1,
      "sitemap-tree batch: No space left on device (os error 28)\n",
    ]);
  });
});

Deno.test("batch, enqueue and worker usage errors name the flag and exit 2; an unreadable input exits 1", async () => {
  const see = (command: string) => `; see sitemap-tree ${command} --help\n`;
  const cases: [string[], string][] = [
    [["batch"], "sitemap-tree: Missing FILE|-" + see("batch")],
    [
      ["batch", "x.txt", "--format", "csv"],
      'sitemap-tree: Option --format must be one of summary, pages, changes, got "csv"' +
      see("batch"),
    ],
    [
      ["batch", "x.txt", "--site-concurrency", "0"],
      'sitemap-tree: Option --site-concurrency must be an integer >= 1, got "0"' + see("batch"),
    ],
    [
      ["batch", "x.txt", "--resume"],
      "sitemap-tree: Option --resume needs --out FILE" + see("batch"),
    ],
    [["worker", "--out", "d"], "sitemap-tree: worker needs --redis URL" + see("worker")],
    [
      ["worker", "--redis", "http://x", "--out", "d"],
      'sitemap-tree: Option --redis must be a redis:// URL, got "http://x"' + see("worker"),
    ],
    [
      ["worker", "x", "--redis", "redis://a"],
      "sitemap-tree: worker takes no operands, got 1: x" + see("worker"),
    ],
    [
      ["enqueue", "--redis", "redis://127.0.0.1:1"],
      "sitemap-tree: Missing FILE|-" + see("enqueue"),
    ],
  ];
  for (const [args, stderr] of cases) {
    const result = await run(args);
    assert.deepEqual([result.status, result.stderr], [2, stderr]);
  }
  const missing = await run(["batch", "/nonexistent/sites.txt"]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^sitemap-tree batch: Cannot read \/nonexistent\/sites\.txt: /);
});

Deno.test("batchProgressText() shows done/total, pages, failures, rate and ETA", () => {
  assert.equal(
    batchProgressText({ done: 120, total: 1000, pages: 12345, failures: 3 }, 2_000),
    "sites 120/1,000 · pages 12,345 · failures 3 · 60.0 sites/s · ETA 15 s",
  );
  assert.equal(
    batchProgressText({ done: 0, total: null, pages: 0, failures: 0 }, 0),
    "sites 0/? · pages 0 · failures 0 · 0.0 sites/s",
  );
});

Deno.test("batch - reads the homepages from stdin (a process of this runtime)", async () => {
  const sites = await serveSites({ count: 3 });
  const cliPath = new URL("../../cli.ts", import.meta.url).pathname;
  const [command, args] = "Bun" in globalThis
    ? [process.execPath, [cliPath]]
    : [Deno.execPath(), ["run", "-A", "--no-check", cliPath]];
  try {
    const child = spawn(command, [...args, "batch", "-", "--workers", "0"]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => stdout += chunk);
    child.stderr.on("data", (chunk) => stderr += chunk);
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end(`# three sites\n${sites.homepages.join("\n")}\n`);
    assert.deepEqual([await exited, stderr], [0, ""]);
    const lines = stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.homepage, l.status, l.pages]).sort(),
      sites.homepages.map((h) => [h, "ok", 10]).sort(),
    );
  } finally {
    await sites.close();
  }
});
