/**
 * The unit of work a parse worker does, and the messages that carry it across
 * the worker boundary. The worker module and the pool's in-thread fallback both
 * run {@linkcode runParseJob}, so a sitemap parses the same either way.
 *
 * @module
 */
import { type CacheEntry, encodeCacheEntry } from "../_cache_entry.ts";
import { filterPagesSince } from "../_pages_since.ts";
import { decompressIfGzip } from "../decompress.ts";
import { errorMessage } from "../_error_message.ts";
import { detachBuffer, detachPackedPages } from "../_detach.ts";
import { type Checkpoint, NO_CHECKPOINT, ParseCancelled } from "../_checkpoint.ts";
import type { ParseResult } from "../parse/_result.ts";
import { parseSitemapBody } from "../parse/parse_sitemap.ts";
import { keepableGzip, SPARE_DOCUMENT, spareDocument } from "../parse/_kept_pack.ts";
import { runtime } from "../runtime/mod.ts";

/** One sitemap body to decompress and parse. */
export interface ParseJob {
  /**
   * The raw response body, maybe gzipped. A worker pool transfers its buffer to
   * the worker, so the caller's view is detached once the job is handed over.
   */
  readonly bytes: Uint8Array;
  /** The sitemap's final URL (after redirects); relative `<loc>`s resolve against it. */
  readonly url: string;
  /** Keep only pages whose lastmod is >= this (epoch ms) or missing; NaN keeps all. */
  readonly since: number;
  /** Read the body as robots.txt rather than detecting a sitemap format. */
  readonly robots: boolean;
  /** The HTTP Content-Type, a charset hint only. */
  readonly contentType: string | null;
  /** The most bytes the body may decompress (or, when plain, amount) to. */
  readonly maxSitemapBytes: number;
  /**
   * When a urlset's extension blocks are decoded: `"lazy"` (absent) keeps
   * them as bytes for the first read, `"eager"` decodes them in the job.
   */
  readonly extensions?: "lazy" | "eager";
  /**
   * When set, the job also encodes a cache entry (these fields plus the
   * unfiltered result) into {@linkcode ParseOutcome.cacheEntry}, and applies
   * `since` only after that, so the entry serves any later `since`.
   */
  readonly cache?: CacheEntryFields;
}

/** What the crawler knows of a response before parsing it: a cache entry but its result. */
export type CacheEntryFields = Omit<CacheEntry, "result" | "decompressedBytes">;

/** What a {@linkcode ParseJob} produced. */
export interface ParseOutcome {
  readonly result: ParseResult;
  /** Size of the document after decompression; 0 when decompression failed. */
  readonly decompressedBytes: number;
  /** Milliseconds spent decompressing and parsing, measured where the job ran. */
  readonly parseMs: number;
  /** The encoded cache entry, when the job asked for one and the result is not invalid. */
  readonly cacheEntry?: Uint8Array;
  /**
   * Set when a checkpoint cancelled the job: where it stopped, in bytes of the
   * decompressed document (0 while inflating), and the document's size (0
   * when it was not inflated yet).
   */
  readonly cancelled?: { readonly at: number; readonly total: number };
}

/** A message from the pool to a worker: parse this. */
export interface WorkerRequest {
  /** Echoed in the reply, so a late answer to an abandoned job is recognised. */
  readonly id: number;
  readonly job: ParseJob;
}

/**
 * How much a new worker parses before its first job, so that V8 has compiled
 * the parser by then (see worker.ts): `full` for a pool started ahead of
 * calls and a call's first worker (started while robots.txt is on the wire);
 * `light` for a replacement, and the default; `none` for a `since` call's
 * worker, which keeps up unwarmed and whose warm-up would only cost memory.
 */
export type WarmUp = "none" | "light" | "full";

/** The pool's first message to each worker it starts. */
export interface WarmUpRequest {
  readonly warmUp: WarmUp;
  /**
   * One `Int32` over a `SharedArrayBuffer`, written by the pool and read by
   * the worker's checkpoints: the id of the job to stop, or
   * {@linkcode CANCEL_ALL}. Absent where the runtime has no shared memory.
   */
  readonly cancel?: Int32Array;
}

/** The value of {@linkcode WarmUpRequest.cancel} that stops whatever the worker runs. */
export const CANCEL_ALL = -1;

/**
 * A message from a worker to the pool. `ready` is posted once the module has
 * loaded, which lets the pool tell a worker that cannot start (the pool then
 * parses on the calling thread) from one that crashed on a job.
 */
export type WorkerReply =
  | { readonly type: "ready" }
  /** The worker's warm-up (see worker.ts) is over: it ran out, or a job cut it short. */
  | { readonly type: "warm" }
  | { readonly type: "done"; readonly id: number; readonly outcome: ParseOutcome }
  | { readonly type: "failed"; readonly id: number; readonly message: string };

