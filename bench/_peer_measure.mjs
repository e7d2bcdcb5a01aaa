/**
 * What the peer runs and ours measure, the same way: RSS from
 * /proc/self/status and the event loop's worst lag (drift of a 1 ms timer);
 * and {@linkcode measurePeer}, one peer run printed as `bench/_e2e_run.ts`
 * prints ours.
 */
import { readFileSync } from "node:fs";

/**
 * A field of /proc/self/status in MiB.
 *
 * @param {"VmRSS" | "VmHWM"} field
 * @returns {number}
 */
export function statusMiB(field) {
  const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`${field}:\\s+(\\d+)`));
  if (match?.[1] === undefined) throw new Error(`No ${field} in /proc/self/status`);
  return Number(match[1]) / 1024;
}

/**
 * Starts a 1 ms timer; the returned function stops it and gives the worst
 * drift and when it ended (ms since the start).
 *
 * @returns {() => { lagMs: number, lagAtMs: number }}
 */
export function lagMeter() {
  const started = performance.now();
  let last = started;
  let worst = 0;
  let worstAt = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - 1 > worst) {
      worst = now - last - 1;
      worstAt = now - started;
    }
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    // A stall still running at the end has no tick to report it.
    const now = performance.now();
    if (now - last - 1 > worst) {
      worst = now - last - 1;
      worstAt = now - started;
    }
    return { lagMs: worst, lagAtMs: worstAt };
  };
}

/**
 * One decimal.
 *
 * @param {number} x
 * @returns {number}
 */
export const round = (x) => Math.round(x * 10) / 10;

/**
 * Times `run` (wall, CPU, lag, peak RSS) and prints one JSON line with the
 * fields of `bench/_e2e_run.ts`, then exits.
 *
 * @param {string} name The case, e.g. "crawlee".
 * @param {string} packageName The npm package measured, for its version.
 * @param {() => Promise<{ urls: number, sitemaps: number, invalid: string[] }>} run
 */
export async function measurePeer(name, packageName, run) {
  const baselineMiB = statusMiB("VmRSS");
  const stop = lagMeter();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const { urls, sitemaps, invalid } = await run();
  const treeMs = performance.now() - start;
  const lag = stop();
  const cpu = process.cpuUsage(cpuStart);
  const version = JSON.parse(
    readFileSync(new URL(`../node_modules/${packageName}/package.json`, import.meta.url), "utf8"),
  ).version;
  console.log(JSON.stringify({
    case: name,
    runtime: `Node ${process.versions.node}, ${packageName} ${version}`,
    urls,
    treeMs: round(treeMs),
    iterMs: 0,
    totalMs: round(treeMs),
    cpuMs: round((cpu.user + cpu.system) / 1000),
    lagMs: round(lag.lagMs),
    lagAtMs: round(lag.lagAtMs),
    baselineMiB: round(baselineMiB),
    peakMiB: round(statusMiB("VmHWM")),
    sitemaps,
    invalid,
  }));
  process.exit(0);
}
