/**
 * The reading side of kept extensions ({@linkcode KeptExtras}): a page's
 * extensions are decoded from its sitemap's kept bytes when first read,
 * straight into what the reader hands out (`_kept_decode.ts`: the public
 * objects, or plain data), a small run of pages at a time; a run read again
 * after its objects were let go is decoded into its values (its strings
 * joined into one text), which are kept and serve every later read — or,
 * past a budget for all values, into the encoded columns
 * ({@linkcode EncodedExtras}, a megabyte of spans at a time). A sitemap
 * whose extensions are never read never decodes them.
 *
 * Decoding reads the kept spans as urlsets of their own — the root's start
 * tag, then one `<url>` per page with a span — with the byte walker, or
 * with the general reader when the walker declines; either reads the
 * blocks as the general reader would have read the original document.
 *
 * @module
 */
import { NO_CHECKPOINT } from "../_checkpoint.ts";
import { detachBuffer } from "../_detach.ts";
import { extrasEntries, ExtrasReader } from "./_extras.ts";
import type {
  AlternateData,
  EncodedExtras,
  ImageData,
  KeptExtras,
  NewsStoryData,
  PackedExtras,
  PageExtrasData,
  VideoData,
} from "./_result.ts";
import { extrasOf } from "./_urlset_tokens.ts";
import { ownBytes, syncZlib } from "./_sync_zlib.ts";
import { parseBase } from "./_url.ts";
import type { Mutable } from "./_reader.ts";
import { readUrlsetBytes } from "./_urlset_bytes.ts";
import {
  type DecodedPages,
  decodeKeptDocument,
  type KeptFactory,
  SpanDecoder,
  type SpanTags,
  spanTags,
} from "./_kept_decode.ts";
import { type NormalBase, normalBase } from "./_normalize_url.ts";
import { parseSitemapGeneral } from "./parse_sitemap.ts";

/**
 * How many sitemaps' kept extensions have been read, how many runs of
 * their pages decoded, how many of those into values kept (read again),
 * how many megabytes into encoded columns (read again, with no room for
 * values), how many pages the span decoder handed to the byte walker, and
 * how many runs the byte walker declined (read the general way): for tests
 * and benchmarks.
 */
export const keptExtrasStats: {
  decodes: number;
  runs: number;
  kept: number;
  columns: number;
  walked: number;
  declined: number;
} = { decodes: 0, runs: 0, kept: 0, columns: 0, walked: 0, declined: 0 };

/** Reads pages' extensions by page index, in any order. */
export interface PageExtrasReader {
  /** Whether page `i` has any extension data. */
  has(i: number): boolean;
  /** Page `i`'s extensions as fresh objects, or null when it has none. */
  page(i: number): PageExtrasData | null;
}

/** Kept extensions decoded into plain data, as the encoded columns read. */
const KEPT_DATA: KeptFactory<
  PageExtrasData,
  NewsStoryData,
  ImageData,
  VideoData,
  AlternateData
> = {
  image: (loc, caption, geoLocation, title, license) => ({
    loc,
    caption,
    geoLocation,
    title,
    license,
  }),
  alternate: (hreflang, href) => ({ hreflang, href }),
  news: (data) => data,
  video: (data) => data,
  // Called for pages with something in them, so never null.
  page: (news, images, videos, alternates) => extrasOf(news, images, videos, alternates)!,
  fromData: (data) => data,
};

/** Kept extensions read as plain data, a run of pages at a time. */
class KeptDataReader implements PageExtrasReader {
  readonly #r: KeptRuns<PageExtrasData>;

  constructor(x: KeptExtras) {
    this.#r = keptReader(x, KEPT_DATA);
    // Inflated now, so that damaged bytes fail here.
    inflated.of(x);
  }

  has(i: number): boolean {
    return this.#r.page(i) !== null;
  }

  page(i: number): PageExtrasData | null {
    return this.#r.page(i);
  }
}

/**
 * A reader of a sitemap's extensions as plain data: over the encoded
 * columns, or over its kept bytes (see {@linkcode KeptRuns.page}).
 *
 * @param x The extensions in either form.
 * @returns The reader, page indices as in `x`.
 * @throws {Error} When the kept bytes cannot be read (damaged, or no
 * `node:zlib` to inflate them).
 */
