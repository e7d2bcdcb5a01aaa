import assert from "node:assert/strict";
import { COMMANDS, commandUsage, programUsage } from "../../src/cli/_spec.ts";

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
