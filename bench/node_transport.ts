/**
 * Node's transport, undici against `node:http`: the round trips of the seed
 * site's shape (robots.txt → index → 20 urlsets, 4 at a time, 50 ms latency)
 * and nothing else, each run a fresh process, so that what a first call pays
 * (loading and compiling the transport's code) is in it. Node's own `fetch`
 * (undici) and the library's Node transport (`src/runtime/_node_fetch.ts`,
 * as tsc emits it), with Deno's `fetch` beside them, alternated round by
 * round; medians of wall time and of the process's CPU during the crawl.
 *
 *     deno run -A bench/node_transport.ts [--rounds 7] [--node PATH]
 *
 * `--node` runs another Node binary (e.g. `npx --yes node@22 -e
 * 'console.log(process.execPath)'`).
 *
 * @module
 */
import process from "node:process";
import { median, startE2eServer } from "./_rounds.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const ROUNDS = Number(option("--rounds") ?? 7);
const NODE = option("--node") ?? "node";
const here = new URL("..", import.meta.url).pathname;
const runner = new URL("./_node_transport_run.mjs", import.meta.url).pathname;

interface Figures {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly bytes: number;
}

const built = await new Deno.Command("node", {
  args: ["node_modules/typescript/bin/tsc", "-p", "build/tsconfig.bench.json"],
  cwd: here,
}).output();
if (!built.success) throw new Error("Building the Node runner failed (build/tsconfig.bench.json)");

async function run(command: string, argv: string[]): Promise<Figures> {
  const out = await new Deno.Command(command, {
    args: argv,
    cwd: here,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const stdout = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) {
    throw new Error(`${command} ${argv.join(" ")}:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(stdout.split("\n").at(-1)!) as Figures;
}

const server = await startE2eServer();
const sites = [
  ["plain", server.sites.main.origin],
  ["issue's mix", server.sites.realisticIssue?.origin],
  ["ours", server.sites.realistic?.origin],
].filter((site): site is [string, string] => site[1] !== undefined);
const rows = sites.flatMap(([site, origin]) =>
  [
    ["Node, undici", NODE, "fetch"],
    ["Node, node:http", NODE, "node:http"],
    ["Deno, fetch", Deno.execPath(), "fetch"],
  ].map(([what, command, transport]) => ({
    key: `${site}: ${what}`,
    command: command!,
    argv: command === Deno.execPath()
      ? ["run", "-A", runner, JSON.stringify({ origin, transport })]
      : [runner, JSON.stringify({ origin, transport })],
  }))
);
const results = new Map<string, Figures[]>(rows.map((row) => [row.key, []]));
const loads: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(Deno.loadavg()[0]!);
    for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
      results.get(row.key)!.push(await run(row.command, row.argv));
    }
  }
} finally {
  await server.close();
}
const version = new TextDecoder().decode(
  (await new Deno.Command(NODE, { args: ["--version"] }).output()).stdout,
).trim();
console.log(
  `Node ${version}, medians of ${ROUNDS} alternated rounds (load average ${
    Math.min(...loads).toFixed(1)
  }–${Math.max(...loads).toFixed(1)}):\n`,
);
console.log("| site: transport | wall ms (range) | CPU ms (range) | bytes |");
console.log("|---|---|---|---|");
for (const row of rows) {
  const runs = results.get(row.key)!;
  const wall = runs.map((r) => r.wallMs);
  const cpu = runs.map((r) => r.cpuMs);
  const span = (xs: number[]): string =>
    `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  console.log(`| ${row.key} | ${span(wall)} | ${span(cpu)} | ${runs[0]!.bytes} |`);
}
