import { deepStrictEqual, ok, strictEqual as equal, throws } from "node:assert/strict";
import {
  decodeEntities,
  XML_NAMESPACE,
  type XmlAttribute,
  XmlTokenizer,
  type XmlTokenizerOptions,
} from "../../src/parse/_tokenizer.ts";

/** One event as plain data: `["start", ns, local, attrs]`, `["end", ns, local]` or `["text", text]`. */
type Event =
  | ["start", string, string, [string, string, string][]]
  | ["end", string, string]
  | ["text", string];

interface Outcome {
  events: Event[];
  error: string | null;
}

function tokenize(chunks: string | readonly string[], options: XmlTokenizerOptions = {}): Outcome {
  const events: Event[] = [];
  const tokenizer = new XmlTokenizer({
    onStart(ns: string, local: string, attrs: readonly XmlAttribute[]) {
      events.push(["start", ns, local, attrs.map((a) => [a.ns, a.local, a.value])]);
    },
    onEnd(ns: string, local: string) {
      events.push(["end", ns, local]);
    },
    onText(text: string) {
      events.push(["text", text]);
    },
  }, options);
  for (const chunk of typeof chunks === "string" ? [chunks] : chunks) tokenizer.write(chunk);
  tokenizer.end();
  return { events, error: tokenizer.error };
}

/** The text events of a document `<r>` + body + `</r>`. */
function textsOf(body: string): string[] {
  const { events, error } = tokenize(`<r>${body}</r>`);
  equal(error, null);
  return events.filter((e) => e[0] === "text").map((e) => e[1] as string);
}

function attrsOf(tag: string): [string, string, string][] {
  const { events } = tokenize(tag);
  const start = events[0];
  ok(start !== undefined && start[0] === "start");
  return start[3];
}

Deno.test("XmlTokenizer decodes the predefined entities exactly once", () => {
  deepStrictEqual(textsOf("a=1&amp;copy=2"), ["a=1&copy=2"]);
  deepStrictEqual(textsOf("&amp;amp;"), ["&amp;"]);
  deepStrictEqual(textsOf("&lt;&gt;&amp;&quot;&apos;"), [`<>&"'`]);
  deepStrictEqual(textsOf("&amp;lt;b&amp;gt;"), ["&lt;b&gt;"]);
});

Deno.test("XmlTokenizer keeps unknown and malformed entity references as written", () => {
  deepStrictEqual(textsOf("&copy; &nbsp;"), ["&copy; &nbsp;"]);
  deepStrictEqual(textsOf("a & b &amp c &#; &#x; &#12a; &#X41; &"), [
    "a & b &amp c &#; &#x; &#12a; &#X41; &",
  ]);
  deepStrictEqual(textsOf("&&amp;&"), ["&&&"]);
});

Deno.test("XmlTokenizer decodes decimal and hexadecimal character references", () => {
  deepStrictEqual(textsOf("&#65;&#x42;&#x00043;&#0068;&#xe9;&#xE9;&#x1F600;&#128512;"), [
    "ABCDéé😀😀",
  ]);
});

Deno.test("XmlTokenizer turns references to invalid code points into U+FFFD", () => {
  deepStrictEqual(textsOf("[&#0;][&#xD800;][&#xdfff;][&#x110000;][&#99999999999999999999;]"), [
    "[\uFFFD][\uFFFD][\uFFFD][\uFFFD][\uFFFD]",
  ]);
});

Deno.test("decodeEntities() decodes from the first ampersand it is given", () => {
  equal(decodeEntities("x &lt; y", 2), "x < y");
  equal(decodeEntities("&unknown;", 0), "&unknown;");
});

Deno.test("XmlTokenizer reports a text run between two pieces of markup in one call", () => {
  deepStrictEqual(textsOf("Foo &lt;foo&gt;"), ["Foo <foo>"]);
  deepStrictEqual(
    tokenize(["<r>Foo &l", "t;fo", "o&g", "t;</r>"]).events,
    tokenize("<r>Foo &lt;foo&gt;</r>").events,
  );
});

