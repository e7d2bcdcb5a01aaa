import { deepStrictEqual, strictEqual as equal, throws } from "node:assert/strict";
import { MAX_ROBOTS_TXT_CHARS, parseRobotsTxt, RobotsTxt } from "../../src/parse/robots_txt.ts";
import { normalizeRobotsPath, robotsTarget } from "../../src/parse/_robots_rules.ts";
import { NaiveRules } from "./_robots_naive.ts";
import { generatedPageUrls, generatedRobotsTxt } from "./_robots_gen.ts";
import { fixture } from "./_unpack.ts";
import { Rng } from "./_xml_gen.ts";

const ROBOTS = "https://www.example.com/robots.txt";

Deno.test("parseRobotsTxt() sitemaps: any case, Site-map, any spacing, relative values", () => {
  const text = [
    "User-agent: *",
    "Disallow: /private/",
    "Sitemap: https://www.example.com/a.xml",
    "sitemap:https://www.example.com/b.xml",
    "SITEMAP   :   /c.xml",
    "  Site-map: d.xml",
    "\tsItEmAp:\thttps://cdn.example.net/e.xml.gz",
  ].join("\n");
  deepStrictEqual(parseRobotsTxt(text, ROBOTS).sitemaps, [
    "https://www.example.com/a.xml",
    "https://www.example.com/b.xml",
    "https://www.example.com/c.xml",
    "https://www.example.com/d.xml",
    "https://cdn.example.net/e.xml.gz",
  ]);
});

Deno.test("parseRobotsTxt() sitemaps apply in every group, with a BOM and CRLF", () => {
  const text = "\ufeffSitemap: /first.xml\r\nUser-agent: Googlebot\r\nDisallow: /\r\n" +
    "Sitemap: /in-group.xml\r\n\r\nUser-agent: *\r\nSitemap: /last.xml";
  deepStrictEqual(parseRobotsTxt(text, new URL(ROBOTS)).sitemaps, [
    "https://www.example.com/first.xml",
    "https://www.example.com/in-group.xml",
    "https://www.example.com/last.xml",
  ]);
});

Deno.test("parseRobotsTxt() sitemaps: duplicates once, in order; junk values skipped", () => {
  const text = [
    "Sitemap: /a.xml",
    "Sitemap: https://www.example.com/a.xml",
    "Sitemap: /a.xml#fragment",
    "Sitemap: /b.xml # the blog",
    "Sitemap:",
    "Sitemap: ftp://www.example.com/c.xml",
    "Sitemaps: /not-the-key.xml",
    "# Sitemap: /commented.xml",
    "Disallow: /sitemap: /no.xml",
  ].join("\n");
  deepStrictEqual(parseRobotsTxt(text, ROBOTS).sitemaps, [
    "https://www.example.com/a.xml",
    "https://www.example.com/b.xml",
  ]);
});

Deno.test("parseRobotsTxt() without a URL keeps absolute sitemaps only", () => {
  deepStrictEqual(
    parseRobotsTxt("Sitemap: /relative.xml\nSitemap: https://x.test/abs.xml\n").sitemaps,
    ["https://x.test/abs.xml"],
  );
});

Deno.test("parseRobotsTxt() reads the sitemaps of the robots.txt fixture", () => {
  const text = new TextDecoder().decode(fixture("robots.txt"));
  deepStrictEqual(parseRobotsTxt(text, ROBOTS).sitemaps, [
    "https://www.example.com/sitemap_index.xml",
    "https://www.example.com/sitemap_news.xml",
  ]);
});

Deno.test("isAllowed() allows /robots.txt whatever the rules (RFC 9309 section 2.2.2)", () => {
  const robots = parseRobotsTxt("User-agent: *\nDisallow: /\n");
  deepStrictEqual(
    [
      robots.isAllowed("https://x.test/robots.txt"),
      robots.isAllowed("https://x.test/robots.txt?v=2"),
      robots.isAllowed("https://x.test/robots.txt.bak"),
      robots.isAllowed("https://x.test/a/robots.txt"),
    ],
    [true, true, false, false],
  );
});

Deno.test("isAllowed() takes the product token of a user-agent string", () => {
  const robots = parseRobotsTxt(
    "User-agent: *\nDisallow: /all/\n\nUser-agent: Googlebot\nDisallow: /google/\n",
  );
  const url = "https://x.test/google/a";
  deepStrictEqual(
    [
      robots.isAllowed(url),
      robots.isAllowed(url, "Googlebot"),
      robots.isAllowed(url, "googlebot/2.1 (+http://www.google.com/bot.html)"),
      robots.isAllowed(url, "Mozilla/5.0 (compatible; Googlebot/2.1)"),
      robots.isAllowed("https://x.test/all/a", "Googlebot"),
      robots.isAllowed("https://x.test/all/a", "@sitemap/tree/0.1.0"),
    ],
    [true, false, false, true, true, false],
  );
});

