/**
 * How soon `ls -f pages` prints its first line: a site whose index names a
 * fast urlset and one answering after 2 s. Prints the time to the first
 * stdout line and to the process's exit, for `-f pages` (streamed) and the
 * default tabtree (written after the crawl).
 *
 * ```sh
 * npx --yes deno@2.9.6 run -A bench/cli_first_line.ts
 * ```
 *
 * @module
 */
import { generateIndex, generateUrlset } from "../fixtures/generate.ts";
import { FixtureSite } from "../fixtures/site.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const SLOW_MS = 2000;

const site = new FixtureSite()
  .file("/robots.txt", (o) => `Sitemap: ${o}/index.xml\n`)
  .file("/index.xml", (o) => generateIndex([`${o}/fast.xml`, `${o}/slow.xml`]))
  .file("/fast.xml", (o) => generateUrlset(1000, { host: o }))
  .file("/slow.xml", (o) => generateUrlset(1000, { host: o }), { latencyMs: SLOW_MS });
const server = await site.listen();
try {
  for (const format of ["pages", "tabtree"]) {
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "ls", server.url("/"), "-k", "--no-feeds", "-f", format],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let first = NaN;
    for await (const chunk of child.stdout) {
      if (Number.isNaN(first) && chunk.includes(10)) first = performance.now() - started;
    }
    await child.status;
    const total = performance.now() - started;
    console.log(
      `-f ${format.padEnd(7)} first line ${(first / 1000).toFixed(2)} s, exit ${
        (total / 1000).toFixed(2)
      } s (slow sitemap answers after ${SLOW_MS / 1000} s)`,
    );
  }
} finally {
  await server.close();
}
