/**
 * Google's robots.txt test suite, restated: every allow/disallow expectation
 * of `robots_test.cc` in google/robotstxt (commit c8ac4b1d93183ddcab30d09415356bf52550c6a5),
 * each test named after the Google test it comes from.
 *
 * Where RFC 9309 and Google's matcher disagree we follow the RFC, and the
 * expectation differs from Google's (marked "RFC 9309:" below):
 * - ID_Encoding: a URL with raw non-ASCII (`/foo/bar/ツ`) is percent-encoded
 *   before matching, so it matches `/foo/bar/%E3%83%84` (Google: it does
 *   not, the caller must encode); `%62%61%7A` is decoded to `baz` on both
 *   sides (RFC 9309 section 2.2.2's table; Google compares the escapes as
 *   written).
 * - ID_VerifyValidUserAgentsToObey: `isAllowed()` takes a user-agent
 *   string and matches its product token, so ` Foobot ` and `Foobot/2.1`
 *   obey Foobot's group (Google's helper calls them invalid to obey).
 *
 * Cases with no `isAllowed()` equivalent, and why:
 * - ID_UTF8ByteOrderMarkIsSkipped, its two partial-BOM documents (`EF BB`
 *   and `EF` before `User-Agent`): Google skips them byte by byte; we parse
 *   decoded text, where those bytes are already U+FFFD. The full BOM, the
 *   broken BOM and the BOM mid-file are restated.
 * - ID_LinesNumbersAreCountedCorrectly counts directives in a parse-event
 *   report, which we do not expose; it is restated through
 *   `matchingRule().line`, which counts lines the same way.
 * - TestGetPathParamsQuery and TestMaybeEscapePattern test internal helpers;
 *   they are restated through rules anchored with `$` and encoded patterns.
 *
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import { parseRobotsTxt } from "../../src/parse/robots_txt.ts";

type Case = readonly [agent: string, url: string, allowed: boolean];

/** Asserts every case at once, so that a failure shows the whole table. */
function check(robotstxt: string, cases: readonly Case[]): void {
  const robots = parseRobotsTxt(robotstxt);
  const actual = cases.map(([agent, url]) => [agent, url, robots.isAllowed(url, agent)]);
  deepStrictEqual(actual, cases.map((c) => [...c]));
}

Deno.test("GoogleOnly_SystemTest: empty robots.txt, user agent and URL", () => {
  const robotstxt = "user-agent: FooBot\ndisallow: /\n";
  // Empty robots.txt: everything allowed.
  check("", [["FooBot", "", true]]);
  // Empty user agent: no group matches, everything allowed.
  check(robotstxt, [["", "", true]]);
  // Empty URL: the path is "/", which "disallow: /" matches.
  check(robotstxt, [["FooBot", "", false]]);
  // All empty: allowed.
  check("", [["", "", true]]);
});

Deno.test("ID_LineSyntax_Line: name-value pairs, and Google's missing colon", () => {
  const url = "http://foo.bar/x/y";
  check("user-agent: FooBot\ndisallow: /\n", [["FooBot", url, false]]);
  check("foo: FooBot\nbar: /\n", [["FooBot", url, true]]);
  check("user-agent FooBot\ndisallow /\n", [["FooBot", url, false]]);
});

Deno.test("ID_LineSyntax_Groups: groups, shared user-agent lines, rules outside groups", () => {
  const robotstxt = "allow: /foo/bar/\n" +
    "\n" +
    "user-agent: FooBot\n" +
    "disallow: /\n" +
    "allow: /x/\n" +
    "user-agent: BarBot\n" +
    "disallow: /\n" +
    "allow: /y/\n" +
    "\n" +
    "\n" +
    "allow: /w/\n" +
    "user-agent: BazBot\n" +
    "\n" +
    "user-agent: FooBot\n" +
    "allow: /z/\n" +
    "disallow: /\n";
  const w = "http://foo.bar/w/a";
  const x = "http://foo.bar/x/b";
  const y = "http://foo.bar/y/c";
  const z = "http://foo.bar/z/d";
  const foo = "http://foo.bar/foo/bar/";
  check(robotstxt, [
    ["FooBot", x, true],
    ["FooBot", z, true],
    ["FooBot", y, false],
    ["BarBot", y, true],
    ["BarBot", w, true],
    ["BarBot", z, false],
    ["BazBot", z, true],
    // Lines with rules outside groups are ignored.
    ["FooBot", foo, false],
    ["BarBot", foo, false],
    ["BazBot", foo, false],
  ]);
});

