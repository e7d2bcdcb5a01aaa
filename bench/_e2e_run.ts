/**
 * One measured run of the end-to-end benchmark, meant to be a fresh process
 * (started by `bench/e2e.ts`), so its peak RSS belongs to this run alone.
 * Prints one JSON line of figures ({@linkcode RunFigures}).
 *
 *     deno run -A bench/_e2e_run.ts '{"case":"tree","origin":"http://127.0.0.1:PORT"}'
 *     bun bench/_e2e_run.ts '{"case":"tree","origin":"http://127.0.0.1:PORT","workers":2}'
 *     node dist/bench/bench/_e2e_run.js '{"case":"tree","origin":"http://127.0.0.1:PORT"}'
 *
 * (Node runs it built: `node node_modules/typescript/bin/tsc -p build/tsconfig.bench.json`.)
 *
 * Cases: `tree` (sitemapTreeForHomepage, then count allPages()), `bomb` (the
 * same call on a site whose robots.txt names only the bomb; the bomb's node
 * is timed from its request to its invalid event), `stream` (count
 * streamPages(), when mod.ts exports it), `fetch` (no library: plain
 * `fetch()` of robots.txt, its index and the index's children, `concurrency`
 * at a time, bodies read and dropped; `urls` counts the children), `gunzip`
 * (the single-thread floor: the same fetches, each body through
 * `DecompressionStream` and `TextDecoderStream` and counted with
 * `indexOf("<loc>")`, no objects; `urls` counts the `<loc>`s).
 *
 * Peak RSS is Linux's VmHWM at the end (workers are threads of this process,
 * so it covers them); the baseline is VmRSS just before the call, after the
 * library's modules have loaded. For `tree`, what the tree retains is read
 * after the iteration with the tree still referenced, after a full garbage
 * collection (Deno `--v8-flags=--expose-gc`, Node `--expose-gc`, Bun's own
 * `Bun.gc`): VmRSS then, and the JavaScript heap used plus external memory
 * (the columns are ArrayBuffers) — null when no collector can be called. Event-loop lag is the largest drift of a
 * 1 ms `setInterval` while the call runs: it covers the tree build, not the
 * synchronous allPages() loop afterwards, which holds the thread by design.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { lagMeter, statusMiB } from "./_peer_measure.mjs";
import * as sitemapTree from "../mod.ts";
import type { SitemapProgressEvent, SitemapTreeOptions } from "../mod.ts";

/** What the orchestrator asks for. */
export interface RunSpec {
  readonly case: "tree" | "bomb" | "stream" | "fetch" | "gunzip";
  readonly origin: string;
  readonly workers?: number;
  readonly since?: string;
  /** @default {false}: the reference reads robots.txt only. */
  readonly useKnownPaths?: boolean;
  /** @default {4} */
  readonly concurrency?: number;
  /**
   * Start a `SitemapParserPool` (of `workers`, or the default count) before
   * the measured call and pass it as `pool`, as a program would at start-up
   * (the reference creates its process pool once at start-up too). Its
   * start-up is not in the call's time or lag; its memory is in the
   * baseline and the peak.
   */
  readonly pool?: boolean;
}

/** One line of output. */
export interface RunFigures {
  readonly case: string;
  readonly runtime: string;
  readonly urls: number;
  /** The awaited call (tree build), or the whole stream for `stream`. */
  readonly treeMs: number;
  /** Iterating allPages() and reading each URL (`tree` only). */
  readonly iterMs: number;
  readonly totalMs: number;
  /**
   * CPU time of the whole process (all threads: main and workers) during the
   * call and the iteration. Unlike wall time it barely moves when other
   * processes compete for the cores.
   */
  readonly cpuMs: number;
  /**
   * The same CPU time by thread (10 ms resolution): the main thread, the
   * runtime's helper threads (V8's GC and compiler threads, I/O), and the
   * parse workers (the threads that ended with the call).
   */
  readonly cpuByThread: {
    readonly main: number;
    readonly workers: number;
    readonly helpers: number;
  };
  /** Largest drift of a 1 ms timer during the call (not the iteration). */
  readonly lagMs: number;
  /** When (ms into the call) that largest drift ended. */
  readonly lagAtMs: number;
  readonly baselineMiB: number;
  readonly peakMiB: number;
  /** VmHWM when the call returned, before the iteration (`tree` only; else = peakMiB). */
  readonly peakTreeMiB: number;
  /**
   * `tree` only, after the iteration and a full collection, the tree still
   * referenced: VmRSS (allocator retention included) and the JavaScript heap
   * used plus external memory (what is live); null without a collector.
   */
  readonly retained?: { readonly rssMiB: number; readonly liveMiB: number } | null;
  readonly sitemaps: number;
  readonly invalid: readonly string[];
  /** `bomb`: from the bomb's request to its invalid node, and its fetch alone. */
  readonly bombMs?: number;
  readonly bombFetchMs?: number;
  /** Phase timeline from onProgress (ms since the call started). */
  readonly phases: Phases;
}

