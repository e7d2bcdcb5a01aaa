/**
 * The parse worker's module: started by {@linkcode createParsePool} through
 * the runtime's adapter (a Web Worker, or a Node worker thread), it runs one {@linkcode runParseJob} per
 * request and posts the result back with its page buffers transferred, so the
 * main thread receives a handful of buffers rather than one object per page.
 *
 * Importing this module anywhere but in a worker is a mistake: it listens for
 * messages on the global scope.
 *
 * @module
 */
import { transferablesOf } from "../parse/_result.ts";
import { detachBuffer } from "../_detach.ts";
import { ParseCancelled } from "../_checkpoint.ts";
import { errorMessage } from "../_error_message.ts";
import {
  CANCEL_ALL,
  runParseJob,
  type WarmUp,
  type WarmUpRequest,
  type WorkerReply,
  type WorkerRequest,
} from "./_job.ts";
import { runtime } from "../runtime/mod.ts";
import { FULL_WARM_UP, LIGHT_WARM_UP, warmUp } from "./_warm_up.ts";

const port = runtime.parentPort();

/** Set by the first job: the warm-up stops there. */
let jobSeen = false;

/** Shared with the pool (see `WarmUpRequest.cancel`); null without shared memory. */
let cancelFlag: Int32Array | null = null;

/**
 * The id of the job running, which {@linkcode checkpoint} stops once the pool
 * has flagged it: the pool sends a worker one job at a time. Until the first
 * one, an id no job has (they count from 1), so that only `CANCEL_ALL` (the
 * pool closing) stops the warm-up.
 */
let runningId = -2;

/**
 * The checkpoint of every job, the warm-up's included: one function rather
 * than a closure per job, since each new closure at the readers' call to it
 * deoptimised them ("wrong call target", Node 20;
 * bench/README.md#issue-24-node-within-115-node24c).
 */
function checkpoint(at: number): void {
  const flag = cancelFlag;
  if (flag === null) return;
  const value = Atomics.load(flag, 0);
  if (value === runningId || value === CANCEL_ALL) throw new ParseCancelled(at);
}

/** The slices of each warm-up the pool may ask for. */
const WARM_UPS: Readonly<Record<WarmUp, readonly number[]>> = {
  none: [],
  light: LIGHT_WARM_UP,
  full: FULL_WARM_UP,
};

port.onMessage(async (message) => {
  const data = message as WorkerRequest | WarmUpRequest;
  if ("warmUp" in data) {
    cancelFlag = data.cancel ?? null;
    void warmUp(WARM_UPS[data.warmUp], { since: NaN, stop: () => jobSeen, checkpoint })
      .finally(() => post({ type: "warm" }));
    return;
  }
  jobSeen = true;
  const { id, job } = data;
  let reply: WorkerReply;
  try {
    runningId = id;
    reply = { type: "done", id, outcome: await runParseJob(job, checkpoint) };
  } catch (error) {
    reply = { type: "failed", id, message: errorMessage(error) };
  }
  post(reply);
  // The body (gzipped, or the document itself) is this thread's alone and
  // read no more, unless it was kept as a sitemap's extensions (then
  // transferred by the post, so detached already): freed now rather than at a
  // collection that, with a small heap, came documents later
  // (bench/README.md#workers-and-node).
  detachBuffer(job.bytes, { minBytes: 1 << 16 });
});

function post(reply: WorkerReply): void {
  const transfer = reply.type === "done"
    ? uniqueBuffers([
      ...transferablesOf(reply.outcome.result),
      ...(reply.outcome.cacheEntry ? [reply.outcome.cacheEntry.buffer as ArrayBuffer] : []),
    ])
    : [];
  try {
    port.postMessage(reply, transfer);
  } catch (error) {
    // A buffer that cannot be transferred (shared, or already detached) must
    // not leave the pool waiting until its timeout: report it as a failure.
    port.postMessage({
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

/**
 * Lowers this worker thread's scheduling priority (nice 10) where the system
 * sets it per thread (Linux), so that the calling thread's event loop gets a
 * core as soon as it has work: with two workers busy on two cores, its timers
 * ran late from scheduling alone, less so at nice 10
 * (bench/README.md#workers-start-up-warm-up-and-cancellation).
 * The workers lose nothing while that thread is idle. Best effort and
 * silent: without the permissions (Deno: read /proc/thread-self, sys
 * setPriority) or off Linux it leaves the default priority, and never asks.
 */
function yieldCoresToCallingThread(): Promise<void> {
  return runtime.lowerThreadPriority(WORKER_NICE);
}

/** Niceness of a parse worker thread (0 is the default, 19 the lowest). */
const WORKER_NICE = 10;

post({ type: "ready" });
void yieldCoresToCallingThread();
