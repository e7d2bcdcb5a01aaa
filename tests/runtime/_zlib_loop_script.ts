/**
 * A worker for tests/runtime/node_worker_exit_test.ts (bundled to
 * `_zlib_loop_script.js` by tests/node/run_deno_tests.mjs): through the
 * runtime adapter's parent port, as the parse worker, it says it is ready,
 * then calls `gunzipSync` in slices of 50, yielding to the event loop between
 * slices as the parse worker's warm-up does, until it is stopped.
 *
 * @module
 */
import zlib from "node:zlib";
import { runtime } from "../../src/runtime/mod.ts";

const port = runtime.parentPort();
port.onMessage(() => {});
const gzipped = zlib.gzipSync(new Uint8Array(20_000).fill(97));
port.postMessage("ready");
for (;;) {
  for (let i = 0; i < 50; i++) zlib.gunzipSync(gzipped);
  await new Promise((resolve) => setTimeout(resolve, 0));
}