Deno.test("isAllowed() merges every group naming the agent (RFC 9309 section 2.2.1)", () => {
  const robots = parseRobotsTxt(
    "user-agent: ExampleBot\ndisallow: /foo\n\nuser-agent: *\ndisallow: /all\n\n" +
      "user-agent: examplebot\ndisallow: /baz\n",
  );
  deepStrictEqual(
    ["/foo", "/baz", "/all"].map((path) => robots.isAllowed(`https://x.test${path}`, "ExampleBot")),
    [false, false, true],
  );
});

Deno.test("isAllowed() normalises percent-encoding on both sides", () => {
  const robots = parseRobotsTxt(
    "User-agent: *\nDisallow: /~jim/\nDisallow: /caf%c3%a9\nDisallow: /a%2Fb\nDisallow: /sp ace\n",
  );
  deepStrictEqual(
    [
      robots.isAllowed("https://x.test/%7Ejim/index.html"),
      robots.isAllowed("https://x.test/café"),
      robots.isAllowed("https://x.test/a%2fb"),
      robots.isAllowed("https://x.test/a/b"),
      robots.isAllowed("https://x.test/sp%20ace"),
      robots.isAllowed(new URL("https://x.test/sp ace")),
    ],
    [false, false, false, true, false, false],
  );
});

Deno.test("isAllowed() reads paths and URLs without a scheme as Google's matcher does", () => {
  const robots = parseRobotsTxt("User-agent: *\nDisallow: /a$\n");
  deepStrictEqual(
    ["/a", "/a?x", "example.com/a", "//host/a", "/b/../a", "https://x.test/b/./../a"].map((u) =>
      robots.isAllowed(u)
    ),
    [false, true, false, false, false, false],
  );
});

Deno.test("isAllowed() throws a TypeError for a string with a scheme that is not a URL", () => {
  const robots = parseRobotsTxt("User-agent: *\nDisallow: /\n");
  throws(() => robots.isAllowed("https://exa mple.com/"), {
    name: "TypeError",
    message: 'Not a URL: "https://exa mple.com/"',
  });
});

Deno.test("matchingRule() names the deciding line, null when no rule matches", () => {
  const robots = parseRobotsTxt(
    "User-agent: *\n# comment\nDisallow: /shop/\nAllow: /shop/catalog # public\n",
  );
  deepStrictEqual(
    [
      robots.matchingRule("https://x.test/shop/cart"),
      robots.matchingRule("https://x.test/shop/catalog/1"),
      robots.matchingRule("https://x.test/"),
    ],
    [
      { allow: false, pattern: "/shop/", line: 3 },
      { allow: true, pattern: "/shop/catalog", line: 4 },
      null,
    ],
  );
});

Deno.test("isAllowed() with many wildcard rules picks the longest, whatever their order", () => {
  const robots = parseRobotsTxt(
    "User-agent: *\nDisallow: /*.pdf$\nAllow: /docs/*\nDisallow: /docs/*/draft*\nAllow: /docs/*/draft-public*\n",
  );
  deepStrictEqual(
    [
      "/x/a.pdf",
      "/docs/a.pdf",
      "/docs/v1/draft-1",
      "/docs/v1/draft-public-2",
      "/docs/v1/draft-public.pdf",
    ].map((path) => robots.isAllowed(`https://x.test${path}`)),
    [false, true, false, true, true],
  );
});

Deno.test("crawlDelay() reads the agent's own group first, then *, and skips bad values", () => {
  const text = [
    "User-agent: *",
    "Crawl-delay: 2 # seconds",
    "",
    "User-agent: otherbot",
    "User-agent: My-Bot",
    "Disallow: /private",
    "Crawl-delay: 0.5",
  ].join("\r\n");
  const robots = parseRobotsTxt(text);
  deepStrictEqual(
    [
      robots.crawlDelay("my-bot/1.0 (+https://x.test)"),
      robots.crawlDelay("another/2.0"),
      robots.crawlDelay(),
      parseRobotsTxt("User-agent: *\nCrawl-delay: soon\n").crawlDelay("a/1"),
      parseRobotsTxt("User-agent: *\nCrawl-delay: -1\n").crawlDelay("a/1"),
      parseRobotsTxt("Crawl-delay: 3\n").crawlDelay("a/1"),
      parseRobotsTxt("").crawlDelay("a/1"),
    ],
    [0.5, 2, 2, null, null, null, null],
  );
});

Deno.test("crawlDelay() of an agent with its own group does not fall back to *", () => {
  const robots = parseRobotsTxt(
    "User-agent: *\nCrawl-delay: 5\n\nUser-agent: fastbot\nDisallow: /x\n",
  );
  deepStrictEqual([robots.crawlDelay("fastbot"), robots.crawlDelay("otherbot")], [null, 5]);
});

