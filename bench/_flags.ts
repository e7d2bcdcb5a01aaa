/**
 * Command-line flags of the benchmark and fuzzing scripts.
 *
 * @module
 */
import process from "node:process";

/**
 * The number after `--name` on the command line, or `fallback` without one.
 *
 * @param name The flag, without its dashes.
 * @param fallback The value when the flag is absent.
 * @returns The number.
 * @throws {TypeError} When the value after the flag is not a finite number.
 */
export function numberFlag(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value)) {
    throw new TypeError(`--${name} needs a number, got ${args[i + 1]}`);
  }
  return value;
}
