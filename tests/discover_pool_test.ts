import { deepStrictEqual } from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { Crawler } from "../src/discover.ts";
import { resolveOptions } from "../src/options.ts";
import {
  createParsePool,
  type ParseJob,
  type ParseOutcome,
  type ParsePool,
} from "../src/workers/_parse_pool.ts";

/** A calling-thread pool that logs when the crawler hurries it and what it parses. */
function loggingPool(log: string[]): ParsePool {
  const inner = createParsePool({ workers: 0, jobTimeoutMs: 30_000 });
  return {
    parse(job: ParseJob, signal?: AbortSignal | null): Promise<ParseOutcome> {
      log.push(`parse ${new URL(job.url).pathname}`);
      return inner.parse(job, signal);
    },
    close: () => inner.close(),
    warm: () => {},
    hurry: () => log.push("hurry"),
    ready: () => inner.ready(),
    size: 0,
    started: 0,
    startFailure: null,
  };
}

Deno.test("the crawler hurries its pool's delayed workers when each answer comes, before that document is parsed", async () => {
  // Gzipped, so that it goes to the pool however small (robots.txt is parsed here).
  const bodies: Record<string, string | Uint8Array<ArrayBuffer>> = {
    "/robots.txt": "Sitemap: https://example.com/sitemap.xml.gz\n",
    "/sitemap.xml.gz": new Uint8Array(gzipSync(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>',
    )),
  };
  const fetch = (input: RequestInfo | URL): Promise<Response> => {
    const body = bodies[new URL(input instanceof Request ? input.url : input).pathname];
    return Promise.resolve(
      body === undefined ? new Response(null, { status: 404 }) : new Response(body),
    );
  };
  const log: string[] = [];
  const pool = loggingPool(log);
  const resolved = resolveOptions("https://example.com/", {
    fetch,
    useKnownPaths: false,
    useFeeds: false,
    retries: 0,
  }, 0);
  const tree = await new Crawler(resolved, pool).crawlWebsite();
  pool.close();
  deepStrictEqual(
    { log, pages: [...tree.allPages()].map((page) => page.url) },
    {
      log: ["hurry", "hurry", "parse /sitemap.xml.gz"],
      pages: ["https://example.com/a"],
    },
  );
});
