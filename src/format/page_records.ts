/**
 * The page-per-record formats of `ls` (`pages`, `ndjson`, `csv`) and the
 * tree as streamed JSON (`json`), with the per-sitemap columns of
 * `--sitemap-columns`. Each format is a generator of text pieces, so the
 * caller writes them in batches without ever holding the whole output; the
 * one-line writers (`ndjsonLine`, `csvRow`) serve the streamed `ls` and the
 * site records of `batch` and the queue.
 *
 * @module
 */
import { isoString } from "../objects/_iso.ts";
import type { SitemapPage } from "../objects/page.ts";
import {
  AbstractIndexSitemap,
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexWebsiteSitemap,
} from "../objects/sitemap.ts";
import type { SitemapFetchStat } from "../stats.ts";
import { originOf, stripOrigin } from "./tab_tree.ts";

/** Every pages node of the tree with its pages, depth-first, the root included. */
export function* pagesNodes(
  root: AbstractSitemap,
): Generator<AbstractPagesSitemap, void, undefined> {
  if (root instanceof AbstractPagesSitemap) yield root;
  for (const node of root.allSitemaps()) {
    if (node instanceof AbstractPagesSitemap) yield node;
  }
}

/**
 * `pages`: one page URL per line, in tree order (as USP's `ls -f pages`).
 *
 * @param root The tree.
 * @param stripUrl Print URLs on the root's origin as paths.
 * @returns Lines with their `\n`.
 */
export function* pagesFormat(
  root: AbstractSitemap,
  stripUrl: boolean,
  unique = false,
): Generator<string, void, undefined> {
  const origin = stripUrl ? originOf(root) : "";
  for (const { page } of treePages(root, unique)) yield stripOrigin(page.url, origin) + "\n";
}

/** Each page with the sitemap that listed it, in tree order; with `unique`, each URL once (first wins). */
function* treePages(
  root: AbstractSitemap,
  unique: boolean,
): Generator<{ page: SitemapPage; node: AbstractPagesSitemap }, void, undefined> {
  const seen = unique ? new Set<string>() : null;
  for (const node of pagesNodes(root)) {
    for (const page of node.allPages()) {
      if (seen !== null) {
        if (seen.has(page.url)) continue;
        seen.add(page.url);
      }
      yield { page, node };
    }
  }
}

/**
 * The NDJSON object of one page: `url`, `sitemap` (the URL of the sitemap
 * that listed it), `lastModified` (ISO 8601 or null), `priority`,
 * `changeFrequency` (or null) always; `newsStory`, `images`, `videos` and
 * `alternates` (as in `SitemapPage.toJSON()`) only when the page has them,
 * which keeps plain sitemaps' lines short.
 *
 * @param page The page.
 * @param sitemap The URL of the sitemap that listed it.
 * @returns The object, ready for `JSON.stringify`.
 */
export function ndjsonRecord(page: SitemapPage, sitemap: string): Record<string, unknown> {
  const record: Record<string, unknown> = {
    url: page.url,
    sitemap,
    lastModified: page.lastModified === null ? null : isoString(page.lastModified.getTime()),
    priority: page.priority,
    changeFrequency: page.changeFrequency,
  };
  if (page.newsStory !== null) record.newsStory = page.newsStory.toJSON();
  if (page.images.length > 0) record.images = page.images.map((image) => image.toJSON());
  if (page.videos.length > 0) record.videos = page.videos.map((video) => video.toJSON());
  if (page.alternates.length > 0) record.alternates = page.alternates.map((a) => a.toJSON());
  return record;
}

/**
 * `ndjson`: one JSON object per page and line, in tree order; see
 * {@linkcode ndjsonRecord} for the keys.
 *
 * @param root The tree.
 * @returns Lines with their `\n`.
 */
export function* ndjsonFormat(
  root: AbstractSitemap,
  unique = false,
  columns: SitemapColumns | null = null,
): Generator<string, void, undefined> {
  yield* rows(root, unique, (sitemap) => {
    const field = JSON.stringify(sitemap);
    const extra = columns === null ? "" : columns.json(sitemap);
    return (page) => {
      const line = ndjsonLine(page, sitemap, field);
      return extra === "" ? line : line.slice(0, -2) + extra + "}\n";
    };
  });
}

