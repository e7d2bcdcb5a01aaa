/**
 * One way to put anything thrown into words, for reasons and messages.
 *
 * @module
 */

/**
 * A readable message for anything thrown or reported as an error: an
 * `Error`'s message (its name when the message is empty, so a reason is never
 * blank), anything else as a string.
 *
 * @param error What was thrown.
 * @returns One line of text.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { errorMessage } from "./_error_message.ts";
 *
 * strictEqual(errorMessage(new RangeError("Too big")), "Too big");
 * strictEqual(errorMessage(new TypeError()), "TypeError");
 * strictEqual(errorMessage("plain"), "plain");
 * ```
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
