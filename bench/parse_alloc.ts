/**
 * What a parse worker's job allocates on the JavaScript heap, by function:
 * `runParseJob` (what a worker runs) on gzipped 50,000-page urlsets of one
 * kind, on one thread, under V8's sampling heap profiler with the objects
 * either collector freed included. A worker that allocates little collects
 * rarely, so its heap stays small (bench/README.md#issue-24-realistic-peak-margin-mem24c).
 *
 *     deno run -A bench/parse_alloc.ts            # the issue's realistic mix
 *     deno run -A bench/parse_alloc.ts ours       # ours (fixtures/realistic.ts)
 *     deno run -A bench/parse_alloc.ts plain
 *
 * Prints MB per job in all, then the functions that allocated the most
 * (self size, with the two callers above), after 6 jobs of warm-up.
 *
 * @module
 */
import { Session } from "node:inspector";
import { gzipSync } from "node:zlib";
import { runParseJob } from "../src/workers/_job.ts";
import {
  REALISTIC_MIX,
  REALISTIC_MIX_ISSUE24,
  realisticUrlset,
  shapeUrlset,
} from "../fixtures/realistic.ts";

const kind = Deno.args[0] ?? "issue";
const JOBS = 6;
const document = (k: number): string =>
  kind === "plain" ? shapeUrlset("plain", 50_000, k) : realisticUrlset(50_000, k, {
    offset: k * 50_000,
    mix: kind === "ours" ? REALISTIC_MIX : REALISTIC_MIX_ISSUE24,
  });
const bodies = [1, 2, 3].map((k) => gzipSync(new TextEncoder().encode(document(k))));
const job = (i: number) =>
  runParseJob({
    bytes: new Uint8Array(bodies[i % bodies.length]!),
    url: `https://example.com/sitemap-${i}.xml.gz`,
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 50 << 20,
  });

for (let i = 0; i < JOBS; i++) await job(i);

const session = new Session();
session.connect();
const post = (method: string, params: Record<string, unknown> = {}) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, params, (error, result) => error ? reject(error) : resolve(result))
  );

interface ProfileNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

await post("HeapProfiler.enable");
await post("HeapProfiler.startSampling", {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < JOBS; i++) await job(i);
const { profile } = await post("HeapProfiler.stopSampling") as { profile: { head: ProfileNode } };
session.disconnect();

const bySite = new Map<string, number>();
const walk = (node: ProfileNode, callers: readonly string[]): void => {
  const f = node.callFrame;
  const name = f.functionName || "(anonymous)";
  if (node.selfSize > 0) {
    const site = `${name} ${f.url.split("/").pop()}:${f.lineNumber + 1} <- ${
      callers.slice(-2).reverse().join(" <- ")
    }`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, [...callers, name]);
};
walk(profile.head, []);
const mb = (bytes: number) => (bytes / JOBS / 1e6).toFixed(3);
const total = [...bySite.values()].reduce((a, b) => a + b, 0);
console.log(`${kind}: ${mb(total)} MB of JavaScript heap allocated per job`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${mb(bytes).padStart(7)}  ${site}`);
}
