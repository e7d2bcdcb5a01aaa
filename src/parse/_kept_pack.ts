/**
 * The writing side of kept extensions ({@linkcode KeptExtras}): at the end
 * of a parse, the kept pages' spans of XML bytes become the stored form —
 * the gzipped document as downloaded when that is small beside the spans
 * (nothing to do), else the spans copied together and deflated (level 1, a
 * few milliseconds per megabyte), or left as they are where `node:zlib`
 * cannot be had.
 *
 * @module
 */
import type { KeptExtras } from "./_result.ts";
import { detachBuffer } from "../_detach.ts";
import { ownBytes, syncZlib } from "./_sync_zlib.ts";

/** What a parse that keeps extensions is given. */
export interface KeepExtensions {
  /**
   * The body as downloaded when it was one gzip member of exactly the
   * document (see {@linkcode keepableGzip}), else null.
   */
  readonly gzip: Uint8Array | null;
  /**
   * The largest share of the kept spans' bytes that `gzip` may be and be
   * kept in their place, sparing their deflate; a quarter when unset. The
   * caller weighs the deflate's time against the memory.
   */
  readonly gzipShare?: number;
}

/** What the extras writer needs to store the spans it was given. */
export interface KeepContext extends KeepExtensions {
  /** The document the spans are offsets in. */
  readonly doc: Uint8Array;
  /** The root's start tag. */
  readonly root: Uint8Array;
  /** The sitemap's URL, "" when unknown. */
  readonly base: string;
}

/**
 * The gzip body is kept in place of the spans when it is at most this
 * fraction of their bytes: else (a `since` filter that kept few pages, or
 * few pages with extensions) a deflate of the spans alone is smaller.
 */
const GZIP_SHARE = 1 / 4;

/**
 * Documents (the views themselves) that belong to one parse alone, a job's
 * inflated body, which {@linkcode packKept} may therefore overwrite and free
 * once read: the spans are gathered at the document's start instead of into
 * a buffer of their own, and the document is gone before the builder copies
 * out its columns (a worker's two largest temporaries after the document).
 */
const spareDocuments = new WeakSet<Uint8Array>();

/**
 * How a spared document is freed ({@linkcode detachBuffer}'s options): its
 * whole buffer, however much longer than the document (an inflater's output
 * chunk may be the bound's size), unless the document is small enough to
 * share a pooled slab.
 */
export const SPARE_DOCUMENT = { slackBytes: Infinity, minBytes: 1 << 16 } as const;

/**
 * Lets {@linkcode packKept} overwrite the bytes of `doc` and free its buffer
 * once the parse has read them. Only for a document nobody reads after its
 * parse, whose buffer nothing else uses: read its length first (a freed view
 * has length 0).
 *
 * @param doc The document's view, as it will be parsed.
 */
export function spareDocument(doc: Uint8Array): void {
  spareDocuments.add(doc);
}

/**
 * Whether a downloaded body can stand for the document it inflated to: one
 * gzip layer, one member, read whole — its trailer's length is the
 * document's (a second layer or member would give another length).
 *
 * @param body The body as downloaded.
 * @param doc What it inflated to.
 * @returns Whether the body inflates to exactly `doc`.
 */
export function keepableGzip(body: Uint8Array, doc: Uint8Array): boolean {
  const n = body.length;
  if (n < 18 || body[0] !== 0x1f || body[1] !== 0x8b) return false;
  const size =
    (body[n - 4]! | (body[n - 3]! << 8) | (body[n - 2]! << 16) | (body[n - 1]! << 24)) >>>
    0;
  return size === doc.length % 0x1_0000_0000;
}

/**
 * The kept form of `count` pages, page p's span being `records[from[p]]`
 * to `records[from[p] + 1]` in the document (no span when `from[p] === to[p]`).
 *
 * @param k The document and what goes with it.
 * @param records The writer's records: two words, start and end, per page with a span.
 * @param count Pages.
 * @param from Start of each page's records.
 * @param to End of each page's records.
 * @returns The stored form.
 */