export function extrasReader(x: PackedExtras): PageExtrasReader {
  return x.kind !== "kept" ? new ExtrasReader(x) : new KeptDataReader(x);
}

/**
 * Every page's extensions, `[pageIndex, extras][]` in page order, pages
 * without any left out (as {@linkcode extrasEntries} lists encoded ones).
 *
 * @param x The extensions in either form, or null.
 * @returns The list (empty for null).
 */
export function pageExtrasEntries(x: PackedExtras | null): [number, PageExtrasData][] {
  if (x === null) return [];
  if (x.kind !== "kept") return extrasEntries(x);
  const reader = extrasReader(x);
  const out: [number, PageExtrasData][] = [];
  for (let i = 0; i + 1 < x.pageStarts.length; i++) {
    const extras = reader.page(i);
    if (extras !== null) out.push([i, extras]);
  }
  return out;
}

/**
 * The bytes kept extensions' spans are offsets in (`spanAt`), inflated, for
 * a reader that compares two sitemaps' spans page by page, or decodes
 * them a run at a time: the last few are remembered, for as long as the
 * cache lives.
 */
export class KeptBytes {
  readonly #entries: { x: KeptExtras; bytes: Uint8Array }[] = [];
  readonly #size: number;

  /** @param size How many sitemaps' bytes to remember. */
  constructor(size = 2) {
    this.#size = size;
  }

