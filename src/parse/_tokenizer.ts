/**
 * A streaming XML tokenizer written for sitemaps.
 *
 * It is fed decoded text in chunks of any size and reports elements (namespace
 * resolved), text and CDATA. It is deliberately not a validating parser: it
 * recovers from what real sitemaps get wrong and refuses only what is
 * dangerous (entity declarations: a DOCTYPE's internal subset, the door to
 * entity expansion) or unbounded (nesting and token length). A DOCTYPE
 * without an internal subset, such as RSS 0.91's
 * `<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">`,
 * declares nothing of its own and is skipped: its DTD is never fetched, and
 * a reference to an entity it would have defined stays text as written.
 *
 * How it stays fast and linear: every token (text run, tag, comment, CDATA,
 * processing instruction) is located with `indexOf`/`charCodeAt` on the
 * current chunk, and only the unfinished token at the end of a chunk is kept.
 * While a token is unfinished, later chunks are only searched for its
 * terminator (with just enough state to see a terminator split across two
 * chunks), so a long token fed in small chunks costs one pass, not one pass
 * per chunk. The element stack is push/pop only and never searched for a
 * well-formed document; a stray end tag costs O(1) (open names are counted).
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
   * Whitespace-only runs outside CDATA are not reported, nor is anything
   * outside the root element, nor an empty CDATA section.
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

/** The namespace the `xml:` prefix is bound to by definition. */
export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

const EMPTY_ATTRS: readonly XmlAttribute[] = Object.freeze([]);

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const BANG = 0x21; // !
const QUESTION = 0x3f; // ?
const DQUOTE = 0x22; // "
const SQUOTE = 0x27; // '
const EQUALS = 0x3d; // =
const COLON = 0x3a; // :
const HASH = 0x23; // #
const SEMI = 0x3b; // ;
const DASH = 0x2d; // -
const LBRACKET = 0x5b; // [

// What the unfinished token at the end of the input so far is.
const PEND_NONE = 0;
/** Text waiting for its `<`. */
const PEND_TEXT = 1;
/** A start tag (or nameless bogus tag) waiting for a `>` outside quotes. */
const PEND_TAG = 2;
/** An end tag or bogus `<!...` declaration waiting for a `>`. */
const PEND_GT = 3;
const PEND_COMMENT = 4;
const PEND_CDATA = 5;
const PEND_PI = 6;
/** `<`, `<!`, `<![CDA`, `<!DOCT`...: too short to know what it is (at most 8 chars). */
const PEND_UNDECIDED = 7;
/**
 * A DOCTYPE waiting for a `>` or a `[` outside quotes: the `[` (an internal
 * subset) must be refused the moment it arrives, as it is in a single chunk.
 */
const PEND_DOCTYPE = 8;

