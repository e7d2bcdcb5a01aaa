/**
 * robots.txt as a sitemap index: its `Sitemap:` lines (RFC 9309 section
 * 2.2.4; they belong to no user-agent group, so the whole file counts).
 *
 * @module
 */
import { LineSplitter } from "./_lines.ts";
import type { IndexEntry, ParseResult } from "./_result.ts";
import { NotUrlCounter } from "./_url.ts";

/** `Sitemap:` or the `Site-map:` misspelling, any case, any spacing around the colon. */
const SITEMAP_LINE = /^\s*site-?map\s*:\s*(\S*)/i;

/** Reads the `Sitemap:` lines of a robots.txt from decoded chunks. */
export class RobotsTxtReader {
  readonly #base: URL | null;
  readonly #seen = new Set<string>();
  readonly #children: IndexEntry[] = [];
  readonly #notUrls = new NotUrlCounter();
  readonly #lines: LineSplitter;

  /** @param base The robots.txt URL, against which relative values resolve; null if unknown. */
  constructor(base: URL | null) {
    this.#base = base;
    this.#lines = new LineSplitter((line) => this.#line(line));
  }

  #line(line: string): void {
    const m = SITEMAP_LINE.exec(line);
    if (m === null) return;
    // A "#" starts a comment in robots.txt, even right after the value.
    const value = (m[1] ?? "").split("#", 1)[0] ?? "";
    // A value that only looks relative (`httр://` with a Cyrillic `р`) is counted, not resolved.
    const url = this.#notUrls.sitemapUrl(value, this.#base);
    if (url === null || this.#seen.has(url)) return;
    this.#seen.add(url);
    this.#children.push({ url, lastModified: NaN });
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
   * Ends the input and returns the sitemaps named.
   *
   * @returns An index result of format "robots", warning of the values
   * dropped for not being URLs.
   */
  end(): ParseResult {
    this.#lines.end();
    const warning = this.#notUrls.warning();
    return { kind: "index", format: "robots", children: this.#children, warning };
  }
}
