/**
 * The runtime adapter this process uses, chosen once: Deno and Bun by their
 * globals, Node otherwise. Everything runtime-specific lives in the adapters
 * (deno.ts, bun.ts, node.ts: the same function names in each); the rest of
 * the library asks this module, never which runtime it is on.
 *
 * All three are imported (statically: a top-level `await import()` here
 * left Bun's module loader hung once workers started); the `node:` built-ins
 * beyond `node:process` (zlib, the file system, DNS, worker threads) are
 * loaded only when first called for, so a runtime loads only those it uses.
 *
 * @module
 */
import type { Connections, Runtime } from "./_types.ts";
import * as bun from "./bun.ts";
import * as deno from "./deno.ts";
import * as node from "./node.ts";

export type {
  Connections,
  FileSystem,
  ParentPort,
  ParseWorker,
  Runtime,
  WorkerEvents,
  Zlib,
} from "./_types.ts";

const g = globalThis as { Bun?: unknown; Deno?: { version?: { deno?: unknown } } };

/**
 * The adapter for the runtime this code runs on. Told apart by what only that
 * runtime defines: test shims put a `Deno.test` on Bun and Node, never
 * `Deno.version`.
 */
export const runtime: Runtime = g.Bun !== undefined
  ? bun
  : typeof g.Deno?.version?.deno === "string"
  ? deno
  : node;

/** What to tell the user when the runtime forbids a connection, or null when it never does. */
export const PERMISSION_ADVICE: string | null = runtime.PERMISSION_ADVICE;
/** Whether using one of these permissions may draw a permission prompt (Deno); false elsewhere. */
export const permissionMayPrompt: Runtime["permissionMayPrompt"] = runtime.permissionMayPrompt;
/** Reads an environment variable without prompting; undefined when unset or not permitted. */
export const readEnv: (name: string) => string | undefined = runtime.readEnv;
/** A fetch that sends every request through the HTTP proxy at the given URL. */
export const createProxyFetch: (proxyUrl: string) => typeof fetch = runtime.createProxyFetch;
/** The fetch a web client uses when the caller gives none (the runtime's own; `node:http` on Node). */
export const defaultFetch: Runtime["defaultFetch"] = runtime.defaultFetch;
/** Connections of one site of many, closed when the site is done. */
export const openConnections: () => Connections = runtime.openConnections;

/**
 * Writes `bytes` to `path` whole or not at all: to a temporary file beside
 * it, then renamed over it, so a reader sees the old file or the new one; a
 * failed write removes its temporary file.
 *
 * The cache, snapshots and the command line's files all write this way.
 *
 * @param path The file; its directory must exist.
 * @param bytes The content.
 * @throws When the file cannot be written.
 */
export async function replaceFile(path: string, bytes: Uint8Array): Promise<void> {
  const { rename, rm, writeFile } = await runtime.loadFileSystem();
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}
