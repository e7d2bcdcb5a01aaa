/**
 * WHATWG URL normalisation of http(s) URLs in bytes, without `URL.parse`,
 * for the non-canonical forms real sitemaps carry: upper-case scheme and
 * host, ports, dotted-decimal IPv4 and IPv6 hosts, raw non-ASCII and spaces
 * (percent-encoded with the path, query and fragment sets), `.`/`..`
 * segments, backslashes, tabs and newlines, fragments, and values relative
 * to the sitemap's URL. IDN and `xn--` host names are asked of `URL.parse`
 * alone, once per name. What it cannot settle exactly (user info, IPv6 with
 * an embedded IPv4 address or a zone, odd IPv4 forms, unusual host
 * characters, references other than the five named entities and valid
 * decimal or hex character references) it declines, and the caller asks
 * `URL.parse`; what it returns is what
 * `URL.parse(value, base).href` returns. The differential
 * fuzzer (tests/parse/_normalize_url_test.ts, bench/fuzz_url.ts) holds it to
 * that.
 *
 * @module
 */

/** The normaliser cannot decide: ask `URL.parse`. */
export const DECLINE = -1;
/**
 * The value is not an http(s) URL, or not a URL at all
 * (docs/design.md#values-that-are-not-urls): drop it.
 */
export const NOT_HTTP = -2;
/** Internal: tabs, newlines or entity references to remove first. */
const RESTART = -3;

/** `src` is XML text as written: `&amp;`-style references still to decode. */
export const RAW_XML = 1;
/** Keep the fragment (page URLs); without it the fragment is dropped (sitemap URLs). */
export const KEEP_FRAGMENT = 2;

/** The parts of a sitemap's URL that relative values resolve against. */
export interface NormalBase {
  /** 0 for http, 1 for https. */
  readonly https: number;
  /** `scheme://userinfo@host:port`, as the parser serialises it. */
  readonly origin: Uint8Array;
  /** The path, starting with `/`. */
  readonly path: Uint8Array;
  /** The path without its last segment (and that segment's `/`). */
  readonly dir: Uint8Array;
  /** The query with its `?`, or empty. */
  readonly query: Uint8Array;
}

const encoder = new TextEncoder();
const bases = new WeakMap<URL, NormalBase | null>();

/**
 * The base for {@linkcode normalizeUrlBytes}, computed once per URL object.
 *
 * @param base The sitemap's parsed URL, or null.
 * @returns Its parts, or null when it is absent or not http(s) (then only
 * absolute values are normalised here).
 */
export function normalBase(base: URL | null): NormalBase | null {
  if (base === null) return null;
  let b = bases.get(base);
  if (b !== undefined) return b;
  b = null;
  if (base.protocol === "http:" || base.protocol === "https:") {
    const href = base.href;
    const tail = base.pathname.length + base.search.length + base.hash.length;
    b = {
      https: base.protocol === "https:" ? 1 : 0,
      origin: encoder.encode(href.slice(0, href.length - tail)),
      path: encoder.encode(base.pathname),
      dir: encoder.encode(base.pathname.slice(0, base.pathname.lastIndexOf("/"))),
      query: encoder.encode(base.search),
    };
  }
  bases.set(base, b);
  return b;
}

// Byte classes. Each table has 256 entries so that a byte needs one lookup.
const C_TAB_NL = 1; // removed anywhere
const C_SLASH = 2; // `/` or `\`: a separator in special URLs
const C_END_PATH = 3; // `?` or `#`
const C_AMP = 4; // an entity reference in raw XML
const C_REJECT = 5; // `<`, `>`, `"`: in a relative value markup or prose, never a URL
const C_SPACE = 6; // space or form feed: whitespace, percent-encoded in absolute URLs
const C_ENCODE = 7; // percent-encoded
const C_HIGH = 8; // non-ASCII: UTF-8, percent-encoded byte by byte
const C_DECLINE = 9; // runtimes disagree on it (`^` in a path): leave it to URL.parse
const C_BACKSLASH = 10; // `\` in a query or fragment: kept in a URL, no reference in a relative value

function table(encode: string): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0; c < 0x20; c++) t[c] = C_ENCODE;
  t[0x7f] = C_ENCODE;
  for (let c = 0x80; c < 0x100; c++) t[c] = C_HIGH;
  for (const ch of encode) t[ch.charCodeAt(0)] = C_ENCODE;
  t[0x09] = t[0x0a] = t[0x0d] = C_TAB_NL;
  t[0x20] = t[0x0c] = C_SPACE;
  t[0x26] = C_AMP;
  t[0x3c] = t[0x3e] = t[0x22] = C_REJECT;
  return t;
}

/** WHATWG's path percent-encode set; `^` is encoded by Bun and not by Deno. */
const PATH = table("`{}");
PATH[0x2f] = PATH[0x5c] = C_SLASH;
PATH[0x3f] = PATH[0x23] = C_END_PATH;
PATH[0x5e] = C_DECLINE;
/** The special-query percent-encode set. */
const QUERY = table("'");
QUERY[0x23] = C_END_PATH;
/** The fragment percent-encode set. */
const FRAGMENT = table("`");
QUERY[0x5c] = FRAGMENT[0x5c] = C_BACKSLASH;

