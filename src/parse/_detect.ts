/**
 * Format detection: text or XML from the first significant character, then
 * the reader from the XML root element.
 *
 * @module
 */
import { FeedReader } from "./_feeds.ts";
import { Ns, nsKind } from "./_ns.ts";
import type { DocumentReader } from "./_reader.ts";
import { SitemapIndexReader } from "./_sitemapindex_tokens.ts";
import {
  type XmlAttribute,
  type XmlHandler,
  XmlTokenizer,
  type XmlTokenizerOptions,
} from "./_tokenizer.ts";
import { UrlsetReader } from "./_urlset_tokens.ts";

/** What the start of a document says it is. */
export type Sniffed = "xml" | "text" | "undecided";

/**
 * Looks at the first character that is not whitespace (or a stray BOM): `<`
 * means XML, anything else a text sitemap.
 *
 * @param chunk The next piece of decoded text.
 * @returns The decision, or "undecided" when `chunk` is all whitespace.
 */
export function sniffFormat(chunk: string): Sniffed {
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) continue;
    return c === 60 /* < */ ? "xml" : "text";
  }
  return "undecided";
}

/**
 * The reader for a root element, or null when the root is not one of the
 * formats. Roots are matched by local name alone: a misspelt namespace on the
 * root is common and nothing else uses these names for a document.
 *
 * @param ns The root's namespace URI.
 * @param local The root's local name.
 * @param base The document's parsed URL, or null.
 * @param since The lastmod filter (epoch ms, NaN for none).
 * @param sizeHint Bytes of the document, to size buffers once.
 * @returns A fresh reader, or null.
 */
export function readerForRoot(
  ns: string,
  local: string,
  base: URL | null,
  since: number,
  sizeHint: number = 0,
): DocumentReader | null {
  switch (local) {
    case "urlset":
      return new UrlsetReader(ns, base, since, sizeHint);
    case "sitemapindex":
      return new SitemapIndexReader(ns, base);
    case "rss":
      return new FeedReader("rss", base, since);
    case "RDF": {
      const kind = nsKind(ns);
      return kind === Ns.Rdf || kind === Ns.None ? new FeedReader("rss", base, since) : null;
    }
    case "feed":
      return new FeedReader("atom", base, since);
  }
  return null;
}

/**
 * Picks the reader at the root element and then hands it to the tokenizer,
 * so the root's content goes to the reader with no call in between; notices
 * when the root closes (anything after it is ignored) or never closes
 * (truncation) from the tokenizer's own state.
 */
export class XmlDispatcher implements XmlHandler {
  readonly #base: URL | null;
  readonly #since: number;
  readonly #sizeHint: number;
  #tokenizer: XmlTokenizer | null = null;
  /** The reader chosen by the root, once the root has started. */
  reader: DocumentReader | null = null;
  /** The root's local name, once seen. */
  rootName: string | null = null;

  /**
   * @param base The document's parsed URL, or null.
   * @param since The lastmod filter (epoch ms, NaN for none).
   * @param sizeHint Bytes of the document, to size buffers once.
   */
  constructor(base: URL | null, since: number, sizeHint: number = 0) {
    this.#base = base;
    this.#since = since;
    this.#sizeHint = sizeHint;
  }

  /**
   * Makes a tokenizer reporting to this dispatcher; it hands the reader to
   * the tokenizer once the root has chosen one.
   *
   * @param options The tokenizer's limits.
   * @returns The tokenizer to feed.
   */
  tokenizer(options: XmlTokenizerOptions = {}): XmlTokenizer {
    return this.#tokenizer = new XmlTokenizer(this, options);
  }

  /** True while the root element is open. */
  get open(): boolean {
    return this.reader !== null && !this.#tokenizer!.rootClosed;
  }

  /** True once nothing more will be read: the root closed, or was not a sitemap. */
  get done(): boolean {
    return this.rootName !== null && (this.reader === null || this.#tokenizer!.rootClosed);
  }

  /** Chooses the reader at the root and hands it the rest of the document. */
  onStart(ns: string, local: string, attrs: readonly XmlAttribute[]): void {
    if (this.rootName !== null) return; // after a root that is not a sitemap
    this.rootName = local;
    const reader = readerForRoot(ns, local, this.#base, this.#since, this.#sizeHint);
    if (reader === null) return;
    this.reader = reader;
    this.#tokenizer!.setHandler(reader);
    reader.onStart(ns, local, attrs);
  }

  /** Only reached inside a root that is not a sitemap: ignored. */
  onEnd(_ns: string, _local: string): void {}

  /** Only reached inside a root that is not a sitemap: ignored. */
  onText(_text: string): void {}
}

/**
 * Whether a URL names a robots.txt, which is read as one whatever it holds.
 *
 * @param url An absolute URL (or, unparseable, a name that may end in `/robots.txt`).
 * @returns True when its path ends in `/robots.txt`.
 */
export function isRobotsUrl(url: string): boolean {
  try {
    return new URL(url).pathname.endsWith("/robots.txt");
  } catch {
    return url.endsWith("/robots.txt");
  }
}
