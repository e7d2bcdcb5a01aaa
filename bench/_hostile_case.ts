/**
 * One hostile case, measured in a fresh process; `bench/hostile.ts` spawns it.
 *
 *     deno run -A --v8-flags=--expose-gc bench/_hostile_case.ts '<json config>'
 *
 * The config names the case, the site's origin (served by the parent, so the
 * server's own memory is not counted here) and the options of the call. The
 * process warms up with a crawl of the good sitemap alone (modules, JIT,
 * worker code), collects garbage, resets Linux's peak-RSS counter through
 * `/proc/self/clear_refs`, then runs the case and prints one JSON line:
 * what became of the hostile sitemap, whether every good page is there, the
 * call's wall time, the hostile sitemap's own time, and RSS before and at peak.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { SitemapParserPool } from "../src/workers/parser_pool.ts";
import type { SitemapProgressEvent, SitemapTreeOptions } from "../src/options.ts";
import { GOOD_PAGES, hostileCase, METADATA_HOME, metadataFetch } from "../fixtures/hostile.ts";

/** What the parent sends. */
export interface CaseConfig {
  readonly name: string;
  /** The hostile site's origin (unused by injected cases). */
  readonly origin: string;
  /** The liar's origin, shortened to `LIAR` in reasons. */
  readonly liarOrigin: string;
  /** JSON-able options of the call. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** What the child prints. */
export interface CaseResult {
  readonly name: string;
  /** The hostile sitemaps' fate: reasons (grouped, with counts) or pages kept. */
  readonly outcome: string;
  /** Good pages found, of GOOD_PAGES.length. */
  readonly goodPages: number;
  /** The whole `sitemapTreeForHomepage()` call, milliseconds. */
  readonly callMs: number;
  /** The slowest hostile sitemap's own time (its onProgress event), milliseconds. */
  readonly caseMs: number;
  /**
   * The longest span from a hostile body's arrival to its node (decompress and
   * parse, on a worker: start-up included), milliseconds; null when no hostile
   * body arrived.
   */
  readonly parseMs: number | null;
  /** CPU time of the call (user + system, all threads), milliseconds. */
  readonly cpuMs: number;
  /** RSS just before the call, MiB. */
  readonly baselineMiB: number;
  /** Peak RSS during the call (VmHWM), MiB. */
  readonly peakMiB: number;
}

function statusMiB(field: "VmRSS" | "VmHWM"): number {
  const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`${field}:\\s+(\\d+)`));
  if (match?.[1] === undefined) throw new Error(`No ${field} in /proc/self/status`);
  return Number(match[1]) / 1024;
}

function collectGarbage(): void {
  const g = globalThis as { gc?: () => void; Bun?: { gc(force: boolean): void } };
  if (g.gc) g.gc();
  else g.Bun?.gc(true);
}

/** The guard's policy note, the same on every refusal here: the table leaves it out. */
const POLICY = /; allowPrivateNetworks is "if-homepage-is" and the homepage is public/g;

/** Reasons with URLs and numbers folded, so 10,000 "limit reached" lines become one with a count. */
function summarise(
  invalid: readonly { url: string; reason: string }[],
  pages: number,
  strip: (text: string) => string,
): string {
  const groups = new Map<string, number>();
  for (const { url, reason } of invalid) {
    const text = strip(reason).replaceAll(strip(url), "<url>").replace(POLICY, "");
    groups.set(text, (groups.get(text) ?? 0) + 1);
  }
  const parts = [...groups].map(([text, n]) =>
    n > 1 ? `${n.toLocaleString("en")} × ${text}` : text
  );
  if (pages > 0) parts.push(`${pages.toLocaleString("en")} pages kept`);
  return parts.join("; ") || "no hostile sitemap reached";
}

async function run(config: CaseConfig): Promise<CaseResult> {
  const spec = hostileCase(config.name);
  const injected = spec.served === "injected" ? metadataFetch() : null;
  const home = injected === null ? config.origin : METADATA_HOME;
  const { pool: usePool, ...options } = config.options;
  // As a program would: workers started once, at start-up, outside the measurement.
  const pool = usePool === 1 ? new SitemapParserPool() : undefined;
  await pool?.ready();
  const base: SitemapTreeOptions = {
    ...(options as SitemapTreeOptions),
    ...(pool === undefined ? {} : { pool }),
    ...(injected === null ? {} : { fetch: injected.fetch }),
  };

  // Warm-up: the same code paths on the good sitemap alone.
  await sitemapTreeForHomepage(home, {
    ...base,
    useRobots: false,
    useKnownPaths: true,
    extraKnownPaths: ["/good.xml"],
  });
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 50));
  collectGarbage();
  const baselineMiB = statusMiB("VmRSS");
  writeFileSync("/proc/self/clear_refs", "5");

  const events: SitemapProgressEvent[] = [];
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const tree = await sitemapTreeForHomepage(home, {
    ...base,
    onProgress: (event) => events.push(event),
  });
  const callMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const peakMiB = statusMiB("VmHWM");
  pool?.close();

  const goodUrl = new URL("/good.xml", home).href;
  // /sitemap.xml is the good index when robots.txt is the attack, a quiet 404 otherwise.
  const goodUrls = new Set([goodUrl, new URL("/sitemap.xml", home).href]);
  const good = new Set(GOOD_PAGES);
  let goodPages = 0;
  let otherPages = 0;
  for (const page of tree.allPages()) {
    if (good.has(page.url)) goodPages++;
    else otherPages++;
  }
  const hostile = events.filter((e) => !goodUrls.has(e.url) && e.kind !== "fetched");
  const caseMs = Math.max(0, ...hostile.map((e) => e.ms));
  const arrived = new Map(
    events.filter((e) => e.kind === "fetched" && e.url !== goodUrl).map((
      e,
    ) => [e.url, e.elapsedMs]),
  );
  const spans = hostile.flatMap((e) => {
    const at = arrived.get(e.url);
    return at === undefined ? [] : [e.elapsedMs - at];
  });
  const strip = (text: string): string => {
    const short = text.replaceAll(home.replace(/\/$/, ""), "");
    return config.liarOrigin === "" ? short : short.replaceAll(config.liarOrigin, "LIAR");
  };
  return {
    name: config.name,
    outcome: summarise(tree.stats.invalid, otherPages, strip),
    goodPages,
    callMs,
    caseMs,
    parseMs: spans.length === 0 ? null : Math.max(...spans),
    cpuMs: (cpu.user + cpu.system) / 1000,
    baselineMiB,
    peakMiB,
  };
}

const config = JSON.parse(process.argv[process.argv.length - 1] ?? "{}") as CaseConfig;
const result = await run(config);
// No exit() here: the parent times how long the process takes to end on its
// own after this line, which shows whether the call left anything running.
console.log(JSON.stringify(result));
