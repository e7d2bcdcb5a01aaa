/**
 * Memory and iteration of a 1,000,000-page tree, plain beside realistic
 * (issue 12 item 3): each variant in a fresh process parses 20 sitemaps of
 * 50,000 pages (fixtures/realistic.ts: "plain" loc + lastmod, or the
 * realistic mix of image, hreflang, news and video blocks, their blocks kept
 * as bytes, or decoded at parse time for "realistic-eager"; "realistic-issue24"
 * is issue 24's lighter mix, ~10.9 MB a sitemap, and "realistic-issue24-eager"
 * the same decoded at parse time: the floor of a design that decodes the
 * blocks before they are read, which still builds the objects on the calling
 * thread when they are; written to a
 * temporary folder first, so the measured process only reads and parses) into a tree of
 * packed columns, then iterates `allPages()` six times reading each page's
 * url and lastModified, then six times reading every extension too. Prints
 * the columns' bytes, RSS with the tree built (after a GC), the peak RSS
 * while iterating, and each iteration's time (first and warm; and the
 * second time every extension is read, when kept extensions are read again).
 *
 *   deno run -A bench/extras_memory.ts [--sitemaps 20] [--per 50000] [--variants realistic-issue24]
 *
 * (`--variants`: which of plain, realistic, realistic-eager, realistic-issue24
 * and realistic-issue24-eager to run, plain always among them: the ratios are
 * to it.)
 *
 * @module
 */
import process from "node:process";
import { REALISTIC_MIX_ISSUE24, realisticUrlset, shapeUrlset } from "../fixtures/realistic.ts";
import { IndexWebsiteSitemap, PagesXMLSitemap } from "../src/objects/sitemap.ts";
import {
  SitemapAlternate,
  type SitemapAlternateInit,
  SitemapImage,
  type SitemapImageInit,
  SitemapNewsStory,
  type SitemapNewsStoryInit,
  SitemapVideo,
  type SitemapVideoInit,
} from "../src/objects/page.ts";
import type { PackedPages } from "../src/parse/_result.ts";
import { parseSitemap } from "../src/parse/parse_sitemap.ts";
import { numberFlag } from "./_flags.ts";

const SITEMAPS = numberFlag("sitemaps", 20);
const PER = numberFlag("per", 50_000);
const MiB = 1024 * 1024;
const ALL_VARIANTS = [
  "plain",
  "realistic",
  "realistic-eager",
  "realistic-issue24",
  "realistic-issue24-eager",
];
const variantsAt = process.argv.indexOf("--variants");
const VARIANTS = variantsAt < 0
  ? ALL_VARIANTS
  : ALL_VARIANTS.filter((v) =>
    v === "plain" || process.argv[variantsAt + 1]!.split(",").includes(v)
  );