Deno.test("XmlTokenizer drops whitespace-only text outside CDATA and text outside the root", () => {
  deepStrictEqual(
    tokenize(" \n<r>\n\t<a> x </a>\r\n <b>&#32;</b><c><![CDATA[ ]]></c></r>\n tail").events,
    [
      ["start", "", "r", []],
      ["start", "", "a", []],
      ["text", " x "],
      ["end", "", "a"],
      ["start", "", "b", []],
      ["end", "", "b"],
      ["start", "", "c", []],
      ["text", " "],
      ["end", "", "c"],
      ["end", "", "r"],
    ],
  );
});

Deno.test("XmlTokenizer reports CDATA in its own call without decoding it", () => {
  deepStrictEqual(textsOf("a<![CDATA[&amp; <b> ]] ]> ]]]>b<![CDATA[]]>c"), [
    "a",
    "&amp; <b> ]] ]> ]",
    "b",
    "c",
  ]);
});

Deno.test("XmlTokenizer skips comments and processing instructions", () => {
  const { events, error } = tokenize(
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a <r> -- comment -->' +
      '<?xml-stylesheet href="a.xsl"?><r>x<!-- </r> -->y<?pi ?>z<!---->w</r>',
  );
  equal(error, null);
  deepStrictEqual(events, [
    ["start", "", "r", []],
    ["text", "x"],
    ["text", "y"],
    ["text", "z"],
    ["text", "w"],
    ["end", "", "r"],
  ]);
});

Deno.test("XmlTokenizer normalises line ends in text and whitespace in attribute values", () => {
  deepStrictEqual(textsOf("a\r\nb\rc\nd<![CDATA[e\r\nf]]>"), ["a\nb\nc\nd", "e\nf"]);
  deepStrictEqual(attrsOf('<r a="x\r\ny\tz&#10;&#9;w"/>'), [["", "a", "x y z\n\tw"]]);
});

Deno.test("XmlTokenizer reads attributes in single and double quotes with entities", () => {
  deepStrictEqual(attrsOf(`<r a="1 &amp; 2" b='it&apos;s "x"' c = "d>e" d='&lt;&#x41;'>`), [
    ["", "a", "1 & 2"],
    ["", "b", `it's "x"`],
    ["", "c", "d>e"],
    ["", "d", "<A"],
  ]);
});

Deno.test("XmlTokenizer tolerates attributes without a value or quotes", () => {
  deepStrictEqual(attrsOf("<r a b=c d=e/>"), [["", "b", "c"], ["", "d", "e"]]);
  deepStrictEqual(attrsOf('<r ="x" b="y">'), [["", "b", "y"]]);
});

Deno.test("XmlTokenizer reports self-closing elements as a start and an end", () => {
  deepStrictEqual(tokenize('<r><a/><b x="1"/><c /></r>').events, [
    ["start", "", "r", []],
    ["start", "", "a", []],
    ["end", "", "a"],
    ["start", "", "b", [["", "x", "1"]]],
    ["end", "", "b"],
    ["start", "", "c", []],
    ["end", "", "c"],
    ["end", "", "r"],
  ]);
});

Deno.test("XmlTokenizer counts repeated self-closing elements against maxDepth", () => {
  deepStrictEqual(tokenize("<a><b/><b/><b><b/></b></a>", { maxDepth: 2 }), {
    events: [
      ["start", "", "a", []],
      ["start", "", "b", []],
      ["end", "", "b"],
      ["start", "", "b", []],
      ["end", "", "b"],
      ["start", "", "b", []],
    ],
    error: "XML elements nest deeper than 2 levels (maxDepth)",
  });
});

