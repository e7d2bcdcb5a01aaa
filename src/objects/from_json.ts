/**
 * Reads a tree back from the JSON that `toJSON()` writes, so a crawl can be
 * saved, diffed or shipped elsewhere and used again as a typed tree.
 *
 * @module
 */

import { CHANGE_FREQUENCIES, type ChangeFrequency } from "../parse/_result.ts";
import {
  SitemapAlternate,
  SitemapImage,
  SitemapNewsStory,
  SitemapPage,
  SitemapVideo,
} from "./page.ts";
import {
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  type PagesSitemapType,
  type SitemapType,
} from "./sitemap.ts";
import { pagesSitemap } from "./_build.ts";

const SITEMAP_TYPES: readonly SitemapType[] = [
  "website",
  "robots",
  "index",
  "urlset",
  "text",
  "rss",
  "atom",
  "invalid",
];

type Json = Record<string, unknown>;

/** Shows a bad value briefly: enough to find it, not a megabyte of JSON. */
function show(value: unknown): string {
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function fail(path: string, key: string | null, expected: string, value: unknown): never {
  const where = key === null ? path : `"${key}" at ${path}`;
  throw new TypeError(`Expected ${where} to be ${expected} but got ${show(value)}`);
}

function object(value: unknown, path: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(path, null, "an object", value);
  }
  return value as Json;
}

function array(record: Json, key: string, path: string): readonly unknown[] {
  const value = record[key];
  if (!Array.isArray(value)) fail(path, key, "an array", value);
  return value;
}

function optionalArray(record: Json, key: string, path: string): readonly unknown[] {
  return record[key] === undefined ? [] : array(record, key, path);
}

function string(record: Json, key: string, path: string): string {
  const value = record[key];
  if (typeof value !== "string") fail(path, key, "a string", value);
  return value;
}

function stringOrNull(record: Json, key: string, path: string): string | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") fail(path, key, "a string or null", value);
  return value;
}

function numberOrNull(record: Json, key: string, path: string): number | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    fail(path, key, "a finite number or null", value);
  }
  return value;
}

function booleanOrNull(record: Json, key: string, path: string): boolean | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "boolean") fail(path, key, "a boolean or null", value);
  return value;
}

function parseDate(value: unknown, path: string, key: string | null): Date | null {
  if (value === undefined || value === null) return null;
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  if (ms !== ms) fail(path, key, "an ISO 8601 date string or null", value);
  return new Date(ms);
}

function strings(record: Json, key: string, path: string): string[] {
  return optionalArray(record, key, path).map((value, i) => {
    if (typeof value !== "string") fail(`${path}.${key}[${i}]`, null, "a string", value);
    return value;
  });
}

function list<T>(
  record: Json,
  key: string,
  path: string,
  read: (value: unknown, path: string) => T,
  required = false,
): T[] {
  const values = required ? array(record, key, path) : optionalArray(record, key, path);
  return values.map((value, i) => read(value, `${path}.${key}[${i}]`));
}

function newsStoryFromJSON(value: unknown, path: string): SitemapNewsStory {
  const json = object(value, path);
  return new SitemapNewsStory({
    title: string(json, "title", path),
    publishDate: parseDate(json.publishDate, path, "publishDate"),
    publicationName: stringOrNull(json, "publicationName", path),
    publicationLanguage: stringOrNull(json, "publicationLanguage", path),
    access: stringOrNull(json, "access", path),
    genres: strings(json, "genres", path),
    keywords: strings(json, "keywords", path),
    stockTickers: strings(json, "stockTickers", path),
  });
}

function imageFromJSON(value: unknown, path: string): SitemapImage {
  const json = object(value, path);
  return new SitemapImage({
    loc: string(json, "loc", path),
    caption: stringOrNull(json, "caption", path),
    geoLocation: stringOrNull(json, "geoLocation", path),
    title: stringOrNull(json, "title", path),
    license: stringOrNull(json, "license", path),
  });
}

function videoFromJSON(value: unknown, path: string): SitemapVideo {
  const json = object(value, path);
  return new SitemapVideo({
    thumbnailLoc: stringOrNull(json, "thumbnailLoc", path),
    title: stringOrNull(json, "title", path),
    description: stringOrNull(json, "description", path),
    contentLoc: stringOrNull(json, "contentLoc", path),
    playerLoc: stringOrNull(json, "playerLoc", path),
    duration: numberOrNull(json, "duration", path),
    expirationDate: parseDate(json.expirationDate, path, "expirationDate"),
    rating: numberOrNull(json, "rating", path),
    viewCount: numberOrNull(json, "viewCount", path),
    publicationDate: parseDate(json.publicationDate, path, "publicationDate"),
    familyFriendly: booleanOrNull(json, "familyFriendly", path),
    requiresSubscription: booleanOrNull(json, "requiresSubscription", path),
    live: booleanOrNull(json, "live", path),
    uploader: stringOrNull(json, "uploader", path),
    tags: strings(json, "tags", path),
  });
}

