/**
 * Run by `parser_pool_test.ts` as `deno run -A _shared_pool_script.ts` (or
 * under Bun): serves the fixture site on 127.0.0.1, reads it through one
 * {@linkcode SitemapParserPool} shared by several calls, closes the pool, and
 * prints what it saw as JSON. The process must then exit by itself.
 *
 * A subprocess because a worker started under `deno test` is type-checked
 * first (seconds per start), while `deno run` loads the module as is.
 *
 * @module
 */
import { SitemapParserPool, sitemapTreeForHomepage, streamPages } from "../../mod.ts";
import type { SitemapTreeOptions } from "../../mod.ts";
import { FixtureSite } from "../../fixtures/site.ts";
import { outline } from "../_tree_helpers.ts";

const site = new FixtureSite().mount(new URL("../../fixtures/files/", import.meta.url).pathname);
const server = await site.listen();
try {
  const options: SitemapTreeOptions = { useKnownPaths: false, useFeeds: false };
  const home = server.url("/");
  const inThread = outline(
    await sitemapTreeForHomepage(home, { ...options, workers: 0 }),
    server.origin,
  );

  const pool = new SitemapParserPool({ workers: 2 });
  await pool.ready();
  const first = outline(await sitemapTreeForHomepage(home, { ...options, pool }), server.origin);
  // `workers` is ignored beside a pool: still parsed on the pool's workers.
  const second = outline(
    await sitemapTreeForHomepage(home, { ...options, pool, workers: 0 }),
    server.origin,
  );
  const single = new SitemapParserPool({ workers: 1 });
  const onOneWorker = outline(
    await sitemapTreeForHomepage(home, { ...options, pool: single }),
    server.origin,
  );
  single.close();
  const streamed: string[] = [];
  for await (const page of streamPages(home, { ...options, pool })) streamed.push(page.url);
  const sizeBeforeClose = pool.size;
  pool.close();
  pool.close();
  const afterClose = outline(
    await sitemapTreeForHomepage(home, { ...options, pool }),
    server.origin,
  );

  const streamedInThread: string[] = [];
  for await (const page of streamPages(home, { ...options, workers: 0 })) {
    streamedInThread.push(page.url);
  }
  console.log(JSON.stringify({
    sizeBeforeClose,
    sizeAfterClose: pool.size,
    sameAsInThread: [first, second, onOneWorker].map((tree) =>
      JSON.stringify(tree) === JSON.stringify(inThread)
    ),
    // Sitemaps finish in any order: compare the pages as sets of lines.
    streamedSame: JSON.stringify(streamed.sort()) === JSON.stringify(streamedInThread.sort()),
    pages: streamed.length,
    afterClose: afterClose.filter((line) => line.trimStart().startsWith("invalid")),
  }));
} finally {
  await server.close();
}