function columnBytes(p: PackedPages): number {
  let n = p.urlBytes.byteLength + p.urlEnds.byteLength + p.lastModified.byteLength +
    p.priority.byteLength + p.changeFrequency.byteLength;
  const x = p.extras;
  // Every column of the extras, whatever their layout.
  if (x !== null) {
    for (const column of Object.values(x)) if (ArrayBuffer.isView(column)) n += column.byteLength;
  }
  return n;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function child(variant: string, dir: string): void {
  const nodes: PagesXMLSitemap[] = [];
  let bytes = 0;
  for (let s = 0; s < SITEMAPS; s++) {
    const url = `https://www.shop.example/sitemap-${s}.xml`;
    // An eager variant reads its lazy twin's files, decoding extension blocks at parse time.
    const file = `${dir}/${variant.replace("-eager", "")}-${s}.xml`;
    const extensions = variant.endsWith("-eager") ? "eager" : "lazy";
    const r = parseSitemap(Deno.readFileSync(file), { url, extensions });
    if (r.kind !== "pages") throw new Error(`sitemap ${s}: ${r.kind}`);
    bytes += columnBytes(r.pages);
    nodes.push(new PagesXMLSitemap(url, r.pages));
  }
  const tree = new IndexWebsiteSitemap("https://www.shop.example/", nodes);
  gc();
  const rssTree = process.memoryUsage().rss;
  let peak = rssTree;
  let pages = 0;
  /**
   * Six traversals; `full` reads every page's extensions, else only url and
   * lastModified. Wall and CPU time (the process's, so the collector's
   * helper threads count; less moved by other processes on the cores).
   */
  const iterate = (
    full: boolean,
  ): {
    first: number;
    second: number;
    warm: number;
    cpuFirst: number;
    cpuSecond: number;
    cpuWarm: number;
  } => {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < 6; round++) {
      const c = process.cpuUsage();
      const t = performance.now();
      let touched = 0;
      pages = 0;
      for (const page of tree.allPages()) {
        touched += page.url.length + (page.lastModified === null ? 0 : 1);
        if (full) {
          touched += page.images.length + page.alternates.length + page.videos.length +
            (page.newsStory === null ? 0 : 1);
        }
        pages++;
        if ((pages & 0xffff) === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      if (touched === 0) throw new Error("nothing read");
    }
    const median = (list: number[]): number => list.slice(1).sort((a, b) => a - b)[2]!;
    return {
      first: times[0]!,
      second: times[1]!,
      warm: median(times),
      cpuFirst: cpu[0]!,
      cpuSecond: cpu[1]!,
      cpuWarm: median(cpu),
    };
  };
  const light = iterate(false);
  const full = iterate(true);
  peak = Math.max(peak, process.memoryUsage().rss);
  const floor = variant === "plain" ? null : objectsFloor(tree);
  console.log(JSON.stringify({
    pages,
    bytes,
    rssTree,
    peak,
    first: light.first,
    warm: light.warm,
    fullFirst: full.first,
    fullSecond: full.second,
    fullWarm: full.warm,
    cpuFirst: light.cpuFirst,
    cpuWarm: light.cpuWarm,
    cpuFullFirst: full.cpuFirst,
    cpuFullSecond: full.cpuSecond,
    cpuFullWarm: full.cpuWarm,
    objectsFirst: floor?.first ?? null,
    objectsWarm: floor?.warm ?? null,
  }));
}

/** One page's extensions as constructor inputs, taken from objects already built. */
interface PageInits {
  readonly images: SitemapImageInit[];
  readonly alternates: SitemapAlternateInit[];
  readonly videos: SitemapVideoInit[];
  readonly news: SitemapNewsStoryInit | null;
}

/**
 * The floor of any first read that hands out the public objects: building
 * every page's extension objects and frozen lists from values already decoded
 * (the constructors' inputs gathered from a read beforehand, so no decoding
 * is timed). Three rounds; the first, and the median of the other two.
 */
function objectsFloor(tree: IndexWebsiteSitemap): { first: number; warm: number } {
  const pages: PageInits[] = [];
  for (const page of tree.allPages()) {
    const news = page.newsStory;
    if (
      page.images.length + page.alternates.length + page.videos.length === 0 && news === null
    ) continue;
    pages.push({
      images: page.images.map((image) => ({ ...image })),
      alternates: page.alternates.map((alternate) => ({ ...alternate })),
      videos: page.videos.map((video) => ({ ...video })),
      news: news === null ? null : { ...news },
    });
  }
  const times: number[] = [];
  let built = 0;
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    for (const page of pages) {
      const images = Object.freeze(page.images.map((init) => new SitemapImage(init)));
      const alternates = Object.freeze(page.alternates.map((init) => new SitemapAlternate(init)));
      const videos = Object.freeze(page.videos.map((init) => new SitemapVideo(init)));
      const news = page.news === null ? null : new SitemapNewsStory(page.news);
      built += images.length + alternates.length + videos.length + (news === null ? 0 : 1);
    }
    times.push(performance.now() - t);
  }
  if (built === 0) throw new Error("no extension objects built");
  return { first: times[0]!, warm: (times[1]! + times[2]!) / 2 };
}

/** Writes the variant's sitemaps, so that the measured process only parses them. */
function generate(variant: string, dir: string): void {
  for (let s = 0; s < SITEMAPS; s++) {
    const xml = variant === "plain"
      ? shapeUrlset("plain", PER, s + 1)
      : variant === "realistic-issue24"
      ? realisticUrlset(PER, s + 1, { offset: s * PER, mix: REALISTIC_MIX_ISSUE24 })
      : realisticUrlset(PER, s + 1, { offset: s * PER });
    Deno.writeTextFileSync(`${dir}/${variant}-${s}.xml`, xml);
  }
}

async function run(variant: string, dir: string): Promise<Record<string, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      import.meta.filename!,
      "--child",
      variant,
      dir,
      "--sitemaps",
      String(SITEMAPS),
      "--per",
      String(PER),
    ],
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`${variant} child failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
}

const at = process.argv.indexOf("--child");
if (at >= 0) {
  child(process.argv[at + 1]!, process.argv[at + 2]!);
} else {
  const dir = Deno.makeTempDirSync({ prefix: "extras_memory_" });
  console.log(`${SITEMAPS} sitemaps x ${PER} pages, each variant in a fresh process`);
  console.log(
    "variant          pages     columns MiB  RSS tree MiB  RSS peak iterating MiB  first ms  warm ms  all-extensions first ms  warm ms  (CPU ms: first, warm, all first, all warm)",
  );
  const rows: Record<string, Record<string, number>> = {};
  for (const variant of VARIANTS) {
    // An eager variant reads its lazy twin's files.
    const files = variant.replace("-eager", "");
    if (variant !== files && !VARIANTS.includes(files)) generate(files, dir);
    if (variant === files) generate(variant, dir);
    const r = rows[variant] = await run(variant, dir);
    console.log(
      `${variant.padEnd(15)} ${String(r.pages).padStart(8)} ${
        (r.bytes! / MiB).toFixed(1).padStart(12)
      } ${(r.rssTree! / MiB).toFixed(0).padStart(13)} ${(r.peak! / MiB).toFixed(0).padStart(23)} ${
        r.first!.toFixed(0).padStart(9)
      } ${r.warm!.toFixed(0).padStart(8)} ${r.fullFirst!.toFixed(0).padStart(24)} ${
        r.fullWarm!.toFixed(0).padStart(8)
      }  (${
        [r.cpuFirst!, r.cpuWarm!, r.cpuFullFirst!, r.cpuFullWarm!].map((v) => v.toFixed(0)).join(
          ", ",
        )
      })`,
    );
  }
  for (const variant of VARIANTS.filter((v) => v !== "plain")) {
    const ratio = (key: string): string =>
      (rows[variant]![key]! / rows.plain![key]!).toFixed(2) + "x";
    console.log(
      `iteration (url, lastModified), ${variant} / plain: first ${ratio("first")}, warm ${
        ratio("warm")
      }; reading every extension too: first ${ratio("fullFirst")}, warm ${
        ratio("fullWarm")
      }; peak iterating ${
        ((rows[variant]!.peak! - rows[variant]!.rssTree!) / MiB).toFixed(0)
      } MiB over the tree's RSS; CPU: first ${ratio("cpuFirst")}, warm ${
        ratio("cpuWarm")
      }, every extension first ${ratio("cpuFullFirst")}, warm ${
        ratio("cpuFullWarm")
      }; every extension read a second time: ${rows[variant]!.fullSecond!.toFixed(0)} ms (CPU ${
        rows[variant]!.cpuFullSecond!.toFixed(0)
      } ms); the extension objects alone, built from values already decoded: ${
        rows[variant]!.objectsFirst!.toFixed(0)
      } ms first, ${rows[variant]!.objectsWarm!.toFixed(0)} ms warm`,
    );
  }
  Deno.removeSync(dir, { recursive: true });
}
