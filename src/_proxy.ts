/**
 * Which HTTP proxy a request goes through: the `proxy` option for every URL,
 * else the standard environment variables (`HTTPS_PROXY` for `https:` URLs,
 * `HTTP_PROXY` for `http:` ones, lower-case spellings too), minus the hosts
 * `NO_PROXY` names. Deno's and Bun's `fetch` read those variables
 * themselves; this module tells the private-network guard which names only
 * the proxy can resolve.
 *
 * @module
 */
import { readEnv } from "./runtime/mod.ts";

/** The variables read, each upper case first. */
function env(name: string): string | undefined {
  const value = readEnv(name) ?? readEnv(name.toLowerCase());
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * Whether `NO_PROXY` (comma- or space-separated) exempts `url`: `*` exempts
 * everything; an entry matches its host and the host's subdomains (a leading
 * `.` or `*.` changes nothing), with its port only when it names one.
 *
 * @param url The URL about to be fetched.
 * @param noProxy The variable's value.
 * @returns True when the URL is fetched directly.
 *
 * @example Exempt a domain
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { exemptFromProxy } from "./_proxy.ts";
 *
 * strictEqual(exemptFromProxy(new URL("http://a.corp.example/"), "localhost,.corp.example"), true);
 * strictEqual(exemptFromProxy(new URL("http://example.org/"), "localhost,.corp.example"), false);
 * ```
 */
export function exemptFromProxy(url: URL, noProxy: string): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[,\s]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    let entryPort: string | null = null;
    const colon = entry.lastIndexOf(":");
    if (colon > 0 && !entry.endsWith("]") && /^\d+$/.test(entry.slice(colon + 1))) {
      entryPort = entry.slice(colon + 1);
      entry = entry.slice(0, colon);
    }
    entry = entry.replace(/^\*?\./, "");
    if (entryPort !== null && entryPort !== port) continue;
    if (host === entry || host.endsWith("." + entry)) return true;
  }
  return false;
}

/**
 * The proxy `url` goes through, or null when it is fetched directly.
 *
 * @param url The URL about to be fetched.
 * @param explicit The `proxy` option (every URL goes through it), or null.
 * @returns The proxy's URL, or null.
 */
export function proxyFor(url: URL, explicit: string | null): string | null {
  if (explicit !== null) return explicit;
  const proxy = url.protocol === "https:" ? env("HTTPS_PROXY") : env("HTTP_PROXY");
  if (proxy === undefined) return null;
  const noProxy = env("NO_PROXY");
  return noProxy !== undefined && exemptFromProxy(url, noProxy) ? null : proxy;
}

/**
 * Whether `HTTP_PROXY` or `HTTPS_PROXY` (either case) names a proxy.
 *
 * @returns True when the runtime's fetch may route through an environment proxy.
 */
export function environmentProxy(): boolean {
  return env("HTTP_PROXY") !== undefined || env("HTTPS_PROXY") !== undefined;
}

/**
 * Checks a `proxy` option: an absolute `http:` or `https:` URL.
 *
 * @throws {TypeError} Naming the value otherwise.
 */
export function checkProxyUrl(value: unknown): string {
  let url: URL | null = null;
  try {
    url = new URL(String(value));
  } catch {
    // Reported below.
  }
  if (typeof value !== "string" || url === null || !/^https?:$/.test(url.protocol)) {
    throw new TypeError(
      `Option "proxy" must be an http(s) URL such as "http://proxy.example:3128", got ${
        JSON.stringify(value) ?? String(value)
      }`,
    );
  }
  return value;
}