  /**
   * @param x Kept extensions.
   * @returns Their inflated bytes.
   */
  of(x: KeptExtras): Uint8Array {
    for (const entry of this.#entries) if (entry.x === x) return entry.bytes;
    const bytes = inflate(x);
    this.#entries.unshift({ x, bytes });
    if (this.#entries.length > this.#size) {
      // Freed now: a traversal inflates sitemap after sitemap, and sitemap-sized
      // buffers left for the collector pile up (callers use the bytes only
      // inside one call).
      const old = this.#entries.pop()!;
      // (Inflated into a buffer one byte longer: see inflate().)
      if (old.bytes !== old.x.data) detachBuffer(old.bytes, { slackBytes: 1 });
    }
    return bytes;
  }
}

function inflate(x: KeptExtras): Uint8Array {
  if (x.codec === "none") return x.data;
  const zlib = syncZlib();
  if (zlib === null) {
    throw new Error(`Reading kept extensions needs node:zlib, which this runtime does not provide`);
  }
  // One output chunk a byte larger than the bytes: inflated in one call, with no
  // chunks to concatenate and no copy.
  const options = { chunkSize: Math.max(64, x.size + 1) };
  const bytes = x.codec === "gzip"
    ? zlib.gunzipSync(x.data, options)
    : zlib.inflateRawSync(x.data, options);
  if (bytes.length !== x.size) {
    throw new Error(
      `Kept extensions are damaged: they inflate to ${bytes.length} bytes, not ${x.size}`,
    );
  }
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === options.chunkSize
    ? new Uint8Array(bytes.buffer, 0, x.size)
    : ownBytes(bytes);
}

const encoder = new TextEncoder();
const URL_OPEN = encoder.encode("<url><loc>https://kept.invalid/");
const LOC_CLOSE = encoder.encode("</loc>");
const URL_CLOSE = encoder.encode("</url>\n");

/** The qualified name of the root whose start tag is `root`. */
function rootName(root: Uint8Array): Uint8Array {
  let e = 1;
  while (e < root.length && root[e]! > 0x20 && root[e] !== 0x3e && root[e] !== 0x2f) e++;
  return root.subarray(1, e);
}

/**
 * Runs of pages whose spans are decoded together: `[firsts[k], firsts[k + 1])`,
 * about `bytes` of spans each.
 */
function runsOf(x: KeptExtras, bytes: number): number[] {
  const starts = x.pageStarts;
  const count = starts.length - 1;
  const firsts: number[] = [];
  for (let first = 0; first < count;) {
    let end = first;
    while (end < count && starts[end + 1]! - starts[first]! <= bytes) end++;
    if (end === first) end++;
    firsts.push(first);
    first = end;
  }
  firsts.push(count);
  return firsts;
}

/** The run of `firsts` holding page i, searched from run `k` (pages are mostly read in order). */
function runAt(firsts: readonly number[], k: number, i: number): number {
  if (k >= firsts.length - 1 || firsts[k]! > i) k = 0;
  while (k + 2 < firsts.length && firsts[k + 1]! <= i) k++;
  return k;
}

/**
 * Span bytes decoded into encoded columns at a time: each run of pages is
 * read as a small document of its own, so decoding never holds a
 * sitemap-sized copy.
 */
const CHUNK_BYTES = 1 << 20;

/**
 * Span bytes decoded into objects at a time: small, so that a traversal's
 * objects die young (a run's objects live while its pages are read), as
 * those built from columns page by page do.
 */
const PAGE_RUN_BYTES = 32 << 10;

/** The inflated bytes of the two sitemaps read last (two trees compared), shared by every reader. */
const inflated = new KeptBytes(2);

/**
 * What a run read a second time keeps, for every later read to build its
 * objects from without decoding: its values' strings joined into one
 * text (a slice each, as the packed URLs are read), and each page's
 * counts. Nothing in it refers to the run's decoded text, so that text goes.
 */
interface RunValues {
  /**
   * The strings (each image's five fields, each alternate's two, the news
   * story's and each video's data as JSON but for their numbers, page by
   * page) joined, as UTF-8: half the joined string's size when that would
   * take two bytes a character, and outside the collector's heap.
   */
  readonly text: Uint8Array;
  /** Where each string ends in the joined string; `~end` (negative) for a null. */
  readonly ends: Int32Array;
  /** Per page of the run: images, alternates, videos, and 1 when it has a news story. */
  readonly counts: Uint16Array;
  /**
   * The news stories' and videos' numbers, which JSON cannot hold when NaN
   * or infinite: a story's publishDate; a video's duration, expirationDate,
   * rating, viewCount and publicationDate (NaN for a null).
   */
  readonly numbers: Float64Array;
}

const utf8 = new TextEncoder();
/** Keeps a leading U+FEFF: the offsets count it. */
const joinedDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A number {@linkcode RunValues.numbers} holds for a field that may be null (and is never NaN). */
function numberOrNaN(value: number | null): number {
  return value === null ? NaN : value;
}

function numberOrNull(value: number): number | null {
  return value === value ? value : null;
}

/**
 * The values of a run's pages, as {@linkcode KEPT_DATA} decoded them; null
 * when a page has more of one kind than a count can hold (such a run is
 * read from the encoded columns).
 */
function runValues(pages: DecodedPages<PageExtrasData>): RunValues | null {
  const strings: (string | null)[] = [];
  const numbers: number[] = [];
  const counts = new Uint16Array(pages.length * 4);
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p];
    if (page == null) continue;
    const images = page.images ?? [];
    const alternates = page.alternates ?? [];
    const videos = page.videos ?? [];
    if (Math.max(images.length, alternates.length, videos.length) > 0xffff) return null;
    for (const image of images) {
      strings.push(image.loc, image.caption, image.geoLocation, image.title, image.license);
    }
    for (const alternate of alternates) strings.push(alternate.hreflang, alternate.href);
    const news = page.newsStory;
    if (news != null) {
      strings.push(JSON.stringify(news));
      numbers.push(news.publishDate);
    }
    for (const video of videos) {
      strings.push(JSON.stringify(video));
      numbers.push(
        numberOrNaN(video.duration),
        video.expirationDate,
        numberOrNaN(video.rating),
        numberOrNaN(video.viewCount),
        video.publicationDate,
      );
    }
    counts[p * 4] = images.length;
    counts[p * 4 + 1] = alternates.length;
    counts[p * 4 + 2] = videos.length;
    counts[p * 4 + 3] = page.newsStory != null ? 1 : 0;
  }
  const ends = new Int32Array(strings.length);
  for (let k = 0, at = 0; k < strings.length; k++) {
    const value = strings[k];
    if (value === null) {
      ends[k] = ~at;
    } else {
      at += value!.length;
      ends[k] = at;
    }
  }
  // Array.prototype.join reads null as "".
  return {
    text: utf8.encode(strings.join("")),
    ends,
    counts,
    numbers: new Float64Array(numbers),
  };
}

