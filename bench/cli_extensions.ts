/**
 * The command line over the realistic 1M site (`bench/_e2e_server.ts`:
 * robots.txt → index → 20 gzipped urlsets × 50,000 realistic pages, 50 ms
 * latency), each command run with `--extensions lazy` and with
 * `--extensions eager`, alternately in one run, each a fresh process under
 * `/usr/bin/time`: wall, CPU (user + system, workers included) and peak RSS.
 * Output goes to `/dev/null`. The results say which `extensions` each
 * command should default to (bench/README.md#lazy-extensions).
 *
 *     deno run -A bench/cli_extensions.ts [--rounds 3] [--only ls-ndjson,lint]
 *
 * @module
 */
import process from "node:process";
import { numberFlag } from "./_flags.ts";
import { figure, median, ms, startE2eServer } from "./_rounds.ts";

const ROUNDS = numberFlag("rounds", 3);
const CLI = new URL("../cli.ts", import.meta.url).pathname;

/** The commands measured: a name and the arguments after `cli.ts`, the site's homepage filled in. */
const COMMANDS: readonly { name: string; args: (home: string) => string[] }[] = [
  { name: "ls-json", args: (home) => ["ls", home, "-f", "json"] },
  { name: "ls-ndjson", args: (home) => ["ls", home, "-f", "ndjson"] },
  { name: "ls-pages", args: (home) => ["ls", home, "-f", "pages"] },
  { name: "lint", args: (home) => ["lint", home] },
  { name: "report", args: (home) => ["report", home, "-o", "-"] },
];

/** One run's figures. */
interface Figures {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMiB: number;
  readonly status: number;
}

/** Runs `cli.ts args` as a process under `/usr/bin/time`, stdout to /dev/null. */
async function measure(args: readonly string[]): Promise<Figures> {
  const command = new Deno.Command("/usr/bin/time", {
    args: ["-f", "%e %U %S %M", Deno.execPath(), "run", "-A", CLI, ...args],
    stdout: "null",
    stderr: "piped",
  });
  const { code, stderr } = await command.output();
  const lines = new TextDecoder().decode(stderr).trim().split("\n");
  const [wall, user, sys, rss] = lines.at(-1)!.split(" ").map(Number) as [
    number,
    number,
    number,
    number,
  ];
  return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, rssMiB: rss / 1024, status: code };
}

const only = process.argv.includes("--only")
  ? new Set(process.argv[process.argv.indexOf("--only") + 1]!.split(","))
  : null;
const server = await startE2eServer();
try {
  const realistic = server.sites.realistic;
  if (realistic === null) throw new Error("This checkout's server has no realistic site");
  const home = `${realistic.origin}/`;
  console.log(`realistic site: ${realistic.mix}`);
  console.log(`${ROUNDS} rounds, lazy and eager alternated; load ${Deno.loadavg().join(" ")}`);
  for (const { name, args } of COMMANDS) {
    if (only !== null && !only.has(name)) continue;
    const runs: Record<"lazy" | "eager", Figures[]> = { lazy: [], eager: [] };
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which goes first, so a neighbour's burst falls on both.
      const order = r % 2 === 0 ? (["lazy", "eager"] as const) : (["eager", "lazy"] as const);
      for (const when of order) {
        runs[when].push(await measure([...args(home), "--extensions", when]));
      }
    }
    for (const when of ["lazy", "eager"] as const) {
      const f = runs[when];
      console.log(
        `${name.padEnd(10)} ${when.padEnd(5)} status ${[...new Set(f.map((x) => x.status))]}` +
          `  wall ${figure(f.map((x) => x.wallMs), ms)}  CPU ${figure(f.map((x) => x.cpuMs), ms)}` +
          `  peak RSS ${median(f.map((x) => x.rssMiB)).toFixed(0)} MiB`,
      );
    }
    const ratio = median(runs.eager.map((x) => x.wallMs)) / median(runs.lazy.map((x) => x.wallMs));
    console.log(`${name.padEnd(10)} eager/lazy wall ${ratio.toFixed(2)}×`);
  }
  console.log(`load ${Deno.loadavg().join(" ")}`);
} finally {
  await server.close();
}
