/**
 * Run by the pool's tests as `deno run -A _pool_script.ts < jobs.json` or
 * `bun _pool_script.ts < jobs.json`: parses the jobs on a pool of real workers,
 * closes it and prints `{ size, started, outcomes }` as JSON. The process must then exit
 * by itself.
 *
 * A subprocess because `deno run` loads the worker module as is, while a
 * worker started under `deno test` is type-checked first (seconds per start);
 * and because Bun needs a process of its own anyway.
 *
 * @module
 */
import process from "node:process";
import { createParsePool } from "../../src/workers/_parse_pool.ts";
import { type JobData, jobFromData, plainOutcome } from "./_outcome.ts";

const chunks: Uint8Array<ArrayBuffer>[] = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(await new Blob(chunks).text()) as {
  readonly workers: number;
  readonly jobTimeoutMs: number;
  /** Another worker module (tests/workers/_test_worker.js), or null for the real one. */
  readonly workerUrl: string | null;
  readonly warm?: boolean;
  readonly jobs: readonly JobData[];
};
const pool = createParsePool({
  workers: input.workers,
  jobTimeoutMs: input.jobTimeoutMs,
  ...(input.workerUrl === null ? {} : { workerUrl: new URL(input.workerUrl) }),
});
if (input.warm === true) pool.warm();
const outcomes = await Promise.all(input.jobs.map((data) => pool.parse(jobFromData(data))));
pool.close();
console.log(JSON.stringify({
  size: pool.size,
  started: pool.started,
  outcomes: outcomes.map(plainOutcome),
}));