const TERMINATORS = ["", "", "", "", "-->", "]]>", "?>", "", ""] as const;

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** True when `s[from, to)` holds only XML whitespace. */
function onlySpace(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (!isXmlSpace(s.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * Compares `s` at `at` with `marker`: 1 when it matches whole, 0 when `s` ends
 * while still matching (more input could decide), -1 on a mismatch. With
 * `foldCase`, ASCII letters of `s` match either case (`marker` is upper case).
 */
function matchMarker(s: string, at: number, marker: string, foldCase: boolean): -1 | 0 | 1 {
  for (let k = 0; k < marker.length; k++) {
    if (at + k >= s.length) return 0;
    let c = s.charCodeAt(at + k);
    if (foldCase && c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c !== marker.charCodeAt(k)) return -1;
  }
  return 1;
}

/**
 * A copy of `s` that does not pin the chunk it was sliced from. V8 (and JSC)
 * keep a substring of 13 or more chars as a view into its parent, so a name or
 * namespace URI the tokenizer keeps for a while would otherwise hold a whole
 * 1 MiB chunk alive.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/**
 * XML end-of-line handling: CRLF and lone CR become LF (XML 1.0 section 2.11).
 *
 * @param t Raw text.
 * @returns The text with XML line ends.
 */
export function normalizeNewlines(t: string): string {
  return t.indexOf("\r") === -1 ? t : t.replace(/\r\n?/g, "\n");
}

/** Attribute-value normalisation for literal whitespace (XML 1.0 section 3.3.3). */
function normalizeAttributeSpace(v: string): string {
  // Three native searches beat one loop over the chars in JavaScript.
  return v.indexOf("\n") === -1 && v.indexOf("\t") === -1 && v.indexOf("\r") === -1
    ? v
    : v.replace(/\r\n?|[\n\t]/g, " ");
}

/**
 * Decodes the five predefined entities and numeric character references in
 * one pass, so the output is never decoded again (`&amp;lt;` gives `&lt;`).
 * Anything else starting with `&` is kept as written.
 *
 * @param t Raw text.
 * @param amp Index of the first `&` in `t`.
 * @returns The decoded text.
 */
export function decodeEntities(t: string, amp: number): string {
  let out = "";
  let copied = 0;
  let i = amp;
  const n = t.length;
  while (i !== -1) {
    let replacement: string | null = null;
    let end = i + 1; // index after the reference when it is one
    const c1 = t.charCodeAt(i + 1);
    if (c1 === HASH) {
      let j = i + 2;
      const hex = t.charCodeAt(j) === 0x78; // only lower-case x is XML
      if (hex) j++;
      const digitsStart = j;
      let value = 0;
      for (; j < n; j++) {
        const c = t.charCodeAt(j);
        let d: number;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
        else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
        else break;
        // Saturate instead of overflowing: any value past the last code point is invalid anyway.
        value = value > 0x10ffff ? value : value * (hex ? 16 : 10) + d;
      }
      if (j > digitsStart && t.charCodeAt(j) === SEMI) {
        const valid = value !== 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff);
        replacement = String.fromCodePoint(valid ? value : 0xfffd);
        end = j + 1;
      }
    } else if (c1 === 0x61) { // a
      if (t.startsWith("amp;", i + 1)) {
        replacement = "&";
        end = i + 5;
      } else if (t.startsWith("apos;", i + 1)) {
        replacement = "'";
        end = i + 6;
      }
    } else if (c1 === 0x6c) { // l
      if (t.startsWith("lt;", i + 1)) {
        replacement = "<";
        end = i + 4;
      }
    } else if (c1 === 0x67) { // g
      if (t.startsWith("gt;", i + 1)) {
        replacement = ">";
        end = i + 4;
      }
    } else if (c1 === 0x71) { // q
      if (t.startsWith("quot;", i + 1)) {
        replacement = '"';
        end = i + 6;
      }
    }
    if (replacement !== null) {
      out += t.slice(copied, i) + replacement;
      copied = end;
    }
    i = t.indexOf("&", end);
  }
  return copied === 0 ? t : out + t.slice(copied);
}

/**
 * Push-style tokenizer: `write()` decoded text chunks, then `end()`. Never
 * throws; after a fatal problem (DOCTYPE, too deep, too long) it stops
 * emitting and `error` says why. Truncated input simply ends.
 *
 * Recovery rules, chosen to keep every complete entry of a broken sitemap:
 * - An end tag closes the innermost open element with the same qualified
 *   name, and every element opened inside it (like libxml2's recover mode);
 *   an end tag that matches no open element is ignored.
 * - Once the root element closes, the rest of the input is ignored (trailing
 *   garbage is common: debug output, a second document).
 * - A token cut off by the end of input produces no event, so a truncated
 *   document yields exactly a prefix of the events of the whole one.
 * - Malformed markup (`<` followed by no name, `<!FOO>`) is skipped up to its
 *   `>`; an unknown or malformed entity reference is kept as written.
 *
 * @example Counting URLs
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { XmlTokenizer } from "./_tokenizer.ts";
 *
 * let urls = 0;
 * const tokenizer = new XmlTokenizer({
 *   onStart(_ns, local) {
 *     if (local === "url") urls++;
 *   },
 *   onEnd() {},
 *   onText() {},
 * });
 * tokenizer.write("<urlset><url><loc>https://a.example/</loc></u");
 * tokenizer.write("rl></urlset>");
 * tokenizer.end();
 * strictEqual(urls, 1);
 * strictEqual(tokenizer.error, null);
 * ```
 */
export class XmlTokenizer {
  /** Why tokenizing stopped before the end of input, or null. */
  error: string | null = null;

  #handler: XmlHandler;
  readonly #maxDepth: number;
  readonly #maxToken: number;

  /** No more events: an error, the root element closed, or `end()` was called. */
  #stopped = false;
  #rootClosed = false;
  /** Any CR seen so far; until then text needs no newline normalisation. */
  #sawCR = false;

  /** Scratch list for the attributes of the tag being read. */
  readonly #raw: (string | number)[] = [];
  /** Open elements, innermost last; its length is the depth. Push/pop only. */
  readonly #stack: Frame[] = [];
  /**
   * Frames of recent start tags without namespace declarations, keyed by the
   * name's first two chars: a hit costs a compare of the name's chars, no
   * scan for the tag's end and no allocation.
   */
  readonly #frames: (Frame | undefined)[] = new Array(FRAME_CACHE_SIZE).fill(undefined);

  /** How many open elements have each qualified name; kept only after a mismatched end tag. */
  #openNames: Map<string, number> | null = null;

  /** Prefix -> stack of namespace URIs bound to it (innermost last). */
  readonly #prefixes = new Map<string, string[]>();
  /** Default-namespace stack; the innermost binding is last. */
  readonly #defaults: string[] = [];
  #defaultNs = "";
  /** Changes whenever a binding comes or goes, which makes cached frames stale. */
  #scope = 0;

  // The unfinished token at the end of the input so far.
  #pendKind = PEND_NONE;
  #pendPieces: string[] = [];
  #pendLength = 0;
  /** PEND_TAG: the quote (a char code) the tag is inside, or 0. */
  #pendQuote = 0;
  /** PEND_COMMENT/CDATA/PI: the last chars after the opener, to see a terminator split by a chunk. */
  #pendCarry = "";

  /**
   * Creates a tokenizer that reports to `handler`.
   *
   * @param handler Receives the events.
   * @param options Limits; both must be positive integers.
   * @throws {RangeError} When a limit is not a positive integer.
   */
  constructor(handler: XmlHandler, options: XmlTokenizerOptions = {}) {
    const maxDepth = options.maxDepth ?? 256;
    const maxToken = options.maxTokenLength ?? 4 * 1024 * 1024;
    if (!Number.isInteger(maxDepth) || maxDepth < 1) {
      throw new RangeError(`maxDepth must be a positive integer, got ${maxDepth}`);
    }
    if (!Number.isInteger(maxToken) || maxToken < 1) {
      throw new RangeError(`maxTokenLength must be a positive integer, got ${maxToken}`);
    }
    this.#handler = handler;
    this.#maxDepth = maxDepth;
    this.#maxToken = maxToken;
  }

  /**
   * Whether the root element has closed: false after `end()` means the
   * document was truncated (or empty), unless `error` is set.
   */
  get rootClosed(): boolean {
    return this.#rootClosed;
  }

  /**
   * Sends every later event to `handler` instead, e.g. the reader a
   * dispatcher chose at the root element, so each event costs one call.
   * Safe to call from inside an event.
   *
   * @param handler Receives the events from now on.
   */
  setHandler(handler: XmlHandler): void {
    this.#handler = handler;
  }

  /** UTF-16 units held for the unfinished token at the end of the input so far. */
  get pendingLength(): number {
    return this.#pendLength;
  }

  /**
   * Feeds the next chunk of decoded text.
   *
   * @param chunk Any slice of the document; boundaries may fall anywhere.
   */
  write(chunk: string): void {
    if (this.#stopped || chunk.length === 0) return;
    if (!this.#sawCR && chunk.indexOf("\r") !== -1) this.#sawCR = true;
    const kind = this.#pendKind;
    if (kind === PEND_NONE) {
      this.#run(chunk, 0);
      return;
    }
    if (kind === PEND_UNDECIDED) {
      // At most 8 chars, too few to know the token: decide on them and the chunk together.
      const tail = this.#pendPieces[0]!;
      this.#clearPending();
      this.#run(tail + chunk, 0);
      return;
    }
    const end = this.#pendEnd(chunk);
    if (end === -1) {
      if (this.#pendLength + chunk.length > this.#maxToken) return this.#failTooLong();
      this.#pendPieces.push(chunk);
      this.#pendLength += chunk.length;
      return;
    }
    // Only the finished token is joined; the rest of the chunk is read in place, uncopied.
    const pieces = this.#pendPieces;
    pieces.push(chunk.slice(0, end));
    this.#clearPending();
    const token = pieces.join("");
    if (kind === PEND_TEXT) {
      if (token.length > this.#maxToken) return this.#failTooLong();
      if (this.#stack.length > 0 && !onlySpace(token, 0, token.length)) {
        this.#text(token, 0, token.length);
      }
    } else {
      this.#run(token, 0);
    }
    if (!this.#stopped) this.#run(chunk, end);
  }

  /**
   * Signals the end of input. A token cut off by it, including a text run in
   * an unclosed element, produces no event; open elements get no `onEnd`.
   */
  end(): void {
    this.#stopped = true;
    this.#clearPending();
  }

  #fail(message: string): void {
    this.error = message;
    this.#stopped = true;
    this.#clearPending();
  }

  #failTooLong(): void {
    this.#fail(`XML token longer than ${this.#maxToken} characters (maxTokenLength)`);
  }

  #failTooDeep(): void {
    this.#fail(`XML elements nest deeper than ${this.#maxDepth} levels (maxDepth)`);
  }

  /**
   * Keeps `s[start..]` as the unfinished token of kind `kind`; false when it is already too long.
   * An undecided start (at most 8 chars) is not a token yet and is not held to the limit: read
   * whole, `<!DOCTYPE` and `<!ENTITY` are refused whatever the limit.
   */
  #pend(kind: number, s: string, start: number): boolean {
    const length = s.length - start;
    if (length > this.#maxToken && kind !== PEND_UNDECIDED) {
      this.#failTooLong();
      return false;
    }
    this.#pendKind = kind;
    this.#pendPieces = [start === 0 ? s : s.slice(start)];
    this.#pendLength = length;
    return true;
  }

  /** Keeps an unfinished comment, CDATA section or PI whose body starts at `bodyStart`. */
  #pendDelimited(kind: number, s: string, start: number, bodyStart: number): void {
    if (!this.#pend(kind, s, start)) return;
    const keep = TERMINATORS[kind]!.length - 1;
    this.#pendCarry = s.slice(Math.max(bodyStart, s.length - keep));
  }

  /**
   * Where the unfinished token ends in `chunk`: the index after its last
   * char, or -1 when it goes on past the chunk (then the carried state is
   * updated for the next chunk).
   */
  #pendEnd(chunk: string): number {
    switch (this.#pendKind) {
      case PEND_TEXT:
        return chunk.indexOf("<");
      case PEND_GT: {
        const gt = chunk.indexOf(">");
        return gt === -1 ? -1 : gt + 1;
      }
      case PEND_TAG:
      case PEND_DOCTYPE: {
        // A tag ends at its `>`; a DOCTYPE's token also ends at a `[`, which #doctype refuses.
        const alsoEndsAt = this.#pendKind === PEND_DOCTYPE ? LBRACKET : GT;
        let quote = this.#pendQuote;
        for (let j = 0; j < chunk.length; j++) {
          const c = chunk.charCodeAt(j);
          if (quote !== 0) {
            if (c === quote) quote = 0;
          } else if (c === GT || c === alsoEndsAt) {
            return j + 1;
          } else if (c === DQUOTE || c === SQUOTE) {
            quote = c;
          }
        }
        this.#pendQuote = quote;
        return -1;
      }
      default: {
        const term = TERMINATORS[this.#pendKind]!;
        const keep = term.length - 1;
        const carry = this.#pendCarry;
        if (carry.length > 0) {
          const at = (carry + chunk.slice(0, keep)).indexOf(term);
          if (at !== -1) return at + term.length - carry.length;
        }
        const at = chunk.indexOf(term);
        if (at !== -1) return at + term.length;
        this.#pendCarry = chunk.length >= keep ? chunk.slice(chunk.length - keep) : (carry + chunk)
          .slice(-keep);
        return -1;
      }
    }
  }

  #clearPending(): void {
    this.#pendKind = PEND_NONE;
    this.#pendPieces = [];
    this.#pendLength = 0;
  }

  /**
   * Tokenizes `s` from `start`.
   * The two common tags of a sitemap, `<name>` seen before and the end tag of
   * the innermost element, are handled inline; everything else in methods.
   */
  #run(s: string, start: number): void {
    const n = s.length;
    const max = this.#maxToken;
    // Reloaded after every onStart, which may have called setHandler().
    let handler = this.#handler;
    const stack = this.#stack;
    const frames = this.#frames;
    let i = start;
    while (i < n) {
      // Most text between tags is indentation: skip it without a search or a slice.
      let j = i;
      let c = s.charCodeAt(j);
      while (c === 0x0a || c === 0x20 || c === 0x09 || c === 0x0d) c = s.charCodeAt(++j);
      let lt = j;
      if (c !== LT) {
        lt = j < n ? s.indexOf("<", j + 1) : -1;
        if (lt === -1) {
          this.#pend(PEND_TEXT, s, i);
          return;
        }
        if (lt - i > max) return this.#failTooLong();
        if (stack.length > 0) this.#text(s, i, lt);
      } else if (lt - i > max) {
        return this.#failTooLong();
      }
      i = lt;
      c = s.charCodeAt(i + 1); // NaN at the end of `s`
      if (c === SLASH) {
        const depth = stack.length;
        if (depth > 0) {
          const top = stack[depth - 1]!;
          const codes = top.codes;
          const gt = i + 2 + codes.length;
          if (s.charCodeAt(gt) === GT && matches(s, i + 2, codes)) {
            if (gt + 1 - i > max) return this.#failTooLong();
            stack.pop();
            if (this.#openNames !== null) this.#countOpen(top.qname, -1);
            if (top.declared !== null) this.#undeclare(top.declared);
            handler.onEnd(top.ns, top.local);
            if (depth === 1) {
              this.#stopped = this.#rootClosed = true;
              return;
            }
            i = gt + 1;
            continue;
          }
        }
        const gt = s.indexOf(">", i + 2);
        if (gt === -1) {
          this.#pend(PEND_GT, s, i);
          return;
        }
        if (gt + 1 - i > max) return this.#failTooLong();
        this.#endTag(s, i + 2, gt);
        if (this.#stopped) return;
        i = gt + 1;
      } else if (c === BANG) {
        const next = this.#bang(s, i);
        if (next === -1) return;
        i = next;
      } else if (c === QUESTION) {
        const e = s.indexOf("?>", i + 2);
        if (e === -1) {
          this.#pendDelimited(PEND_PI, s, i, i + 2);
          return;
        }
        if (e + 2 - i > max) return this.#failTooLong();
        i = e + 2;
      } else if (c !== c) { // NaN: `<` is the last char
        this.#pend(PEND_UNDECIDED, s, i);
        return;
      } else {
        const frame = frames[frameKey(c, s.charCodeAt(i + 2))];
        if (frame !== undefined && frame.scope === this.#scope) {
          const codes = frame.codes;
          const gt = i + 1 + codes.length;
          const after = s.charCodeAt(gt);
          if (after === GT && matches(s, i + 1, codes)) {
            // A cached name was a whole tag once, so it cannot be too long now.
            if (stack.length >= this.#maxDepth) return this.#failTooDeep();
            stack.push(frame);
            if (this.#openNames !== null) this.#countOpen(frame.qname, 1);
            handler.onStart(frame.ns, frame.local, EMPTY_ATTRS);
            handler = this.#handler;
            i = gt + 1;
            continue;
          }
          if (after === SLASH && s.charCodeAt(gt + 1) === GT && matches(s, i + 1, codes)) {
            if (gt + 2 - i > max) return this.#failTooLong();
            if (stack.length >= this.#maxDepth) return this.#failTooDeep();
            handler.onStart(frame.ns, frame.local, EMPTY_ATTRS);
            handler = this.#handler;
            handler.onEnd(frame.ns, frame.local);
            if (stack.length === 0) {
              this.#stopped = this.#rootClosed = true;
              return;
            }
            i = gt + 2;
            continue;
          }
        }
        const next = this.#startTag(s, i);
        if (next === -1 || this.#stopped) return;
        handler = this.#handler;
        i = next;
      }
    }
  }

  /** Handles markup starting with `<!` at `i`; returns where to go on, or -1 to stop this run. */
  #bang(s: string, i: number): number {
    const n = s.length;
    if (i + 2 >= n) {
      this.#pend(PEND_UNDECIDED, s, i);
      return -1;
    }
    const c = s.charCodeAt(i + 2);
    let marker = -1;
    if (c === DASH) {
      marker = matchMarker(s, i, "<!--", false);
      if (marker === 1) {
        const e = s.indexOf("-->", i + 4);
        if (e === -1) {
          this.#pendDelimited(PEND_COMMENT, s, i, i + 4);
          return -1;
        }
        if (e + 3 - i > this.#maxToken) {
          this.#failTooLong();
          return -1;
        }
        return e + 3;
      }
    } else if (c === LBRACKET) {
      marker = matchMarker(s, i, "<![CDATA[", false);
      if (marker === 1) {
        const e = s.indexOf("]]>", i + 9);
        if (e === -1) {
          this.#pendDelimited(PEND_CDATA, s, i, i + 9);
          return -1;
        }
        if (e + 3 - i > this.#maxToken) {
          this.#failTooLong();
          return -1;
        }
        if (this.#stack.length > 0 && e > i + 9) {
          const text = s.slice(i + 9, e);
          this.#handler.onText(this.#sawCR ? normalizeNewlines(text) : text);
        }
        return e + 3;
      }
    } else if (c === 0x44 || c === 0x64) { // D, d: HTML writes it in lower case
      marker = matchMarker(s, i, "<!DOCTYPE", true);
      if (marker === 1) return this.#doctype(s, i);
    } else if (c === 0x45) { // E
      marker = matchMarker(s, i, "<!ENTITY", false);
      if (marker === 1) {
        this.#fail("XML ENTITY declarations are not allowed (entity expansion is refused)");
        return -1;
      }
    }
    if (marker === 0) {
      this.#pend(PEND_UNDECIDED, s, i);
      return -1;
    }
    // Some other declaration (`<!ELEMENT`, `<!x>`): skipped, it has no meaning without a DTD.
    const gt = s.indexOf(">", i + 2);
    if (gt === -1) {
      this.#pend(PEND_GT, s, i);
      return -1;
    }
    if (gt + 1 - i > this.#maxToken) {
      this.#failTooLong();
      return -1;
    }
    return gt + 1;
  }

  /**
   * Skips a DOCTYPE at `i` whose external identifier (quoted literals, which
   * may hold `>` or `[`) is followed by `>`; refuses one inside the document
   * or with an internal subset. Returns where to go on, or -1 to stop this run.
   */
  #doctype(s: string, i: number): number {
    if (this.#stack.length > 0) {
      this.#fail("XML DOCTYPE declaration inside the document is not allowed");
      return -1;
    }
    let quote = 0;
    for (let j = i + 9; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === GT) {
        if (j + 1 - i > this.#maxToken) {
          this.#failTooLong();
          return -1;
        }
        return j + 1;
      } else if (c === LBRACKET) {
        // Checked first, as a DOCTYPE split across chunks is held only up to its `[`.
        if (j + 1 - i > this.#maxToken) {
          this.#failTooLong();
          return -1;
        }
        this.#fail("XML DOCTYPE internal subsets are not allowed (entity expansion is refused)");
        return -1;
      } else if (c === DQUOTE || c === SQUOTE) {
        quote = c;
      }
    }
    // Unfinished: kept up to a `>` or `[` outside quotes, then read again whole.
    if (this.#pend(PEND_DOCTYPE, s, i)) this.#pendQuote = quote;
    return -1;
  }

  /** Emits the text `s[from, to)`, which holds a char other than whitespace, unless that is a reference. */
  #text(s: string, from: number, to: number): void {
    let t = s.slice(from, to);
    if (this.#sawCR) t = normalizeNewlines(t);
    const amp = t.indexOf("&");
    if (amp !== -1) {
      t = decodeEntities(t, amp);
      if (onlySpace(t, 0, t.length)) return;
    }
    this.#handler.onText(t);
  }

  /** Handles a start tag at `i`; returns where to go on, or -1 to stop this run. */
  #startTag(s: string, i: number): number {
    const n = s.length;
    let j = i + 1;
    let colon = -1;
    let c = 0;
    for (; j < n; j++) {
      c = s.charCodeAt(j);
      if (c === GT || c === SLASH || c <= 0x20 || c === DQUOTE || c === SQUOTE) break;
      if (c === COLON && colon === -1) colon = j - i - 1;
    }
    if (j === n) {
      this.#pend(PEND_TAG, s, i);
      this.#pendQuote = 0;
      return -1;
    }
    if (c === GT && j > i + 1) {
      if (j + 1 - i > this.#maxToken) {
        this.#failTooLong();
        return -1;
      }
      this.#open(this.#cachedFrame(s, i, j, colon), EMPTY_ATTRS, false);
      return j + 1;
    }
    const raw = this.#raw;
    raw.length = 0;
    const gt = scanAttributes(s, j, raw);
    if (gt < 0) {
      if (this.#pend(PEND_TAG, s, i)) this.#pendQuote = gt === -1 ? 0 : gt === -2 ? DQUOTE : SQUOTE;
      return -1;
    }
    if (gt + 1 - i > this.#maxToken) {
      this.#failTooLong();
      return -1;
    }
    if (j === i + 1) return gt + 1; // no name: not an element
    const selfClosing = s.charCodeAt(gt - 1) === SLASH;
    const declared = this.#declare(raw);
    let attrs: XmlAttribute[] | readonly XmlAttribute[] = EMPTY_ATTRS;
    for (let k = 0; k < raw.length; k += 3) {
      const name = raw[k] as string;
      const at = raw[k + 1] as number;
      if (at === 5 && name.startsWith("xmlns") || name === "xmlns") continue;
      const attr: XmlAttribute = at === -1
        ? { ns: "", local: name, value: raw[k + 2] as string }
        : {
          ns: this.#lookup(name.slice(0, at)),
          local: name.slice(at + 1),
          value: raw[k + 2] as string,
        };
      if (attrs === EMPTY_ATTRS) attrs = [attr];
      else (attrs as XmlAttribute[]).push(attr);
    }
    const frame = declared === null
      ? this.#cachedFrame(s, i, j, colon)
      : this.#frame(s.slice(i + 1, j), colon, declared);
    this.#open(frame, attrs, selfClosing);
    return gt + 1;
  }

  /** The frame of the element named `s[i+1, j)` in the current scope, from the cache if there. */
  #cachedFrame(s: string, i: number, j: number, colon: number): Frame {
    const key = frameKey(s.charCodeAt(i + 1), s.charCodeAt(i + 2));
    const cached = this.#frames[key];
    if (
      cached !== undefined && cached.scope === this.#scope && cached.codes.length === j - i - 1 &&
      matches(s, i + 1, cached.codes)
    ) {
      return cached;
    }
    return this.#frames[key] = this.#frame(s.slice(i + 1, j), colon, null);
  }

  /** Resolves an element name in the current scope. */
  #frame(name: string, colon: number, declared: string[] | null): Frame {
    const qname = detach(name);
    const codes: number[] = [];
    for (let k = 0; k < qname.length; k++) codes.push(qname.charCodeAt(k));
    return {
      qname,
      codes,
      ns: colon === -1 ? this.#defaultNs : this.#lookup(qname.slice(0, colon)),
      local: colon === -1 ? qname : qname.slice(colon + 1),
      declared,
      scope: this.#scope,
    };
  }

  /** Applies the namespace declarations among `raw`; returns the prefixes declared, or null. */
  #declare(raw: (string | number)[]): string[] | null {
    let declared: string[] | null = null;
    for (let k = 0; k < raw.length; k += 3) {
      const name = raw[k] as string;
      if (name === "xmlns") {
        (declared ??= []).push("");
        const uri = detach(raw[k + 2] as string);
        this.#defaults.push(uri);
        this.#defaultNs = uri;
      } else if (raw[k + 1] === 5 && name.startsWith("xmlns")) {
        const prefix = name.slice(6);
        // Neither reserved prefix can be rebound (Namespaces in XML 1.0, section 3).
        if (prefix === "" || prefix === "xml" || prefix === "xmlns") continue;
        (declared ??= []).push(prefix);
        const stack = this.#prefixes.get(prefix);
        const uri = detach(raw[k + 2] as string);
        if (stack === undefined) this.#prefixes.set(prefix, [uri]);
        else stack.push(uri);
      }
    }
    if (declared !== null) this.#scope++;
    return declared;
  }

  /** The namespace bound to `prefix` here, or "". */
  #lookup(prefix: string): string {
    if (prefix === "xml") return XML_NAMESPACE;
    if (prefix === "xmlns") return "http://www.w3.org/2000/xmlns/";
    const stack = this.#prefixes.get(prefix);
    return stack === undefined || stack.length === 0 ? "" : stack[stack.length - 1]!;
  }

  /** Reports an element start (and end, when self-closing) and keeps it on the stack. */
  #open(frame: Frame, attrs: readonly XmlAttribute[], selfClosing: boolean): void {
    const stack = this.#stack;
    if (stack.length >= this.#maxDepth) return this.#failTooDeep();
    this.#handler.onStart(frame.ns, frame.local, attrs);
    if (selfClosing) {
      if (frame.declared !== null) this.#undeclare(frame.declared);
      this.#handler.onEnd(frame.ns, frame.local);
      if (stack.length === 0) this.#stopped = this.#rootClosed = true;
      return;
    }
    stack.push(frame);
    if (this.#openNames !== null) this.#countOpen(frame.qname, 1);
  }

  #countOpen(qname: string, delta: number): void {
    const names = this.#openNames!;
    const count = (names.get(qname) ?? 0) + delta;
    // Deleting at zero keeps the map as small as the stack, whatever names come and go.
    if (count === 0) names.delete(qname);
    else names.set(qname, count);
  }

  #undeclare(declared: string[]): void {
    this.#scope++;
    for (const prefix of declared) {
      if (prefix === "") {
        this.#defaults.pop();
        this.#defaultNs = this.#defaults.length === 0
          ? ""
          : this.#defaults[this.#defaults.length - 1]!;
      } else {
        this.#prefixes.get(prefix)!.pop();
      }
    }
  }

  /**
   * Handles an end tag whose name (maybe followed by spaces) is `s[from, to)`
   * and that is not simply `</name>` of the innermost element.
   */
  #endTag(s: string, from: number, to: number): void {
    const stack = this.#stack;
    if (stack.length === 0) return;
    let e = to;
    while (e > from && isXmlSpace(s.charCodeAt(e - 1))) e--;
    const name = s.slice(from, e);
    // Counting open names makes a stray end tag cost O(1), not a walk down the stack
    // (quadratic on a hostile document: bench/README.md#parsing). Sitemaps that never
    // have one never pay for the counting.
    let names = this.#openNames;
    if (names === null) {
      names = this.#openNames = new Map();
      for (const frame of stack) this.#countOpen(frame.qname, 1);
    }
    if ((names.get(name) ?? 0) === 0) return;
    let target = stack.length - 1;
    while (stack[target]!.qname !== name) target--;
    while (stack.length > target) {
      const frame = stack.pop()!;
      this.#countOpen(frame.qname, -1);
      if (frame.declared !== null) this.#undeclare(frame.declared);
      this.#handler.onEnd(frame.ns, frame.local);
    }
    if (stack.length === 0) this.#stopped = this.#rootClosed = true;
  }
}

