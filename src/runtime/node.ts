/**
 * The Node adapter: `node:worker_threads` and `os.availableParallelism()`
 * (Node 20 has neither a global `Worker` nor `navigator`).
 *
 * @module
 */
import type * as os from "node:os";
import type * as workerThreads from "node:worker_threads";
import type { Connections, ParentPort, ParseWorker, WorkerEvents } from "./_types.ts";
import process from "node:process";
import { setDetachWithoutTransfer } from "../_detach.ts";

import { nodeBuiltin } from "./_node_builtins.ts";
import {
  createNodeFetch,
  createNodeProxyFetch,
  givenRequest,
  openNodeConnections,
} from "./_node_fetch.ts";

export { loadFileSystem, loadZlib, lowerThreadPriority, resolveHost } from "./_node_builtins.ts";

function nodeOs(): typeof os {
  return nodeBuiltin("node:os") as typeof os;
}

function nodeWorkerThreads(): typeof workerThreads {
  return nodeBuiltin("node:worker_threads") as typeof workerThreads;
}

let closedPort: MessagePort | undefined;

/**
 * Detaches `buffer` and frees its memory at once, without
 * `ArrayBuffer.prototype.transfer` (Node 20's V8 11.3 has none): posted
 * through a port that is already closed, it is moved into a message that
 * Node drops. Without this a parse worker's dead documents waited for the
 * collector, whose external-memory heuristics let them pile up
 * (bench/README.md#issue-24-node-20-against-deno).
 *
 * @param buffer A buffer nobody will read again.
 * @throws {DOMException} When it cannot be transferred (DataCloneError).
 */
function detachThroughClosedPort(buffer: ArrayBuffer): void {
  if (closedPort === undefined) {
    closedPort = new MessageChannel().port1;
    closedPort.close();
  }
  closedPort.postMessage(null, [buffer]);
}

// Only where `transfer` is missing: Deno and Bun import this module too.
if (typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer !== "function") {
  setDetachWithoutTransfer(detachThroughClosedPort);
}

/** The runtime's name. */
export const name = "node";

/**
 * Parse workers a call starts ahead (see `Runtime.callWarmWorkers`): two.
 * Node 20's V8 parses a plain urlset ~1.3x slower than Deno's, so one worker
 * falls behind a plain crawl's bodies (17 ms a 4 MB urlset against one
 * arriving every ~13 ms) and the backlog it ends with was the call's last
 * ~120 ms; a second worker started only then is still cold
 * (bench/README.md#issue-24-two-warm-workers-on-node).
 */
export const callWarmWorkers = 2;

/**
 * When a call starts them (see `Runtime.callWarmDelayMs`): at once. Started
 * 15 ms in, Node's plain crawl took longer, not shorter (522 against 573 ms,
 * 6 alternated rounds; bench/README.md#issue-24-a-calls-first-worker-after-its-first-requests).
 */
export const callWarmDelayMs = 0;

/**
 * Kept gzip bodies (see `Runtime.keptGzipShare`): up to half the spans, where
 * Deno and Bun keep a quarter. Node's level-1 deflate takes about twice
 * Deno's time, ~12 ms a 10.9 MB urlset of issue 24's mix (a sixth of its
 * parse), which puts the realistic crawl past 1.15x Deno's; keeping the
 * body costs ~0.9 MB a urlset and a slower first extension read
 * (bench/README.md#issue-24-kept-gzip-bodies-on-node).
 */
export const keptGzipShare = 1 / 2;

/**
 * Logical cores.
 *
 * @returns At least 1.
 */
export function coreCount(): number {
  return Math.max(1, nodeOs().availableParallelism());
}

/**
 * Node can start any worker module; one that fails to load says so in an
 * `error` event.
 *
 * @param url The worker module.
 * @returns Why it cannot run, or null.
 */
export function workerUnavailable(url: URL): string | null {
  return url.protocol === "file:" || url.protocol === "data:"
    ? null
    : `Node cannot start a worker from ${url.protocol} URLs`;
}

/**
 * Starts a worker thread. It gets none of the parent's `execArgv`: flags
 * such as `--input-type` or `--eval` do not apply to a module file, and
 * with them Node refused to start it (ERR_INPUT_TYPE_NOT_ALLOWED).
 *
 * @param url The worker module.
 * @param events Where its events go.
 * @returns The worker.
 */
