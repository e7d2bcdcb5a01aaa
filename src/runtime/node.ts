/**
 * Node's side of the runtime adapter (see `mod.ts`).
 *
 * @module
 */
import process from "node:process";

/** Node grants every connection: no permission to name. */
export const PERMISSION_ADVICE: string | null = null;

/** An environment variable, or undefined when unset. */
export function readEnv(name: string): string | undefined {
  return process.env[name];
}

/**
 * Node's built-in fetch has no proxy setting (undici's `ProxyAgent` is not
 * exposed without a dependency): pass a proxying `fetch` instead.
 *
 * @throws {TypeError} Always.
 */
export function createProxyFetch(_proxyUrl: string): typeof fetch {
  throw new TypeError(
    'Option "proxy" needs Deno or Bun; on Node pass a "fetch" that goes through the proxy',
  );
}
