/**
 * The checks every options object shares, so one mistake reads the same
 * whichever option has it.
 *
 * @module
 */

/** The longest delay `setTimeout` honours (2^31 - 1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * An integer option: its value, or `fallback` when absent.
 *
 * @param name The option's name, for the message.
 * @param value The value given.
 * @param fallback The default.
 * @param min The least value allowed.
 * @param max The greatest value allowed.
 * @returns The value.
 * @throws {RangeError} When the value is not an integer from `min` to `max`, naming them.
 */
export function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new RangeError(
      `Option "${name}" must be an integer ${range}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return value;
}
