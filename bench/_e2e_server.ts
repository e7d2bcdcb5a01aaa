/**
 * The end-to-end benchmark's website, served from a process of its own so the
 * measured process runs only the client. Started by `bench/e2e.ts`; prints one
 * JSON line describing the sites once they listen, then serves until its
 * stdin closes.
 *
 * Several sites, each a {@linkcode FixtureSite} on its own 127.0.0.1 port:
 *
 * - `main`, the reference's setup: robots.txt -> a sitemap index of 20 gzipped
 *   urlsets x 50,000 URLs, each `<loc>` + `<lastmod>` (~83 bytes an entry,
 *   ~4.1 MB of XML a file, like the reference's), 50 ms before every response.
 *   Lastmods are whole days spread over 2020-01-01 .. 2024-12-31 so that the
 *   announced `since` keeps ~5%; the exact counts are announced too.
 * - `realistic` and `realisticIssue`: `main`'s structure and latency with the
 *   documents of `fixtures/realistic.ts`, in our mix (~23.6 MB of XML a
 *   urlset) and in issue 24's lighter one (~10.9 MB a urlset).
 * - `floor`: `main` with one URL in each urlset: the same requests and
 *   latency with nothing to parse, so its time is what the round trips
 *   alone cost on this machine (a floor for `main`'s time).
 * - `bomb`: robots.txt -> one child, a 198 KB gzip that expands to 200 MB
 *   (the reference's 194 KB -> 200 MB). No latency, so the time measured is
 *   the client's.
 * - `scale`, shaped like bbc.co.uk: robots.txt naming 13 sitemaps (3 indexes,
 *   of 50, 9 and 3 children, and 10 urlsets), 75 sitemaps in all, 2.6 million
 *   URLs. No latency.
 *
 * Page URLs are `https://www.example.com/p/N`, like a real site's (a domain
 * name, no port; the sitemaps themselves are on 127.0.0.1:PORT). So the
 * gzipped files do not depend on the port: they are generated once, into
 * `bench/generated/e2e/` (git-ignored), and read from there afterwards.
 *
 *     deno run -A bench/_e2e_server.ts [--no-scale]
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { FixtureSite } from "../fixtures/site.ts";
import { generateIndex, gzip } from "../fixtures/generate.ts";
import { gzipBomb } from "../fixtures/bombs.ts";
import { sitemapFromString } from "../mod.ts";

/** The line this process prints once every site listens. */
export interface E2eSites {
  readonly main: {
    readonly origin: string;
    readonly urls: number;
    readonly since: string;
    readonly sinceUrls: number;
    readonly files: number;
    readonly xmlBytesPerFile: number;
    readonly gzipBytesPerFile: number;
    readonly latencyMs: number;
  };
  /** `main`'s structure and latency with realistic documents (fixtures/realistic.ts). */
  readonly realistic: {
    readonly origin: string;
    /** Distinct pages, as our own parser counts them. */
    readonly urls: number;
    /** `<loc>` elements, as the floor counts them. */
    readonly locs: number;
    readonly since: string;
    readonly sinceUrls: number;
    readonly files: number;
    readonly xmlBytesPerFile: number;
    readonly latencyMs: number;
    readonly mix: string;
  } | null;
  /**
   * The same with issue 24's lighter mix (`REALISTIC_MIX_ISSUE24`, ~10.9 MB
   * a urlset); null when the generator has no such mix.
   */
  readonly realisticIssue: E2eSites["realistic"];
  /** `main`'s shape and latency with one URL per urlset: its round trips alone. */
  readonly floor: {
    readonly origin: string;
    readonly urls: number;
  };
  readonly bomb: {
    readonly origin: string;
    readonly gzipBytes: number;
    readonly expandedBytes: number;
  };
  readonly scale: {
    readonly origin: string;
    readonly urls: number;
    readonly sitemaps: number;
    readonly robotsSitemaps: number;
    readonly xmlBytes: number;
  } | null;
  readonly setupMs: number;
}

