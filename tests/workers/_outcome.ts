/**
 * Test helpers: a parse outcome as plain JSON-able data (page columns decoded
 * into arrays, timing dropped), so outcomes from a worker in a subprocess and
 * from the calling thread compare with one `deepEqual`.
 *
 * @module
 */
import { pageExtrasEntries } from "../../src/parse/_kept_extras.ts";
import type { PackedPages } from "../../src/parse/_result.ts";
import type { ParseJob, ParseOutcome } from "../../src/workers/_job.ts";

/** A {@linkcode ParseJob} as JSON: the bytes in base64. */
export interface JobData {
  readonly base64: string;
  readonly url: string;
  /** `null` for NaN, which JSON cannot carry. */
  readonly since: number | null;
  readonly robots: boolean;
  readonly contentType: string | null;
  readonly maxSitemapBytes: number;
}

/** Encodes a job for the subprocess script. */
export function jobData(job: ParseJob): JobData {
  return {
    base64: btoa(Array.from(job.bytes, (byte) => String.fromCharCode(byte)).join("")),
    url: job.url,
    since: Number.isNaN(job.since) ? null : job.since,
    robots: job.robots,
    contentType: job.contentType,
    maxSitemapBytes: job.maxSitemapBytes,
  };
}

/** Decodes a job encoded by {@linkcode jobData}. */
export function jobFromData(data: JobData): ParseJob {
  return {
    bytes: Uint8Array.from(atob(data.base64), (char) => char.charCodeAt(0)),
    url: data.url,
    since: data.since ?? NaN,
    robots: data.robots,
    contentType: data.contentType,
    maxSitemapBytes: data.maxSitemapBytes,
  };
}

/** The outcome without its timing, pages decoded, as it reads after a JSON round trip. */
export function plainOutcome(outcome: ParseOutcome): unknown {
  const result = outcome.result;
  const plain = result.kind === "pages" ? { ...result, pages: plainPages(result.pages) } : result;
  return JSON.parse(
    JSON.stringify({ result: plain, decompressedBytes: outcome.decompressedBytes }),
  );
}

function plainPages(pages: PackedPages): unknown {
  const text = new TextDecoder().decode(pages.urlBytes);
  const urls: string[] = [];
  for (let i = 0, start = 0; i < pages.count; i++) {
    const end = pages.urlEnds[i]!;
    urls.push(text.slice(start, end));
    start = end;
  }
  const count = pages.count;
  return {
    count,
    urls,
    lastModified: Array.from(pages.lastModified.subarray(0, count)),
    priority: Array.from(pages.priority.subarray(0, count)),
    changeFrequency: Array.from(pages.changeFrequency.subarray(0, count)),
    extras: pages.extras === null ? "" : JSON.stringify(pageExtrasEntries(pages.extras)),
  };
}
