import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import process from "node:process";
import { type ParseJob, type ParseOutcome, runParseJob } from "../../src/workers/_job.ts";
import {
  createParsePool,
  defaultWorkerCount,
  START_GAP_MS,
} from "../../src/workers/_parse_pool.ts";
import { jobData, plainOutcome } from "./_outcome.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { callPoolPlan, poolForCall } from "../../src/workers/parser_pool.ts";

/** What tests/workers/_test_worker.js reports about a job it echoes. */
interface Echo {
  /** Random per worker instance. */
  readonly worker: string;
  readonly url: string;
  readonly text: string;
  /** Size of the buffer that arrived in the worker. */
  readonly bufferBytes: number;
  /** Jobs the worker held at once, this one included. */
  readonly concurrent: number;
  /** The warm-up the pool asked of this worker, or null if it asked none before the job. */
  readonly warmUp: "none" | "light" | "full" | null;
}

const TEST_WORKER = new URL("./_test_worker.js", import.meta.url);

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/old</loc><lastmod>2020-01-01</lastmod></url>
  <url><loc>https://example.com/new</loc><lastmod>2024-06-01</lastmod><priority>0.8</priority></url>
</urlset>
`;

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const BUN = new URL("../../node_modules/.bin/bun", import.meta.url);

/** Bundled for Node (tests/node/run_deno_tests.mjs): the scripts beside this file are `.js` too. */
const BUNDLED = import.meta.url.endsWith(".js");
const ON_DENO = runtime.name === "deno";

interface ScriptOptions {
  readonly runtime?: "deno" | "bun";
  readonly workers?: number;
  readonly jobTimeoutMs?: number;
  /** Another worker module; the real one when absent. */
  readonly workerUrl?: URL;
  /** Run Deno with no permissions rather than `-A`. */
  readonly noPermissions?: boolean;
  /** Call `warm()` before the first job. */
  readonly warm?: boolean;
}

/**
 * Parses the jobs on a pool of workers in a subprocess (see _pool_script.ts),
 * which must exit by itself within a generous deadline: `deno run` (or Bun)
 * beside `deno test`, Node beside the bundled tests.
 */
async function parseInSubprocess(
  jobs: readonly ParseJob[],
  options: ScriptOptions = {},
): Promise<{ size: number; started: number; outcomes: unknown[] }> {
  const script = new URL(BUNDLED ? "./_pool_script.js" : "./_pool_script.ts", import.meta.url);
  const [command, args] = options.runtime === "bun"
    ? [BUN.pathname, [script.pathname]]
    : ON_DENO
    ? [Deno.execPath(), ["run", ...(options.noPermissions ? [] : ["-A"]), script.href]]
    : [process.execPath, [script.pathname]];
  const input = {
    workers: options.workers ?? 1,
    jobTimeoutMs: options.jobTimeoutMs ?? 30_000,
    workerUrl: options.workerUrl?.href ?? null,
    warm: options.warm ?? false,
    jobs: jobs.map(jobData),
  };
  const { code, signal, stdout, stderr } = await run(command, args, JSON.stringify(input));
  if (options.workerUrl === undefined) assert.equal(stderr, "");
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, "exited by itself in time");
  return JSON.parse(stdout);
}

/**
 * Runs a command with `input` on its stdin; killed after 60 s. `Deno.Command`
 * on Deno, whose `node:child_process` adds permission flags to a spawned `deno`.
 */
async function run(
  command: string,
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  if (!ON_DENO) return await runNode(command, args, input);
  const child = new Deno.Command(command, {
    args: [...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
    const { code, signal, stdout, stderr } = await child.output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code, signal, stdout: text(stdout), stderr: text(stderr) };
  } finally {
    clearTimeout(deadline);
  }
}

function runNode(
  command: string,
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => stdout += text);
    child.stderr.setEncoding("utf8").on("data", (text: string) => stderr += text);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function job(url: string, text = "", overrides: Partial<ParseJob> = {}): ParseJob {
  return {
    bytes: new TextEncoder().encode(text),
    url,
    since: NaN,
    robots: false,
    contentType: null,
    maxSitemapBytes: 1_000_000,
    ...overrides,
  };
}

function echoOf(outcome: ParseOutcome): Echo {
  assert.equal(outcome.result.kind, "invalid", JSON.stringify(outcome.result));
  return JSON.parse(outcome.result.kind === "invalid" ? outcome.result.reason : "") as Echo;
}

function reasonOf(outcome: ParseOutcome): string {
  return outcome.result.kind === "invalid" ? outcome.result.reason : `<${outcome.result.kind}>`;
}

function comparable(outcome: ParseOutcome): unknown {
  return { ...outcome, parseMs: 0 };
}

/** A pool of `workers` stand-in workers (tests/workers/_test_worker.js). */
function stubPool(
  workers: number,
  grow: "when-queued" | "at-once" = "when-queued",
  warmWorkers?: number,
) {
  return createParsePool({
    workers,
    jobTimeoutMs: 30_000,
    workerUrl: TEST_WORKER,
    grow,
    ...(warmWorkers === undefined ? {} : { warmWorkers }),
  });
}

Deno.test("defaultWorkerCount() is one per core, at most 4", () => {
  assert.equal(defaultWorkerCount(), Math.min(4, availableParallelism()));
});

Deno.test("createParsePool() rejects a bad worker count or timeout", () => {
  assert.throws(
    () => createParsePool({ workers: -1, jobTimeoutMs: 1000 }),
    new RangeError("Invalid number of parse workers: -1"),
  );
  assert.throws(
    () => createParsePool({ workers: 1.5, jobTimeoutMs: 1000 }),
    new RangeError("Invalid number of parse workers: 1.5"),
  );
  assert.throws(
    () => createParsePool({ workers: 1, jobTimeoutMs: 0 }),
    new RangeError("Invalid parse job timeout: 0 ms"),
  );
  assert.throws(
    () => createParsePool({ workers: 1, jobTimeoutMs: NaN }),
    new RangeError("Invalid parse job timeout: NaN ms"),
  );
});

Deno.test("ParsePool.parse() on 1 or 2 workers gives the calling thread's outcome", async () => {
  const jobs = [
    job("https://example.com/robots.txt", "Sitemap: https://example.com/a.xml\n", {
      robots: true,
      contentType: "text/plain",
    }),
    job("https://example.com/sitemap.txt", "https://example.com/a\nhttps://example.com/b\n"),
    job("https://example.com/sitemap.xml", URLSET),
    job("https://example.com/sitemap.xml.gz", "", { bytes: await gzip(URLSET) }),
  ];
  const expected = [];
  for (const each of jobs) expected.push(plainOutcome(await runParseJob(each)));
  for (const workers of [1, 2]) {
    const { size, outcomes } = await parseInSubprocess(jobs, { workers });
    assert.deepEqual({ size, outcomes }, { size: workers, outcomes: expected });
  }
});

Deno.test("ParsePool.warm() starts the workers ahead; jobs then give the same outcomes and the process exits", async () => {
  const jobs = [
    job("https://example.com/sitemap.txt", "https://example.com/a\nhttps://example.com/b\n"),
    job("https://example.com/sitemap.xml", URLSET),
  ];
  const expected = [];
  for (const each of jobs) expected.push(plainOutcome(await runParseJob(each)));
  const { size, outcomes } = await parseInSubprocess(jobs, { workers: 2, warm: true });
  assert.equal(size, 2);
  assert.deepEqual(outcomes, expected);
});

Deno.test("ParsePool: a since run of small gzipped urlsets parses on one worker of two", async () => {
  const since = Date.UTC(2023, 0, 1);
  const bytes = await gzip(URLSET);
  const jobs = Array.from(
    { length: 4 },
    (_, i) => job(`https://example.com/s${i}.xml.gz`, "", { bytes: bytes.slice(), since }),
  );
  const { size, started, outcomes } = await parseInSubprocess(jobs, { workers: 2, warm: true });
  assert.deepEqual({ size, started }, { size: 2, started: 1 });
  assert.deepEqual(
    outcomes.map((outcome) =>
      (outcome as { result: { pages: { urls: string[] } } }).result.pages.urls
    ),
    Array(4).fill(["https://example.com/new"]),
  );
});

