/**
 * The contract between the XML document driver and the format readers, and
 * small value helpers they share.
 *
 * @module
 */
import type { ParseResult } from "./_result.ts";
import type { XmlHandler } from "./_tokenizer.ts";

/**
 * A format reader: receives every event from the root element's start to its
 * end, then builds the result.
 */
export interface DocumentReader extends XmlHandler {
  /** Complete entries (`<url>`, `<sitemap>`, `<item>`, `<entry>`) read so far. */
  readonly entries: number;
  /**
   * Builds the result from the complete entries.
   *
   * @param warning Why reading stopped early, or null.
   */
  finish(warning: string | null): ParseResult;
}

/**
 * Longest element text kept, in UTF-16 units. Text is concatenated across
 * CDATA sections, so no token limit bounds it; a value longer than this (no
 * real URL, date or title is) is dropped rather than buffered.
 */
export const MAX_FIELD_LENGTH = 64 << 10;

/**
 * The text of the field a token reader captures, gathered across the
 * tokenizer's text events (CDATA sections, split runs); a value longer than
 * {@linkcode MAX_FIELD_LENGTH} is dropped rather than buffered.
 */
export class FieldText {
  #text = "";
  #overflow = false;

  /**
   * Adds a text event's text.
   *
   * @param text The text.
   */
  add(text: string): void {
    if (this.#text.length + text.length <= MAX_FIELD_LENGTH) this.#text += text;
    else this.#overflow = true;
  }

  /**
   * Ends the field.
   *
   * @returns The text gathered, or null when it ran past the limit.
   */
  take(): string | null {
    const text = this.#overflow ? null : this.#text;
    this.#text = "";
    this.#overflow = false;
    return text;
  }
}

/** Makes the readonly fields of a result type writable while it is being filled. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Trimmed text, or null when only whitespace. */
export function textOrNull(text: string): string | null {
  const t = text.trim();
  return t === "" ? null : t;
}

/** A comma-separated list, trimmed, empty items dropped. */
export function commaList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(",")) {
    const t = part.trim();
    if (t !== "") out.push(t);
  }
  return out;
}

/** `yes`/`no` (any case, trimmed, also true/false) as a boolean, else null. */
export function yesNo(text: string): boolean | null {
  const t = text.trim().toLowerCase();
  if (t === "yes" || t === "true") return true;
  if (t === "no" || t === "false") return false;
  return null;
}

const DECIMAL = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/** A non-negative decimal number, or null (so "", "0x10" and "1e3" are not numbers). */
export function decimalOrNull(text: string): number | null {
  return DECIMAL.test(text) ? Number(text) : null;
}

/** A `<priority>`: a decimal in [0, 1], else the protocol's default 0.5. */
export function parsePriority(text: string): number {
  const n = decimalOrNull(text);
  return n !== null && n <= 1 ? n : 0.5;
}