/**
 * One row per page in tree order, written by the writer `start` makes once
 * per sitemap (so per-sitemap fields are encoded once, not per page).
 */
function* rows(
  root: AbstractSitemap,
  unique: boolean,
  start: (sitemap: string) => (page: SitemapPage) => string,
): Generator<string, void, undefined> {
  let sitemap: string | null = null;
  let row: (page: SitemapPage) => string = () => "";
  for (const { page, node } of treePages(root, unique)) {
    if (node.url !== sitemap) {
      sitemap = node.url;
      row = start(sitemap);
    }
    yield row(page);
  }
}

/**
 * advertools' per-sitemap columns (`--sitemap-columns`): the sitemap's
 * `Last-Modified` header (ISO 8601), its `ETag` and when it was downloaded,
 * from the call's fetch records, as the ndjson keys `sitemapLastModified`,
 * `etag`, `downloadDate` and the csv columns `sitemap_last_modified`, `etag`,
 * `download_date` (null or empty when unknown).
 */
export interface SitemapColumns {
  /** `,"sitemapLastModified":…,"etag":…,"downloadDate":…` for the sitemap at `url`. */
  json(url: string): string;
  /** `,sitemap_last_modified,etag,download_date` fields for the sitemap at `url`. */
  csv(url: string): string;
}

/** The names of the csv columns {@linkcode SitemapColumns} adds. */
export const SITEMAP_CSV_COLUMNS: readonly string[] = [
  "sitemap_last_modified",
  "etag",
  "download_date",
];

/**
 * The per-sitemap columns of a crawl.
 *
 * @param fetches The call's fetch records (`stats.fetches`).
 * @returns The columns, looked up by a sitemap's final URL.
 */
export function sitemapColumns(fetches: readonly SitemapFetchStat[]): SitemapColumns {
  const byUrl = new Map<string, SitemapFetchStat>();
  for (const f of fetches) if (!byUrl.has(f.finalUrl)) byUrl.set(f.finalUrl, f);
  const values = (url: string): [string | null, string | null, string | null] => {
    const f = byUrl.get(url);
    if (f === undefined) return [null, null, null];
    const modified = f.lastModified === null ? NaN : Date.parse(f.lastModified);
    return [
      Number.isNaN(modified) ? null : isoString(modified),
      f.etag,
      f.fetchedAt === null ? null : isoString(f.fetchedAt),
    ];
  };
  return {
    json(url) {
      const [modified, etag, at] = values(url);
      return `,"sitemapLastModified":${JSON.stringify(modified)},"etag":${
        JSON.stringify(etag)
      },"downloadDate":${JSON.stringify(at)}`;
    },
    csv(url) {
      return values(url).map((v) => "," + (v === null ? "" : csvField(v))).join("");
    },
  };
}

/**
 * One NDJSON line (see {@linkcode ndjsonRecord}).
 *
 * @param page The page.
 * @param sitemap The URL of the sitemap that listed it.
 * @param sitemapJSON `JSON.stringify(sitemap)`, computed once per sitemap.
 * @returns The line with its `\n`.
 */
export function ndjsonLine(page: SitemapPage, sitemap: string, sitemapJSON: string): string {
  if (hasExtensions(page)) return JSON.stringify(ndjsonRecord(page, sitemap)) + "\n";
  // The common page written by hand: building and stringifying an object
  // per page costs several times more, over a million pages.
  return `{"url":${JSON.stringify(page.url)},"sitemap":${sitemapJSON},"lastModified":${
    jsonDate(page.lastModified)
  },"priority":${page.priority},"changeFrequency":${
    page.changeFrequency === null ? "null" : `"${page.changeFrequency}"`
  }}\n`;
}

function hasExtensions(page: SitemapPage): boolean {
  return page.newsStory !== null || page.images.length > 0 || page.videos.length > 0 ||
    page.alternates.length > 0;
}

function jsonDate(date: Date | null): string {
  return date === null ? "null" : `"${isoString(date.getTime())}"`;
}

