/**
 * Freeing a buffer now rather than at the next garbage collection. V8 (and
 * JSC) collect external memory late: a thread with a small heap can hold tens
 * of megabytes of dead typed arrays before it collects. Detaching a buffer
 * (`ArrayBuffer.prototype.transfer(0)`) releases its memory at once.
 *
 * @module
 */

/** The columns of packed pages (`PackedPages`), by shape: this module imports nothing, so the parsers may use it. */
interface PageColumns {
  readonly urlBytes: ArrayBufferView;
  readonly urlEnds: ArrayBufferView;
  readonly lastModified: ArrayBufferView;
  readonly priority: ArrayBufferView;
  readonly changeFrequency: ArrayBufferView;
}

/**
 * How a buffer is detached where `ArrayBuffer.prototype.transfer` is missing
 * (Node 20): set by that runtime's adapter (runtime/node.ts), null elsewhere.
 */
let detachWithoutTransfer: ((buffer: ArrayBuffer) => void) | null = null;

/**
 * Sets how {@linkcode detachBuffer} detaches a buffer on a runtime without
 * `ArrayBuffer.prototype.transfer`. Only a runtime adapter calls it.
 *
 * @param detach Detaches the buffer and frees its memory, or throws.
 */
export function setDetachWithoutTransfer(detach: (buffer: ArrayBuffer) => void): void {
  detachWithoutTransfer = detach;
}

/**
 * Detaches the buffer behind `view` when the view is (nearly) all of it, so
 * that nothing else can be reading the same buffer: a small view may share
 * a pooled slab, a cache entry's columns share the entry's buffer. Silent
 * when the buffer cannot be detached, or the runtime has no `transfer` and
 * its adapter set no other way ({@linkcode setDetachWithoutTransfer}).
 *
 * @param view A typed array nobody will read again.
 * @param options `slackBytes`: buffer bytes past the view still accepted
 * (zlib's sized output chunk is one byte longer than the document);
 * `minBytes`: smaller views are left to the collector.
 */
export function detachBuffer(
  view: ArrayBufferView,
  options: { readonly slackBytes?: number; readonly minBytes?: number } = {},
): void {
  const buffer = view.buffer as ArrayBuffer & {
    transfer?: (length: number) => ArrayBuffer;
    detached?: boolean;
  };
  if (view.byteOffset !== 0 || view.byteLength < (options.minBytes ?? 0)) return;
  if (buffer.byteLength - view.byteLength > (options.slackBytes ?? 0)) return;
  try {
    if (buffer.detached === true) return;
    if (buffer.transfer !== undefined) buffer.transfer(0);
    else detachWithoutTransfer?.(buffer);
  } catch {
    // Not detachable (say, a WebAssembly memory): the collector frees it later.
  }
}

/**
 * Frees every column of packed pages nobody will read again (each by
 * {@linkcode detachBuffer}, so a column sharing a buffer with more is left alone).
 *
 * @param pages The columns to free.
 */
export function detachPackedPages(pages: PageColumns): void {
  const { urlBytes, urlEnds, lastModified, priority, changeFrequency } = pages;
  for (const column of [urlBytes, urlEnds, lastModified, priority, changeFrequency]) {
    detachBuffer(column);
  }
}
