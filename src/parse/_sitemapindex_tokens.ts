/**
 * The general `<sitemapindex>` reader: the `<loc>` and `<lastmod>` of each
 * `<sitemap>`, from the tokenizer's events. `_sitemapindex_bytes.ts` reads
 * the UTF-8 documents it can from their bytes and must agree with it.
 *
 * @module
 */
import { parseDate } from "./_dates.ts";
import { Ns, nsKind } from "./_ns.ts";
import { type DocumentReader, FieldText } from "./_reader.ts";
import { type IndexEntry, joinWarnings, type ParseResult } from "./_result.ts";
import type { XmlAttribute } from "./_tokenizer.ts";
import { NotUrlCounter } from "./_url.ts";

const F_LOC = 1;
const F_LASTMOD = 2;

/** Reads a `<sitemapindex>` into its child sitemap URLs, deduplicated in order. */
export class SitemapIndexReader implements DocumentReader {
  readonly #base: URL | null;
  readonly #rootNs: string;
  readonly #notUrls = new NotUrlCounter();
  readonly #children: IndexEntry[] = [];
  readonly #seen = new Set<string>();
  #entries = 0;
  #depth = 0;
  #inSitemap = false;
  #field = 0;
  readonly #text = new FieldText();
  #loc: string | null = null;
  #lastModified = NaN;

  /**
   * @param rootNs The root element's namespace (its children share it).
   * @param base The index URL, for relative `<loc>`s; null if unknown.
   */
  constructor(rootNs: string, base: URL | null) {
    this.#rootNs = rootNs;
    this.#base = base;
  }

  /** Complete `<sitemap>` elements read so far. */
  get entries(): number {
    return this.#entries;
  }

  #isCore(ns: string): boolean {
    if (ns === this.#rootNs) return true;
    const k = nsKind(ns);
    return k === Ns.Sitemap || k === Ns.None;
  }

  /** Called by the tokenizer when an element starts. */
  onStart(ns: string, local: string, _attrs: readonly XmlAttribute[]): void {
    const d = ++this.#depth;
    if (this.#field !== 0) return;
    if (d === 2) {
      if (local === "sitemap" && this.#isCore(ns)) {
        this.#inSitemap = true;
        this.#loc = null;
        this.#lastModified = NaN;
      }
    } else if (d === 3 && this.#inSitemap && this.#isCore(ns)) {
      if (local === "loc") this.#field = F_LOC;
      else if (local === "lastmod") this.#field = F_LASTMOD;
    }
  }

  /** Called by the tokenizer with character data. */
  onText(text: string): void {
    if (this.#field !== 0) this.#text.add(text);
  }

  /** Called by the tokenizer when an element ends. */
  onEnd(_ns: string, _local: string): void {
    const d = this.#depth--;
    if (this.#field !== 0) {
      if (d !== 3) return;
      const text = this.#text.take();
      if (text !== null) {
        if (this.#field === F_LOC) this.#loc ??= text;
        else this.#lastModified = parseDate(text);
      }
      this.#field = 0;
      return;
    }
    if (d !== 2 || !this.#inSitemap) return;
    this.#inSitemap = false;
    this.#entries++;
    if (this.#loc === null) return;
    const url = this.#notUrls.sitemapUrl(this.#loc, this.#base);
    if (url === null || this.#seen.has(url)) return;
    this.#seen.add(url);
    this.#children.push({ url, lastModified: this.#lastModified });
  }

  /**
   * Returns the children read.
   *
   * @param warning Why reading stopped early, or null.
   * @returns An index result of format "index".
   */
  finish(warning: string | null): ParseResult {
    const all = joinWarnings(warning, this.#notUrls.warning());
    return { kind: "index", format: "index", children: this.#children, warning: all };
  }
}