Deno.test("ParsePool.parse() reads a gzipped urlset on a worker, since applied there", async () => {
  const bytes = await gzip(URLSET);
  const since = Date.UTC(2023, 0, 1);
  const url = "https://example.com/sitemap.xml.gz";
  const { outcomes } = await parseInSubprocess([
    job(url, "", { bytes }),
    job(url, "", { bytes: bytes.slice(), since }),
  ]);
  const pages = (urls: string[], lastModified: number[], priority: number[]) => ({
    count: urls.length,
    urls,
    lastModified,
    priority,
    changeFrequency: urls.map(() => 0),
    extras: "",
  });
  const result = (found: number, packed: unknown) => ({
    result: { kind: "pages", format: "urlset", pages: packed, found, warning: null },
    decompressedBytes: new TextEncoder().encode(URLSET).byteLength,
  });
  assert.deepEqual(outcomes, [
    result(
      2,
      pages(
        ["https://example.com/old", "https://example.com/new"],
        [Date.UTC(2020, 0, 1), Date.UTC(2024, 5, 1)],
        [0.5, 0.8],
      ),
    ),
    // `found` counts both pages: the filter ran in the worker, after reading.
    result(2, pages(["https://example.com/new"], [Date.UTC(2024, 5, 1)], [0.8])),
  ]);
});

