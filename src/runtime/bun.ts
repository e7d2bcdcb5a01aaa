/**
 * Bun's side of the runtime adapter (see `mod.ts`).
 *
 * @module
 */
import process from "node:process";

/** Bun grants every connection: no permission to name. */
export const PERMISSION_ADVICE: string | null = null;

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
