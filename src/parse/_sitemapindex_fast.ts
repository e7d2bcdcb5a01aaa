/**
 * A byte-level reader for UTF-8 `<sitemapindex>` documents, by
 * {@linkcode readXmlBytes}; it mirrors {@linkcode SitemapIndexReader} event
 * for event, so for what it accepts it gives the general path's result.
 *
 * @module
 */
import { parseDate } from "./_dates.ts";
import { decodeRawText } from "./_pack.ts";
import { type Checkpoint, NO_CHECKPOINT } from "../_checkpoint.ts";
import type { IndexEntry, ParseResult } from "./_result.ts";
import { NotUrlCounter, resolveSitemapUrl } from "./_url.ts";
import {
  type ByteReader,
  cdataText,
  type ElementName,
  isCoreName,
  readXmlBytes,
  textEnd,
} from "./_xml_bytes.ts";

const F_LOC = 1;
const F_LASTMOD = 2;

// A name's code: 1 for a core `<sitemap>`, 2 for a core `<loc>`, 3 for a core `<lastmod>`, else 0.
const N_SITEMAP = 1;

class SitemapIndexBytes implements ByteReader {
  readonly #base: URL | null;
  readonly #rootNs: string;
  readonly #children: IndexEntry[] = [];
  readonly #seen = new Set<string>();
  readonly #notUrls = new NotUrlCounter();
  #inSitemap = false;
  #loc: string | null = null;
  #lastModified = NaN;

  constructor(rootNs: string, base: URL | null) {
    this.#rootNs = rootNs;
    this.#base = base;
  }

  start(d: number, name: ElementName): number {
    let code = name.code;
    if (code === -1) {
      code = 0;
      if (isCoreName(name, this.#rootNs)) {
        code = name.local === "sitemap"
          ? N_SITEMAP
          : name.local === "loc"
          ? 1 + F_LOC
          : name.local === "lastmod"
          ? 1 + F_LASTMOD
          : 0;
      }
      name.code = code;
    }
    if (d === 2) {
      if (code === N_SITEMAP) {
        this.#inSitemap = true;
        this.#loc = null;
        this.#lastModified = NaN;
      }
    } else if (d === 3 && this.#inSitemap && code > N_SITEMAP) {
      return code - 1;
    }
    return 0;
  }

  scan(_field: number, b: Uint8Array, from: number): number {
    return textEnd(b, from);
  }

  raw(field: number, b: Uint8Array, a: number, e: number): void {
    this.text(field, decodeRawText(b, a, e));
  }

  cdata(field: number, b: Uint8Array, a: number, e: number): void {
    this.text(field, cdataText(b, a, e));
  }

  text(field: number, text: string): void {
    if (field === F_LOC) this.#loc ??= text;
    else this.#lastModified = parseDate(text);
  }

  end(d: number): void {
    if (d !== 2 || !this.#inSitemap) return;
    this.#inSitemap = false;
    if (this.#loc === null) return;
    const url = resolveSitemapUrl(this.#loc, this.#base);
    if (url === null) this.#notUrls.note(this.#loc);
    if (url === null || this.#seen.has(url)) return;
    this.#seen.add(url);
    this.#children.push({ url, lastModified: this.#lastModified });
  }

  finish(): ParseResult {
    const warning = this.#notUrls.warning();
    return { kind: "index", format: "index", children: this.#children, warning };
  }

  discard(): void {}
}

/**
 * Reads a UTF-8 `<sitemapindex>` straight from its bytes.
 *
 * @param b The decompressed document, known to be UTF-8.
 * @param base The index URL, for relative `<loc>`s; null if unknown.
 * @param checkpoint Called with the offset every ~1 MiB; may throw to cancel.
 * @returns The general path's result, or null when the document is not of
 * the shape read here.
 */
export function readSitemapIndexBytes(
  b: Uint8Array,
  base: URL | null,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): ParseResult | null {
  return readXmlBytes(
    b,
    "sitemapindex",
    (rootNs) => new SitemapIndexBytes(rootNs, base),
    checkpoint,
  );
}
