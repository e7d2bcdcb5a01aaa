/**
 * Pure parsing, no network: turn a sitemap document you already have into the
 * same typed tree `sitemapTreeForHomepage()` builds, or rebuild a tree from
 * its JSON.
 *
 * @example Parse a sitemap you fetched yourself
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { sitemapFromString } from "@sitemap/tree/parse";
 *
 * const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *   <url><loc>https://www.example.com/</loc></url>
 * </urlset>`;
 * const sitemap = sitemapFromString(xml, { url: "https://www.example.com/sitemap.xml" });
 * strictEqual(sitemap.pages[0]?.url, "https://www.example.com/");
 * ```
 *
 * @module
 */
export * from "./src/sitemap_from_string.ts";
export * from "./src/decompress_sitemap.ts";
export * from "./src/parse/robots_txt.ts";
export * from "./src/objects/sitemap.ts";
export * from "./src/objects/page.ts";
export * from "./src/objects/from_json.ts";
export * from "./src/snapshot.ts";
export * from "./src/changes.ts";
export * from "./src/sections.ts";
export * from "./src/histogram.ts";
