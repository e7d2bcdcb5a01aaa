/**
 * Why a request got no HTTP response, in one line a person can act on. The
 * runtimes report the same trouble in different shapes: Deno wraps it in a
 * `TypeError("fetch failed")` whose `cause` holds hyper's message
 * (`… tcp connect error: Connection refused (os error 111)`), or throws
 * `Deno.errors.NotCapable` without a permission; Bun throws a `TypeError`
 * with `code` `ECONNREFUSED`, `ENOTFOUND` or an OpenSSL code; Node's undici,
 * and the library's own Node transport (`runtime/_node_fetch.ts`), put a
 * system error with such a `code` in `cause`. This module reads all of
 * them (codes first, the runtime's own words as a fallback) into one
 * {@linkcode FetchFailure}.
 *
 * @module
 */
import { PERMISSION_ADVICE } from "./runtime/mod.ts";

/**
 * The kind of a failure below HTTP: `refused` (nothing listens), `host-not-found`
 * (DNS), `tls` (handshake or certificate), `timeout`, `permission` (the runtime
 * forbids the connection, e.g. Deno without `--allow-net`), `network` (any other
 * transport error, such as a reset), `refused-by-guard` (the private-network guard
 * or another `checkUrl` refused the URL before any request).
 */
export type FetchFailureKind =
  | "refused"
  | "host-not-found"
  | "tls"
  | "timeout"
  | "permission"
  | "network"
  | "refused-by-guard";

/** A failure below HTTP: its kind and the one-line cause, e.g. `connection refused (127.0.0.1:59999)`. */
export interface FetchFailure {
  readonly kind: FetchFailureKind;
  /** One line naming the cause and the host, without a trailing period. */
  readonly cause: string;
}

/** `host:port`, the port spelled out even when it is the scheme's default. */
export function hostAndPort(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

interface ErrorLike {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
}

/** The error and its `cause` chain, outermost first (at most 6 deep, cycles cut). */
function chain(error: unknown): ErrorLike[] {
  const links: ErrorLike[] = [];
  let current: unknown = error;
  while (current !== null && typeof current === "object" && links.length < 6) {
    if (links.includes(current as ErrorLike)) break;
    links.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return links;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH|ALTNAME/;
/**
 * TLS in the runtimes' words. Besides the plain ones (Bun: `EPROTO: The TLS
 * handshake failed. …`), Deno passes on rustls' own errors, which never say
 * "TLS": an https request to a plain-HTTP port reads the server's HTTP answer
 * as a TLS record and fails with `received corrupt message of type
 * InvalidContentType`; a server that cannot agree on a protocol gives
 * `peer is incompatible: …` or `received fatal alert: …`.
 */
const TLS_WORDS = new RegExp(
  [
    String.raw`certificate|\btls\b|\bssl\b|handshake`,
    "received corrupt message",
    "received unexpected (?:handshake )?message",
    "received fatal alert",
    "peer is incompatible",
    "peer misbehaved",
    "peer sent no certificates",
  ].join("|"),
  "i",
);

/**
 * Reads a thrown fetch (or DNS) error into a {@linkcode FetchFailure}.
 *
 * @param error What `fetch`, a body read or the guard's resolver threw.
 * @param url The URL being fetched (names the host in the cause).
 * @returns The failure's kind and its one-line cause.
 *
 * @example Bun's refused connection
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { describeFetchError } from "./_fetch_failure.ts";
 *
 * const error = Object.assign(new TypeError("Unable to connect"), { code: "ECONNREFUSED" });
 * deepStrictEqual(describeFetchError(error, new URL("http://127.0.0.1:59999/robots.txt")), {
 *   kind: "refused",
 *   cause: "connection refused (127.0.0.1:59999)",
 * });
 * ```
 */
export function describeFetchError(error: unknown, url: URL): FetchFailure {
  const where = hostAndPort(url);
  const links = chain(error);
  const names = links.map((e) => String(e.name ?? ""));
  const codes = links.map((e) => (typeof e.code === "string" ? e.code : ""));
  const messages = links.map((e) => (typeof e.message === "string" ? e.message : ""));
  const words = messages.join("\n");
  const has = (test: (name: string, code: string) => boolean): boolean =>
    links.some((_, i) => test(names[i]!, codes[i]!));

  if (
    has((name, code) =>
      name === "NotCapable" || name === "PermissionDenied" || code === "EPERM" || code === "EACCES"
    )
  ) {
    return {
      kind: "permission",
      cause: PERMISSION_ADVICE === null
        ? `permission denied (${where})`
        : `permission denied: ${PERMISSION_ADVICE}`,
    };
  }
  if (
    has((name, code) => name === "ConnectionRefused" || code === "ECONNREFUSED") ||
    /connection refused/i.test(words)
  ) {
    return { kind: "refused", cause: `connection refused (${where})` };
  }
  if (
    has((_, code) => ["ENOTFOUND", "EAI_NONAME", "EAI_AGAIN", "ETIMEOUT"].includes(code)) ||
    /dns error|failed to lookup address|name or service not known|ENOTFOUND/i.test(words)
  ) {
    return { kind: "host-not-found", cause: `host not found (${url.hostname})` };
  }
  if (has((_, code) => code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT")) {
    return { kind: "timeout", cause: `timeout while connecting (${where})` };
  }
  const detail = innermost(messages);
  if (has((_, code) => TLS_CODE.test(code)) || TLS_WORDS.test(words)) {
    return { kind: "tls", cause: `TLS failure (${where}: ${detail})` };
  }
  return { kind: "network", cause: `network error (${where}: ${detail})` };
}

/**
 * The most specific message of the chain: the innermost one, with Deno's
 * `error sending request for url (…): client error (Connect): ` preamble and
 * the `Other(OtherError(…))` wrapping of rustls dropped.
 */
function innermost(messages: readonly string[]): string {
  const found = [...messages].reverse().find((m) => m !== "" && m !== "fetch failed") ??
    "unknown error";
  const text = found
    .replace(/^error sending request for url \([^)]*\):\s*/, "")
    .replace(/^client error \([^)]*\):\s*/, "")
    .replace(/Other\(OtherError\(([^()]*)\)\)/, "$1")
    .split("\n", 1)[0]!;
  return text.length > 160 ? text.slice(0, 160) + "…" : text;
}