Deno.test("XmlTokenizer resolves the default namespace and prefixes with scoping", () => {
  const { events, error } = tokenize(
    '<urlset xmlns="urn:sm" xmlns:i="urn:img">' +
      '<url><i:image i:kind="a" plain="b" xml:lang="en"/></url>' +
      '<x xmlns="urn:other" xmlns:i="urn:img2"><i:image/><y/></x>' +
      '<i:image/><z xmlns=""><w/></z><q/>' +
      "</urlset>",
  );
  equal(error, null);
  deepStrictEqual(events, [
    ["start", "urn:sm", "urlset", []],
    ["start", "urn:sm", "url", []],
    ["start", "urn:img", "image", [["urn:img", "kind", "a"], ["", "plain", "b"], [
      XML_NAMESPACE,
      "lang",
      "en",
    ]]],
    ["end", "urn:img", "image"],
    ["end", "urn:sm", "url"],
    ["start", "urn:other", "x", []],
    ["start", "urn:img2", "image", []],
    ["end", "urn:img2", "image"],
    ["start", "urn:other", "y", []],
    ["end", "urn:other", "y"],
    ["end", "urn:other", "x"],
    ["start", "urn:img", "image", []],
    ["end", "urn:img", "image"],
    ["start", "", "z", []],
    ["start", "", "w", []],
    ["end", "", "w"],
    ["end", "", "z"],
    ["start", "urn:sm", "q", []],
    ["end", "urn:sm", "q"],
    ["end", "urn:sm", "urlset"],
  ]);
});

Deno.test("XmlTokenizer gives an unbound prefix the empty namespace", () => {
  deepStrictEqual(tokenize('<r xmlns="urn:d"><p:a p:b="1"/></r>').events, [
    ["start", "urn:d", "r", []],
    ["start", "", "a", [["", "b", "1"]]],
    ["end", "", "a"],
    ["end", "urn:d", "r"],
  ]);
});

Deno.test("XmlTokenizer applies a declaration to the declaring element and its attributes", () => {
  deepStrictEqual(tokenize('<p:r p:a="1" xmlns:p="urn:p"/>').events, [
    ["start", "urn:p", "r", [["urn:p", "a", "1"]]],
    ["end", "urn:p", "r"],
  ]);
});

Deno.test("XmlTokenizer refuses a DOCTYPE's internal subset at once", () => {
  const laughs = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n' +
    Array.from(
      { length: 9 },
      (_, k) => ` <!ENTITY lol${k + 1} "${`&lol${k === 0 ? "" : k};`.repeat(10)}">\n`,
    ).join("") + "]>\n<lolz>&lol9;</lolz>";
  deepStrictEqual(tokenize(laughs), {
    events: [],
    error: "XML DOCTYPE internal subsets are not allowed (entity expansion is refused)",
  });
  // The subset is refused even when a chunk ends right before it.
  deepStrictEqual(tokenize(['<!DOCTYPE r SYSTEM "r.dtd" ', '[<!ENTITY x "y">]><r>&x;</r>']), {
    events: [],
    error: "XML DOCTYPE internal subsets are not allowed (entity expansion is refused)",
  });
  deepStrictEqual(tokenize('<r>a</r><!ENTITY x "y">'), {
    events: [["start", "", "r", []], ["text", "a"], ["end", "", "r"]],
    error: null,
  });
  deepStrictEqual(tokenize('<r>a<!ENTITY x "y"></r>'), {
    events: [["start", "", "r", []], ["text", "a"]],
    error: "XML ENTITY declarations are not allowed (entity expansion is refused)",
  });
});