Deno.test({
  name: "ParsePool.parse() runs on Bun's workers",
  ignore: !ON_DENO,
  fn: async () => {
    const bytes = await gzip(URLSET);
    const url = "https://example.com/sitemap.xml.gz";
    const expected = plainOutcome(await runParseJob(job(url, "", { bytes: bytes.slice() })));
    const real = await parseInSubprocess([job(url, "", { bytes })], { runtime: "bun" });
    assert.deepEqual(real, { size: 1, started: 1, outcomes: [expected] });

    const misbehaving = await parseInSubprocess(
      [job("test:crash"), job("test:hang"), job("test:throw"), job("test:after", "ok")],
      // The allowance also times each worker's start-up (the crash replaces one):
      // 3 s, which a loaded machine does not miss, where 500 ms could.
      { runtime: "bun", workerUrl: TEST_WORKER, jobTimeoutMs: 3_000 },
    );
    const reasons = misbehaving.outcomes.map((outcome) => reasonOf(outcome as ParseOutcome));
    assert.deepEqual(reasons.slice(0, 3), [
      "Parser worker failed: Error: kaboom",
      "Parser worker timed out after 3000 ms",
      "Parser worker failed: boom",
    ]);
    assert.equal(echoOf(misbehaving.outcomes[3] as ParseOutcome).text, "ok");
  },
});

Deno.test("ParsePool.parse() with 0 workers parses on the calling thread", async () => {
  const pool = createParsePool({ workers: 0, jobTimeoutMs: 30_000 });
  assert.equal(pool.size, 0);
  const bytes = new TextEncoder().encode("https://example.com/a\n");
  const outcome = await pool.parse(job("https://example.com/s.txt", "", { bytes }));
  const expected = await runParseJob(job("https://example.com/s.txt", "https://example.com/a\n"));
  assert.deepEqual(comparable(outcome), comparable(expected));
  assert.equal(bytes.byteLength, 22, "nothing is transferred on the calling thread");
  pool.close();
  assert.equal(reasonOf(await pool.parse(job("x"))), "Parser pool was closed");
});

Deno.test("ParsePool.parse() on the calling thread lets due timers run before each document", async () => {
  const pool = createParsePool({ workers: 0, jobTimeoutMs: 30_000 });
  const order: string[] = [];
  setTimeout(() => order.push("timer"), 0);
  const parsed = Promise.all(
    ["a", "b"].map((name) =>
      pool.parse(job(`https://example.com/${name}.txt`, `https://example.com/${name}\n`))
        .then(() => order.push(name))
    ),
  );
  // Set after both documents came: it runs between them, not after both.
  setTimeout(() => order.push("timer 2"), 0);
  await parsed;
  assert.deepEqual(order, ["timer", "a", "timer 2", "b"]);
  pool.close();
  // Closed while a job waited for its turn: that job is refused, not parsed.
  const late = createParsePool({ workers: 0, jobTimeoutMs: 30_000 });
  const pending = late.parse(job("https://example.com/c.txt", "https://example.com/c\n"));
  late.close();
  assert.equal(reasonOf(await pending), "Parser pool was closed");
});

Deno.test({
  name: "ParsePool.parse() parses on the calling thread where Worker is missing",
  ignore: runtime.name === "node",
  fn: async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "Worker")!;
    Reflect.deleteProperty(globalThis, "Worker");
    try {
      const pool = createParsePool({ workers: 2, jobTimeoutMs: 30_000 });
      assert.equal(pool.size, 0);
      const outcome = await pool.parse(job("https://example.com/s.txt", "https://example.com/a\n"));
      const expected = await runParseJob(
        job("https://example.com/s.txt", "https://example.com/a\n"),
      );
      assert.deepEqual(comparable(outcome), comparable(expected));
      assert.equal(
        pool.startFailure,
        "Parse workers could not start (this runtime has no global Worker): sitemaps were parsed on the calling thread",
      );
      pool.close();
    } finally {
      Object.defineProperty(globalThis, "Worker", saved);
    }
  },
});

Deno.test({
  name: "ParsePool.parse() quietly parses on the calling thread without read access",
  ignore: !ON_DENO,
  fn: async () => {
    // Deno would refuse (or, on a terminal, ask) to read the local worker module.
    const text = "https://example.com/a\n";
    const expected = plainOutcome(await runParseJob(job("https://example.com/s.txt", text)));
    const { size, outcomes } = await parseInSubprocess([job("https://example.com/s.txt", text)], {
      workers: 2,
      noPermissions: true,
    });
    assert.deepEqual({ size, outcomes }, { size: 0, outcomes: [expected] });
  },
});

