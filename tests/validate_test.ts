import { assertEquals } from "./_assert.ts";
import {
  formatValidationReport,
  lintSitemapDocument,
  type SitemapProblem,
  validateSitemapTree,
} from "../src/validate.ts";
import { commandUsage, LINT } from "../src/cli/_spec.ts";
import { main } from "../cli.ts";
import type { CliIO } from "../src/cli/_io.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { IndexWebsiteSitemap, PagesXMLSitemap } from "../src/objects/sitemap.ts";
import { SitemapPage } from "../src/objects/page.ts";
import { EMPTY_STATS } from "../src/stats.ts";
import { generateUrlset } from "../fixtures/generate.ts";
import { FixtureSite, urlset, withSite } from "./_tree_helpers.ts";

const base: SitemapTreeOptions = {
  workers: 0,
  useKnownPaths: false,
  useFeeds: false,
  timeoutMs: 2_000,
};
const NOW = new Date("2025-06-01T00:00:00Z");

/** `code url value` per problem, with both origins shortened to A and B. */
function brief(problems: readonly SitemapProblem[], a: string, b = "\u0000"): string[] {
  const short = (s: string | null): string =>
    s === null ? "-" : s.replaceAll(a, "A").replaceAll(b, "B");
  return problems.map((p) =>
    `${short(p.sitemap)} ${p.severity} ${p.code} ${short(p.url)} ${short(p.value)}`
  );
}

function locs(host: string, paths: readonly string[], lastmod?: string): string {
  return `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
    paths.map((p) =>
      `<url><loc>${host}${p}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`
    )
      .join("")
  }</urlset>`;
}

Deno.test("validateSitemapTree() reports hosts, lastmods, duplicates, redirects, statuses and invalid sitemaps", async () => {
  const other = new FixtureSite();
  await withSite(other, async (b) => {
    const site = new FixtureSite();
    await withSite(site, async (a) => {
      const A = a.origin;
      const B = b.origin;
      site
        .file(
          "/robots.txt",
          [
            "Sitemap: /mixed.xml",
            `Sitemap: ${B}/cross-submitted.xml`,
            "Sitemap: /old.xml",
            "Sitemap: /missing.xml",
            "Sitemap: /uniform.xml",
            "Sitemap: /partial.xml",
          ].join("\n"),
        )
        // A page on B in a sitemap on A: not allowed.
        .file(
          "/mixed.xml",
          locs(A, ["/home", "/shared"], "2025-01-01").replace(
            "</urlset>",
            `<url><loc>${B}/elsewhere</loc></url></urlset>`,
          ),
        )
        .redirect("/old.xml", "/new.xml", 301)
        .file("/new.xml", locs(A, ["/new"], "2025-06-03"))
        .file("/uniform.xml", locs(A, Array.from({ length: 12 }, (_, i) => `/u${i}`), "2024-01-01"))
        .file("/partial.xml", locs(A, ["/shared", `/p`]), { status: 203 });
      // Pages of A in a sitemap on B: fine, A's robots.txt lists it. Pages of B there too: its own host.
      other.file(
        "/cross-submitted.xml",
        locs(A, ["/x"]).replace("</urlset>", `<url><loc>${B}/y</loc></url></urlset>`),
      );
      const tree = await sitemapTreeForHomepage(a.url("/"), {
        ...base,
        allowPrivateNetworks: true,
      });
      const report = validateSitemapTree(tree, { now: NOW });
      assertEquals(brief(report.problems, A, B), [
        "A/mixed.xml error cross-host B/elsewhere B",
        "A/new.xml warning future-lastmod A/new 2025-06-03T00:00:00.000Z",
        "A/new.xml warning redirect A/old.xml A/new.xml",
        "A/missing.xml error invalid-sitemap - -",
        "A/uniform.xml warning uniform-lastmod - 2024-01-01T00:00:00.000Z",
        "A/partial.xml warning duplicate-url A/shared A/mixed.xml",
        "A/partial.xml warning http-status A/partial.xml 203",
      ]);
      assertEquals(
        report.problems.find((p) => p.code === "invalid-sitemap")?.message,
        `Unable to fetch sitemap from ${A}/missing.xml: 404 Not Found`,
      );
      assertEquals([report.errors, report.warnings, report.sitemaps, report.pages], [
        2,
        5,
        7,
        20,
      ]);
    });
  });
});

