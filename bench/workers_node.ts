/**
 * The rows of bench/README.md#workers-and-node in one run: the seed site's
 * plain 1M tree, its `since` run keeping ~5%, the realistic 1M tree (our mix
 * and issue 24's lighter one), each on Deno, the plain and both realistic
 * trees on Node 20 (the runner as tsc emits it), and the realistic tree under
 * glibc's allocator settings for servers.
 * Runs are fresh processes of `bench/_e2e_run.ts` against one
 * `bench/_e2e_server.ts`, alternated round by round so that the machine's
 * load falls on every row alike; medians of `--rounds` and the ratios the
 * targets name are printed.
 *
 *     deno run -A bench/workers_node.ts [--rounds 3] [--only full,since] [--base ../other-checkout]
 *
 * Row keys for `--only`: full, since, realistic, realisticIssue, nodeFull,
 * nodeRealistic, nodeRealisticIssue, arena2, mmap128k.
 *
 * `--base DIR` adds the same rows run from another checkout (its Node runner
 * built there first with `node node_modules/typescript/bin/tsc -p
 * build/tsconfig.bench.json`), so a change is measured against its parent
 * in the same run.
 *
 * @module
 */
import process from "node:process";
import { startE2eServer } from "./_rounds.ts";
import type { RunFigures, RunSpec } from "./_e2e_run.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const ROUNDS = Number(option("--rounds") ?? 3);
const ONLY = option("--only")?.split(",") ?? null;
const BASE = option("--base") ?? null;
const here = new URL("..", import.meta.url).pathname;

interface Row {
  readonly key: string;
  readonly what: string;
  readonly dir: string;
  readonly runtime: "deno" | "node";
  readonly spec: (origins: Origins) => RunSpec;
  readonly env?: Record<string, string>;
}

interface Origins {
  readonly plain: string;
  readonly realistic: string;
  readonly realisticIssue: string;
  readonly since: string;
}

function rowsOf(dir: string, prefix: string): Row[] {
  const plain = (o: Origins): RunSpec => ({ case: "tree", origin: o.plain });
  const realistic = (o: Origins): RunSpec => ({ case: "tree", origin: o.realistic });
  const issue = (o: Origins): RunSpec => ({ case: "tree", origin: o.realisticIssue });
  return [
    { key: `${prefix}full`, what: "plain 1M", dir, runtime: "deno", spec: plain },
    {
      key: `${prefix}since`,
      what: "plain 1M, since keeping ~5%",
      dir,
      runtime: "deno",
      spec: (o) => ({ case: "tree", origin: o.plain, since: o.since }),
    },
    { key: `${prefix}realistic`, what: "realistic 1M", dir, runtime: "deno", spec: realistic },
    {
      key: `${prefix}realisticIssue`,
      what: "realistic 1M, issue 24's mix",
      dir,
      runtime: "deno",
      spec: issue,
    },
    { key: `${prefix}nodeFull`, what: "plain 1M, Node 20", dir, runtime: "node", spec: plain },
    {
      key: `${prefix}nodeRealistic`,
      what: "realistic 1M, Node 20",
      dir,
      runtime: "node",
      spec: realistic,
    },
    {
      key: `${prefix}nodeRealisticIssue`,
      what: "realistic 1M, issue 24's mix, Node 20",
      dir,
      runtime: "node",
      spec: issue,
    },
    ...[["arena2", "MALLOC_ARENA_MAX", "2"], ["mmap128k", "MALLOC_MMAP_THRESHOLD_", "131072"]].map((
      [key, name, value],
    ): Row => ({
      key: `${prefix}${key}`,
      what: `realistic 1M, ${name}=${value}`,
      dir,
      runtime: "deno",
      spec: realistic,
      env: { [name!]: value! },
    })),
  ];
}