Deno.test("ParsePool.parse() falls back to the calling thread when the worker cannot load", async () => {
  const missing = new URL("./_no_such_worker.ts", import.meta.url);
  const pool = createParsePool({ workers: 2, jobTimeoutMs: 30_000, workerUrl: missing });
  try {
    assert.equal(pool.size, 2);
    const text = "https://example.com/a\n";
    const [first, second] = await Promise.all([
      pool.parse(job("https://example.com/1.txt", text)),
      pool.parse(job("https://example.com/2.txt", text)),
    ]);
    assert.deepEqual(
      comparable(first!),
      comparable(await runParseJob(job("https://example.com/1.txt", text))),
    );
    assert.deepEqual(
      comparable(second!),
      comparable(await runParseJob(job("https://example.com/2.txt", text))),
    );
    assert.equal(pool.size, 0);
    assert.match(
      pool.startFailure ?? "",
      /^Parse workers could not start \(.*_no_such_worker\.(ts|js).*\): sitemaps were parsed on the calling thread$/,
    );
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.parse() transfers the body's buffer to the worker", async () => {
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  try {
    const whole = job("test:echo", "hello");
    const echo = echoOf(await pool.parse(whole));
    assert.deepEqual([echo.text, echo.bufferBytes], ["hello", 5]);
    assert.equal(whole.bytes.byteLength, 0, "the caller's view is detached");

    // A view on a bigger buffer: only its bytes travel, and the rest stays usable.
    const big = new TextEncoder().encode("....slice....");
    const view = big.subarray(4, 9);
    const sliced = echoOf(await pool.parse(job("test:echo", "", { bytes: view })));
    assert.deepEqual([sliced.text, sliced.bufferBytes], ["slice", 5]);
    assert.equal(new TextDecoder().decode(big), "....slice....");
  } finally {
    pool.close();
  }
});

/**
 * A gzip body of `bytes` bytes (never inflated: the stand-in worker echoes it)
 * whose trailer says it inflates to `documentBytes`.
 */
function gzipClaiming(documentBytes: number, bytes = 1024): Uint8Array {
  const body = new Uint8Array(bytes);
  body.set([0x1f, 0x8b, 8]);
  new DataView(body.buffer).setUint32(bytes - 4, documentBytes, true);
  return body;
}

/**
 * A job's body that a worker would take over a second to parse at the rate a
 * pool assumes before it has measured one: a backlog worth another worker.
 */
function large(): Partial<ParseJob> {
  return { bytes: gzipClaiming(60_000_000), maxSitemapBytes: 100_000_000 };
}

Deno.test("ParsePool.parse() starts workers lazily and reuses them", async () => {
  const pool = createParsePool({ workers: 2, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  try {
    const sequential = [];
    for (let i = 0; i < 3; i++) sequential.push(echoOf(await pool.parse(job(`test:${i}`))));
    assert.equal(new Set(sequential.map((echo) => echo.worker)).size, 1);

    // Documents of 60 MB (their gzip trailers say so): a backlog worth a second worker.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pool.parse(job(`test:sleep:${150 + i}`, "", large()))),
    );
    const echoes = parallel.map(echoOf);
    assert.deepEqual(
      echoes.map((echo) => echo.url),
      [0, 1, 2, 3, 4, 5].map((i) => `test:sleep:${150 + i}`),
    );
    assert.equal(new Set(echoes.map((echo) => echo.worker)).size, 2);
    assert.deepEqual(echoes.map((echo) => echo.concurrent), [1, 1, 1, 1, 1, 1]);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool starts one worker for jobs it keeps up with, and warm() starts only that one", async () => {
  const pool = createParsePool({ workers: 2, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  try {
    pool.warm();
    assert.equal(pool.started, 1);
    const echoes = [];
    for (let round = 0; round < 4; round++) {
      // Bursts of two short jobs: the queue empties long before a second worker would help.
      const burst = await Promise.all([
        pool.parse(job(`test:${round}a`)),
        pool.parse(job(`test:${round}b`)),
      ]);
      echoes.push(...burst.map(echoOf));
    }
    assert.equal(new Set(echoes.map((echo) => echo.worker)).size, 1);
    assert.equal(pool.started, 1);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool keeps one worker for a stream of documents it clears within GROW_BACKLOG_MS", async () => {
  const pool = stubPool(2);
  try {
    pool.warm();
    // Eight 4 MB urlsets queued at once (a plain crawl's bodies, four fetches
    // at a time, queue like this when a worker is slow): 29 MB behind the first.
    const jobs = Array.from({ length: 8 }, (_, i) =>
      pool.parse(
        job(`test:sleep:${40 + i}`, "", {
          bytes: gzipClaiming(4_200_000),
          maxSitemapBytes: 50 << 20,
        }),
      ));
    const echoes = (await Promise.all(jobs)).map(echoOf);
    assert.equal(new Set(echoes.map((echo) => echo.worker)).size, 1);
    assert.equal(pool.started, 1);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool starts a second worker at once for a large backlog, after GROW_STALLED_MS for a stuck worker", async () => {
  // Two documents of 60 MB (their gzip trailers say so) are more than one
  // worker clears in GROW_BACKLOG_MS; two of 4 MB wait for the stuck worker
  // to finish something, GROW_STALLED_MS.
  for (const documentBytes of [4_200_000, 60_000_000]) {
    const pool = stubPool(2);
    try {
      const first = echoOf(await pool.parse(job("test:first")));
      // Past START_GAP_MS since the first worker started (Bun answers sooner).
      await new Promise((resolve) => setTimeout(resolve, 2 * START_GAP_MS));
      const long = pool.parse(job("test:sleep:3000"));
      const body = () => ({ bytes: gzipClaiming(documentBytes), maxSitemapBytes: 100_000_000 });
      const queued = [
        pool.parse(job("test:q1", "", body())),
        pool.parse(job("test:q2", "", body())),
      ];
      assert.equal(pool.started, documentBytes > 10_000_000 ? 2 : 1, String(documentBytes));
      const [q1, q2] = (await Promise.all(queued)).map(echoOf);
      assert.equal(pool.started, 2);
      assert.notEqual(q1!.worker, first.worker, "the queued jobs did not wait for the long one");
      assert.equal(q2!.worker, q1!.worker);
      assert.equal(echoOf(await long).worker, first.worker);
    } finally {
      pool.close();
    }
  }
});

Deno.test("ParsePool counts a gzip body by the document its trailer names, at most maxSitemapBytes", async () => {
  // 60 MB claimed but at most 1 MB allowed: no backlog worth a worker.
  const pool = stubPool(2);
  try {
    pool.warm();
    await pool.parse(job("test:first"));
    await Promise.all([
      pool.parse(job("test:sleep:100")),
      pool.parse(job("test:q1", "", { bytes: gzipClaiming(60_000_000) })),
      pool.parse(job("test:q2", "", { bytes: gzipClaiming(60_000_000) })),
    ]);
    assert.equal(pool.started, 1);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool never starts two workers in one turn of the event loop", async () => {
  for (const grow of ["when-queued", "at-once"] as const) {
    const pool = stubPool(3, grow);
    try {
      const jobs = Array.from(
        { length: 6 },
        (_, i) => pool.parse(job(`test:sleep:${300 + i}`, "", large())),
      );
      assert.equal(pool.started, 1, grow);
      const echoes = (await Promise.all(jobs)).map(echoOf);
      assert.equal(pool.started, 3, grow);
      assert.equal(new Set(echoes.map((echo) => echo.worker)).size, 3, grow);
    } finally {
      pool.close();
    }
  }
});

/**
 * Calls `pool.warm()` and waits until `pool.started` reaches `workers`: each
 * starts once the one before it has loaded (the stand-in never reports warm,
 * so no ready()).
 */
async function warmUntilStarted(pool: ReturnType<typeof stubPool>, workers: number) {
  pool.warm();
  assert.equal(pool.started, 1);
  for (let i = 0; i < 300 && pool.started < workers; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(pool.started, workers);
}

Deno.test("ParsePool.warm() with grow: at-once starts every worker, one after another", async () => {
  const pool = stubPool(2, "at-once");
  try {
    await warmUntilStarted(pool, 2);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.warm() with warmWorkers: 2 starts two of three workers, one after another", async () => {
  const pool = stubPool(3, "when-queued", 2);
  try {
    await warmUntilStarted(pool, 2);
    // The third waits for jobs that back up, as in any "when-queued" pool.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(pool.started, 2);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.warm(delayMs) starts the first worker once the delay has passed, and close() before it starts none", async () => {
  const pool = stubPool(2);
  const closed = stubPool(2);
  try {
    pool.warm(60);
    closed.warm(60);
    const soon = pool.started;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = pool.started;
    closed.close();
    for (let i = 0; i < 100 && pool.started === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Past the closed pool's timer too: it starts nothing (nor leaks it).
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(
      { soon, before, after: pool.started, closed: closed.started },
      { soon: 0, before: 0, after: 1, closed: 0 },
    );
  } finally {
    pool.close();
    closed.close();
  }
});

Deno.test("ParsePool.hurry() starts at once what warm(delayMs) waits to start, and nothing when no start waits", async () => {
  const delayed = stubPool(2);
  const idle = stubPool(2);
  const started = stubPool(2);
  try {
    delayed.warm(10_000);
    delayed.hurry();
    idle.hurry();
    started.warm();
    started.hurry();
    const now = { delayed: delayed.started, idle: idle.started, started: started.started };
    // Nothing left for a second hurry, nor for the cleared timer.
    delayed.hurry();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(
      { now, later: { delayed: delayed.started, idle: idle.started, started: started.started } },
      { now: { delayed: 1, idle: 0, started: 1 }, later: { delayed: 1, idle: 0, started: 1 } },
    );
  } finally {
    delayed.close();
    idle.close();
    started.close();
  }
});

Deno.test("ParsePool.warm(delayMs): a job that comes first starts its worker at once, and the timer starts no other", async () => {
  const pool = stubPool(2);
  try {
    pool.warm(100);
    const echo = echoOf(await pool.parse(job("test:first")));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual({ started: pool.started, warmUp: echo.warmUp }, {
      started: 1,
      warmUp: "light",
    });
  } finally {
    pool.close();
  }
});

Deno.test("callPoolPlan(): a call starts workers ahead, warmed fully; a since call parses here first, its worker unwarmed; a call with a cache starts none ahead", () => {
  // A since call keeps few pages: its documents are cheap to parse on the
  // calling thread, and a worker would only add memory
  // (bench/README.md#issue-24-since-on-the-calling-thread).
  const since = Date.UTC(2024, 0, 1);
  const delayMs = runtime.name === "deno" ? 15 : 0;
  const workers = runtime.name === "node" ? 2 : 1;
  assert.deepEqual(
    [
      callPoolPlan({ cache: null }),
      callPoolPlan({ cache: null, since: NaN }),
      callPoolPlan({ cache: null, since }),
      callPoolPlan({ cache: {}, since }),
      callPoolPlan({ cache: null }, false),
    ],
    [
      { ahead: true, delayMs, warmWorkers: workers, warmUp: "full", callingThreadFirst: false },
      { ahead: true, delayMs, warmWorkers: workers, warmUp: "full", callingThreadFirst: false },
      { ahead: true, delayMs, warmWorkers: 1, warmUp: "none", callingThreadFirst: true },
      { ahead: false, delayMs, warmWorkers: 1, warmUp: "none", callingThreadFirst: true },
      { ahead: false, delayMs, warmWorkers: workers, warmUp: "full", callingThreadFirst: false },
    ],
  );
});

Deno.test("poolForCall() starts a call's first worker ahead, on Deno once its first requests have gone out; a since call's none", async () => {
  for (const since of [NaN, Date.UTC(2024, 0, 1)]) {
    const { pool, own } = poolForCall({
      pool: null,
      workers: 2,
      timeoutMs: 60_000,
      cache: null,
      since,
    });
    try {
      const atOnce = pool.started;
      // Long enough for a worker started ahead, and for the since call's
      // warm-up on this thread, which must not start one.
      for (let i = 0; i < 30 && (pool.started === 0 || !Number.isNaN(since)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual({ own, atOnce, started: pool.started }, {
        own: true,
        atOnce: runtime.name === "deno" || !Number.isNaN(since) ? 0 : 1,
        started: Number.isNaN(since) ? 1 : 0,
      }, `since ${since}`);
    } finally {
      pool.close();
    }
  }
});

/** A `callingThreadFirst` pool of stand-in workers: what reaches a worker comes back as an echo. */
function hereFirstPool(workers = 1) {
  return createParsePool({
    workers,
    jobTimeoutMs: 30_000,
    workerUrl: TEST_WORKER,
    callingThreadFirst: true,
  });
}

/** Where a job of {@linkcode hereFirstPool} was parsed, and its pages or reason. */
function whereParsed(outcome: ParseOutcome): string {
  if (outcome.result.kind === "pages") {
    const { result } = plainOutcome(outcome) as { result: { pages: { urls: string[] } } };
    return `here: ${result.pages.urls.join(" ")}`;
  }
  const reason = reasonOf(outcome);
  return reason.startsWith("{") ? `worker: ${(JSON.parse(reason) as Echo).url}` : reason;
}

const SINCE_2024 = Date.UTC(2024, 0, 1);

Deno.test("a callingThreadFirst pool parses cheap documents on the calling thread, one per turn of the event loop, and starts no worker", async () => {
  const pool = hereFirstPool();
  try {
    const order: string[] = [];
    const jobs = [0, 1, 2].map((i) =>
      pool.parse(job(`https://example.com/${i}.xml`, URLSET, { since: SINCE_2024 })).then(
        (outcome) => order.push(`${i} ${whereParsed(outcome)}`),
      )
    );
    setTimeout(() => order.push("timer"), 0);
    await Promise.all(jobs);
    assert.deepEqual({ order, started: pool.started }, {
      order: [
        "0 here: https://example.com/new",
        "timer",
        "1 here: https://example.com/new",
        "2 here: https://example.com/new",
      ],
      started: 0,
    });
  } finally {
    pool.close();
  }
});

Deno.test("a callingThreadFirst pool hands the first costly document, and every one after it, to a worker", async () => {
  const pool = hereFirstPool();
  try {
    // 5 MB at the rate assumed before any parse (150 kB/ms): 33 ms, over HERE_JOB_MS.
    const costly = URLSET.replace("</urlset>", " ".repeat(5_000_000) + "</urlset>");
    const outcomes = await Promise.all([
      pool.parse(job("https://example.com/cheap.xml", URLSET)),
      pool.parse(job("test:costly", costly, { maxSitemapBytes: 10_000_000 })),
      pool.parse(job("test:cheap-after", URLSET)),
    ]);
    assert.deepEqual({ where: outcomes.map(whereParsed), started: pool.started }, {
      where: [
        "here: https://example.com/old https://example.com/new",
        "worker: test:costly",
        "worker: test:cheap-after",
      ],
      started: 1,
    });
  } finally {
    pool.close();
  }
});

Deno.test("a callingThreadFirst pool sends a burst to a worker once those waiting here would take longer than HERE_BACKLOG_MS", async () => {
  const pool = hereFirstPool();
  try {
    // 1.2 MB each: 8 ms at the assumed rate, so 18 of them would wait 150 ms.
    const doc = URLSET.replace("</urlset>", " ".repeat(1_200_000) + "</urlset>");
    const outcomes = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => pool.parse(job(`test:${i}`, doc, { maxSitemapBytes: 2e6 })),
      ),
    );
    const where = outcomes.map((outcome) => whereParsed(outcome).split(":")[0]);
    assert.deepEqual({ where, started: pool.started }, {
      where: [...Array(18).fill("here"), "worker", "worker"],
      started: 1,
    });
  } finally {
    pool.close();
  }
});

Deno.test("a callingThreadFirst pool ends waiting documents when closed, and a waiting document at once when its signal aborts", async () => {
  const pool = hereFirstPool();
  const controller = new AbortController();
  const first = pool.parse(job("https://example.com/a.xml", URLSET));
  const aborted = pool.parse(job("https://example.com/b.xml", URLSET), controller.signal);
  const order: string[] = [];
  void first.then(() => order.push("first"));
  void aborted.then(() => order.push("aborted"));
  controller.abort();
  await aborted;
  const waiting = pool.parse(job("https://example.com/c.xml", URLSET));
  pool.close();
  assert.deepEqual(
    {
      order,
      reasons: (await Promise.all([aborted, first, waiting])).map(whereParsed),
      afterClose: whereParsed(await pool.parse(job("https://example.com/d.xml", URLSET))),
      started: pool.started,
    },
    {
      // The aborted job ended before the one ahead of it, which close() ended.
      order: ["aborted", "first"],
      reasons: ["Parse cancelled", "Parser pool was closed", "Parser pool was closed"],
      afterClose: "Parser pool was closed",
      started: 0,
    },
  );
});

Deno.test("poolForCall() starts two workers ahead on Node, one on Deno and Bun", async () => {
  // Node's parse is ~1.3x slower: one worker falls behind a plain crawl
  // (bench/README.md#issue-24-two-warm-workers-on-node).
  const { pool } = poolForCall({ pool: null, workers: 4, timeoutMs: 60_000, cache: null });
  try {
    await pool.ready();
    assert.deepEqual(
      { runtime: runtime.name, started: pool.started },
      { runtime: runtime.name, started: runtime.name === "node" ? 2 : 1 },
    );
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.parse() recovers from a crashed worker", async () => {
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  try {
    const before = echoOf(await pool.parse(job("test:before")));
    const [crashed, next, last] = await Promise.all([
      pool.parse(job("test:crash")),
      pool.parse(job("test:next")),
      pool.parse(job("test:last")),
    ]);
    assert.equal(reasonOf(crashed!), "Parser worker failed: Error: kaboom");
    assert.deepEqual([echoOf(next!).url, echoOf(last!).url], ["test:next", "test:last"]);
    assert.notEqual(echoOf(next!).worker, before.worker, "the crashed worker was replaced");
    assert.equal(echoOf(last!).worker, echoOf(next!).worker);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool asks each new worker for its warm-up first: light by default, full or none when asked, light for a replacement", async () => {
  const asked = (warmUp: "none" | "full") =>
    createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER, warmUp });
  const light = createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  const none = asked("none");
  const full = asked("full");
  try {
    assert.equal(echoOf(await light.parse(job("test:a"))).warmUp, "light");
    assert.equal(echoOf(await none.parse(job("test:a"))).warmUp, "none");
    const first = echoOf(await full.parse(job("test:b")));
    assert.equal(first.warmUp, "full");
    assert.equal(
      reasonOf(await full.parse(job("test:crash"))),
      "Parser worker failed: Error: kaboom",
    );
    const replacement = echoOf(await full.parse(job("test:c")));
    assert.notEqual(replacement.worker, first.worker);
    assert.equal(replacement.warmUp, "light");
  } finally {
    light.close();
    none.close();
    full.close();
  }
});

Deno.test("ParsePool.parse() reports a job that threw inside the worker", async () => {
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  try {
    const [thrown, next] = await Promise.all([
      pool.parse(job("test:throw")),
      pool.parse(job("test:next")),
    ]);
    assert.equal(reasonOf(thrown!), "Parser worker failed: boom");
    assert.equal(echoOf(next!).url, "test:next");
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.parse() times out a hung worker and replaces it", async () => {
  // The next job's allowance also times its replacement worker's start-up: 3 s,
  // which a loaded machine does not miss.
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 3_000, workerUrl: TEST_WORKER });
  try {
    const before = echoOf(await pool.parse(job("test:before")));
    const [hung, next] = await Promise.all([
      pool.parse(job("test:hang")),
      pool.parse(job("test:next")),
    ]);
    assert.equal(reasonOf(hung!), "Parser worker timed out after 3000 ms");
    assert.equal(echoOf(next!).url, "test:next");
    assert.notEqual(echoOf(next!).worker, before.worker);
  } finally {
    pool.close();
  }
});

Deno.test("ParsePool.close() ends queued and running jobs as invalid", async () => {
  const pool = createParsePool({ workers: 1, jobTimeoutMs: 30_000, workerUrl: TEST_WORKER });
  const running = pool.parse(job("test:hang"));
  const queued = pool.parse(job("test:queued"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  pool.close();
  assert.equal(reasonOf(await running), "Parser pool was closed");
  assert.equal(reasonOf(await queued), "Parser pool was closed");
  assert.equal(reasonOf(await pool.parse(job("test:after"))), "Parser pool was closed");
});

Deno.test("ParsePool.close() lets a script exit by itself", async () => {
  const { size, outcomes } = await parseInSubprocess([job("https://example.com/s.txt")]);
  assert.equal(size, 1);
  assert.equal(outcomes.length, 1);
});

Deno.test("ParsePool: an abort, a timeout or close() stops the worker's parse early, and the pool parses on", async () => {
  const script = new URL(BUNDLED ? "./_cancel_script.js" : "./_cancel_script.ts", import.meta.url);
  const [command, args] = ON_DENO
    ? [Deno.execPath(), ["run", "-A", script.href]]
    : [process.execPath, [script.pathname]];
  const { code, signal, stdout, stderr } = await run(command, args, "");
  assert.deepEqual({ code, signal, stderr }, { code: 0, signal: null, stderr: "" });
  const total = 16_689_000;
  const stop = (name: string, bytes = total) => ({
    url: `https://www.example.com/${name}`,
    stoppedEarly: true,
    total: bytes,
  });
  assert.deepEqual(JSON.parse(stdout), {
    abort: {
      outcomes: [
        "invalid: Parse cancelled",
        "invalid: Parse cancelled",
        "invalid: Parse cancelled",
      ],
      after: "pages",
      size: 1,
    },
    timeout: { outcome: "invalid: Parser worker timed out after 60 ms", after: "pages" },
    close: "invalid: Parser pool was closed",
    // Each reported by the worker itself (so it was kept, not replaced),
    // stopped before the end of its document.
    stopped: [
      stop("fast.xml", 33_489_000),
      stop("general.xml", total + 5),
      stop("gzipped.xml.gz", 33_489_000),
      stop("slow.xml", 33_489_005),
    ],
    totals: { fast: 33_489_000, general: total + 5, slow: 33_489_005 },
  });
});

Deno.test("ParsePool.parse() on the calling thread refuses a job whose signal has aborted", async () => {
  const pool = createParsePool({ workers: 0, jobTimeoutMs: 30_000 });
  const controller = new AbortController();
  const pending = pool.parse(
    job("https://example.com/a.txt", "https://example.com/a\n"),
    controller.signal,
  );
  controller.abort();
  assert.equal(reasonOf(await pending), "Parse cancelled");
  const outcome = await pool.parse(job("https://example.com/b.txt", "https://example.com/b\n"));
  assert.equal(outcome.result.kind, "pages");
  pool.close();
});
