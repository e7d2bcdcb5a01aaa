import { deepStrictEqual, strictEqual as equal, throws } from "node:assert/strict";
import { MAX_ROBOTS_TXT_CHARS, parseRobotsTxt, RobotsTxt } from "../../src/parse/robots_txt.ts";
import { normalizeRobotsPath, robotsTarget } from "../../src/parse/_robots_rules.ts";
import { NaiveRules } from "./_robots_naive.ts";
import { generatedPageUrls, generatedRobotsTxt } from "./_robots_gen.ts";
import { fixture, indexOf, parse } from "./_unpack.ts";
import { Rng } from "./_xml_gen.ts";

const ROBOTS = "https://www.example.com/robots.txt";

/** Sitemap lines in their many spellings, and values that are no sitemap URL. */
const SITEMAP_DOCUMENTS: readonly string[] = [
  "Site-Map:/news.xml\n\tSITEMAP :\thttps://static.example.org/all.xml.gz\nsitemap    :  feed.rss",
  "\ufeffsitemap: /one.xml\r\nUser-agent: *\r\nAllow: /\r\nSiteMap: /two.xml\r\n\r\nSitemap: /three.xml",
  "Sitemap: /x.xml?a=1\nsitemap: /x.xml?a=1#top\nSitemap: https://www.example.com/x.xml?a=1\n" +
  "Sitemap: /y.xml   # yearly\nSitemap:\nSitemap: mailto:web@example.com\nSitemap-index: /z.xml\n" +
  "#Sitemap: /hidden.xml\nAllow: /sitemap: /w.xml\nSitemap: /two words.xml\n",
  "User-agent: *\nDisallow: /\n",
  "",
];

Deno.test("parseRobotsTxt() sitemaps: any case, Site-map, any spacing, BOM, CRLF, relative values", () => {
  deepStrictEqual(SITEMAP_DOCUMENTS.map((text) => parseRobotsTxt(text, ROBOTS).sitemaps), [
    [
      "https://www.example.com/news.xml",
      "https://static.example.org/all.xml.gz",
      "https://www.example.com/feed.rss",
    ],
    [
      "https://www.example.com/one.xml",
      "https://www.example.com/two.xml",
      "https://www.example.com/three.xml",
    ],
    [
      "https://www.example.com/x.xml?a=1",
      "https://www.example.com/y.xml",
      "https://www.example.com/two",
    ],
    [],
    [],
  ]);
});

Deno.test("parseSitemap() reads a robots.txt with parseRobotsTxt(): its sitemaps, warning and text", () => {
  const documents = [...SITEMAP_DOCUMENTS, new TextDecoder().decode(fixture("robots.txt"))];
  deepStrictEqual(
    documents.map((text) => {
      const result = indexOf(parse(text, { url: ROBOTS, robots: true }));
      return [result.children.map((c) => c.url), result.warning, result.robotsText];
    }),
    documents.map((text) => {
      const robots = parseRobotsTxt(text, ROBOTS);
      return [robots.sitemaps, robots.warning, robots.text];
    }),
  );
});

