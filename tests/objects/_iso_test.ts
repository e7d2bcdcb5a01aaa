import assert from "node:assert/strict";
import { isoString } from "../../src/objects/_iso.ts";

Deno.test("isoString() writes what toISOString() writes at the edges", () => {
  const edges = [
    0,
    -1,
    1,
    Date.UTC(2000, 1, 29, 23, 59, 59, 999),
    Date.UTC(1900, 1, 28),
    Date.UTC(1900, 2, 1),
    Date.UTC(2100, 2, 1),
    Date.UTC(2024, 0, 2, 3, 4, 5, 6),
    -62_167_219_200_000,
    -62_167_219_200_001,
    253_402_300_799_999,
    253_402_300_800_000,
    8.64e15,
    -8.64e15,
  ];
  assert.deepEqual(edges.map(isoString), edges.map((ms) => new Date(ms).toISOString()));
  assert.equal(isoString(Date.UTC(2024, 0, 2, 3, 4, 5, 6)), "2024-01-02T03:04:05.006Z");
});

Deno.test("isoString() writes what toISOString() writes across years 0 to 9999", () => {
  // A fixed pseudo-random walk: reproducible, and it hits every month and leap rule.
  let seed = 12345;
  const mismatches: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const ms = -62_167_219_200_000 + Math.floor((seed / 2_147_483_648) * 315_569_520_000_000);
    if (isoString(ms) !== new Date(ms).toISOString()) mismatches.push(ms);
  }
  assert.deepEqual(mismatches, []);
});
