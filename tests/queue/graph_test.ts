import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** Every module specifier `deno info` finds from `entry`, dynamic imports included. */
async function graph(entry: string): Promise<string[]> {
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(code, 0);
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules: { specifier: string }[];
    npmPackages?: Record<string, unknown>;
  };
  return [...info.modules.map((m) => m.specifier), ...Object.keys(info.npmPackages ?? {})];
}

Deno.test("mod.ts and parse.ts never reach bullmq or ioredis; bullmq.ts does", async () => {
  for (const entry of ["mod.ts", "parse.ts"]) {
    const reached = (await graph(entry)).filter((s) => /bullmq|ioredis/.test(s));
    assert.deepEqual(reached, [], entry);
  }
  const adapter = await graph("bullmq.ts");
  assert.ok(adapter.some((s) => s.includes("bullmq")), adapter.join("\n"));
});
