/**
 * The span decoder of kept extensions (`_kept_decode.ts`): the common block
 * forms it reads straight from their bytes, and the forms it hands to the
 * byte walker. Every case holds the decoded objects to what eager decoding
 * gives, and says which way the page went.
 *
 * @module
 */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { PagesXMLSitemap } from "../../src/objects/sitemap.ts";
import { keptExtrasStats } from "../../src/parse/_kept_extras.ts";
import type { PackedPages } from "../../src/parse/_result.ts";
import { parseSitemapBody } from "../../src/parse/parse_sitemap.ts";

const URL_ = "https://www.example.com/sitemaps/sitemap.xml";
const encoder = new TextEncoder();

const ROOT = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:xhtml="http://www.w3.org/1999/xhtml"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">`;

/** A urlset of one page per body, under `root`. */
function urlset(bodies: readonly string[], root = ROOT): Uint8Array {
  const urls = bodies.map((body, i) =>
    `<url><loc>https://www.example.com/p${i}</loc><lastmod>2024-01-0${(i % 9) + 1}</lastmod>
    ${body}
  </url>`
  );
  return encoder.encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${urls.join("\n")}\n</urlset>`,
  );
}

function pagesOf(bytes: Uint8Array, extensions: "lazy" | "eager"): PackedPages {
  const r = parseSitemapBody(bytes, { url: URL_, extensions }, { gzip: null });
  if (r.kind !== "pages") throw new Error(`Expected pages, got ${r.kind}`);
  return r.pages;
}

/** Each page's extensions, read through the public objects. */
type Read = { images: unknown[]; alternates: unknown[]; newsStory: unknown; videos: unknown[] };

function extensionsJson(pages: PackedPages): Read[] {
  return [...new PagesXMLSitemap(URL_, pages).pages].map((p) => {
    const { images, alternates, newsStory, videos } = p.toJSON();
    return JSON.parse(JSON.stringify({ images, alternates, newsStory, videos }));
  });
}

/**
 * Reads `bytes` lazily and eagerly: the same objects either way, and the
 * number of pages the span decoder handed to the byte walker.
 */
function readBoth(bytes: Uint8Array, name = ""): { read: Read[]; walked: number } {
  const lazy = pagesOf(bytes, "lazy");
  strictEqual(lazy.extras?.kind, "kept", `${name}: the blocks are kept`);
  const walked = keptExtrasStats.walked;
  const read = extensionsJson(lazy);
  const handed = keptExtrasStats.walked - walked;
  deepStrictEqual(read, extensionsJson(pagesOf(bytes, "eager")), name);
  return { read, walked: handed };
}

const IMG = "https://cdn.example.com/a.jpg";

/** Block forms the span decoder reads itself, and what it reads from each. */
const ACCEPTED: readonly [string, string, Partial<Read>][] = [
  ["an image with a loc", `<image:image><image:loc>${IMG}</image:loc></image:image>`, {
    images: [{ loc: IMG, caption: null, geoLocation: null, title: null, license: null }],
  }],
  [
    "an image with every field, pretty-printed",
    `<image:image>
        <image:loc>${IMG}</image:loc>
        <image:caption> A caption </image:caption>
        <image:geo_location>Limerick, Ireland</image:geo_location>
        <image:title>T</image:title>
        <image:license>/license</image:license>
      </image:image>`,
    {
      images: [{
        loc: IMG,
        caption: "A caption",
        geoLocation: "Limerick, Ireland",
        title: "T",
        license: "https://www.example.com/license",
      }],
    },
  ],
  [
    "CDATA captions and locs, alone or between whitespace",
    `<image:image><image:loc><![CDATA[${IMG}]]></image:loc><image:caption>
      <![CDATA[A & <b>]]>  </image:caption></image:image>`,
    {
      images: [{ loc: IMG, caption: "A & <b>", geoLocation: null, title: null, license: null }],
    },
  ],
  [
    "entities and character references in text and URLs",
    `<image:image><image:loc>https://cdn.example.com/a.jpg?v=1&amp;w=2</image:loc><image:title>A &amp; B&#39;s &#x2019;</image:title></image:image>`,
    {
      images: [{
        loc: "https://cdn.example.com/a.jpg?v=1&w=2",
        caption: null,
        geoLocation: null,
        title: "A & B's \u2019",
        license: null,
      }],
    },
  ],
  [
    "relative, odd and invalid URLs",
    `<image:image><image:loc>/img/a b.jpg</image:loc></image:image>
     <image:image><image:loc>HTTPS://CDN.Example.COM:443/./x/../y.jpg</image:loc></image:image>
     <image:image><image:loc>https://bücher.example/ä.jpg</image:loc></image:image>
     <image:image><image:loc>http://[bad</image:loc></image:image>
     <image:image><image:loc>  </image:loc></image:image>`,
    {},
  ],
  [
    "an image without a loc, empty and blank fields",
    `<image:image><image:caption>no loc</image:caption></image:image>
     <image:image><image:loc>${IMG}</image:loc><image:caption></image:caption><image:title>  </image:title></image:image>`,
    {
      images: [{ loc: IMG, caption: null, geoLocation: null, title: null, license: null }],
    },
  ],
  [
    "empty elements",
    `<image:image><image:loc>${IMG}</image:loc><image:caption/><image:title /></image:image>
     <image:image><image:loc/><image:caption>no loc</image:caption></image:image>
     <image:image><image:loc>${IMG}</image:loc><image:license/></image:image>
     <news:news><news:title/><news:keywords/></news:news>
     <video:video><video:title/><video:tag/><video:thumbnail_loc/></video:video>`,
    {},
  ],
  [
    "non-ASCII text",
    `<image:image><image:loc>${IMG}</image:loc><image:caption>東京 😀 crème</image:caption></image:image>`,
    {
      images: [{
        loc: IMG,
        caption: "東京 😀 crème",
        geoLocation: null,
        title: null,
        license: null,
      }],
    },
  ],
  [
    "alternates, attributes in any order and spacing",
    `<xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/p"/>
     <xhtml:link href="/fr/p" hreflang="fr" rel="alternate" />
     <xhtml:link
        hreflang="x-default"
        rel="alternate"
        href="https://www.example.com/?a=1&amp;b=2"/>`,
    {
      alternates: [
        { hreflang: "de", href: "https://www.example.com/de/p" },
        { hreflang: "fr", href: "https://www.example.com/fr/p" },
        { hreflang: "x-default", href: "https://www.example.com/?a=1&b=2" },
      ],
    },
  ],
  [
    "alternates with odd, non-ASCII and invalid hrefs and hreflangs",
    `<xhtml:link rel="alternate" hreflang=" en-GB " href=" https://WWW.example.com/a%2fb/ü "/>
     <xhtml:link rel="alternate" hreflang="" href="https://www.example.com/empty-lang"/>
     <xhtml:link rel="alternate" hreflang="ja" href="https://例え.jp/パス"/>
     <xhtml:link rel="alternate" hreflang="de&amp;at" href="http://[bad"/>
     <xhtml:link rel="alternate" hreflang="it" href="/it/p&#x3F;q=1"/>`,
    {},
  ],
  [
    "a news story with every field",
    `<news:news>
        <news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>
        <news:publication_date>2024-05-01T10:00:00+02:00</news:publication_date>
        <news:title><![CDATA[Launch & more]]></news:title>
        <news:access>Subscription</news:access>
        <news:genres>PressRelease, Blog</news:genres>
        <news:keywords>a, b,,c</news:keywords>
        <news:stock_tickers>NASDAQ:AMAT</news:stock_tickers>
      </news:news>`,
    {
      newsStory: {
        title: "Launch & more",
        publishDate: "2024-05-01T08:00:00.000Z",
        publicationName: "The Example Times",
        publicationLanguage: "en",
        access: "Subscription",
        genres: ["PressRelease", "Blog"],
        keywords: ["a", "b", "c"],
        stockTickers: ["NASDAQ:AMAT"],
      },
    },
  ],
  [
    "videos with every field",
    `<video:video>
        <video:thumbnail_loc>/t.jpg</video:thumbnail_loc>
        <video:title><![CDATA[ A &amp; B ]]></video:title>
        <video:description>How &amp; why</video:description>
        <video:content_loc>https://cdn.example.com/v.mp4</video:content_loc>
        <video:player_loc>https://www.example.com/player?v=1&amp;a=2</video:player_loc>
        <video:duration>600</video:duration>
        <video:expiration_date>2030-01-01</video:expiration_date>
        <video:rating>4.2</video:rating>
        <video:view_count>12345</video:view_count>
        <video:publication_date>2024-05-01T08:00:00+00:00</video:publication_date>
        <video:family_friendly>yes</video:family_friendly>
        <video:requires_subscription>No</video:requires_subscription>
        <video:live>maybe</video:live>
        <video:uploader>Someone</video:uploader>
        <video:tag>how-to</video:tag>
        <video:tag> </video:tag>
        <video:tag>care</video:tag>
      </video:video>
      <video:video><video:title>Second</video:title></video:video>`,
    {},
  ],
  [
    "two news blocks and core fields between the blocks",
    `<news:news><news:title>First</news:title></news:news>
     <changefreq>daily</changefreq>
     <news:news><news:publication_date>2024-05-01</news:publication_date></news:news>
     <priority>0.4</priority>
     <image:image><image:loc>${IMG}</image:loc></image:image>`,
    {},
  ],
];

