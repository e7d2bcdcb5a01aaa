/**
 * A streaming XML tokenizer written for sitemaps.
 *
 * INTERFACE ONLY (placeholder): the implementation is being written; the types
 * and the class's public surface below are the contract the readers use.
 *
 * @module
 */

/** One attribute of an element, namespace resolved. `xmlns` declarations are not reported. */
export interface XmlAttribute {
  /** Namespace URI; "" for an unprefixed attribute or an unbound prefix. */
  readonly ns: string;
  readonly local: string;
  /** Entity-decoded value. */
  readonly value: string;
}

/** Receives the tokenizer's events. Implementations must not throw. */
export interface XmlHandler {
  /**
   * An element starts. `ns` is the resolved namespace URI ("" when none or the
   * prefix is unbound), `local` the name without prefix. `attrs` is a shared
   * empty array when the element has no attributes; do not keep or mutate it.
   * A self-closing element gets `onStart` then `onEnd`.
   */
  onStart(ns: string, local: string, attrs: readonly XmlAttribute[]): void;
  /** An element ends (matched by the tokenizer's own stack, not by the end tag's spelling). */
  onEnd(ns: string, local: string): void;
  /**
   * Character data, decoded exactly once. A text run between two pieces of
   * markup arrives in one call; a CDATA section arrives in its own call.
   * Whitespace-only runs outside CDATA are not reported.
   */
  onText(text: string): void;
}

/** Limits of {@linkcode XmlTokenizer}. */
export interface XmlTokenizerOptions {
  /** Deepest element nesting accepted; deeper stops tokenizing with an error. @default 256 */
  readonly maxDepth?: number;
  /** Longest single token (tag, text run, comment, CDATA) in UTF-16 units. @default 4194304 */
  readonly maxTokenLength?: number;
}

/**
 * Push-style tokenizer: `write()` decoded text chunks, then `end()`. Never
 * throws; after a fatal problem (DOCTYPE, too deep, too long) it stops
 * emitting and `error` says why. Truncated input simply ends.
 */
export class XmlTokenizer {
  /** Why tokenizing stopped before the end of input, or null. */
  error: string | null = null;

  constructor(handler: XmlHandler, options: XmlTokenizerOptions = {}) {
    void handler;
    void options;
  }

  /** Feeds the next chunk of decoded text. */
  write(chunk: string): void {
    void chunk;
  }

  /** Signals the end of input (flushes a pending text run). */
  end(): void {}
}
