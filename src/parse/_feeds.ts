/**
 * Feeds as page lists: RSS 2.0 (and 0.9x), RSS 1.0 / RDF, Atom 1.0 and Atom
 * 0.3. Each item becomes a page whose news story carries the item's title
 * and date, as ultimate-sitemap-parser does.
 *
 * Only values that are URLs become pages
 * (docs/design.md#values-that-are-not-urls): a `<link>` holding escaped
 * HTML markup is not one, and an RSS `<guid>` is one only when it is
 * an absolute http(s) URL not marked `isPermaLink="false"` (RSS 2.0: a guid
 * is an identifier first; resolving `abc123` against the feed's URL invents a
 * page). Relative links resolve against `xml:base` where the feed sets it
 * (XML Base, as RSS and Atom readers apply it), else against the feed's URL;
 * an `xml:base` that is no URL is dropped like a link that is none.
 *
 * @module
 */
import { parseDate } from "./_dates.ts";
import { PackedPagesBuilder } from "./_pack.ts";
import { Ns, type NsKind, nsKind } from "./_ns.ts";
import { type DocumentReader, FieldText } from "./_reader.ts";
import { joinWarnings, type ParseResult } from "./_result.ts";
import { XML_NAMESPACE, type XmlAttribute } from "./_tokenizer.ts";
import { isNotUrl, resolvePageUrl } from "./_url.ts";
import { newNews } from "./_urlset_fields.ts";

const F_LINK = 1;
const F_GUID = 2;
const F_TITLE = 3;
const F_PUBDATE = 4;
const F_DCDATE = 5;
const F_UPDATED = 6;
const F_PUBLISHED = 7;

/** An absolute http(s) URL, as a guid must be to stand for a page. */
const ABSOLUTE_HTTP = /^\s*https?:\/\//i;

/** A link whose text is (escaped) markup, e.g. `&lt;a href="/post"&gt;Post&lt;/a&gt;`. */
const MARKUP = /^\s*</;

function attr(attrs: readonly XmlAttribute[], local: string): string | null {
  for (const a of attrs) if (a.local === local && a.ns === "") return a.value;
  return null;
}

/** RSS elements carry no namespace (2.0) or the RSS 1.0/0.90 one, which nothing else uses. */
function isRssNs(kind: NsKind): boolean {
  return kind === Ns.None || kind === Ns.Other;
}

/** Reads an RSS, RDF or Atom feed into packed pages. */
export class FeedReader implements DocumentReader {
  readonly #atom: boolean;
  /** The base in scope: the feed's URL, or the innermost `xml:base` around the current element. */
  #base: URL | null;
  /** Depths of the open elements that set `xml:base`, innermost last, with the base each replaced. */
  readonly #baseDepths: number[] = [];
  readonly #outerBases: (URL | null)[] = [];
  /** The base in scope where the open field started. */
  #fieldBase: URL | null = null;
  readonly #builder: PackedPagesBuilder;
  #entries = 0;
  #depth = 0;
  #itemDepth = 0;
  #field = 0;
  #fieldDepth = 0;
  readonly #text = new FieldText();

  /** The item's page URL from its first link that resolves. */
  #link: string | null = null;
  #guid: string | null = null;
  #guidIsPermaLink = true;
  #title: string | null = null;
  #pubDate: string | null = null;
  #dcDate: string | null = null;
  #updated: string | null = null;
  #published: string | null = null;

  /**
   * @param format "atom" for `<feed>`, "rss" for `<rss>` and `<rdf:RDF>`.
   * @param base The feed URL, for relative links; null if unknown.
   * @param since Keep items dated >= this (epoch ms) or undated.
   */
  constructor(format: "rss" | "atom", base: URL | null, since: number) {
    this.#atom = format === "atom";
    this.#base = base;
    this.#builder = new PackedPagesBuilder(base, since);
  }

  /** Complete `<item>` or `<entry>` elements read so far. */
  get entries(): number {
    return this.#entries;
  }