/** An open element, as the stack keeps it. */
interface Frame {
  readonly qname: string;
  /** The char codes of `qname`: comparing against them is cheaper than `startsWith`. */
  readonly codes: readonly number[];
  readonly ns: string;
  readonly local: string;
  /** Prefixes this element declared ("" for the default namespace), or null for none. */
  readonly declared: string[] | null;
  /** The scope generation `ns` was resolved in; a cached frame is only valid in it. */
  readonly scope: number;
}

const FRAME_CACHE_SIZE = 64;

/** Whether `s` holds the chars `codes` at `at`. */
function matches(s: string, at: number, codes: readonly number[]): boolean {
  for (let k = 0; k < codes.length; k++) {
    if (s.charCodeAt(at + k) !== codes[k]) return false;
  }
  return true;
}

/** Cache slot of a name starting with the chars `c1`, `c2` (`c2` may be NaN). */
function frameKey(c1: number, c2: number): number {
  return (c1 * 5 + c2) & (FRAME_CACHE_SIZE - 1);
}

/**
 * Reads the attributes of a start tag from `from` (just after the name) up to
 * its `>`, pushing `name, colon offset in name (or -1), decoded value` triples
 * onto `out`. A quote outside a value opens a quoted stretch as well, so the
 * `>` found is exactly the first one outside quotes, as the search for the
 * end of a tag split across chunks finds it. Tolerates a missing value (the
 * attribute is dropped) and an unquoted value (read up to a space, a quote or
 * the end of the tag).
 *
 * The byte-level reader's `scanAttributes` (_xml_bytes.ts) is the same
 * grammar over bytes in place; see there why they are two.
 *
 * @returns The index of the `>`; when `s` ends first, -1, or -2/-3 when it
 * ends inside a `"`/`'` quoted stretch.
 */
