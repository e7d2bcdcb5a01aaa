/**
 * The runtime adapter: one module per runtime (`deno.ts`, `bun.ts`,
 * `node.ts`) with the same names, chosen once here, so the rest of the code
 * never asks which runtime it runs on.
 *
 * @module
 */
import * as bun from "./bun.ts";
import * as deno from "./deno.ts";
import * as node from "./node.ts";

// Bun first: a test shim may give Bun a `Deno` global.
const runtime: typeof deno = "Bun" in globalThis ? bun : "Deno" in globalThis ? deno : node;

/** What to tell the user when the runtime forbids a connection, or null when it never does. */
export const PERMISSION_ADVICE: string | null = runtime.PERMISSION_ADVICE;
/** Reads an environment variable without prompting; undefined when unset or not permitted. */
export const readEnv: (name: string) => string | undefined = runtime.readEnv;
/** A fetch that sends every request through the HTTP proxy at the given URL. */
export const createProxyFetch: (proxyUrl: string) => typeof fetch = runtime.createProxyFetch;
