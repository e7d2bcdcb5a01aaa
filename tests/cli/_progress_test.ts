import assert from "node:assert/strict";
import { SerialWriter } from "../../src/cli/_io.ts";
import { CLEAR_LINE, ProgressLine, progressText } from "../../src/cli/_progress.ts";
import type { SitemapProgressEvent } from "../../src/options.ts";

function event(overrides: Partial<SitemapProgressEvent> = {}): SitemapProgressEvent {
  return {
    kind: "parsed",
    url: "https://example.com/sitemap.xml",
    ms: 5,
    sitemapsDone: 12,
    sitemapsQueued: 3,
    pagesFound: 240_118,
    bytesDownloaded: 18_400_000,
    elapsedMs: 2300,
    ...overrides,
  };
}

/** A terminal stand-in: everything written, as one string. */
function terminal(): { out: SerialWriter; text: () => Promise<string> } {
  const chunks: Uint8Array[] = [];
  const out = new SerialWriter({
    write(chunk) {
      chunks.push(chunk);
      return Promise.resolve();
    },
  });
  const decoder = new TextDecoder();
  return {
    out,
    text: async () => {
      await out.flush();
      return chunks.map((c) => decoder.decode(c)).join("");
    },
  };
}

Deno.test("progressText() shows sitemaps, pages, bytes and seconds", () => {
  assert.equal(
    progressText(event(), 2345),
    "sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB · 2.3 s",
  );
  assert.equal(
    progressText({ sitemapsDone: 0, sitemapsQueued: 0, pagesFound: 0, bytesDownloaded: 0 }, 0),
    "sitemaps 0 done / 0 queued · pages 0 · 0 B · 0.0 s",
  );
});

Deno.test("ProgressLine draws in place, skips identical redraws, and erases itself", async () => {
  const t = terminal();
  let now = 1000;
  const line = new ProgressLine(t.out, { now: () => now });
  line.update(event());
  now += 2345;
  line.draw();
  line.draw();
  line.update(event({ sitemapsDone: 13, sitemapsQueued: 2 }));
  line.draw();
  line.stop();
  assert.equal(
    await t.text(),
    CLEAR_LINE + "sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB · 2.3 s" +
      CLEAR_LINE + "sitemaps 13 done / 2 queued · pages 240,118 · 18.4 MB · 2.3 s" +
      CLEAR_LINE,
  );
});

Deno.test("ProgressLine draws at start() and erases at stop(), however quick the crawl", async () => {
  const t = terminal();
  const line = new ProgressLine(t.out, { now: () => 0 });
  line.start();
  line.update(event());
  line.stop();
  assert.equal(
    await t.text(),
    CLEAR_LINE + "sitemaps 0 done / 0 queued · pages 0 · 0 B · 0.0 s" + CLEAR_LINE,
  );
});

Deno.test("ProgressLine puts log lines above itself and redraws", async () => {
  const t = terminal();
  const line = new ProgressLine(t.out, { now: () => 0 });
  line.log("before any drawing");
  line.update(event());
  line.draw();
  line.log("fetched https://example.com/robots.txt (87 bytes)");
  line.stop();
  const shown = "sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB · 0.0 s";
  assert.equal(
    await t.text(),
    "before any drawing\n" + CLEAR_LINE + shown +
      CLEAR_LINE + "fetched https://example.com/robots.txt (87 bytes)\n" + shown + CLEAR_LINE,
  );
});

Deno.test("ProgressLine cuts the line to one column less than the terminal", async () => {
  const t = terminal();
  const line = new ProgressLine(t.out, { columns: 21, now: () => 0 });
  line.update(event());
  line.draw();
  line.stop();
  assert.equal(await t.text(), CLEAR_LINE + "sitemaps 12 done / 3" + CLEAR_LINE);
});

Deno.test("ProgressLine redraws on its timer until stopped", async () => {
  const t = terminal();
  const line = new ProgressLine(t.out, { intervalMs: 5 });
  line.update(event());
  line.start();
  await new Promise((resolve) => setTimeout(resolve, 40));
  line.stop();
  const text = await t.text();
  assert.ok(
    text.startsWith(CLEAR_LINE + "sitemaps 12 done / 3 queued · pages 240,118 · 18.4 MB · "),
  );
  assert.ok(text.endsWith(CLEAR_LINE));
  const after = text.length;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal((await t.text()).length, after, "nothing is drawn after stop()");
});