/** Host bytes: 1 kept, 2 upper-case letter, 0 anything the normaliser declines. */
const HOST = new Uint8Array(256);
for (let c = 0x61; c <= 0x7a; c++) HOST[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) HOST[c] = 2;
for (let c = 0x30; c <= 0x39; c++) HOST[c] = 1;
HOST[0x2d] = HOST[0x5f] = 1;

const HEX = encoder.encode("0123456789ABCDEF");
const HTTP = encoder.encode("http://");
const HTTPS = encoder.encode("https://");

/** Scratch for values with tabs, newlines or references removed. */
let work = new Uint8Array(1024);

/**
 * Normalises the URL in `src[a, b)` into `out` from `o`, as
 * `URL.parse(value.trim(), base).href` would (fragment dropped unless
 * {@linkcode KEEP_FRAGMENT}), with the rule that a relative value
 * holding whitespace, `<`, `>`, `"` or `\`, or with a `:` in its first
 * segment, is not a URL (`isNotUrl` in _url.ts).
 * `out` must have {@linkcode normalizedRoom} bytes from `o`.
 *
 * @param src The value's bytes (UTF-8).
 * @param a Start.
 * @param b End.
 * @param out Where the URL goes (ASCII).
 * @param o Where in `out`.
 * @param base The sitemap URL's parts, or null.
 * @param flags {@linkcode RAW_XML} and/or {@linkcode KEEP_FRAGMENT}.
 * @returns The end of the URL in `out`; {@linkcode NOT_HTTP} when the value
 * is no http(s) URL; {@linkcode DECLINE} when `URL.parse` has to decide.
 */
export function normalizeUrlBytes(
  src: Uint8Array,
  a: number,
  b: number,
  out: Uint8Array,
  o: number,
  base: NormalBase | null,
  flags: number,
): number {
  while (a < b && src[a]! <= 0x20) a++;
  while (b > a && src[b - 1]! <= 0x20) b--;
  // JavaScript's trim() also takes non-ASCII spaces; leave those edges to the slow path.
  if (a === b || src[a]! >= 0x80 || src[b - 1]! >= 0x80) return a === b ? NOT_HTTP : DECLINE;
  const r = (flags & RAW_XML) !== 0 && src[b - 1] === 0x3b && edgeRef(src, a, b)
    ? RESTART
    : parse(src, a, b, out, o, base, flags, false);
  if (r !== RESTART) return r;
  const n = clean(src, a, b, (flags & RAW_XML) !== 0);
  if (n < 0) return DECLINE;
  return parse(work, 0, n, out, o, base, flags & ~RAW_XML, removedTabNl);
}

/**
 * Whether the value `src[a, b)` (raw XML, ending with `;`) ends with a
 * character reference to a control, a space or a non-ASCII character: it
 * may be whitespace that trim() takes, with raw whitespace before it, so
 * the value is decoded first ({@linkcode clean} then settles its edges).
 */
function edgeRef(src: Uint8Array, a: number, b: number): boolean {
  // Back over the digits (hex ones too), then `x`, `#` and `&`.
  let i = b - 2;
  while (i > a && ((src[i]! >= 0x30 && src[i]! <= 0x39) || HEX_DIGIT[src[i]!] === 1)) i--;
  if (src[i] === 0x78) i--;
  if (i - 1 < a || src[i] !== 0x23 || src[i - 1] !== 0x26) return false;
  const cp = charRef(src, i - 1, b);
  return cp !== -1 && (cp <= 0x20 || cp >= 0x80);
}

/** `a-f` and `A-F`. */
const HEX_DIGIT = new Uint8Array(256);
for (const c of "abcdefABCDEF") HEX_DIGIT[c.charCodeAt(0)] = 1;

/** Whether {@linkcode clean} removed a tab or newline. */
let removedTabNl = false;

/** Whether `s[a, b)` holds what {@linkcode clean} would change. */
function needsCleaning(s: Uint8Array, a: number, b: number, raw: boolean): boolean {
  for (let i = a; i < b; i++) {
    const c = s[i]!;
    if (c === 0x09 || c === 0x0a || c === 0x0d || (c === 0x26 && raw)) return true;
  }
  return false;
}

/**
 * Copies `src[a, b)` to `work` without tabs and newlines and with references
 * decoded (a character reference's tab or newline removed too, as the
 * parser removes it from the decoded text); -1 to decline.
 */
function clean(src: Uint8Array, a: number, b: number, raw: boolean): number {
  // References only shrink: `&#128;` (6 bytes) is the shortest of 2 UTF-8 bytes.
  if (work.length < b - a) work = new Uint8Array(2 * (b - a));
  const w = work;
  let n = 0;
  let refTabNlAt = -1;
  removedTabNl = false;
  for (let i = a; i < b; i++) {
    const c = src[i]!;
    if (c === 0x09 || c === 0x0a || c === 0x0d) {
      removedTabNl = true;
      continue;
    }
    if (c === 0x26 && raw && src[i + 1] === 0x23) {
      const cp = charRef(src, i, b);
      if (cp < 0) return -1;
      i = refEnd;
      if (cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) {
        n = utf8(cp, w, n);
        continue;
      }
      // One at an edge is trimmed, not removed: decline (see below).
      if (n === 0) return -1;
      removedTabNl = true;
      refTabNlAt = n;
      continue;
    }
    if (c === 0x26 && raw) {
      const d = entity(src, i, b);
      if (d < 0) return -1;
      w[n++] = d & 0xff;
      i += d >> 8;
      continue;
    }
    w[n++] = c;
  }
  // Removing newlines may bare an edge (`\n` then a space) that the trim took,
  // and a reference may stand for one: for JavaScript's trim() (which also
  // takes non-ASCII spaces) an edge byte has to be visible ASCII.
  if (
    n === 0 || w[0]! <= 0x20 || w[n - 1]! <= 0x20 || w[0]! >= 0x80 || w[n - 1]! >= 0x80 ||
    refTabNlAt === n
  ) {
    return -1;
  }
  return n;
}

