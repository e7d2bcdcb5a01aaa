/**
 * Bounded gzip decompression: sitemaps are inflated inside a hard output cap so
 * that a 200 KB gzip bomb costs about the cap in memory and time, never the
 * bomb's 200 MB.
 *
 * Two inflaters share one front end (magic-byte detection, nesting, result
 * shape):
 *
 * - `node:zlib` `gunzipSync` with `maxOutputLength`, used whenever the runtime
 *   provides it (Deno and Bun both do). It stops inside the inflate loop, at
 *   most one output chunk past the cap (64 KiB, up to 8 MiB when sized from
 *   the trailer, a byte past the cap for a document over 8 MiB), and reads
 *   concatenated members and truncated data exactly like zlib.
 * - `DecompressionStream` fed 4 KiB at a time, for runtimes without `node:zlib`.
 *   Deno's stream inflates each input chunk in one go (one 200 KB chunk became
 *   200 MB before a counter could look), so the input is cut small enough that
 *   one chunk expands to at most ~4 MB. It is best effort on damaged data: it
 *   cannot tell a truncated download from a corrupt one, and Deno's
 *   implementation fails on anything after the first gzip member (keeping
 *   what it had already inflated, if anything).
 *
 * `bench/bomb_rss.ts` measures both against the bomb (time and peak memory:
 * bench/README.md#gzip-bombs-and-the-inflaters).
 *
 * @module
 */
import { type Checkpoint, NO_CHECKPOINT, ParseCancelled } from "./_checkpoint.ts";
import { concatBytes } from "./_concat.ts";
import { errorMessage } from "./_error_message.ts";
import { gzipOutputExceeds } from "./_gzip_size.ts";
import { runtime, type Zlib } from "./runtime/mod.ts";

/** The outcome of {@linkcode decompressIfGzip}. */
export type DecompressResult =
  | {
    readonly ok: true;
    /**
     * The inflated bytes, or the input itself (same object, not copied) when
     * it was not gzip. May be a view into a larger `ArrayBuffer`: read it
     * through `byteOffset`/`byteLength`, don't transfer its `buffer`.
     */
    readonly bytes: Uint8Array;
    /** Whether the input started with the gzip magic bytes and was inflated. */
    readonly gzipped: boolean;
    /**
     * Set when the bytes are only a prefix of what the gzip data promised
     * (a truncated download): the complete entries in it are still usable.
     */
    readonly warning?: string;
  }
  | { readonly ok: false; readonly reason: string };

/** Gzip's ID1 ID2 (RFC 1952 §2.3.1). */
const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/**
 * Least compression ratio a trailer must claim for the output to be counted
 * before it is inflated: sitemaps compress 8–20 times, a bomb ~1,000 times;
 * above 50 a count up to the bound takes at most ~1 MiB of input, so its
 * cost stays near zlib's.
 */
const BOMB_RATIO = 50;

/**
 * Most gzip bytes counted before inflating: the count costs up to ~40 ns a
 * byte of literal-heavy data (2.5 MB of it, a forged trailer, in 81–89 ms),
 * so a larger claim goes straight to the bounded inflater. A bomb of up to
 * ~2 GiB (at ~1,000:1) is counted.
 */
const COUNT_INPUT_MAX = 2 * 1024 * 1024;

/** Gzip inside gzip is seen in the wild (a pre-gzipped file served gzipped again); three layers is not. */
const MAX_GZIP_LAYERS = 2;

/**
 * Output chunk of `gunzipSync`: faster and leaner on a bomb than zlib's 16 KiB
 * default (bench/README.md#gzip-bombs-and-the-inflaters).
 */
const ZLIB_CHUNK_BYTES = 64 * 1024;

/**
 * Largest output chunk sized from the gzip trailer's length field: one chunk
 * that holds the whole output spares the final concatenation, and a bomb
 * that forges the field costs the bound plus at most one such chunk.
 */
const ZLIB_SIZED_CHUNK_MAX = 8 * 1024 * 1024;

