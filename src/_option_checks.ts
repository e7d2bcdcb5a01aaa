/**
 * The checks every options object shares, so one mistake reads the same
 * whichever option has it.
 *
 * @module
 */

/**
 * An integer option: its value, or `fallback` when absent.
 *
 * @param name The option's name, for the message.
 * @param value The value given.
 * @param fallback The default.
 * @param min The least value allowed.
 * @returns The value.
 * @throws {RangeError} When the value is not an integer >= `min`, naming both.
 */
export function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new RangeError(
      `Option "${name}" must be an integer >= ${min}, got ${
        JSON.stringify(value) ?? String(value)
      }`,
    );
  }
  return value;
}
