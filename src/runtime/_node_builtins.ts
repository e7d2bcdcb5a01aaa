/**
 * The `node:` built-ins the library uses beside fetch and workers (zlib, the
 * file system, DNS, thread priority), shared by the three adapters: Deno, Bun
 * and Node all provide them. The functions carry the adapter contract's
 * names (runtime/_types.ts), which the adapters re-export. Each module is
 * imported on first use, so that a module importing the adapters loads none
 * of them until it needs one.
 *
 * @module
 */
import type { FileSystem, Zlib } from "./_types.ts";

interface NodeProcess {
  getBuiltinModule?(id: string): unknown;
}

/**
 * A Node built-in, loaded synchronously when first needed: a static import
 * would load it on Deno and Bun too, which import the Node adapter but never
 * call it. `process.getBuiltinModule` is Node >= 20.16.
 *
 * @param id The module, e.g. `node:http`.
 * @returns The module.
 * @throws {Error} Where `process.getBuiltinModule` is missing.
 */
export function nodeBuiltin(id: string): unknown {
  const process = (globalThis as { process?: NodeProcess }).process;
  if (typeof process?.getBuiltinModule !== "function") {
    throw new Error("Node >= 20.16 is needed (process.getBuiltinModule)");
  }
  return process.getBuiltinModule(id);
}

let zlib: Promise<Zlib | null> | undefined;

/**
 * `node:zlib` and `node:buffer`, loaded once.
 *
 * @returns The functions, or null where they cannot be loaded.
 */
export function loadZlib(): Promise<Zlib | null> {
  zlib ??= (async () => {
    try {
      const [z, buffer] = await Promise.all([import("node:zlib"), import("node:buffer")]);
      if (typeof z.gunzipSync !== "function") return null;
      return {
        gunzipSync: (bytes, options) => z.gunzipSync(bytes, options),
        gzipSync: (bytes, options) => z.gzipSync(bytes, options),
        syncFlush: z.constants.Z_SYNC_FLUSH,
        maxLength: buffer.constants.MAX_LENGTH,
      };
    } catch {
      return null;
    }
  })();
  return zlib;
}

/**
 * `node:fs/promises`, as {@linkcode FileSystem}.
 *
 * @returns The functions; rejects where the module cannot be loaded.
 */
export async function loadFileSystem(): Promise<FileSystem> {
  const fs = await import("node:fs/promises");
  return {
    readFile: async (path) => {
      const data = await fs.readFile(path);
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    },
    writeFile: (path, data) => fs.writeFile(path, data),
    mkdir: (path, options) => fs.mkdir(path, options),
    rename: (from, to) => fs.rename(from, to),
    rm: (path, options) => fs.rm(path, options),
  };
}

/**
 * Every address of `hostname`, from `node:dns/promises` `lookup`.
 *
 * @param hostname A DNS name, without brackets.
 * @returns The addresses, IPv4 and IPv6.
 */
export async function resolveHost(hostname: string): Promise<readonly string[]> {
  const { lookup } = await import("node:dns/promises");
  const results = await lookup(hostname, { all: true });
  return results.map((result) => result.address);
}

/**
 * Sets this thread's niceness through `os.setPriority` on its Linux thread
 * id (read from `/proc/thread-self`); silent where either is missing or not
 * allowed.
 *
 * @param nice The niceness, 0 (default) to 19 (lowest).
 */
export async function lowerThreadPriority(nice: number): Promise<void> {
  try {
    const [{ readlinkSync }, { setPriority }] = await Promise.all([
      import("node:fs"),
      import("node:os"),
    ]);
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the default priority.
  }
}
