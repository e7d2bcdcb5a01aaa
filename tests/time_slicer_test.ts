import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { TimeSlicer } from "../src/_time_slicer.ts";

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("TimeSlicer: keeps going within a slice, lets due timers run once it is used up", async () => {
  const slicer = new TimeSlicer();
  // A burst's first step goes on at once: nothing was waiting to run.
  equal(slicer.yieldIfBusy(), undefined);
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
  // The yield began a new slice.
  equal(slicer.yieldIfBusy(), undefined);
});

Deno.test("TimeSlicer: a step after a turn of the event loop starts a new slice, however long ago the last one began", async () => {
  const slicer = new TimeSlicer();
  equal(slicer.yieldIfBusy(), undefined);
  busy(3);
  // The thread went back to its event loop (idle, or other callbacks ran).
  await turn();
  equal(slicer.yieldIfBusy(), undefined);
  busy(3);
  // Steps back to back since: this one yields.
  const due = slicer.yieldIfBusy();
  equal(due instanceof Promise, true);
  await due;
});
