/**
 * A sitemap linter: protocol problems of a crawled tree (sitemaps.org and the
 * search engines' stated limits), each with the sitemap, the offending URL and
 * the value, as data and as a human report.
 *
 * Two sources of facts:
 *
 * - {@linkcode validateSitemapTree} reads a tree and the stats of the call
 *   that built it (`tree.stats.fetches`: statuses, redirects, sizes, entry
 *   counts). It sees what survived parsing: page URLs and hosts, lastmod
 *   dates, duplicates, invalid sitemaps, redirects, sizes and counts.
 * - {@linkcode lintSitemapDocument} reads one document's raw text, for what
 *   the parser normalises away: a `<loc>` that is relative or not http(s), a
 *   lastmod that is not a W3C datetime, a priority outside [0, 1], an unknown
 *   changefreq. The `lint` command runs it on every document it downloads.
 *
 * Build the tree without `since` (a filtered tree hides the pages to check)
 * and without a cache (a `304` has no body to read).
 *
 * @module
 */
import { CHANGE_FREQUENCIES as CHANGE_FREQUENCY_LIST } from "./parse/_result.ts";
import { chooseEncoding, decodeChunks, undecodableReason } from "./parse/_decode.ts";
import { isRobotsUrl, sniffFormat } from "./parse/_detect.ts";
import { SITEMAP_NS } from "./parse/_ns.ts";
import { XmlTokenizer } from "./parse/_tokenizer.ts";
import {
  AbstractPagesSitemap,
  type AbstractSitemap,
  IndexRobotsTxtSitemap,
  IndexWebsiteSitemap,
  InvalidSitemap,
} from "./objects/sitemap.ts";

/** What kind of problem; see {@linkcode SitemapProblem}. */
export type SitemapProblemCode =
  | "too-many-urls"
  | "too-large"
  | "invalid-loc"
  | "cross-host"
  | "bad-lastmod"
  | "future-lastmod"
  | "uniform-lastmod"
  | "bad-priority"
  | "bad-changefreq"
  | "duplicate-url"
  | "redirect"
  | "http-status"
  | "invalid-sitemap"
  | "more";

/** One protocol problem of one sitemap. */
export interface SitemapProblem {
  /** `error`: breaks the protocol, search engines may drop the entry or file; `warning`: legal but suspect. */
  readonly severity: "error" | "warning";
  /** What kind of problem; `more` counts problems left out beyond the examples kept. */
  readonly code: SitemapProblemCode;
  /** The sitemap's URL (after redirects). */
  readonly sitemap: string;
  /** The offending page or child URL, or null when the problem is the sitemap's own. */
  readonly url: string | null;
  /** The offending value as found (a date, a number, a host, a status), or null. */
  readonly value: string | null;
  /** One sentence a person can act on. */
  readonly message: string;
}

/** The outcome of {@linkcode validateSitemapTree}. */
export interface SitemapValidationReport {
  /** Problems grouped by sitemap in tree order, at most `examples` per sitemap and code. */
  readonly problems: readonly SitemapProblem[];
  /** Problems of severity `error`, counting those left out of `problems`. */
  readonly errors: number;
  /** Problems of severity `warning`, counting those left out of `problems`. */
  readonly warnings: number;
  /** Distinct sitemaps checked. */
  readonly sitemaps: number;
  /** Pages checked (each sitemap's pages once). */
  readonly pages: number;
}

/** Options of {@linkcode validateSitemapTree} and {@linkcode lintSitemapDocument}. */
export interface ValidateOptions {
  /** The present, for future lastmods. @default {new Date()} */
  readonly now?: Date;
  /** Problems kept per sitemap and code; the rest are counted in one `more` entry. @default {5} */
  readonly examples?: number;
}

/** The protocol's limits: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed per file. */
export const MAX_SITEMAP_URLS = 50_000;
/** See {@linkcode MAX_SITEMAP_URLS}. */
export const MAX_SITEMAP_BYTES = 52_428_800;
/** A lastmod later than now by more than this is in the future (a day covers every time zone). */
const FUTURE_SLACK_MS = 86_400_000;
/** Sitemaps with fewer pages than this are not suspected of a meaningless lastmod. */
const UNIFORM_LASTMOD_MIN_PAGES = 10;
const CHANGE_FREQUENCIES: ReadonlySet<string> = new Set(CHANGE_FREQUENCY_LIST);

