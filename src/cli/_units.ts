/**
 * The units moved to the library (`src/_units.ts`), which the report shares.
 *
 * @module
 */
export * from "../_units.ts";