Deno.test("crawlDelay() belongs to the agents named before it, and does not end the group", () => {
  // Crawl-delay is not a rule: yourbot joins mybot's group for rules, but the delay was mybot's.
  const robots = parseRobotsTxt(
    "User-agent: mybot\nCrawl-delay: 10\nUser-agent: yourbot\nDisallow: /\n",
  );
  deepStrictEqual(
    [
      robots.crawlDelay("mybot"),
      robots.crawlDelay("yourbot"),
      robots.isAllowed("https://x.test/", "mybot"),
      robots.isAllowed("https://x.test/", "yourbot"),
    ],
    [10, null, false, false],
  );
});

Deno.test("parseRobotsTxt() reads at most MAX_ROBOTS_TXT_CHARS, as Google does", () => {
  const filler = "# filler\n".repeat(Math.ceil(MAX_ROBOTS_TXT_CHARS / 9));
  const robots = parseRobotsTxt(`User-agent: *\nDisallow: /a\n${filler}Disallow: /b\n`);
  deepStrictEqual(
    [
      robots.text.length,
      robots.isAllowed("https://x.test/a"),
      robots.isAllowed("https://x.test/b"),
    ],
    [MAX_ROBOTS_TXT_CHARS, false, true],
  );
});

Deno.test("RobotsTxt keeps its URL and text, so it can be rebuilt", () => {
  const robots = new RobotsTxt("\ufeffUser-agent: *\nDisallow: /x\n", "https://x.test/robots.txt");
  const copy = parseRobotsTxt(robots.text, robots.url ?? undefined);
  deepStrictEqual(
    [robots.url, robots.text, copy.isAllowed("https://x.test/x")],
    ["https://x.test/robots.txt", "User-agent: *\nDisallow: /x\n", false],
  );
  equal(parseRobotsTxt("").url, null);
});

Deno.test("normalizeRobotsPath() encodes, decodes unreserved escapes and upper-cases the rest", () => {
  deepStrictEqual(
    ["/a/b", "/%7e%62", "/%2f%3a", "/ツ", "/a b|c", "/%zz%", "/😀", "/\ud800x"].map(
      normalizeRobotsPath,
    ),
    ["/a/b", "/~b", "/%2F%3A", "/%E3%83%84", "/a%20b%7Cc", "/%zz%", "/%F0%9F%98%80", "/%EF%BF%BDx"],
  );
});

Deno.test("robotsTarget() gives the same path by its fast and its parsing route", () => {
  deepStrictEqual(
    [
      "https://x.test",
      "https://x.test?q=1",
      "https://x.test/a/%7e?b=%2f#frag",
      "HTTPS://X.TEST/a/%7e?b=%2f",
      "https://x.test/a/./b",
      "https://x.test/a/%2e%2e/b",
      "https://x.test/.well-known/x",
    ].map((u) => robotsTarget(u)),
    ["/", "/?q=1", "/a/~?b=%2F", "/a/~?b=%2F", "/a/b", "/b", "/.well-known/x"],
  );
});

Deno.test("isAllowed() agrees with a rule-by-rule regular-expression matcher on generated rules", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rng = new Rng(seed);
    // Small alphabets, so that `*`, `$` (also mid-pattern, where it is literal) and prefixes collide.
    const patterns = Array.from({ length: 30 }, () => {
      let p = rng.chance(0.8) ? "/" : "*";
      for (let n = rng.int(6); n > 0; n--) p += "ab/*$%"[rng.int(6)];
      return p.replace(/%$/, "%61");
    });
    const naive = new NaiveRules();
    const lines = ["User-agent: *"];
    for (const p of patterns) {
      const allow = rng.chance(0.4);
      naive.add(allow, p);
      lines.push(`${allow ? "Allow" : "Disallow"}: ${p}`);
    }
    const robots = parseRobotsTxt(lines.join("\n"));
    const paths = Array.from({ length: 300 }, () => {
      let p = "/";
      for (let n = rng.int(8); n > 0; n--) p += "ab/$*"[rng.int(5)];
      return p;
    });
    const actual = paths.map((p) => robots.isAllowed(`https://x.test${p}`));
    deepStrictEqual(actual, paths.map((p) => naive.isAllowed(robotsTarget(`https://x.test${p}`))));
  }
});

Deno.test("isAllowed() agrees with the regular-expression matcher on a generated 500-rule robots.txt", () => {
  const text = generatedRobotsTxt(500, 7);
  const robots = parseRobotsTxt(text);
  // The * group alone, compiled the naive way.
  const naive = new NaiveRules();
  for (const line of text.split("\n\n")[1]!.split("\n")) {
    const m = /^(Allow|Disallow): (.*)$/.exec(line);
    if (m !== null) naive.add(m[1] === "Allow", m[2]!);
  }
  const urls = generatedPageUrls(20_000, 8);
  const actual = urls.map((u) => robots.isAllowed(u));
  const expected = urls.map((u) => naive.isAllowed(robotsTarget(u)));
  deepStrictEqual(actual, expected);
  // The rules hit a fair share of the pages, so the comparison means something.
  const disallowed = actual.filter((a) => !a).length;
  equal(disallowed > 1000 && disallowed < 19_000, true, `${disallowed} disallowed`);
});
