/**
 * The Bun adapter: Web Workers (whose `close` event says a worker ended) and
 * `navigator.hardwareConcurrency`.
 *
 * @module
 */
import type { Connections, ParentPort, ParseWorker, WorkerEvents } from "./_types.ts";

export { loadFileSystem, loadZlib, lowerThreadPriority, resolveHost } from "./_node_builtins.ts";
import { navigatorCores, noGlobalWorker, startWebWorker, webParentPort } from "./_web.ts";
import process from "node:process";

/** The runtime's name. */
export const name = "bun";

/**
 * Parse workers a call starts ahead (see `Runtime.callWarmWorkers`): one.
 * A second, started with it, took a plain 1M crawl 5% sooner for +20% CPU
 * (bench/README.md#issue-24-two-warm-workers-on-node).
 */
export const callWarmWorkers = 1;

/**
 * When a call starts them (see `Runtime.callWarmDelayMs`): at once. Bun's
 * plain crawl took as long with them started 15 ms in
 * (bench/README.md#issue-24-a-calls-first-worker-after-its-first-requests).
 */
export const callWarmDelayMs = 0;

/**
 * Kept gzip bodies (see `Runtime.keptGzipShare`): up to a quarter of the
 * spans, the parse modules' own choice, as on Deno.
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
 * Bun loads any worker module it can read.
 *
 * @param _url The worker module.
 * @returns Why it cannot run, or null.
 */
export function workerUnavailable(_url: URL): string | null {
  return noGlobalWorker();
}

/**
 * Starts a module worker.
 *
 * @param url The worker module.
 * @param events Where its events go.
 * @returns The worker.
 */
export function startWorker(url: URL, events: WorkerEvents): ParseWorker {
  const worker = startWebWorker(url, events);
  let terminated = false;
  // Bun's own event: the worker's thread ended (process.exit, or it ran out of work).
  worker.inner.addEventListener("close", (event) => {
    if (!terminated) events.exit((event as Event & { code?: number }).code ?? 0);
  });
  return {
    postMessage: worker.postMessage,
    terminate: () => {
      terminated = true;
      worker.terminate();
    },
  };
}

/**
 * This worker's channel to its parent.
 *
 * @returns The port.
 */
export function parentPort(): ParentPort {
  return webParentPort();
}

/** Bun grants every connection: no permission to name. */
export const PERMISSION_ADVICE: string | null = null;

/** Never: this runtime has no permission prompts. */
export function permissionMayPrompt(_permissions: readonly ("net" | "read")[]): Promise<boolean> {
  return Promise.resolve(false);
}

/** An environment variable, or undefined when unset. */
export function readEnv(name: string): string | undefined {
  return process.env[name];
}

/**
 * A fetch whose every request goes through the HTTP proxy at `proxyUrl`,
 * through Bun's own `proxy` init option.
 */
export function createProxyFetch(proxyUrl: string): typeof fetch {
  return (input, init) => {
    const withProxy: RequestInit & { proxy: string } = { ...init, proxy: proxyUrl };
    return fetch(input, withProxy);
  };
}

/** The runtime's own `fetch`, which reads the proxy variables itself. */
export function defaultFetch(_environmentProxy: (url: URL) => string | null): typeof fetch {
  return globalThis.fetch.bind(globalThis);
}

/** The runtime's own fetch: its connection pool is bounded already. */
export function openConnections(): Connections {
  return { fetch: null, close: () => {} };
}