Deno.test("ID_LineSyntax_Groups_OtherRules: Sitemap and unknown lines do not close a group", () => {
  const url = "http://foo.bar/";
  check("User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", [
    ["FooBot", url, false],
    ["BarBot", url, false],
  ]);
  check("User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", [
    ["FooBot", url, false],
    ["BarBot", url, false],
  ]);
});

Deno.test("ID_REPLineNamesCaseInsensitive: line names in any case", () => {
  const allowed = "http://foo.bar/x/y";
  const disallowed = "http://foo.bar/a/b";
  for (
    const robotstxt of [
      "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
      "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
      "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
    ]
  ) {
    check(robotstxt, [["FooBot", allowed, true], ["FooBot", disallowed, false]]);
  }
});

Deno.test("ID_VerifyValidUserAgentsToObey: which user agents obey a group", () => {
  // Google tests a helper that says whether a product token is valid. Restated: a valid
  // token obeys its group ("Disallow: /"), an invalid one matches no group (allowed).
  const robotstxt = "User-agent: Foobot\nDisallow: /\n\n" +
    "User-agent: Foobot-Bar\nDisallow: /\n\n" +
    "User-agent: Foo_Bar\nDisallow: /\n";
  const url = "http://foo.bar/x";
  check(robotstxt, [
    ["Foobot", url, false],
    ["Foobot-Bar", url, false],
    ["Foo_Bar", url, false],
    ["", url, true],
    ["ツ", url, true],
    ["Foobot*", url, true],
    // RFC 9309: the product token of a user-agent string, trimmed, is matched
    // (Google's helper rejects " Foobot " and "Foobot/2.1").
    [" Foobot ", url, false],
    ["Foobot/2.1", url, false],
    ["Foobot Bar", url, true],
  ]);
});

Deno.test("ID_UserAgentValueCaseInsensitive: user-agent values in any case", () => {
  const allowed = "http://foo.bar/x/y";
  const disallowed = "http://foo.bar/a/b";
  for (
    const robotstxt of [
      "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n",
      "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n",
      "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n",
    ]
  ) {
    check(robotstxt, [
      ["Foo", allowed, true],
      ["Foo", disallowed, false],
      ["foo", allowed, true],
      ["foo", disallowed, false],
    ]);
  }
});

Deno.test("GoogleOnly_AcceptUserAgentUpToFirstSpace: a user-agent value up to its first space", () => {
  const robotstxt = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n";
  const url = "http://foo.bar/x/y";
  check(robotstxt, [["Foo", url, true], ["Foo Bar", url, false]]);
});

Deno.test("ID_GlobalGroups_Secondary: the * group when no group names the agent", () => {
  const url = "http://foo.bar/x/y";
  check("", [["FooBot", url, true]]);
  check("user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", [
    ["FooBot", url, false],
    ["BarBot", url, true],
  ]);
  check(
    "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
    [["QuxBot", url, true]],
  );
});

Deno.test("ID_AllowDisallow_Value_CaseSensitive: paths match case-sensitively", () => {
  const url = "http://foo.bar/x/y";
  check("user-agent: FooBot\ndisallow: /x/\n", [["FooBot", url, false]]);
  check("user-agent: FooBot\ndisallow: /X/\n", [["FooBot", url, true]]);
});