/** The header row of the `csv` format. */
export const CSV_HEADER: readonly string[] = [
  "url",
  "lastmod",
  "changefreq",
  "priority",
  "sitemap",
];

/**
 * One CSV field, quoted per RFC 4180 when it holds a comma, quote, CR or LF.
 *
 * @param value The field.
 * @returns The field as written.
 */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * `csv`: a header row, then `url,lastmod,changefreq,priority,sitemap` per
 * page in tree order; lastmod is ISO 8601 and absent values are empty
 * fields. Rows end with CRLF, as RFC 4180 says.
 *
 * @param root The tree.
 * @returns Rows with their `\r\n`.
 */
export function* csvFormat(
  root: AbstractSitemap,
  unique = false,
  columns: SitemapColumns | null = null,
): Generator<string, void, undefined> {
  yield columns === null ? csvHeader() : [...CSV_HEADER, ...SITEMAP_CSV_COLUMNS].join(",") + "\r\n";
  yield* rows(root, unique, (sitemap) => {
    const field = csvField(sitemap);
    const extra = columns === null ? "" : columns.csv(sitemap);
    return (page) => {
      const row = csvRow(page, field);
      return extra === "" ? row : row.slice(0, -2) + extra + "\r\n";
    };
  });
}

/** @returns The CSV header row with its CRLF. */
export function csvHeader(): string {
  return CSV_HEADER.join(",") + "\r\n";
}

/**
 * One CSV row.
 *
 * @param page The page.
 * @param sitemapField The listing sitemap's URL as a CSV field (`csvField()`).
 * @returns The row with its CRLF.
 */
export function csvRow(page: SitemapPage, sitemapField: string): string {
  const lastmod = page.lastModified === null ? "" : isoString(page.lastModified.getTime());
  return `${csvField(page.url)},${lastmod},${page.changeFrequency ?? ""},${
    String(page.priority)
  },${sitemapField}\r\n`;
}

/**
 * `json`: the tree's `toJSON()` as one line of compact JSON (pipe it to `jq`
 * to read it), written node by node and page by page: the text equals
 * `JSON.stringify(root.toJSON())` plus a line break, without ever building
 * it whole.
 *
 * @param root The tree.
 * @returns Pieces of the JSON text.
 */
export function* jsonFormat(root: AbstractSitemap): Generator<string, void, undefined> {
  yield* jsonNode(root);
  yield "\n";
}

function* jsonNode(node: AbstractSitemap): Generator<string, void, undefined> {
  const head = `{"type":${JSON.stringify(node.type)},"url":${JSON.stringify(node.url)}`;
  if (node instanceof AbstractPagesSitemap) {
    yield head + `,"pages":[`;
    let first = true;
    for (const page of node.allPages()) {
      yield (first ? "" : ",") + pageJSON(page);
      first = false;
    }
    yield "]}";
  } else if (node instanceof AbstractIndexSitemap) {
    yield head + `,"subSitemaps":[`;
    let first = true;
    for (const child of node.subSitemaps) {
      if (!first) yield ",";
      first = false;
      yield* jsonNode(child);
    }
    yield "]";
    if (!(node instanceof IndexWebsiteSitemap)) {
      const lastmods = node.subSitemapLastModified.map((d) => d === null ? null : d.toISOString());
      yield `,"subSitemapLastModified":${JSON.stringify(lastmods)}`;
    }
    yield "}";
  } else {
    // Invalid nodes: small, and their toJSON() is the contract.
    yield JSON.stringify(node.toJSON());
  }
}

/** `JSON.stringify(page.toJSON())`, written by hand for pages without extensions. */
function pageJSON(page: SitemapPage): string {
  if (hasExtensions(page)) return JSON.stringify(page.toJSON());
  return `{"url":${JSON.stringify(page.url)},"priority":${page.priority},"lastModified":${
    jsonDate(page.lastModified)
  },"changeFrequency":${
    page.changeFrequency === null ? "null" : `"${page.changeFrequency}"`
  },"newsStory":null,"images":[],"videos":[],"alternates":[]}`;
}
