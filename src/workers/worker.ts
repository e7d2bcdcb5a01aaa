/**
 * The parse worker's module: started by {@linkcode createParsePool} with
 * `new Worker(url, { type: "module" })`, it runs one {@linkcode runParseJob} per
 * request and posts the result back with its page buffers transferred, so the
 * main thread receives a handful of buffers rather than one object per page.
 *
 * Importing this module anywhere but in a worker is a mistake: it listens for
 * messages on the global scope.
 *
 * @module
 */
import { transferablesOf } from "../parse/_result.ts";
import { errorMessage, runParseJob, type WorkerReply, type WorkerRequest } from "./_job.ts";

// The slice of a dedicated worker's global scope used here, typed by hand so the
// module checks under Deno's window types and runs unchanged in Bun.
interface WorkerScope {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent<WorkerRequest>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.addEventListener("message", async (event) => {
  const { id, job } = event.data;
  let reply: WorkerReply;
  try {
    reply = { type: "done", id, outcome: await runParseJob(job) };
  } catch (error) {
    reply = { type: "failed", id, message: errorMessage(error) };
  }
  post(reply);
});

function post(reply: WorkerReply): void {
  const transfer = reply.type === "done"
    ? uniqueBuffers([
      ...transferablesOf(reply.outcome.result),
      ...(reply.outcome.cacheEntry ? [reply.outcome.cacheEntry.buffer as ArrayBuffer] : []),
    ])
    : [];
  try {
    scope.postMessage(reply, transfer);
  } catch (error) {
    // A buffer that cannot be transferred (shared, or already detached) must
    // not leave the pool waiting until its timeout: report it as a failure.
    scope.postMessage({
      type: "failed",
      id: "id" in reply ? reply.id : -1,
      message: errorMessage(error),
    });
  }
}

// Listing one buffer twice is a DataCloneError, and two columns may share one.
function uniqueBuffers(buffers: readonly ArrayBuffer[]): ArrayBuffer[] {
  return [...new Set(buffers)].filter((buffer) => !(buffer instanceof SharedArrayBuffer));
}

scope.postMessage({ type: "ready" });
