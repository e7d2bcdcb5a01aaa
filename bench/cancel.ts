/**
 * CPU spent after an abort: a crawl of two ~47 MB urlsets (default options:
 * the call's own workers, then a started `SitemapParserPool`) is aborted
 * soon after the second body arrived; the call rejects at once, and this prints how much
 * CPU the process still spends in the 3 s after that (user + system, all
 * threads, from /proc/self/stat). Workers that kept parsing after the
 * rejection showed here as 1.5-3 s; the cancellation flag stops them at
 * their next 1 MiB checkpoint.
 *
 *     deno run -A bench/cancel.ts                 # this tree
 *     deno run -A bench/cancel.ts ../main/mod.ts  # another tree, for comparison
 *     deno run -A bench/cancel.ts "" latin1       # the tokenizer path (a Latin-1 declaration)
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";

const modPath = process.argv[2] || "../mod.ts";
const latin1 = process.argv[3] === "latin1";
const lib = await import(new URL(modPath, import.meta.url).href) as typeof import("../mod.ts");

const URLS = 560_000;
function document(name: string): Uint8Array {
  const entries: string[] = [];
  for (let i = 0; i < URLS; i++) {
    entries.push(
      `<url><loc>https://www.example.com/${name}/${i}</loc><lastmod>2024-01-01</lastmod></url>`,
    );
  }
  const head = latin1
    ? '<?xml version="1.0" encoding="ISO-8859-1"?>'
    : '<?xml version="1.0" encoding="UTF-8"?>';
  return new TextEncoder().encode(
    `${head}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      entries.join("\n")
    }\n</urlset>\n`,
  );
}

const big = { "/a.xml": document("a"), "/b.xml": document("b") };
const site: Record<string, Uint8Array | string> = {
  "/robots.txt": "Sitemap: https://www.example.com/index.xml\n",
  "/index.xml":
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/a.xml</loc></sitemap><sitemap><loc>https://www.example.com/b.xml</loc></sitemap></sitemapindex>',
  ...big,
};

/** User + system CPU of every thread of this process (Linux), ms: Deno's process.cpuUsage() missed the workers'. */
function cpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 Hz on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One aborted crawl: the call's own workers, or a started `SitemapParserPool`. */
async function abortedCrawl(shared: boolean, abortAfterMs: number): Promise<string> {
  const pool = shared ? new lib.SitemapParserPool() : null;
  await pool?.ready();
  const controller = new AbortController();
  let bodies = 0;
  const fetchFromMemory = (input: RequestInfo | URL): Promise<Response> => {
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    const body = site[path];
    if (body === undefined) return Promise.resolve(new Response(null, { status: 404 }));
    return Promise.resolve(new Response(typeof body === "string" ? body : body.slice()));
  };
  const start = cpuMs();
  let outcome = "finished before the abort";
  try {
    await lib.sitemapTreeForHomepage("https://www.example.com/", {
      fetch: fetchFromMemory,
      signal: controller.signal,
      useKnownPaths: false,
      useFeeds: false,
      // The body is read and handed to a worker right after this event.
      onProgress: (event) => {
        const big = event.url.endsWith("/a.xml") || event.url.endsWith("/b.xml");
        if (event.kind === "fetched" && big && ++bodies === 2) {
          setTimeout(() => controller.abort(), abortAfterMs);
        }
      },
      ...(pool === null ? {} : { pool }),
    });
  } catch (error) {
    outcome = `rejected (${error instanceof Error ? error.name : String(error)})`;
  }
  const atRejection = cpuMs();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = cpuMs();
  pool?.close();
  return `${
    shared ? "shared pool" : "own workers"
  }, abort ${abortAfterMs} ms after the 2nd body arrived: ` +
    `${outcome}; CPU until then ${(atRejection - start).toFixed(0)} ms, ` +
    `in the 3 s after ${(after - atRejection).toFixed(0)} ms`;
}

console.log(
  `${modPath}${latin1 ? " (Latin-1: tokenizer path)" : ""}, 2 x ${
    (big["/a.xml"].byteLength / 1e6).toFixed(1)
  } MB:`,
);
console.log("  " + await abortedCrawl(false, 30));
console.log("  " + await abortedCrawl(true, 30));