Deno.test("ID_LongestMatch: the most specific rule wins, Allow on a tie", () => {
  const url = "http://foo.bar/x/page.html";
  check("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", [["FooBot", url, false]]);
  check("user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", [
    ["FooBot", url, true],
    ["FooBot", "http://foo.bar/x/", false],
  ]);
  // Equivalent disallow and allow patterns: allow is used.
  check("user-agent: FooBot\ndisallow: \nallow: \n", [["FooBot", url, true]]);
  check("user-agent: FooBot\ndisallow: /\nallow: /\n", [["FooBot", url, true]]);
  check("user-agent: FooBot\ndisallow: /x\nallow: /x/\n", [
    ["FooBot", "http://foo.bar/x", false],
    ["FooBot", "http://foo.bar/x/", true],
  ]);
  check("user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", [
    ["FooBot", url, true],
  ]);
  // Longest match wins.
  check("user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", [
    ["FooBot", "http://foo.bar/page.html", false],
    ["FooBot", "http://foo.bar/page", true],
  ]);
  check("user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", [
    ["FooBot", url, true],
    ["FooBot", "http://foo.bar/x/y.html", false],
  ]);
  // The most specific group for FooBot allows /x/page implicitly.
  check("User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", [
    ["FooBot", "http://foo.bar/x/page", true],
    ["FooBot", "http://foo.bar/y/page", false],
  ]);
});

