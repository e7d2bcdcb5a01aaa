import assert from "node:assert/strict";
import { DEFAULT_QUEUE } from "../../bullmq.ts";
import { DEFAULTS, SECTIONS_DEFAULTS } from "../../mod.ts";
import { parseArgs, type RunArgs } from "../../src/cli/_args.ts";
import { sitesOptions } from "../../src/cli/_options.ts";
import {
  COMMANDS,
  type CommandSpec,
  commandUsage,
  CRAWL_FLAGS,
  programUsage,
} from "../../src/cli/_spec.ts";

Deno.test("the help lists every command; each command's help lists its flags once", () => {
  assert.ok(programUsage().includes("\n  ls       print a site's sitemap tree"));
  assert.ok(programUsage().includes("\n  lint     report protocol problems per sitemap"));
  assert.ok(programUsage().includes("\n  batch    find the sitemaps of every homepage listed"));
  assert.ok(programUsage().includes("\n  enqueue  put one job per homepage of FILE on a BullMQ"));
  assert.ok(programUsage().includes("\n  worker   crawl the sites of a BullMQ queue"));
  for (const spec of COMMANDS.values()) {
    const help = commandUsage(spec);
    assert.ok(help.startsWith(`usage: sitemap-tree ${spec.name} [options] `), spec.name);
    const names = spec.flags.flatMap((g) => g.flags.map((f) => f.name));
    assert.equal(new Set(names).size, names.length, `${spec.name}: a flag listed twice`);
    for (const name of names) assert.ok(help.includes(`--${name}`), `${spec.name} --${name}`);
  }
  // The same flag is the same definition in every command.
  const ls = COMMANDS.get("ls")!.flags.flatMap((g) => g.flags);
  const lint = COMMANDS.get("lint")!.flags.flatMap((g) => g.flags);
  for (const flag of lint) {
    const twin = ls.find((f) => f.name === flag.name);
    if (twin !== undefined) assert.equal(twin, flag, flag.name);
  }
});

/**
 * Defaults the help names that are neither in DEFAULTS nor a flag's own
 * `default`: BullMQ's, the queue's name, and `sectionsOf()`'s depth.
 */
const OTHER_DEFAULTS: Readonly<Record<string, string>> = {
  "stalled-interval": "30000",
  "lock-duration": "30000",
  queue: DEFAULT_QUEUE,
  depth: String(SECTIONS_DEFAULTS.depth),
};
/** The commands of many sites, whose `--max-connections` is the run's cap (`siteMaxConnections`). */
const MANY_SITES_COMMANDS = new Set(["batch", "worker"]);
/** Options with a value in DEFAULTS whose flag names no default: too long, or nothing, to show. */
const UNSHOWN = new Set(["userAgent", "headers", "extraKnownPaths"]);

/** The library options a command line of `command` with `--flag value` stands for. */
function optionsFor(command: CommandSpec, flag: string, value: string): Record<string, unknown> {
  const operands = Array<string>(command.minOperands).fill("x");
  const parsed = parseArgs([command.name, ...operands, `--${flag}`, value]);
  assert.equal(parsed.kind, "run");
  return sitesOptions((parsed as RunArgs).flags) as Record<string, unknown>;
}

Deno.test("the help names each flag's default as DEFAULTS has it, read back through the flag's own parser", () => {
  const defaults = DEFAULTS as unknown as Record<string, unknown>;
  let checked = 0;
  for (const command of COMMANDS.values()) {
    for (const flag of command.flags.flatMap((g) => g.flags)) {
      const where = `${command.name} --${flag.name}`;
      const named = /\(default:? ([^;)]+)/.exec(flag.help)?.[1];
      if (flag.option !== undefined && flag.option in defaults) {
        if (flag.value === undefined || UNSHOWN.has(flag.option)) continue;
        assert.ok(named !== undefined, `${where}: the help names no default`);
        const key = MANY_SITES_COMMANDS.has(command.name) && flag.option === "maxConnections"
          ? "siteMaxConnections"
          : flag.option;
        assert.deepStrictEqual(
          optionsFor(command, flag.name, named)[flag.option],
          defaults[key],
          `${where}: the help says default ${named}`,
        );
        checked++;
      } else if (flag.default !== undefined) {
        assert.ok(
          flag.help.includes(`default ${flag.default}`) ||
            flag.help.includes(`${flag.default} (default)`),
          `${where}: the help does not name its default ${flag.default}`,
        );
      } else if (named !== undefined) {
        assert.strictEqual(named, OTHER_DEFAULTS[flag.name], `${where}: a default from nowhere`);
      }
    }
  }
  assert.ok(checked >= 11, `only ${checked} flags checked`);
  // --deadline names the many-sites default too.
  const deadline = CRAWL_FLAGS.flags.find((f) => f.name === "deadline")!;
  const perSite = /batch, worker: (\S+) per site/.exec(deadline.help)?.[1];
  assert.ok(perSite !== undefined, deadline.help);
  assert.strictEqual(
    optionsFor(COMMANDS.get("batch")!, "deadline", perSite).deadlineMs,
    DEFAULTS.siteDeadlineMs,
  );
});
