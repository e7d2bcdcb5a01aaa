/**
 * A byte-level reader for UTF-8 `<sitemapindex>` documents, by
 * {@linkcode readXmlBytes}; it mirrors {@linkcode SitemapIndexReader} event
 * for event, so for what it accepts it gives the general path's result.
 *
 * @module
 */
import { plainAscii, skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";
import { parseDate, parseW3cDateBytes } from "./_dates.ts";
import { fnv1aWords, fnv1aWordsAscii, FNV_BASIS, mixHash } from "./_fnv.ts";
import { decodeRawText, isNormalUrlBytes } from "./_pack.ts";
import { type Checkpoint, NO_CHECKPOINT } from "../_checkpoint.ts";
import type { IndexEntry, ParseResult } from "./_result.ts";
import { NotUrlCounter } from "./_url.ts";
import {
  type ByteReader,
  cdataText,
  type ElementName,
  isCoreName,
  readXmlBytes,
  textEnd,
  TextWindow,
} from "./_xml_bytes.ts";

const F_LOC = 1;
const F_LASTMOD = 2;

/** Longest lastmod read from its bytes; {@linkcode parseW3cDate} trims longer text first. */
const MAX_DATE_BYTES = 64;

// A name's code: 1 for a core `<sitemap>`, 2 for a core `<loc>`, 3 for a core `<lastmod>`, else 0.
const N_SITEMAP = 1;

class SitemapIndexBytes implements ByteReader {
  readonly #base: URL | null;
  readonly #rootNs: string;
  readonly #children: IndexEntry[] = [];
  /**
   * The children's URLs by hash (open addressing, 0 for a free slot, else
   * 1 + the child's index), a lookup that is cheaper than a Set's since the
   * hash is taken from the bytes as they are passed. Every resolved URL is
   * ASCII, so bytes and characters hash alike.
   */
  #slots = new Int32Array(1024);
  readonly #hashes: number[] = [];
  readonly #notUrls = new NotUrlCounter();
  #inSitemap = false;
  #loc: string | null = null;
  /** The `<loc>`'s resolved URL when it was read from bytes already normal, else null. */
  #url: string | null = null;
  /** Its hash, when it is. */
  #urlHash = 0;
  #lastModified = NaN;

  readonly #window: TextWindow;
  /** The document's bytes, for {@linkcode fnv1aWords}'s word reads. */
  readonly #view: DataView;

  constructor(rootNs: string, base: URL | null, b: Uint8Array) {
    this.#rootNs = rootNs;
    this.#base = base;
    this.#window = new TextWindow(b);
    this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
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
        this.#url = null;
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
    if (field === F_LOC) {
      if (this.#loc !== null) return;
      const s = skipSpace(b, a, e);
      const t = trimSpaceEnd(b, s, e);
      // A URL the WHATWG parser keeps as it stands (no fragment either):
      // resolveSitemapUrl would give its text back. Such bytes are
      // printable ASCII without '&', so they are their text.
      if (isNormalUrlBytes(b, s, t)) {
        this.#loc = this.#url = this.#window.decode(s, t);
        this.#urlHash = mixHash(fnv1aWords(this.#view, b, s, t, FNV_BASIS));
        return;
      }
    } else if (e - a <= MAX_DATE_BYTES && plainAscii(b, a, e, 0x0d)) {
      // parseDate reads W3C dates from the same bytes first.
      const ms = parseW3cDateBytes(b, a, e);
      if (ms === ms) {
        this.#lastModified = ms;
        return;
      }
    }
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
    const url = this.#url ?? this.#notUrls.sitemapUrl(this.#loc, this.#base);
    if (url === null) return;
    const h = this.#url !== null ? this.#urlHash : mixHash(fnv1aWordsAscii(url, FNV_BASIS));
    const children = this.#children;
    const hashes = this.#hashes;
    let slots = this.#slots;
    let mask = slots.length - 1;
    let i = h & mask;
    for (let k = slots[i]!; k !== 0; k = slots[i]!) {
      if (hashes[k - 1] === h && children[k - 1]!.url === url) return;
      i = (i + 1) & mask;
    }
    children.push({ url, lastModified: this.#lastModified });
    hashes.push(h);
    slots[i] = children.length;
    if (children.length * 2 > slots.length) {
      slots = this.#slots = new Int32Array(slots.length * 2);
      mask = slots.length - 1;
      for (let k = 0; k < hashes.length; k++) {
        let j = hashes[k]! & mask;
        while (slots[j] !== 0) j = (j + 1) & mask;
        slots[j] = k + 1;
      }
    }
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
    (rootNs) => new SitemapIndexBytes(rootNs, base, b),
    checkpoint,
  );
}