const FIRST_DAY_MS = Date.UTC(2020, 0, 1);
const DAYS = (Date.UTC(2025, 0, 1) - FIRST_DAY_MS) / 86_400_000; // 1827
/** Lastmod days at or after this index are kept by `since`: the last 5% of the range. */
const SINCE_DAY = DAYS - Math.round(DAYS * 0.05);

function mix(n: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

function isoDay(day: number): string {
  return new Date(FIRST_DAY_MS + day * 86_400_000).toISOString().slice(0, 10);
}

const DAY_STRINGS = Array.from({ length: DAYS }, (_, d) => isoDay(d));

const PAGE_ORIGIN = "https://www.example.com";
/** Bump when the generated documents change, so stale cached files are not served. */
const GENERATOR_VERSION = 2;
const CACHE_DIR = new URL("./generated/e2e/", import.meta.url);

/** A gzipped `<urlset>`, its XML size and how many entries `since` keeps. */
interface UrlsetFile {
  readonly gzip: Uint8Array;
  readonly xmlBytes: number;
  readonly recent: number;
}

/**
 * A gzipped `<urlset>` of `count` entries numbered from `first`: `<loc>` and
 * a date-only `<lastmod>`, the reference's shape. Read from the cache when an
 * earlier run wrote it.
 */
/**
 * A gzipped document and its figures, read from `bench/generated/e2e/NAME.*`
 * when an earlier run wrote them, else made by `make` and written there.
 */
function cached<T extends { readonly gzip: Uint8Array }>(name: string, make: () => T): T {
  const gzPath = new URL(`${name}.xml.gz`, CACHE_DIR);
  const metaPath = new URL(`${name}.json`, CACHE_DIR);
  try {
    const meta = JSON.parse(readFileSync(metaPath, "utf8")) as Omit<T, "gzip">;
    return { ...meta, gzip: new Uint8Array(readFileSync(gzPath)) } as T;
  } catch {
    // Not generated yet.
  }
  const file = make();
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(gzPath, file.gzip);
  const { gzip: _, ...meta } = file;
  writeFileSync(metaPath, JSON.stringify(meta));
  return file;
}

function urlset(first: number, count: number): UrlsetFile {
  return cached(`v${GENERATOR_VERSION}-urlset-${first}-${count}`, () => makeUrlset(first, count));
}

function makeUrlset(first: number, count: number): UrlsetFile {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  let recent = 0;
  for (let n = first; n < first + count; n++) {
    const day = mix(n) % DAYS;
    if (day >= SINCE_DAY) recent++;
    parts.push(
      `<url><loc>${PAGE_ORIGIN}/p/${n}</loc><lastmod>${DAY_STRINGS[day]}</lastmod></url>\n`,
    );
  }
  parts.push("</urlset>\n");
  const plain = new TextEncoder().encode(parts.join(""));
  return { gzip: gzip(plain), xmlBytes: plain.byteLength, recent };
}

const GZIP = { contentType: "application/gzip" } as const;

/** robots.txt naming `/sitemap_index.xml`, an index of `locs`. */
function publishIndex(site: FixtureSite, origin: string, locs: readonly string[]): void {
  site.file("/sitemap_index.xml", generateIndex(locs), { contentType: "application/xml" });
  site.file("/robots.txt", `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap_index.xml\n`);
}
const MAIN_FILES = 20;
const MAIN_PER_FILE = 50_000;

async function mainSite(): Promise<{ site: FixtureSite; info: E2eSites["main"] }> {
  const site = new FixtureSite();
  site.latencyMs = 50;
  const listening = await site.listen();
  const origin = listening.origin;
  const files = MAIN_FILES;
  const perFile = MAIN_PER_FILE;
  const locs: string[] = [];
  let recent = 0;
  let xmlBytes = 0;
  let gzipBytes = 0;
  for (let k = 0; k < files; k++) {
    const path = `/sitemaps/sitemap-${k + 1}.xml.gz`;
    const doc = urlset(k * perFile, perFile);
    recent += doc.recent;
    xmlBytes += doc.xmlBytes;
    gzipBytes += doc.gzip.byteLength;
    // Bytes ready before the first request, so no request pays for building them.
    site.file(path, doc.gzip, GZIP);
    locs.push(origin + path);
  }
  publishIndex(site, origin, locs);
  return {
    site,
    info: {
      origin,
      urls: files * perFile,
      since: isoDay(SINCE_DAY),
      sinceUrls: recent,
      files,
      xmlBytesPerFile: Math.round(xmlBytes / files),
      gzipBytesPerFile: Math.round(gzipBytes / files),
      latencyMs: site.latencyMs,
    },
  };
}

/** The realistic generator, when this checkout has it. */
type Realistic = typeof import("../fixtures/realistic.ts");

/**
 * `main`'s structure (robots.txt -> index -> 20 gzipped urlsets x 50,000,
 * 50 ms latency) with the documents of `fixtures/realistic.ts`, in our mix
 * or (`"issue24"`) issue 24's. Cached by a hash of the generator's source,
 * so a changed mix is regenerated.
 */
async function realisticSite(
  which: "ours" | "issue24" = "ours",
): Promise<{ site: FixtureSite; info: E2eSites["realistic"] }> {
  let gen: Realistic;
  try {
    gen = await import("../fixtures/realistic.ts");
  } catch {
    return { site: new FixtureSite(), info: null };
  }
  const mix = which === "ours" ? gen.REALISTIC_MIX : gen.REALISTIC_MIX_ISSUE24;
  if (mix === undefined) return { site: new FixtureSite(), info: null };
  const name = which === "ours" ? "realistic" : "realistic-issue24";
  const source = readFileSync(new URL("../fixtures/realistic.ts", import.meta.url));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", source));
  const tag = [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const range = gen.REALISTIC_LASTMOD_RANGE;
  const sinceMs = range.to.getTime() - (range.to.getTime() - range.from.getTime()) * 0.05;
  const since = new Date(Math.floor(sinceMs / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
  const site = new FixtureSite();
  site.latencyMs = 50;
  const listening = await site.listen();
  const origin = listening.origin;
  const locs: string[] = [];
  let urls = 0;
  let locCount = 0;
  let sinceUrls = 0;
  let xmlBytes = 0;
  for (let k = 0; k < MAIN_FILES; k++) {
    const url = `${origin}/sitemaps/${name}-${k + 1}.xml`;
    const file = cached(`${name}-${tag}-${k}`, () => {
      const xml = gen.realisticUrlset(MAIN_PER_FILE, k + 1, { offset: k * MAIN_PER_FILE, mix });
      const plain = new TextEncoder().encode(xml);
      return {
        gzip: gzip(plain),
        urls: sitemapFromString(plain, { url }).pages.length,
        locs: xml.split("<loc>").length - 1,
        since: sitemapFromString(plain, { url, since }).pages.length,
        xmlBytes: plain.byteLength,
      };
    });
    urls += file.urls;
    locCount += file.locs;
    sinceUrls += file.since;
    xmlBytes += file.xmlBytes;
    const path = `/sitemaps/${name}-${k + 1}.xml.gz`;
    site.file(path, file.gzip, GZIP);
    locs.push(origin + path);
  }
  publishIndex(site, origin, locs);
  return {
    site,
    info: {
      origin,
      urls,
      locs: locCount,
      since,
      sinceUrls,
      files: MAIN_FILES,
      xmlBytesPerFile: Math.round(xmlBytes / MAIN_FILES),
      latencyMs: site.latencyMs,
      mix: gen.describeRealisticMix(mix).replaceAll("\n", "; "),
    },
  };
}

async function floorSite(): Promise<{ site: FixtureSite; info: E2eSites["floor"] }> {
  const site = new FixtureSite();
  site.latencyMs = 50;
  const listening = await site.listen();
  const origin = listening.origin;
  const locs: string[] = [];
  for (let k = 0; k < MAIN_FILES; k++) {
    const path = `/sitemaps/sitemap-${k + 1}.xml.gz`;
    site.file(path, urlset(k * MAIN_PER_FILE, 1).gzip, GZIP);
    locs.push(origin + path);
  }
  publishIndex(site, origin, locs);
  return { site, info: { origin, urls: MAIN_FILES } };
}

async function bombSite(): Promise<{ site: FixtureSite; info: E2eSites["bomb"] }> {
  const site = new FixtureSite();
  const listening = await site.listen();
  const expanded = 200_000_000;
  const bomb = gzipBomb(expanded);
  site.file("/sitemap-bomb.xml.gz", bomb, GZIP);
  site.file("/robots.txt", `Sitemap: ${listening.origin}/sitemap-bomb.xml.gz\n`);
  return {
    site,
    info: { origin: listening.origin, gzipBytes: bomb.byteLength, expandedBytes: expanded },
  };
}

/**
 * bbc.co.uk's shape: robots.txt names 13 sitemaps; three are indexes (50, 9
 * and 3 children), ten are urlsets. The 50 children of the big index hold
 * 50,000 URLs each (2.5 million); the other 22 urlsets share 100,000.
 */
async function scaleSite(): Promise<{ site: FixtureSite; info: NonNullable<E2eSites["scale"]> }> {
  const site = new FixtureSite();
  const listening = await site.listen();
  const origin = listening.origin;
  let next = 0;
  let xmlBytes = 0;
  let sitemaps = 0;
  const addUrlset = (path: string, count: number): string => {
    const doc = urlset(next, count);
    next += count;
    xmlBytes += doc.xmlBytes;
    sitemaps++;
    site.file(path, doc.gzip, GZIP);
    return origin + path;
  };
  const addIndex = (path: string, children: readonly string[]): string => {
    sitemaps++;
    site.file(path, generateIndex(children), { contentType: "application/xml" });
    return origin + path;
  };
  const small = 100_000 / 22;
  let smallDone = 0;
  const smallCount = (): number => {
    const count = Math.round(small * (smallDone + 1)) - Math.round(small * smallDone);
    smallDone++;
    return count;
  };
  const robots: string[] = [];
  const big = Array.from(
    { length: 50 },
    (_, i) => addUrlset(`/sitemaps/articles/sitemap-${i + 1}.xml.gz`, 50_000),
  );
  robots.push(addIndex("/sitemaps/https-index-uk-archive.xml", big));
  const nine = Array.from(
    { length: 9 },
    (_, i) => addUrlset(`/sitemaps/programmes/sitemap-${i + 1}.xml.gz`, smallCount()),
  );
  robots.push(addIndex("/sitemaps/https-index-uk-programmes.xml", nine));
  const three = Array.from(
    { length: 3 },
    (_, i) => addUrlset(`/sitemaps/news/sitemap-${i + 1}.xml.gz`, smallCount()),
  );
  robots.push(addIndex("/sitemaps/https-index-uk-news.xml", three));
  for (let i = 0; i < 10; i++) {
    robots.push(addUrlset(`/sitemaps/https-sitemap-uk-${i + 1}.xml.gz`, smallCount()));
  }
  site.file(
    "/robots.txt",
    "User-agent: *\nDisallow: /cbbc/search\n\n" + robots.map((u) => `Sitemap: ${u}\n`).join(""),
  );
  return {
    site,
    info: { origin, urls: next, sitemaps, robotsSitemaps: robots.length, xmlBytes },
  };
}

if (import.meta.main) {
  const started = performance.now();
  const main = await mainSite();
  const realistic = await realisticSite();
  const realisticIssue = await realisticSite("issue24");
  const floor = await floorSite();
  const bomb = await bombSite();
  const scale = Deno.args.includes("--no-scale") ? null : await scaleSite();
  const sites: E2eSites = {
    main: main.info,
    realistic: realistic.info,
    realisticIssue: realisticIssue.info,
    floor: floor.info,
    bomb: bomb.info,
    scale: scale?.info ?? null,
    setupMs: Math.round(performance.now() - started),
  };
  console.log(JSON.stringify(sites));
  // Serve until the orchestrator closes our stdin (or goes away).
  for await (const _ of Deno.stdin.readable) { /* drain */ }
  Deno.exit(0);
}
