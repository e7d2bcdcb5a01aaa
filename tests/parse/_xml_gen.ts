/**
 * Seeded generators of XML test input: sitemap-like well-formed documents
 * (with namespaces, prefixes, attributes, entities, character references,
 * CDATA, comments, processing instructions and odd whitespace), mutations that
 * keep them well-formed, byte-level mutations that break them, and the big
 * urlset the benchmarks read. The same seed always gives the same output, so a
 * failing seed can be replayed.
 *
 * @module
 */

/** A small, fast, seeded pseudo-random generator (mulberry32). */
export class Rng {
  #state: number;

  /**
   * @param seed Any integer; equal seeds give equal sequences.
   */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** @returns A uniform integer in [0, 2^32). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** @returns A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }

  /** @returns True with probability `p`. */
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }

  /** @returns One element of `items`, which must not be empty. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** An element of a generated document. */
export interface GenElement {
  readonly kind: "element";
  prefix: string;
  readonly local: string;
  /** Namespace declarations, in source order: `[prefix, escaped uri]`, prefix "" for the default. */
  decls: [string, string][];
  /** `[prefix, local, escaped value, quote]`. */
  attrs: [string, string, string, '"' | "'"][];
  children: GenNode[];
  /** Whitespace written before the `>` of the start tag. */
  tagSpace: string;
  /** Written as `<a/>` when it has no children. */
  selfClose: boolean;
}

/** A node of a generated document; text is stored as written (escaped). */
export type GenNode =
  | GenElement
  | { readonly kind: "text"; readonly raw: string }
  | { readonly kind: "cdata"; readonly content: string }
  | { readonly kind: "comment"; readonly content: string }
  | { readonly kind: "pi"; readonly target: string; readonly body: string };

/** A generated document: what comes before the root, the root, what comes after. */
export interface GenDocument {
  declaration: boolean;
  before: GenNode[];
  root: GenElement;
  after: GenNode[];
}

const NAMESPACES = [
  "http://www.sitemaps.org/schemas/sitemap/0.9",
  "http://www.google.com/schemas/sitemap-image/1.1",
  "http://www.google.com/schemas/sitemap-news/0.9",
  "http://www.w3.org/1999/xhtml",
  "urn:x-test:a",
  "http://example.com/ns?a=1&amp;b=&#x32;",
];
const PREFIXES = ["image", "news", "xhtml", "video", "a", "b", "ns0", "x.y", "p-q"];
const LOCALS = [
  "urlset",
  "url",
  "loc",
  "lastmod",
  "changefreq",
  "priority",
  "image",
  "link",
  "title",
  "item",
  "a",
  "b_c",
  "d.e",
  "f-g",
  "h1",
  "é",
];
const WORDS = [
  "https://example.com/page?id=1",
  "2024-01-02T03:04:05+00:00",
  "daily",
  "0.8",
  "Foo",
  "bar baz",
  "é中文",
  "😀",
  "]",
  ">",
  "'",
  '"',
  "=",
  "/",
];
const ENTITIES = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"];
const SPACES = [" ", "\n", "\t", "\r\n", "  ", "\n    "];

/** A character reference to a code point XML allows as a character. */
function charRef(rng: Rng): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0xa0, 0xd7ff],
    [0xe000, 0xfffd],
    [0x10000, 0x10ffff],
    [0x09, 0x0a],
  ];
  const [lo, hi] = rng.pick(ranges);
  const cp = lo + rng.int(hi - lo + 1);
  const zeros = "0".repeat(rng.int(3));
  return rng.chance(0.5)
    ? `&#${zeros}${cp};`
    : `&#x${zeros}${rng.chance(0.5) ? cp.toString(16) : cp.toString(16).toUpperCase()};`;
}

/** Escaped character data (no markup, never `]]>`). */
function textRaw(rng: Rng, parts: number): string {
  let out = "";
  for (let k = 0; k < parts; k++) {
    const r = rng.int(10);
    if (r < 5) out += rng.pick(WORDS);
    else if (r < 7) out += rng.pick(ENTITIES);
    else if (r < 8) out += charRef(rng);
    else out += rng.pick(SPACES);
  }
  // Never "]]>", not even with the next run: generated runs can be adjacent.
  out = out.replaceAll("]]>", "]]&gt;");
  return out.endsWith("]") ? `${out.slice(0, -1)}&#93;` : out;
}