/** The character of the named entity at `src[i]` (`&`) and its length - 1 in the bits above, or -1. */
function entity(src: Uint8Array, i: number, b: number): number {
  const c1 = src[i + 1];
  const c2 = src[i + 2];
  const c3 = src[i + 3];
  if (i + 3 < b && c3 === 0x3b && c2 === 0x74) {
    if (c1 === 0x6c) return 0x3c | (3 << 8); // &lt;
    if (c1 === 0x67) return 0x3e | (3 << 8); // &gt;
  }
  if (i + 4 < b && c1 === 0x61 && c2 === 0x6d && c3 === 0x70 && src[i + 4] === 0x3b) {
    return 0x26 | (4 << 8); // &amp;
  }
  if (i + 5 < b && src[i + 5] === 0x3b) {
    const c4 = src[i + 4];
    if (c1 === 0x71 && c2 === 0x75 && c3 === 0x6f && c4 === 0x74) return 0x22 | (5 << 8);
    if (c1 === 0x61 && c2 === 0x70 && c3 === 0x6f && c4 === 0x73) return 0x27 | (5 << 8);
  }
  return -1;
}

/** Where the last reference {@linkcode charRef} read ends: its `;`. */
let refEnd = 0;

/**
 * The code point of the character reference at `src[i]` (`&#`), decimal or
 * (`&#x`, lower-case x only, as XML has it) hex, ending at its `;`, which
 * goes to {@linkcode refEnd}; -1 for what the tokenizer's `decodeEntities`
 * would not decode to that code point (no digits, no `;` within `b`, 0,
 * surrogates, past U+10FFFF): the caller declines those.
 */
function charRef(src: Uint8Array, i: number, b: number): number {
  let j = i + 2;
  const hex = src[j] === 0x78;
  if (hex) j++;
  const digits = j;
  let value = 0;
  for (; j < b; j++) {
    const c = src[j]!;
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) d = (c | 0x20) - 0x57;
    else break;
    value = value * (hex ? 16 : 10) + d;
    if (value > 0x10ffff) return -1;
  }
  if (j === digits || j >= b || src[j] !== 0x3b) return -1;
  if (value === 0 || (value >= 0xd800 && value <= 0xdfff)) return -1;
  refEnd = j;
  return value;
}

