/**
 * Plain-text sitemaps: one absolute http(s) URL per line, every other line
 * skipped (sitemaps.org, "Text file").
 *
 * @module
 */
import { LineSplitter } from "./_lines.ts";
import { PackedPagesBuilder } from "./_pack.ts";
import type { ParseResult } from "./_result.ts";

const ABSOLUTE_HTTP = /^\s*https?:\/\//i;

/** Reads a text sitemap from decoded chunks. */
export class TextSitemapReader {
  readonly #builder: PackedPagesBuilder;
  readonly #lines: LineSplitter;

  /**
   * @param since Keep pages whose lastmod is >= this (epoch ms); text pages
   * have none, so every page is kept.
   */
  constructor(since: number = NaN) {
    this.#builder = new PackedPagesBuilder(null, since);
    this.#lines = new LineSplitter((line) => {
      // Relative lines are prose or junk here: the format requires absolute URLs.
      if (ABSOLUTE_HTTP.test(line)) this.#builder.add(line, NaN, 0.5, 0, null);
    });
  }

  /**
   * Feeds the next chunk of decoded text.
   *
   * @param chunk Decoded text.
   */
  write(chunk: string): void {
    this.#lines.write(chunk);
  }

  /**
   * Ends the input and returns the pages.
   *
   * @returns A pages result of format "text".
   */
  end(): ParseResult {
    this.#lines.end();
    const { pages, found, warning } = this.#builder.build();
    return { kind: "pages", format: "text", pages, found, warning };
  }
}
