/**
 * Moved to `many_sites.ts`; kept until the command line's imports follow.
 *
 * @module
 */
export * from "./many_sites.ts";
