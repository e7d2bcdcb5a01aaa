/**
 * Pages' hreflang alternates read straight from a pages node's columns,
 * without building page objects: the one place the tree checks read
 * alternates, so that a change to how extensions are stored changes this
 * file only.
 *
 * @module
 */
import { extrasReader, type PageExtrasReader } from "./parse/_kept_extras.ts";
import type { AlternateData, PackedExtras, PackedPages } from "./parse/_result.ts";

/** Reads the alternates of one pages node's pages, in any order. */
export class AlternatesReader {
  readonly #extras: PackedExtras | null;
  /** Made on the first page read: kept extensions are decoded then. */
  #reader: PageExtrasReader | null = null;

  /** @param columns The node's columns. */
  constructor(columns: PackedPages) {
    this.#extras = columns.extras;
  }

  /** Whether no page of the node has any extension (so none has alternates). */
  get empty(): boolean {
    return this.#extras === null;
  }

  /**
   * Whether page `i` has any extension (news, images, videos or
   * alternates): a page without one has no alternates.
   *
   * @param i The page's index in its node.
   * @returns False when it surely has no alternates.
   */
  mayHave(i: number): boolean {
    const x = this.#extras;
    return x !== null && i + 1 < x.pageStarts.length && x.pageStarts[i + 1]! > x.pageStarts[i]!;
  }

  /**
   * Page `i`'s alternates.
   *
   * @param i The page's index in its node.
   * @returns Its alternates in document order, or null when it has none.
   */
  at(i: number): readonly AlternateData[] | null {
    const x = this.#extras;
    if (x === null || !this.mayHave(i)) return null;
    const reader = this.#reader ??= extrasReader(x);
    const alternates = reader.page(i)?.alternates;
    return alternates === undefined || alternates.length === 0 ? null : alternates;
  }
}
