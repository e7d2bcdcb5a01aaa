/**
 * The reading side of kept extensions ({@linkcode KeptExtras}): the first
 * read of any page's extensions in a sitemap decodes the whole sitemap's
 * extensions once, into the columns the general path writes
 * ({@linkcode EncodedExtras}), which then serve every later read. A sitemap
 * whose extensions are never read never decodes them.
 *
 * Decoding reads the kept spans as a urlset of their own — the root's start
 * tag, then one `<url>` per page with a span — with the byte-level reader
 * (blocks decoded as it decoded them before they were kept), or with the
 * general reader when that one declines; either reads the blocks as the
 * general reader would have read the original document.
 *
 * @module
 */
import { NO_CHECKPOINT } from "../_checkpoint.ts";
import type { EncodedExtras, KeptExtras, PackedExtras } from "./_result.ts";
import { ownBytes, syncZlib } from "./_sync_zlib.ts";
import { parseBase } from "./_url.ts";
import { readUrlsetBytes } from "./_urlset_bytes.ts";
import { parseSitemapGeneral } from "./parse_sitemap.ts";

/** How many sitemaps' kept extensions have been decoded: for tests and benchmarks. */
export const keptExtrasStats: { decodes: number } = { decodes: 0 };

const decoded = new WeakMap<KeptExtras, EncodedExtras>();

/**
 * The encoded form of a sitemap's extensions: `x` itself, or its kept
 * bytes decoded (once; later calls return the same columns).
 *
 * @param x The extensions in either form.
 * @returns The encoded columns, with `x`'s pages.
 * @throws {Error} When the kept bytes cannot be read (damaged, or no
 * `node:zlib` to inflate them).
 */
export function encodedExtras(x: PackedExtras): EncodedExtras {
  if (x.kind !== "kept") return x;
  let out = decoded.get(x);
  if (out === undefined) {
    out = decodeKept(x);
    decoded.set(x, out);
    keptExtrasStats.decodes++;
  }
  return out;
}

/** The last kept byte arrays inflated: comparing two trees reads each sitemap's spans a page at a time. */
const inflatedCache: { x: KeptExtras; bytes: Uint8Array }[] = [];
const INFLATED_KEPT = 2;

/**
 * The bytes a sitemap's spans are offsets in (`spanAt`): the inflated
 * document or spans.
 *
 * @param x Kept extensions.
 * @returns Their bytes, inflated (the last two are remembered).
 */
export function keptBytes(x: KeptExtras): Uint8Array {
  for (const entry of inflatedCache) if (entry.x === x) return entry.bytes;
  const bytes = inflate(x);
  inflatedCache.unshift({ x, bytes });
  if (inflatedCache.length > INFLATED_KEPT) inflatedCache.pop();
  return bytes;
}

function inflate(x: KeptExtras): Uint8Array {
  if (x.codec === "none") return x.data;
  const zlib = syncZlib();
  if (zlib === null) {
    throw new Error(`Reading kept extensions needs node:zlib, which this runtime does not provide`);
  }
  const bytes = x.codec === "gzip" ? zlib.gunzipSync(x.data) : zlib.inflateRawSync(x.data);
  if (bytes.length !== x.size) {
    throw new Error(
      `Kept extensions are damaged: they inflate to ${bytes.length} bytes, not ${x.size}`,
    );
  }
  return ownBytes(bytes);
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

function decodeKept(x: KeptExtras): EncodedExtras {
  const bytes = keptBytes(x);
  const starts = x.pageStarts;
  const count = starts.length - 1;
  const name = rootName(x.root);
  let withSpans = 0;
  for (let p = 0; p < count; p++) if (starts[p + 1]! > starts[p]!) withSpans++;
  const perPage = URL_OPEN.length + 10 + LOC_CLOSE.length + URL_CLOSE.length;
  const doc = new Uint8Array(
    x.root.length + starts[count]! + withSpans * perPage + name.length + 3,
  );
  doc.set(x.root, 0);
  let o = x.root.length;
  let n = 0;
  for (let p = 0; p < count; p++) {
    const length = starts[p + 1]! - starts[p]!;
    if (length === 0) continue;
    doc.set(URL_OPEN, o);
    o += URL_OPEN.length;
    // The page's rank among those with spans, so that every <loc> differs.
    for (let v = n++, digits = String(v), k = 0; k < digits.length; k++) {
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
  const synthetic = doc.subarray(0, o);
  const result = readUrlsetBytes(synthetic, parseBase(x.base), NaN, NO_CHECKPOINT) ??
    parseSitemapGeneral(synthetic, { url: x.base });
  if (result.kind !== "pages" || result.pages.count !== withSpans) {
    throw new Error(
      `Kept extensions are damaged: ${withSpans} pages' blocks read as ${
        result.kind === "pages"
          ? `${result.pages.count} pages`
          : result.kind === "invalid"
          ? result.reason
          : "an index"
      }`,
    );
  }
  const read = result.pages.extras;
  if (read !== null && read.kind === "kept") throw new Error("Kept extensions read as kept");
  // Renumbered from the synthetic pages to the sitemap's.
  const pageStarts = new Uint32Array(count + 1);
  for (let p = 0, rank = 0; p < count; p++) {
    if (starts[p + 1]! > starts[p]!) {
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
