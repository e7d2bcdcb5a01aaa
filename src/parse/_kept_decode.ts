/**
 * Decodes kept extension blocks ({@linkcode KeptExtras}) straight into what
 * a reader hands out — the public objects, or plain data — with no records,
 * string table or packed columns in between. The span decoder
 * ({@linkcode SpanDecoder}) reads each page's span straight from its bytes
 * when its blocks take the common forms; the pages it declines are read by
 * the byte walker ({@linkcode readXmlBytes}) under the root's start tag and
 * the `<url>` automaton ({@linkcode UrlNesting}) that the other urlset
 * readers share. Either takes each field's value from the same value
 * readers ({@linkcode KeptValues}, `_urlset_fields.ts`) applied to the same
 * bytes. A run the walker declines is read by the caller the general way.
 *
 * @module
 */
import { NO_CHECKPOINT } from "../_checkpoint.ts";
import { plainAscii, skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";
import { alternateLink, elementCode, hasTabOrBreak } from "./_urlset_bytes.ts";
import {
  KEEP_FRAGMENT,
  type NormalBase,
  normalBase,
  normalizedRoom,
  normalizeUrlBytes,
  RAW_XML,
} from "./_normalize_url.ts";
import { normalRawUrl } from "./_pack.ts";
import { MAX_FIELD_LENGTH, type Mutable, textOrNull } from "./_reader.ts";
import { Ns, type NsKind, nsKind } from "./_ns.ts";
import type { NewsStoryData, PageExtrasData, ParseResult, VideoData } from "./_result.ts";
import { resolveDataUrl } from "./_url.ts";
import {
  F_IMAGE_CAPTION,
  F_IMAGE_GEO,
  F_IMAGE_LICENSE,
  F_IMAGE_LOC,
  IMAGE_FIELDS,
  newNews,
  NEWS_FIELDS,
  NEWS_PUBLICATION_FIELDS,
  newVideo,
  setNewsField,
  setVideoField,
  VIDEO_FIELDS,
  type VideoBeingRead,
} from "./_urlset_fields.ts";
import { LINK, UrlNesting } from "./_urlset_nesting.ts";
import {
  attributeValue,
  type ByteReader,
  cdataText,
  decodeBytes,
  type DocumentText,
  type ElementName,
  readXmlBytes,
  scanAttributes,
  textEnd,
  TextWindow,
  WholeText,
} from "./_xml_bytes.ts";

/**
 * What a decoded page's extensions are made of: the caller's own objects
 * (the public classes, or plain data), built as each block closes.
 */
export interface KeptFactory<E, N = unknown, I = unknown, V = unknown, A = unknown> {
  /** An image with a location. */
  image(
    loc: string,
    caption: string | null,
    geoLocation: string | null,
    title: string | null,
    license: string | null,
  ): I;
  /** An alternate. */
  alternate(hreflang: string, href: string): A;
  /** A news story (its data is not reused). */
  news(data: NewsStoryData): N;
  /** A video (its data is not reused). */
  video(data: VideoData): V;
  /** A page's extensions; lists are null when empty, and fresh otherwise. */
  page(news: N | null, images: I[] | null, videos: V[] | null, alternates: A[] | null): E;
  /** A page's extensions from data read the general way (the fallback). */
  fromData(data: PageExtrasData): E;
}

/** The pages of a run, each its extensions or null when it has none. */
export type DecodedPages<E> = (E | null)[];

/** What {@linkcode KeptReader.finish} tells the walker. */
const DONE: ParseResult = { kind: "invalid", reason: "decoded" };

/**
 * The value readers of kept extension fields, shared by the walker's reader
 * and the span decoder so that both give a field's bytes the same value.
 */
class KeptValues {
  readonly #base: URL | null;
  readonly #normalBase: NormalBase | null;
  /** The text of the bytes the offsets are in. */
  readonly window: DocumentText;

  constructor(base: URL | null, normal: NormalBase | null, window: DocumentText) {
    this.#base = base;
    this.#normalBase = normal;
    this.window = window;
  }

  /**
   * An extension URL from an element's text or an attribute's value as
   * written, as {@linkcode resolveDataUrl} gives it from its text: as it
   * stands (`&amp;` unescaped) when it is already normal, else normalised
   * from its bytes, else resolved from its text.
   */
  url(b: Uint8Array, a: number, e: number, attribute: boolean): string | null {
    const w = this.window;
    const s = skipSpace(b, a, e);
    const t = trimSpaceEnd(b, s, e);
    if (s < t) {
      const kind = normalRawUrl(b, s, t);
      if (kind === 1) return w.decode(s, t);
      if (kind === 2) return w.decode(s, t).replaceAll("&amp;", "&");
    }
    if (!attribute || !hasTabOrBreak(b, a, e)) {
      const room = normalizedRoom(e - a, this.#normalBase);
      if (normalized.length < room) normalized = new Uint8Array(room * 2);
      const out = normalized;
      const end = normalizeUrlBytes(b, a, e, out, 0, this.#normalBase, RAW_XML | KEEP_FRAGMENT);
      if (end >= 0) return String.fromCharCode.apply(null, out.subarray(0, end) as never);
    }
    return resolveDataUrl(attribute ? w.attribute(a, e) : w.run(a, e), this.#base);
  }

  /** An extension URL from a CDATA section's content. */
  cdataUrl(b: Uint8Array, a: number, e: number): string | null {
    return resolveDataUrl(cdataText(b, a, e), this.#base);
  }

  /** A text field from one run of bytes, as {@linkcode textOrNull} reads its text. */
  text(b: Uint8Array, a: number, e: number): string | null {
    if (!plainAscii(b, a, e, 0x0d)) return textOrNull(this.window.run(a, e));
    a = skipSpace(b, a, e);
    e = trimSpaceEnd(b, a, e);
    return a === e ? null : this.window.decode(a, e);
  }

  /** A video field from its text. */
  video(video: VideoBeingRead, field: number, text: string): void {
    setVideoField(video, field, text, this.#base);
  }

  /** An image URL field (loc, license) from its text. */
  textUrl(text: string): string | null {
    return resolveDataUrl(text, this.#base);
  }
}

/** Room for URLs normalised from their bytes, grown as needed; one thread reads at a time. */
let normalized = new Uint8Array(1024);

/** Reads a synthetic urlset of spans into one entry per `<url>`. */
class KeptReader<E> extends UrlNesting implements ByteReader {
  readonly #f: KeptFactory<E>;
  readonly #rootNs: string;
  readonly #values: KeptValues;
  readonly #window: DocumentText;
  readonly out: DecodedPages<E>;

  #news: Mutable<NewsStoryData> | null = null;
  #images: unknown[] | null = null;
  #videos: unknown[] | null = null;
  #alternates: unknown[] | null = null;
  #video: VideoBeingRead | null = null;
  #inImage = false;
  #loc: string | null = null;
  #caption: string | null = null;
  #geo: string | null = null;
  #title: string | null = null;
  #license: string | null = null;

  constructor(
    f: KeptFactory<E>,
    rootNs: string,
    base: URL | null,
    doc: Uint8Array,
    out: DecodedPages<E>,
  ) {
    super();
    this.#f = f;
    this.#rootNs = rootNs;
    this.#window = WholeText.of(doc) ?? new TextWindow(doc);
    this.#values = new KeptValues(base, normalBase(base), this.#window);
    this.out = out;
  }

  start(d: number, name: ElementName, b: Uint8Array, attrs: readonly number[]): number {
    const field = this.nestedStart(d, elementCode(name, this.#rootNs));
    return field !== LINK ? field : this.#link(b, attrs);
  }

  protected override openUrl(): void {
    this.#news = null;
    this.#images = this.#videos = this.#alternates = null;
  }

  protected override openNews(): void {
    this.#news ??= newNews();
  }

  protected override openImage(): void {
    this.#loc =
      this.#caption =
      this.#geo =
      this.#title =
      this.#license =
        null;
    this.#inImage = true;
  }

  protected override openVideo(): void {
    this.#video = newVideo();
  }

  /** An `xhtml:link`'s attributes, read as the byte-level urlset reader reads them. */
  #link(b: Uint8Array, out: readonly number[]): number {
    const w = this.#window;
    const found = alternateLink(b, out, w);
    if (found <= 0) return found;
    const hreflang = (found & 0xffff) - 1;
    const href = found >>> 16;
    const lang = w.attribute(out[hreflang + 2]!, out[hreflang + 3]!).trim();
    if (lang === "") return 0;
    const url = this.#values.url(b, out[href + 2]!, out[href + 3]!, true);
    if (url !== null) (this.#alternates ??= []).push(this.#f.alternate(lang, url));
    return 0;
  }

  scan(_field: number, b: Uint8Array, from: number): number {
    return textEnd(b, from);
  }

  raw(field: number, b: Uint8Array, a: number, e: number): void {
    if (field < 10) return;
    if (field >= F_IMAGE_LOC && field <= F_IMAGE_LICENSE) {
      if (!this.#inImage) return;
      if (field === F_IMAGE_LOC) this.#loc = this.#values.url(b, a, e, false);
      else if (field === F_IMAGE_LICENSE) this.#license = this.#values.url(b, a, e, false);
      else this.#imageText(field, this.#values.text(b, a, e));
      return;
    }
    this.#field(field, this.#window.run(a, e));
  }

  #imageText(field: number, value: string | null): void {
    if (field === F_IMAGE_LOC + 1) this.#caption = value;
    else if (field === F_IMAGE_LOC + 2) this.#geo = value;
    else this.#title = value;
  }

  cdata(field: number, b: Uint8Array, a: number, e: number): void {
    this.text(field, cdataText(b, a, e));
  }

  text(field: number, text: string): void {
    if (field < 10) return;
    this.#field(field, text);
  }

  /** Any extension field from its text. */
  #field(field: number, text: string): void {
    if (field < 20) {
      if (this.#news !== null) setNewsField(this.#news, field, text);
    } else if (field < 30) {
      if (!this.#inImage) return;
      if (field === F_IMAGE_LOC) this.#loc = this.#values.textUrl(text);
      else if (field === F_IMAGE_LICENSE) this.#license = this.#values.textUrl(text);
      else this.#imageText(field, textOrNull(text));
    } else if (this.#video !== null) {
      this.#values.video(this.#video, field, text);
    }
  }

  end(d: number): void {
    this.nestedEnd(d);
  }

  protected override closeImage(): void {
    // An image without a loc is dropped, as in the other readers.
    if (this.#inImage && this.#loc !== null) {
      (this.#images ??= []).push(
        this.#f.image(this.#loc, this.#caption, this.#geo, this.#title, this.#license),
      );
    }
    this.#inImage = false;
  }

  protected override closeVideo(): void {
    if (this.#video !== null) (this.#videos ??= []).push(this.#f.video(this.#video));
    this.#video = null;
  }

  protected override closeUrl(): void {
    const news = this.#news;
    this.out.push(
      news === null && this.#images === null && this.#videos === null &&
        this.#alternates === null
        ? null
        : this.#f.page(
          news === null ? null : this.#f.news(news),
          this.#images,
          this.#videos,
          this.#alternates,
        ),
    );
  }

  finish(): ParseResult {
    // The pages are in `out`: the walker only needs to hear that it is done.
    return DONE;
  }

  discard(): void {
    this.out.length = 0;
  }
}

/**
 * Decodes a synthetic urlset of kept spans (the root's start tag, one
 * `<url>` per page with a span, the root's end tag) into one entry per
 * `<url>`, in order.
 *
 * @param doc The synthetic document.
 * @param base The sitemap URL, for relative URLs; null if unknown.
 * @param f Builds the objects.
 * @returns One entry per `<url>` (null for a page whose blocks hold
 * nothing), or null when the walker declines the document.
 */
export function decodeKeptDocument<E>(
  doc: Uint8Array,
  base: URL | null,
  f: KeptFactory<E>,
): DecodedPages<E> | null {
  const out: DecodedPages<E> = [];
  const done = readXmlBytes(
    doc,
    "urlset",
    (rootNs) => new KeptReader(f, rootNs, base, doc, out),
    NO_CHECKPOINT,
  );
  return done === null ? null : out;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const COLON = 0x3a;
const EQUALS = 0x3d;
const DQUOTE = 0x22;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

function spaceFrom(b: Uint8Array, i: number, e: number): number {
  while (i < e && isSpace(b[i])) i++;
  return i;
}

/**
 * The index of the first byte `c` from `from`, or -1: a loop over the first
 * bytes (short values: hreflangs, titles), then indexOf, whose call costs
 * more than such a loop.
 */
function find(b: Uint8Array, c: number, from: number): number {
  const short = Math.min(b.length, from + 32);
  for (let i = from; i < short; i++) if (b[i] === c) return i;
  return short < b.length ? b.indexOf(c, short) : -1;
}

/** Whether `b[i, e)` starts with `s`. */
function startsWith(b: Uint8Array, i: number, e: number, s: Uint8Array): boolean {
  const n = s.length;
  if (i + n > e) return false;
  for (let k = 0; k < n; k++) if (b[i + k] !== s[k]) return false;
  return true;
}

/**
 * Whether `b[a, e)` holds only printable ASCII other than `&`: text that
 * attribute normalisation and trimming leave as it stands.
 */
function plainToken(b: Uint8Array, a: number, e: number): boolean {
  for (let i = a; i < e; i++) {
    const c = b[i]!;
    if (c <= 0x20 || c >= 0x7f || c === 0x26) return false;
  }
  return true;
}

/** Local names and their field codes, as bytes. */
type FieldNames = readonly (readonly [Uint8Array, number])[];

function fieldNames(fields: ReadonlyMap<string, number>): FieldNames {
  return [...fields].map(([local, field]) => [encoder.encode(local), field] as const);
}

const encoder = new TextEncoder();
const IMAGE_NAMES = fieldNames(IMAGE_FIELDS);
const NEWS_NAMES = fieldNames(NEWS_FIELDS);
const PUBLICATION_NAMES = fieldNames(NEWS_PUBLICATION_FIELDS);
const VIDEO_NAMES = fieldNames(VIDEO_FIELDS);
/** The core elements a span may hold between its blocks: ignored when read, as the walker's reader ignores them. */
const CORE_NAMES = fieldNames(
  new Map([["loc", 1], ["lastmod", 1], ["changefreq", 1], ["priority", 1]]),
);
const CDATA_OPEN = encoder.encode("<![CDATA[");

/** The field whose local name is `b[a, e)`, or 0. */
function fieldOf(names: FieldNames, b: Uint8Array, a: number, e: number): number {
  const n = e - a;
  for (const [name, field] of names) {
    if (name.length !== n) continue;
    let k = 0;
    while (k < n && b[a + k] === name[k]) k++;
    if (k === n) return field;
  }
  return 0;
}

/**
 * The tags of the blocks the span decoder reads, under the prefixes the
 * root binds to their namespaces (null for a block whose namespace it
 * binds to no prefix, or to more than one).
 */
export interface SpanTags {
  readonly image: Uint8Array | null;
  readonly link: Uint8Array | null;
  readonly news: Uint8Array | null;
  /** `publication` under the news prefix. */
  readonly publication: Uint8Array | null;
  readonly video: Uint8Array | null;
}

/**
 * The prefixes a root's start tag binds to the image, xhtml, news and video
 * namespaces, as the tags the span decoder reads (`image:image`,
 * `xhtml:link`, `news:news`, `video:video` under those prefixes).
 *
 * @param root The root's start tag, as written.
 * @returns The tags; null when the start tag binds a prefix twice or reads oddly.
 */
export function spanTags(root: Uint8Array): SpanTags | null {
  let j = 1;
  while (j < root.length && root[j]! > 0x20 && root[j] !== GT && root[j] !== SLASH) j++;
  const attrs: number[] = [];
  if (scanAttributes(root, j, attrs) === -1) return null;
  const prefixes = new Map<string, NsKind>();
  for (let k = 0; k < attrs.length; k += 4) {
    const name = decodeBytes(root, attrs[k]!, attrs[k + 1]!);
    if (!name.startsWith("xmlns:")) continue;
    const prefix = name.slice(6);
    if (prefixes.has(prefix)) return null;
    prefixes.set(prefix, nsKind(attributeValue(root, attrs[k + 2]!, attrs[k + 3]!)));
  }
  /** The tag `prefix:local` when exactly one prefix is bound to `kind`. */
  const tag = (kind: NsKind, local: string): Uint8Array | null => {
    const bound = [...prefixes].filter(([, k]) => k === kind);
    return bound.length === 1 && /^[A-Za-z_][\w.-]*$/.test(bound[0]![0])
      ? encoder.encode(`${bound[0]![0]}:${local}`)
      : null;
  };
  return {
    image: tag(Ns.Image, "image"),
    link: tag(Ns.Xhtml, "link"),
    news: tag(Ns.News, "news"),
    publication: tag(Ns.News, "publication"),
    video: tag(Ns.Video, "video"),
  };
}

/**
 * Decodes a page's kept span straight from its bytes when its blocks take
 * the common forms: `image:image`, `news:news`, `video:video` and
 * `xhtml:link` (under the root's prefixes) with whitespace between them
 * and the core elements (`<lastmod>` and the like) the walker's reader
 * ignores; each child a name under its block's prefix with no attributes,
 * empty or holding text or one CDATA section; each link's attributes
 * `rel="alternate"`, `hreflang` and `href` in any order, double quoted.
 * Each value comes from the same value readers the walker's reader uses
 * ({@linkcode KeptValues}), so the objects are the same. Anything else
 * (comments, attributes on children, single quotes, nested or unknown
 * elements, other prefixes) is declined: its page is read the walker's way.
 */
export class SpanDecoder<E> {
  readonly #f: KeptFactory<E>;
  readonly #tags: SpanTags;
  readonly #b: Uint8Array;
  readonly #values: KeptValues;
  /** The value range of the field {@linkcode SpanDecoder.#field} read, and whether it was CDATA. */
  #a = 0;
  #e = 0;
  #cdata = false;
  /** Whether the field {@linkcode SpanDecoder.#child} read last was an empty element. */
  #empty = false;
  /** The field {@linkcode SpanDecoder.#child} read last. */
  #field = 0;

  /**
   * @param f Builds the objects.
   * @param tags The root's block tags ({@linkcode spanTags}).
   * @param b The bytes the spans are in (a run's, read as one text).
   * @param base The sitemap URL, for relative URLs; null if unknown.
   * @param normal `base` for the URL normaliser.
   */
  constructor(
    f: KeptFactory<E>,
    tags: SpanTags,
    b: Uint8Array,
    base: URL | null,
    normal: NormalBase | null,
  ) {
    this.#f = f;
    this.#tags = tags;
    this.#b = b;
    this.#values = new KeptValues(base, normal, WholeText.of(b) ?? new TextWindow(b));
  }

  /**
   * The extensions of the span `[a, e)`.
   *
   * @param a Its start.
   * @param e Its end.
   * @returns Them; null when its blocks hold nothing; undefined when declined.
   */
  page(a: number, e: number): E | null | undefined {
    const b = this.#b;
    const f = this.#f;
    const tags = this.#tags;
    let news: Mutable<NewsStoryData> | null = null;
    let images: unknown[] | null = null;
    let alternates: unknown[] | null = null;
    let videos: unknown[] | null = null;
    let i = a;
    for (;;) {
      i = spaceFrom(b, i, e);
      if (i >= e) break;
      if (b[i] !== LT) return undefined;
      const c = b[i + 1];
      const link = tags.link;
      if (link !== null && c === link[0] && startsWith(b, i + 1, e, link)) {
        i = this.#link(b, i + 1 + link.length, e, alternates ??= []);
      } else if (c === tags.image?.[0] && startsWith(b, i + 1, e, tags.image!)) {
        i = this.#image(b, i, e, tags.image!, images ??= []);
      } else if (c === tags.news?.[0] && startsWith(b, i + 1, e, tags.news!)) {
        i = this.#fields(b, i, e, tags.news!, news ??= newNews(), null);
      } else if (c === tags.video?.[0] && startsWith(b, i + 1, e, tags.video!)) {
        const video = newVideo();
        i = this.#fields(b, i, e, tags.video!, null, video);
        (videos ??= []).push(f.video(video));
      } else {
        i = this.#core(b, i, e);
      }
      if (i === -1) return undefined;
    }
    if (images !== null && images.length === 0) images = null;
    if (alternates !== null && alternates.length === 0) alternates = null;
    if (news === null && images === null && videos === null && alternates === null) return null;
    return f.page(news === null ? null : f.news(news), images, videos, alternates);
  }

  /** A core element at `i` holding text only, ignored: its end, or -1. */
  #core(b: Uint8Array, i: number, e: number): number {
    let n = i + 1;
    while (n < e && b[n] !== GT) n++;
    if (fieldOf(CORE_NAMES, b, i + 1, n) === 0) return -1;
    return this.#content(b, n + 1, e, i + 1, n, false);
  }

  /**
   * A child `<prefix:local>` at `i` of a block tagged `tag` (whose prefix it
   * shares), `local` one of `names`: its field in `#field`, its value as
   * {@linkcode SpanDecoder.#content} reads it; its end, or -1.
   */
  #child(b: Uint8Array, i: number, e: number, tag: Uint8Array, names: FieldNames): number {
    if (b[i] !== LT) return -1;
    // The block's prefix and its colon.
    let p = 0;
    while (p < tag.length && tag[p] !== COLON) {
      if (b[i + 1 + p] !== tag[p]) return -1;
      p++;
    }
    const nameAt = i + 1;
    const localAt = nameAt + p + 1;
    if (b[localAt - 1] !== COLON) return -1;
    let n = localAt;
    while (n < e && b[n] !== GT && b[n] !== SLASH && b[n]! > 0x20) n++;
    const field = fieldOf(names, b, localAt, n);
    if (field === 0) return -1;
    this.#field = field;
    const m = spaceFrom(b, n, e);
    if (b[m] === SLASH && m + 1 < e && b[m + 1] === GT) {
      // Empty (`<image:caption/>`): read as the walker reads it, as "".
      this.#empty = true;
      return m + 2;
    }
    this.#empty = false;
    if (b[n] !== GT) return -1;
    return this.#content(b, n + 1, e, nameAt, n, true);
  }

  /**
   * The content from `c` of the element named `b[nameAt, nameEnd)`: text
   * up to its end tag, or one CDATA section between whitespace (when
   * `cdata` allows it); its range in `#a`/`#e`, `#cdata` set. Returns the
   * end tag's end, or -1 for anything else.
   */
  #content(
    b: Uint8Array,
    c: number,
    e: number,
    nameAt: number,
    nameEnd: number,
    cdata: boolean,
  ): number {
    let lt = find(b, LT, c);
    if (lt === -1 || lt >= e || lt - c > MAX_FIELD_LENGTH) return -1;
    this.#cdata = false;
    this.#a = c;
    this.#e = lt;
    if (b[lt + 1] !== SLASH) {
      if (!cdata || !startsWith(b, lt, e, CDATA_OPEN) || spaceFrom(b, c, lt) !== lt) return -1;
      const a = lt + CDATA_OPEN.length;
      let end = a;
      for (;;) {
        end = b.indexOf(0x5d, end);
        if (end === -1 || end + 2 >= e) return -1;
        if (b[end + 1] === 0x5d && b[end + 2] === GT) break;
        end++;
      }
      if (end - a > MAX_FIELD_LENGTH) return -1;
      this.#cdata = true;
      this.#a = a;
      this.#e = end;
      lt = spaceFrom(b, end + 3, e);
      if (b[lt] !== LT || b[lt + 1] !== SLASH) return -1;
    }
    // The end tag: `</` + the same name + `>`.
    const n = nameEnd - nameAt;
    const close = lt + 2 + n;
    if (close >= e || b[close] !== GT) return -1;
    for (let k = 0; k < n; k++) if (b[lt + 2 + k] !== b[nameAt + k]) return -1;
    return close + 1;
  }

  /** An `<image:image>` block at `i`: its image added to `out` (when it has a loc); its end, or -1. */
  #image(b: Uint8Array, i: number, e: number, tag: Uint8Array, out: unknown[]): number {
    i += 1 + tag.length;
    if (b[i] !== GT) return -1;
    i++;
    const values = this.#values;
    let loc: string | null = null;
    let caption: string | null = null;
    let geo: string | null = null;
    let title: string | null = null;
    let license: string | null = null;
    for (;;) {
      i = spaceFrom(b, i, e);
      if (i >= e) return -1;
      if (b[i] === LT && b[i + 1] === SLASH) {
        // The block's end tag.
        const close = i + 2 + tag.length;
        if (close >= e || b[close] !== GT || !startsWith(b, i + 2, e, tag)) return -1;
        i = close + 1;
        break;
      }
      i = this.#child(b, i, e, tag, IMAGE_NAMES);
      if (i === -1) return -1;
      const a = this.#a;
      const end = this.#e;
      const field = this.#field;
      if (field === F_IMAGE_LOC || field === F_IMAGE_LICENSE) {
        const url = this.#empty
          ? values.textUrl("")
          : this.#cdata
          ? values.cdataUrl(b, a, end)
          : values.url(b, a, end, false);
        if (field === F_IMAGE_LOC) loc = url;
        else license = url;
      } else {
        // As textOrNull("") reads an empty element.
        const text = this.#empty
          ? null
          : this.#cdata
          ? textOrNull(cdataText(b, a, end))
          : values.text(b, a, end);
        if (field === F_IMAGE_CAPTION) caption = text;
        else if (field === F_IMAGE_GEO) geo = text;
        else title = text;
      }
    }
    // An image without a loc is dropped, as in the other readers.
    if (loc !== null) out.push(this.#f.image(loc, caption, geo, title, license));
    return i;
  }

  /**
   * A `<news:news>` block at `i` read into `news`, or a `<video:video>`
   * block read into `video` (`news` null): its end, or -1.
   */
  #fields(
    b: Uint8Array,
    i: number,
    e: number,
    tag: Uint8Array,
    news: Mutable<NewsStoryData> | null,
    video: VideoBeingRead | null,
  ): number {
    i += 1 + tag.length;
    if (b[i] !== GT) return -1;
    i++;
    const values = this.#values;
    // A news block's publication, under its prefix.
    const publication = news === null ? null : this.#tags.publication!;
    let inPublication = false;
    for (;;) {
      i = spaceFrom(b, i, e);
      if (i >= e) return -1;
      if (b[i] === LT && b[i + 1] === SLASH) {
        // The publication's end tag, or the block's.
        const name = inPublication ? publication! : tag;
        const close = i + 2 + name.length;
        if (close >= e || b[close] !== GT || !startsWith(b, i + 2, e, name)) return -1;
        i = close + 1;
        if (!inPublication) break;
        inPublication = false;
        continue;
      }
      if (
        publication !== null && !inPublication && b[i] === LT &&
        startsWith(b, i + 1, e, publication) && b[i + 1 + publication.length] === GT
      ) {
        inPublication = true;
        i += 2 + publication.length;
        continue;
      }
      const names = news === null ? VIDEO_NAMES : inPublication ? PUBLICATION_NAMES : NEWS_NAMES;
      i = this.#child(b, i, e, tag, names);
      if (i === -1) return -1;
      const text = this.#empty
        ? ""
        : this.#cdata
        ? cdataText(b, this.#a, this.#e)
        : values.window.run(this.#a, this.#e);
      if (news !== null) setNewsField(news, this.#field, text);
      else values.video(video!, this.#field, text);
    }
    return i;
  }

  /**
   * An `xhtml:link`'s attributes from `i` (after its name) to its `/>`:
   * its alternate added to `out`; its end, or -1.
   */
  #link(b: Uint8Array, i: number, e: number, out: unknown[]): number {
    let relA = -1;
    let relE = -1;
    let langA = -1;
    let langE = -1;
    let hrefA = -1;
    let hrefE = -1;
    let space = false;
    for (;;) {
      if (i >= e) return -1;
      const c = b[i];
      if (isSpace(c)) {
        space = true;
        i++;
        continue;
      }
      if (c === SLASH) {
        if (i + 1 >= e || b[i + 1] !== GT) return -1;
        i += 2;
        break;
      }
      if (!space) return -1;
      space = false;
      const nameAt = i;
      while (i < e && b[i]! >= 0x61 && b[i]! <= 0x7a) i++;
      if (b[i] !== EQUALS || b[i + 1] !== DQUOTE) return -1;
      const n = i - nameAt;
      const a = i + 2;
      i = find(b, DQUOTE, a);
      if (i === -1 || i >= e) return -1;
      if (n === 3 && startsWith(b, nameAt, e, REL)) {
        if (relA !== -1) return -1;
        relA = a;
        relE = i;
      } else if (n === 4 && startsWith(b, nameAt, e, HREF)) {
        if (hrefA !== -1) return -1;
        hrefA = a;
        hrefE = i;
      } else if (n === 8 && startsWith(b, nameAt, e, HREFLANG)) {
        if (langA !== -1) return -1;
        langA = a;
        langE = i;
      } else {
        return -1;
      }
      i++;
    }
    if (relA === -1 || langA === -1 || hrefA === -1) return -1;
    if (relE - relA !== ALTERNATE.length || !startsWith(b, relA, e, ALTERNATE)) return -1;
    const values = this.#values;
    const hreflang = plainToken(b, langA, langE)
      ? values.window.decode(langA, langE)
      : values.window.attribute(langA, langE).trim();
    if (hreflang === "") return i;
    const url = values.url(b, hrefA, hrefE, true);
    if (url !== null) out.push(this.#f.alternate(hreflang, url));
    return i;
  }
}

const REL = encoder.encode("rel");
const HREF = encoder.encode("href");
const HREFLANG = encoder.encode("hreflang");
const ALTERNATE = encoder.encode("alternate");