function alternateFromJSON(value: unknown, path: string): SitemapAlternate {
  const json = object(value, path);
  return new SitemapAlternate({
    hreflang: string(json, "hreflang", path),
    href: string(json, "href", path),
  });
}

function pageFromJSON(value: unknown, path: string): SitemapPage {
  const json = object(value, path);
  const priority = json.priority ?? 0.5;
  if (typeof priority !== "number" || !(priority >= 0 && priority <= 1)) {
    fail(path, "priority", "a number from 0 to 1", priority);
  }
  const changeFrequency = json.changeFrequency ?? null;
  if (
    changeFrequency !== null && !CHANGE_FREQUENCIES.includes(changeFrequency as ChangeFrequency)
  ) {
    fail(
      path,
      "changeFrequency",
      `one of ${CHANGE_FREQUENCIES.join(", ")} or null`,
      changeFrequency,
    );
  }
  const newsStory = json.newsStory ?? null;
  return new SitemapPage({
    url: string(json, "url", path),
    priority,
    lastModified: parseDate(json.lastModified, path, "lastModified"),
    changeFrequency: changeFrequency as ChangeFrequency | null,
    newsStory: newsStory === null ? null : newsStoryFromJSON(newsStory, `${path}.newsStory`),
    images: list(json, "images", path, imageFromJSON),
    videos: list(json, "videos", path, videoFromJSON),
    alternates: list(json, "alternates", path, alternateFromJSON),
  });
}

function flags(json: Json, path: string): { unchanged: boolean } {
  return { unchanged: booleanOrNull(json, "unchanged", path) === true };
}

function nodeFromJSON(value: unknown, path: string): AbstractSitemap {
  const json = object(value, path);
  const type = json.type;
  if (!SITEMAP_TYPES.includes(type as SitemapType)) {
    fail(path, "type", `one of ${SITEMAP_TYPES.join(", ")}`, type);
  }
  const url = string(json, "url", path);
  switch (type as SitemapType) {
    case "invalid":
      return new InvalidSitemap(url, string(json, "reason", path));
    case "urlset":
    case "text":
    case "rss":
    case "atom":
      return pagesSitemap(
        type as PagesSitemapType,
        url,
        list(json, "pages", path, pageFromJSON, true),
        flags(json, path),
      );
    case "website":
      return new IndexWebsiteSitemap(url, list(json, "subSitemaps", path, nodeFromJSON, true));
  }
  const subSitemaps = list(json, "subSitemaps", path, nodeFromJSON, true);
  const lastModifiedJSON = optionalArray(json, "subSitemapLastModified", path);
  if (json.subSitemapLastModified !== undefined && lastModifiedJSON.length !== subSitemaps.length) {
    fail(
      path,
      "subSitemapLastModified",
      `an array of ${subSitemaps.length} entries (one per sub-sitemap)`,
      json.subSitemapLastModified,
    );
  }
  const lastModified = subSitemaps.map((_, i) =>
    parseDate(lastModifiedJSON[i], `${path}.subSitemapLastModified[${i}]`, null)
  );
  if (type === "index") return new IndexXMLSitemap(url, subSitemaps, lastModified);
  const text = stringOrNull(json, "robotsTxt", path) ?? "";
  return new IndexRobotsTxtSitemap(url, subSitemaps, lastModified, text);
}

/**
 * Rebuilds a tree from what `toJSON()` wrote (usually after a trip through
 * `JSON.stringify` and `JSON.parse`): classes, types, pages and dates come back
 * as they were, so the result's `toJSON()` equals the input.
 *
 * Page fields other than `url` may be left out and take their defaults, and
 * `subSitemapLastModified` may be left out (all null), so hand-written JSON
 * is read too. Pages come back as objects (not in the packed form a crawl
 * produces), so a reloaded tree of a million pages costs their objects' memory.
 *
 * @param json A value of the shape `toJSON()` returns.
 * @returns The root node of the rebuilt tree.
 * @throws {TypeError} When a value is missing or has the wrong type; the
 * message names its path (like `$.subSitemaps[2].pages[0]`) and the value.
 *
 * @example Round-trip a tree through a string
 * ```ts
 * import { deepStrictEqual, ok } from "node:assert/strict";
 * import { IndexWebsiteSitemap, InvalidSitemap, sitemapTreeFromJSON } from "@sitemap/tree/parse";
 *
 * const tree = new IndexWebsiteSitemap("https://example.com/", [
 *   new InvalidSitemap("https://example.com/sitemap.xml", "Unable to fetch sitemap: 404"),
 * ]);
 * const copy = sitemapTreeFromJSON(JSON.parse(JSON.stringify(tree)));
 * ok(copy instanceof IndexWebsiteSitemap);
 * deepStrictEqual(copy.toJSON(), tree.toJSON());
 * ```
 */
export function sitemapTreeFromJSON(json: unknown): AbstractSitemap {
  return nodeFromJSON(json, "$");
}
