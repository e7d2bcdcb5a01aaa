import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { extras, fixture, pagesOf, parse, rows } from "./_unpack.ts";

function story(title: string, publishDate: number | null): unknown {
  return {
    newsStory: {
      title,
      publishDate,
      publicationName: null,
      publicationLanguage: null,
      access: null,
      genres: [],
      keywords: [],
      stockTickers: [],
    },
  };
}

Deno.test("RSS 2.0 fixture: link or permalink guid, title and pubDate as a news story", () => {
  const result = pagesOf(parse(fixture("feeds/rss.xml")));
  equal(result.format, "rss");
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.lastModified, r.priority]), [
    ["https://www.example.com/blog/foo", "2003-06-10T04:00:00.000Z", 0.5],
    ["https://www.example.com/blog/bar", "2024-06-01T08:15:00.000Z", 0.5],
    ["https://www.example.com/blog/baz", "2024-05-29T23:00:00.000Z", 0.5],
  ]);
  deepStrictEqual(
    extras(result.pages),
    new Map([
      [0, story("Foo <foo>", Date.UTC(2003, 5, 10, 4))],
      [1, story("Bar & bar", Date.UTC(2024, 5, 1, 8, 15))],
      [2, story("Bąž", Date.UTC(2024, 4, 29, 23))],
    ]),
  );
});

Deno.test("RSS 1.0 (RDF) fixture: items beside the channel, dc:date", () => {
  const result = pagesOf(parse(fixture("feeds/rdf.xml")));
  equal(result.format, "rss");
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.lastModified]), [
    ["https://www.example.com/blog/foo", "2003-06-10T04:00:00.000Z"],
    ["https://www.example.com/blog/bar", "2024-06-01T08:15:00.000Z"],
  ]);
  deepStrictEqual(extras(result.pages).get(1), story("Bar & bar", Date.UTC(2024, 5, 1, 8, 15)));
});

Deno.test("Atom 1.0 fixture: alternate link, updated as lastmod, published as publish date", () => {
  const result = pagesOf(parse(fixture("feeds/atom.xml")));
  equal(result.format, "atom");
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.lastModified]), [
    ["https://www.example.com/blog/foo", "2003-06-11T09:30:00.000Z"],
    ["https://www.example.com/blog/bar", "2024-06-01T08:15:00.000Z"],
    ["https://www.example.com/blog/baz", "2024-05-29T23:00:00.000Z"],
  ]);
  deepStrictEqual(
    extras(result.pages),
    new Map([
      [0, story("Foo <foo>", Date.UTC(2003, 5, 10, 4))],
      [1, story("Bar & bar", Date.UTC(2024, 5, 1, 8, 15))],
      [2, story("Bąž", Date.UTC(2024, 4, 29, 23))],
    ]),
  );
});

Deno.test("Atom 0.3 fixture: modified and issued", () => {
  const result = pagesOf(parse(fixture("feeds/atom03.xml")));
  equal(result.format, "atom");
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.lastModified]), [
    ["https://www.example.com/blog/foo", "2003-06-11T09:30:00.000Z"],
    ["https://www.example.com/blog/bar", "2024-06-01T08:15:00.000Z"],
  ]);
  deepStrictEqual(extras(result.pages).get(0), story("Foo <foo>", Date.UTC(2003, 5, 10, 4)));
});

Deno.test("RSS: relative links resolve; items without a usable link are skipped", () => {
  const doc = `<rss><channel>
    <item><title>Rel</title><link>/posts/1</link></item>
    <item><title>Guid only</title><guid>https://www.example.com/posts/2</guid></item>
    <item><title>Not permalink</title><guid isPermaLink="false">https://www.example.com/x</guid></item>
    <item><title>Atom link</title><atom:link xmlns:atom="http://www.w3.org/2005/Atom" href="https://www.example.com/posts/3"/></item>
    <item><title>None</title></item>
    <item><link>https://www.example.com/posts/1</link><title>Duplicate</title></item>
  </channel></rss>`;
  const result = pagesOf(parse(doc, { url: "https://www.example.com/feed" }));
  deepStrictEqual(rows(result.pages).map((r) => r.url), [
    "https://www.example.com/posts/1",
    "https://www.example.com/posts/2",
    "https://www.example.com/posts/3",
  ]);
  deepStrictEqual(extras(result.pages).get(0), story("Rel", null));
});

Deno.test("RSS: item text nested in the channel's own title is not mixed up", () => {
  const doc = `<rss><channel><title>Channel</title><link>https://www.example.com/</link>
    <item><title>  Spaced
      title </title><link>https://www.example.com/p</link><description>&lt;b&gt;x&lt;/b&gt;</description></item>
  </channel></rss>`;
  deepStrictEqual(extras(pagesOf(parse(doc)).pages).get(0), story("Spaced\n      title", null));
});