export function packKept(
  k: KeepContext,
  records: Uint32Array,
  count: number,
  from: Uint32Array,
  to: Uint32Array,
): KeptExtras {
  const pageStarts = new Uint32Array(count + 1);
  const spanAt = new Uint32Array(count);
  const bytes = locateSpans(records, count, from, to, pageStarts, spanAt);
  const root = k.root.slice();
  const zlib = syncZlib();
  const doc = k.doc;
  const inPlace = spareDocuments.has(doc);
  if (k.gzip !== null && k.gzip.length <= bytes * (k.gzipShare ?? GZIP_SHARE)) {
    const size = doc.length;
    if (inPlace) freeDocument(doc);
    return {
      kind: "kept",
      codec: "gzip",
      data: ownBytes(k.gzip),
      size,
      pageStarts,
      spanAt,
      root,
      base: k.base,
    };
  }
  const spans = inPlace ? doc.subarray(0, bytes) : new Uint8Array(bytes);
  gatherSpans(doc, spans, inPlace, count, pageStarts, spanAt);
  if (zlib === null) {
    const data = inPlace ? spans.slice() : spans;
    if (inPlace) freeDocument(doc);
    return {
      kind: "kept",
      codec: "none",
      data,
      size: bytes,
      pageStarts,
      spanAt,
      root,
      base: k.base,
    };
  }
  // One output chunk, a quarter of the spans (they deflate 4-7x): in the
  // runtime's default 16 KiB chunks the deflate left as much garbage as its
  // output, which a worker that rarely collects kept document after document
  // (bench/README.md#issue-24-realistic-peak-margin-mem24c).
  const deflated = zlib.deflateRawSync(spans, {
    level: 1,
    chunkSize: Math.max(DEFLATE_MIN_CHUNK, bytes >>> 2),
  });
  const data = ownBytes(deflated);
  // Freed now (their buffers detached) rather than left for the collector: a
  // worker parses document after document.
  if (data.buffer !== deflated.buffer) detachBuffer(new Uint8Array(deflated.buffer));
  if (inPlace) freeDocument(doc);
  else detachBuffer(spans);
  return {
    kind: "kept",
    codec: "deflate-raw",
    data,
    size: bytes,
    pageStarts,
    spanAt,
    root,
    base: k.base,
  };
}

/** The smallest output chunk asked of the spans' deflate (zlib's default). */
const DEFLATE_MIN_CHUNK = 16 << 10;

// The two loops of packKept live in functions of their own that return a
// local at most: V8 compiles a loop that runs long on its own (on-stack
// replacement) before the code after it has ever run, reuses that code for
// each document, and the code after the loop then deoptimised packKept on
// most documents (Node 20; bench/README.md#issue-24-node-within-115-node24c).

/**
 * Fills `pageStarts` (each page's start in the gathered spans, plus the end)
 * and `spanAt` (each page's span start in the document) from the records.
 *
 * @returns The spans' total length.
 */
function locateSpans(
  records: Uint32Array,
  count: number,
  from: Uint32Array,
  to: Uint32Array,
  pageStarts: Uint32Array,
  spanAt: Uint32Array,
): number {
  let bytes = 0;
  for (let p = 0; p < count; p++) {
    if (to[p]! > from[p]!) {
      const r = from[p]!;
      spanAt[p] = records[r]!;
      bytes += records[r + 1]! - records[r]!;
    }
    pageStarts[p + 1] = bytes;
  }
  return bytes;
}

/**
 * Copies each page's span from `doc` into `spans`, one after another (within
 * `doc` itself when `inPlace`), and points `spanAt` at the copies.
 */
function gatherSpans(
  doc: Uint8Array,
  spans: Uint8Array,
  inPlace: boolean,
  count: number,
  pageStarts: Uint32Array,
  spanAt: Uint32Array,
): void {
  // Spans ascend through the document and each lands at or before where it
  // was, so gathering them in place overwrites only bytes already moved.
  for (let p = 0, at = 0; p < count; p++) {
    const n = pageStarts[p + 1]! - pageStarts[p]!;
    if (n === 0) continue;
    const a = spanAt[p]!;
    if (inPlace) doc.copyWithin(at, a, a + n);
    else spans.set(doc.subarray(a, a + n), at);
    spanAt[p] = at;
    at += n;
  }
}

function freeDocument(doc: Uint8Array): void {
  detachBuffer(doc, SPARE_DOCUMENT);
}
