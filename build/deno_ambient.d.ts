// deno-lint-ignore-file
/**
 * For the npm build only (build/tsconfig*.json): the library reaches Deno's
 * own API in src/runtime/deno.ts (and on a few Deno-only paths behind
 * `globalThis.Deno` checks). tsc checks the build against Node's types, where
 * `Deno` does not exist; here it is only declared to exist, with the few
 * names those paths use as types. `deno check` checks them against Deno's
 * real types. Nothing here reaches the shipped `.d.ts` files.
 *
 * A new `Deno.SomeType` in the library needs a line here, or the build fails.
 */
declare var Deno: any;
declare namespace Deno {
  type HttpClient = any;
}
/** Deno's fetch takes a `client` (Deno.createHttpClient) for proxies. */
interface RequestInit {
  client?: unknown;
}
