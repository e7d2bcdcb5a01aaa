/**
 * Seeded generators of robots.txt input: a large robots.txt shaped like real
 * ones (a big `*` group, search-engine groups sharing lines, AI crawlers shut
 * out, comments, `Sitemap:` and `Crawl-delay:` lines; prefixes, `*` in the
 * middle and at either end, `$`, query parameters, a few escapes), and page
 * URLs of the same site, a share of which the rules hit. The bench and the
 * differential test read them; the same seed gives the same text.
 *
 * @module
 */
import { Rng } from "./_xml_gen.ts";

/** Sections pages live in. */
const PUBLIC = [
  "products",
  "category",
  "blog",
  "help",
  "de-de",
  "fr-fr",
  "en-us",
  "media",
  "reviews",
  "tag",
] as const;
/** Sections a site keeps crawlers out of. */
const PRIVATE = [
  "account",
  "cart",
  "checkout",
  "search",
  "api",
  "user",
  "print",
  "compare",
  "wishlist",
  "static",
] as const;
const WORDS = ["shoes", "red", "sale", "new", "gift", "print", "draft", "preview", "café", "item"];
const PARAMS = ["sort", "sessionid", "page", "filter", "utm_source", "ref", "q", "color"];
const EXTENSIONS = ["pdf", "jpg", "json", "xml", "zip"];

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[rng.int(list.length)]!;
}

/** One rule line's pattern: private sections whole, public ones in small parts. */
function pattern(rng: Rng): string {
  const open = pick(rng, PUBLIC);
  const word = pick(rng, WORDS);
  switch (rng.int(12)) {
    case 0:
      return `/*?${pick(rng, PARAMS)}=`;
    case 1:
      return `/*&${pick(rng, PARAMS)}=`;
    case 2:
      return `/${open}/*/${word}`;
    case 3:
      return `/*.${pick(rng, EXTENSIONS)}$`;
    case 4:
      return `/${pick(rng, PRIVATE)}$`;
    case 5:
      return `/${open}/${word}-${rng.int(997)}*`;
    case 6:
      return `*/${word}-${rng.int(50)}/`;
    case 7:
      return `/${open}/${word}-${rng.int(997)}/`;
    case 8:
      return `/${open}/${encodeURIComponent(word)}-${rng.int(997)}/item-${rng.int(100)}`;
    default:
      return `/${pick(rng, PRIVATE)}/${rng.chance(0.5) ? word + "/" : ""}`;
  }
}

/**
 * A robots.txt with `rules` allow/disallow lines in several groups: about
 * 60% in the `*` group, 20% in one shared by Googlebot and Googlebot-Image,
 * 10% in Bingbot's, the rest in smaller groups and one that shuts GPTBot and
 * CCBot out; one rule in six is an Allow.
 *
 * @param rules The number of allow/disallow lines.
 * @param seed The generator's seed.
 * @returns The text.
 */
export function generatedRobotsTxt(rules: number, seed = 1): string {
  const rng = new Rng(seed);
  // The closing "GPTBot, CCBot: Disallow: /" group is one of the rules.
  const spread = rules - 1;
  const groups: [agents: string[], share: number, extra: string[]][] = [
    [["*"], 0.6, ["Crawl-delay: 1"]],
    [["Googlebot", "Googlebot-Image"], 0.2, []],
    [["Bingbot"], 0.1, ["Crawl-delay: 5"]],
    [["AdsBot-Google"], 0.04, []],
    [["Yandex"], 0.04, ["Clean-param: ref /products/"]],
    [["Applebot"], 0.02, []],
  ];
  const lines = ["# robots.txt for https://www.example.com/", ""];
  let written = 0;
  groups.forEach(([agents, share, extra], index) => {
    const count = index === groups.length - 1 ? spread - written : Math.round(spread * share);
    for (const agent of agents) lines.push(`User-agent: ${agent}`);
    lines.push(...extra);
    for (let i = 0; i < count; i++) {
      if (rng.chance(0.05)) lines.push(`# ${pick(rng, WORDS)} pages`);
      lines.push(`${rng.chance(1 / 6) ? "Allow" : "Disallow"}: ${pattern(rng)}`);
    }
    written += count;
    lines.push("");
  });
  lines.push("User-agent: GPTBot", "User-agent: CCBot", "Disallow: /", "");
  lines.push("Sitemap: https://www.example.com/sitemap_index.xml");
  return lines.join("\n");
}

/** The number of allow/disallow lines of a robots.txt (for the bench's header). */
export function ruleCount(text: string): number {
  return text.split("\n").filter((line) => /^(?:dis)?allow:/i.test(line)).length;
}

/**
 * `count` page URLs of www.example.com, nine in ten in public sections,
 * some with a query, a file extension or an escape.
 *
 * @param count How many.
 * @param seed The generator's seed.
 * @returns The URLs.
 */
export function generatedPageUrls(count: number, seed = 2): string[] {
  const rng = new Rng(seed);
  const urls: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const section = rng.chance(0.9) ? pick(rng, PUBLIC) : pick(rng, PRIVATE);
    const word = pick(rng, WORDS);
    let path = `/${section}/${encodeURIComponent(word)}-${rng.int(997)}/item-${i}`;
    const ext = rng.int(10);
    if (ext < 5) path += ".html";
    else if (ext === 5) path += `.${pick(rng, EXTENSIONS)}`;
    if (rng.chance(0.2)) path += `?${pick(rng, PARAMS)}=${rng.int(100)}`;
    if (rng.chance(0.05)) path += `&${pick(rng, PARAMS)}=x`;
    urls[i] = `https://www.example.com${path}`;
  }
  return urls;
}
