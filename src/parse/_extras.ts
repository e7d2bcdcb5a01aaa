/**
 * The extension data of a sitemap's pages (news stories, images, videos,
 * alternates) in columns, as its URLs are: one UTF-8 string table, one
 * stream of 32-bit records, and each page's start in that stream. No object
 * exists per page until a page is read; a traversal decodes the string
 * table once per sitemap and slices it. Short repeated strings (hreflang
 * codes, publication names) are stored once.
 *
 * A page's records: a mask (1 news, 2 images, 4 videos, 8 alternates), then
 * each present part in that order. A string is 0 for null or 1 + its index
 * in the table; a number two words (its float64 bits; NaN for absent); a
 * boolean 0 (null), 1 (false) or 2 (true); a list its length, then its
 * strings.
 *
 * @module
 */
import type {
  AlternateData,
  ImageData,
  NewsStoryData,
  PackedExtras,
  PageExtrasData,
  VideoData,
} from "./_result.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
  #ends: number[] = [];
  /** Where each string ends in `#text`, in bytes. */
  #byteEnds: number[] = [];
  #units = 0;
  readonly #interned = new Map<string, number>();
  #records = new Uint32Array(4096);
  #used = 0;

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
    const k = this.#ends.length;
    const need = this.#textUsed + s.length * 3;
    this.#room(need);
    this.#textUsed += encoder.encodeInto(s, this.#text.subarray(this.#textUsed, need)).written;
    this.#units += s.length;
    this.#ends.push(this.#units);
    this.#byteEnds.push(this.#textUsed);
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
    const k = this.#ends.length;
    const need = this.#textUsed + (e - a);
    this.#room(need);
    const text = this.#text;
    for (let i = a, o = this.#textUsed; i < e; i++, o++) text[o] = b[i]!;
    this.#textUsed = need;
    this.#units += e - a;
    this.#ends.push(this.#units);
    this.#byteEnds.push(need);
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
    const k = this.#ends.length;
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
    this.#ends.push(this.#units);
    this.#byteEnds.push(o);
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
    this.#ends.pop();
    this.#byteEnds.pop();
    this.#units = this.#ends.length === 0 ? 0 : this.#ends[this.#ends.length - 1]!;
    this.#textUsed = this.#byteEnds.length === 0 ? 0 : this.#byteEnds[this.#byteEnds.length - 1]!;
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
    const records = new Uint32Array(total);
    const pageStarts = new Uint32Array(count + 1);
    let at = 0;
    for (let p = 0; p < count; p++) {
      const a = from[p]!;
      const b = to[p]!;
      if (b > a) {
        records.set(this.#records.subarray(a, b), at);
        at += b - a;
      }
      pageStarts[p + 1] = at;
    }
    return { ...this.#table(records), records, pageStarts };
  }

  /**
   * The string table of `records`, rewritten to hold only the strings they
   * use (pages dropped as duplicates or by `since` may have added some).
   */
  #table(records: Uint32Array): { text: Uint8Array; textEnds: Uint32Array } {
    const strings = this.#ends.length;
    const used = new Int32Array(strings + 1).fill(-1);
    let count = 0;
    forEachString(records, (at) => {
      const ref = records[at]!;
      if (ref !== 0 && used[ref] === -1) used[ref] = count++;
    });
    if (count === strings) {
      // Every string is used: the table stays as it is, refs too.
      return { text: this.#text.slice(0, this.#textUsed), textEnds: Uint32Array.from(this.#ends) };
    }
    const order = new Int32Array(count);
    for (let ref = 1; ref <= strings; ref++) if (used[ref]! >= 0) order[used[ref]!] = ref;
    let bytes = 0;
    for (const ref of order) {
      bytes += this.#byteEnds[ref - 1]! - (ref === 1 ? 0 : this.#byteEnds[ref - 2]!);
    }
    const text = new Uint8Array(bytes);
    const textEnds = new Uint32Array(count);
    let at = 0;
    let units = 0;
    for (let k = 0; k < count; k++) {
      const ref = order[k]!;
      const a = ref === 1 ? 0 : this.#byteEnds[ref - 2]!;
      const b = this.#byteEnds[ref - 1]!;
      text.set(this.#text.subarray(a, b), at);
      at += b - a;
      units += this.#ends[ref - 1]! - (ref === 1 ? 0 : this.#ends[ref - 2]!);
      textEnds[k] = units;
    }
    forEachString(records, (i) => {
      const ref = records[i]!;
      if (ref !== 0) records[i] = used[ref]! + 1;
    });
    return { text, textEnds };
  }
}

/** Calls `visit` with the index of every string reference in `records`, page after page. */
function forEachString(records: Uint32Array, visit: (at: number) => void): void {
  let i = 0;
  const list = (): void => {
    for (let n = records[i++]!; n > 0; n--) visit(i++);
  };
  while (i < records.length) {
    const mask = records[i++]!;
    if (mask & M_NEWS) {
      visit(i++);
      i += 2;
      visit(i++);
      visit(i++);
      visit(i++);
      list();
      list();
      list();
    }
    if (mask & M_IMAGES) {
      for (let n = records[i++]!; n > 0; n--) for (let f = 0; f < 5; f++) visit(i++);
    }
    if (mask & M_VIDEOS) {
      for (let n = records[i++]!; n > 0; n--) {
        for (let f = 0; f < 5; f++) visit(i++);
        i += 13;
        visit(i++);
        list();
      }
    }
    if (mask & M_ALTERNATES) {
      for (let n = records[i++]!; n > 0; n--) for (let f = 0; f < 2; f++) visit(i++);
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
): PackedExtras | null {
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
  return writer.pack(count, from, to);
}

/** Reads pages' extras back from the columns. */
export class ExtrasReader {
  readonly #x: PackedExtras;
  readonly #text: string;
  #at = 0;

  /** @param x The columns. */
  constructor(x: PackedExtras) {
    this.#x = x;
    this.#text = decoder.decode(x.text);
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
    const mask = this.#word();
    const out: {
      newsStory?: NewsStoryData;
      images?: ImageData[];
      videos?: VideoData[];
      alternates?: AlternateData[];
    } = {};
    if (mask & M_NEWS) {
      out.newsStory = {
        title: this.#string() ?? "",
        publishDate: this.#number(),
        publicationName: this.#string(),
        publicationLanguage: this.#string(),
        access: this.#string(),
        genres: this.#list(),
        keywords: this.#list(),
        stockTickers: this.#list(),
      };
    }
    if (mask & M_IMAGES) {
      const images: ImageData[] = [];
      for (let n = this.#word(); n > 0; n--) {
        images.push({
          loc: this.#string() ?? "",
          caption: this.#string(),
          geoLocation: this.#string(),
          title: this.#string(),
          license: this.#string(),
        });
      }
      out.images = images;
    }
    if (mask & M_VIDEOS) {
      const videos: VideoData[] = [];
      for (let n = this.#word(); n > 0; n--) videos.push(this.#video());
      out.videos = videos;
    }
    if (mask & M_ALTERNATES) {
      const alternates: AlternateData[] = [];
      for (let n = this.#word(); n > 0; n--) {
        alternates.push({ hreflang: this.#string() ?? "", href: this.#string() ?? "" });
      }
      out.alternates = alternates;
    }
    return out;
  }

  #video(): VideoData {
    return {
      thumbnailLoc: this.#string(),
      title: this.#string(),
      description: this.#string(),
      contentLoc: this.#string(),
      playerLoc: this.#string(),
      duration: this.#nullableNumber(),
      expirationDate: this.#number(),
      rating: this.#nullableNumber(),
      viewCount: this.#nullableNumber(),
      publicationDate: this.#number(),
      familyFriendly: this.#boolean(),
      requiresSubscription: this.#boolean(),
      live: this.#boolean(),
      uploader: this.#string(),
      tags: this.#list(),
    };
  }

  #word(): number {
    const records = this.#x.records;
    if (this.#at >= records.length) throw new RangeError("Extras records end inside a page");
    return records[this.#at++]!;
  }

  #number(): number {
    u32[0] = this.#word();
    u32[1] = this.#word();
    return f64[0]!;
  }

  #nullableNumber(): number | null {
    const n = this.#number();
    return n === n ? n : null;
  }

  #boolean(): boolean | null {
    const b = this.#word();
    return b === 0 ? null : b === 2;
  }

  #list(): string[] {
    const out: string[] = [];
    for (let n = this.#word(); n > 0; n--) out.push(this.#string() ?? "");
    return out;
  }

  #string(): string | null {
    const ref = this.#word();
    if (ref === 0) return null;
    const ends = this.#x.textEnds;
    const k = ref - 1;
    if (k >= ends.length) throw new RangeError(`Extras string ${k} out of range`);
    return this.#text.slice(k === 0 ? 0 : ends[k - 1], ends[k]);
  }
}

/**
 * Every page's extras as `[pageIndex, extras]`, ascending: the inverse of
 * {@linkcode packExtras}.
 *
 * @param x The columns, or null.
 * @returns The list (empty for null).
 */
export function extrasEntries(x: PackedExtras | null): [number, PageExtrasData][] {
  if (x === null) return [];
  const reader = new ExtrasReader(x);
  const out: [number, PageExtrasData][] = [];
  for (let i = 0; i + 1 < x.pageStarts.length; i++) {
    const extras = reader.page(i);
    if (extras !== null) out.push([i, extras]);
  }
  return out;
}
