/**
 * One entry point from bytes to a {@linkcode ParseResult}: decode, detect the
 * format, read it. PLACEHOLDER: signature only, implementation in progress.
 *
 * @module
 */
import type { ParseResult } from "./_result.ts";

/** Options of {@linkcode parseSitemap}. */
export interface ParseSitemapOptions {
  /** The sitemap's URL (after redirects): relative `<loc>`s resolve against it. */
  readonly url: string;
  /** Keep only pages whose lastmod is >= this (epoch ms) or missing. NaN or absent: keep all. */
  readonly since?: number;
  /** Read the bytes as robots.txt (`Sitemap:` lines) rather than detecting a format. */
  readonly robots?: boolean;
  /** The HTTP Content-Type, a hint for the charset only. */
  readonly contentType?: string | null;
}

/**
 * Reads one sitemap document (already decompressed). Never throws: problems
 * become `{ kind: "invalid" }` or a `warning` beside the entries read so far.
 */
export function parseSitemap(bytes: Uint8Array, options: ParseSitemapOptions): ParseResult {
  void bytes;
  void options;
  return { kind: "invalid", reason: "Not implemented" };
}