/** Collects problems, keeping `examples` per (sitemap, code) and counting the rest. */
class Problems {
  readonly #examples: number;
  readonly #bySitemap = new Map<string, SitemapProblem[]>();
  readonly #counts = new Map<
    string,
    { kept: number; more: number; severity: "error" | "warning" }
  >();
  errors = 0;
  warnings = 0;

  constructor(examples: number) {
    this.#examples = examples;
  }

  add(problem: SitemapProblem): void {
    if (problem.severity === "error") this.errors++;
    else this.warnings++;
    const key = `${problem.sitemap}\n${problem.code}`;
    let count = this.#counts.get(key);
    if (count === undefined) {
      count = { kept: 0, more: 0, severity: problem.severity };
      this.#counts.set(key, count);
    }
    if (count.kept >= this.#examples) {
      count.more++;
      return;
    }
    count.kept++;
    let list = this.#bySitemap.get(problem.sitemap);
    if (list === undefined) {
      list = [];
      this.#bySitemap.set(problem.sitemap, list);
    }
    list.push(problem);
  }

  /** Every problem, sitemaps in `order` first, each code's overflow after its examples. */
  list(order: readonly string[]): SitemapProblem[] {
    const out: SitemapProblem[] = [];
    const sitemaps = [...new Set([...order, ...this.#bySitemap.keys()])];
    for (const sitemap of sitemaps) {
      const list = this.#bySitemap.get(sitemap) ?? [];
      const codes = [...new Set(list.map((p) => p.code))];
      for (const code of codes) {
        out.push(...list.filter((p) => p.code === code));
        const count = this.#counts.get(`${sitemap}\n${code}`)!;
        if (count.more > 0) {
          out.push({
            severity: count.severity,
            code: "more",
            sitemap,
            url: null,
            value: String(count.more),
            message: `${count.more.toLocaleString("en")} more ${code} problems like the above`,
          });
        }
      }
    }
    return out;
  }
}

function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Checks a crawled tree against the sitemaps protocol:
 *
 * - errors: a sitemap that could not be fetched or read (its reason, which
 *   names a non-200 status); more than 50,000 URLs or 50 MB uncompressed; a
 *   page on another scheme or host than its sitemap, unless a robots.txt on
 *   the page's host lists the sitemap (the protocol's cross-submission rule);
 * - warnings: a redirected sitemap; a 2xx status other than 200; a lastmod
 *   more than a day in the future; every page of a sitemap (10 or more) with
 *   the same lastmod, a sign it means nothing; a page URL listed by several
 *   sitemaps.
 *
 * Statuses, redirects and sizes come from `tree.stats.fetches`, so a tree
 * rebuilt from JSON is checked for its pages only.
 *
 * @param tree The root a `sitemapTreeForHomepage()` call returned (or any node).
 * @param options The present and how many examples to keep.
 * @returns The problems and their counts.
 *
 * @example Count a site's protocol errors
 * ```ts ignore
 * import { sitemapTreeForHomepage, validateSitemapTree } from "@sitemap/tree";
 *
 * const report = validateSitemapTree(await sitemapTreeForHomepage("https://www.example.com/"));
 * for (const p of report.problems) console.log(p.severity, p.code, p.sitemap, p.url, p.value);
 * ```
 */
export function validateSitemapTree(
  tree: AbstractSitemap,
  options: ValidateOptions = {},
): SitemapValidationReport {
  const now = (options.now ?? new Date()).getTime();
  const problems = new Problems(options.examples ?? 5);
  const nodes = [tree, ...tree.allSitemaps()];
  const fetches = tree instanceof IndexWebsiteSitemap ? tree.stats.fetches : [];

  // Which URLs each robots.txt lists (requested and final), by the robots.txt's host.
  const finalToRequested = new Map<string, string[]>();
  for (const f of fetches) {
    const list = finalToRequested.get(f.finalUrl) ?? [];
    list.push(f.url);
    finalToRequested.set(f.finalUrl, list);
  }
  const listedBy = new Map<string, Set<string>>();
  for (const node of nodes) {
    if (!(node instanceof IndexRobotsTxtSitemap)) continue;
    const host = hostOf(node.url);
    if (host === null) continue;
    for (const child of node.subSitemaps) {
      for (const url of [child.url, ...(finalToRequested.get(child.url) ?? [])]) {
        let hosts = listedBy.get(url);
        if (hosts === undefined) listedBy.set(url, hosts = new Set());
        hosts.add(host);
      }
    }
  }

  const order: string[] = [];
  const seen = new Set<string>();
  const firstSitemapOf = new Map<string, string>();
  let pageCount = 0;
  for (const node of nodes) {
    if (node instanceof IndexWebsiteSitemap || seen.has(node.url)) continue;
    seen.add(node.url);
    order.push(node.url);
    const sitemap = node.url;
    if (node instanceof InvalidSitemap) {
      problems.add(invalidSitemap(sitemap, node.reason));
      continue;
    }
    if (node.subSitemaps.length > MAX_SITEMAP_URLS) {
      problems.add({
        severity: "error",
        code: "too-many-urls",
        sitemap,
        url: null,
        value: String(node.subSitemaps.length),
        message: `The index lists ${
          node.subSitemaps.length.toLocaleString("en")
        } sitemaps; the protocol allows ${MAX_SITEMAP_URLS.toLocaleString("en")}`,
      });
    }
    if (!(node instanceof AbstractPagesSitemap)) continue;
    const allowed = new Set<string>();
    const own = hostOf(sitemap);
    if (own !== null) allowed.add(own);
    for (const host of listedBy.get(sitemap) ?? []) allowed.add(host);
    let first: number | null | undefined;
    let uniform = true;
    let count = 0;
    for (const page of node.allPages()) {
      count++;
      const host = hostOf(page.url);
      if (host !== null && !allowed.has(host)) {
        problems.add({
          severity: "error",
          code: "cross-host",
          sitemap,
          url: page.url,
          value: host,
          message:
            `Page on ${host}, not on the sitemap's ${own}, and no robots.txt on ${host} lists this sitemap`,
        });
      }
      const lastmod = page.lastModified?.getTime() ?? null;
      if (first === undefined) first = lastmod;
      else if (lastmod !== first) uniform = false;
      if (lastmod !== null && lastmod > now + FUTURE_SLACK_MS) {
        problems.add({
          severity: "warning",
          code: "future-lastmod",
          sitemap,
          url: page.url,
          value: iso(lastmod),
          message: "The lastmod is in the future",
        });
      }
      const earlier = firstSitemapOf.get(page.url);
      if (earlier === undefined) firstSitemapOf.set(page.url, sitemap);
      else if (earlier !== sitemap) {
        problems.add({
          severity: "warning",
          code: "duplicate-url",
          sitemap,
          url: page.url,
          value: earlier,
          message: `Also listed by ${earlier}`,
        });
      }
    }
    pageCount += count;
    if (uniform && first !== null && first !== undefined && count >= UNIFORM_LASTMOD_MIN_PAGES) {
      problems.add({
        severity: "warning",
        code: "uniform-lastmod",
        sitemap,
        url: null,
        value: iso(first),
        message: `All ${
          count.toLocaleString("en")
        } pages have the same lastmod: it probably says when the sitemap was generated, not when pages changed`,
      });
    }
  }

  const nodeByUrl = new Map(nodes.map((node) => [node.url, node]));
  for (const f of fetches) {
    if (!seen.has(f.finalUrl) || f.outcome === "failed") continue;
    const sitemap = f.finalUrl;
    // Nobody lists robots.txt: its redirect is the site's business, not a sitemap to fix.
    if (f.redirected && !isRobotsUrl(f.url)) {
      problems.add({
        severity: "warning",
        code: "redirect",
        sitemap,
        url: f.url,
        value: f.finalUrl,
        message: `${f.url} redirects to ${f.finalUrl}; list the final URL instead`,
      });
    }
    if (f.status !== null && f.status !== 200 && f.status !== 304) {
      problems.add({
        severity: "warning",
        code: "http-status",
        sitemap,
        url: f.url,
        value: String(f.status),
        message: `Served with status ${f.status}, not 200`,
      });
    }
    if (f.decompressedBytes > MAX_SITEMAP_BYTES) {
      problems.add({
        severity: "error",
        code: "too-large",
        sitemap,
        url: null,
        value: String(f.decompressedBytes),
        message: `${
          f.decompressedBytes.toLocaleString("en")
        } bytes uncompressed; the protocol allows ${MAX_SITEMAP_BYTES.toLocaleString("en")}`,
      });
    }
    const node = nodeByUrl.get(sitemap);
    if (node instanceof AbstractPagesSitemap && f.entries > MAX_SITEMAP_URLS) {
      problems.add({
        severity: "error",
        code: "too-many-urls",
        sitemap,
        url: null,
        value: String(f.entries),
        message: `${f.entries.toLocaleString("en")} URLs; the protocol allows ${
          MAX_SITEMAP_URLS.toLocaleString("en")
        } per file`,
      });
    }
  }
  return {
    problems: problems.list(order),
    errors: problems.errors,
    warnings: problems.warnings,
    sitemaps: order.length,
    pages: pageCount,
  };
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

/** The problem of a sitemap that could not be read at all. */
function invalidSitemap(sitemap: string, reason: string): SitemapProblem {
  return {
    severity: "error",
    code: "invalid-sitemap",
    sitemap,
    url: null,
    value: null,
    message: reason,
  };
}

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
 * import { lintSitemapDocument } from "./validate.ts";
 *
 * const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
 *   <url><loc>https://example.com/</loc><priority>1.5</priority></url></urlset>`;
 * const problems = lintSitemapDocument(new TextEncoder().encode(xml), "https://example.com/sitemap.xml");
 * problems[0]?.code; // "bad-priority"
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

/**
 * Merges reports (e.g. the tree's and the raw documents'), sitemaps in
 * `order` (the tree's order; sitemaps not in it follow in the order first
 * seen), each sitemap's document problems after its tree problems.
 *
 * @param report The tree's report.
 * @param extra More problems, e.g. from {@linkcode lintSitemapDocument}.
 * @param order Sitemap URLs in tree order.
 * @returns One report.
 *
 * @example
 * ```ts
 * import { mergeProblems } from "./validate.ts";
 *
 * const empty = { problems: [], errors: 0, warnings: 0, sitemaps: 0, pages: 0 };
 * mergeProblems(empty, []).errors; // 0
 * ```
 */
export function mergeProblems(
  report: SitemapValidationReport,
  extra: readonly SitemapProblem[],
  order: readonly string[] = [],
): SitemapValidationReport {
  const bySitemap = new Map<string, SitemapProblem[]>(order.map((url) => [url, []]));
  for (const p of [...report.problems, ...extra]) {
    const list = bySitemap.get(p.sitemap) ?? [];
    list.push(p);
    bySitemap.set(p.sitemap, list);
  }
  let errors = report.errors;
  let warnings = report.warnings;
  for (const p of extra) {
    const n = p.code === "more" ? Number(p.value) : 1;
    if (p.severity === "error") errors += n;
    else warnings += n;
  }
  return { ...report, problems: [...bySitemap.values()].flat(), errors, warnings };
}

/**
 * The report as text: per sitemap, one line per problem (severity, code,
 * offending URL, value, message), then a summary line.
 *
 * @param report A validation report.
 * @returns Lines without newlines.
 *
 * @example
 * ```ts
 * import { formatValidationReport } from "./validate.ts";
 *
 * formatValidationReport({ problems: [], errors: 0, warnings: 0, sitemaps: 3, pages: 120 });
 * // ["No problems in 3 sitemaps (120 pages)"]
 * ```
 */
export function formatValidationReport(report: SitemapValidationReport): string[] {
  const lines: string[] = [];
  let current: string | null = null;
  for (const p of report.problems) {
    if (p.sitemap !== current) {
      current = p.sitemap;
      lines.push(current);
    }
    if (p.code === "more") {
      // A count of the problems not listed, not one more problem: no severity column.
      lines.push(`  ${" ".repeat(7)} … ${p.message}`);
      continue;
    }
    const where = [p.url, p.value === null ? null : JSON.stringify(p.value)]
      .filter((x) => x !== null).join(" ");
    lines.push(
      `  ${p.severity.padEnd(7)} ${p.code.padEnd(15)} ${
        where === "" ? "" : where + ": "
      }${p.message}`,
    );
  }
  const scope = `${report.sitemaps.toLocaleString("en")} sitemap${
    report.sitemaps === 1 ? "" : "s"
  } (${report.pages.toLocaleString("en")} page${report.pages === 1 ? "" : "s"})`;
  lines.push(
    report.errors === 0 && report.warnings === 0
      ? `No problems in ${scope}`
      : `${report.errors.toLocaleString("en")} error${report.errors === 1 ? "" : "s"}, ${
        report.warnings.toLocaleString("en")
      } warning${report.warnings === 1 ? "" : "s"} in ${scope}`,
  );
  return lines;
}
