/**
 * The Deno adapter: Web Workers, `navigator.hardwareConcurrency`, and Deno's
 * permission check before a local worker module is loaded.
 *
 * @module
 */
import type { Connections, ParentPort, ParseWorker, WorkerEvents } from "./_types.ts";
import { lowerThreadPriority as setThreadPriority } from "./_node_builtins.ts";

export { loadFileSystem, loadZlib, resolveHost } from "./_node_builtins.ts";
import { navigatorCores, noGlobalWorker, startWebWorker, webParentPort } from "./_web.ts";

/** The runtime's name. */
export const name = "deno";

/**
 * Parse workers a call starts ahead (see `Runtime.callWarmWorkers`): one.
 * A second, started with it, took a plain 1M crawl 3.5% sooner for +30% CPU
 * and +25 MiB (bench/README.md#issue-24-two-warm-workers-on-node).
 */
export const callWarmWorkers = 1;

/**
 * When a call starts them (see `Runtime.callWarmDelayMs`): 15 ms in. Starting
 * a worker holds the calling thread for 11–17 ms (`op_create_worker`), and
 * Deno sends a request from that thread's event loop: started at the call's
 * start, the worker held back the first request, its client's set-up
 * included, and every request after it; 15 ms in, the first requests have
 * gone out. A site that answers sooner hurries the start (`ParsePool.hurry()`)
 * (bench/README.md#issue-24-a-calls-first-worker-after-its-first-requests).
 */
export const callWarmDelayMs = 15;

/**
 * Kept gzip bodies (see `Runtime.keptGzipShare`): up to a quarter of the
 * spans, the parse modules' own choice; more would cost the realistic 1M
 * tree ~18 MiB it does not have beside its 300 MiB target.
 */
export const keptGzipShare = 1 / 4;

/**
 * Logical cores.
 *
 * @returns At least 1.
 */
export function coreCount(): number {
  return navigatorCores();
}

/**
 * Deno refuses to load a local worker module without read access to it, and
 * would ask for it on a terminal: that is reported, not asked.
 *
 * @param url The worker module.
 * @returns Why it cannot run, or null.
 */
export function workerUnavailable(url: URL): string | null {
  const missing = noGlobalWorker();
  if (missing !== null || url.protocol !== "file:") return missing;
  try {
    const state = Deno.permissions.querySync({ name: "read", path: url }).state;
    return state === "granted"
      ? null
      : `no read access to ${url.href} (run Deno with --allow-read)`;
  } catch {
    return null;
  }
}

/**
 * Starts a module worker.
 *
 * @param url The worker module.
 * @param events Where its events go.
 * @returns The worker.
 */
export function startWorker(url: URL, events: WorkerEvents): ParseWorker {
  return startWebWorker(url, events);
}

/**
 * This worker's channel to its parent.
 *
 * @returns The port.
 */
export function parentPort(): ParentPort {
  return webParentPort();
}

/** What a Deno user must add when the runtime forbids a connection. */
export const PERMISSION_ADVICE: string | null = "run Deno with --allow-net";

/**
 * Whether using one of these permissions may draw a permission prompt: Deno
 * run without `--allow-net`/`--allow-read` on a terminal asks for them.
 */
export async function permissionMayPrompt(
  permissions: readonly ("net" | "read")[],
): Promise<boolean> {
  for (const name of permissions) {
    if ((await Deno.permissions.query({ name })).state === "prompt") return true;
  }
  return false;
}

/**
 * An environment variable, or undefined when unset or not readable: the
 * permission is queried first, so that no prompt interrupts a crawl.
 */
export function readEnv(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * A fetch whose every request goes through the HTTP proxy at `proxyUrl`
 * (`http://` targets as absolute-form requests, `https://` ones through
 * `CONNECT`), through an HTTP client made once per proxy URL.
 */
export function createProxyFetch(proxyUrl: string): typeof fetch {
  let client = clients.get(proxyUrl);
  if (client === undefined) {
    client = Deno.createHttpClient({ proxy: { url: proxyUrl } });
    clients.set(proxyUrl, client);
  }
  const through = client;
  return (input, init) => fetch(input, { ...init, client: through });
}

/** One client per proxy for the process: crawls (and sites of a batch) share its connections. */
const clients = new Map<string, Deno.HttpClient>();

/** The runtime's own `fetch`, which reads the proxy variables itself. */
export function defaultFetch(_environmentProxy: (url: URL) => string | null): typeof fetch {
  return globalThis.fetch.bind(globalThis);
}

/**
 * An HTTP client of its own, whose connections {@linkcode Connections.close}
 * ends: Deno's shared fetch keeps idle connections to every host for 90 s,
 * which add up over a batch of many sites (bench/README.md#batch-memory).
 */
export function openConnections(): Connections {
  const client = Deno.createHttpClient({});
  return {
    fetch: (input, init) => fetch(input, { ...init, client }),
    close: () => client.close(),
  };
}

/**
 * Lowers this thread's priority where the system sets it per thread (Linux),
 * only when Deno already grants what that takes (read `/proc/thread-self`,
 * sys `setPriority`): it never asks.
 *
 * @param nice The niceness, 0 (default) to 19 (lowest).
 */
export function lowerThreadPriority(nice: number): Promise<void> {
  try {
    const read = Deno.permissions.querySync({ name: "read", path: "/proc/thread-self" });
    const sys = Deno.permissions.querySync({ name: "sys", kind: "setPriority" });
    if (read.state !== "granted" || sys.state !== "granted") return Promise.resolve();
  } catch {
    return Promise.resolve();
  }
  return setThreadPriority(nice);
}