/** Builds a run's pages with `f` from its kept values. */
function pagesFromValues<E>(v: RunValues, f: KeptFactory<E>): DecodedPages<E> {
  const { ends, counts, numbers } = v;
  // The joined string again, so the offsets hold.
  const text = joinedDecoder.decode(v.text);
  const count = counts.length / 4;
  const pages: DecodedPages<E> = new Array(count).fill(null);
  let k = 0;
  let at = 0;
  let q = 0;
  /** The next string. */
  const next = (): string | null => {
    const end = ends[k++]!;
    if (end < 0) return null;
    const value = text.slice(at, end);
    at = end;
    return value;
  };
  for (let p = 0; p < count; p++) {
    const imageCount = counts[p * 4]!;
    const alternateCount = counts[p * 4 + 1]!;
    const videoCount = counts[p * 4 + 2]!;
    const hasNews = counts[p * 4 + 3] === 1;
    if (imageCount + alternateCount + videoCount === 0 && !hasNews) continue;
    let images: unknown[] | null = null;
    let alternates: unknown[] | null = null;
    let videos: unknown[] | null = null;
    if (imageCount > 0) {
      images = [];
      for (let n = 0; n < imageCount; n++) {
        images.push(f.image(next()!, next(), next(), next(), next()));
      }
    }
    if (alternateCount > 0) {
      alternates = [];
      for (let n = 0; n < alternateCount; n++) alternates.push(f.alternate(next()!, next()!));
    }
    let news = null;
    if (hasNews) {
      const data: Mutable<NewsStoryData> = JSON.parse(next()!);
      data.publishDate = numbers[q++]!;
      news = f.news(data);
    }
    if (videoCount > 0) {
      videos = [];
      for (let n = 0; n < videoCount; n++) {
        const data: Mutable<VideoData> = JSON.parse(next()!);
        data.duration = numberOrNull(numbers[q++]!);
        data.expirationDate = numbers[q++]!;
        data.rating = numberOrNull(numbers[q++]!);
        data.viewCount = numberOrNull(numbers[q++]!);
        data.publicationDate = numbers[q++]!;
        videos.push(f.video(data));
      }
    }
    pages[p] = f.page(news, images, videos, alternates);
  }
  return pages;
}

/**
 * The bytes the kept values of every sitemap read may take together (see
 * {@linkcode KeptRuns.page}): past the limit, a run read again is decoded
 * into the encoded columns instead, a fraction of the size but several
 * times slower to build. Given back as readers are collected. `limit` may
 * be changed (tests, benchmarks).
 */
export const keptValuesBudget: { limit: number; used: number } = { limit: 80 << 20, used: 0 };

const refund = new FinalizationRegistry<{ bytes: number }>((kept) => {
  keptValuesBudget.used -= kept.bytes;
});

/** A sitemap's kept extensions, as one factory's reader decodes them. */
export class KeptRuns<E> {
  readonly #x: KeptExtras;
  readonly #f: KeptFactory<E>;
  /** Runs of {@linkcode PAGE_RUN_BYTES}, decoded into objects. */
  readonly #firsts: number[];
  /** Per run: 1 once read, 2 when read again but too large to keep as values. */
  readonly #read: Uint8Array;
  /** The values of runs read twice, kept. */
  readonly #values: (RunValues | null)[];
  /** Their bytes, given back to {@linkcode keptValuesBudget} when this reader goes. */
  readonly #keptBytes = { bytes: 0 };
  /**
   * Runs of {@linkcode CHUNK_BYTES} whose runs are read again without room
   * to keep their values: decoded into the encoded columns, compact and
   * kept, so that later reads cost what an eager sitemap's do.
   */
  readonly #columnFirsts: number[];
  readonly #columns: (ExtrasReader | null)[];
  #lastColumns = 0;
  /** The run whose objects are held, and its pages. */
  #held = -1;
  #pages: DecodedPages<E> = [];
  #lastRun = 0;
  /** What reading the spans needs: the root's block tags, the base URL in both forms. */
  readonly #tags: SpanTags | null;
  readonly #base: URL | null;
  readonly #normalBase: NormalBase | null;