async function run(row: Row, origins: Origins): Promise<RunFigures> {
  const json = JSON.stringify(row.spec(origins));
  const [command, argv] = row.runtime === "node"
    ? ["node", [`${row.dir}/dist/bench/bench/_e2e_run.js`, json]]
    : [Deno.execPath(), ["run", "-A", `${row.dir}/bench/_e2e_run.ts`, json]];
  const out = await new Deno.Command(command, {
    args: argv,
    cwd: row.dir,
    env: row.env ?? {},
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(180_000),
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const line = stdout.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  if (!out.success || line === undefined) {
    throw new Error(`${row.key} failed:\n${stdout}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(line) as RunFigures;
}

const built = await new Deno.Command("node", {
  args: ["node_modules/typescript/bin/tsc", "-p", "build/tsconfig.bench.json"],
  cwd: here,
}).output();
if (!built.success) throw new Error("Building the Node runner failed (build/tsconfig.bench.json)");

const rows = [...rowsOf(here, ""), ...(BASE === null ? [] : rowsOf(BASE, "base:"))]
  .filter((row) => ONLY === null || ONLY.includes(row.key.replace(/^base:/, "")));
const server = await startE2eServer();
const realisticSite = server.sites.realistic;
const issueSite = server.sites.realisticIssue;
if (realisticSite === null || issueSite === null) {
  throw new Error("The benchmark server serves no realistic site");
}
const origins: Origins = {
  plain: `${server.sites.main.origin}/`,
  realistic: `${realisticSite.origin}/`,
  realisticIssue: `${issueSite.origin}/`,
  since: server.sites.main.since,
};
const results = new Map<string, RunFigures[]>(rows.map((row) => [row.key, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? rows : [...rows].reverse();
    for (const row of order) {
      const figures = await run(row, origins);
      results.get(row.key)!.push(figures);
      console.error(
        `round ${
          round + 1
        } ${row.key}: total ${figures.totalMs} ms, cpu ${figures.cpuMs} ms, peak ${figures.peakMiB} MiB, lag ${figures.lagMs} ms`,
      );
    }
  }
} finally {
  await server.close();
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const med = (key: string, f: (r: RunFigures) => number): number =>
  median((results.get(key) ?? []).map(f));
const load = Deno.loadavg()[0]!.toFixed(1);
console.log(`\nmedians of ${ROUNDS} alternated rounds (load average at the end ${load}):\n`);
console.log(
  "| row | urls | tree ms | total ms | CPU ms (main / workers / helpers) | peak MiB | lag ms |",
);
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) {
  const key = row.key;
  const threads = ["main", "workers", "helpers"] as const;
  const cpu = threads.map((t) => med(key, (r) => r.cpuByThread?.[t] ?? NaN)).join(" / ");
  console.log(
    `| ${row.key.startsWith("base:") ? "base: " : ""}${row.what} | ${med(key, (r) => r.urls)} | ${
      med(key, (r) => r.treeMs)
    } | ${med(key, (r) => r.totalMs)} | ${med(key, (r) => r.cpuMs)} (${cpu}) | ${
      med(key, (r) => r.peakMiB)
    } | ${med(key, (r) => r.lagMs)} |`,
  );
}
const ratio = (a: string, b: string, f: (r: RunFigures) => number): string => {
  const x = med(a, f) / med(b, f);
  return Number.isFinite(x) ? `${x.toFixed(2)}×` : "-";
};
console.log("");
for (const prefix of BASE === null ? [""] : ["", "base:"]) {
  const p = (k: string): string => `${prefix}${k}`;
  console.log(
    `${prefix || "this checkout: "}since/full total ${
      ratio(p("since"), p("full"), (r) => r.totalMs)
    } (CPU ${ratio(p("since"), p("full"), (r) => r.cpuMs)}); Node/Deno total: plain ${
      ratio(p("nodeFull"), p("full"), (r) => r.totalMs)
    }, realistic ${ratio(p("nodeRealistic"), p("realistic"), (r) => r.totalMs)}, issue's mix ${
      ratio(p("nodeRealisticIssue"), p("realisticIssue"), (r) => r.totalMs)
    }; CPU: plain ${ratio(p("nodeFull"), p("full"), (r) => r.cpuMs)}, realistic ${
      ratio(p("nodeRealistic"), p("realistic"), (r) => r.cpuMs)
    }, issue's mix ${ratio(p("nodeRealisticIssue"), p("realisticIssue"), (r) => r.cpuMs)}`,
  );
}