/** An escaped attribute value for the given quote. */
function attrRaw(rng: Rng, quote: '"' | "'"): string {
  let out = "";
  const parts = rng.int(4);
  for (let k = 0; k < parts; k++) {
    const r = rng.int(10);
    if (r < 5) out += rng.pick(WORDS);
    else if (r < 7) out += rng.pick(ENTITIES);
    else if (r < 8) out += charRef(rng);
    else out += rng.pick(SPACES);
  }
  return out.replaceAll(quote, quote === '"' ? "&quot;" : "&apos;");
}

function commentContent(rng: Rng): string {
  // "--" is not allowed inside a comment, nor a "-" right before "-->".
  return ` ${textRaw(rng, rng.int(3)).replaceAll("-", "")} <tag> & `.slice(0, 40 + rng.int(20))
    .replaceAll("-", "") + (rng.chance(0.5) ? "- x" : "");
}

function piNode(rng: Rng): GenNode {
  return {
    kind: "pi",
    target: rng.pick(["xml-stylesheet", "php", "pi", "x-y"]),
    body: rng.chance(0.3) ? "" : ` href="a.xsl" ? > <x> ${rng.pick(WORDS)}`,
  };
}

function miscNode(rng: Rng): GenNode {
  const r = rng.int(3);
  if (r === 0) return { kind: "comment", content: commentContent(rng) };
  if (r === 1) return piNode(rng);
  return { kind: "text", raw: rng.pick(SPACES) };
}

interface Scope {
  readonly prefixes: readonly string[];
}

function element(rng: Rng, scope: Scope, depth: number, budget: { nodes: number }): GenElement {
  budget.nodes--;
  const decls: [string, string][] = [];
  if (depth === 0 || rng.chance(0.15)) {
    if (rng.chance(0.7)) decls.push(["", rng.pick(NAMESPACES)]);
    const count = rng.int(depth === 0 ? 4 : 2);
    for (let k = 0; k < count; k++) {
      const prefix = rng.pick(PREFIXES);
      if (!decls.some((d) => d[0] === prefix)) decls.push([prefix, rng.pick(NAMESPACES)]);
    }
  }
  const prefixes = [...new Set([...scope.prefixes, ...decls.map((d) => d[0]).filter((p) => p)])];
  const inner: Scope = { prefixes };
  const prefix = prefixes.length > 0 && rng.chance(0.3) ? rng.pick(prefixes) : "";
  const attrs: [string, string, string, '"' | "'"][] = [];
  const attrCount = rng.chance(0.6) ? 0 : rng.int(4);
  for (let k = 0; k < attrCount; k++) {
    // Distinct local names keep expanded names distinct whatever the prefixes are bound to.
    const local = `${rng.pick(["href", "rel", "id", "lang", "type"])}${k}`;
    const aprefix = prefixes.length > 0 && rng.chance(0.3)
      ? rng.pick(prefixes)
      : rng.chance(0.1)
      ? "xml"
      : "";
    const quote = rng.chance(0.5) ? '"' : "'";
    attrs.push([aprefix, local, attrRaw(rng, quote), quote]);
  }
  const children: GenNode[] = [];
  const childCount = depth >= 6 || budget.nodes <= 0 ? 0 : rng.int(depth === 0 ? 8 : 5);
  for (let k = 0; k < childCount; k++) {
    const r = rng.int(12);
    if (r < 5) children.push(element(rng, inner, depth + 1, budget));
    else if (r < 9) children.push({ kind: "text", raw: textRaw(rng, 1 + rng.int(4)) });
    else if (r < 10) {
      children.push({
        kind: "cdata",
        content: rng.pick(["", " ", "<a>&amp;</a>", "]]", "]", "x]>y", " \r\n ", textRaw(rng, 2)]),
      });
    } else children.push(miscNode(rng));
  }
  return {
    kind: "element",
    prefix,
    local: rng.pick(LOCALS),
    decls,
    attrs,
    children,
    tagSpace: rng.chance(0.2) ? rng.pick(SPACES) : "",
    selfClose: children.length === 0 && rng.chance(0.5),
  };
}

/**
 * Generates a well-formed, namespace-well-formed document.
 *
 * @param seed Selects the document.
 * @returns The document as a tree, to serialise or mutate.
 */
