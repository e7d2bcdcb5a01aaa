/**
 * Test helpers for the parsers: run parseSitemap on a string or a fixture
 * file, and turn packed pages back into plain rows that assertions can
 * compare exactly.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pageExtrasEntries } from "../../src/parse/_kept_extras.ts";
import { CHANGE_FREQUENCIES, type PackedPages, type ParseResult } from "../../src/parse/_result.ts";
import { parseSitemap, type ParseSitemapOptions } from "../../src/parse/parse_sitemap.ts";

/** The URL tests give documents unless they say otherwise. */
export const BASE = "https://www.example.com/sitemap.xml";

/** One page as plain data; dates as ISO strings (null when absent). */
export interface Row {
  url: string;
  lastModified: string | null;
  priority: number;
  changeFrequency: string | null;
}

/** ISO string of epoch ms, null for NaN. */
export function iso(ms: number): string | null {
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Every page of `pages` as a row. */
export function rows(pages: PackedPages): Row[] {
  const text = new TextDecoder().decode(pages.urlBytes);
  const out: Row[] = [];
  for (let i = 0; i < pages.count; i++) {
    const cf = pages.changeFrequency[i]!;
    out.push({
      url: text.slice(i === 0 ? 0 : pages.urlEnds[i - 1], pages.urlEnds[i]),
      lastModified: iso(pages.lastModified[i]!),
      priority: pages.priority[i]!,
      changeFrequency: cf === 0 ? null : CHANGE_FREQUENCIES[cf - 1]!,
    });
  }
  return out;
}

/** Page URLs of `pages`, in order. */
export function urls(pages: PackedPages): string[] {
  return rows(pages).map((r) => r.url);
}

/**
 * The extras of `pages` in their JSON form, `[pageIndex, extras][]` with
 * absent dates as null, or "" when no page has any: decoded, so that kept
 * and encoded extensions compare by what they read as.
 */
export function extrasJson(pages: PackedPages): string {
  if (pages.extras === null) return "";
  const entries = pageExtrasEntries(pages.extras);
  return entries.length === 0 ? "" : JSON.stringify(entries);
}

/** The extras of `pages` as a map from page index, with JSON's nulls for absent dates. */
export function extras(pages: PackedPages): Map<number, unknown> {
  const json = extrasJson(pages);
  return new Map(json === "" ? [] : JSON.parse(json));
}

/** Parses `doc` (a string is UTF-8 encoded first) with {@linkcode BASE} as URL by default. */
export function parse(
  doc: string | Uint8Array,
  options: Partial<ParseSitemapOptions> = {},
): ParseResult {
  const bytes = typeof doc === "string" ? new TextEncoder().encode(doc) : doc;
  return parseSitemap(bytes, { url: BASE, ...options });
}

/** Narrows a result to pages, failing with the result when it is not. */
export function pagesOf(result: ParseResult): Extract<ParseResult, { kind: "pages" }> {
  if (result.kind !== "pages") throw new Error(`Expected pages, got ${JSON.stringify(result)}`);
  return result;
}

/** Narrows a result to an index, failing with the result when it is not. */
export function indexOf(result: ParseResult): Extract<ParseResult, { kind: "index" }> {
  if (result.kind !== "index") throw new Error(`Expected an index, got ${JSON.stringify(result)}`);
  return result;
}

/** The bytes of a file under fixtures/files/. */
export function fixture(path: string): Uint8Array {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/files/${path}`, import.meta.url)));
}

/** A urlset of `n` pages with loc and lastmod, as generators write them. */
export function generatedUrlset(n: number, seed = 0): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < n; i++) {
    const day = String(1 + ((i + seed) % 28)).padStart(2, "0");
    parts.push(
      `  <url><loc>https://www.example.com/p/${seed}-${i}</loc><lastmod>2024-03-${day}</lastmod></url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}
