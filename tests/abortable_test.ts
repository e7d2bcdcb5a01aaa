import assert from "node:assert/strict";
import { abortable } from "../src/_abortable.ts";
import { countedSignal } from "./_signals.ts";

Deno.test("abortable() puts one listener on a signal however many wait on it, and none once they settle", async () => {
  const { controller, listeners } = countedSignal();
  const never = new Promise<never>(() => {});
  // Sixteen sites of a run waiting on the run's signal (Node warns from 11 listeners).
  const waits = Array.from({ length: 16 }, () => abortable(never, controller.signal));
  const done = await Promise.all(
    [1, 2].map((n) => abortable(Promise.resolve(n), controller.signal)),
  );
  assert.deepEqual([done, listeners()], [[1, 2], 1]);
  controller.abort(new Error("stopped"));
  const reasons = await Promise.all(waits.map((w) => w.catch((e: Error) => e.message)));
  assert.deepEqual([new Set(reasons), listeners()], [new Set(["stopped"]), 0]);
  await assert.rejects(abortable(never, controller.signal), { message: "stopped" });
});