Deno.test("validateSitemapTree() counts URLs and bytes from the fetch records and keeps only examples", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /big.xml\nSitemap: /far.xml\n")
    .file("/big.xml", generateUrlset(50_001, { host: "https://site.test" }))
    .file("/far.xml", urlset(Array.from({ length: 8 }, (_, i) => `/far${i}`)));
  await withSite(site, async (server) => {
    const tree = await sitemapTreeForHomepage(server.url("/"), base);
    const report = validateSitemapTree(tree, { now: NOW, examples: 2 });
    const big = report.problems.filter((p) => p.sitemap.endsWith("/big.xml"));
    assertEquals(big.map((p) => [p.code, p.value]), [
      ["cross-host", "https://site.test"],
      ["cross-host", "https://site.test"],
      ["more", "49999"],
      ["too-many-urls", "50001"],
    ]);
    assertEquals(big[2]?.message, "49,999 more cross-host problems like the above");
    assertEquals(report.errors, 50_001 + 1 + 8);
  });
  // A size the crawl read whole (maxSitemapBytes raised) but the protocol forbids.
  const page = new SitemapPage({ url: "https://example.com/a" });
  const tree = new IndexWebsiteSitemap("https://example.com/", [
    new PagesXMLSitemap("https://example.com/huge.xml", [page]),
  ], {
    ...EMPTY_STATS,
    fetches: [{
      url: "https://example.com/huge.xml",
      finalUrl: "https://example.com/huge.xml",
      status: 200,
      redirected: false,
      outcome: "parsed",
      downloadedBytes: 1_000_000,
      decompressedBytes: 60_000_000,
      entries: 1,
      etag: null,
      lastModified: null,
      fetchedAt: null,
    }],
  });
  assertEquals(brief(validateSitemapTree(tree, { now: NOW }).problems, "https://example.com"), [
    "A/huge.xml error too-large - 60000000",
  ]);
});