export function startWorker(url: URL, events: WorkerEvents): ParseWorker {
  const worker = new (nodeWorkerThreads().Worker)(url, { execArgv: [] });
  let terminated = false;
  worker.on("message", (data: unknown) => events.message(data));
  worker.on("error", (error: unknown) => {
    events.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  });
  worker.on("messageerror", () => events.error("its reply could not be read"));
  worker.on("exit", (code: number) => {
    if (!terminated) events.exit(code);
  });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, [...transfer]),
    terminate: () => {
      if (terminated) return;
      terminated = true;
      worker.removeAllListeners();
      stopWorker(worker);
    },
  };
}

/** What {@linkcode startWorker}'s `terminate()` posts: the worker ends itself on reading it. */
const EXIT_REQUEST = "@sitemap/tree:exit";

/**
 * How long a worker asked to end may take before it is terminated: it ends
 * at its next turn of the event loop, which a parse reaches within one
 * checkpoint once the pool has flagged it (every 1 MiB of input).
 */
const EXIT_GRACE_MS = 2_000;

/**
 * Ends a worker thread at a point where it runs no code: it is asked to exit
 * ({@linkcode EXIT_REQUEST}) and terminated only if it has not within
 * {@linkcode EXIT_GRACE_MS}. `Worker.terminate()` stops a thread wherever it
 * is, and one stopped between the creation of a zlib handle and its
 * initialisation (inside `gunzipSync`, which parse jobs and the warm-up call
 * all the time) aborts the whole process as the thread is torn down (Node
 * 20.20: "Assertion failed: init_done_ && \"close before init\"" in
 * node_zlib.cc; seen in CI when a pool closed during the warm-up, and
 * reproduced by terminating workers that loop over `gunzipSync`).
 */
function stopWorker(worker: workerThreads.Worker): void {
  const timer = setTimeout(() => void worker.terminate(), EXIT_GRACE_MS);
  worker.once("exit", () => clearTimeout(timer));
  // The errors of a thread on its way out are nobody's concern now.
  worker.on("error", () => {});
  try {
    worker.postMessage(EXIT_REQUEST);
  } catch {
    clearTimeout(timer);
    void worker.terminate();
  }
}

/**
 * This worker's channel to its parent.
 *
 * @returns The port.
 * @throws {Error} Outside a worker thread.
 */
export function parentPort(): ParentPort {
  const port = nodeWorkerThreads().parentPort;
  if (port === null) throw new Error("Not running in a worker thread");
  return {
    postMessage: (message, transfer = []) => port.postMessage(message, [...transfer]),
    onMessage: (listener) =>
      port.on("message", (data: unknown) => {
        // Between two turns of the event loop: no zlib call is half made (stopWorker).
        if (data === EXIT_REQUEST) process.exit(0);
        else listener(data);
      }),
  };
}

/** Node grants every connection: no permission to name. */
export const PERMISSION_ADVICE: string | null = null;

/** Never: this runtime has no permission prompts. */
export function permissionMayPrompt(_permissions: readonly ("net" | "read")[]): Promise<boolean> {
  return Promise.resolve(false);
}

/** An environment variable, or undefined when unset. */
export function readEnv(name: string): string | undefined {
  return process.env[name];
}

/** One proxying fetch per proxy URL for the process, as Deno keeps one client per proxy. */
const proxyFetches = new Map<string, typeof fetch>();

/**
 * A fetch over `node:http`/`node:https` whose every request goes through the
 * HTTP proxy at `proxyUrl` (runtime/_node_fetch.ts: absolute-form requests
 * for `http://` targets, `CONNECT` tunnels for `https://` ones).
 */
export function createProxyFetch(proxyUrl: string): typeof fetch {
  let through = proxyFetches.get(proxyUrl);
  if (through === undefined) {
    through = createNodeProxyFetch(proxyUrl);
    proxyFetches.set(proxyUrl, through);
  }
  return through;
}

let direct: typeof fetch | undefined;

/**
 * The fetch over `node:http`/`node:https` (runtime/_node_fetch.ts), on
 * Node's global agents, each request sent through the proxy
 * `environmentProxy` names for it, if any: Node's own `fetch` (undici)
 * inflates every `Content-Encoding` whatever the request asked, costs more
 * CPU, and reads no proxy variable.
 */
export function defaultFetch(environmentProxy: (url: URL) => string | null): typeof fetch {
  const straight = direct ??= createNodeFetch();
  return (input, init) => {
    let proxy: string | null = null;
    try {
      proxy = environmentProxy(new URL(givenRequest(input)?.url ?? String(input)));
    } catch {
      // Not a URL: the transport rejects it.
    }
    return (proxy === null ? straight : createProxyFetch(proxy))(input, init);
  };
}

/** Agents of their own over `node:http`/`node:https`, destroyed by `close()`. */
export function openConnections(): Connections {
  return openNodeConnections();
}
