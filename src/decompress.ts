/**
 * Bounded gzip decompression. PLACEHOLDER: signature only, implementation in progress.
 *
 * @module
 */

/** The outcome of {@linkcode decompressIfGzip}. */
export type DecompressResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly gzipped: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Inflates `bytes` when they start with the gzip magic `1f 8b` (whatever the URL
 * or Content-Type said), stopping as soon as the output passes `maxBytes`;
 * returns them untouched otherwise.
 */
export function decompressIfGzip(bytes: Uint8Array, maxBytes: number): Promise<DecompressResult> {
  void maxBytes;
  return Promise.resolve({ ok: true, bytes, gzipped: false });
}