Deno.test("the span decoder reads the common block forms itself, as eager decoding reads them", () => {
  for (const [name, body, expected] of ACCEPTED) {
    const { read, walked } = readBoth(urlset([body]), name);
    strictEqual(walked, 0, `${name}: no page handed to the walker`);
    for (const [key, value] of Object.entries(expected)) {
      deepStrictEqual(read[0]![key as keyof Read], value, `${name}: ${key}`);
    }
  }
});

const LINK = `<xhtml:link rel="alternate" hreflang="de" href="/de"/>`;

/** Block forms the span decoder hands to the byte walker (each between blocks: a span runs from the first to the last). */
const HANDED: readonly [string, string][] = [
  ["a single-quoted attribute", `<xhtml:link rel='alternate' hreflang="de" href="/de"/>`],
  ["rel in another case", `<xhtml:link rel="Alternate" hreflang="de" href="/de"/>`],
  ["rel padded", `<xhtml:link rel=" alternate" hreflang="de" href="/de"/>`],
  ["a link that is no alternate", `<xhtml:link rel="canonical" hreflang="de" href="/de"/>`],
  [
    "an unknown attribute",
    `<xhtml:link rel="alternate" type="text/html" hreflang="de" href="/de"/>`,
  ],
  ["a prefixed attribute", `<xhtml:link rel="alternate" xml:lang="de" hreflang="de" href="/de"/>`],
  ["a repeated attribute", `<xhtml:link rel="alternate" hreflang="de" hreflang="fr" href="/de"/>`],
  ["spaces around =", `<xhtml:link rel = "alternate" hreflang="de" href="/de"/>`],
  ["a link with an end tag", `<xhtml:link rel="alternate" hreflang="de" href="/de"></xhtml:link>`],
  [
    "a comment between blocks",
    `<image:image><image:loc>${IMG}</image:loc></image:image><!-- c --><xhtml:link rel="alternate" hreflang="de" href="/de"/>`,
  ],
  ["a comment in a block", `<image:image><!-- c --><image:loc>${IMG}</image:loc></image:image>`],
  ["a comment in a field", `<image:image><image:loc>${IMG}<!-- c --></image:loc></image:image>`],
  ["a processing instruction between blocks", `${LINK}<?pi x?>${LINK}`],
  [
    "an unknown child",
    `<image:image><image:loc>${IMG}</image:loc><image:foo>x</image:foo></image:image>`,
  ],
  ["a child with an attribute", `<image:image><image:loc a="1">${IMG}</image:loc></image:image>`],
  [
    "an empty child with an attribute",
    `<image:image><image:loc>${IMG}</image:loc><image:caption a="1"/></image:image>`,
  ],
  ["a child under another prefix", `<image:image><news:loc>${IMG}</news:loc></image:image>`],
  [
    "an element in a field",
    `<image:image><image:loc>${IMG}</image:loc><image:title><b>T</b></image:title></image:image>`,
  ],
  [
    "text beside CDATA",
    `<image:image><image:loc>${IMG}</image:loc><image:title>a<![CDATA[b]]>c</image:title></image:image>`,
  ],
  ["an end tag with a space", `<image:image><image:loc>${IMG}</image:loc ></image:image>`],
  ["an unknown element between blocks", `${LINK}<foo>bar</foo>${LINK}`],
  ["a core element holding markup", `${LINK}<lastmod><![CDATA[2024-01-01]]></lastmod>${LINK}`],
  ["text between blocks", `${LINK}x${LINK}`],
  [
    "an unknown news child",
    `<news:news><news:title>T</news:title><news:extra>x</news:extra></news:news>`,
  ],
  [
    "a video child with an attribute",
    `<video:video><video:player_loc allow_embed="yes">/p</video:player_loc></video:video>`,
  ],
  ["an unknown video child", `<video:video><video:price>1</video:price></video:video>`],
];

