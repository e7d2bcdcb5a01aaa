/**
 * Faults under load: an index of 50 children, a seeded 30% of which fail in
 * one of five ways (connection reset, 500, timeout, garbage, truncated gzip),
 * the rest answering with jittered latency. Every good child's pages must be
 * present, every failure must carry its reason, and the same seed must give
 * the same tree, whatever the timing and whether parsing runs on workers.
 */
import { rng } from "./parse/_fuzz.ts";
import { constants as zlibConstants, gunzipSync } from "node:zlib";
import { assert, assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { InvalidSitemap } from "../src/objects/sitemap.ts";
import { gzip } from "../fixtures/generate.ts";
import { indexOf, urlsetOf } from "../fixtures/hostile.ts";
import { FixtureSite, withSite } from "./_tree_helpers.ts";
import { runtimeName } from "../fixtures/serve.ts";

/** The runtime's fetch error for a body cut short (these tests also run under Bun). */
const BODY_CUT = runtimeName() === "bun"
  ? "ECONNRESET: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()"
  : "error reading a body from connection";

const CHILDREN = 50;
const FAILING = 15; // 30%
const PAGES_PER_CHILD = 20;
// Also the parse job's allowance on a worker: generous, since worker start-up
// on a busy 2-core machine is slow and a spurious timeout would be a flake.
const TIMEOUT_MS = 2_000;
const KINDS = ["reset", "500", "timeout", "garbage", "truncated-gzip"] as const;
type Kind = typeof KINDS[number] | "good";

interface Plan {
  readonly kinds: readonly Kind[];
  readonly site: FixtureSite;
  /** Per child, the pages the tree must hold (empty for failures without any). */
  readonly pages: readonly (readonly string[])[];
}

function childPath(i: number): string {
  return `/c/${String(i).padStart(2, "0")}.xml`;
}

/** Page URLs with a hash-like slug, so that gzip cannot squeeze a child into its header. */
function childPages(i: number): string[] {
  const next = rng(i + 1);
  return Array.from(
    { length: PAGES_PER_CHILD },
    (_, k) =>
      `https://site.test/child/${i}/${k}-${Math.floor(next() * 0x1_0000_0000).toString(16)}`,
  );
}

/** The entries a truncated gzip still holds: every `<url>` closed before the cut. */
function completeEntries(truncated: Uint8Array): string[] {
  const text = new TextDecoder().decode(
    gunzipSync(truncated, { finishFlush: zlibConstants.Z_SYNC_FLUSH }),
  );
  return [...text.matchAll(/<url><loc>([^<]*)<\/loc><\/url>/g)].map((m) => m[1]!);
}

/** Builds the site for `seed`: which children fail, how, and what each good one holds. */
function plan(seed: number): Plan {
  const next = rng(seed);
  const order = Array.from({ length: CHILDREN }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const kinds: Kind[] = Array.from({ length: CHILDREN }, () => "good");
  // Every kind fails three children: a seeded choice of which.
  order.slice(0, FAILING).forEach((child, n) => kinds[child] = KINDS[n % KINDS.length]!);

  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", indexOf(Array.from({ length: CHILDREN }, (_, i) => childPath(i))));
  const pages: string[][] = [];
  for (let i = 0; i < CHILDREN; i++) {
    const path = childPath(i);
    const doc = urlsetOf(childPages(i));
    const latencyMs = Math.floor(next() * 40);
    switch (kinds[i]) {
      case "good":
        // Half the good children are gzipped files, as big sites serve them.
        site.file(path, i % 2 === 0 ? gzip(doc) : doc, { latencyMs });
        pages.push(childPages(i));
        break;
      case "reset":
        site.reset(path, doc.slice(0, doc.length >> 1), { latencyMs });
        pages.push([]);
        break;
      case "500":
        site.status(path, 500, { latencyMs });
        pages.push([]);
        break;
      case "timeout":
        site.hang(path);
        pages.push([]);
        break;
      case "garbage": {
        // Starts like markup, so it is read as XML and refused with a reason.
        const bytes = new Uint8Array(2_000);
        for (let k = 0; k < bytes.length; k++) bytes[k] = Math.floor(next() * 256);
        bytes[0] = 0x3c;
        site.file(path, bytes, { latencyMs, contentType: "application/xml" });
        pages.push([]);
        break;
      }
      case "truncated-gzip": {
        const whole = gzip(doc);
        const cut = whole.slice(0, Math.floor(whole.length * (0.4 + next() * 0.4)));
        site.file(path, cut, { latencyMs, contentType: "application/gzip" });
        pages.push(completeEntries(cut));
        break;
      }
    }
  }
  return { kinds, site, pages };
}

const options: SitemapTreeOptions = {
  useKnownPaths: false,
  timeoutMs: TIMEOUT_MS,
  retries: 2,
  concurrency: 4,
};

async function crawl(
  seed: number,
  workers: number,
): Promise<{ json: string; checked: number; partial: number }> {
  const { kinds, site, pages } = plan(seed);
  return await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.origin, { ...options, workers });
    const index = tree.subSitemaps[0]!.subSitemaps[0]!;
    assertEquals(index.subSitemaps.length, CHILDREN);
    const warnings = new Map(tree.stats.warnings.map((w) => [w.url, w.warning]));
    let checked = 0;
    let partial = 0;
    index.subSitemaps.forEach((child, i) => {
      const url = server.url(childPath(i));
      const kind = kinds[i]!;
      const reason = child instanceof InvalidSitemap ? child.reason : null;
      const got = { kind, url: child.url, reason, pages: child.pages.map((p) => p.url) };
      switch (kind) {
        case "good":
          assertEquals(got, { kind, url, reason: null, pages: pages[i] });
          break;
        case "reset":
          assertEquals(got, {
            kind,
            url,
            reason: `Unable to fetch sitemap from ${url}: ${BODY_CUT}`,
            pages: [],
          });
          assertEquals(site.count(childPath(i)), 3);
          break;
        case "500":
          assertEquals(got, {
            kind,
            url,
            reason: `Unable to fetch sitemap from ${url}: 500 Internal Server Error`,
            pages: [],
          });
          assertEquals(site.count(childPath(i)), 3);
          break;
        case "timeout":
          assertEquals(got, { kind, url, reason: `Timed out after ${TIMEOUT_MS} ms`, pages: [] });
          assertEquals(site.count(childPath(i)), 1);
          break;
        case "garbage":
          assert(reason?.startsWith("Not a sitemap: "), `garbage child ${i}: ${reason}`);
          break;
        case "truncated-gzip":
          if (pages[i]!.length === 0) {
            // Cut before the first complete entry: nothing to keep, and a reason.
            assert(reason?.startsWith("Not a sitemap: "), `truncated child ${i}: ${reason}`);
          } else {
            // The complete entries before the cut are kept, and a warning says why there are no more.
            assertEquals(got, { kind, url, reason: null, pages: pages[i] });
            assert(warnings.has(url), `no warning for truncated child ${i}`);
            partial++;
          }
          break;
      }
      checked++;
    });
    // Every failure is accounted for: invalid nodes in the stats, truncations as warnings.
    const failures = kinds.filter((k, i) =>
      k !== "good" && (k !== "truncated-gzip" || pages[i]!.length === 0)
    ).length;
    assertEquals(tree.stats.invalid.length, failures);
    // Each run listens on its own port: the origin is the one thing allowed to differ.
    return {
      json: JSON.stringify(tree).replaceAll(server.origin, "http://site"),
      checked,
      partial,
    };
  });
}

Deno.test("faults: 50 children, a seeded 30% failing five ways, keep every good page and give every reason", async () => {
  const first = await crawl(20240501, 0);
  assertEquals(first.checked, CHILDREN);
  // This seed cuts two of its three truncated gzips after some complete entries.
  assertEquals(first.partial, 2);
});

Deno.test("faults: the same seed gives the same tree, on the calling thread and on workers", async () => {
  const inThread = await crawl(7, 0);
  const onWorkers = await crawl(7, 2);
  assertEquals(onWorkers.json, inThread.json);
  // And a different seed fails different children.
  const other = await crawl(8, 0);
  assert(other.json !== inThread.json, "seeds 7 and 8 gave the same tree");
});