Deno.test("ID_Encoding: percent-encoding, normalised on both sides (RFC 9309)", () => {
  check(
    "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
    [["FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true]],
  );
  // A 3-byte character in the rule: /foo/bar/ツ is /foo/bar/%E3%83%84.
  check("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", [
    ["FooBot", "http://foo.bar/foo/bar/%E3%83%84", true],
    // RFC 9309: the URL is encoded before comparison (Google: false).
    ["FooBot", "http://foo.bar/foo/bar/ツ", true],
  ]);
  check("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", [
    ["FooBot", "http://foo.bar/foo/bar/%E3%83%84", true],
    // RFC 9309: as above (Google: false).
    ["FooBot", "http://foo.bar/foo/bar/ツ", true],
  ]);
  // Percent-encoded unreserved ASCII: /foo/bar/%62%61%7A is /foo/bar/baz.
  check("User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", [
    // RFC 9309: unreserved escapes are decoded on both sides (Google: false).
    ["FooBot", "http://foo.bar/foo/bar/baz", true],
    ["FooBot", "http://foo.bar/foo/bar/%62%61%7A", true],
  ]);
});

Deno.test("ID_SpecialCharacters: *, $ and # in rules", () => {
  check("User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", [
    ["FooBot", "http://foo.bar/foo/bar/quz", false],
    ["FooBot", "http://foo.bar/foo/quz", true],
    ["FooBot", "http://foo.bar/foo//quz", true],
    ["FooBot", "http://foo.bar/foo/bax/quz", true],
  ]);
  check("User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", [
    ["FooBot", "http://foo.bar/foo/bar", false],
    ["FooBot", "http://foo.bar/foo/bar/qux", true],
    ["FooBot", "http://foo.bar/foo/bar/", true],
    ["FooBot", "http://foo.bar/foo/bar/baz", true],
  ]);
  check("User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", [
    ["FooBot", "http://foo.bar/foo/bar", true],
    ["FooBot", "http://foo.bar/foo/quz", false],
  ]);
});

Deno.test("GoogleOnly_IndexHTMLisDirectory: allowing index.html allows its directory", () => {
  check("User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", [
    ["foobot", "http://foo.com/allowed-slash/", true],
    ["foobot", "http://foo.com/allowed-slash/index.htm", false],
    ["foobot", "http://foo.com/allowed-slash/index.html", true],
    ["foobot", "http://foo.com/anyother-url", false],
  ]);
});

Deno.test("GoogleOnly_LineTooLong: lines are cut after 2083 * 8 bytes", () => {
  const eolLength = 1;
  const maxLineLength = 2083 * 8;
  const allow = "allow: ";
  const disallow = "disallow: ";
  {
    // The disallow pattern matches the URL after being cut off.
    let longline = "/x/";
    const maxLength = maxLineLength - longline.length - disallow.length + eolLength;
    longline = longline.padEnd(maxLength, "a");
    const robotstxt = "user-agent: FooBot\n" + disallow + longline + "/qux\n";
    check(robotstxt, [
      ["FooBot", "http://foo.bar/fux", true],
      ["FooBot", `http://foo.bar${longline}/fux`, false],
    ]);
  }
  {
    let longlineA = "/x/";
    let longlineB = "/x/";
    const maxLength = maxLineLength - longlineA.length - allow.length + eolLength;
    longlineA = longlineA.padEnd(maxLength, "a");
    longlineB = longlineB.padEnd(maxLength, "b");
    const robotstxt = "user-agent: FooBot\ndisallow: /\n" +
      allow + longlineA + "/qux\n" +
      allow + longlineB + "/qux\n";
    check(robotstxt, [
      ["FooBot", "http://foo.bar/", false],
      ["FooBot", `http://foo.bar${longlineA}/qux`, true],
      ["FooBot", `http://foo.bar${longlineB}/fux`, true],
    ]);
  }
});

Deno.test("GoogleOnly_DocumentationChecks: the examples of Google's robots.txt documentation", () => {
  // FooBot, "disallow: /", "allow: <rule>", and paths on http://foo.bar.
  const allowing = (rule: string, cases: readonly (readonly [string, boolean])[]): void =>
    check(
      `user-agent: FooBot\ndisallow: /\nallow: ${rule}\n`,
      cases.map(([path, allowed]) => ["FooBot", `http://foo.bar${path}`, allowed]),
    );
  // "/fish*" equals "/fish" (Google's two lists differ in one URL: /Fish.asp and /Fish.bar).
  for (const [rule, capitalised] of [["/fish", "/Fish.asp"], ["/fish*", "/Fish.bar"]] as const) {
    allowing(rule, [
      ["/bar", false],
      ["/fish", true],
      ["/fish.html", true],
      ["/fish/salmon.html", true],
      ["/fishheads", true],
      ["/fishheads/yummy.html", true],
      ["/fish.html?id=anything", true],
      [capitalised, false],
      ["/catfish", false],
      ["/?id=fish", false],
    ]);
  }
  // "/fish/" does not equal "/fish".
  allowing("/fish/", [
    ["/bar", false],
    ["/fish/", true],
    ["/fish/salmon", true],
    ["/fish/?salmon", true],
    ["/fish/salmon.html", true],
    ["/fish/?id=anything", true],
    ["/fish", false],
    ["/fish.html", false],
    ["/Fish/Salmon.html", false],
  ]);
  allowing("/*.php", [
    ["/bar", false],
    ["/filename.php", true],
    ["/folder/filename.php", true],
    ["/folder/filename.php?parameters", true],
    ["//folder/any.php.file.html", true],
    ["/filename.php/", true],
    ["/index?f=filename.php/", true],
    ["/php/", false],
    ["/index?php", false],
    ["/windows.PHP", false],
  ]);
  allowing("/*.php$", [
    ["/bar", false],
    ["/filename.php", true],
    ["/folder/filename.php", true],
    ["/filename.php?parameters", false],
    ["/filename.php/", false],
    ["/filename.php5", false],
    ["/php/", false],
    ["/filename?php", false],
    ["/aaaphpaaa", false],
    ["//windows.PHP", false],
  ]);
  allowing("/fish*.php", [
    ["/bar", false],
    ["/fish.php", true],
    ["/fishheads/catfish.php?parameters", true],
    ["/Fish.PHP", false],
  ]);
  // Section "Order of precedence for group-member records".
  check("user-agent: FooBot\nallow: /p\ndisallow: /\n", [
    ["FooBot", "http://example.com/page", true],
  ]);
  check("user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", [
    ["FooBot", "http://example.com/folder/page", true],
  ]);
  check("user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", [
    ["FooBot", "http://example.com/page.htm", false],
  ]);
  check("user-agent: FooBot\nallow: /$\ndisallow: /\n", [
    ["FooBot", "http://example.com/", true],
    ["FooBot", "http://example.com/page.html", false],
  ]);
});

Deno.test("ID_LinesNumbersAreCountedCorrectly: LF, CRLF, CR, mixed, no final newline", () => {
  const files = {
    unix: "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
    dos: "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
    mac: "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
    noFinalNewline: "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
    mixed: "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
  };
  for (const [name, text] of Object.entries(files)) {
    const robots = parseRobotsTxt(text);
    // Google counts 4 directives, the last on line 6.
    deepStrictEqual(
      [
        robots.matchingRule("http://foo.bar/some/path", "foo"),
        robots.matchingRule("http://foo.bar/x", "bar"),
      ],
      [
        { allow: true, pattern: "/some/path", line: 2 },
        { allow: false, pattern: "/", line: 6 },
      ],
      name,
    );
  }
});

Deno.test("ID_UTF8ByteOrderMarkIsSkipped: a leading BOM is skipped, a broken or misplaced one spoils its line", () => {
  const url = "http://foo.bar/AnyValue";
  // The full BOM: both directives read.
  deepStrictEqual(
    parseRobotsTxt("\ufeffUser-Agent: foo\nAllow: /AnyValue\n").matchingRule(url, "foo"),
    { allow: true, pattern: "/AnyValue", line: 2 },
  );
  // A broken BOM (EF 11 BF, decoded): the first line is garbage, so the Allow is outside any group.
  deepStrictEqual(
    parseRobotsTxt("\ufffd\u0011\ufffdUser-Agent: foo\nAllow: /AnyValue\n").matchingRule(
      url,
      "foo",
    ),
    null,
  );
  // A BOM in the middle of the file: that line is garbage.
  deepStrictEqual(
    parseRobotsTxt("User-Agent: foo\n\ufeffAllow: /AnyValue\n").matchingRule(url, "foo"),
    null,
  );
});

Deno.test("ID_NonStandardLineExample_Sitemap: Sitemap lines anywhere in the file", () => {
  const sitemap = "http://foo.bar/sitemap.xml";
  const group = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n";
  deepStrictEqual(parseRobotsTxt(`${group}Sitemap: ${sitemap}\n`).sitemaps, [sitemap]);
  deepStrictEqual(parseRobotsTxt(`Sitemap: ${sitemap}\n${group}`).sitemaps, [sitemap]);
});

Deno.test("TestGetPathParamsQuery: the path a URL is matched by", () => {
  // Google tests its path helper; restated: "Disallow: <path>$" blocks the URL, so the URL's
  // path (and query, without fragment) is exactly <path>.
  const cases: readonly [url: string, path: string][] = [
    ["", "/"],
    ["http://www.example.com", "/"],
    ["http://www.example.com/", "/"],
    ["http://www.example.com/a", "/a"],
    ["http://www.example.com/a/", "/a/"],
    ["http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"],
    ["http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["example.com", "/"],
    ["example.com/", "/"],
    ["example.com/a", "/a"],
    ["example.com/a/", "/a/"],
    ["example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["a", "/"],
    ["a/", "/"],
    ["/a", "/a"],
    ["a/b", "/b"],
    ["example.com?a", "/?a"],
    ["example.com/a;b#c", "/a;b"],
    ["//a/b/c", "/b/c"],
  ];
  const actual = cases.map(([url, path]) => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${path}$\n`);
    return [url, robots.isAllowed(url)];
  });
  deepStrictEqual(actual, cases.map(([url]) => [url, false]));
});

Deno.test("TestMaybeEscapePattern: patterns are percent-encoded and escapes upper-cased", () => {
  // Google tests its pattern escaper; restated through the URLs each escaped pattern blocks.
  check("User-agent: *\nDisallow: /http://www.example.com\n", [
    ["*", "http://x.test/http://www.example.com", false],
  ]);
  check("User-agent: *\nDisallow: /a/b/c\n", [["*", "http://x.test/a/b/c", false]]);
  check("User-agent: *\nDisallow: /á\n", [
    ["*", "http://x.test/%C3%A1", false],
    ["*", "http://x.test/%c3%a1", false],
  ]);
  check("User-agent: *\nDisallow: /%aa\n", [
    ["*", "http://x.test/%AA", false],
    ["*", "http://x.test/%aa", false],
    ["*", "http://x.test/%AB", true],
  ]);
});