export function generateDocument(seed: number): GenDocument {
  const rng = new Rng(seed);
  const before: GenNode[] = [];
  const after: GenNode[] = [];
  for (let k = rng.int(3); k > 0; k--) before.push(miscNode(rng));
  for (let k = rng.int(3); k > 0; k--) after.push(miscNode(rng));
  return {
    declaration: rng.chance(0.7),
    before,
    root: element(rng, { prefixes: [] }, 0, { nodes: 10 + rng.int(60) }),
    after,
  };
}

function qname(prefix: string, local: string): string {
  return prefix === "" ? local : `${prefix}:${local}`;
}

function serializeNode(node: GenNode, out: string[]): void {
  switch (node.kind) {
    case "text":
      out.push(node.raw);
      return;
    case "cdata":
      out.push(`<![CDATA[${node.content}]]>`);
      return;
    case "comment":
      out.push(`<!--${node.content}-->`);
      return;
    case "pi":
      out.push(`<?${node.target}${node.body}?>`);
      return;
    case "element": {
      const name = qname(node.prefix, node.local);
      out.push(`<${name}`);
      for (const [prefix, uri] of node.decls) {
        out.push(prefix === "" ? ` xmlns="${uri}"` : ` xmlns:${prefix}="${uri}"`);
      }
      for (const [prefix, local, value, quote] of node.attrs) {
        out.push(` ${qname(prefix, local)}=${quote}${value}${quote}`);
      }
      out.push(node.tagSpace);
      if (node.children.length === 0 && node.selfClose) {
        out.push("/>");
        return;
      }
      out.push(">");
      for (const child of node.children) serializeNode(child, out);
      out.push(`</${name}>`);
    }
  }
}

/**
 * Writes a generated document as XML text.
 *
 * @param doc The document.
 * @returns Its XML text.
 */
export function serializeDocument(doc: GenDocument): string {
  const out: string[] = [];
  if (doc.declaration) out.push('<?xml version="1.0" encoding="UTF-8"?>');
  for (const node of doc.before) serializeNode(node, out);
  serializeNode(doc.root, out);
  for (const node of doc.after) serializeNode(node, out);
  return out.join("");
}

function elements(node: GenElement, out: GenElement[] = []): GenElement[] {
  out.push(node);
  for (const child of node.children) if (child.kind === "element") elements(child, out);
  return out;
}

function shuffle<T>(rng: Rng, items: T[]): void {
  for (let k = items.length - 1; k > 0; k--) {
    const j = rng.int(k + 1);
    [items[k], items[j]] = [items[j]!, items[k]!];
  }
}

/**
 * Applies a few mutations that keep the document well-formed and keep its
 * meaning for a namespace-aware reader: renames a prefix everywhere, reorders
 * attributes and declarations, flips self-closing tags, inserts comments,
 * processing instructions and whitespace between nodes, splits text with a
 * comment. Mutates `doc` in place.
 *
 * @param doc The document to change.
 * @param seed Selects the mutations.
 * @returns `doc`.
 */
export function mutateWellFormed(doc: GenDocument, seed: number): GenDocument {
  const rng = new Rng(seed);
  const all = elements(doc.root);
  for (let round = 1 + rng.int(4); round > 0; round--) {
    const target = rng.pick(all);
    switch (rng.int(5)) {
      case 0: {
        const used = [...new Set(all.flatMap((e) => e.decls.map((d) => d[0]).filter((p) => p)))];
        if (used.length === 0) break;
        const from = rng.pick(used);
        // A name no element uses yet, or an element declaring both would declare one twice.
        let to = `r${rng.int(1000)}`;
        while (used.includes(to)) to += "x";
        for (const e of all) {
          if (e.prefix === from) e.prefix = to;
          e.decls = e.decls.map(([p, u]) => [p === from ? to : p, u]);
          e.attrs = e.attrs.map(([p, l, v, q]) => [p === from ? to : p, l, v, q]);
        }
        break;
      }
      case 1:
        shuffle(rng, target.attrs);
        shuffle(rng, target.decls);
        break;
      case 2:
        target.selfClose = !target.selfClose;
        break;
      case 3: {
        // Only between two non-text nodes: markup inside a text run splits it, and a split
        // can leave a whitespace-only part that a reader then drops.
        const at = rng.int(target.children.length + 1);
        const kids = target.children;
        if (kids[at - 1]?.kind === "text" || kids[at]?.kind === "text") break;
        kids.splice(at, 0, rng.chance(0.5) ? { kind: "comment", content: " x " } : piNode(rng));
        break;
      }
      case 4: {
        const k = target.children.findIndex((c) => c.kind === "text" && c.raw.length > 1);
        const text = target.children[k];
        if (text === undefined || text.kind !== "text") break;
        // Cut between whole characters and references only, so the text keeps its meaning.
        const cuts = [...text.raw.matchAll(/&[^;]*;|[\s\S]/gu)].map((m) => m.index);
        const cut = rng.pick(cuts);
        if (
          cut === 0 || /^\s*$/.test(text.raw.slice(0, cut)) || /^\s*$/.test(text.raw.slice(cut))
        ) {
          break;
        }
        target.children.splice(
          k,
          1,
          { kind: "text", raw: text.raw.slice(0, cut) },
          rng.chance(0.5) ? { kind: "comment", content: " split " } : piNode(rng),
          { kind: "text", raw: text.raw.slice(cut) },
        );
        break;
      }
    }
  }
  return doc;
}

