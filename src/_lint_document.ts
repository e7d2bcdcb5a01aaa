/**
 * The one-document lint: a document's raw values, which the parser
 * normalises or skips (a relative `<loc>`, a lastmod that is not a W3C
 * datetime, a priority outside [0, 1], an unknown changefreq). The `lint`
 * command runs it on every document it downloads.
 *
 * @module
 */
import { CHANGE_FREQUENCIES as CHANGE_FREQUENCY_LIST } from "./parse/_result.ts";
import { chooseEncoding, decodeChunks, undecodableReason } from "./parse/_decode.ts";
import { sniffFormat } from "./parse/_detect.ts";
import { SITEMAP_NS } from "./parse/_ns.ts";
import { XmlTokenizer } from "./parse/_tokenizer.ts";
import {
  invalidSitemap,
  Problems,
  type SitemapProblem,
  type SitemapProblemCode,
  type ValidateOptions,
} from "./_validation_report.ts";

const CHANGE_FREQUENCIES: ReadonlySet<string> = new Set(CHANGE_FREQUENCY_LIST);

/**
 * Checks one document's raw values, which the parser normalises or skips: in
 * a `<urlset>`, each `<loc>` must be an absolute http(s) URL, `<lastmod>` a
 * W3C datetime, `<priority>` a number in [0, 1] and `<changefreq>` one of the
 * protocol's seven words; in a `<sitemapindex>`, each `<loc>` and
 * `<lastmod>`; in a text sitemap, each line must be an absolute http(s) URL.
 * Feeds and other documents yield nothing. Values are compared trimmed.
 *
 * @param bytes The document, decompressed.
 * @param sitemap The document's URL, named in each problem.
 * @param options How many examples to keep per code (`now` is not used).
 * @returns The problems found, at most `examples` per code plus `more` entries.
 *
 * @example A priority out of range
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { lintSitemapDocument } from "./_lint_document.ts";
 *
 * const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *   <url><loc>https://example.com/</loc><priority>1.5</priority></url></urlset>`;
 * const problems = lintSitemapDocument(new TextEncoder().encode(xml), "https://example.com/sitemap.xml");
 * deepStrictEqual(problems.map((p) => [p.code, p.value]), [["bad-priority", "1.5"]]);
 * ```
 */
export function lintSitemapDocument(
  bytes: Uint8Array,
  sitemap: string,
  options: ValidateOptions = {},
): SitemapProblem[] {
  const problems = new Problems(options.examples ?? 5);
  const undecodable = undecodableReason(bytes);
  if (undecodable !== null) {
    problems.add(invalidSitemap(sitemap, undecodable));
    return problems.list([sitemap]);
  }
  const encoding = chooseEncoding(bytes).encoding;
  let tokenizer: XmlTokenizer | null = null;
  let handler: RawEntryReader | null = null;
  let textLine = 0;
  let textRest: string | null = null;
  const textLineCheck = (line: string): void => {
    textLine++;
    const value = line.trim();
    if (value !== "" && !isAbsoluteHttp(value)) {
      problems.add({
        severity: "error",
        code: "invalid-loc",
        sitemap,
        url: null,
        value,
        message: `Line ${textLine} is not an absolute http(s) URL`,
      });
    }
  };
  for (const chunk of decodeChunks(bytes, encoding)) {
    if (tokenizer !== null) {
      tokenizer.write(chunk);
      if (tokenizer.error !== null) break;
      continue;
    }
    if (textRest !== null) {
      const lines: string[] = (textRest + chunk).split(/\r\n|\r|\n/);
      textRest = lines.pop()!;
      for (const line of lines) textLineCheck(line);
      continue;
    }
    const sniffed = sniffFormat(chunk);
    if (sniffed === "undecided") continue;
    if (sniffed === "text") {
      const lines: string[] = chunk.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
      textRest = lines.pop()!;
      for (const line of lines) textLineCheck(line);
      continue;
    }
    handler = new RawEntryReader(sitemap, problems);
    tokenizer = new XmlTokenizer(handler);
    tokenizer.write(chunk.trimStart());
  }
  if (tokenizer !== null && tokenizer.error === null) tokenizer.end();
  if (textRest !== null && textRest !== "") textLineCheck(textRest);
  return problems.list([sitemap]);
}

/** Reads `<url>` / `<sitemap>` entries' raw values and reports the ones the protocol forbids. */
class RawEntryReader {
  readonly #sitemap: string;
  readonly #problems: Problems;
  #depth = 0;
  #root: "urlset" | "sitemapindex" | null = null;
  #inEntry = false;
  #field: string | null = null;
  #text = "";
  #loc: string | null = null;
  #values: [string, string][] = [];

  constructor(sitemap: string, problems: Problems) {
    this.#sitemap = sitemap;
    this.#problems = problems;
  }

  onStart(ns: string, local: string): void {
    this.#depth++;
    const ours = ns === SITEMAP_NS || ns === "";
    if (this.#depth === 1) {
      this.#root = ours && (local === "urlset" || local === "sitemapindex") ? local : null;
    } else if (this.#depth === 2) {
      this.#inEntry = ours && local === (this.#root === "urlset" ? "url" : "sitemap");
      this.#loc = null;
      this.#values = [];
    } else if (this.#depth === 3 && ours && this.#inEntry) {
      this.#field = local;
      this.#text = "";
    }
  }

  onText(text: string): void {
    if (this.#field !== null) this.#text += text;
  }

  onEnd(): void {
    if (this.#depth === 3 && this.#field !== null) {
      const value = this.#text.trim();
      if (this.#field === "loc") this.#loc = value;
      else this.#values.push([this.#field, value]);
      this.#field = null;
    } else if (this.#depth === 2 && this.#inEntry) {
      this.#entry();
      this.#inEntry = false;
    }
    this.#depth--;
  }

  #entry(): void {
    const sitemap = this.#sitemap;
    const loc = this.#loc;
    const add = (code: SitemapProblemCode, value: string | null, message: string): void =>
      this.#problems.add({ severity: "error", code, sitemap, url: loc, value, message });
    if (loc === null || !isAbsoluteHttp(loc)) {
      add(
        "invalid-loc",
        loc,
        loc === null
          ? "An entry without <loc>"
          : "The <loc> is not an absolute http(s) URL (the protocol requires one)",
      );
    }
    for (const [field, value] of this.#values) {
      if (field === "lastmod" && !isW3cDatetime(value)) {
        add(
          "bad-lastmod",
          value,
          "The <lastmod> is not a W3C datetime (e.g. 2024-05-01 or 2024-05-01T12:00:00+00:00)",
        );
      } else if (this.#root === "urlset" && field === "priority") {
        const number = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : NaN;
        if (!(number >= 0 && number <= 1)) {
          add("bad-priority", value, "The <priority> is not a number from 0.0 to 1.0");
        }
      } else if (
        this.#root === "urlset" && field === "changefreq" && !CHANGE_FREQUENCIES.has(value)
      ) {
        add(
          "bad-changefreq",
          value,
          "The <changefreq> is not one of always, hourly, daily, weekly, monthly, yearly, never",
        );
      }
    }
  }
}

/** A W3C Datetime (the profile the protocol names): YYYY, YYYY-MM, YYYY-MM-DD, or a time with a zone. */
const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2})))?)?)?$/;

function isW3cDatetime(value: string): boolean {
  const m = W3C_DATETIME.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s, zh, zm] = m;
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > new Date(Date.UTC(Number(y), month, 0)).getUTCDate()) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return false;
  if (zh !== undefined && (Number(zh) > 23 || Number(zm) > 59)) return false;
  return true;
}

function isAbsoluteHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
