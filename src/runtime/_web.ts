/**
 * Web Workers, shared by the Deno and Bun adapters (the two differ only in
 * their error text and in what they tell when a worker ends).
 *
 * @module
 */
import type { ParentPort, ParseWorker, WorkerEvents } from "./_types.ts";

/**
 * Logical cores from `navigator.hardwareConcurrency`.
 *
 * @returns At least 1.
 */
export function navigatorCores(): number {
  const cores = globalThis.navigator?.hardwareConcurrency;
  return typeof cores === "number" && cores >= 1 ? Math.floor(cores) : 1;
}

/**
 * Starts `new Worker(url, { type: "module" })` and routes its events.
 *
 * @param url The worker module.
 * @param events Where its events go.
 * @returns The worker.
 */
export function startWebWorker(url: URL, events: WorkerEvents): ParseWorker & { inner: Worker } {
  const worker = new Worker(url, { type: "module" });
  worker.onmessage = (event: MessageEvent) => events.message(event.data);
  worker.onerror = (event: ErrorEvent) => {
    // Handled here: unhandled, a worker's error is re-thrown on this thread.
    event.preventDefault();
    events.error(webWorkerErrorMessage(event));
  };
  worker.onmessageerror = () => events.error("its reply could not be read");
  return {
    inner: worker,
    postMessage: (message, transfer) => worker.postMessage(message, [...transfer]),
    terminate: () => {
      worker.onmessage = null;
      worker.onerror = null;
      worker.onmessageerror = null;
      worker.terminate();
    },
  };
}

/**
 * One line naming the error. Deno's message reads "Uncaught Error: kaboom";
 * Bun's is a source excerpt with a caret, the error line and a stack.
 */
function webWorkerErrorMessage(event: ErrorEvent): string {
  if (event.error instanceof Error) return `${event.error.name}: ${event.error.message}`;
  const lines = (event.message ?? "").split("\n").map((line) => line.trim());
  const line = lines.find((line) => line !== "" && !/^(?:\d+ \||\^$|at )/.test(line));
  // Bun writes a plain Error as "error: kaboom".
  return line?.replace(/^Uncaught (?:\(in promise\) )?/, "").replace(/^error: /, "Error: ") ||
    "unknown error";
}

interface WorkerScope {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

/**
 * A dedicated worker's global scope as a {@linkcode ParentPort}.
 *
 * @returns The port.
 */
export function webParentPort(): ParentPort {
  const scope = globalThis as unknown as WorkerScope;
  return {
    postMessage: (message, transfer = []) => scope.postMessage(message, [...transfer]),
    onMessage: (listener) => scope.addEventListener("message", (event) => listener(event.data)),
  };
}

/**
 * Why a global `Worker` is missing, or null when there is one.
 *
 * @returns The reason, or null.
 */
export function noGlobalWorker(): string | null {
  return typeof globalThis.Worker === "function" ? null : "this runtime has no global Worker";
}
