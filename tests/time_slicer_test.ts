import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { TimeSlicer } from "../src/_time_slicer.ts";

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

Deno.test("TimeSlicer: keeps going within a slice, lets due timers run once it is used up", async () => {
  const slicer = new TimeSlicer();
  // The first step after a pause yields once.
  const first = slicer.yieldIfBusy();
  equal(first instanceof Promise, true);
  await first;
  equal(slicer.yieldIfBusy(), undefined);
  const order: string[] = [];
  setTimeout(() => order.push("timer"), 0);
  busy(3);
  const later = slicer.yieldIfBusy();
  equal(later instanceof Promise, true);
  order.push("step before yield");
  await later;
  order.push("step after yield");
  deepStrictEqual(order, ["step before yield", "timer", "step after yield"]);
  equal(slicer.yieldIfBusy(), undefined);
});