function scanAttributes(s: string, from: number, out: (string | number)[]): number {
  const n = s.length;
  let p = from;
  for (;;) {
    if (p >= n) return -1;
    let c = s.charCodeAt(p);
    if (c === GT) return p;
    if (c <= 0x20 || c === SLASH) {
      p++;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      // A quoted string where a name belongs: skipped whole.
      const close = s.indexOf(c === DQUOTE ? '"' : "'", p + 1);
      if (close === -1) return c === DQUOTE ? -2 : -3;
      p = close + 1;
      continue;
    }
    const nameStart = p;
    let colon = -1;
    for (; p < n; p++) {
      c = s.charCodeAt(p);
      if (c <= 0x20 || c === EQUALS || c === GT || c === SLASH || c === DQUOTE || c === SQUOTE) {
        break;
      }
      if (c === COLON && colon === -1) colon = p - nameStart;
    }
    const nameEnd = p;
    while (p < n && (c = s.charCodeAt(p)) <= 0x20) p++;
    if (p >= n) return -1;
    if (c !== EQUALS) continue;
    p++;
    while (p < n && (c = s.charCodeAt(p)) <= 0x20) p++;
    if (p >= n) return -1;
    let raw: string;
    if (c === DQUOTE || c === SQUOTE) {
      const close = s.indexOf(c === DQUOTE ? '"' : "'", p + 1);
      if (close === -1) return c === DQUOTE ? -2 : -3;
      raw = s.slice(p + 1, close);
      p = close + 1;
    } else if (c === GT) {
      continue;
    } else {
      const valueStart = p;
      for (; p < n; p++) {
        c = s.charCodeAt(p);
        if (c <= 0x20 || c === DQUOTE || c === SQUOTE || c === GT) break;
        if (c === SLASH && s.charCodeAt(p + 1) === GT) break;
      }
      if (p >= n) return -1;
      raw = s.slice(valueStart, p);
    }
    if (nameEnd === nameStart) continue;
    raw = normalizeAttributeSpace(raw);
    const amp = raw.indexOf("&");
    out.push(
      s.slice(nameStart, nameEnd),
      colon,
      amp === -1 ? raw : decodeEntities(raw, amp),
    );
  }
}
