/**
 * `parseRobotsTxt()` on the 24 robots.txt documents of crawler-commons' test
 * resources (`../shared/realworld/corpus/crawler-commons-robots/`), with the
 * outcomes crawler-commons' SimpleRobotRulesParserTest expects of them
 * where it tests them, and the ones RFC 9309's own examples state.
 *
 * Where we differ from crawler-commons we follow Google's matcher, and say
 * so next to the case: crawler-commons also reads `Desallow:` and
 * `useg-agent:` as directives, and a bare URL line as a sitemap.
 *
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import { chooseEncoding } from "../../src/parse/_decode.ts";
import { parseRobotsTxt, type RobotsTxt } from "../../src/parse/robots_txt.ts";
import { CORPUS_PRESENT, corpusBytes, corpusFiles, corpusUrl } from "./_corpus.ts";

type Case = readonly [agent: string, path: string, allowed: boolean];

/** What a document must give: allow/disallow cases, and optionally sitemaps and delays. */
interface Expected {
  readonly cases: readonly Case[];
  readonly sitemaps?: readonly string[];
  readonly delays?: Readonly<Record<string, number | null>>;
}

const EXPECTED: Readonly<Record<string, Expected>> = {
  "astore.amazon.com-robots.txt": {
    cases: [["*", "/", true]],
    delays: { "*": 5, bixo: 5 },
  },
  "crawl-delay-group-merging.txt": {
    // Crawl-delay does not end a group, and a value is the agents' named before it: mybot's 10
    // is not yourbot's, though they share a group.
    cases: [
      ["mybot", "/private/a", false],
      ["yourbot", "/private/a", false],
      ["yourbot", "/login/", false],
      // The file's comment says /login/ applies to mybot too; no group naming mybot has it.
      ["mybot", "/login/", true],
      ["otherbot", "/private/a", true],
    ],
    delays: { mybot: 10, yourbot: null, "*": 30, otherbot: 30 },
  },
  "directive-typos-robots.txt": {
    cases: [
      // crawler-commons reads "Desallow" too; Google's matcher, and we, do not.
      ["bot1", "/desallow/", true],
      ["bot1", "/dissalow/", false],
      ["bot2", "/useragent/", false],
      // "useg-agent: bot3" is no user-agent line for Google (crawler-commons: it is), so its
      // Disallow joins bot2's group.
      ["bot3", "/useg-agent/", true],
      ["bot2", "/useg-agent/", false],
      ["bot4", "/useragent-no-colon/", false],
    ],
  },
  "dos-line-endings.txt": {
    cases: [["bot1", "/", true]],
    delays: { bot1: 1 },
  },
  "extended-standard-robots.txt": {
    // Every group's "Disallow:" is empty; request-rate and the rest are not read.
    cases: [["bot1", "/", true], ["bot3", "/a", true], ["bot4", "/a", true], [
      "foobot",
      "/a",
      true,
    ]],
    delays: { bot1: null, foobot: null },
  },

  "extension-robots.txt": {
    // Unknown lines (LLM-Policy, No-index, Host…) are neither rules nor group ends.
    cases: [
      ["*", "/", true],
      ["mybot", "/private/a", false],
      ["mybot", "/secret/", true],
      ["otherbot", "/admin/", false],
      ["otherbot", "/private/a", true],
    ],
    sitemaps: ["https://example.com/sitemap.xml"],
  },

  "extensions-group-merging.txt": {
    cases: [
      // The * groups merged: Allow /llms.txt, Disallow /.
      ["*", "/llms.txt", true],
      ["*", "/a", false],
      ["otherbot", "/llms.txt", true],
      // mybot and yourbot share two groups: /private/ and /login/, and none of *'s rules.
      ["mybot", "/private/a", false],
      ["mybot", "/login/", false],
      ["yourbot", "/login/", false],
      ["mybot", "/llms.txt", true],
      ["yourbot", "/a", true],
    ],
  },

  "format-errors-robots.txt": {
    cases: [
      ["bot1", "/whitespace-before-colon/", false],
      ["bot1", "/no-colon/", false],
      ["bot2", "/no-colon-useragent/", false],
      ["bot3", "/whitespace-before-colon/", true],
      ["bot3", "/other", false],
    ],
    sitemaps: ["https://example.com/sitemap.xml"],
  },
  "malformed-path.txt": {
    cases: [
      ["bot1", "/wiki/Wikipedia_talk:Mediation_Committee/", false],
      ["bot1", "/wiki/", true],
    ],
  },
  "many-user-agents.txt": {
    cases: [
      ["wget", "/", false],
      ["Wget/1.10.2", "/", false],
      ["mysuperlongbotnamethatmatchesnothing", "/", true],
      ["mysuperlongbotnamethatmatchesnothing", "/bot-trap/", false],
    ],
  },
  "merge-rules.txt": {
    cases: [
      ["wget", "/foo/bar/bar.txt", true],
      ["wget", "/tmp/bar/bar.txt", false],
      ["wget", "/chk/bar/bar.txt", true],
    ],
  },
  "precedence-of-rules.txt": {
    cases: [
      // "Allow: /index.html" also allows "/" (Google's index.html rule), which ties "Disallow: /*".
      ["wget", "/", true],
      ["wget", "/foo/bar", true],
      ["wget", "/bar/foo", false],
      ["testy", "/", true],
      ["testy", "/foo/bar", true],
      ["testy", "/foo/blue", false],
      ["testy", "/foo/", false],
      ["testy", "/foo/tar", false],
    ],
  },
  "relative-sitemap-robots.txt": {
    cases: [["*", "/cache/a", false], ["*", "/", true]],
    sitemaps: ["https://example.com/sitemap.xml"],
  },
  "rfc9309-example-longest-match-robots.txt": {
    cases: [
      ["foobot", "/example/page/", true],
      ["foobot", "/example/page/disallowed.gif", false],
    ],
  },
  "rfc9309-example-rule-group-merging.txt": {
    cases: [
      ["ExampleBot", "/foo", false],
      ["ExampleBot", "/bar", false],
      ["ExampleBot", "/baz", false],
      ["ExampleBot", "/qux", true],
      ["BazBot", "/baz", false],
      ["BazBot", "/foo", true],
      ["otherbot", "/foo", false],
      ["otherbot", "/baz", true],
    ],
  },
  "rfc9309-example-simple-robots.txt": {
    cases: [
      ["unknownbot", "/example/x", false],
      ["unknownbot", "/publications/x", true],
      ["unknownbot", "/img/a.gif", false],
      ["unknownbot", "/img/a.gif?size=2", true],
      ["unknownbot", "/other", true],
      ["foobot", "/example/page.html", true],
      ["foobot", "/example/allowed.gif", true],
      ["foobot", "/example/other", false],
      ["foobot", "/", false],
      ["barbot", "/example/page.html", false],
      ["bazbot", "/example/page.html", false],
      ["barbot", "/example/other", true],
      ["quxbot", "/example/x", true],
    ],
  },
  "robots-with-utf16be-bom.txt": {
    cases: [["foobot", "/profile", false], ["Googlebot", "/profile", false], ["foobot", "/", true]],
    sitemaps: ["http://www.newsweek.com/sitemap_index.xml"],
  },
  "robots-with-utf16le-bom.txt": {
    cases: [["foobot", "/profile", false], ["Googlebot", "/profile", false], ["foobot", "/", true]],
    sitemaps: ["http://www.newsweek.com/sitemap_index.xml"],
  },
  "robots-with-utf8-bom.txt": {
    cases: [["foobot", "/profile", false], ["foobot", "/a/output/print", false]],
    sitemaps: ["http://www.newsweek.com/sitemap_index.xml"],
  },
  "sitemap-robots-dedup.txt": {
    cases: [["bot1", "/", true]],
    sitemaps: ["http://example.org/sitemap.xml"],
  },
  "sitemap-robots.txt": {
    cases: [["bot1", "/", true]],
    // crawler-commons also counts the bare URL line that "forgot sitemap:"; Google does not.
    sitemaps: ["http://domain.com/sitemap.xml", "http://domain.com/dir/MixedCased-sitemap.xml"],
  },
  "twitter.com-robots.txt": {
    cases: [
      ["Googlebot", "/search?q=x", false],
      ["Googlebot", "/jack/with_friends", false],
      ["Googlebot", "/jack", true],
      ["Slurp", "/search?q=x", false],
      ["anybot", "/jack/with_friends", false],
    ],
    delays: { Googlebot: null, Slurp: 1, msnbot: 10, "*": null },
  },
  "wildcards.txt": {
    cases: [
      ["Any-darn-crawler", "/wishlist/bogus", false],
      ["Any-darn-crawler", "/wishlist/universal/page", true],
      ["Any-darn-crawler", "/anydirectoryhere/gcrnsts", false],
    ],
  },
  "www.flot.com-robots.txt": {
    cases: [["foobot", "/img/", false], ["foobot", "/", true]],
    sitemaps: ["http://flot.com/sitemap_index.xml"],
  },
};

