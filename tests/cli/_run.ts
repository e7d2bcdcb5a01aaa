/**
 * Running the command line in tests: in this process with captured streams
 * (`run`), or as a real process through bash (`bash`), and the small site
 * most CLI tests crawl.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../cli.ts";
import { generateIndex } from "../../fixtures/generate.ts";
import { FixtureSite, type ListeningSite } from "../../fixtures/site.ts";

export const ROOT: URL = new URL("../../", import.meta.url);
export const CLI: string = new URL("cli.ts", ROOT).pathname;

export const ROBOTS_TXT = (o: string): string =>
  `User-agent: *\nDisallow:\n\nSitemap: ${o}/index.xml\n`;
export const INDEX_XML = (o: string): string =>
  generateIndex([`${o}/pages.xml`, `${o}/missing.xml`]);
export const PAGES_XML = (o: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${o}/</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>
  <url><loc>${o}/about?a=1,2</loc></url>
  <url><loc>https://other.example/x</loc></url>
</urlset>
`;

/** robots.txt -> index.xml -> [pages.xml (3 pages, one on another host), missing.xml (404)]. */
export function smallSite(): FixtureSite {
  return new FixtureSite()
    .file("/robots.txt", ROBOTS_TXT)
    .file("/index.xml", INDEX_XML)
    .file("/pages.xml", PAGES_XML);
}

/**
 * Serves `site` and makes a temporary directory (for snapshots, state) for
 * `body`; both are gone afterwards.
 */
export async function withSiteAndDir(
  site: FixtureSite,
  body: (server: ListeningSite, dir: string) => Promise<void>,
): Promise<void> {
  const server = await site.listen();
  const dir = mkdtempSync(join(tmpdir(), "cli-test-"));
  try {
    await body(server, dir);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `main()` in this process with captured streams. */
export async function run(
  args: string[],
  options: {
    terminal?: boolean;
    stdoutWrite?: (chunk: Uint8Array) => Promise<void>;
    signal?: AbortSignal;
    stdin?: string;
  } = {},
): Promise<Run> {
  const decoder = new TextDecoder();
  let stdout = "";
  let stderr = "";
  // Under `deno test`, every worker is type-checked when it starts (seconds per
  // crawl), so in-process runs parse on the main thread; the subprocess tests
  // below run the default worker pool.
  const argv = args.includes("--workers") || args.some((a) => a.startsWith("--workers="))
    ? args
    : [...args, "--workers", "0"];
  const status = await main(argv, {
    stdout: {
      write: options.stdoutWrite ?? ((chunk) => {
        stdout += decoder.decode(chunk);
        return Promise.resolve();
      }),
    },
    stderr: {
      write(chunk) {
        stderr += decoder.decode(chunk);
        return Promise.resolve();
      },
    },
    stderrIsTerminal: options.terminal ?? false,
    stderrColumns: 200,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.stdin === undefined ? {} : { stdin: chunks(options.stdin) }),
  });
  return { status, stdout, stderr };
}

export function lines(text: string): string[] {
  assert.ok(text === "" || text.endsWith("\n"), `ends with a line break: ${JSON.stringify(text)}`);
  return text === "" ? [] : text.slice(0, -1).split("\n");
}

/** Runs `cmd` through bash, so pipes and `set -o pipefail` work as in a shell. */
export async function bash(cmd: string): Promise<Run> {
  const output = await new Deno.Command("bash", {
    args: ["-c", `set -o pipefail; ${cmd}`],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    status: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `text` as a stdin of two chunks (a document split across reads). */
async function* chunks(text: string): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  yield bytes.subarray(0, half);
  await Promise.resolve();
  yield bytes.subarray(half);
}
