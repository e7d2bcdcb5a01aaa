/**
 * The extension data of a sitemap's pages (news stories, images, videos,
 * alternates) in columns, as its URLs are. No object exists per page until a
 * page is read, and any page can be read alone.
 *
 * While a sitemap is parsed, {@linkcode ExtrasWriter} keeps a UTF-8 string
 * table and a stream of 32-bit records per page: a mask (1 news, 2 images,
 * 4 videos, 8 alternates), then each present part in that order. A string
 * is 0 for null or 1 + its index in the table; a number two words (its
 * float64 bits; NaN for absent); a boolean 0 (null), 1 (false) or 2 (true);
 * a list its length, then its strings. Short repeated strings are stored once.
 *
 * {@linkcode ExtrasWriter.pack} then re-encodes the kept pages into one
 * byte stream (see {@linkcode PackedExtras}), the same fields in the same
 * order, where counts are varints and each string is null, its UTF-8 bytes,
 * a dictionary entry plus the rest (short repeated strings such as hreflang
 * codes, and URL directories such as an image CDN's), or what it shares at
 * both ends with the page's previous string of the same field plus the
 * middle (hreflang alternates usually differ in one language segment).
 * That is a fraction of what a string table and fixed records took
 * (bench/README.md#parsing).
 *
 * @module
 */
import type {
  AlternateData,
  EncodedExtras,
  ImageData,
  NewsStoryData,
  PackedExtras,
  PageExtrasData,
  VideoData,
} from "./_result.ts";
import { fnv1a, FNV_BASIS, mixHash } from "./_fnv.ts";
import { type KeepContext, packKept } from "./_kept_pack.ts";

const encoder = new TextEncoder();
/**
 * `ignoreBOM`: the columns cut strings into parts (a URL's directory, the
 * rest), and a part may start with U+FEFF, which is text here, not a byte
 * order mark (bench/fuzz_byte_readers.ts found one dropped).
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

const M_NEWS = 1;
const M_IMAGES = 2;
const M_VIDEOS = 4;
const M_ALTERNATES = 8;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Strings at most this long are stored once per sitemap. */
const INTERN_LENGTH = 32;
const INTERN_MAX = 8192;

/**
 * Something that writes one page's records itself (the byte-level reader,
 * whose strings are already in the table), in place of a
 * {@linkcode PageExtrasData}.
 */
export interface ExtrasSource {
  /** Writes the page's records: its mask, then each part, as {@linkcode ExtrasWriter.write} does. */
  writeTo(writer: ExtrasWriter): void;
}

/** The record mask's bits. */
export const EXTRAS_MASK = {
  news: M_NEWS,
  images: M_IMAGES,
  videos: M_VIDEOS,
  alternates: M_ALTERNATES,
} as const;

/** Appends pages' extras to the columns, one page at a time. */
export class ExtrasWriter {
  #text = new Uint8Array(16 << 10);
  #textUsed = 0;
  #ends = new Float64Array(1024);
  /** Where each string ends in `#text`, in bytes. */
  #byteEnds = new Float64Array(1024);
  /** Strings in the table. */
  #strings = 0;
  #units = 0;
  readonly #interned = new Map<string, number>();
  #records = new Uint32Array(4096);
  #used = 0;
  /** Set when the records are spans of a document to keep (see `_kept_pack.ts`). */
  #kept: KeepContext | null = null;

  /**
   * Takes each page's records as one span of `k.doc` (two words: start,
   * end), written by the reader, to keep rather than decode.
   *
   * @param k The document the spans are in, and what goes with it.
   */
  keep(k: KeepContext): void {
    this.#kept = k;
  }

  /** Records written so far: a page's extras are the records between two of these. */
  get length(): number {
    return this.#used;
  }