/**
 * Largest output chunk for a larger document: the bound is cut into equal
 * chunks of at most this, so that any document within a bound up to this
 * size inflates into one chunk, with no concatenation or dead 64 KiB chunks
 * beside it, and a bomb stops one byte past the bound. The chunk's pages past
 * the document are never written, so they cost no memory, and a chunk this
 * large is mapped apart from the allocator's heaps, so it is given back whole
 * when freed instead of leaving a hole among longer-lived buffers
 * (bench/README.md#issue-24-the-realistic-peak).
 */
const ZLIB_WHOLE_CHUNK_MAX = 64 * 1024 * 1024;

/**
 * Input piece fed to `DecompressionStream`: the smaller, the nearer the bound
 * Deno stops a bomb (bench/README.md#gzip-bombs-and-the-inflaters).
 */
const STREAM_PIECE_BYTES = 4 * 1024;

const TRUNCATED_WARNING = "Gzip data ends early (truncated download?)";
const NOTHING_INFLATED = "Gzip data ends before any of it inflates (truncated download?)";
const NOTHING_INFLATED_OR_DAMAGED =
  "Gzip data inflates to nothing (truncated download or damaged data)";

/** One layer's outcome, before nesting is looked at. */
type Inflated =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly warning?: string }
  | { readonly ok: false; readonly reason: string };

type Inflater = (
  bytes: Uint8Array,
  maxBytes: number,
  checkpoint: Checkpoint,
) => Inflated | Promise<Inflated>;

/**
 * Inflates `bytes` when they start with the gzip magic `1f 8b` (whatever the URL
 * or Content-Type said), stopping as soon as the output passes `maxBytes`;
 * returns them untouched otherwise.
 *
 * Concatenated gzip members are all inflated, bounded in total. Gzip inside
 * gzip is inflated once more within the same bound; a third layer is refused.
 * Truncated gzip yields the prefix that was inflated, with a `warning`, or a
 * reason when nothing inflated. Never rejects: problems come back as
 * `{ ok: false, reason }`.
 *
 * @param bytes A downloaded body, gzipped or not.
 * @param maxBytes Most bytes the inflated output may have (e.g. 52428800).
 * @param checkpoint Called between layers and, on the stream path, every
 *   output chunk with the bytes inflated so far; a {@linkcode ParseCancelled}
 *   it throws rejects the call.
 * @returns The bytes to parse, or why there are none.
 * @throws {RangeError} When `maxBytes` is negative or NaN (a caller bug, hence not a result).
 *
 * @example Inflate a gzipped sitemap
 * ```ts
 * import { ok, strictEqual } from "node:assert/strict";
 * import { decompressIfGzip } from "./decompress.ts";
 *
 * const gzipped = new Uint8Array(
 *   await new Response(
 *     new Blob(["<urlset/>"]).stream().pipeThrough(new CompressionStream("gzip")),
 *   ).arrayBuffer(),
 * );
 * const result = await decompressIfGzip(gzipped, 50 * 1024 * 1024);
 * ok(result.ok);
 * strictEqual(new TextDecoder().decode(result.bytes), "<urlset/>");
 * ```
 */
export async function decompressIfGzip(
  bytes: Uint8Array,
  maxBytes: number,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): Promise<DecompressResult> {
  checkMaxBytes(maxBytes);
  if (!isGzip(bytes)) return { ok: true, bytes, gzipped: false };
  return inflateLayers(bytes, maxBytes, (await zlibInflater) ?? inflateWithStreams, checkpoint);
}

/**
 * {@linkcode decompressIfGzip} with the fallback inflater forced: `DecompressionStream`
 * fed in small pieces, as used on runtimes without `node:zlib`. Exported so
 * tests and benchmarks can exercise it on runtimes that do have `node:zlib`.
 *
 * Differences on damaged data: an error after some output yields that
 * output with a `warning` (truncated and corrupt data look alike here), and on
 * Deno only the first of concatenated members is read.
 *
 * @param bytes A downloaded body, gzipped or not.
 * @param maxBytes Most bytes the inflated output may have.
 * @param checkpoint As for {@linkcode decompressIfGzip}.
 * @returns The bytes to parse, or why there are none.
 * @throws {RangeError} When `maxBytes` is negative or NaN.
 */
