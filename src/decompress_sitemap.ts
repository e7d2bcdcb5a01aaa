/**
 * `decompressSitemap()`: a gzipped sitemap you already have (a file on disk,
 * a body you fetched yourself) inflated for `sitemapFromString()`, with the
 * same bound and the same reasons as a crawl's downloads.
 *
 * @module
 */
import { detachBuffer } from "./_detach.ts";
import { decompressIfGzip, type DecompressResult } from "./decompress.ts";

export type { DecompressResult };

/** Options of {@linkcode decompressSitemap}. */
export interface DecompressSitemapOptions {
  /**
   * The most bytes the inflated document may have; a larger one is refused
   * with a reason (a gzip bomb), as `maxSitemapBytes` does in a crawl.
   * @default {52428800}
   */
  readonly maxBytes?: number;
}

/** The bound of {@linkcode DecompressSitemapOptions.maxBytes}: 50 MiB. */
const MAX_BYTES = 50 * 1024 * 1024;

/**
 * Inflates a gzipped sitemap document (told by its magic bytes; gzip inside
 * gzip too), bounded; bytes that are not gzip come back as they are.
 * `sitemapFromString()` reads documents, not gzip: inflate first.
 *
 * @param bytes The document, gzipped or not.
 * @param options The bound on the inflated size.
 * @returns The document's bytes, or why there are none (damaged gzip, over the bound).
 * @throws {RangeError} When `maxBytes` is negative or NaN.
 *
 * @example Read a gzipped text sitemap
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { decompressSitemap, sitemapFromString } from "@sitemap/tree/parse";
 *
 * const gzipped = new Uint8Array(
 *   await new Response(
 *     new Blob(["https://www.example.com/a\n"]).stream().pipeThrough(new CompressionStream("gzip")),
 *   ).arrayBuffer(),
 * );
 * const inflated = await decompressSitemap(gzipped);
 * if (!inflated.ok) throw new Error(inflated.reason);
 * const sitemap = sitemapFromString(inflated.bytes, { url: "https://www.example.com/urls.txt" });
 * deepStrictEqual([inflated.gzipped, sitemap.pages.map((page) => page.url)], [
 *   true,
 *   ["https://www.example.com/a"],
 * ]);
 * ```
 */
export async function decompressSitemap(
  bytes: Uint8Array,
  options: DecompressSitemapOptions = {},
): Promise<DecompressResult> {
  const inflated = await decompressIfGzip(bytes, options.maxBytes ?? MAX_BYTES);
  // A document over 8 MiB inflates into one chunk the size of the bound (a
  // crawl frees it after the parse); what a caller keeps gets a buffer of its
  // own size, not 50 MiB of address space per document.
  if (!inflated.ok || inflated.bytes === bytes) return inflated;
  if (inflated.bytes.buffer.byteLength <= 2 * inflated.bytes.byteLength) return inflated;
  const own = inflated.bytes.slice();
  detachBuffer(inflated.bytes, { slackBytes: Infinity });
  return { ...inflated, bytes: own };
}