/**
 * Decompresses (when gzipped) and parses one sitemap body.
 *
 * Never rejects: a body that cannot be inflated, one past `maxSitemapBytes` and
 * any unexpected error become a `{ kind: "invalid" }` result. A truncated gzip
 * stream is parsed as far as it inflated, and the decompressor's warning is
 * carried into the result when the parser had none of its own.
 *
 * @param job The body and how to read it.
 * @param checkpoint Called at least every 1 MiB of input; when it throws
 *   {@linkcode ParseCancelled}, the outcome is an invalid result with
 *   {@linkcode ParseOutcome.cancelled} set.
 * @returns The parse result with its sizes and timing.
 *
 * @example Parse a plain robots.txt body
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { runParseJob } from "./_job.ts";
 *
 * const outcome = await runParseJob({
 *   bytes: new TextEncoder().encode("Sitemap: https://example.com/sitemap.xml\n"),
 *   url: "https://example.com/robots.txt",
 *   since: NaN,
 *   robots: true,
 *   contentType: "text/plain",
 *   maxSitemapBytes: 52_428_800,
 * });
 * deepStrictEqual(
 *   outcome.result.kind === "index" ? outcome.result.children.map((child) => child.url) : [],
 *   ["https://example.com/sitemap.xml"],
 * );
 * ```
 */
export async function runParseJob(
  job: ParseJob,
  checkpoint: Checkpoint = NO_CHECKPOINT,
): Promise<ParseOutcome> {
  const start = performance.now();
  const elapsed = (): number => performance.now() - start;
  let total = 0;
  try {
    const inflated = await decompressIfGzip(job.bytes, job.maxSitemapBytes, checkpoint);
    if (!inflated.ok) {
      return { result: invalid(inflated.reason), decompressedBytes: 0, parseMs: elapsed() };
    }
    const bytes = inflated.bytes;
    total = bytes.byteLength;
    // Checked whether or not the body was gzipped, so a decompressor that
    // overshoots its bound by a chunk still cannot hand the parser more.
    if (bytes.byteLength > job.maxSitemapBytes) {
      return {
        result: invalid(`Sitemap expands past ${job.maxSitemapBytes} bytes`),
        decompressedBytes: bytes.byteLength,
        parseMs: elapsed(),
      };
    }
    // Read now: a freed (detached) view has length 0.
    const size = bytes.byteLength;
    // Inflated here, so read by nothing after the parse: the parse may
    // gather its kept spans in it and free it (see spareDocument()).
    if (inflated.gzipped) spareDocument(bytes);
    const parsed = parseSitemapBody(bytes, {
      url: job.url,
      since: job.cache === undefined ? job.since : NaN,
      robots: job.robots,
      contentType: job.contentType,
      checkpoint,
      ...(job.extensions === undefined ? {} : { extensions: job.extensions }),
    }, { gzip: keptBody(inflated, job.bytes), gzipShare: runtime.keptGzipShare });
    // Freed now (its buffer detached), when the parse did not: a worker
    // inflating sitemap after sitemap otherwise held dead documents until it
    // collected (bench/README.md#memory-freed-early). The inflater's output
    // chunk is the document's alone, and may be the bound's size
    // (decompress.ts); a small output may share a pooled slab.
    if (inflated.gzipped) detachBuffer(bytes, SPARE_DOCUMENT);
    let result = withWarning(parsed, inflated.warning ?? null);
    if (job.cache === undefined || result.kind === "invalid") {
      return { result, decompressedBytes: size, parseMs: elapsed() };
    }
    const cacheEntry = encodeCacheEntry({
      ...job.cache,
      decompressedBytes: size,
      result,
    });
    if (result.kind === "pages") {
      const kept = filterPagesSince(result.pages, job.since);
      // The unfiltered columns live on in the cache entry only: freed now,
      // not left for the collector (the extensions may share their bytes).
      if (kept !== result.pages) detachPackedPages(result.pages);
      result = { ...result, pages: kept };
    }
    return { result, decompressedBytes: size, parseMs: elapsed(), cacheEntry };
  } catch (error) {
    if (error instanceof ParseCancelled) {
      return {
        result: invalid(error.message),
        decompressedBytes: total,
        parseMs: elapsed(),
        cancelled: { at: error.at, total },
      };
    }
    return {
      result: invalid(`Parser failed: ${errorMessage(error)}`),
      decompressedBytes: 0,
      parseMs: elapsed(),
    };
  }
}

/** The body to keep for the document's extensions: gzip of exactly the document, read whole. */
function keptBody(
  inflated: { readonly bytes: Uint8Array; readonly gzipped: boolean; readonly warning?: string },
  body: Uint8Array,
): Uint8Array | null {
  return inflated.gzipped && inflated.warning === undefined && keepableGzip(body, inflated.bytes)
    ? body
    : null;
}

function invalid(reason: string): ParseResult {
  return { kind: "invalid", reason };
}

function withWarning(result: ParseResult, warning: string | null): ParseResult {
  if (warning === null || result.kind === "invalid" || result.warning !== null) return result;
  return { ...result, warning };
}
