/**
 * Where a `<urlset>` reader is among a `<url>`'s descendants: the one
 * automaton of the two readers that follow nesting, the general one
 * (`_urlset_tokens.ts`) and the byte-level one (`_urlset_bytes.ts`). An
 * element's name comes to it as a number, {@linkcode nameCode}; it answers
 * which field's text to capture, and calls the reader's hooks when a
 * `<url>`, news, image or video block opens or closes. The core reader
 * (`_urlset_core_bytes.ts`) reads a flat shape with no blocks and matches
 * its four tags itself.
 *
 * @module
 */
import { Ns, type NsKind } from "./_ns.ts";
import {
  F_CHANGEFREQ,
  F_LASTMOD,
  F_LOC,
  F_PRIORITY,
  IMAGE_FIELDS,
  NEWS_FIELDS,
  NEWS_PUBLICATION_FIELDS,
  VIDEO_FIELDS,
} from "./_urlset_fields.ts";

// Local names, in the low six bits of a name's code.
const L_URL = 1;
const L_LOC = 2;
const L_LASTMOD = 3;
const L_PRIORITY = 4;
const L_CHANGEFREQ = 5;
const L_NEWS = 6;
const L_IMAGE = 7;
const L_VIDEO = 8;
const L_LINK = 9;
const L_PUBLICATION = 10;
/** Set when the name is in the root's (or the sitemaps.org, or no) namespace. */
const CORE = 0x40;
/** Set when a news/image/video/link name is in its extension's namespace (or none). */
const EXT = 0x80;

/** The core fields by local name id (`L_LOC` to `L_CHANGEFREQ`). */
const CORE_FIELDS: readonly number[] = [0, 0, F_LOC, F_LASTMOD, F_PRIORITY, F_CHANGEFREQ];

/** Which extension namespace a block's name must be in (or none), by local name id. */
const EXT_KIND: NsKind[] = [];
EXT_KIND[L_NEWS] = Ns.News;
EXT_KIND[L_IMAGE] = Ns.Image;
EXT_KIND[L_VIDEO] = Ns.Video;
EXT_KIND[L_LINK] = Ns.Xhtml;

/**
 * What a local name's code holds whatever its namespace: its id, and the
 * news, image and video field codes it has inside those blocks (by local
 * name alone, as the readers match them) in the next three bytes, the
 * publication field above them.
 */
const LOCAL_CODES = new Map<string, number>();
for (
  const [local, id] of [
    ["url", L_URL],
    ["loc", L_LOC],
    ["lastmod", L_LASTMOD],
    ["priority", L_PRIORITY],
    ["changefreq", L_CHANGEFREQ],
    ["news", L_NEWS],
    ["image", L_IMAGE],
    ["video", L_VIDEO],
    ["link", L_LINK],
    ["publication", L_PUBLICATION],
  ] as const
) LOCAL_CODES.set(local, id);
const BLOCK_FIELDS: readonly [ReadonlyMap<string, number>, number][] = [
  [NEWS_FIELDS, 0x100],
  [IMAGE_FIELDS, 0x10000],
  [VIDEO_FIELDS, 0x1000000],
  [NEWS_PUBLICATION_FIELDS, 0x100000000],
];
for (const [fields, scale] of BLOCK_FIELDS) {
  for (const [local, field] of fields) {
    LOCAL_CODES.set(local, (LOCAL_CODES.get(local) ?? 0) + field * scale);
  }
}

/**
 * An element name's code for {@linkcode UrlNesting}: its local name's id,
 * the CORE and EXT flags, and its fields inside news, image, video and
 * publication blocks. Above 2^32 when it names a publication field, so
 * written with `+`, never `|`.
 *
 * @param local The local name.
 * @param kind What its namespace stands for.
 * @param core Whether it is in the root's namespace, the sitemaps.org one or none.
 * @returns The code.
 */
export function nameCode(local: string, kind: NsKind, core: boolean): number {
  const code = LOCAL_CODES.get(local) ?? 0;
  const ext = EXT_KIND[code & 0x3f];
  return code + (core ? CORE : 0) +
    (ext !== undefined && (kind === ext || kind === Ns.None) ? EXT : 0);
}