function outcome(robots: RobotsTxt, expected: Expected): Expected {
  const base = "https://example.com";
  const cases = expected.cases.map(([agent, path]): Case => [
    agent,
    path,
    robots.isAllowed(base + path, agent),
  ]);
  return {
    cases,
    ...(expected.sitemaps === undefined ? {} : { sitemaps: robots.sitemaps }),
    ...(expected.delays === undefined ? {} : {
      delays: Object.fromEntries(
        Object.keys(expected.delays).map((agent) => [agent, robots.crawlDelay(agent)]),
      ),
    }),
  };
}

Deno.test({
  name: "parseRobotsTxt() on crawler-commons' 24 robots.txt documents",
  ignore: !CORPUS_PRESENT,
  fn() {
    const files = corpusFiles().filter((f) => f.source === "crawler-commons-robots");
    deepStrictEqual(
      files.map((f) => f.file.split("/").pop()).sort(),
      Object.keys(EXPECTED).sort(),
    );
    for (const file of files) {
      const name = file.file.split("/").pop()!;
      const bytes = corpusBytes(file.file);
      const text = new TextDecoder(chooseEncoding(bytes).encoding).decode(bytes);
      const robots = parseRobotsTxt(text, corpusUrl(file));
      const expected = EXPECTED[name]!;
      deepStrictEqual(outcome(robots, expected), expected, name);
    }
  },
});