Deno.test("XmlTokenizer refuses a DOCTYPE's internal subset cut off by the end of input, however it is chunked", () => {
  const refused = {
    events: [],
    error: "XML DOCTYPE internal subsets are not allowed (entity expansion is refused)",
  };
  // Found by bench/fuzz_tokenizer.ts (seed 425158621): the "[" in a later chunk than "<!DOCTYPE"
  // went unseen until a ">", so a cut-off subset was refused whole but not in chunks.
  deepStrictEqual(tokenize("<!DOCTYPE["), refused);
  deepStrictEqual(tokenize(["<!DOCTYPE", "["]), refused);
  const cutOff = '<!DOCTYPE lolz SYSTEM "a[b" [\n <!ENTITY lol "lol';
  for (let k = 0; k <= cutOff.length; k++) {
    deepStrictEqual(tokenize([cutOff.slice(0, k), cutOff.slice(k)]), refused, `split at ${k}`);
  }
  // Up to its "[" a DOCTYPE is one token: too long is too long whatever the chunks.
  const tooLong = { events: [], error: "XML token longer than 12 characters (maxTokenLength)" };
  const long = "<!DOCTYPE rrrrr[";
  deepStrictEqual(tokenize(long, { maxTokenLength: 12 }), tooLong);
  deepStrictEqual(tokenize(["<!DOCTYPE rr", "rrr", "["], { maxTokenLength: 12 }), tooLong);
  deepStrictEqual(tokenize(["<!DOCTYPE rr", "rrr["], { maxTokenLength: 12 }), tooLong);
});

Deno.test("XmlTokenizer skips other declarations up to their end", () => {
  deepStrictEqual(tokenize("<r><!ELEMENT r ANY><![IGNORE[x]]>a<!x></r>").events, [
    ["start", "", "r", []],
    ["text", "a"],
    ["end", "", "r"],
  ]);
});

Deno.test("XmlTokenizer stops a million-deep nesting with an error", () => {
  const { events, error } = tokenize("<a>".repeat(1_000_000));
  equal(error, "XML elements nest deeper than 256 levels (maxDepth)");
  equal(events.length, 256);
  deepStrictEqual(tokenize("<a><b><c/></b></a>", { maxDepth: 2 }), {
    events: [["start", "", "a", []], ["start", "", "b", []]],
    error: "XML elements nest deeper than 2 levels (maxDepth)",
  });
});

Deno.test("XmlTokenizer stops a text run longer than maxTokenLength", () => {
  const big = "x".repeat(10 * 1024 * 1024);
  deepStrictEqual(tokenize(`<r>${big}</r>`), {
    events: [["start", "", "r", []]],
    error: "XML token longer than 4194304 characters (maxTokenLength)",
  });
  deepStrictEqual(tokenize(["<r>", "abcdef", "</r>"], { maxTokenLength: 6 }), {
    events: [["start", "", "r", []], ["text", "abcdef"], ["end", "", "r"]],
    error: null,
  });
  deepStrictEqual(tokenize(["<r>", "abc", "defg", "</r>"], { maxTokenLength: 6 }), {
    events: [["start", "", "r", []]],
    error: "XML token longer than 6 characters (maxTokenLength)",
  });
});

Deno.test("XmlTokenizer never holds much more than maxTokenLength of an unfinished token", () => {
  const chunk = "<r ".padEnd(64 * 1024, "a");
  const rest = "a".repeat(64 * 1024);
  const tokenizer = new XmlTokenizer({ onStart() {}, onEnd() {}, onText() {} });
  let writes = 0;
  let most = 0;
  tokenizer.write(chunk);
  while (tokenizer.error === null && writes < 1000) {
    tokenizer.write(rest);
    writes++;
    most = Math.max(most, tokenizer.pendingLength);
  }
  equal(tokenizer.error, "XML token longer than 4194304 characters (maxTokenLength)");
  equal(writes, 64);
  ok(most <= 4 * 1024 * 1024);
  equal(tokenizer.pendingLength, 0);
});

Deno.test("XmlTokenizer stops a comment, CDATA or tag longer than maxTokenLength", () => {
  const error = "XML token longer than 8 characters (maxTokenLength)";
  for (const doc of ["<r><!-- abc --></r>", "<r><![CDATA[ab]]></r>", '<r><a b="c"/></r>']) {
    deepStrictEqual(tokenize(doc, { maxTokenLength: 8 }), {
      events: [["start", "", "r", []]],
      error,
    }, doc);
  }
});