const NASTY = [
  "<",
  ">",
  "&",
  "]]>",
  "<!--",
  "-->",
  "<![CDATA[",
  "<?",
  "?>",
  "</",
  "/>",
  '"',
  "'",
  "=",
  "&amp;",
  "&#x41;",
  "&#0;",
  "&#xD800;",
  "&#99999999;",
  "&bogus;",
  "&#",
  "<a>",
  "</a>",
  "<x:y xmlns:x='u'>",
  "<!DOCTYPE",
  "<!ENTITY",
  "<!x>",
  "\r",
  "\uFEFF",
  "\uD800",
  "\0",
];

/**
 * Breaks a document at the byte level: cuts, deletes, duplicates or moves
 * spans, and inserts markup fragments (`<`, `]]>`, `<!--`, `<![CDATA[`,
 * broken tags, random entities). The result is usually not well-formed.
 *
 * @param text The document.
 * @param seed Selects the mutations.
 * @returns The mutated text.
 */
export function mutateBytes(text: string, seed: number): string {
  const rng = new Rng(seed);
  let s = text;
  for (let round = 1 + rng.int(6); round > 0; round--) {
    const at = rng.int(s.length + 1);
    const len = rng.int(Math.min(40, s.length - at) + 1);
    switch (rng.int(6)) {
      case 0:
        s = s.slice(0, at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + len);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at, at + len).repeat(2) + s.slice(at + len);
        break;
      case 3: {
        const to = rng.int(s.length + 1);
        const span = s.slice(at, at + len);
        const rest = s.slice(0, at) + s.slice(at + len);
        s = rest.slice(0, Math.min(to, rest.length)) + span + rest.slice(Math.min(to, rest.length));
        break;
      }
      default:
        s = s.slice(0, at) + rng.pick(NASTY) + s.slice(at);
    }
  }
  return s;
}

/**
 * Splits `text` into chunks at seeded random points (some empty, some one
 * character long), for feeding a streaming parser.
 *
 * @param text The text to split.
 * @param seed Selects the split points.
 * @returns Chunks whose concatenation is `text`.
 */
export function randomChunks(text: string, seed: number): string[] {
  const rng = new Rng(seed);
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = rng.chance(0.3) ? rng.int(3) : 1 + rng.int(Math.max(1, text.length >> 2));
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

/**
 * The benchmark input: a urlset of `count` `<url>` entries, each with
 * `<loc>`, `<lastmod>`, `<changefreq>` and `<priority>` (about 175 bytes per
 * entry, so 50,000 entries are about 8.8 MB).
 *
 * @param count Number of `<url>` entries.
 * @param seed Varies the URLs and dates.
 * @returns The document.
 */
export function urlsetDocument(count: number, seed = 1): string {
  const rng = new Rng(seed);
  const freqs = ["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"];
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let k = 0; k < count; k++) {
    const day = String(1 + rng.int(28)).padStart(2, "0");
    const month = String(1 + rng.int(12)).padStart(2, "0");
    const hour = String(rng.int(24)).padStart(2, "0");
    // One URL in ten has a query string with an entity, as shop sitemaps often do.
    const query = k % 10 === 0 ? `?id=${k}&amp;ref=sm` : "";
    parts.push(
      "<url>\n" +
        `<loc>https://www.example.com/section-${rng.int(50)}/article-${k}.html${query}</loc>\n` +
        `<lastmod>2024-${month}-${day}T${hour}:15:00+00:00</lastmod>\n` +
        `<changefreq>${rng.pick(freqs)}</changefreq>\n` +
        `<priority>0.${rng.int(10)}</priority>\n` +
        "</url>\n",
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}
