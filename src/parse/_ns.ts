/**
 * Namespace URIs the readers know, and a classifier that tolerates the
 * variants found in the wild (https, a trailing slash, a missing `www.`).
 *
 * @module
 */

/** The sitemaps.org namespace. */
export const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
/** Google News sitemaps. */
export const NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9";
/** Google Image sitemaps. */
export const IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1";
/** Google Video sitemaps. */
export const VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1";
/** XHTML, for `xhtml:link` alternates. */
export const XHTML_NS = "http://www.w3.org/1999/xhtml";
/** Atom 1.0. */
export const ATOM_NS = "http://www.w3.org/2005/Atom";
/** Atom 0.3. */
export const ATOM03_NS = "http://purl.org/atom/ns#";
/** RDF, the root of RSS 1.0 and 0.90. */
export const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/** Dublin Core elements (`dc:date` in RSS 1.0). */
export const DC_NS = "http://purl.org/dc/elements/1.1/";

/**
 * What a namespace URI stands for. Plain numbers rather than an enum, since
 * an enum is not erasable syntax.
 */
export const Ns = {
  /** No namespace: matched by local name wherever the context allows. */
  None: 0,
  Sitemap: 1,
  News: 2,
  Image: 3,
  Video: 4,
  Xhtml: 5,
  Atom: 6,
  Rdf: 7,
  Dc: 8,
  Other: 9,
} as const;

/** One of the values of {@linkcode Ns}. */
export type NsKind = typeof Ns[keyof typeof Ns];

const cache = new Map<string, NsKind>();

function classify(uri: string): NsKind {
  if (uri === "") return Ns.None;
  const u = uri.toLowerCase().replace(/^https?:\/\/(www\.)?/, "").replace(/[/#]+$/, "");
  if (
    u === "sitemaps.org/schemas/sitemap/0.9" || u === "google.com/schemas/sitemap/0.84" ||
    u === "google.com/schemas/sitemap/0.9"
  ) return Ns.Sitemap;
  if (u.startsWith("google.com/schemas/sitemap-news/")) return Ns.News;
  if (u.startsWith("google.com/schemas/sitemap-image/")) return Ns.Image;
  if (u.startsWith("google.com/schemas/sitemap-video/")) return Ns.Video;
  if (u === "w3.org/1999/xhtml") return Ns.Xhtml;
  if (u === "w3.org/2005/atom" || u === "purl.org/atom/ns") return Ns.Atom;
  if (u === "w3.org/1999/02/22-rdf-syntax-ns") return Ns.Rdf;
  if (u === "purl.org/dc/elements/1.1") return Ns.Dc;
  return Ns.Other;
}

/**
 * Classifies a namespace URI (memoised: a document repeats a handful).
 *
 * @param uri A resolved namespace URI, "" for none.
 * @returns Its kind.
 */
export function nsKind(uri: string): NsKind {
  let kind = cache.get(uri);
  if (kind === undefined) {
    kind = classify(uri);
    if (cache.size < 256) cache.set(uri, kind);
  }
  return kind;
}