/**
 * Whether a name's code is that of an extension block read as a whole when
 * it is a `<url>`'s child: `news`, `image`, `video` or `link` in its
 * extension's namespace (or none).
 *
 * @param code The name's {@linkcode nameCode}.
 * @returns Whether it is one.
 */
export function isExtensionBlock(code: number): boolean {
  const local = code & 0x3f;
  return (code & EXT) !== 0 && local >= L_NEWS && local <= L_LINK;
}

/** {@linkcode UrlNesting.nestedStart}'s answer for an `xhtml:link`: read its attributes. */
export const LINK = -2;

// Which block is open at depth 3 (inside <url>).
const C_NONE = 0;
const C_NEWS = 1;
const C_IMAGE = 2;
const C_VIDEO = 3;

/**
 * The `<url>` automaton: a reader extends it, passes each element's start
 * and end with its depth (the root's children are at 2), and fills the
 * hooks.
 */
export abstract class UrlNesting {
  #inUrl = false;
  #container = C_NONE;
  #inPublication = false;

  /** Whether a `<url>` is open. */
  protected get inUrl(): boolean {
    return this.#inUrl;
  }

  /**
   * An element started.
   *
   * @param d Its depth.
   * @param code Its {@linkcode nameCode}.
   * @returns The field code whose text to capture, 0 for none, or
   * {@linkcode LINK} for an alternate link whose attributes to read.
   */
  protected nestedStart(d: number, code: number): number {
    if (d === 2) {
      if ((code & 0x7f) === (L_URL | CORE)) {
        this.#inUrl = true;
        this.openUrl();
      }
      return 0;
    }
    if (!this.#inUrl) return 0;
    if (d === 3) return this.#urlChild(code);
    if (d === 4) {
      if (this.#container === C_NEWS) {
        if ((code & 0x3f) === L_PUBLICATION) {
          this.#inPublication = true;
          return 0;
        }
        return (code >>> 8) & 0xff;
      }
      if (this.#container === C_IMAGE) return (code >>> 16) & 0xff;
      if (this.#container === C_VIDEO) return code >>> 24;
      return 0;
    }
    if (d === 5 && this.#inPublication) return Math.floor(code / 0x100000000);
    return 0;
  }

  #urlChild(code: number): number {
    const local = code & 0x3f;
    if (local >= L_LOC && local <= L_CHANGEFREQ) {
      return (code & CORE) === 0 ? 0 : CORE_FIELDS[local]!;
    }
    if ((code & EXT) === 0) return 0;
    if (local === L_NEWS) {
      this.#container = C_NEWS;
      this.openNews();
    } else if (local === L_IMAGE) {
      this.#container = C_IMAGE;
      this.openImage();
    } else if (local === L_VIDEO) {
      this.#container = C_VIDEO;
      this.openVideo();
    } else if (local === L_LINK) {
      return LINK;
    }
    return 0;
  }

  /**
   * An element that was not a captured field ended.
   *
   * @param d Its depth.
   */
  protected nestedEnd(d: number): void {
    if (!this.#inUrl) return;
    if (d === 2) {
      this.#inUrl = false;
      this.closeUrl();
    } else if (d === 3) {
      if (this.#container === C_IMAGE) this.closeImage();
      else if (this.#container === C_VIDEO) this.closeVideo();
      this.#container = C_NONE;
      this.#inPublication = false;
    } else if (d === 4) {
      this.#inPublication = false;
    }
  }

  /** A `<url>` opened: its values start over. */
  protected abstract openUrl(): void;
  /** A news block opened (a second one in a `<url>` adds to the first). */
  protected abstract openNews(): void;
  /** An image block opened. */
  protected abstract openImage(): void;
  /** A video block opened. */
  protected abstract openVideo(): void;
  /** The `<url>` closed: the page is complete. */
  protected abstract closeUrl(): void;
  /** The image block closed. */
  protected abstract closeImage(): void;
  /** The video block closed. */
  protected abstract closeVideo(): void;
}
