import { assertEquals } from "../_assert.ts";
import { decodeHtml, findFeedLinks } from "../../src/parse/html_feeds.ts";

Deno.test("findFeedLinks() reads RSS and Atom <link rel=alternate> in any attribute order, quoting and case", () => {
  const html = `<!doctype html><html><head>
    <link rel="stylesheet" href="/style.css" type="text/css">
    <link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml">
    <LINK HREF='atom.xml' TYPE='Application/Atom+XML' REL='Alternate'>
    <link type=application/rss+xml rel="home alternate" href=/comments/feed/>
    <link rel="alternate" type="application/rss+xml; charset=utf-8" href="https://cdn.example.net/f?a=1&amp;b=2">
    <link rel="alternate" type="application/json" href="/feed.json">
    <link rel="alternate" hreflang="de" href="/de/">
    <link rel="alternate" type="application/atom+xml">
    <link rel="alternate" type="application/rss+xml" href="/feed.xml#dup">
    <link rel="alternate" type="application/rss+xml" href="mailto:feed@example.com">
  </head><body></body></html>`;
  assertEquals(findFeedLinks(html, "https://example.com/blog/"), [
    "https://example.com/feed.xml",
    "https://example.com/blog/atom.xml",
    "https://example.com/comments/feed/",
    "https://cdn.example.net/f?a=1&b=2",
  ]);
});

Deno.test("findFeedLinks() resolves against <base href> wherever it is, and skips comments, scripts and styles", () => {
  const html = `<head>
    <link rel=alternate type=application/rss+xml href=one.rss>
    <!-- <link rel="alternate" type="application/rss+xml" href="/commented.rss"> -->
    <script>document.write('<link rel="alternate" type="application/rss+xml" href="/scripted.rss">')</script>
    <STYLE>/* <link rel="alternate" type="application/rss+xml" href="/styled.rss"> */</style>
    <base href="https://static.example.org/news/">
    <base href="https://ignored.example.org/">
    <link rel=alternate type=application/atom+xml href="../two.atom"/>
  </head>`;
  assertEquals(findFeedLinks(html, "https://example.com/"), [
    "https://static.example.org/news/one.rss",
    "https://static.example.org/two.atom",
  ]);
});

Deno.test("findFeedLinks() stops at its limit and survives malformed markup", () => {
  const many = Array.from(
    { length: 30 },
    (_, i) => `<link rel="alternate" type="application/rss+xml" href="/f${i}">`,
  ).join("");
  assertEquals(findFeedLinks(many, "https://example.com/").length, 20);
  assertEquals(findFeedLinks(many, "https://example.com/", 2), [
    "https://example.com/f0",
    "https://example.com/f1",
  ]);
  for (
    const broken of [
      "<link rel=alternate type=application/rss+xml href=",
      '<link rel="alternate',
      "<script>never closed <link rel=alternate type=application/rss+xml href=/x>",
      "<!-- never closed",
      "<<<>>><link/><",
      "",
    ]
  ) {
    assertEquals(findFeedLinks(broken, "https://example.com/"), [], broken);
  }
  assertEquals(
    findFeedLinks(
      '<link rel="alternate" type="application/rss+xml" href="/a&#x2F;b&#47;c&unknown;">',
      "https://example.com/",
    ),
    ["https://example.com/a/b/c&unknown;"],
  );
});

Deno.test("decodeHtml() reads the charset the Content-Type names, and UTF-8 without one or for one it does not know", () => {
  const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
  const utf8 = new TextEncoder().encode("café");
  assertEquals(decodeHtml(latin1, 'text/html; charset="ISO-8859-1"'), "café");
  assertEquals(decodeHtml(utf8, "text/html"), "café");
  assertEquals(decodeHtml(utf8, null), "café");
  assertEquals(decodeHtml(utf8, "text/html; charset=klingon"), "café");
});