  constructor(x: KeptExtras, f: KeptFactory<E>) {
    this.#x = x;
    this.#f = f;
    this.#tags = spanTags(x.root);
    this.#base = parseBase(x.base);
    this.#normalBase = normalBase(this.#base);
    this.#firsts = runsOf(x, PAGE_RUN_BYTES);
    this.#read = new Uint8Array(this.#firsts.length - 1);
    this.#values = new Array(this.#firsts.length - 1).fill(null);
    this.#columnFirsts = runsOf(x, CHUNK_BYTES);
    this.#columns = new Array(this.#columnFirsts.length - 1).fill(null);
  }

  /**
   * Page `i`'s extensions. The first read decodes the small run of pages
   * around it straight into objects (inflating the sitemap's bytes if they
   * are not at hand), held while that run is read; a run read again after
   * its objects were let go is decoded into its values (its strings joined
   * into one text, and its pages' counts), kept, from which that read and
   * every later one build the objects without decoding — while the values
   * kept fit in {@linkcode keptValuesBudget}; past it, its megabyte of
   * spans is decoded into the encoded columns (compact, slower to build),
   * kept from then on. A page's extensions are the same objects while its
   * run is held (and a page object keeps those it was given).
   *
   * @param i A page index.
   * @returns The page's extensions, or null when it has none.
   * @throws {Error} When the kept bytes cannot be read (damaged, or no
   * `node:zlib` to inflate them).
   */
  page(i: number): E | null {
    const x = this.#x;
    if (!(x.pageStarts[i + 1]! > x.pageStarts[i]!)) return null;
    const k = this.#lastRun = runAt(this.#firsts, this.#lastRun, i);
    const first = this.#firsts[k]!;
    if (k !== this.#held) {
      const end = this.#firsts[k + 1]!;
      const values = this.#values[k] ?? null;
      if (values !== null) {
        this.#pages = pagesFromValues(values, this.#f);
      } else if (this.#read[k] === 0) {
        this.#pages = this.#decodeRun(inflated.of(x), first, end, this.#f);
        this.#read[k] = 1;
        keptExtrasStats.runs++;
      } else if (this.#read[k] === 1 && keptValuesBudget.used < keptValuesBudget.limit) {
        // Read again: decoded into its values, kept.
        const data = this.#decodeRun(inflated.of(x), first, end, KEPT_DATA);
        keptExtrasStats.runs++;
        // This read's objects from the data at hand; later reads' from the values.
        this.#pages = data.map((d) => d === null ? null : this.#f.fromData(d));
        const kept = this.#values[k] = runValues(data);
        if (kept !== null) {
          keptExtrasStats.kept++;
          const bytes = kept.text.byteLength + kept.ends.byteLength + kept.counts.byteLength +
            kept.numbers.byteLength;
          if (this.#keptBytes.bytes === 0) refund.register(this, this.#keptBytes);
          this.#keptBytes.bytes += bytes;
          keptValuesBudget.used += bytes;
        } else {
          // Too large to keep as values: read from the columns from now on.
          this.#read[k] = 2;
        }
      } else {
        return this.#fromColumns(i);
      }
      this.#held = k;
    }
    return this.#pages[i - first] ?? null;
  }

  /**
   * Page `i`'s extensions from the encoded columns of its megabyte of
   * spans, decoded into them when first needed and kept: for runs read
   * again that do not keep their values.
   */
  #fromColumns(i: number): E | null {
    const x = this.#x;
    const c = this.#lastColumns = runAt(this.#columnFirsts, this.#lastColumns, i);
    const first = this.#columnFirsts[c]!;
    let columns = this.#columns[c];
    if (columns == null) {
      const end = this.#columnFirsts[c + 1]!;
      columns = this.#columns[c] = new ExtrasReader(
        decodeRun(x, inflated.of(x), first, end, this.#base),
      );
      keptExtrasStats.columns++;
    }
    const data = columns.page(i - first);
    return data === null ? null : this.#f.fromData(data);
  }

