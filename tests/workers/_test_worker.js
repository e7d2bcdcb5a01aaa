/**
 * A stand-in parse worker for the pool's tests, speaking the real protocol
 * (`WorkerRequest` / `WorkerReply` in src/workers/_job.ts) but misbehaving on
 * request: the job's URL says what to do. No sitemap can reach it; only tests
 * name it, through `createParsePool`'s `workerUrl`.
 *
 * - `test:crash` throws out of the message handler (an error event)
 * - `test:throw` reports the job as having thrown
 * - `test:hang` never answers
 * - `test:sleep:<ms>` answers like an echo, after a delay
 * - anything else is echoed: an invalid result whose reason is the JSON of
 *   `{ worker, url, text, bufferBytes, concurrent, warmUp }` (see `Echo` in pool_test.ts)
 *
 * JavaScript, not TypeScript, because `deno test` type-checks every worker it
 * starts, which costs seconds per start on this machine.
 *
 * @module
 */

// A Web Worker's scope, or a Node worker thread's parent port (an EventTarget too).
const port = typeof self === "object" ? self : (await import("node:worker_threads")).parentPort;

// Random per worker instance, so tests can see reuse and replacement.
const workerId = crypto.randomUUID();
let inFlight = 0;

// The warm-up the pool asked for (`WarmUpRequest`); this worker only reports it.
let warmUp = null;

port.addEventListener("message", (event) => {
  // On Node the adapter asks a worker to end itself (src/runtime/node.ts, stopWorker), as the
  // real worker does through the adapter's parent port.
  if (event.data === "@sitemap/tree:exit") globalThis.process.exit(0);
  if ("warmUp" in event.data) {
    warmUp = event.data.warmUp;
    return;
  }
  const { id, job } = event.data;
  if (job.url === "test:crash") throw new Error("kaboom");
  if (job.url === "test:hang") return;
  if (job.url === "test:throw") {
    port.postMessage({ type: "failed", id, message: "boom" });
    return;
  }
  inFlight++;
  const concurrent = inFlight;
  const sleep = /^test:sleep:(\d+)$/.exec(job.url);
  setTimeout(() => {
    inFlight--;
    const echo = {
      worker: workerId,
      url: job.url,
      text: new TextDecoder().decode(job.bytes),
      bufferBytes: job.bytes.buffer.byteLength,
      concurrent,
      warmUp,
    };
    const result = { kind: "invalid", reason: JSON.stringify(echo) };
    const outcome = { result, decompressedBytes: job.bytes.byteLength, parseMs: 0 };
    port.postMessage({ type: "done", id, outcome });
  }, sleep ? Number(sleep[1]) : 0);
});

port.postMessage({ type: "ready" });
