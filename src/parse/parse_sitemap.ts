/**
 * One entry point from bytes to a {@linkcode ParseResult}: decode, detect the
 * format, read it.
 *
 * @module
 */
import {
  chooseEncoding,
  decodeChunks,
  DEFAULT_CHUNK_BYTES,
  FIRST_CHUNK_BYTES,
  undecodableReason,
} from "./_decode.ts";
import { sniffFormat, XmlDispatcher } from "./_detect.ts";
import { type Checkpoint, NO_CHECKPOINT, ParseCancelled } from "../_checkpoint.ts";
import { errorMessage } from "../_error_message.ts";
import type { ParseResult } from "./_result.ts";
import type { KeepExtensions } from "./_kept_pack.ts";
import { parseRobotsTxt } from "./robots_txt.ts";
import { TextSitemapReader } from "./_text.ts";
import type { XmlTokenizer, XmlTokenizerOptions } from "./_tokenizer.ts";
import { parseBase } from "./_url.ts";
import { readSitemapIndexBytes } from "./_sitemapindex_bytes.ts";
import { readUrlsetBytes } from "./_urlset_bytes.ts";
import { readCoreUrlsetBytes } from "./_urlset_core_bytes.ts";

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
  /**
   * Decode with this encoding whatever the bytes declare, e.g. "utf-8" for
   * bytes that came from encoding a JavaScript string. Unknown labels are
   * ignored. @default detected from BOM, XML declaration, `contentType`
   */
  readonly encoding?: string;
  /**
   * Input bytes decoded and tokenized per step; memory holds about two such
   * decoded chunks. @default 1048576
   */
  readonly chunkBytes?: number;
  /** Deepest XML element nesting read; deeper stops reading with a warning. @default 256 */
  readonly maxDepth?: number;
  /** Longest XML token (tag, text run, CDATA) in UTF-16 units. @default 4194304 */
  readonly maxTokenLength?: number;
  /**
   * Called with the input offset at least every 1 MiB of input (see
   * _checkpoint.ts); a {@linkcode ParseCancelled} it throws ends the parse
   * and is re-thrown, whatever else the parser catches.
   */
  readonly checkpoint?: Checkpoint;
  /**
   * When a urlset's image, video, news and alternate blocks are decoded:
   * `"lazy"` keeps them as bytes (compressed) and decodes a sitemap's blocks
   * when one of its pages' extensions is first read; `"eager"` decodes them
   * now. Results are the same. @default "lazy"
   */
  readonly extensions?: "lazy" | "eager";
}

const EXPECTED_ROOTS = "expected urlset, sitemapindex, rss, rdf:RDF or feed";

/** An HTML page that starts with its doctype, named as such rather than by its root element. */
const HTML_DOCTYPE = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html\b/i;

function invalid(reason: string): ParseResult {
  return { kind: "invalid", reason };
}