  /**
   * The extensions of pages `[first, end)`, indexed from `first`: each
   * page's span read by the span decoder, and the pages it declines
   * together by the byte walker (or the general reader), as before.
   */
  #decodeRun<T>(
    bytes: Uint8Array,
    first: number,
    end: number,
    f: KeptFactory<T>,
  ): DecodedPages<T> {
    const x = this.#x;
    const starts = x.pageStarts;
    const at = x.spanAt;
    const pages: DecodedPages<T> = new Array(end - first).fill(null);
    const tags = this.#tags;
    if (tags === null) {
      walkPages(x, f, bytes, withSpans(x, first, end), this.#base, pages, first);
      return pages;
    }
    // The run's spans as one text of their own, aligned for the text's
    // four-bytes-at-a-time scan: deflated spans follow each other (one
    // copy); in a gzip body the core fields lie between them (and in
    // spans a since filter picked, the pages it left out), which would be
    // decoded as text too, so each span is copied after the last.
    const total = starts[end]! - starts[first]!;
    let lo = bytes.length;
    let hi = 0;
    for (let p = first; p < end; p++) {
      if (starts[p + 1]! === starts[p]!) continue;
      lo = Math.min(lo, at[p]!);
      hi = Math.max(hi, at[p]! + starts[p + 1]! - starts[p]!);
    }
    const gathered = hi - lo !== total;
    const text = gathered ? gatherRun(x, bytes, first, end, total) : bytes.slice(lo, hi);
    const spans = new SpanDecoder(f, tags, text, this.#base, this.#normalBase);
    // The pages it declines, read by the walker together.
    let declined: number[] | null = null;
    for (let p = first; p < end; p++) {
      const length = starts[p + 1]! - starts[p]!;
      if (length === 0) continue;
      const a = gathered ? starts[p]! - starts[first]! : at[p]! - lo;
      const read = spans.page(a, a + length);
      if (read === undefined) (declined ??= []).push(p);
      else pages[p - first] = read;
    }
    if (declined !== null) walkPages(x, f, bytes, declined, this.#base, pages, first);
    return pages;
  }
}

/**
 * The spans of pages `[first, end)` copied one after another into a buffer
 * of `total` bytes, in page order (as {@linkcode KeptExtras.pageStarts}
 * counts them).
 */
function gatherRun(
  x: KeptExtras,
  bytes: Uint8Array,
  first: number,
  end: number,
  total: number,
): Uint8Array {
  const starts = x.pageStarts;
  const at = x.spanAt;
  const text = new Uint8Array(total);
  for (let p = first, o = 0; p < end; p++) {
    const n = starts[p + 1]! - starts[p]!;
    if (n === 0) continue;
    text.set(bytes.subarray(at[p]!, at[p]! + n), o);
    o += n;
  }
  return text;
}

/** Each factory's readers, by kept extensions. */
const readers = new WeakMap<KeptFactory<unknown>, WeakMap<KeptExtras, KeptRuns<unknown>>>();

/**
 * The reader of `x` that hands out what `f` builds: one per sitemap and
 * factory, so that every reader shares what is decoded (see
 * {@linkcode KeptRuns.page}).
 *
 * @param x Kept extensions.
 * @param f Builds what is handed out.
 * @returns The reader.
 */
export function keptReader<E>(x: KeptExtras, f: KeptFactory<E>): KeptRuns<E> {
  let byX = readers.get(f);
  if (byX === undefined) readers.set(f, byX = new WeakMap());
  let r = byX.get(x) as KeptRuns<E> | undefined;
  if (r === undefined) {
    byX.set(x, r = new KeptRuns(x, f));
    keptExtrasStats.decodes++;
  }
  return r;
}

/**
 * Reads the pages `list` (with spans, in order) the byte walker's way:
 * those the span decoder declined. Fills `out` (indexed from `runFirst`).
 */
function walkPages<E>(
  x: KeptExtras,
  f: KeptFactory<E>,
  bytes: Uint8Array,
  list: readonly number[],
  base: URL | null,
  out: DecodedPages<E>,
  runFirst: number,
): void {
  if (list.length === 0) return;
  const doc = syntheticRun(x, bytes, list);
  keptExtrasStats.walked += list.length;
  const read = decodeKeptDocument(doc, base, f);
  detachBuffer(doc);
  if (read === null) {
    // Declined by the byte walker: read the general way, as before.
    keptExtrasStats.declined++;
    const first = list[0]!;
    const reader = new ExtrasReader(decodeRun(x, bytes, first, list.at(-1)! + 1, base));
    for (const p of list) {
      const data = reader.page(p - first);
      if (data !== null) out[p - runFirst] = f.fromData(data);
    }
    return;
  }
  if (read.length !== list.length) throw damaged(list.length, `${read.length} pages`);
  for (let rank = 0; rank < list.length; rank++) out[list[rank]! - runFirst] = read[rank]!;
}

/** The pages of `[first, end)` that have spans. */
function withSpans(x: KeptExtras, first: number, end: number): number[] {
  const starts = x.pageStarts;
  const list: number[] = [];
  for (let p = first; p < end; p++) if (starts[p + 1]! > starts[p]!) list.push(p);
  return list;
}

function damaged(withSpans: number, readAs: string): Error {
  return new Error(`Kept extensions are damaged: ${withSpans} pages' blocks read as ${readAs}`);
}

/**
 * The pages `list` (with spans, in order) as a urlset of their own: the
 * root's start tag, a `<url>` per page (a `<loc>` of its own, then its
 * span), the root's end tag.
 */
function syntheticRun(x: KeptExtras, bytes: Uint8Array, list: readonly number[]): Uint8Array {
  const starts = x.pageStarts;
  const name = rootName(x.root);
  let spans = 0;
  for (const p of list) spans += starts[p + 1]! - starts[p]!;
  const perPage = URL_OPEN.length + 10 + LOC_CLOSE.length + URL_CLOSE.length;
  const doc = new Uint8Array(x.root.length + spans + list.length * perPage + name.length + 3);
  doc.set(x.root, 0);
  let o = x.root.length;
  for (let n = 0; n < list.length; n++) {
    const p = list[n]!;
    const length = starts[p + 1]! - starts[p]!;
    doc.set(URL_OPEN, o);
    o += URL_OPEN.length;
    // The page's rank in the list, so that every <loc> differs.
    for (let digits = String(n), k = 0; k < digits.length; k++) {
      doc[o++] = digits.charCodeAt(k);
    }
    doc.set(LOC_CLOSE, o);
    o += LOC_CLOSE.length;
    const a = x.spanAt[p]!;
    doc.set(bytes.subarray(a, a + length), o);
    o += length;
    doc.set(URL_CLOSE, o);
    o += URL_CLOSE.length;
  }
  doc[o++] = 0x3c;
  doc[o++] = 0x2f;
  doc.set(name, o);
  o += name.length;
  doc[o++] = 0x3e;
  return doc.subarray(0, o);
}

/** The extensions of pages `[first, end)`, read as a urlset of their own; page indices from `first`. */
function decodeRun(
  x: KeptExtras,
  bytes: Uint8Array,
  first: number,
  end: number,
  base: URL | null,
): EncodedExtras {
  const starts = x.pageStarts;
  const count = end - first;
  const list = withSpans(x, first, end);
  const synthetic = syntheticRun(x, bytes, list);
  const result = readUrlsetBytes(synthetic, base, NaN, NO_CHECKPOINT) ??
    parseSitemapGeneral(synthetic, { url: x.base });
  detachBuffer(synthetic);
  if (result.kind !== "pages" || result.pages.count !== list.length) {
    throw damaged(
      list.length,
      result.kind === "pages"
        ? `${result.pages.count} pages`
        : result.kind === "invalid"
        ? result.reason
        : "an index",
    );
  }
  const built = result.pages;
  // The synthetic pages' columns (each sliced into a buffer of its own) are not needed.
  for (
    const column of [
      built.urlBytes,
      built.urlEnds,
      built.lastModified,
      built.priority,
      built.changeFrequency,
    ]
  ) detachBuffer(column);
  const read = built.extras;
  if (read !== null && read.kind === "kept") throw new Error("Kept extensions read as kept");
  // Renumbered from the synthetic pages to the run's.
  const pageStarts = new Uint32Array(count + 1);
  for (let p = 0, rank = 0; p < count; p++) {
    if (starts[first + p + 1]! > starts[first + p]!) {
      rank++;
      pageStarts[p + 1] = read === null ? 0 : read.pageStarts[rank]!;
    } else {
      pageStarts[p + 1] = pageStarts[p]!;
    }
  }
  const empty = new Uint8Array(0);
  return read === null
    ? { dictText: empty, dictEnds: new Uint32Array(0), data: empty, pageStarts }
    : { dictText: read.dictText, dictEnds: read.dictEnds, data: read.data, pageStarts };
}
