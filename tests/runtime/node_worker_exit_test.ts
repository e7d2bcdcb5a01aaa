/**
 * Ending a Node worker thread that is busy with zlib (the parse worker's
 * jobs and warm-up call `gunzipSync` all the time). Node only: the test runs
 * the adapter's `startWorker` on the bundled `_zlib_loop_script.js`, which
 * tests/node/run_deno_tests.mjs builds beside this test.
 */
import assert from "node:assert/strict";
import { runtime } from "../../src/runtime/mod.ts";

const ROUNDS = 150;

Deno.test({
  name: "Node: a worker stopped in the middle of its zlib calls ends without aborting the process",
  ignore: runtime.name !== "node",
  fn: async () => {
    // Before the fix, `Worker.terminate()` landing between the creation of a
    // zlib handle and its initialisation aborted the process ("close before
    // init"): within 10-100 rounds here, so the runner died with it.
    const url = new URL("./_zlib_loop_script.js", import.meta.url);
    const errors: string[] = [];
    let stopped = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let ready!: () => void;
      const isReady = new Promise<void>((resolve) => ready = resolve);
      const worker = runtime.startWorker(url, {
        message: () => ready(),
        error: (message) => errors.push(message),
        exit: (code) => errors.push(`exited with code ${code} before it was stopped`),
      });
      await isReady;
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
      worker.terminate();
      stopped++;
    }
    assert.deepEqual(errors, []);
    assert.equal(stopped, ROUNDS);
  },
});
