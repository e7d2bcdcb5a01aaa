// deno-lint-ignore-file
/**
 * For the npm build only (build/tsconfig.json): the library reaches Deno's
 * own API on Deno-only paths, behind `globalThis.Deno` checks. tsc checks the
 * build against Node's types, where `Deno` does not exist; here it is only
 * declared to exist. `deno check` checks those paths against Deno's real types.
 * Nothing here reaches the shipped `.d.ts` files.
 */
declare var Deno: any;