Deno.test("parseSitemap() reads a robots.txt's bytes: BOM, CRLF, Latin-1 declared by Content-Type", () => {
  const bom = new TextEncoder().encode(
    "\ufeffSitemap: /first.xml\r\nUser-agent: Googlebot\r\nDisallow: /\r\nSitemap: /in-group.xml\r\n",
  );
  const latin1 = Uint8Array.from(
    [..."User-agent: *\nDisallow: /caf\xe9\nSitemap: /s.xml\n"],
    (c) => c.charCodeAt(0),
  );
  const a = indexOf(parse(bom, { url: ROBOTS, robots: true }));
  const b = indexOf(
    parse(latin1, { url: ROBOTS, robots: true, contentType: "text/plain; charset=iso-8859-1" }),
  );
  deepStrictEqual(
    [a.children.map((c) => c.url), a.robotsText, b.robotsText],
    [
      ["https://www.example.com/first.xml", "https://www.example.com/in-group.xml"],
      "Sitemap: /first.xml\r\nUser-agent: Googlebot\r\nDisallow: /\r\nSitemap: /in-group.xml\r\n",
      "User-agent: *\nDisallow: /caf\u00e9\nSitemap: /s.xml\n",
    ],
  );
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
  const robots = parseRobotsTxt(
    "User-Agent: *\r\nCRAWL-DELAY: 4 # be gentle\r\n\r\n" +
      "User-agent: slurp\r\nUser-agent: Archiver\r\nDisallow: /tmp\r\nCrawl-delay: 1.5\r\n",
  );
  deepStrictEqual(
    [
      robots.crawlDelay("archiver/3.1 (+https://x.test/bot)"),
      robots.crawlDelay("Slurp"),
      robots.crawlDelay("somebot/0.1"),
      robots.crawlDelay(),
      parseRobotsTxt("User-agent: *\nCrawl-delay: ten\n").crawlDelay("b/2"),
      parseRobotsTxt("User-agent: *\nCrawl-delay: -3\nCrawl-delay: 7\n").crawlDelay("b/2"),
      parseRobotsTxt("Crawl-delay: 9\nUser-agent: *\n").crawlDelay("b/2"),
      parseRobotsTxt("").crawlDelay(),
    ],
    [1.5, 1.5, 4, 4, null, 7, null, null],
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

Deno.test("parseRobotsTxt() reads rules from the first MAX_ROBOTS_TXT_CHARS, cut at a line break, as Google does", () => {
  const filler = "# filler\n".repeat(Math.ceil(MAX_ROBOTS_TXT_CHARS / 9));
  const cut = "Disallow: /c\n";
  const text = `User-agent: *\nDisallow: /a\n${filler}`.slice(0, MAX_ROBOTS_TXT_CHARS - 5) + cut +
    "Disallow: /b\n";
  const robots = parseRobotsTxt(text);
  deepStrictEqual(
    [
      robots.text.length,
      robots.text.endsWith("# filler\n"),
      robots.isAllowed("https://x.test/a"),
      robots.isAllowed("https://x.test/b"),
      // Cut in half at the limit, the rule would have been `Disallow: /`.
      robots.isAllowed("https://x.test/"),
    ],
    [MAX_ROBOTS_TXT_CHARS - 5 - ((MAX_ROBOTS_TXT_CHARS - 5 - 27) % 9), true, false, true, true],
  );
});

Deno.test("parseRobotsTxt() reads Sitemap: lines past MAX_ROBOTS_TXT_CHARS and keeps them in its text", () => {
  const filler = "# filler\n".repeat(Math.ceil(MAX_ROBOTS_TXT_CHARS / 9));
  const text = `Sitemap: /first.xml\nUser-agent: *\nDisallow: /a\n${filler}` +
    "Disallow: /b\nSitemap: /late.xml  # after the limit\nsitemap:/first.xml\nSitemap: a b\\c\n" +
    "Site-map: https://cdn.example.net/last.xml.gz";
  const robots = parseRobotsTxt(text, ROBOTS);
  const again = parseRobotsTxt(robots.text, ROBOTS);
  const expected = [
    "https://www.example.com/first.xml",
    "https://www.example.com/late.xml",
    "https://www.example.com/a",
    "https://cdn.example.net/last.xml.gz",
  ];
  deepStrictEqual(
    [
      robots.sitemaps,
      robots.isAllowed("https://www.example.com/b"),
      robots.text.endsWith(
        "# filler\nSitemap: /late.xml  # after the limit\nsitemap:/first.xml\n" +
          "Sitemap: a b\\c\nSite-map: https://cdn.example.net/last.xml.gz\n",
      ),
    ],
    [expected, true, true],
  );
  deepStrictEqual(
    [again.text, again.sitemaps, again.isAllowed("https://www.example.com/a")],
    [robots.text, expected, false],
  );
});

Deno.test("parseRobotsTxt() warns of Sitemap: values that are no URL", () => {
  const robots = parseRobotsTxt(
    "Sitemap: host.example\\sitemap.xml\nSitemap: <a href=x>\nSitemap: mailto:a@b.test\nSitemap: /ok.xml\n",
    ROBOTS,
  );
  deepStrictEqual([robots.sitemaps, robots.warning, parseRobotsTxt("Sitemap: /x\n").warning], [
    ["https://www.example.com/ok.xml"],
    'Dropped 2 values that are not a URL (prose, markup or malformed), the first: "host.example\\\\sitemap.xml"',
    null,
  ]);
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