/** Where the time went, from progress events. */
export interface Phases {
  /** The first pages sitemap's body arrived. */
  readonly firstFetchedAt: number;
  /** The last pages sitemap's body arrived. */
  readonly lastFetchedAt: number;
  /** The last pages sitemap was in the tree. */
  readonly lastParsedAt: number;
  /** Per pages sitemap: body arrived -> node in the tree (queue + transfer + worker + receive), median and max. */
  readonly parseMedianMs: number;
  readonly parseMaxMs: number;
  /** Per pages sitemap: request -> body arrived (slot wait + latency + transfer), median. */
  readonly fetchMedianMs: number;
}

const runtime = "Bun" in globalThis
  ? `Bun ${process.versions.bun}`
  : "Deno" in globalThis
  ? `Deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}`
  : `Node ${process.versions.node}`;

/** CPU ms used so far by each thread of this process, by thread id (Linux). */
function threadCpu(): Map<string, { name: string; ms: number }> {
  const threads = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      threads.set(tid, { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

/**
 * Splits `totalMs` into the main thread, the parse workers (Deno names their
 * threads "worker-N"; workers already terminated count here too, as the
 * part of `totalMs` no live thread accounts for) and the runtime's other
 * helper threads still alive.
 */
function cpuByThread(
  before: Map<string, { name: string; ms: number }>,
  totalMs: number,
): RunFigures["cpuByThread"] {
  let main = 0;
  let workers = 0;
  let helpers = 0;
  for (const [tid, { name, ms }] of threadCpu()) {
    const used = ms - (before.get(tid)?.ms ?? 0);
    if (tid === String(process.pid)) main += used;
    else if (/^worker/i.test(name)) workers += used;
    else helpers += used;
  }
  return {
    main,
    workers: workers + Math.max(0, Math.round(totalMs - main - workers - helpers)),
    helpers,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function phasesOf(events: readonly SitemapProgressEvent[]): Phases {
  const fetched = new Map<string, SitemapProgressEvent>();
  const parseMs: number[] = [];
  const fetchMs: number[] = [];
  let first = Infinity;
  let lastFetched = 0;
  let lastParsed = 0;
  for (const event of events) {
    if (event.kind === "fetched") {
      fetched.set(event.url, event);
      continue;
    }
    if (event.kind !== "parsed" || !(event.pages! > 0)) continue;
    const got = fetched.get(event.url);
    if (got === undefined) continue;
    first = Math.min(first, got.elapsedMs);
    lastFetched = Math.max(lastFetched, got.elapsedMs);
    lastParsed = Math.max(lastParsed, event.elapsedMs);
    parseMs.push(event.elapsedMs - got.elapsedMs);
    fetchMs.push(got.ms);
  }
  return {
    firstFetchedAt: round(first === Infinity ? NaN : first),
    lastFetchedAt: round(lastFetched),
    lastParsedAt: round(lastParsed),
    parseMedianMs: round(median(parseMs)),
    parseMaxMs: round(parseMs.length === 0 ? NaN : Math.max(...parseMs)),
    fetchMedianMs: round(median(fetchMs)),
  };
}

/**
 * What any client pays for the site's round trips: robots.txt, the index it
 * names, then the index's children `concurrency` at a time, with plain
 * `fetch()` and nothing parsed beyond finding the URLs.
 */
async function fetchOnly(
  origin: string,
  concurrency: number,
  read: (response: Response) => Promise<number> = async (r) => (await r.arrayBuffer(), 1),
): Promise<number> {
  const robots = await (await fetch(new URL("/robots.txt", origin))).text();
  const index = await (await fetch(/Sitemap:\s*(\S+)/i.exec(robots)![1]!)).text();
  const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  let next = 0;
  let counted = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < children.length) {
      const n = await read(await fetch(children[next++]!));
      counted += n;
    }
  }));
  return counted;
}

/** The floor's reading of one body: gunzip, decode, count `<loc>`, keep nothing. */
async function countLocs(response: Response): Promise<number> {
  const text = response.body!.pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new TextDecoderStream());
  let count = 0;
  let carry = "";
  for await (const chunk of text) {
    const s = carry + chunk;
    for (let i = s.indexOf("<loc>"); i >= 0; i = s.indexOf("<loc>", i + 5)) count++;
    carry = s.slice(-4);
  }
  return count;
}

/** A full garbage collection, when the runtime lets this script ask for one. */
function collector(): (() => void) | null {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun !== undefined) return () => bun.gc(true);
  const gc = (globalThis as { gc?: () => void }).gc;
  return typeof gc === "function" ? gc : null;
}

