/**
 * `node:zlib`'s synchronous functions where the runtime hands them out
 * synchronously (`process.getBuiltinModule`: Deno, Bun and Node 20.16+):
 * kept extensions are deflated at the end of a parse and inflated on a
 * page's first read, both inside synchronous calls.
 *
 * @module
 */

/** The functions used. */
export interface SyncZlib {
  deflateRawSync(bytes: Uint8Array, options: { level: number; chunkSize?: number }): Uint8Array;
  inflateRawSync(bytes: Uint8Array, options?: { chunkSize?: number }): Uint8Array;
  gunzipSync(bytes: Uint8Array, options?: { chunkSize?: number }): Uint8Array;
}

let loaded: SyncZlib | null | undefined;

/**
 * `node:zlib`, or null where it cannot be had synchronously.
 *
 * @returns The module, loaded once.
 */
export function syncZlib(): SyncZlib | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  try {
    const process = (globalThis as {
      process?: { getBuiltinModule?: (name: string) => unknown };
    }).process;
    const z = process?.getBuiltinModule?.("node:zlib") as SyncZlib | undefined;
    if (z !== undefined && typeof z.inflateRawSync === "function") loaded = z;
  } catch {
    // No such module here: extensions stay uncompressed.
  }
  return loaded;
}

/**
 * `bytes` as a plain `Uint8Array` over a buffer of their own, exactly sized
 * (a `Buffer` may be a view into a shared slab, which a transfer list cannot
 * take): a view of the same memory when that is already so, else a copy.
 *
 * @param bytes What zlib returned, or a downloaded body.
 * @returns The bytes.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) {
    return new Uint8Array(bytes);
  }
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer);
}
