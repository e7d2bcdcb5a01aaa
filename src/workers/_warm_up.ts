/**
 * What a parse worker warms up on (see `worker.ts`): synthetic gzipped
 * urlsets in slices of growing size, parsed until the first real job
 * arrives, so that V8 has compiled the parser's hot code before real
 * sitemaps come.
 *
 * @module
 */
import type { Checkpoint } from "../_checkpoint.ts";
import { detachBuffer, detachPackedPages } from "../_detach.ts";
import { runtime } from "../runtime/mod.ts";
import { runParseJob } from "./_job.ts";

/** How often a warm-up document repeats a URL ({@linkcode warmUpDocument}). */
export const DUPLICATE_EVERY = 100;

/**
 * A synthetic plain urlset (`<loc>` and `<lastmod>`) of `urls` entries, ~78
 * bytes each. Every {@linkcode DUPLICATE_EVERY}th entry repeats the URL
 * before it, so that the duplicate search compares URLs in the warm-up: a
 * first real duplicate (or hash collision) deoptimised it.
 *
 * @param urls How many `<url>` entries.
 * @returns The document's UTF-8 bytes.
 *
 * @example One entry
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { warmUpDocument } from "./_warm_up.ts";
 *
 * ok(new TextDecoder().decode(warmUpDocument(1)).includes("<loc>https://warm.example/p/0</loc>"));
 * ```
 */
export function warmUpDocument(urls: number): Uint8Array<ArrayBuffer> {
  const entries: string[] = [];
  for (let i = 0; i < urls; i++) {
    const day = String(1 + (i % 28)).padStart(2, "0");
    entries.push(
      `<url><loc>https://warm.example/p/${
        i % DUPLICATE_EVERY === DUPLICATE_EVERY - 1 ? i - 1 : i
      }</loc><lastmod>2024-0${1 + (i % 9)}-${day}</lastmod></url>`,
    );
  }
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
      entries.join("\n")
    }\n</urlset>\n`,
  );
}

/** The first slices of every warm-up: small while the code is still interpreted (slow). */
const RAMP = [20, 50, 100, 200, 400, 800, 1000];

/**
 * URLs per slice of a replaced worker and of a pool's default (~8,500 in
 * all): small while the code is still interpreted (slow), larger once
 * compiled. Kept short so that the warm-up does not compete with jobs for the
 * cores; a worker started for a waiting job stops it at once anyway.
 */
export const LIGHT_WARM_UP: readonly number[] = [...RAMP, ...Array<number>(6).fill(1000)];

/**
 * URLs per slice of a `SitemapParserPool`'s workers, started ahead
 * of calls, and of a call's first worker, started while robots.txt and the
 * index are on the wire (~28,500 in all; the first job cuts it short). The
 * light warm-up left V8's optimising tier for the first real sitemaps, whose
 * compilation on V8's helper threads then competed with the crawl; a longer
 * warm-up did no better and cost memory
 * (bench/README.md#workers-start-up-warm-up-and-cancellation).
 */
export const FULL_WARM_UP: readonly number[] = [...RAMP, 2000, ...Array<number>(6).fill(4000)];

/** Options of {@linkcode warmUp}. */
export interface WarmUpOptions {
  /**
   * The jobs' `since` (epoch milliseconds): NaN warms up the full parse; a
   * date keeps about one page in nine of the warm-up documents, which warms
   * up the `since` filter too.
   */
  readonly since: number;
  /** True once the warm-up should stop (a real job came), read before each slice. */
  readonly stop: () => boolean;
  /** The jobs' checkpoint: throwing `ParseCancelled` from it stops the warm-up. */
  readonly checkpoint: Checkpoint;
}

/**
 * Runs parse jobs over synthetic gzipped urlsets, in slices, until `stop()`
 * says a real job came, so that V8 has compiled the parser's hot code before
 * real sitemaps come: a fresh thread's first sitemaps ran several times
 * slower than later ones while V8 was still compiling the packer
 * (bench/README.md#workers-start-up-warm-up-and-cancellation). The jobs take
 * the same path as real ones (gzip, the inflater's buffers, the byte-level
 * reader, duplicate search, packing). Each slice is a few milliseconds once
 * compiled and the loop yields a turn of the event loop before each, so a
 * real job waits for one slice at most. Never rejects.
 *
 * @param slices URLs per slice, in order.
 * @param options The jobs' `since`, when to stop, and their checkpoint.
 *
 * @example Warm up on two small slices, each checked against `stop()` first
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { warmUp } from "./_warm_up.ts";
 *
 * let looks = 0;
 * await warmUp([20, 50], { since: NaN, stop: () => (looks++, false), checkpoint: () => {} });
 * strictEqual(looks, 4); // before each slice, and after gzipping each new size
 * ```
 */
export async function warmUp(slices: readonly number[], options: WarmUpOptions): Promise<void> {
  const { since, stop, checkpoint } = options;
  const documents = new Map<number, Uint8Array<ArrayBuffer>>();
  try {
    for (const urls of slices) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (stop()) return;
      let gzipped = documents.get(urls);
      if (gzipped === undefined) {
        gzipped = await gzip(warmUpDocument(urls));
        documents.set(urls, gzipped);
        if (stop()) return;
      }
      const bytes = gzipped.slice();
      const { result, cancelled } = await runParseJob({
        // The job may keep or detach the buffer it is given: a copy each time.
        bytes,
        url: "https://warm.example/sitemap.xml.gz",
        since,
        robots: false,
        contentType: "application/gzip",
        maxSitemapBytes: 50 << 20,
      }, checkpoint);
      // Freed now: left to the collector, the slices' buffers stayed
      // allocated after the warm-up (bench/README.md#memory-freed-early).
      detachBuffer(bytes);
      if (result.kind === "pages") detachPackedPages(result.pages);
      // Stopped by the pool closing (CANCEL_ALL).
      if (cancelled !== undefined) return;
    }
  } catch {
    // Only a head start: what it did not compile compiles with the first job.
  }
}

/** `bytes` gzipped with Node's zlib, or as they are where there is none (the job reads both). */
async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const zlib = await runtime.loadZlib();
  if (zlib === null) return bytes;
  try {
    return new Uint8Array(zlib.gzipSync(bytes, { level: 1 }));
  } catch {
    return bytes;
  }
}