  /** Called by the tokenizer when an element starts. */
  onStart(ns: string, local: string, attrs: readonly XmlAttribute[]): void {
    const d = ++this.#depth;
    if (attrs.length !== 0) this.#enterBase(d, attrs);
    if (this.#field !== 0) return;
    if (this.#itemDepth === 0) {
      if (this.#isItem(d, ns, local)) this.#startItem(d);
      return;
    }
    if (d !== this.#itemDepth + 1) return;
    const kind = nsKind(ns);
    if (this.#atom) this.#startAtomField(d, kind, local, attrs);
    else this.#startRssField(d, kind, local, attrs);
  }

  /** Applies the element's `xml:base`, resolved against the base around it. */
  #enterBase(d: number, attrs: readonly XmlAttribute[]): void {
    for (const a of attrs) {
      if (a.local !== "base" || a.ns !== XML_NAMESPACE) continue;
      const value = a.value.trim();
      // An unusable xml:base leaves the outer base in force; one that is no
      // URL (`httр://host/`, `host.com\dir`) is also counted, never resolved.
      if (value !== "" && isNotUrl(value)) {
        this.#builder.noteDropped(value);
        return;
      }
      const base = this.#base === null ? URL.parse(value) : URL.parse(value, this.#base);
      if (base === null) return;
      this.#baseDepths.push(d);
      this.#outerBases.push(this.#base);
      this.#base = base;
      return;
    }
  }

  #isItem(d: number, ns: string, local: string): boolean {
    const kind = nsKind(ns);
    if (this.#atom) return d === 2 && local === "entry" && (kind === Ns.Atom || kind === Ns.None);
    // RSS 2.0 nests items in <channel>; RSS 1.0 puts them beside it.
    return (d === 2 || d === 3) && local === "item" && isRssNs(kind);
  }

  #startItem(d: number): void {
    this.#itemDepth = d;
    this.#link = null;
    this.#guid = null;
    this.#guidIsPermaLink = true;
    this.#title = null;
    this.#pubDate = null;
    this.#dcDate = null;
    this.#updated = null;
    this.#published = null;
  }

  #capture(field: number, d: number): void {
    this.#field = field;
    this.#fieldDepth = d;
    this.#fieldBase = this.#base;
  }

  #startRssField(d: number, kind: NsKind, local: string, attrs: readonly XmlAttribute[]): void {
    if (kind === Ns.Dc) {
      if (local === "date") this.#capture(F_DCDATE, d);
      else if (local === "title" && this.#title === null) this.#capture(F_TITLE, d);
      return;
    }
    if (kind === Ns.Atom) {
      // <atom:link href> in an RSS item: a fallback for a missing <link>.
      if (local === "link" && this.#link === null) this.#atomLink(attrs);
      return;
    }
    if (!isRssNs(kind)) return;
    switch (local) {
      case "link":
        this.#capture(F_LINK, d);
        break;
      case "guid": {
        const permaLink = attr(attrs, "isPermaLink");
        this.#guidIsPermaLink = permaLink === null || permaLink.trim().toLowerCase() !== "false";
        this.#capture(F_GUID, d);
        break;
      }
      case "title":
        this.#capture(F_TITLE, d);
        break;
      case "pubDate":
        this.#capture(F_PUBDATE, d);
        break;
    }
  }

  #startAtomField(d: number, kind: NsKind, local: string, attrs: readonly XmlAttribute[]): void {
    if (kind !== Ns.Atom && kind !== Ns.None) return;
    switch (local) {
      case "link":
        if (this.#link === null) this.#atomLink(attrs);
        break;
      case "title":
        this.#capture(F_TITLE, d);
        break;
      case "updated":
      case "modified":
        this.#capture(F_UPDATED, d);
        break;
      case "published":
      case "issued":
        this.#capture(F_PUBLISHED, d);
        break;
    }
  }

  /** Takes the href of a link whose rel is "alternate" or absent (RFC 4287 section 4.2.7.2). */
  #atomLink(attrs: readonly XmlAttribute[]): void {
    const rel = attr(attrs, "rel");
    if (rel !== null && rel.trim().toLowerCase() !== "alternate") return;
    const href = attr(attrs, "href");
    if (href !== null) this.#link = this.#pageUrl(href, this.#base);
  }

  /** Called by the tokenizer with character data. */
  onText(text: string): void {
    if (this.#field !== 0) this.#text.add(text);
  }

  /** Called by the tokenizer when an element ends. */
  onEnd(_ns: string, _local: string): void {
    const d = this.#depth--;
    if (d === this.#baseDepths[this.#baseDepths.length - 1]) {
      this.#baseDepths.pop();
      this.#base = this.#outerBases.pop()!;
    }
    if (this.#field !== 0) {
      if (d !== this.#fieldDepth) return;
      const text = this.#text.take();
      if (text !== null) this.#endField(this.#field, text);
      this.#field = 0;
      return;
    }
    if (d === this.#itemDepth) {
      this.#itemDepth = 0;
      this.#entries++;
      this.#commit();
    }
  }

  #endField(field: number, text: string): void {
    // The first of each wins: feeds repeat elements from other vocabularies.
    switch (field) {
      case F_LINK:
        this.#link ??= this.#pageUrl(text, this.#fieldBase);
        break;
      case F_GUID:
        this.#guid ??= text;
        break;
      case F_TITLE:
        this.#title ??= text.trim();
        break;
      case F_PUBDATE:
        this.#pubDate ??= text;
        break;
      case F_DCDATE:
        this.#dcDate ??= text;
        break;
      case F_UPDATED:
        this.#updated ??= text;
        break;
      case F_PUBLISHED:
        this.#published ??= text;
        break;
    }
  }

  /** A link's page URL, or null when it is empty, markup, or not http(s). */
  #pageUrl(raw: string, base: URL | null): string | null {
    const url = MARKUP.test(raw) ? null : resolvePageUrl(raw, base);
    // Counted for the document's warning when it is prose or markup
    // (docs/design.md#values-that-are-not-urls).
    if (url === null) this.#builder.noteDropped(raw);
    return url;
  }

  #commit(): void {
    let url = this.#link;
    if (url === null && this.#guid !== null && this.#guidIsPermaLink) {
      url = ABSOLUTE_HTTP.test(this.#guid) ? resolvePageUrl(this.#guid, null) : null;
    }
    if (url === null) return;
    let lastModified: number;
    let publishDate: number;
    if (this.#atom) {
      const updated = this.#updated === null ? NaN : parseDate(this.#updated);
      const published = this.#published === null ? NaN : parseDate(this.#published);
      lastModified = Number.isNaN(updated) ? published : updated;
      publishDate = Number.isNaN(published) ? updated : published;
    } else {
      const date = this.#pubDate ?? this.#dcDate;
      lastModified = publishDate = date === null ? NaN : parseDate(date);
    }
    const newsStory = newNews();
    newsStory.title = this.#title ?? "";
    newsStory.publishDate = publishDate;
    this.#builder.add(url, lastModified, 0.5, 0, { newsStory });
  }

  /**
   * Packs the pages read.
   *
   * @param warning Why reading stopped early, or null.
   * @returns A pages result of format "rss" or "atom".
   */
  finish(warning: string | null): ParseResult {
    const built = this.#builder.build();
    const { pages, found } = built;
    const format = this.#atom ? "atom" : "rss";
    return { kind: "pages", format, pages, found, warning: joinWarnings(warning, built.warning) };
  }
}
