/**
 * Collects the pages of one sitemap into {@linkcode PackedPages}: growable
 * typed columns, URL strings until packing, extras as JSON from the start.
 *
 * @module
 */
import type { PackedPages, PageExtrasData } from "./_result.ts";

/**
 * Returns a copy of `s` that shares no storage with the string it was cut
 * from. V8 keeps a substring pointing into its parent, so one URL sliced
 * from a 1 MiB decoded chunk would keep the whole chunk alive until the
 * pages are packed; prefixing builds a rope, and slicing the rope flattens it
 * into new storage.
 */
function detached(s: string): string {
  return (" " + s).slice(1);
}

/** Appends pages, drops duplicates and pages older than `since`, and packs them. */
export class PackedPagesBuilder {
  readonly #since: number;
  readonly #seen = new Set<string>();
  #urls: string[] = [];
  #lastModified = new Float64Array(1024);
  #priority = new Float64Array(1024);
  #changeFrequency = new Uint8Array(1024);
  #extras: string[] = [];
  #count = 0;
  #found = 0;

  /**
   * @param since Keep only pages whose lastmod is >= this (epoch ms) or
   * missing; NaN keeps all.
   */
  constructor(since: number = NaN) {
    this.#since = since;
  }

  /** Distinct pages added so far, before the `since` filter. */
  get found(): number {
    return this.#found;
  }

  /** Pages kept so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Adds one page unless its URL was already added (the first one wins) or
   * its lastmod is before `since`.
   *
   * @param url An absolute, normalised URL.
   * @param lastModified Epoch ms, or NaN.
   * @param priority Already in [0, 1].
   * @param changeFrequency 0 or 1 + index in `CHANGE_FREQUENCIES`.
   * @param extras The page's rare data, or null.
   * @returns Whether the page was kept.
   */
  add(
    url: string,
    lastModified: number,
    priority: number,
    changeFrequency: number,
    extras: PageExtrasData | null,
  ): boolean {
    if (this.#seen.has(url)) return false;
    const own = detached(url);
    this.#seen.add(own);
    this.#found++;
    if (lastModified < this.#since) return false;
    const i = this.#count;
    if (i === this.#priority.length) this.#grow();
    this.#urls.push(own);
    this.#lastModified[i] = lastModified;
    this.#priority[i] = priority;
    this.#changeFrequency[i] = changeFrequency;
    // Serialising now copies every string out of the document and frees the
    // objects; NaN dates become null, which readers map back to "absent".
    if (extras !== null) this.#extras.push(JSON.stringify([i, extras]));
    this.#count = i + 1;
    return true;
  }

  #grow(): void {
    const size = this.#priority.length * 2;
    const lm = new Float64Array(size);
    lm.set(this.#lastModified);
    this.#lastModified = lm;
    const pr = new Float64Array(size);
    pr.set(this.#priority);
    this.#priority = pr;
    const cf = new Uint8Array(size);
    cf.set(this.#changeFrequency);
    this.#changeFrequency = cf;
  }

  /**
   * Packs the pages kept so far; every typed array gets its own exactly
   * sized buffer, ready for a transfer list. The builder is emptied.
   *
   * @returns The packed pages.
   */
  build(): PackedPages {
    const count = this.#count;
    const urls = this.#urls;
    const urlEnds = new Uint32Array(count);
    let end = 0;
    for (let i = 0; i < count; i++) {
      end += urls[i]!.length;
      urlEnds[i] = end;
    }
    const urlBytes = new TextEncoder().encode(urls.join(""));
    const pages: PackedPages = {
      count,
      urlBytes,
      urlEnds,
      lastModified: this.#lastModified.slice(0, count),
      priority: this.#priority.slice(0, count),
      changeFrequency: this.#changeFrequency.slice(0, count),
      extras: this.#extras.length === 0 ? "" : `[${this.#extras.join(",")}]`,
    };
    this.#urls = [];
    this.#extras = [];
    this.#seen.clear();
    this.#count = 0;
    this.#found = 0;
    return pages;
  }
}