Deno.test("Atom: entry without alternate link skipped; xhtml title text collected", () => {
  const doc = `<feed xmlns="http://www.w3.org/2005/Atom">
    <entry><title>Edit only</title><link rel="edit" href="https://www.example.com/e"/></entry>
    <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div></title>
      <link href="https://www.example.com/a"/><published>2024-01-02</published></entry>
  </feed>`;
  const result = pagesOf(parse(doc));
  deepStrictEqual(rows(result.pages).map((r) => [r.url, r.lastModified]), [
    ["https://www.example.com/a", "2024-01-02T00:00:00.000Z"],
  ]);
  deepStrictEqual(extras(result.pages).get(0), story("A bold move", Date.UTC(2024, 0, 2)));
});

Deno.test("feeds: since filters items by their date", () => {
  const result = pagesOf(parse(fixture("feeds/rss.xml"), { since: Date.UTC(2024, 0, 1) }));
  deepStrictEqual(rows(result.pages).map((r) => r.url), [
    "https://www.example.com/blog/bar",
    "https://www.example.com/blog/baz",
  ]);
  equal(result.found, 3);
  deepStrictEqual([...extras(result.pages).keys()], [0, 1]);
});

Deno.test("RSS: a guid is a page only as an absolute http(s) URL not marked isPermaLink=false", () => {
  const doc = `<rss><channel>
    <item><title>Id</title><guid>abc123</guid></item>
    <item><title>Path</title><guid>/posts/9</guid></item>
    <item><title>Other scheme</title><guid>tag:example.com,2024:9</guid></item>
    <item><title>False</title><guid isPermaLink=" FALSE ">https://www.example.com/f</guid></item>
    <item><title>Absolute</title><guid> https://www.example.com/g </guid></item>
  </channel></rss>`;
  const result = pagesOf(parse(doc, { url: "https://www.example.com/feed" }));
  deepStrictEqual(rows(result.pages).map((r) => r.url), ["https://www.example.com/g"]);
  deepStrictEqual(extras(result.pages).get(0), story("Absolute", null));
});

Deno.test("RSS: a link holding escaped <a href> markup never becomes a URL; a later link is used", () => {
  const doc = `<rss><channel>
    <item><title>Markup</title>
      <link>&lt;a href="/articles/1"&gt;One&lt;/a&gt;</link>
      <guid>&lt;a href="/articles/1"&gt;One&lt;/a&gt;</guid></item>
    <item><title>CDATA markup</title><link><![CDATA[ <a href="/articles/2">Two</a>]]></link>
      <link>https://www.example.com/articles/2</link></item>
  </channel></rss>`;
  const result = pagesOf(parse(doc, { url: "https://www.example.com/feed" }));
  equal(result.found, 1);
  deepStrictEqual(rows(result.pages).map((r) => r.url), ["https://www.example.com/articles/2"]);
});

Deno.test("RSS and Atom: relative links resolve against xml:base, nested bases against the outer one", () => {
  const rss = `<rss version="2.0" xml:base="http://example.org/feeds/"><channel>
    <image><url>logo.png</url></image>
    <item><link>post/1</link></item>
    <item xml:base="sub/"><link>post/2</link></item>
    <item><link>post/3</link></item>
    <item xml:base="http://[bad/"><link>post/4</link></item>
  </channel></rss>`;
  deepStrictEqual(
    rows(pagesOf(parse(rss, { url: "https://www.example.com/feed" })).pages).map((r) => r.url),
    [
      "http://example.org/feeds/post/1",
      "http://example.org/feeds/sub/post/2",
      "http://example.org/feeds/post/3",
      "http://example.org/feeds/post/4",
    ],
  );
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example.net/2024/">
    <entry xml:base="../archive/"><link href="a.html"/></entry>
    <entry><link xml:base="/other/" href="b.html"/></entry>
    <entry><link href="c.html"/></entry>
  </feed>`;
  deepStrictEqual(
    rows(pagesOf(parse(atom, { url: "https://www.example.com/atom" })).pages).map((r) => r.url),
    [
      "https://blog.example.net/archive/a.html",
      "https://blog.example.net/other/b.html",
      "https://blog.example.net/2024/c.html",
    ],
  );
  // Without xml:base, the feed's own URL is the base.
  const plain = `<rss><channel><item><link>post/5</link></item></channel></rss>`;
  deepStrictEqual(
    rows(pagesOf(parse(plain, { url: "https://www.example.com/feeds/rss" })).pages).map((r) =>
      r.url
    ),
    [
      "https://www.example.com/feeds/post/5",
    ],
  );
});

Deno.test("RSS 0.91 with the Netscape DOCTYPE is read; an entity its DTD would define stays text", () => {
  const doc = `<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
 "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91"><channel><title>News</title>
  <item><title>Caf&eacute; &amp; bar</title><link>https://www.example.com/cafe</link></item>
</channel></rss>`;
  const result = pagesOf(parse(doc));
  equal(result.format, "rss");
  deepStrictEqual(rows(result.pages).map((r) => r.url), ["https://www.example.com/cafe"]);
  deepStrictEqual(extras(result.pages).get(0), story("Caf&eacute; & bar", null));
});
