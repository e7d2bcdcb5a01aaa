/**
 * The tree as `usp ls` prints it (`formatTabTree`), shared by the command
 * line and the demo.
 *
 * @module
 */
import type { AbstractSitemap } from "../objects/sitemap.ts";
import { AbstractPagesSitemap, InvalidSitemap } from "../objects/sitemap.ts";

/** Options of {@linkcode formatTabTree}. */
export interface FormatTabTreeOptions {
  /** Print URLs on the root's host as paths (other hosts stay absolute). @default {false} */
  readonly stripUrl?: boolean;
  /** Print pages under their sitemaps, not only the sitemaps. @default {true} */
  readonly pages?: boolean;
}

/**
 * The tree as `usp ls` prints it: one line per sitemap, indented with tabs by
 * depth, its pages one tab deeper. Unlike USP, an invalid sitemap is marked
 * with its reason.
 *
 * @param root The node to print (its own URL is the first line).
 * @param options How to print URLs and whether to print pages.
 * @returns The lines, without line breaks, lazily.
 *
 * @example Print a tree
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { formatTabTree, sitemapFromString } from "@sitemap/tree";
 *
 * const tree = sitemapFromString("https://example.com/a\n", { url: "https://example.com/s.txt" });
 * deepStrictEqual([...formatTabTree(tree)], [
 *   "https://example.com/s.txt",
 *   "\thttps://example.com/a",
 * ]);
 * deepStrictEqual([...formatTabTree(tree, { stripUrl: true })][1], "\t/a");
 * ```
 */
export function* formatTabTree(
  root: AbstractSitemap,
  options: FormatTabTreeOptions = {},
): Generator<string, void, undefined> {
  const strip = options.stripUrl ?? false;
  const withPages = options.pages ?? true;
  const origin = originOf(root);
  const show = (url: string, depth: number): string =>
    depth > 0 && strip ? stripOrigin(url, origin) : url;

  function* walk(node: AbstractSitemap, depth: number): Generator<string, void, undefined> {
    const indent = "\t".repeat(depth);
    const marker = node instanceof InvalidSitemap ? `  [invalid: ${node.reason}]` : "";
    yield indent + show(node.url, depth) + marker;
    for (const sub of node.subSitemaps) yield* walk(sub, depth + 1);
    // Only pages nodes hold pages; allPages() streams them without caching.
    if (withPages && node instanceof AbstractPagesSitemap) {
      const pageIndent = indent + "\t";
      for (const page of node.allPages()) yield pageIndent + show(page.url, depth + 1);
    }
  }
  yield* walk(root, 0);
}

/** The root's origin, or "" when its URL does not parse (then nothing is stripped). */
export function originOf(root: AbstractSitemap): string {
  try {
    return new URL(root.url).origin;
  } catch {
    return "";
  }
}

/** `url` as a path when it is on `origin`, unchanged otherwise. */
export function stripOrigin(url: string, origin: string): string {
  if (origin !== "" && url.startsWith(origin)) {
    const rest = url.slice(origin.length);
    if (rest === "" || rest.startsWith("/") || rest.startsWith("?")) return rest || "/";
  }
  return url;
}
