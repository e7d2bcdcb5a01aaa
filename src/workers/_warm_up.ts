/**
 * The documents a parse worker warms up on (see `worker.ts`): synthetic
 * urlsets in two shapes, so that V8 has optimised both of the parser's
 * ways through a urlset before real ones arrive. A plain urlset (`<loc>` and
 * `<lastmod>` only) goes the core reader's way; one with extension blocks,
 * pretty-printing and unusual URL forms goes the byte walk's, the skipper's
 * and the URL normaliser's. Warmed on plain urlsets alone, a worker's first
 * realistic urlsets ran in code V8 had not optimised for them, then
 * deoptimised and recompiled it (bench/README.md#issue-24-node-within-115-node24c).
 *
 * @module
 */

/** One warm-up job: how many `<url>` entries, and in which shape. */
export interface WarmUpSlice {
  readonly urls: number;
  /** Entries with extension blocks and unusual forms ({@linkcode warmUpDocument}); else plain. */
  readonly rich: boolean;
}

/**
 * Entries that make a slice longer than `CHECKPOINT_BYTES` (1 MiB), so that
 * the readers' checkpoint call runs in the warm-up: without it, each worker's
 * first real document past 1 MiB deoptimised the reader there.
 */
const PLAIN_PAST_CHECKPOINT = 14_000;
const RICH_PAST_CHECKPOINT = 3_000;

function slices(plain: readonly number[], rich: readonly number[]): WarmUpSlice[] {
  const out: WarmUpSlice[] = [];
  for (let i = 0; i < Math.max(plain.length, rich.length); i++) {
    if (i < plain.length) out.push({ urls: plain[i]!, rich: false });
    if (i < rich.length) out.push({ urls: rich[i]!, rich: true });
  }
  return out;
}

/**
 * Slices of a replaced worker and of a pool's default: small while the code
 * is still interpreted (slow), larger once compiled, the two shapes in turn.
 * Kept short so that the warm-up does not compete with jobs for the cores; a
 * worker started for a waiting job stops it at once anyway.
 */
export const LIGHT_WARM_UP: readonly WarmUpSlice[] = slices(
  [20, 50, 100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000],
  [10, 20, 50, 100, 200, 200, 200, 200],
);

/**
 * Slices of a `SitemapParserPool`'s workers, started ahead of calls, and of
 * a call's first worker, started while robots.txt and the index are on the
 * wire (the first job cuts it short). The light warm-up left V8's optimising
 * tier for the first real sitemaps, whose compilation on V8's helper threads
 * then competed with the crawl; a longer warm-up did no better and cost
 * memory (bench/README.md#workers-start-up-warm-up-and-cancellation).
 */
export const FULL_WARM_UP: readonly WarmUpSlice[] = slices(
  [20, 50, 100, 200, 400, 800, 1000, 2000, 4000, 4000, PLAIN_PAST_CHECKPOINT],
  [10, 20, 50, 100, 200, 400, 500, 500, RICH_PAST_CHECKPOINT],
);

const URLSET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- warm-up -->\n' +
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const RICH_NAMESPACES = ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"' +
  ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' +
  ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' +
  ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"';

/** `<loc>` texts of a rich document, in turn: the URL forms real sitemaps have. */
const LOC_FORMS: readonly ((i: number) => string)[] = [
  (i) => `https://warm.example/products/blue-mug-${i}`,
  (i) => `https://warm.example/p/${i}?variant=${i}&amp;utm_source=sitemap`,
  (i) => `https://Warm.EXAMPLE/pages/${i}`,
  (i) => `https://warm.example:443/blog/${i}#top`,
  (i) => `http://192.0.2.${i % 250}/c/${i}`,
  (i) => `https://warm.example/fr/café-crème-${i}`,
  (i) => `https://warm.example/%D0%BF%D1%80%D0%B8-${i}`,
  (i) => `https://bücher.example/b/${i}`,
  (i) => `https://[2001:db8::${i % 100}]/v6/${i}`,
  (i) => `https://warm.example:8443/s/${i}`,
  (i) => `https://xn--bcher-kva.example/x/${i}`,
  (i) => `<![CDATA[https://warm.example/cdata/${i}?a=1&b=2]]>`,
  (i) =>
    `https://warm.example/collections/${"a-long-product-name-".repeat(4)}${i}` +
    `?variant=${i}&amp;utm_source=sitemap&amp;utm_medium=feed#reviews`,
  (i) => `HTTPS://WARM.example/a/./b/../c ${i}/%e6%9d%b1`,
  (i) => `https://warm.example/products/oak-chair-${i}`,
  (i) => `https://warm.example/news/${i}`,
];

/** `<lastmod>` forms, in turn. */
const LASTMOD_FORMS: readonly ((i: number) => string)[] = [
  (i) => `2024-0${1 + (i % 9)}-1${i % 10}`,
  (i) => `2023-1${i % 3}-0${1 + (i % 9)}T12:3${i % 10}:00Z`,
  (i) => `2022-05-2${i % 10}T08:15:42+02:00`,
  (i) => `2021-0${1 + (i % 9)}-0${1 + (i % 9)}T23:59:46.${100 + (i % 900)}Z`,
];