export function decompressIfGzipWithStreams(
  bytes: Uint8Array,
  maxBytes: number,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): Promise<DecompressResult> {
  checkMaxBytes(maxBytes);
  if (!isGzip(bytes)) return Promise.resolve({ ok: true, bytes, gzipped: false });
  return inflateLayers(bytes, maxBytes, inflateWithStreams, checkpoint);
}

function checkMaxBytes(maxBytes: number): void {
  if (!(maxBytes >= 0)) {
    throw new RangeError(`maxBytes must be a number >= 0, got ${maxBytes}`);
  }
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

async function inflateLayers(
  bytes: Uint8Array,
  maxBytes: number,
  inflate: Inflater,
  checkpoint: Checkpoint,
): Promise<DecompressResult> {
  let current = bytes;
  let warning: string | undefined;
  for (let layer = 1; layer <= MAX_GZIP_LAYERS; layer++) {
    checkpoint(0);
    if (claimsBomb(current, maxBytes) && gzipOutputExceeds(current, maxBytes) === true) {
      return tooBig(maxBytes);
    }
    const result = await inflate(current, maxBytes, checkpoint);
    if (!result.ok) return result;
    warning ??= result.warning;
    current = result.bytes;
    if (!isGzip(current)) {
      return warning === undefined
        ? { ok: true, bytes: current, gzipped: true }
        : { ok: true, bytes: current, gzipped: true, warning };
    }
  }
  return { ok: false, reason: `Nested gzip deeper than ${MAX_GZIP_LAYERS} levels refused` };
}

/**
 * Whether the last member's ISIZE (RFC 1952 §2.3.1) claims more than
 * `maxBytes` at more than {@linkcode BOMB_RATIO} times the data's size (of
 * at most {@linkcode COUNT_INPUT_MAX}): then
 * the output is counted without being kept (`_gzip_size.ts`) and, once the
 * count passes the bound, refused without inflating it, which held the bound
 * in memory (bench/README.md#gzip-bombs-counted-not-inflated). A forged
 * claim costs the count, and the data is then inflated as any other.
 */
function claimsBomb(bytes: Uint8Array, maxBytes: number): boolean {
  if (bytes.byteLength > COUNT_INPUT_MAX) return false;
  const claimed = claimedSize(bytes);
  return claimed > maxBytes && claimed > BOMB_RATIO * bytes.byteLength;
}

/**
 * The last member's ISIZE (RFC 1952 §2.3.1): the inflated size mod 2^32 it
 * claims, which anyone can forge; -1 for data too short to hold a member.
 */
function claimedSize(bytes: Uint8Array): number {
  if (bytes.byteLength < 18) return -1;
  return new DataView(bytes.buffer, bytes.byteOffset + bytes.byteLength - 4, 4).getUint32(0, true);
}

function tooBig(maxBytes: number): Extract<Inflated, { ok: false }> {
  return { ok: false, reason: `Sitemap expands past ${maxBytes} bytes` };
}

// --- node:zlib -------------------------------------------------------------

interface ZlibError {
  readonly code?: unknown;
  readonly message?: unknown;
}

/**
 * Node's zlib through the runtime adapter, loaded once on first use; where
 * it cannot be loaded, the stream fallback runs.
 */
const zlibInflater: Promise<Inflater | null> = runtime.loadZlib().then((zlib) =>
  zlib === null ? null : zlibInflaterOf(zlib)
);

function zlibInflaterOf(zlib: Zlib): Inflater {
  // Both runtimes reject maxOutputLength outside [1, buffer.constants.MAX_LENGTH]
  // (Bun: 4 GiB); 0 is handled below.
  const maxLength = zlib.maxLength;
  return (bytes, maxBytes) => {
    const limit = Math.max(1, Math.min(maxBytes, maxLength));
    const chunkSize = outputChunkSize(bytes, limit);
    const gunzip = (truncated: boolean): Inflated => {
      try {
        const output = zlib.gunzipSync(bytes, {
          maxOutputLength: limit,
          chunkSize,
          // Z_SYNC_FLUSH at the end of input returns what was inflated instead
          // of "unexpected end of file"; only used once that error was seen.
          ...(truncated ? { finishFlush: zlib.syncFlush } : {}),
        });
        if (output.byteLength > maxBytes) return tooBig(maxBytes);
        // A plain view: Buffer's own slice() and toString() semantics must not leak out.
        const plain = new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
        // Nothing to keep: an empty document here would read as an empty text sitemap.
        if (truncated && plain.byteLength === 0) return { ok: false, reason: NOTHING_INFLATED };
        return truncated
          ? { ok: true, bytes: plain, warning: TRUNCATED_WARNING }
          : { ok: true, bytes: plain };
      } catch (error) {
        const { code, message } = error as ZlibError;
        // Deno and Bun both throw this RangeError code, as Node does.
        if (code === "ERR_BUFFER_TOO_LARGE") return tooBig(maxBytes);
        if (code === "Z_BUF_ERROR" && !truncated) return gunzip(true);
        return { ok: false, reason: `Invalid gzip data: ${String(message)}` };
      }
    };
    return gunzip(false);
  };
}

/**
 * The output chunk for what the last member's ISIZE (RFC 1952 §2.3.1)
 * claims: the default for a small output; the claim plus one byte (so that
 * zlib sees the end of the stream before it runs out of room) up to
 * {@linkcode ZLIB_SIZED_CHUNK_MAX}; else the bound plus one byte, cut into
 * equal chunks of at most {@linkcode ZLIB_WHOLE_CHUNK_MAX}.
 */
function outputChunkSize(bytes: Uint8Array, limit: number): number {
  const size = claimedSize(bytes) + 1;
  if (size <= ZLIB_CHUNK_BYTES) return ZLIB_CHUNK_BYTES;
  if (size <= ZLIB_SIZED_CHUNK_MAX) return size;
  const chunks = Math.ceil((limit + 1) / ZLIB_WHOLE_CHUNK_MAX);
  return Math.ceil((limit + 1) / chunks);
}

// --- DecompressionStream ---------------------------------------------------

async function inflateWithStreams(
  bytes: Uint8Array,
  maxBytes: number,
  checkpoint: Checkpoint,
): Promise<Inflated> {
  const stream = new DecompressionStream("gzip");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();

  // Writes wait on the reader (backpressure), so feeding runs beside the read loop.
  const feeding = (async () => {
    for (let at = 0; at < bytes.byteLength; at += STREAM_PIECE_BYTES) {
      await writer.ready;
      // Typed ArrayBufferLike; a SharedArrayBuffer-backed view makes write() reject,
      // which surfaces as "Invalid gzip data" below.
      await writer.write(bytes.subarray(at, at + STREAM_PIECE_BYTES) as Uint8Array<ArrayBuffer>);
    }
    await writer.close();
  })();
  // Its failure is the reader's failure too; reported from there.
  feeding.catch(() => {});

  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      try {
        checkpoint(total);
      } catch (cancelled) {
        await Promise.allSettled([reader.cancel(), writer.abort()]);
        throw cancelled;
      }
      total += value.byteLength;
      if (total > maxBytes) {
        await Promise.allSettled([reader.cancel(), writer.abort()]);
        return tooBig(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ParseCancelled) throw error;
    const message = errorMessage(error);
    // Streams do not tell a cut from damage (Deno says "checksum" for both):
    // either way nothing inflated, and an empty document would read as an
    // empty text sitemap.
    if (total === 0) {
      // A header that names deflate (RFC 1952 §2.3.1: CM = 8) and then nothing: cut or damaged.
      const reason = bytes[2] === 8 ? NOTHING_INFLATED_OR_DAMAGED : "Invalid gzip data";
      return { ok: false, reason: `${reason}: ${message}` };
    }
    return {
      ok: true,
      bytes: concatBytes(chunks, total),
      warning: `Gzip data ends early or is damaged: ${message}`,
    };
  }
  return { ok: true, bytes: concatBytes(chunks, total) };
}
