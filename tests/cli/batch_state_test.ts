/**
 * `batch FILE --state DIR`: per-site state beside the run, summary lines
 * with each site's state and change counts, `--format changes` with the
 * site on each change line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { PAGE_CHANGE_FIELDS, SnapshotStore } from "../../mod.ts";
import { serveSitemaps, serveVersion } from "../../fixtures/changing_site.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { lines, run } from "./_run.ts";

const CRAWL = ["--no-known", "--no-feeds", "--retries", "0", "--no-progress"];

const NO_CHANGE = {
  pages: { added: 0, removed: 0, changed: 0, unavailable: 0, unchanged: 6 },
  sitemaps: { added: 0, removed: 0, changed: 0, unavailable: 0, unchanged: 5 },
  fields: Object.fromEntries(PAGE_CHANGE_FIELDS.map((field) => [field, 0])),
};

/** The records of a batch output, by homepage (or site), without the timing. */
function records(stdout: string): Record<string, unknown>[] {
  return lines(stdout).map((line) => {
    const { ms: _, summary, ...record } = JSON.parse(line);
    if (summary === undefined) return record;
    const { ms: __, ...rest } = summary;
    return { ...record, summary: rest };
  });
}

Deno.test("batch --state records each site, then adds each site's state and change counts to its summary; --format changes writes the changes with the site", async () => {
  const changing = serveVersion(new FixtureSite(), "v1");
  const steady = serveSitemaps(new FixtureSite(), 3, 2);
  const a = await changing.listen();
  const b = await steady.listen();
  const down = await new FixtureSite().listen();
  await down.close();
  const dir = mkdtempSync(join(tmpdir(), "batch-state-"));
  const list = join(dir, "sites.txt");
  const state = join(dir, "state");
  writeFileSync(
    list,
    [`${a.origin}/`, `${b.origin}/`, `${down.origin}/`, "not a url", ""].join("\n"),
  );
  const batch = async (...flags: string[]) => {
    const result = await run(["batch", list, "--state", state, ...CRAWL, ...flags]);
    assert.deepEqual([result.status, result.stderr], [0, ""]);
    return records(result.stdout);
  };
  const pick = (rs: Record<string, unknown>[], key: string) =>
    Object.fromEntries(
      rs.map((r) => [
        r.homepage,
        Object.fromEntries(Object.entries(r).filter(([k]) => k === "status" || k.startsWith(key))),
      ]),
    );
  try {
    const first = await batch();
    assert.deepEqual(pick(first, "state"), {
      [`${a.origin}/`]: { status: "ok", state: "recorded" },
      [`${b.origin}/`]: { status: "ok", state: "recorded" },
      [`${down.origin}/`]: { status: "unreachable", state: "kept" },
      "not a url": { status: "invalid-input", state: "kept" },
    });
    assert.ok(first.every((r) => r.changes === null));
    const store = new SnapshotStore(state);
    assert.deepEqual(
      readdirSync(state).sort(),
      ["cache", basename(store.fileOf(`${a.origin}/`)), basename(store.fileOf(`${b.origin}/`))]
        .sort(),
    );

    serveVersion(changing, "v2");
    const second = await batch();
    const byHome = Object.fromEntries(second.map((r) => [r.homepage, r]));
    assert.deepEqual(byHome[`${a.origin}/`]!.state, "updated");
    assert.deepEqual(byHome[`${a.origin}/`]!.changes, {
      pages: { added: 2, removed: 2, changed: 3, unavailable: 2, unchanged: 4 },
      sitemaps: { added: 1, removed: 1, changed: 1, unavailable: 0, unchanged: 5 },
      fields: { ...NO_CHANGE.fields, lastModified: 1, images: 1, sitemap: 1 },
    });
    assert.deepEqual(byHome[`${b.origin}/`]!.changes, NO_CHANGE);
    assert.deepEqual(pick(second, "state")[`${down.origin}/`], {
      status: "unreachable",
      state: "kept",
    });

    // Still v2: a's 503 urlset is said again; its pages were kept, none are added or removed.
    const changes = await batch("--format", "changes");
    const mine = changes.filter((r) => r.site === `${a.origin}/`);
    const reason = `Unable to fetch sitemap from ${a.origin}/e.xml: 503 Service Unavailable`;
    assert.deepEqual(mine.slice(0, -1), [
      {
        site: `${a.origin}/`,
        change: "changed",
        sitemap: `${a.origin}/e.xml`,
        fields: ["type", "reason"],
        before: { type: "urlset", reason: null },
        after: { type: "invalid", reason },
      },
      {
        site: `${a.origin}/`,
        change: "unavailable",
        page: "https://shop.test/p9",
        sitemap: `${a.origin}/e.xml`,
        reason,
      },
      {
        site: `${a.origin}/`,
        change: "unavailable",
        page: "https://shop.test/p10",
        sitemap: `${a.origin}/e.xml`,
        reason,
      },
    ]);
    assert.equal((mine.at(-1)!.summary as { state: string }).state, "updated");
    // Every site ends with its summary line; b has no change line.
    assert.deepEqual(
      changes.filter((r) => r.summary !== undefined).map((r) => r.site).sort(),
      [`${a.origin}/`, `${b.origin}/`, `${down.origin}/`, "not a url"].sort(),
    );
    assert.deepEqual(changes.filter((r) => r.site === `${b.origin}/`).length, 1);
  } finally {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("batch --format changes needs --state", async () => {
  assert.deepEqual(await run(["batch", "-", "--format", "changes"]), {
    status: 2,
    stdout: "",
    stderr:
      "sitemap-tree: Option --format changes needs --state DIR (the state to compare with); " +
      "see sitemap-tree batch --help\n",
  });
});