function forcedEncoding(label: string | undefined): string | null {
  if (label === undefined) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

function tokenizerOptions(options: ParseSitemapOptions): XmlTokenizerOptions {
  const o: { maxDepth?: number; maxTokenLength?: number } = {};
  if (options.maxDepth !== undefined) o.maxDepth = options.maxDepth;
  if (options.maxTokenLength !== undefined) o.maxTokenLength = options.maxTokenLength;
  return o;
}

/**
 * Reads one sitemap document (already decompressed): a `<urlset>`,
 * `<sitemapindex>`, RSS, RDF or Atom feed, text sitemap, or (with `robots`)
 * a robots.txt. Never throws: problems become `{ kind: "invalid" }` or a
 * `warning` beside the entries read so far.
 *
 * @example Reading a small urlset
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseSitemap } from "./parse_sitemap.ts";
 *
 * const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *   <url><loc>https://www.example.com/</loc><lastmod>2024-05-01</lastmod></url>
 * </urlset>`;
 * const result = parseSitemap(new TextEncoder().encode(xml), {
 *   url: "https://www.example.com/sitemap.xml",
 * });
 * deepStrictEqual(
 *   [result.kind, result.kind === "pages" ? result.pages.count : 0],
 *   ["pages", 1],
 * );
 * ```
 *
 * @param bytes The document's bytes, decompressed.
 * @param options The document's URL and how to read it.
 * @returns Pages, index children, or the reason the document is not a sitemap.
 */
export function parseSitemap(bytes: Uint8Array, options: ParseSitemapOptions): ParseResult {
  return readOrInvalid(bytes, options, true, NO_GZIP);
}

/** Kept extensions of a document that was not gzipped. */
const NO_GZIP: KeepExtensions = { gzip: null };

/**
 * {@linkcode parseSitemap}, for a document inflated from `gzip`: when its
 * extensions are kept, the gzip body may be kept in their place.
 *
 * @param bytes The document's bytes, decompressed.
 * @param options The document's URL and how to read it.
 * @param keep The body as downloaded, when it is one gzip member of exactly
 * `bytes` (else null), and when to keep it in place of the spans.
 * @returns What {@linkcode parseSitemap} returns.
 */
export function parseSitemapBody(
  bytes: Uint8Array,
  options: ParseSitemapOptions,
  keep: KeepExtensions,
): ParseResult {
  return readOrInvalid(bytes, options, true, keep);
}

/**
 * Reads one document the general way only: decoder, tokenizer, reader. For
 * tests that hold the byte-level urlset reader to the same results.
 *
 * @param bytes The document's bytes, decompressed.
 * @param options The document's URL and how to read it.
 * @returns What {@linkcode parseSitemap} returns.
 */
export function parseSitemapGeneral(bytes: Uint8Array, options: ParseSitemapOptions): ParseResult {
  return readOrInvalid(bytes, options, false, NO_GZIP);
}

/** {@linkcode read}, with what it throws (a cancellation aside) as the reason the document is invalid. */
function readOrInvalid(
  bytes: Uint8Array,
  options: ParseSitemapOptions,
  fast: boolean,
  keep: KeepExtensions,
): ParseResult {
  try {
    return read(bytes, options, fast, keep);
  } catch (e) {
    if (e instanceof ParseCancelled) throw e;
    // Readers are written not to throw; this is the net under that promise.
    return invalid(`Unable to parse sitemap: ${errorMessage(e)}`);
  }
}

/** Whether the options leave the tokenizer's limits where the byte-level reader stays inside them. */
function defaultLimits(options: ParseSitemapOptions): boolean {
  return options.maxDepth === undefined && options.maxTokenLength === undefined;
}

function read(
  bytes: Uint8Array,
  options: ParseSitemapOptions,
  fast: boolean,
  keep: KeepExtensions,
): ParseResult {
  const since = options.since ?? NaN;
  const checkpoint = options.checkpoint ?? NO_CHECKPOINT;
  const base = parseBase(options.url);
  const forced = forcedEncoding(options.encoding);
  if (forced === null) {
    const undecodable = undecodableReason(bytes);
    if (undecodable !== null) return invalid(undecodable);
  }
  const encoding = forced ?? chooseEncoding(bytes, options.contentType).encoding;
  if (fast && encoding === "utf-8" && options.robots !== true && defaultLimits(options)) {
    // Nearly every sitemap is a well-formed UTF-8 urlset or index: read those
    // straight from the bytes.
    const fastResult = readCoreUrlsetBytes(bytes, base, since, checkpoint) ??
      readUrlsetBytes(
        bytes,
        base,
        since,
        checkpoint,
        options.extensions === "eager" ? null : keep,
      ) ??
      readSitemapIndexBytes(bytes, base, checkpoint);
    if (fastResult !== null) return fastResult;
  }
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const first = Math.min(chunkBytes, FIRST_CHUNK_BYTES);
  const chunks = decodeChunks(bytes, encoding, chunkBytes, first, checkpoint);
  if (options.robots === true) return robotsResult(chunks, base);
  const doc = readChunks(chunks, base, since, bytes.length, tokenizerOptions(options));
  if (doc.xml === null) {
    // Only whitespace, or nothing at all: an empty text sitemap.
    return (doc.text ?? new TextSitemapReader(since)).end();
  }
  return xmlResult(doc.xml);
}

/** A robots.txt's `Sitemap:` URLs as an index, its text kept beside them. */
function robotsResult(chunks: Iterable<string>, base: URL | null): ParseResult {
  let text = "";
  for (const chunk of chunks) text += chunk;
  const robots = parseRobotsTxt(text, base ?? undefined);
  return {
    kind: "index",
    format: "robots",
    children: robots.sitemaps.map((url) => ({ url, lastModified: NaN })),
    warning: robots.warning,
    robotsText: robots.text,
  };
}

/** An XML document being read: its reader's dispatcher and tokenizer. */
interface XmlRead {
  readonly dispatcher: XmlDispatcher;
  readonly tokenizer: XmlTokenizer;
  /** Whether the document starts with an HTML doctype. */
  readonly htmlDoctype: boolean;
}

/**
 * Feeds the decoded chunks to the reader of the format the first
 * non-whitespace text shows: a text sitemap's, or the XML tokenizer and its
 * dispatcher, which stop early once the root has closed or the XML breaks.
 */
function readChunks(
  chunks: Iterable<string>,
  base: URL | null,
  since: number,
  sizeHint: number,
  tokenizerOptions: XmlTokenizerOptions,
): { text: TextSitemapReader | null; xml: XmlRead | null } {
  let text: TextSitemapReader | null = null;
  let xml: XmlRead | null = null;
  for (const chunk of chunks) {
    if (xml !== null) {
      xml.tokenizer.write(chunk);
      if (xml.tokenizer.error !== null || xml.dispatcher.done) break;
      continue;
    }
    if (text !== null) {
      text.write(chunk);
      continue;
    }
    const sniffed = sniffFormat(chunk);
    if (sniffed === "undecided") continue;
    if (sniffed === "text") {
      text = new TextSitemapReader(since);
      text.write(chunk);
      continue;
    }
    const dispatcher = new XmlDispatcher(base, since, sizeHint);
    const tokenizer = dispatcher.tokenizer(tokenizerOptions);
    xml = { dispatcher, tokenizer, htmlDoctype: HTML_DOCTYPE.test(chunk.slice(0, 4096)) };
    tokenizer.write(chunk.trimStart());
    if (tokenizer.error !== null || dispatcher.done) break;
  }
  if (xml !== null && xml.tokenizer.error === null && !xml.dispatcher.done) xml.tokenizer.end();
  return { text, xml };
}

/** The result of an XML document read to its end (or to where it broke). */
function xmlResult({ dispatcher, tokenizer, htmlDoctype }: XmlRead): ParseResult {
  const reader = dispatcher.reader;
  const error = tokenizer.error;
  if (reader === null) {
    if (htmlDoctype) {
      return invalid("Not a sitemap: the document is an HTML page (<!DOCTYPE html>)");
    }
    if (dispatcher.rootName !== null) {
      return invalid(
        `Not a sitemap: the document's root element is <${dispatcher.rootName}> (${EXPECTED_ROOTS})`,
      );
    }
    if (error !== null) return invalid(`Not a sitemap: unreadable XML: ${error}`);
    return invalid(`Not a sitemap: the document has no root element (${EXPECTED_ROOTS})`);
  }

  let warning: string | null = null;
  if (dispatcher.open) {
    warning = error !== null
      ? `Reading stopped early: ${error}`
      : `The document ends before </${dispatcher.rootName}>: it is truncated`;
  }
  if (warning !== null && reader.entries === 0) return invalid(`Not a sitemap: ${warning}`);
  return reader.finish(warning);
}
