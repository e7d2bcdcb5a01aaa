/**
 * Deno's side of the runtime adapter (see `mod.ts`).
 *
 * @module
 */

/** What a Deno user must add when the runtime forbids a connection. */
export const PERMISSION_ADVICE: string | null = "run Deno with --allow-net";

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