/** Writes code point `cp` (not a surrogate) as UTF-8 into `w` from `n`; returns the new `n`. */
function utf8(cp: number, w: Uint8Array, n: number): number {
  if (cp < 0x80) {
    w[n] = cp;
    return n + 1;
  }
  if (cp < 0x800) {
    w[n] = 0xc0 | (cp >> 6);
    w[n + 1] = 0x80 | (cp & 0x3f);
    return n + 2;
  }
  if (cp < 0x10000) {
    w[n] = 0xe0 | (cp >> 12);
    w[n + 1] = 0x80 | ((cp >> 6) & 0x3f);
    w[n + 2] = 0x80 | (cp & 0x3f);
    return n + 3;
  }
  w[n] = 0xf0 | (cp >> 18);
  w[n + 1] = 0x80 | ((cp >> 12) & 0x3f);
  w[n + 2] = 0x80 | ((cp >> 6) & 0x3f);
  w[n + 3] = 0x80 | (cp & 0x3f);
  return n + 4;
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

function copy(from: Uint8Array, out: Uint8Array, o: number): number {
  // A loop: `set()` costs more than these few bytes.
  for (let k = 0; k < from.length; k++) out[o + k] = from[k]!;
  return o + from.length;
}

/**
 * The body of {@linkcode normalizeUrlBytes} on trimmed input; `cleaned`:
 * tabs or newlines were removed.
 *
 * One function on purpose: each split tried (the scheme, the authority and
 * the relative forms in functions of their own) slowed some URL rows of
 * bench/shapes.ts (bench/README.md#shared-parse-modules).
 */
function parse(
  s: Uint8Array,
  a: number,
  b: number,
  out: Uint8Array,
  o: number,
  base: NormalBase | null,
  flags: number,
  cleaned: boolean,
): number {
  // Scheme: ASCII letter, then letters, digits, `+ - .`, then `:`.
  let i = a;
  let https = -1;
  if ((s[i]! | 0x20) >= 0x61 && (s[i]! | 0x20) <= 0x7a) {
    while (i < b) {
      const c = s[i]!;
      const l = c | 0x20;
      if (
        (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d ||
        c === 0x2e
      ) i++;
      else break;
    }
    if (i < b && s[i] === 0x3a) {
      const len = i - a;
      if (len !== 4 && len !== 5) return NOT_HTTP;
      if (lower(s[a]!) !== 0x68 || lower(s[a + 1]!) !== 0x74 || lower(s[a + 2]!) !== 0x74) {
        return NOT_HTTP;
      }
      if (lower(s[a + 3]!) !== 0x70) return NOT_HTTP;
      if (len === 5 && lower(s[a + 4]!) !== 0x73) return NOT_HTTP;
      https = len === 5 ? 1 : 0;
      i++;
    } else {
      i = a;
    }
  }
  const relative = https === -1;
  // A relative value with whitespace inside is prose, not a path
  // (docs/design.md#values-that-are-not-urls).
  if (relative && cleaned) return NOT_HTTP;
  let authority = -1;
  if (!relative) {
    // Exactly two slashes (either way) before the host; other counts mean
    // relative-to-base or slash-skipping forms, left to the parser.
    if (!isSlash(s[i]) || !isSlash(s[i + 1]) || isSlash(s[i + 2])) return DECLINE;
    o = copy(https === 1 ? HTTPS : HTTP, out, o);
    authority = i + 2;
  } else {
    if (base === null) {
      // Without a base only absolute values count, and a tab in the scheme hides one.
      return !cleaned && needsCleaning(s, a, b, (flags & RAW_XML) !== 0) ? RESTART : NOT_HTTP;
    }
    // Bytes past `b` are another value's (the caller's buffers are reused): never read them.
    if (i + 1 < b && isSlash(s[i]) && isSlash(s[i + 1])) {
      if (i + 2 < b && isSlash(s[i + 2])) return DECLINE;
      // RFC 3986 section 4.2: a relative value holding a `\` is no reference.
      if (hasBackslash(s, i, b)) return NOT_HTTP;
      https = base.https;
      o = copy(https === 1 ? HTTPS : HTTP, out, o);
      authority = i + 2;
    } else {
      o = copy(base.origin, out, o);
    }
  }
  let pathStart: number;
  if (authority !== -1) {
    i = authority;
    const r = host(s, i, b, out, o, https);
    if (r < 0) return r;
    o = r;
    i = hostEnd;
    pathStart = o;
    if (i < b && isSlash(s[i])) i++;
  } else if (isSlash(s[i])) {
    // Relative: RFC 3986 section 4.2 again.
    if (s[i] === 0x5c) return NOT_HTTP;
    pathStart = o;
    i++;
  } else if (s[i] === 0x3f) {
    o = copy(base!.path, out, o);
    return queryAndFragment(s, i, b, out, o, flags, relative);
  } else if (s[i] === 0x23) {
    o = copy(base!.path, out, o);
    o = copy(base!.query, out, o);
    return queryAndFragment(s, i, b, out, o, flags, relative);
  } else {
    // Path-relative: the base's path without its last segment, then this one.
    const colon = colonInFirstSegment(s, i, b, (flags & RAW_XML) !== 0);
    if (colon !== 0) return colon;
    pathStart = o;
    o = copy(base!.dir, out, o);
  }
  out[o++] = 0x2f;
  return path(s, i, b, out, o, pathStart, o, flags, relative);
}

/** Whether `s[i, b)` holds a `\`; for scheme-relative values, rare enough to scan whole. */
function hasBackslash(s: Uint8Array, i: number, b: number): boolean {
  for (; i < b; i++) if (s[i] === 0x5c) return true;
  return false;
}

/**
 * RFC 3986 section 4.2 for the path-relative value from `s[i]`: a `:` in
 * its first segment (`httр://host/` with a Cyrillic `р`, which is no
 * scheme) makes it no URL reference, as does a `\` anywhere
 * (`host.com\2131.htm`, a Windows path; {@linkcode path} and
 * {@linkcode rare} find the others). `isNotUrlReference` in _url.ts is the
 * rule for strings. Returns {@linkcode NOT_HTTP} for such a value, 0 for a
 * reference, or {@linkcode RESTART} when a tab, newline or (in raw XML) a
 * reference comes first: removing or decoding it may make a scheme, a `/`
 * or a `\`.
 */
function colonInFirstSegment(s: Uint8Array, i: number, b: number, raw: boolean): number {
  for (; i < b; i++) {
    const c = s[i]!;
    if (c === 0x3a || c === 0x5c) return NOT_HTTP;
    if (c === 0x2f || c === 0x3f || c === 0x23) return 0;
    if (c === 0x09 || c === 0x0a || c === 0x0d || (c === 0x26 && raw)) return RESTART;
  }
  return 0;
}

/**
 * Writes the path from `s[i]`, then the query and fragment. Segments are
 * written as `/` + their bytes, percent-encoded; `.` and `..` segments
 * (`%2e` too) are removed afterwards. The path began at `out[pathStart]`;
 * the current segment's bytes at `out[seg]`, and are written up to `o`.
 */
function path(
  s: Uint8Array,
  i: number,
  b: number,
  out: Uint8Array,
  o: number,
  pathStart: number,
  seg: number,
  flags: number,
  relative: boolean,
): number {
  for (;;) {
    let k = 0;
    for (; i < b; i++) {
      const c = s[i]!;
      k = PATH[c]!;
      if (k === 0) {
        out[o++] = c;
        continue;
      }
      if (k === C_SLASH || k === C_END_PATH) break;
      o = escaped(k, s, i, b, out, o, relative, flags, PATH);
      if (o < 0) return o;
      i += consumed;
    }
    const last = i >= b || k === C_END_PATH;
    const dots = dotSegment(out, seg, o);
    if (dots !== 0) {
      o = seg - 1;
      if (dots === 2 && o > pathStart) {
        const q = out.lastIndexOf(0x2f, o - 1);
        // Deno 2.9's parser does not pop a drive-letter-like segment (`c:`)
        // in http URLs, Bun's and Node's do: leave it to the runtime's.
        if (o - q === 3 && (out[q + 1]! | 0x20) >= 0x61 && (out[q + 1]! | 0x20) <= 0x7a) {
          if (out[q + 2] === 0x3a || out[q + 2] === 0x7c) return DECLINE;
        }
        o = q;
      }
      if (last) out[o++] = 0x2f;
    }
    if (last) break;
    // RFC 3986 section 4.2: a relative value holding a `\` is no reference.
    if (relative && s[i] === 0x5c) return NOT_HTTP;
    i++;
    out[o++] = 0x2f;
    seg = o;
  }
  if (i >= b) return o;
  return queryAndFragment(s, i, b, out, o, flags, relative);
}

/**
 * {@linkcode normalizeUrlBytes} for a value whose start `src[a, j)` is
 * already known to be canonical: an absolute http(s) URL of a lower-case
 * host name, no port, and path (and query) bytes kept as they are (what
 * `normalUrlEnd` in _pack.ts checks, up to the first byte it does not
 * know); that part is copied, and the rest normalised from `src[j]`.
 *
 * @param src The value's bytes (UTF-8).
 * @param a Start (after leading whitespace).
 * @param j End of the canonical start; after the path's first `/`.
 * @param b End.
 * @param out Where the URL goes (ASCII).
 * @param o Where in `out`.
 * @param base The sitemap URL's parts, or null.
 * @param flags {@linkcode RAW_XML} and/or {@linkcode KEEP_FRAGMENT}.
 * @returns What {@linkcode normalizeUrlBytes} returns.
 */
export function normalizeUrlBytesFrom(
  src: Uint8Array,
  a: number,
  j: number,
  b: number,
  out: Uint8Array,
  o: number,
  base: NormalBase | null,
  flags: number,
): number {
  const b0 = b;
  while (b > j && src[b - 1]! <= 0x20) b--;
  if (
    b === j || src[b - 1]! >= 0x80 ||
    ((flags & RAW_XML) !== 0 && src[b - 1] === 0x3b && edgeRef(src, a, b))
  ) {
    return normalizeUrlBytes(src, a, b0, out, o, base, flags);
  }
  let pathStart = -1;
  let seg = 0;
  const start = o;
  for (let i = a; i < j; i++) {
    const c = src[i]!;
    if (c === 0x3f) {
      // The query's set differs from the path's: normalise it from its `?`.
      j = i;
      break;
    }
    if (c === 0x2f) {
      // The third slash starts the path; each slash starts a segment.
      if (pathStart === -1 && i - a > 7) pathStart = o;
      seg = o + 1;
    }
    out[o++] = c;
  }
  if (pathStart === -1) return normalizeUrlBytes(src, a, b0, out, start, base, flags);
  const r = path(src, j, b, out, o, pathStart, seg, flags, false);
  return r === RESTART ? normalizeUrlBytes(src, a, b0, out, start, base, flags) : r;
}

/** Where {@linkcode host} stopped reading. */
let hostEnd = 0;

/**
 * Writes the host and port at `s[i]` (after `//`); returns the new `o`, or a
 * negative outcome. Sets {@linkcode hostEnd}.
 */
function host(
  s: Uint8Array,
  i: number,
  b: number,
  out: Uint8Array,
  o: number,
  https: number,
): number {
  if (s[i] === 0x5b) {
    o = ipv6(s, i + 1, b, out, o);
    if (o < 0) return o;
    i = ipv6End;
  } else {
    const h = o;
    const at = i;
    let label = o;
    // Whether a label is an IDN one: non-ASCII, or `xn--` (Punycode).
    let idn = false;
    for (; i < b; i++) {
      const c = s[i]!;
      const k = HOST[c]!;
      if (k === 1) {
        out[o++] = c;
        continue;
      }
      if (k === 2) {
        out[o++] = c | 0x20;
        continue;
      }
      if (c === 0x2e) {
        if (o === label) return DECLINE;
        if (isXn(out, label, o)) idn = true;
        out[o++] = c;
        label = o;
        continue;
      }
      if (c >= 0x80) {
        idn = true;
        out[o++] = c;
        continue;
      }
      break;
    }
    // An empty host or label (a trailing dot included), user info, other
    // characters: decline.
    if (o === label) return DECLINE;
    if (idn || isXn(out, label, o)) {
      o = idnHost(s, at, i, out, h);
      if (o < 0) return o;
    } else {
      // A last label starting with a digit: a dotted-decimal IPv4 address is
      // kept; any other (hex, octal, short forms, or `42949672950x`, which Bun's
      // parser refuses and Deno's keeps) is the parser's to judge.
      const first = out[label]!;
      if (first >= 0x30 && first <= 0x39 && !isDottedQuad(out, h, o)) return DECLINE;
    }
  }
  let c = i < b ? s[i]! : -1;
  if (c === 0x3a) {
    i++;
    let port = 0;
    const p = i;
    let digits = i;
    for (; i < b; i++) {
      const d = s[i]! - 0x30;
      if (d < 0 || d > 9) break;
      // Leading zeros go: `:0080` is port 80.
      if (port === 0) digits = i;
      port = port * 10 + d;
      if (port > 65535) return DECLINE;
    }
    c = i < b ? s[i]! : -1;
    if (i > p && port !== (https === 1 ? 443 : 80)) {
      out[o++] = 0x3a;
      for (let k = digits; k < i; k++) out[o++] = s[k]!;
    }
  }
  if (c !== -1 && !isSlash(c) && c !== 0x3f && c !== 0x23) {
    return c === 0x09 || c === 0x0a || c === 0x0d ? RESTART : DECLINE;
  }
  hostEnd = i;
  return o;
}

/** Host names {@linkcode idnHost} has asked `URL.parse` about (null: refused); cleared when full. */
const idnHosts = new Map<string, string | null>();
const IDN_HOSTS_MAX = 256;
/** `ignoreBOM`: a U+FEFF that starts a host is part of it (UTS #46 then maps it away). */
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Writes the host name `s[a, e)`, which has an IDN label (non-ASCII, or
 * `xn--`: UTS #46 mapping and Punycode are the parser's), as `URL.parse`
 * serialises it, from `o`; returns the new `o`. Host parsing depends on the
 * host alone, and a site's pages share a few hosts, so each is asked once
 * (by itself) and remembered. What the parser refuses, bytes that are not
 * UTF-8, and a name that grows past three times its bytes:
 * {@linkcode DECLINE}, so that the whole value goes to it.
 */
function idnHost(s: Uint8Array, a: number, e: number, out: Uint8Array, o: number): number {
  const name = utf8Decoder.decode(s.subarray(a, e));
  let ascii = idnHosts.get(name);
  if (ascii === undefined) {
    ascii = name.indexOf("\uFFFD") === -1 ? URL.parse(`http://${name}/`)?.hostname ?? null : null;
    if (idnHosts.size === IDN_HOSTS_MAX) idnHosts.clear();
    idnHosts.set(name, ascii);
  }
  // UTS #46 may map a character to many (U+FDFA to 18): past the room
  // normalizedRoom() allows for these bytes, the parser settles the value.
  if (ascii === null || ascii.length > 3 * (e - a)) return DECLINE;
  for (let k = 0; k < ascii.length; k++) {
    const c = ascii.charCodeAt(k);
    // The parser's output is ASCII; anything else is left to it whole.
    if (c >= 0x80) return DECLINE;
    out[o++] = c;
  }
  return o;
}

/** Where {@linkcode ipv6} stopped reading: after the `]`. */
let ipv6End = 0;
/** The eight 16-bit pieces of the address {@linkcode ipv6} reads. */
const pieces = new Uint16Array(8);
/** Lower-case hex digits, for {@linkcode ipv6}'s output. */
const LOWER_HEX = encoder.encode("0123456789abcdef");

/**
 * Writes the IPv6 address from `s[i]` (after the `[`) to its `]` as the
 * WHATWG parser serialises it (`[`, lower-case pieces without leading zeros,
 * the first longest run of two or more zero pieces as `::`, `]`); returns
 * the new `o` and sets {@linkcode ipv6End}. An embedded IPv4 form, a zone,
 * or anything the parser would refuse: {@linkcode DECLINE}.
 */
function ipv6(s: Uint8Array, i: number, b: number, out: Uint8Array, o: number): number {
  pieces.fill(0);
  let n = 0;
  let compress = -1;
  if (s[i] === 0x3a) {
    if (s[i + 1] !== 0x3a) return DECLINE;
    i += 2;
    compress = n = 1;
  }
  for (;;) {
    if (i >= b) return DECLINE;
    let c = s[i]!;
    if (c === 0x5d) break;
    if (n === 8) return DECLINE;
    if (c === 0x3a) {
      if (compress !== -1) return DECLINE;
      i++;
      compress = ++n;
      continue;
    }
    let value = 0;
    let length = 0;
    for (; length < 4 && i < b; length++, i++) {
      c = s[i]!;
      const d = c >= 0x30 && c <= 0x39
        ? c - 0x30
        : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66
        ? (c | 0x20) - 0x57
        : -1;
      if (d === -1) break;
      value = value * 16 + d;
    }
    if (length === 0 || i >= b) return DECLINE;
    c = s[i]!;
    if (c === 0x3a) {
      i++;
      if (s[i] === 0x5d) return DECLINE;
    } else if (c !== 0x5d) {
      return DECLINE;
    }
    pieces[n++] = value;
  }
  if (compress !== -1) {
    // The pieces after the `::` go to the end.
    let swaps = n - compress;
    for (let k = 7; k !== 0 && swaps > 0; k--, swaps--) {
      const t = pieces[k]!;
      pieces[k] = pieces[compress + swaps - 1]!;
      pieces[compress + swaps - 1] = t;
    }
  } else if (n !== 8) {
    return DECLINE;
  }
  ipv6End = i + 1;
  // The first longest run of zero pieces, if two or more long, is written `::`.
  let zeros = -1;
  let zerosLength = 1;
  for (let k = 0; k < 8;) {
    if (pieces[k] !== 0) {
      k++;
      continue;
    }
    let e = k;
    while (e < 8 && pieces[e] === 0) e++;
    if (e - k > zerosLength) {
      zeros = k;
      zerosLength = e - k;
    }
    k = e;
  }
  out[o++] = 0x5b;
  for (let k = 0; k < 8; k++) {
    if (k === zeros) {
      out[o++] = 0x3a;
      if (k === 0) out[o++] = 0x3a;
      k += zerosLength - 1;
      continue;
    }
    const v = pieces[k]!;
    if (v >= 0x1000) out[o++] = LOWER_HEX[v >> 12]!;
    if (v >= 0x100) out[o++] = LOWER_HEX[(v >> 8) & 15]!;
    if (v >= 0x10) out[o++] = LOWER_HEX[(v >> 4) & 15]!;
    out[o++] = LOWER_HEX[v & 15]!;
    if (k !== 7) out[o++] = 0x3a;
  }
  out[o++] = 0x5d;
  return o;
}

function isXn(out: Uint8Array, label: number, o: number): boolean {
  return o - label >= 4 && out[label] === 0x78 && out[label + 1] === 0x6e &&
    out[label + 2] === 0x2d && out[label + 3] === 0x2d;
}

/** Whether `out[h, o)` is four decimal numbers 0-255 without leading zeros. */
function isDottedQuad(out: Uint8Array, h: number, o: number): boolean {
  let parts = 0;
  let value = 0;
  let len = 0;
  for (let i = h; i <= o; i++) {
    const c = i === o ? 0x2e : out[i]!;
    if (c === 0x2e) {
      if (len === 0 || value > 255 || (len > 1 && out[i - len] === 0x30)) return false;
      parts++;
      value = 0;
      len = 0;
      continue;
    }
    if (c < 0x30 || c > 0x39) return false;
    value = value * 10 + c - 0x30;
    len++;
  }
  return parts === 4;
}

function isSlash(c: number | undefined): boolean {
  return c === 0x2f || c === 0x5c;
}

/** Outcome of {@linkcode rare}: percent-encode the byte. */
const ENCODE = 0;
/** Outcome of {@linkcode rare}: keep the byte as it is. */
const KEEP = 1;
/** Outcome of {@linkcode rare}: an `&amp;` in raw XML, read as `&`. */
const AMP = 2;
/** Outcome of {@linkcode rare}: a character reference (`&#`) in raw XML. */
const CHAR_REF = 3;

/** What to do with a byte of class `k` other than the common ones: {@linkcode ENCODE}, {@linkcode KEEP} or an outcome. */
function rare(
  k: number,
  relative: boolean,
  flags: number,
  s: Uint8Array,
  i: number,
  b: number,
): number {
  if (k === C_AMP) {
    if ((flags & RAW_XML) === 0) return KEEP;
    if (s[i + 1] === 0x23) return CHAR_REF;
    // `&amp;` (a query's separator, escaped) is read in place; other references first decoded.
    return s[i + 4] === 0x3b && s[i + 1] === 0x61 && s[i + 2] === 0x6d && s[i + 3] === 0x70 &&
        i + 4 < b
      ? AMP
      : RESTART;
  }
  if (k === C_TAB_NL) return RESTART;
  if (k === C_BACKSLASH) return relative ? NOT_HTTP : KEEP;
  if (k === C_REJECT) return relative ? NOT_HTTP : ENCODE;
  if (k === C_SPACE) return relative ? NOT_HTTP : 0;
  return DECLINE;
}

function percent(c: number, out: Uint8Array, o: number): number {
  out[o] = 0x25;
  out[o + 1] = HEX[c >> 4]!;
  out[o + 2] = HEX[c & 15]!;
  return o + 3;
}

/** 1 for a `.` segment, 2 for `..` (`%2e` in any case for a dot), else 0. */
function dotSegment(out: Uint8Array, a: number, b: number): number {
  const n = b - a;
  if (n === 0 || n > 6) return 0;
  let dots = 0;
  for (let i = a; i < b;) {
    if (out[i] === 0x2e) i++;
    else if (out[i] === 0x25 && out[i + 1] === 0x32 && (out[i + 2]! | 0x20) === 0x65 && i + 2 < b) {
      i += 3;
    } else return 0;
    dots++;
  }
  return dots <= 2 ? dots : 0;
}

/** Length of the well-formed UTF-8 sequence at `s[i]`, or 0. */
function utf8Length(s: Uint8Array, i: number, b: number): number {
  const c = s[i]!;
  if (c < 0xc2 || c > 0xf4) return 0;
  const n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
  if (i + n > b) return 0;
  for (let k = 1; k < n; k++) if ((s[i + k]! & 0xc0) !== 0x80) return 0;
  const d = s[i + 1]!;
  if (c === 0xe0 && d < 0xa0) return 0;
  if (c === 0xed && d > 0x9f) return 0;
  if (c === 0xf0 && d < 0x90) return 0;
  if (c === 0xf4 && d > 0x8f) return 0;
  return n;
}

/** Bytes {@linkcode escaped} read beyond the one it was given. */
let consumed = 0;

/**
 * Writes the character reference at `s[i]` (`&#`, raw XML, in the path,
 * query or fragment of an absolute URL) as the URL holds the character it
 * stands for, by `set` as {@linkcode escaped} would write that character
 * raw: kept, percent-encoded, non-ASCII as percent-encoded UTF-8. What
 * changes the URL's structure (`/`, `\`, `?`, `#` where they separate
 * parts), a tab or newline, a value's last character (which may be
 * whitespace that trim() takes), and anything in a relative value (where a
 * `:` could make a scheme) restart on the decoded text; invalid references
 * decline. Sets {@linkcode consumed}.
 */
function charRefInPlace(
  s: Uint8Array,
  i: number,
  b: number,
  out: Uint8Array,
  o: number,
  relative: boolean,
  set: Uint8Array,
): number {
  if (relative) return RESTART;
  const cp = charRef(s, i, b);
  if (cp < 0) return DECLINE;
  if (refEnd + 1 === b && (cp <= 0x20 || cp >= 0x80)) return RESTART;
  consumed = refEnd - i;
  if (cp >= 0x80) {
    const n = utf8(cp, scratch, 0);
    for (let m = 0; m < n; m++) o = percent(scratch[m]!, out, o);
    return o;
  }
  const k = set[cp]!;
  if (k === 0 || k === C_AMP || k === C_BACKSLASH) {
    out[o] = cp;
    return o + 1;
  }
  // `<`, `>`, `"`, spaces and controls, as in an absolute URL's raw bytes.
  if (k === C_ENCODE || k === C_REJECT || k === C_SPACE) return percent(cp, out, o);
  return k === C_DECLINE ? DECLINE : RESTART;
}

/** A code point's UTF-8 bytes. */
const scratch = new Uint8Array(4);

/**
 * Writes the byte at `s[i]`, of class `k` (not 0), as the URL holds it:
 * percent-encoded, kept, or read with the bytes after it (UTF-8, `&amp;`,
 * a character reference, by the percent-encode set `set`); sets
 * {@linkcode consumed}. Returns the new `o`, or a negative outcome.
 */
function escaped(
  k: number,
  s: Uint8Array,
  i: number,
  b: number,
  out: Uint8Array,
  o: number,
  relative: boolean,
  flags: number,
  set: Uint8Array,
): number {
  consumed = 0;
  if (k === C_ENCODE) return percent(s[i]!, out, o);
  if (k === C_HIGH) {
    const n = utf8Length(s, i, b);
    if (n === 0) return DECLINE;
    for (let m = 0; m < n; m++) o = percent(s[i + m]!, out, o);
    consumed = n - 1;
    return o;
  }
  const r = rare(k, relative, flags, s, i, b);
  if (r === ENCODE) return percent(s[i]!, out, o);
  if (r === KEEP) {
    out[o] = s[i]!;
    return o + 1;
  }
  if (r === CHAR_REF) return charRefInPlace(s, i, b, out, o, relative, set);
  if (r !== AMP) return r;
  out[o] = 0x26;
  consumed = 4;
  return o + 1;
}

/**
 * Writes the query and fragment at `s[i]` (`?` or `#`): each percent-encoded
 * with its set, the fragment dropped without {@linkcode KEEP_FRAGMENT} (but
 * still checked: a value with markup there is no URL either).
 */
function queryAndFragment(
  s: Uint8Array,
  i: number,
  b: number,
  out: Uint8Array,
  o: number,
  flags: number,
  relative: boolean,
): number {
  let set = s[i] === 0x3f ? QUERY : FRAGMENT;
  let fragment = o;
  out[o++] = s[i++]!;
  for (; i < b; i++) {
    const c = s[i]!;
    const k = set[c]!;
    if (k === 0) {
      out[o++] = c;
      continue;
    }
    if (k === C_END_PATH) {
      // The `#` that ends the query.
      set = FRAGMENT;
      fragment = o;
      out[o++] = c;
      continue;
    }
    o = escaped(k, s, i, b, out, o, relative, flags, set);
    if (o < 0) return o;
    i += consumed;
  }
  return set === FRAGMENT && (flags & KEEP_FRAGMENT) === 0 ? fragment : o;
}

let input = new Uint8Array(1024);
let output = new Uint8Array(4096);
const ascii = new TextDecoder("latin1");

/**
 * {@linkcode normalizeUrlBytes} for a string.
 *
 * @param value The value (UTF-16; lone surrogates become U+FFFD, as the parser makes them).
 * @param base The sitemap URL's parts, or null.
 * @param flags {@linkcode KEEP_FRAGMENT} or 0.
 * @returns The URL, null when the value is no http(s) URL, undefined when
 * `URL.parse` has to decide.
 */
export function normalizeUrl(
  value: string,
  base: NormalBase | null,
  flags: number,
): string | null | undefined {
  if (input.length < value.length * 3) input = new Uint8Array(value.length * 3 + 64);
  const n = encoder.encodeInto(value, input).written;
  const room = normalizedRoom(n, base);
  if (output.length < room) output = new Uint8Array(room * 2);
  const end = normalizeUrlBytes(input, 0, n, output, 0, base, flags & KEEP_FRAGMENT);
  if (end === DECLINE) return undefined;
  if (end === NOT_HTTP) return null;
  return ascii.decode(output.subarray(0, end));
}

/**
 * Room {@linkcode normalizeUrlBytes} needs in `out` for an input of `n` bytes.
 *
 * @param n The input's length in bytes.
 * @param base The sitemap URL's parts, or null.
 * @returns Bytes.
 */
export function normalizedRoom(n: number, base: NormalBase | null): number {
  return 3 * n + 8 +
    (base === null ? 0 : base.origin.length + base.path.length + base.query.length);
}