Deno.test("XmlTokenizer refuses a DOCTYPE or ENTITY under a tiny maxTokenLength, however it is chunked", () => {
  // A chunk ending inside "<!DOCTYPE" once counted the keyword's first chars against the limit.
  const inside = {
    events: [["start", "", "r", []]],
    error: "XML DOCTYPE declaration inside the document is not allowed",
  };
  deepStrictEqual(tokenize("<r><!doctype", { maxTokenLength: 5 }), inside);
  deepStrictEqual(tokenize(["<r><!doct", "ype"], { maxTokenLength: 5 }), inside);
  const entity = {
    events: [],
    error: "XML ENTITY declarations are not allowed (entity expansion is refused)",
  };
  deepStrictEqual(tokenize("<!ENTITY", { maxTokenLength: 3 }), entity);
  deepStrictEqual(tokenize(["<!EN", "TITY"], { maxTokenLength: 3 }), entity);
  // Other tokens are still held to the limit once they are known.
  deepStrictEqual(tokenize(["<r><!-", "-x"], { maxTokenLength: 4 }), {
    events: [["start", "", "r", []]],
    error: "XML token longer than 4 characters (maxTokenLength)",
  });
});

Deno.test("XmlTokenizer closes up to the matching open element on a mismatched end tag", () => {
  deepStrictEqual(tokenize("<r><url><loc>a</url><url><loc>b</nope></loc ></url></r>").events, [
    ["start", "", "r", []],
    ["start", "", "url", []],
    ["start", "", "loc", []],
    ["text", "a"],
    ["end", "", "loc"],
    ["end", "", "url"],
    ["start", "", "url", []],
    ["start", "", "loc", []],
    ["text", "b"],
    ["end", "", "loc"],
    ["end", "", "url"],
    ["end", "", "r"],
  ]);
});

Deno.test("XmlTokenizer says whether the root element closed", () => {
  const handler = { onStart() {}, onEnd() {}, onText() {} };
  const whole = new XmlTokenizer(handler);
  whole.write("<r><a/></r>");
  whole.end();
  equal(whole.rootClosed, true);
  const cut = new XmlTokenizer(handler);
  cut.write("<r><a/></");
  cut.end();
  equal(cut.rootClosed, false);
});

Deno.test("XmlTokenizer keeps recovering correctly after stray end tags", () => {
  deepStrictEqual(tokenize("<r><x></nope><y></y><y></y><z></x></nope><w/><w></w></r>").events, [
    ["start", "", "r", []],
    ["start", "", "x", []],
    ["start", "", "y", []],
    ["end", "", "y"],
    ["start", "", "y", []],
    ["end", "", "y"],
    ["start", "", "z", []],
    ["end", "", "z"],
    ["end", "", "x"],
    ["start", "", "w", []],
    ["end", "", "w"],
    ["start", "", "w", []],
    ["end", "", "w"],
    ["end", "", "r"],
  ]);
  const deep = "<a>".repeat(256) + "</b>".repeat(100_000) + "</a>".repeat(256);
  const { events, error } = tokenize(deep);
  equal(error, null);
  equal(events.length, 512);
});

Deno.test("XmlTokenizer ignores trailing garbage after the root element", () => {
  deepStrictEqual(tokenize("<r>a</r>junk<r>b</r><!DOCTYPE x><a"), {
    events: [["start", "", "r", []], ["text", "a"], ["end", "", "r"]],
    error: null,
  });
  deepStrictEqual(tokenize("<r/><s/>").events, [["start", "", "r", []], ["end", "", "r"]]);
});

Deno.test("XmlTokenizer skips a tag without a name", () => {
  deepStrictEqual(textsOf("a < b >c<>d"), ["a ", "c", "d"]);
});