/** What is left after a full collection (see {@linkcode RunFigures.retained}). */
async function retainedMemory(): Promise<RunFigures["retained"]> {
  const gc = collector();
  if (gc === null) return null;
  // Twice, with a turn of the loop between: finalizers and weak callbacks run first.
  gc();
  await new Promise((r) => setTimeout(r, 20));
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return {
    rssMiB: round(statusMiB("VmRSS")),
    liveMiB: round((heapUsed + external) / 1024 / 1024),
  };
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

async function run(spec: RunSpec): Promise<RunFigures> {
  const events: SitemapProgressEvent[] = [];
  const pool = spec.pool === true
    ? new sitemapTree.SitemapParserPool(spec.workers === undefined ? {} : { workers: spec.workers })
    : undefined;
  await pool?.ready();
  const options: SitemapTreeOptions = {
    concurrency: spec.concurrency ?? 4,
    useKnownPaths: spec.useKnownPaths ?? false,
    ...(pool === undefined ? {} : { pool }),
    ...(spec.workers === undefined ? {} : { workers: spec.workers }),
    ...(spec.since === undefined ? {} : { since: spec.since }),
    onProgress: (event) => events.push(event),
  };
  const baselineMiB = statusMiB("VmRSS");
  let urls = 0;
  let sitemaps = 0;
  const invalid: string[] = [];
  let treeMs: number;
  let iterMs = 0;
  let peakTreeMiB = NaN;
  let lag: { lagMs: number; lagAtMs: number };
  let retained: RunFigures["retained"];
  let tree: sitemapTree.IndexWebsiteSitemap | null = null;
  const cpuStart = process.cpuUsage();
  const threadsStart = threadCpu();

  if (spec.case === "fetch" || spec.case === "gunzip") {
    const stopMeter = lagMeter();
    const start = performance.now();
    urls = await fetchOnly(
      spec.origin,
      options.concurrency!,
      spec.case === "gunzip" ? countLocs : undefined,
    );
    treeMs = performance.now() - start;
    lag = stopMeter();
  } else if (spec.case === "stream") {
    const stream = (sitemapTree as Record<string, unknown>)["streamPages"] as
      | ((url: string, options: SitemapTreeOptions) => AsyncIterable<{ url: string }>)
      | undefined;
    if (typeof stream !== "function") throw new Error("mod.ts does not export streamPages yet");
    const stopMeter = lagMeter();
    const start = performance.now();
    let chars = 0;
    for await (const page of stream(spec.origin, options)) {
      urls++;
      chars += page.url.length;
    }
    treeMs = performance.now() - start;
    lag = stopMeter();
    if (chars === 0 && urls > 0) throw new Error("Pages without URLs");
  } else {
    const stopMeter = lagMeter();
    const start = performance.now();
    tree = await sitemapTree.sitemapTreeForHomepage(spec.origin, options);
    treeMs = performance.now() - start;
    lag = stopMeter();
    peakTreeMiB = statusMiB("VmHWM");
    const iterStart = performance.now();
    let chars = 0;
    for (const page of tree.allPages()) {
      urls++;
      chars += page.url.length;
    }
    iterMs = performance.now() - iterStart;
    if (chars === 0 && urls > 0) throw new Error("Pages without URLs");
    for (const node of tree.allSitemaps()) {
      sitemaps++;
      if (node instanceof sitemapTree.InvalidSitemap) invalid.push(`${node.url}: ${node.reason}`);
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  const byThread = cpuByThread(threadsStart, (cpu.user + cpu.system) / 1000);
  const peakMiB = statusMiB("VmHWM");
  if (tree !== null) {
    retained = await retainedMemory();
    // The tree stays referenced through the collection.
    if (tree.url === "") throw new Error("A tree without a URL");
  }
  pool?.close();

  let bomb: Pick<RunFigures, "bombMs" | "bombFetchMs"> = {};
  if (spec.case === "bomb") {
    const failed = events.find((e) => e.kind === "invalid");
    const fetched = events.find((e) => e.kind === "fetched" && e.url === failed?.url);
    bomb = {
      ...(failed === undefined ? {} : { bombMs: round(failed.ms) }),
      ...(fetched === undefined ? {} : { bombFetchMs: round(fetched.ms) }),
    };
  }
  return {
    case: spec.case,
    runtime,
    urls,
    treeMs: round(treeMs),
    iterMs: round(iterMs),
    totalMs: round(treeMs + iterMs),
    cpuMs: round((cpu.user + cpu.system) / 1000),
    cpuByThread: byThread,
    lagMs: round(lag.lagMs),
    lagAtMs: round(lag.lagAtMs),
    baselineMiB: round(baselineMiB),
    peakMiB: round(peakMiB),
    peakTreeMiB: round(Number.isNaN(peakTreeMiB) ? peakMiB : peakTreeMiB),
    ...(retained === undefined ? {} : { retained }),
    sitemaps,
    invalid,
    ...bomb,
    phases: phasesOf(events),
  };
}

// Node 20 has no import.meta.main: there, this module is main when it is the script.
const isMain = import.meta.main ??
  (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href);
if (isMain) {
  const arg = process.argv[2];
  if (arg === undefined) throw new Error("Usage: _e2e_run.ts '<RunSpec JSON>'");
  console.log(JSON.stringify(await run(JSON.parse(arg) as RunSpec)));
  // Idle workers or sockets must not keep a finished run alive.
  process.exit(0);
}