Deno.test("the span decoder hands every other form to the byte walker, read as eager decoding reads it", () => {
  for (const [name, body] of HANDED) {
    const { walked } = readBoth(urlset([body]), name);
    strictEqual(walked, 1, `${name}: the page goes to the walker`);
  }
});

Deno.test("the span decoder hands blocks under prefixes it cannot vouch for to the byte walker", () => {
  const link = `<xhtml:link rel="alternate" hreflang="de" href="/de"/>`;
  const image = `<img:image><img:loc>${IMG}</img:loc></img:image>`;
  // Another prefix for the image namespace: read by the span decoder under it.
  const other = ROOT.replace('xmlns:image="', 'xmlns:img="');
  deepStrictEqual(readBoth(urlset([image, link], other)).walked, 0);
  // Two prefixes bound to it: neither is read by the span decoder.
  const both = ROOT.replace(
    "xmlns:xhtml=",
    `xmlns:img="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml=`,
  );
  deepStrictEqual(readBoth(urlset([image, link], both)).walked, 1);
  // A prefix bound to another namespace is no image block.
  const unbound = ROOT.replace(
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
    'xmlns:image="urn:other"',
  );
  const between = `${link}<image:image><image:loc>${IMG}</image:loc></image:image>${link}`;
  deepStrictEqual(readBoth(urlset([between], unbound)).walked, 1);
});

Deno.test("pages the span decoder hands over between pages it reads keep their places", () => {
  const good = (i: number) => `<image:image><image:loc>/img/${i}.jpg</image:loc></image:image>`;
  const odd = (i: number) =>
    `<image:image><!-- ${i} --><image:loc>/odd/${i}.jpg</image:loc></image:image>`;
  const bodies = [good(0), odd(1), "", good(3), odd(4), odd(5), "", odd(7), good(8)];
  const { read, walked } = readBoth(urlset(bodies));
  strictEqual(walked, 4);
  deepStrictEqual(
    read.map((r) => r.images.map((image) => (image as { loc: string }).loc)),
    bodies.map((body, i) =>
      body === ""
        ? []
        : [`https://www.example.com/${body.includes("<!--") ? "odd" : "img"}/${i}.jpg`]
    ),
  );
});
