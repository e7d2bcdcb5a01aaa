/**
 * The few assertions the suite needs, in @std/assert's shape (JSR is not
 * reachable here), on top of node:assert's deep equality.
 */
import { deepStrictEqual, ok } from "node:assert/strict";

/** Fails with `message` unless `value` is truthy. */
export function assert(value: unknown, message = "Assertion failed"): asserts value {
  ok(value, message);
}

/** Fails unless `actual` deep-equals `expected` (strict, with a diff). */
export function assertEquals<T>(
  actual: unknown,
  expected: T,
  message?: string,
): asserts actual is T {
  if (message === undefined) deepStrictEqual(actual, expected);
  else deepStrictEqual(actual, expected, message);
}

/**
 * Fails unless `fn` rejects; with `ErrorClass`, unless the error is one, and
 * with `includes`, unless its message contains that text. Returns the error.
 */
export async function assertRejects(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  ErrorClass?: new (...args: any[]) => Error,
  includes?: string,
): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    if (ErrorClass && !(error instanceof ErrorClass)) {
      throw new Error(`Expected ${ErrorClass.name}, got ${String(error)}`);
    }
    if (includes !== undefined && !(error instanceof Error && error.message.includes(includes))) {
      throw new Error(
        `Expected message containing ${JSON.stringify(includes)}, got ${String(error)}`,
      );
    }
    return error;
  }
  throw new Error("Expected the promise to reject");
}