  /**
   * Appends one page's extras.
   *
   * @param extras The page's data (dates NaN or null when absent).
   */
  write(extras: PageExtrasData | ExtrasSource): void {
    if (typeof (extras as ExtrasSource).writeTo === "function") {
      (extras as ExtrasSource).writeTo(this);
      return;
    }
    const { newsStory, images, videos, alternates } = extras as PageExtrasData;
    this.#word(
      (newsStory != null ? M_NEWS : 0) | (images != null ? M_IMAGES : 0) |
        (videos != null ? M_VIDEOS : 0) | (alternates != null ? M_ALTERNATES : 0),
    );
    if (newsStory != null) this.news(newsStory);
    if (images != null) {
      this.#word(images.length);
      for (const image of images) {
        this.#string(image.loc);
        this.#string(image.caption);
        this.#string(image.geoLocation);
        this.#string(image.title);
        this.#string(image.license);
      }
    }
    if (videos != null) {
      this.#word(videos.length);
      for (const video of videos) this.video(video);
    }
    if (alternates != null) {
      this.#word(alternates.length);
      for (const alternate of alternates) {
        this.#string(alternate.hreflang);
        this.#string(alternate.href);
      }
    }
  }

  /**
   * Appends a news story's records.
   *
   * @param news The story.
   */
  news(news: NewsStoryData): void {
    this.#string(news.title);
    this.#number(news.publishDate);
    this.#string(news.publicationName);
    this.#string(news.publicationLanguage);
    this.#string(news.access);
    this.#list(news.genres);
    this.#list(news.keywords);
    this.#list(news.stockTickers);
  }

  /**
   * Appends a video's records.
   *
   * @param video The video.
   */
  video(video: VideoData): void {
    this.#string(video.thumbnailLoc);
    this.#string(video.title);
    this.#string(video.description);
    this.#string(video.contentLoc);
    this.#string(video.playerLoc);
    this.#number(video.duration);
    this.#number(video.expirationDate);
    this.#number(video.rating);
    this.#number(video.viewCount);
    this.#number(video.publicationDate);
    this.#boolean(video.familyFriendly);
    this.#boolean(video.requiresSubscription);
    this.#boolean(video.live);
    this.#string(video.uploader);
    this.#list(video.tags ?? []);
  }

  /**
   * Appends one record word: a mask, a count, or a string reference from
   * {@linkcode ref} or {@linkcode bytes}.
   *
   * @param w The word.
   */
  word(w: number): void {
    this.#word(w);
  }

  #word(w: number): void {
    if (this.#used === this.#records.length) {
      const bigger = new Uint32Array(this.#records.length * 2);
      bigger.set(this.#records);
      this.#records = bigger;
    }
    this.#records[this.#used++] = w;
  }

  #number(n: number | null | undefined): void {
    f64[0] = n ?? NaN;
    this.#word(u32[0]!);
    this.#word(u32[1]!);
  }

  #boolean(b: boolean | null | undefined): void {
    this.#word(b == null ? 0 : b ? 2 : 1);
  }

  #list(items: readonly string[]): void {
    this.#word(items.length);
    for (const item of items) this.#string(item);
  }

  #string(s: string | null | undefined): void {
    this.#word(this.ref(s));
  }

  /**
   * Adds a string to the table (once, when short) without writing a record.
   *
   * @param s The string, or null.
   * @returns Its reference: 0 for null, else 1 + its index.
   */
  ref(s: string | null | undefined): number {
    if (s == null) return 0;
    if (s.length <= INTERN_LENGTH) {
      const known = this.#interned.get(s);
      if (known !== undefined) return known + 1;
    }
    const k = this.#strings;
    const n = s.length;
    const need = this.#textUsed + n * 3;
    this.#room(need);
    const text = this.#text;
    let o = this.#textUsed;
    let i = 0;
    // ASCII is copied unit by unit (cheaper than a call to the encoder for
    // the short fields most are); the rest from the first other unit is encoded.
    for (let c: number; i < n && (c = s.charCodeAt(i)) < 0x80; i++) text[o++] = c;
    if (i < n) o += encoder.encodeInto(s.slice(i), text.subarray(o, need)).written;
    this.#textUsed = o;
    this.#units += n;
    this.#end(this.#units, this.#textUsed);
    if (s.length <= INTERN_LENGTH && this.#interned.size < INTERN_MAX) this.#interned.set(s, k);
    return k + 1;
  }

  /**
   * Adds ASCII bytes to the table as a string, copied as they are.
   *
   * @param b The bytes' buffer.
   * @param a Start.
   * @param e End.
   * @returns The string's reference.
   */
  bytes(b: Uint8Array, a: number, e: number): number {
    const k = this.#strings;
    const need = this.#textUsed + (e - a);
    this.#room(need);
    const text = this.#text;
    for (let i = a, o = this.#textUsed; i < e; i++, o++) text[o] = b[i]!;
    this.#textUsed = need;
    this.#units += e - a;
    this.#end(this.#units, need);
    return k + 1;
  }

  /**
   * Adds ASCII bytes as a string with every `&amp;` in them read as `&`
   * (the caller has checked that no other reference is there).
   *
   * @param b The bytes' buffer.
   * @param a Start.
   * @param e End.
   * @returns The string's reference.
   */
  unescapedBytes(b: Uint8Array, a: number, e: number): number {
    const k = this.#strings;
    this.#room(this.#textUsed + (e - a));
    const text = this.#text;
    const start = this.#textUsed;
    let o = start;
    for (let i = a; i < e; i++) {
      const c = b[i]!;
      text[o++] = c;
      if (c === 0x26) i += 4; // the "amp;" after it
    }
    this.#textUsed = o;
    this.#units += o - start;
    this.#end(this.#units, o);
    return k + 1;
  }

  /** The table's bytes so far (valid until the next string is added). */
  get textBytes(): Uint8Array {
    return this.#text;
  }

  /**
   * Where string `ref` lies in {@linkcode textBytes}.
   *
   * @param ref A reference other than 0.
   * @returns Its start; its end is {@linkcode textUsed} for the last one added.
   */
  startOf(ref: number): number {
    return ref === 1 ? 0 : this.#byteEnds[ref - 2]!;
  }

  /** End of the bytes written so far. */
  get textUsed(): number {
    return this.#textUsed;
  }

  /** Takes back the last string added (by {@linkcode bytes} or {@linkcode unescapedBytes}), unused yet. */
  dropLast(): void {
    const n = --this.#strings;
    this.#units = n === 0 ? 0 : this.#ends[n - 1]!;
    this.#textUsed = n === 0 ? 0 : this.#byteEnds[n - 1]!;
  }

  /**
   * The string a reference stands for.
   *
   * @param ref A reference from {@linkcode ref} or {@linkcode bytes}.
   * @returns The string, or null for 0.
   */
  stringOf(ref: number): string | null {
    if (ref === 0) return null;
    const k = ref - 1;
    return decoder.decode(
      this.#text.subarray(k === 0 ? 0 : this.#byteEnds[k - 1], this.#byteEnds[k]),
    );
  }

  /** Records where the string just added ends, in UTF-16 units and in bytes. */
  #end(units: number, bytes: number): void {
    const k = this.#strings++;
    if (k === this.#ends.length) {
      const ends = new Float64Array(k * 2);
      ends.set(this.#ends);
      this.#ends = ends;
      const byteEnds = new Float64Array(k * 2);
      byteEnds.set(this.#byteEnds);
      this.#byteEnds = byteEnds;
    }
    this.#ends[k] = units;
    this.#byteEnds[k] = bytes;
  }

  #room(need: number): void {
    if (need > this.#text.length) {
      const bigger = new Uint8Array(Math.max(need, this.#text.length * 2));
      bigger.set(this.#text.subarray(0, this.#textUsed));
      this.#text = bigger;
    }
  }

  /**
   * The columns for `count` pages, where page p's records are
   * `[from[p], to[p])` of those written (equal for a page without extras).
   * The records are re-encoded here into one compact byte stream (see
   * {@linkcode PackedExtras}): only strings that a kept page uses are stored.
   *
   * @param count Pages.
   * @param from Start of each page's records.
   * @param to End of each page's records.
   * @returns The columns, each in its own buffer, or null when no page has extras.
   */
  pack(count: number, from: Uint32Array, to: Uint32Array): PackedExtras | null {
    let total = 0;
    for (let p = 0; p < count; p++) total += to[p]! - from[p]!;
    if (total === 0) return null;
    if (this.#kept !== null) return packKept(this.#kept, this.#records, count, from, to);
    const table = new Table(this.#text, this.#strings, this.#ends, this.#byteEnds);
    const records = this.#records;
    // How often each string is used by the kept pages.
    const uses = new Uint32Array(table.size + 1);
    for (let p = 0; p < count; p++) {
      if (to[p]! > from[p]!) {
        forEachString(records.subarray(from[p]!, to[p]!), (at, sub) => {
          const ref = sub[at]!;
          uses[ref] = uses[ref]! + 1;
        });
      }
    }
    const dict = table.dictionary(uses);
    const out = new StreamWriter(table);
    const pageStarts = new Uint32Array(count + 1);
    for (let p = 0; p < count; p++) {
      if (to[p]! > from[p]!) out.page(records, from[p]!, to[p]!);
      pageStarts[p + 1] = out.length;
    }
    return { dictText: dict.text, dictEnds: dict.ends, data: out.bytes(), pageStarts };
  }
}

/** String fields, each coded against the page's previous string of the same field. */
const F_NEWS = 0; // title, name, language, access: 0..3; genres, keywords, tickers: 4..6
const F_IMAGE = 7; // loc, caption, geo, title, license: 7..11
const F_VIDEO = 12; // thumbnail, title, description, content, player: 12..16; uploader 17; tags 18
const F_HREFLANG = 19;
const F_HREF = 20;
const FIELDS = 21;

/** String codes in the byte stream. */
const S_NULL = 0;
const S_LITERAL = 1;
const S_DICT = 2;
const S_PREVIOUS = 3;
/** Number codes. */
const N_NAN = 0;
const N_UINT = 1;
const N_NEGATIVE = 2;
const N_FLOAT = 3;

/** Strings at most this long are candidates for the dictionary as a whole. */
const DICT_WHOLE = 32;
const DICT_MAX = 1 << 16;
/** Shortest URL prefix worth a dictionary entry. */
const DICT_PREFIX_MIN = 12;

/**
 * Distinct byte ranges of one buffer (dictionary keys), numbered in order
 * of first sight and found again through an open-addressing table of their
 * FNV-1a hashes.
 */
class KeySet {
  /** How many keys there are. */
  size = 0;
  /** Per key: where its bytes start, how many there are, its length in UTF-16 units, its uses. */
  readonly start: Int32Array;
  readonly bytes: Int32Array;
  readonly units: Int32Array;
  readonly uses: Float64Array;
  readonly #b: Uint8Array;
  readonly #hashes: Int32Array;
  readonly #slots: Int32Array;
  readonly #mask: number;

  constructor(b: Uint8Array, most: number) {
    let capacity = 16;
    while (capacity < most * 2) capacity *= 2;
    this.#b = b;
    this.#mask = capacity - 1;
    this.#slots = new Int32Array(capacity).fill(-1);
    this.#hashes = new Int32Array(most);
    this.start = new Int32Array(most);
    this.bytes = new Int32Array(most);
    this.units = new Int32Array(most);
    this.uses = new Float64Array(most);
  }

  /**
   * Counts `n` uses of the key `b[a, a + length)`, added when new.
   *
   * @param a Start of its bytes.
   * @param length Its length in bytes.
   * @param units Its length in UTF-16 units.
   * @param h Its FNV-1a state (not mixed).
   * @param n Uses to count.
   * @returns The key's number.
   */
  add(a: number, length: number, units: number, h: number, n: number): number {
    const slots = this.#slots;
    let slot = mixHash(h) & this.#mask;
    let key = slots[slot]!;
    while (key >= 0) {
      if (
        this.#hashes[key] === h && this.bytes[key] === length &&
        sameBytes(this.#b, this.start[key]!, a, length)
      ) break;
      slot = (slot + 1) & this.#mask;
      key = slots[slot]!;
    }
    if (key < 0) {
      key = slots[slot] = this.size++;
      this.start[key] = a;
      this.#hashes[key] = h;
      this.bytes[key] = length;
      this.units[key] = units;
    }
    this.uses[key] = this.uses[key]! + n;
    return key;
  }
}

/**
 * The writer's string table as {@linkcode ExtrasWriter.pack} reads it: each
 * string's bytes, its text (decoded only for strings that are not ASCII and
 * for dictionary keys), and its dictionary entry.
 */
class Table {
  readonly text: Uint8Array;
  readonly size: number;
  readonly #ends: Float64Array;
  readonly #byteEnds: Float64Array;
  #decoded: string | null = null;
  #hash = 0;
  /** Per reference: the dictionary entry that is its key, or -1. */
  dictIndex: Int32Array = new Int32Array(0);
  /** Per reference: its dictionary key's length in UTF-16 units (0 when none). */
  readonly keyLength: Int32Array;
  /** Per reference: its dictionary key's length in bytes (0 when none). */
  readonly keyBytes: Int32Array;

  constructor(text: Uint8Array, size: number, ends: Float64Array, byteEnds: Float64Array) {
    this.text = text;
    this.#ends = ends;
    this.#byteEnds = byteEnds;
    this.size = size;
    this.keyLength = new Int32Array(this.size + 1);
    this.keyBytes = new Int32Array(this.size + 1);
  }

  byteStart(ref: number): number {
    return ref === 1 ? 0 : this.#byteEnds[ref - 2]!;
  }

  byteEnd(ref: number): number {
    return this.#byteEnds[ref - 1]!;
  }

  /** Whether each byte of the string is one UTF-16 unit, so unit offsets are byte offsets. */
  ascii(ref: number): boolean {
    const units = this.#ends[ref - 1]! - (ref === 1 ? 0 : this.#ends[ref - 2]!);
    return units === this.byteEnd(ref) - this.byteStart(ref);
  }

  string(ref: number): string {
    const text = this.#decoded ??= decoder.decode(this.text.subarray(0, this.byteEnd(this.size)));
    return text.slice(ref === 1 ? 0 : this.#ends[ref - 2]!, this.#ends[ref - 1]!);
  }

  /**
   * The dictionary: every key that two or more uses of strings share, where
   * a string's key is itself when short, else a URL's directory (up to the
   * last `/` before any query or fragment).
   *
   * @param uses How often each reference is used.
   * @returns The entries, in order of first use.
   */
  dictionary(uses: Uint32Array): { text: Uint8Array; ends: Uint32Array } {
    const keys = new KeySet(this.text, this.size);
    const keyOf = this.#keysOf(uses, keys);
    // The entries: the keys used twice or more, up to DICT_MAX.
    const entryOf = new Int32Array(keys.size).fill(-1);
    let entries = 0;
    let textLength = 0;
    for (let key = 0; key < keys.size; key++) {
      if (keys.uses[key]! < 2 || entries === DICT_MAX) continue;
      entryOf[key] = entries++;
      textLength += keys.bytes[key]!;
    }
    const text = new Uint8Array(textLength);
    const ends = new Uint32Array(entries);
    for (let key = 0, o = 0, units = 0; key < keys.size; key++) {
      const k = entryOf[key]!;
      if (k < 0) continue;
      const a = keys.start[key]!;
      text.set(this.text.subarray(a, a + keys.bytes[key]!), o);
      o += keys.bytes[key]!;
      ends[k] = units += keys.units[key]!;
    }
    this.#indexEntries(keyOf, entryOf, keys);
    return { text, ends };
  }

  /**
   * Adds every used string's key to `keys`, counting its uses.
   *
   * @returns Per reference, its key's number in `keys`, or -1 for none.
   */
  #keysOf(uses: Uint32Array, keys: KeySet): Int32Array {
    const keyOf = new Int32Array(this.size + 1).fill(-1);
    for (let ref = 1; ref <= this.size; ref++) {
      const n = uses[ref]!;
      if (n === 0) continue;
      const units = this.#keyLengthOf(ref);
      if (units === 0) continue;
      const a = this.byteStart(ref);
      if (this.ascii(ref)) {
        keyOf[ref] = keys.add(a, units, units, this.#hash, n);
      } else {
        const length = this.#bytesOfUnits(ref, units);
        keyOf[ref] = keys.add(a, length, units, fnv1a(this.text, a, a + length), n);
      }
    }
    return keyOf;
  }

  /** Records each reference's dictionary entry and its key's lengths. */
  #indexEntries(keyOf: Int32Array, entryOf: Int32Array, keys: KeySet): void {
    const dictIndex = this.dictIndex = new Int32Array(this.size + 1).fill(-1);
    for (let ref = 1; ref <= this.size; ref++) {
      const key = keyOf[ref]!;
      if (key < 0) continue;
      const k = entryOf[key]!;
      if (k >= 0) {
        dictIndex[ref] = k;
        this.keyLength[ref] = keys.units[key]!;
        this.keyBytes[ref] = keys.bytes[key]!;
      }
    }
  }

  /** How many bytes of string `ref` (valid UTF-8) its first `units` UTF-16 units take. */
  #bytesOfUnits(ref: number, units: number): number {
    const b = this.text;
    const a = this.byteStart(ref);
    const e = this.byteEnd(ref);
    let i = a;
    for (let u = 0; u < units && i < e;) {
      const c = b[i]!;
      if (c < 0x80) i += 1, u += 1;
      else if (c < 0xe0) i += 2, u += 1;
      else if (c < 0xf0) i += 3, u += 1;
      else i += 4, u += 2;
    }
    return i - a;
  }

  /**
   * Length in UTF-16 units of the string's dictionary key, or 0; for an
   * ASCII string it leaves the key's hash in `#hash`.
   */
  #keyLengthOf(ref: number): number {
    if (!this.ascii(ref)) {
      const s = this.string(ref);
      if (s.length <= DICT_WHOLE) return s.length;
      if (s.indexOf("://") < 0) return 0;
      let stop = s.length;
      const q = s.indexOf("?");
      if (q >= 0) stop = q;
      const h = s.indexOf("#");
      if (h >= 0 && h < stop) stop = h;
      const slash = s.lastIndexOf("/", stop - 1);
      return slash + 1 >= DICT_PREFIX_MIN ? slash + 1 : 0;
    }
    const a = this.byteStart(ref);
    const e = this.byteEnd(ref);
    const b = this.text;
    if (e - a <= DICT_WHOLE) {
      this.#hash = fnv1a(b, a, e);
      return e - a;
    }
    // FNV-1a over the bytes up to each `/`, as fnv1a gives it over the key
    // (its prime a literal in the loop, as in _fnv.ts).
    let h = FNV_BASIS;
    let scheme = false;
    let slash = -1;
    for (let i = a; i < e; i++) {
      const c = b[i]!;
      if (c === 0x3f || c === 0x23) break; // "?" or "#"
      h = Math.imul(h ^ c, 0x01000193);
      if (c === 0x2f) {
        if (!scheme && i > a && b[i - 1] === 0x3a && b[i + 1] === 0x2f) scheme = true;
        slash = i;
        this.#hash = h;
      }
    }
    return scheme && slash + 1 - a >= DICT_PREFIX_MIN ? slash + 1 - a : 0;
  }
}

/** Appends pages to the compact byte stream. */
class StreamWriter {
  readonly #table: Table;
  #b = new Uint8Array(64 << 10);
  #n = 0;
  /** Per field, the reference of the page's previous string in it (0 for none). */
  readonly #previous = new Int32Array(FIELDS);

  constructor(table: Table) {
    this.#table = table;
  }

  get length(): number {
    return this.#n;
  }

  bytes(): Uint8Array {
    return this.#b.slice(0, this.#n);
  }

  #room(extra: number): void {
    if (this.#n + extra > this.#b.length) {
      const bigger = new Uint8Array(Math.max(this.#n + extra, this.#b.length * 2));
      bigger.set(this.#b.subarray(0, this.#n));
      this.#b = bigger;
    }
  }

  #byte(v: number): void {
    this.#room(1);
    this.#b[this.#n++] = v;
  }

  /** An unsigned integer up to 2^53, 7 bits a byte. */
  #varint(v: number): void {
    this.#room(8);
    while (v >= 0x80) {
      this.#b[this.#n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.#b[this.#n++] = v;
  }

  /** The table's bytes `[a, e)` (whole characters), after their length. */
  #run(a: number, e: number): void {
    this.#varint(e - a);
    this.#room(e - a);
    const b = this.#b;
    const text = this.#table.text;
    let o = this.#n;
    for (let i = a; i < e; i++) b[o++] = text[i]!;
    this.#n = o;
  }

  /** String `ref`'s UTF-16 units `[a, e)` as UTF-8, after their byte length. */
  #part(ref: number, a: number, e: number): void {
    const t = this.#table;
    if (t.ascii(ref)) {
      const start = t.byteStart(ref);
      this.#varint(e - a);
      this.#room(e - a);
      const b = this.#b;
      const text = t.text;
      let o = this.#n;
      for (let i = start + a; i < start + e; i++) b[o++] = text[i]!;
      this.#n = o;
      return;
    }
    const s = t.string(ref).slice(a, e);
    this.#room(8 + s.length * 3);
    // The bytes go 5 past the length's place, then move back behind it.
    const at = this.#n;
    const written = encoder.encodeInto(s, this.#b.subarray(at + 5)).written;
    this.#varint(written);
    this.#b.copyWithin(this.#n, at + 5, at + 5 + written);
    this.#n += written;
  }

  #number(n: number): void {
    if (n !== n) return this.#byte(N_NAN);
    if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
      this.#byte(n >= 0 ? N_UINT : N_NEGATIVE);
      return this.#varint(Math.abs(n));
    }
    this.#byte(N_FLOAT);
    this.#room(8);
    f64[0] = n;
    new Uint8Array(this.#b.buffer, this.#n, 8).set(new Uint8Array(f64.buffer));
    this.#n += 8;
  }

  /**
   * A string, as the cheapest of: its bytes; a dictionary entry and the rest;
   * or what it shares at both ends with the page's previous string of the
   * same field (hreflang alternates differ from one another in a language
   * segment), and the middle.
   */
  #string(ref: number, field: number): void {
    if (ref === 0) return this.#byte(S_NULL);
    const t = this.#table;
    const previous = this.#previous[field]!;
    this.#previous[field] = ref;
    let pre = 0;
    let suf = 0;
    let length: number;
    if (previous !== 0 && t.ascii(ref) && t.ascii(previous)) {
      const b = t.text;
      const pa = t.byteStart(previous);
      const pe = t.byteEnd(previous);
      const a = t.byteStart(ref);
      const e = t.byteEnd(ref);
      length = e - a;
      const limit = Math.min(pe - pa, length);
      while (pre < limit && b[pa + pre] === b[a + pre]) pre++;
      while (suf < limit - pre && b[pe - 1 - suf] === b[e - 1 - suf]) suf++;
    } else {
      const s = t.string(ref);
      length = s.length;
      if (previous !== 0) {
        const p = t.string(previous);
        const limit = Math.min(p.length, length);
        while (pre < limit && p.charCodeAt(pre) === s.charCodeAt(pre)) pre++;
        // Never split a surrogate pair: its halves would not survive UTF-8.
        if (pre > 0 && pre < length && isHigh(s.charCodeAt(pre - 1))) pre--;
        while (
          suf < limit - pre && p.charCodeAt(p.length - 1 - suf) === s.charCodeAt(length - 1 - suf)
        ) suf++;
        if (suf > 0 && suf < length - pre && isLow(s.charCodeAt(length - suf))) suf--;
      }
    }
    const keyLength = t.keyLength[ref]!;
    if (keyLength > 0 && keyLength >= pre + suf) {
      this.#byte(S_DICT);
      this.#varint(t.dictIndex[ref]!);
      this.#run(t.byteStart(ref) + t.keyBytes[ref]!, t.byteEnd(ref));
    } else if (pre + suf > 3) {
      this.#byte(S_PREVIOUS);
      this.#varint(pre);
      this.#varint(suf);
      this.#part(ref, pre, length - suf);
    } else {
      this.#byte(S_LITERAL);
      this.#run(t.byteStart(ref), t.byteEnd(ref));
    }
  }

  /** Re-encodes one page's records `[a, e)`. */
  page(records: Uint32Array, a: number, e: number): void {
    this.#previous.fill(0);
    let i = a;
    const word = (): number => {
      if (i >= e) throw new RangeError("Extras records end inside a page");
      return records[i++]!;
    };
    const string = (field: number): void => this.#string(word(), field);
    const number = (): void => {
      u32[0] = word();
      u32[1] = word();
      this.#number(f64[0]!);
    };
    const list = (field: number): void => {
      const n = word();
      this.#varint(n);
      for (let k = 0; k < n; k++) string(field);
    };
    const mask = word();
    this.#byte(mask);
    if (mask & M_NEWS) {
      string(F_NEWS);
      number();
      for (let f = 1; f <= 3; f++) string(F_NEWS + f);
      for (let f = 4; f <= 6; f++) list(F_NEWS + f);
    }
    if (mask & M_IMAGES) {
      const n = word();
      this.#varint(n);
      for (let k = 0; k < n; k++) for (let f = 0; f < 5; f++) string(F_IMAGE + f);
    }
    if (mask & M_VIDEOS) {
      const n = word();
      this.#varint(n);
      for (let k = 0; k < n; k++) {
        for (let f = 0; f < 5; f++) string(F_VIDEO + f);
        for (let f = 0; f < 5; f++) number();
        for (let f = 0; f < 3; f++) this.#byte(word());
        string(F_VIDEO + 5);
        list(F_VIDEO + 6);
      }
    }
    if (mask & M_ALTERNATES) {
      const n = word();
      this.#varint(n);
      for (let k = 0; k < n; k++) {
        string(F_HREFLANG);
        string(F_HREF);
      }
    }
    if (i !== e) throw new RangeError("Extras records run past a page");
  }
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function sameBytes(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}

/** Calls `visit` with the index of every string reference in `records`, page after page. */
function forEachString(
  records: Uint32Array,
  visit: (at: number, records: Uint32Array) => void,
): void {
  let i = 0;
  const list = (): void => {
    for (let n = records[i++]!; n > 0; n--) visit(i++, records);
  };
  while (i < records.length) {
    const mask = records[i++]!;
    if (mask & M_NEWS) {
      visit(i++, records);
      i += 2;
      visit(i++, records);
      visit(i++, records);
      visit(i++, records);
      list();
      list();
      list();
    }
    if (mask & M_IMAGES) {
      for (let n = records[i++]!; n > 0; n--) for (let f = 0; f < 5; f++) visit(i++, records);
    }
    if (mask & M_VIDEOS) {
      for (let n = records[i++]!; n > 0; n--) {
        for (let f = 0; f < 5; f++) visit(i++, records);
        i += 13;
        visit(i++, records);
        list();
      }
    }
    if (mask & M_ALTERNATES) {
      for (let n = records[i++]!; n > 0; n--) for (let f = 0; f < 2; f++) visit(i++, records);
    }
  }
}

/**
 * Packs a list of pages' extras, as `[pageIndex, extras]` in ascending page
 * order (the form the cache and the tests write them in).
 *
 * @param entries The pages' extras.
 * @param count Pages in the sitemap.
 * @returns The columns, or null when the list is empty.
 */
export function packExtras(
  entries: readonly (readonly [number, PageExtrasData])[],
  count: number,
): EncodedExtras | null {
  const writer = new ExtrasWriter();
  const from = new Uint32Array(count);
  const to = new Uint32Array(count);
  let next = 0;
  for (const [p, extras] of entries) {
    if (!Number.isInteger(p) || p < next || p >= count) {
      throw new RangeError(`Extras for page ${p} out of order or range (${count} pages)`);
    }
    for (; next < p; next++) from[next] = to[next] = writer.length;
    from[p] = writer.length;
    writer.write(extras);
    to[p] = writer.length;
    next = p + 1;
  }
  for (; next < count; next++) from[next] = to[next] = writer.length;
  // A writer that keeps nothing writes the encoded form.
  return writer.pack(count, from, to) as EncodedExtras | null;
}

/**
 * Maps every byte to one UTF-16 unit (what `#utf8` slices ASCII runs from:
 * those bytes read the same in it as in UTF-8).
 */
const windowDecoder = new TextDecoder("windows-1252");
const WINDOW_BYTES = 16 << 10;

/** Decoded dictionaries, one per columns object, shared by every reader of it. */
const dictionaries = new WeakMap<EncodedExtras, readonly string[]>();

function dictionaryOf(x: EncodedExtras): readonly string[] {
  let entries = dictionaries.get(x);
  if (entries === undefined) {
    const text = decoder.decode(x.dictText);
    const ends = x.dictEnds;
    const list: string[] = new Array(ends.length);
    for (let k = 0, a = 0; k < ends.length; k++) list[k] = text.slice(a, a = ends[k]!);
    dictionaries.set(x, entries = list);
  }
  return entries;
}

/** Reads pages' extras back from the columns, one page at a time, in any order. */
export class ExtrasReader {
  readonly #x: EncodedExtras;
  #dict: readonly string[] | null = null;
  readonly #previous: (string | null)[] = new Array(FIELDS).fill(null);
  #at = 0;
  #end = 0;
  /**
   * A window of the stream's bytes, one UTF-16 unit per byte, from
   * `#windowStart` to `#windowEnd`: an ASCII string in it is a slice, which
   * costs less than a decode of its own.
   */
  #window = "";
  #windowStart = 0;
  #windowEnd = 0;

  /** @param x The columns. */
  constructor(x: EncodedExtras) {
    this.#x = x;
  }

  /**
   * Whether page `i` has extras.
   *
   * @param i Page index.
   * @returns True when it has.
   */
  has(i: number): boolean {
    const starts = this.#x.pageStarts;
    return i + 1 < starts.length && starts[i + 1]! > starts[i]!;
  }

  /**
   * Page `i`'s extras, as fresh objects (dates NaN when absent).
   *
   * @param i Page index.
   * @returns The extras, or null when the page has none.
   */
  page(i: number): PageExtrasData | null {
    if (!this.has(i)) return null;
    this.#at = this.#x.pageStarts[i]!;
    this.#end = this.#x.pageStarts[i + 1]!;
    this.#previous.fill(null);
    const mask = this.#byte();
    const out: {
      newsStory?: NewsStoryData;
      images?: ImageData[];
      videos?: VideoData[];
      alternates?: AlternateData[];
    } = {};
    if (mask & M_NEWS) {
      out.newsStory = {
        title: this.#string(F_NEWS) ?? "",
        publishDate: this.#number(),
        publicationName: this.#string(F_NEWS + 1),
        publicationLanguage: this.#string(F_NEWS + 2),
        access: this.#string(F_NEWS + 3),
        genres: this.#list(F_NEWS + 4),
        keywords: this.#list(F_NEWS + 5),
        stockTickers: this.#list(F_NEWS + 6),
      };
    }
    if (mask & M_IMAGES) {
      const images: ImageData[] = [];
      for (let n = this.#varint(); n > 0; n--) {
        images.push({
          loc: this.#string(F_IMAGE) ?? "",
          caption: this.#string(F_IMAGE + 1),
          geoLocation: this.#string(F_IMAGE + 2),
          title: this.#string(F_IMAGE + 3),
          license: this.#string(F_IMAGE + 4),
        });
      }
      out.images = images;
    }
    if (mask & M_VIDEOS) {
      const videos: VideoData[] = [];
      for (let n = this.#varint(); n > 0; n--) videos.push(this.#video());
      out.videos = videos;
    }
    if (mask & M_ALTERNATES) {
      const alternates: AlternateData[] = [];
      for (let n = this.#varint(); n > 0; n--) {
        alternates.push({
          hreflang: this.#string(F_HREFLANG) ?? "",
          href: this.#string(F_HREF) ?? "",
        });
      }
      out.alternates = alternates;
    }
    return out;
  }

  #video(): VideoData {
    return {
      thumbnailLoc: this.#string(F_VIDEO),
      title: this.#string(F_VIDEO + 1),
      description: this.#string(F_VIDEO + 2),
      contentLoc: this.#string(F_VIDEO + 3),
      playerLoc: this.#string(F_VIDEO + 4),
      duration: this.#nullableNumber(),
      expirationDate: this.#number(),
      rating: this.#nullableNumber(),
      viewCount: this.#nullableNumber(),
      publicationDate: this.#number(),
      familyFriendly: this.#boolean(),
      requiresSubscription: this.#boolean(),
      live: this.#boolean(),
      uploader: this.#string(F_VIDEO + 5),
      tags: this.#list(F_VIDEO + 6),
    };
  }

  #byte(): number {
    if (this.#at >= this.#end) throw new RangeError("Extras records end inside a page");
    return this.#x.data[this.#at++]!;
  }

  #varint(): number {
    let v = 0;
    let scale = 1;
    while (true) {
      const b = this.#byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }

  #number(): number {
    const code = this.#byte();
    if (code === N_NAN) return NaN;
    if (code === N_UINT) return this.#varint();
    if (code === N_NEGATIVE) return -this.#varint();
    if (code !== N_FLOAT || this.#at + 8 > this.#end) {
      throw new RangeError(`Extras number code ${code} is malformed`);
    }
    new Uint8Array(f64.buffer).set(this.#x.data.subarray(this.#at, this.#at + 8));
    this.#at += 8;
    return f64[0]!;
  }

  #nullableNumber(): number | null {
    const n = this.#number();
    return n === n ? n : null;
  }

  #boolean(): boolean | null {
    const b = this.#byte();
    return b === 0 ? null : b === 2;
  }

  #list(field: number): string[] {
    const out: string[] = [];
    for (let n = this.#varint(); n > 0; n--) out.push(this.#string(field) ?? "");
    return out;
  }

  /** The next UTF-8 run (its length, then its bytes) as a string. */
  #utf8(): string {
    const n = this.#varint();
    const a = this.#at;
    const e = a + n;
    if (e > this.#end) throw new RangeError("Extras records end inside a page");
    this.#at = e;
    const data = this.#x.data;
    let ascii = true;
    for (let k = a; k < e; k++) {
      if (data[k]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (!ascii) return decoder.decode(data.subarray(a, e));
    if (a < this.#windowStart || e > this.#windowEnd) {
      if (n > WINDOW_BYTES) return decoder.decode(data.subarray(a, e));
      this.#windowStart = a;
      this.#windowEnd = Math.min(data.length, a + WINDOW_BYTES);
      this.#window = windowDecoder.decode(data.subarray(a, this.#windowEnd));
    }
    return this.#window.slice(a - this.#windowStart, e - this.#windowStart);
  }

  #string(field: number): string | null {
    const code = this.#byte();
    let s: string;
    if (code === S_NULL) return null;
    if (code === S_LITERAL) {
      s = this.#utf8();
    } else if (code === S_DICT) {
      const dict = this.#dict ??= dictionaryOf(this.#x);
      const k = this.#varint();
      if (k >= dict.length) throw new RangeError(`Extras string ${k} out of range`);
      s = dict[k]! + this.#utf8();
    } else if (code === S_PREVIOUS) {
      const previous = this.#previous[field];
      const pre = this.#varint();
      const suf = this.#varint();
      if (previous == null || pre + suf > previous.length) {
        throw new RangeError("Extras string refers to a string it cannot share");
      }
      s = previous.slice(0, pre) + this.#utf8() + previous.slice(previous.length - suf);
    } else {
      throw new RangeError(`Extras string code ${code} is malformed`);
    }
    this.#previous[field] = s;
    return s;
  }
}

/**
 * Every page's extras as `[pageIndex, extras]`, ascending: the inverse of
 * {@linkcode packExtras}.
 *
 * @param x The columns, or null.
 * @returns The list (empty for null).
 */
export function extrasEntries(x: EncodedExtras | null): [number, PageExtrasData][] {
  if (x === null) return [];
  const reader = new ExtrasReader(x);
  const out: [number, PageExtrasData][] = [];
  for (let i = 0; i + 1 < x.pageStarts.length; i++) {
    const extras = reader.page(i);
    if (extras !== null) out.push([i, extras]);
  }
  return out;
}
