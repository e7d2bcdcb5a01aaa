/**
 * What both peer runs measure, the same way `bench/_e2e_run.ts` does for ours:
 * RSS from /proc/self/status and the event loop's worst lag (drift of a 1 ms timer).
 */
import { readFileSync } from "node:fs";

/** A field of /proc/self/status (VmRSS, VmHWM) in MiB. */
export function statusMiB(field) {
  const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`${field}:\\s+(\\d+)`));
  return Number(match[1]) / 1024;
}

/** Starts a 1 ms timer; the returned function stops it and gives the worst drift and when. */
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
    return { lagMs: worst, lagAtMs: worstAt };
  };
}

/** One decimal. */
export const round = (x) => Math.round(x * 10) / 10;