function image(i: number, k: number): string {
  const loc = `<image:loc>https://cdn.warm.example/s/files/1/0${i % 1000}/products/${k}-oak-chair` +
    `-garden-${i}.jpg?v=1686700672&amp;width=1024</image:loc>`;
  switch ((i + k) % 4) {
    case 0:
      return `<image:image>${loc}</image:image>`;
    case 1:
      return `<image:image>${loc}<image:caption><![CDATA[Oak & Wool ${i}]]></image:caption></image:image>`;
    case 2:
      return `<image:image>${loc}<image:title>Blue Mug &#39;${k}&#x2019;</image:title></image:image>`;
    default:
      return `<image:image>${loc}<image:caption>Chair ${i}</image:caption><image:title>Guide</image:title></image:image>`;
  }
}

const LANGUAGES = ["en", "fr", "de", "pt-BR", "x-default", "ja"];

function richEntry(i: number): string {
  const loc = LOC_FORMS[i % LOC_FORMS.length]!(i);
  const parts = [`<loc>${loc}</loc>`];
  if (i % 10 !== 9) parts.push(`<lastmod>${LASTMOD_FORMS[i % LASTMOD_FORMS.length]!(i)}</lastmod>`);
  if (i % 3 === 0) {
    parts.push(`<changefreq>weekly</changefreq><priority>0.${1 + (i % 9)}</priority>`);
  }
  if (i % 2 === 0) {
    for (let k = 0; k < 1 + (i % 3); k++) parts.push(image(i, k));
  }
  if (i % 4 === 1) {
    for (let k = 0; k < 2 + (i % 5); k++) {
      const lang = LANGUAGES[(i + k) % LANGUAGES.length]!;
      parts.push(
        `<xhtml:link rel="alternate" hreflang="${lang}" href="https://warm.example/${lang}/p/${i}"/>`,
      );
    }
  }
  if (i % 20 === 7) {
    parts.push(
      "<news:news><news:publication><news:name>The Warm Gazette</news:name>" +
        "<news:language>en</news:language></news:publication>" +
        `<news:publication_date>2024-06-05T23:59:46Z</news:publication_date>` +
        `<news:title><![CDATA[Story ${i} &#39;24]]></news:title></news:news>`,
    );
  }
  if (i % 50 === 13) {
    parts.push(
      `<video:video><video:thumbnail_loc>https://cdn.warm.example/t/${i}.jpg</video:thumbnail_loc>` +
        `<video:title><![CDATA[ How to ${i} ]]></video:title>` +
        `<video:description>Care &amp; use</video:description>` +
        `<video:content_loc>https://cdn.warm.example/v/${i}.mp4</video:content_loc>` +
        "<video:duration>381</video:duration></video:video>",
    );
  }
  // Every fifth entry pretty-printed on lines of its own, as some plugins write them.
  return i % 5 === 2
    ? `<url>\n\t\t${parts.join("\n\t\t")}\n\t</url>`
    : `<url>${parts.join("")}</url>`;
}

function plainEntry(i: number): string {
  const day = String(1 + (i % 28)).padStart(2, "0");
  const loc = `<loc>https://warm.example/p/${i}</loc>`;
  const lastmod = `<lastmod>2024-0${1 + (i % 9)}-${day}</lastmod>`;
  // Every seventh entry pretty-printed: the core reader skips the whitespace.
  return i % 7 === 3 ? `<url>\n  ${loc}\n  ${lastmod}\n</url>` : `<url>${loc}${lastmod}</url>`;
}

/**
 * A synthetic urlset of `slice.urls` entries: plain (`<loc>` and
 * `<lastmod>`), or rich — images (CDATA captions, character references),
 * hreflang alternates, news and video blocks, changefreq and priority, every
 * fifth entry pretty-printed, and URLs with a query, an upper-case host, a
 * port, a fragment, an IPv4 or IDN host, raw or percent-encoded UTF-8 paths.
 *
 * @param slice How many entries, and which shape.
 * @returns The document's UTF-8 bytes.
 *
 * @example A rich slice has every block a real urlset may have
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { warmUpDocument } from "./_warm_up.ts";
 *
 * const xml = new TextDecoder().decode(warmUpDocument({ urls: 50, rich: true }));
 * ok(["<image:image>", "<xhtml:link", "<news:news>", "<video:video>", "<![CDATA["]
 *   .every((tag) => xml.includes(tag)));
 * ```
 */
export function warmUpDocument(slice: WarmUpSlice): Uint8Array<ArrayBuffer> {
  const entries: string[] = [];
  for (let i = 0; i < slice.urls; i++) {
    entries.push(slice.rich ? richEntry(i) : plainEntry(i));
  }
  return new TextEncoder().encode(
    `${URLSET_OPEN}${slice.rich ? RICH_NAMESPACES : ""}>\n${entries.join("\n")}\n</urlset>\n`,
  );
}