Deno.test("lintSitemapDocument() reports raw locs, lastmods, priorities and changefreqs the parser normalises", () => {
  const xml = `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://example.com/ok </loc><lastmod>2024-05-01T10:00:00+02:00</lastmod>
       <priority>1.0</priority><changefreq>daily</changefreq></url>
  <url><loc>/relative</loc></url>
  <url><loc>ftp://example.com/file</loc></url>
  <url><lastmod>2024-05-01</lastmod></url>
  <url><loc>https://example.com/a</loc><lastmod>2024-13-01</lastmod></url>
  <url><loc>https://example.com/b</loc><lastmod>yesterday</lastmod></url>
  <url><loc>https://example.com/c</loc><lastmod>2024-05-01 10:00</lastmod></url>
  <url><loc>https://example.com/d</loc><lastmod>2023-02-29</lastmod></url>
  <url><loc>https://example.com/e</loc><priority>1.5</priority></url>
  <url><loc>https://example.com/f</loc><priority>high</priority></url>
  <url><loc>https://example.com/g</loc><changefreq>sometimes</changefreq></url>
  <url><loc>https://example.com/h</loc><lastmod>2024</lastmod><priority>.5</priority></url>
</urlset>`;
  const problems = lintSitemapDocument(new TextEncoder().encode(xml), "https://example.com/s.xml", {
    examples: 3,
  });
  assertEquals(brief(problems, "https://example.com"), [
    "A/s.xml error invalid-loc /relative /relative",
    "A/s.xml error invalid-loc ftp://example.com/file ftp://example.com/file",
    "A/s.xml error invalid-loc - -",
    "A/s.xml error bad-lastmod A/a 2024-13-01",
    "A/s.xml error bad-lastmod A/b yesterday",
    "A/s.xml error bad-lastmod A/c 2024-05-01 10:00",
    "A/s.xml error more - 1",
    "A/s.xml error bad-priority A/e 1.5",
    "A/s.xml error bad-priority A/f high",
    "A/s.xml error bad-changefreq A/g sometimes",
  ]);
  const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <sitemap><loc>child.xml</loc><lastmod>01/05/2024</lastmod></sitemap></sitemapindex>`;
  assertEquals(
    brief(
      lintSitemapDocument(new TextEncoder().encode(index), "https://example.com/i.xml"),
      "https://example.com",
    ),
    [
      "A/i.xml error invalid-loc child.xml child.xml",
      "A/i.xml error bad-lastmod child.xml 01/05/2024",
    ],
  );
  const text =
    "https://example.com/1\r\n\r\nexample.com/2\nhttps://example.com/3\nmailto:x@example.com";
  assertEquals(
    lintSitemapDocument(new TextEncoder().encode(text), "https://example.com/s.txt").map((p) =>
      `${p.value}: ${p.message}`
    ),
    [
      "example.com/2: Line 3 is not an absolute http(s) URL",
      "mailto:x@example.com: Line 5 is not an absolute http(s) URL",
    ],
  );
  const feed = '<rss version="2.0"><channel><item><link>/x</link></item></channel></rss>';
  assertEquals(lintSitemapDocument(new TextEncoder().encode(feed), "https://example.com/f"), []);
});

Deno.test("formatValidationReport() groups problems by sitemap and ends with a summary", () => {
  const report = {
    problems: [
      {
        severity: "error" as const,
        code: "cross-host" as const,
        sitemap: "https://a.test/s.xml",
        url: "https://b.test/x",
        value: "https://b.test",
        message: "Page on another host",
      },
      {
        severity: "warning" as const,
        code: "redirect" as const,
        sitemap: "https://a.test/t.xml",
        url: "https://a.test/old.xml",
        value: "https://a.test/t.xml",
        message: "Redirects",
      },
    ],
    errors: 1,
    warnings: 1,
    sitemaps: 2,
    pages: 1200,
  };
  assertEquals(formatValidationReport(report), [
    "https://a.test/s.xml",
    '  error   cross-host      https://b.test/x "https://b.test": Page on another host',
    "https://a.test/t.xml",
    '  warning redirect        https://a.test/old.xml "https://a.test/t.xml": Redirects',
    "1 error, 1 warning in 2 sitemaps (1,200 pages)",
  ]);
});

function captureIO(): { io: CliIO; out: () => string; err: () => string } {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const text = (chunks: Uint8Array[]): string =>
    chunks.map((c) => new TextDecoder().decode(c)).join("");
  return {
    io: {
      stdout: { write: (c) => Promise.resolve(void out.push(c.slice())) },
      stderr: { write: (c) => Promise.resolve(void err.push(c.slice())) },
      stderrIsTerminal: false,
    },
    out: () => text(out),
    err: () => text(err),
  };
}

Deno.test("lint exits 1 on errors with a text or JSON report, 0 on a clean site, 2 on a usage error", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /s.xml\nSitemap: /ok.xml\n")
    .file(
      "/s.xml",
      (o) =>
        locs(o, ["/a"]).replace(
          "</urlset>",
          "<url><loc>/rel</loc><priority>2</priority></url></urlset>",
        ),
    )
    .file("/ok.xml", (o) => locs(o, ["/b"], "2024-05-01"));
  await withSite(site, async (server) => {
    const text = captureIO();
    const status = await main(["lint", server.url("/"), "-k", "--no-feeds"], text.io);
    assertEquals([status, text.err()], [1, ""]);
    const origin = server.origin;
    assertEquals(text.out().replaceAll(origin, "A").split("\n"), [
      "A/s.xml",
      '  error   invalid-loc     /rel "/rel": The <loc> is not an absolute http(s) URL (the protocol requires one)',
      '  error   bad-priority    /rel "2": The <priority> is not a number from 0.0 to 1.0',
      "2 errors, 0 warnings in 3 sitemaps (3 pages)",
      "",
    ]);
    const json = captureIO();
    assertEquals(
      await main(["lint", "--json", "--no-known", "--no-feeds", server.url("/")], json.io),
      1,
    );
    const report = JSON.parse(json.out());
    assertEquals([report.errors, report.warnings, report.problems.length], [2, 0, 2]);
    assertEquals(report.problems[0].code, "invalid-loc");

    site.file("/s.xml", (o) => locs(o, ["/a"], "2024-05-02"));
    const clean = captureIO();
    assertEquals(await main(["lint", server.url("/"), "-k", "--no-feeds"], clean.io), 0);
    assertEquals(clean.out(), "No problems in 3 sitemaps (2 pages)\n");
  });
  const usage = captureIO();
  assertEquals(await main(["lint", "--bogus"], usage.io), 2);
  assertEquals(
    usage.err(),
    'sitemap-tree: Unknown option "--bogus"; see sitemap-tree lint --help\n',
  );
  const missing = captureIO();
  assertEquals(await main(["lint"], missing.io), 2);
  assertEquals(missing.err(), "sitemap-tree: Missing URL; see sitemap-tree lint --help\n");
});

Deno.test("main() dispatches lint", async () => {
  const help = captureIO();
  assertEquals(await main(["lint", "--help"], help.io), 0);
  assertEquals(help.out(), commandUsage(LINT));
});

Deno.test("lintSitemapDocument() reports a UTF-32 document as unreadable, not as UTF-16 garbage", () => {
  const utf32le = new Uint8Array([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0, 0x75, 0, 0, 0]);
  assertEquals(lintSitemapDocument(utf32le, "https://example.com/sitemap.xml"), [{
    severity: "error",
    code: "invalid-sitemap",
    sitemap: "https://example.com/sitemap.xml",
    url: null,
    value: null,
    message: "Not a sitemap: the document is encoded as UTF-32LE (byte order mark FF FE 00 00), " +
      "which cannot be decoded (the Encoding Standard has no UTF-32); serve it as UTF-8",
  }]);
});
