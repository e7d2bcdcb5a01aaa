/**
 * What a parse worker warms up on (see `worker.ts`): synthetic gzipped
 * urlsets in slices of growing size, parsed until the first real job
 * arrives, so that V8 has compiled the parser's hot code before real
 * sitemaps come.
 *
 * @module
 */

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
