/**
 * Moved to `_parse_pool.ts`; kept until the command line's imports follow.
 *
 * @module
 */
export * from "./_parse_pool.ts";
