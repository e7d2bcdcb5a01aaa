import assert from "node:assert/strict";
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatSeconds,
} from "../../src/format/_units.ts";

Deno.test("units format counts, bytes and durations without the locale", () => {
  assert.deepEqual([0, 999, 1000, 240118, 1234567].map(formatCount), [
    "0",
    "999",
    "1,000",
    "240,118",
    "1,234,567",
  ]);
  assert.deepEqual([0, 999, 1000, 12_345, 999_999, 18_400_000, 2e9].map(formatBytes), [
    "0 B",
    "999 B",
    "1.0 kB",
    "12.3 kB",
    "1.0 MB",
    "18.4 MB",
    "2.0 GB",
  ]);
  assert.deepEqual([0, 12.34, 999.9, 999.96, 2345].map(formatDuration), [
    "0.0 ms",
    "12.3 ms",
    "999.9 ms",
    "1.0 s",
    "2.3 s",
  ]);
  assert.equal(formatSeconds(2345), "2.3 s");
});