Deno.test("XmlTokenizer rejects limits that are not positive integers", () => {
  const handler = { onStart() {}, onEnd() {}, onText() {} };
  throws(() => new XmlTokenizer(handler, { maxDepth: 0 }), RangeError);
  throws(() => new XmlTokenizer(handler, { maxTokenLength: 1.5 }), RangeError);
});

const TRICKY = '\uFEFF<?xml version="1.0"?>\r\n<!-- c - -- ---><urlset xmlns="urn:s" ' +
  "xmlns:x='urn:x'><url a=\"q>'&amp;\" b='\"&lt;'><loc> http://e/?a=1&amp;b=2&#x41;&#65;" +
  "&bogus; </loc><x:i/><![CDATA[ ]]] ]]><!----><?p ??>tail&#x1F600;&quot;</url><x:y\t/>" +
  "</urlset >\n<!-- after -->";

Deno.test("XmlTokenizer gives the same events for every split of a tricky document", () => {
  const whole = tokenize(TRICKY);
  equal(whole.error, null);
  equal(whole.events.length, 13);
  for (let k = 0; k <= TRICKY.length; k++) {
    deepStrictEqual(tokenize([TRICKY.slice(0, k), TRICKY.slice(k)]), whole, `split at ${k}`);
  }
  for (let size = 1; size <= 4; size++) {
    const chunks = [];
    for (let k = 0; k < TRICKY.length; k += size) chunks.push(TRICKY.slice(k, k + size));
    deepStrictEqual(tokenize(chunks), whole, `chunks of ${size}`);
  }
});

Deno.test("XmlTokenizer gives a prefix of the events for every truncation", () => {
  const whole = tokenize(TRICKY).events;
  let previous = 0;
  for (let k = 0; k <= TRICKY.length; k++) {
    const { events, error } = tokenize(TRICKY.slice(0, k));
    equal(error, null);
    deepStrictEqual(events, whole.slice(0, events.length), `cut at ${k}`);
    ok(events.length >= previous, `cut at ${k} lost events`);
    previous = events.length;
  }
  equal(previous, whole.length);
});

Deno.test("XmlTokenizer ends cleanly inside every kind of token", () => {
  for (
    const cut of [
      "<r>abc",
      "<r><a b='",
      "<r></r",
      "<r><!-- x",
      "<r><![CDATA[x]]",
      "<r><?p",
      "<r><!DOC",
    ]
  ) {
    deepStrictEqual(tokenize(cut), { events: [["start", "", "r", []]], error: null }, cut);
  }
});

Deno.test("XmlTokenizer skips a DOCTYPE without internal subset, fetching nothing, and keeps undefined entities as text", () => {
  const netscape =
    '<?xml version="1.0"?>\n<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"\n' +
    ' "http://my.netscape.com/publish/formats/rss-0.91.dtd">\n<rss version="0.91"><t>a&nbsp;b &amp; c</t></rss>';
  const expected = {
    events: [
      ["start", "", "rss", [["", "version", "0.91"]]],
      ["start", "", "t", []],
      ["text", "a&nbsp;b & c"],
      ["end", "", "t"],
      ["end", "", "rss"],
    ],
    error: null,
  };
  deepStrictEqual(tokenize(netscape), expected);
  // Cut inside the identifier, and a system literal holding ">" and "[".
  deepStrictEqual(tokenize([netscape.slice(0, 40), netscape.slice(40)]), expected);
  deepStrictEqual(tokenize(["<!doc", "type html><html></html>"]), {
    events: [["start", "", "html", []], ["end", "", "html"]],
    error: null,
  });
  deepStrictEqual(tokenize(["<!DOCTYPE r SYSTEM 'a>b[c.dtd'", "><r/>"]), {
    events: [["start", "", "r", []], ["end", "", "r"]],
    error: null,
  });
  // Inside the document it is refused, as it is not XML there.
  deepStrictEqual(tokenize("<r><!DOCTYPE r><x/></r>"), {
    events: [["start", "", "r", []]],
    error: "XML DOCTYPE declaration inside the document is not allowed",
  });
});
