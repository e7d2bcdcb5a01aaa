/**
 * The hostile fixture set (fixtures/hostile.ts), one test per case: the call
 * completes within its limits, the hostile sitemap becomes an InvalidSitemap
 * with its exact reason (or is kept as documented), the good sibling's pages
 * are all there, and Deno's sanitizers see nothing left running. Timings are
 * measured in bench/hostile.ts, never asserted here.
 */
import { assert, assertEquals } from "./_assert.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { type AbstractSitemap, InvalidSitemap } from "../src/objects/sitemap.ts";
import {
  BIG_URLSET_COUNT,
  bigUrlsetPage,
  GOOD_PAGES,
  type HostileServer,
  LIAR_HUGE_BYTES,
  LIAR_UNDER_BYTES,
  MANY_CHILDREN,
  METADATA_HOME,
  metadataFetch,
  serveHostile,
} from "../fixtures/hostile.ts";
import { outline } from "./_tree_helpers.ts";
import { runtimeName } from "../fixtures/serve.ts";

const MiB = 1024 * 1024;

/**
 * What the runtime's fetch says when a body stops short, verbatim in the
 * reason (these tests also run under Bun: fixtures/_bun_run_deno_tests.ts).
 */
const BODY_CUT = runtimeName() === "bun"
  ? "ECONNRESET: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()"
  : "error reading a body from connection";

/**
 * Small caps keep the suite quick: 10 MiB, parsing in-thread. The timeout is
 * generous because an in-thread parse of a 10 MB document holds up the event
 * loop on a busy machine; the slow cases set their own.
 */
const base: SitemapTreeOptions = {
  workers: 0,
  useKnownPaths: false,
  timeoutMs: 5_000,
  maxSitemapBytes: 10 * MiB,
  maxDownloadBytes: 10 * MiB,
};

/** The outline's head: the website, robots.txt, and the good sibling with all its pages. */
const GOOD = [
  "website /",
  "  robots /robots.txt",
  "    urlset /good.xml",
  ...GOOD_PAGES.map((url) => `      - ${url}`),
];

/** `text` with the liar server's origin, and its `host:port` in failure causes, shown as LIAR. */
function liar(text: string, server: HostileServer): string {
  return text.replaceAll(server.liarOrigin, "LIAR")
    .replaceAll(new URL(server.liarOrigin).host, "LIAR");
}

/**
 * A small Content-Length beside chunked transfer: the cap stops the endless
 * body, except on Node, whose HTTP parser (as undici's) refuses the
 * response outright (RFC 9112 §6.3: "ought to be handled as an error").
 */
const CHUNKED_LIAR = runtimeName() === "node"
  ? "Unable to fetch sitemap from LIAR/chunked/endless.xml: network error (LIAR: Parse Error: Transfer-Encoding can't be present with Content-Length)"
  : "Sitemap download exceeds 10485760 bytes";

/** Serves one case, crawls it, and returns the outline (liar origin shown as LIAR) and the tree. */
async function crawlCase(
  name: string,
  options: SitemapTreeOptions = {},
  check?: (server: HostileServer) => void,
): Promise<{ lines: string[]; tree: Awaited<ReturnType<typeof sitemapTreeForHomepage>> }> {
  const server = await serveHostile([name]);
  try {
    const tree = await sitemapTreeForHomepage(server.origin, { ...base, ...options });
    const lines = outline(tree, server.origin).map((line) => liar(line, server));
    check?.(server);
    return { lines, tree };
  } finally {
    await server.close();
  }
}

/** Asserts the tree is the good sibling plus `lines`, nothing else. */
async function assertCase(
  name: string,
  lines: readonly string[],
  options: SitemapTreeOptions = {},
): Promise<void> {
  const { lines: got } = await crawlCase(name, options);
  assertEquals(got, [...GOOD, ...lines]);
}

Deno.test("hostile: a 200 KB gzip bomb (200 MiB of XML) stops at maxSitemapBytes", async () => {
  await assertCase("gzip-bomb", ["    invalid /bomb.xml.gz: Sitemap expands past 10485760 bytes"]);
});

Deno.test("hostile: gzip inside gzip is inflated twice and still stops at maxSitemapBytes", async () => {
  await assertCase("gzip-in-gzip", [
    "    invalid /bomb2.xml.gz: Sitemap expands past 10485760 bytes",
  ]);
});

Deno.test("hostile: a third layer of gzip is refused", async () => {
  await assertCase("gzip-3-layers", [
    "    invalid /bomb3.xml.gz: Nested gzip deeper than 2 levels refused",
  ]);
});

const DOCTYPE_REFUSED =
  "Not a sitemap: unreadable XML: XML DOCTYPE internal subsets are not allowed (entity expansion is refused)";

Deno.test("hostile: billion laughs is refused at its DOCTYPE, nothing expands", async () => {
  await assertCase("billion-laughs", [`    invalid /laughs.xml: ${DOCTYPE_REFUSED}`]);
});

Deno.test("hostile: an external entity on file:///etc/passwd is refused, the file never read", async () => {
  const { lines, tree } = await crawlCase("external-entity");
  assertEquals(lines, [...GOOD, `    invalid /xxe.xml: ${DOCTYPE_REFUSED}`]);
  assert(!JSON.stringify(tree).includes("root:"), "the passwd file leaked into the tree");
});

Deno.test("hostile: a 10 MB text node stops at maxTokenLength", async () => {
  await assertCase("text-node-10mb", [
    "    invalid /text-node.xml: Not a sitemap: Reading stopped early: XML token longer than 4194304 characters (maxTokenLength)",
  ]);
});

Deno.test("hostile: 1,000,000 nested elements stop at depth 256", async () => {
  await assertCase("nesting-1m", [
    "    invalid /deep.xml: Not a sitemap: Reading stopped early: XML elements nest deeper than 256 levels (maxDepth)",
  ]);
});

Deno.test("hostile: 10 MB without a '>' stops at maxTokenLength", async () => {
  await assertCase("no-gt-10mb", [
    "    invalid /no-gt.xml: Not a sitemap: unreadable XML: XML token longer than 4194304 characters (maxTokenLength)",
  ]);
});

Deno.test("hostile: invalid UTF-8, CESU-8 surrogates and NULs decode to U+FFFD and percent-escapes, every entry kept", async () => {
  // The WHATWG decoder replaces each bad byte with U+FFFD; the URL parser
  // percent-encodes it, and NUL inside a path as %00. NULs between elements
  // are character data and change nothing.
  await assertCase("bad-bytes", [
    "    urlset /bad-bytes.xml",
    "      - https://site.test/invalid-%EF%BF%BD%EF%BF%BD%EF%BF%BD(",
    "      - https://site.test/surrogate-%EF%BF%BD%EF%BF%BD%EF%BF%BD",
    "      - https://site.test/nul-%00-byte",
    "      - https://site.test/after-nul",
  ]);
});

Deno.test("hostile: a 2 GiB Content-Length is refused before the body is read", async () => {
  await assertCase("content-length-2gb", [
    `    invalid LIAR/lie/${LIAR_HUGE_BYTES}.xml: Sitemap download exceeds 10485760 bytes`,
  ]);
});

Deno.test("hostile: a Content-Length under the cap whose body ends early is a network error after retries", async () => {
  await assertCase("content-length-8mb", [
    `    invalid LIAR/lie/${LIAR_UNDER_BYTES}.xml: Unable to fetch sitemap from LIAR/lie/${LIAR_UNDER_BYTES}.xml: ${BODY_CUT}`,
  ]);
});

Deno.test("hostile: a small Content-Length beside chunked transfer does not bound the read: the cap does", async () => {
  await assertCase("content-length-chunked", [
    `    invalid LIAR/chunked/endless.xml: ${CHUNKED_LIAR}`,
  ]);
});

Deno.test("hostile: a body trickling 1 byte a second is cut at timeoutMs", async () => {
  await assertCase("trickle-1bps", ["    invalid /trickle.xml: Timed out after 500 ms"], {
    timeoutMs: 500,
  });
});

Deno.test("hostile: a server that accepts and never answers is cut at timeoutMs, not retried", async () => {
  const { lines } = await crawlCase("hang", { timeoutMs: 500 }, (server) => {
    assertEquals(server.site.count("/hang.xml"), 1);
  });
  assertEquals(lines, [...GOOD, "    invalid /hang.xml: Timed out after 500 ms"]);
});

Deno.test("hostile: a connection reset mid-body is retried, then invalid with the network error", async () => {
  const { lines } = await crawlCase("reset-mid-body", { retries: 2 }, (server) => {
    assertEquals(server.site.count("/reset.xml"), 3);
  });
  assertEquals(lines, [
    ...GOOD,
    `    invalid /reset.xml: Unable to fetch sitemap from /reset.xml: ${BODY_CUT}`,
  ]);
});

Deno.test("hostile: a redirect loop ends at the first repeated URL", async () => {
  const { lines } = await crawlCase("redirect-loop", {}, (server) => {
    assertEquals([server.site.count("/loop-a.xml"), server.site.count("/loop-b.xml")], [1, 1]);
  });
  assertEquals(lines, [
    ...GOOD,
    "    invalid /loop-a.xml: Redirect loop: /loop-b.xml redirects back to /loop-a.xml",
  ]);
});

Deno.test("hostile: redirects to file:, data: and javascript: URLs are refused", async () => {
  await assertCase("redirect-schemes", [
    "    invalid /to-file.xml: Redirect to a non-http(s) URL refused: file:///etc/passwd",
    "    invalid /to-data.xml: Redirect to a non-http(s) URL refused: data:application/xml,%3Curlset%2F%3E",
    "    invalid /to-javascript.xml: Redirect to a non-http(s) URL refused: javascript:alert(1)",
  ]);
});

Deno.test("hostile: an index of 20,000 children stops fetching at maxSitemaps, naming each child left out", async () => {
  let fetched = -1;
  const { tree } = await crawlCase("index-20000", { maxSitemaps: 60 }, (server) => {
    fetched = server.site.log.filter((r) => r.path.startsWith("/many/")).length;
  });
  // Sitemaps 1-3 are robots.txt, /good.xml and /many.xml; children 0-56 are the other 57.
  assertEquals(fetched, 57);
  const robots = tree.subSitemaps[0]!;
  const many = robots.subSitemaps[1]!;
  assertEquals(many.type, "index");
  assertEquals(many.subSitemaps.length, MANY_CHILDREN);
  many.subSitemaps.forEach((child, i) => {
    if (i < 57) {
      assertEquals([child.type, child.pages.map((p) => p.url)], [
        "urlset",
        [`https://site.test/many/${i}`],
      ]);
    } else {
      assertEquals(
        (child as InvalidSitemap).reason,
        "Not fetched: the crawl's limit of 60 sitemaps (maxSitemaps) was reached",
      );
    }
  });
  assertEquals(
    [...robots.subSitemaps[0]!.allPages()].map((p) => p.url),
    GOOD_PAGES,
  );
  assertEquals(tree.stats.invalid.length, MANY_CHILDREN - 57);
  assertEquals([tree.stats.notFetched, tree.stats.outcomeReason], [
    MANY_CHILDREN - 57,
    "19943 sitemaps not fetched: the crawl's limit of 60 sitemaps (maxSitemaps) was reached",
  ]);
});

Deno.test("hostile: an endless chain of new indexes stops at maxDepth, keeping every page above it", async () => {
  const { lines } = await crawlCase("endless-chain");
  const chain: string[] = [];
  for (let n = 1; n <= 11; n++) {
    const pad = "  ".repeat(n + 1);
    chain.push(`${pad}index /chain/${n}.xml`);
    if (n < 11) {
      chain.push(
        `${pad}  urlset /chain/${n}-pages.xml`,
        `${pad}    - https://site.test/chain/${n}`,
      );
    }
  }
  const pad = "  ".repeat(13);
  chain.push(
    `${pad}invalid /chain/11-pages.xml: Recursion level exceeded: /chain/11-pages.xml is 12 levels deep (maxDepth is 11)`,
    `${pad}invalid /chain/12.xml: Recursion level exceeded: /chain/12.xml is 12 levels deep (maxDepth is 11)`,
  );
  assertEquals(lines, [...GOOD, ...chain]);
});

Deno.test("hostile: children on the cloud metadata address are refused without a request (injected fetch)", async () => {
  const { fetch, calls } = metadataFetch();
  const tree = await sitemapTreeForHomepage(METADATA_HOME, { ...base, fetch });
  const why = 'allowPrivateNetworks is "if-homepage-is" and the homepage is public';
  assertEquals(outline(tree, "https://www.example.com"), [
    "website /",
    "  robots /robots.txt",
    `    invalid http://169.254.169.254/latest/meta-data/iam/security-credentials/: Refused private-network address 169.254.169.254 (link-local, cloud metadata service; ${why})`,
    `    invalid http://[fd00:ec2::254]/latest/meta-data/: Refused private-network address [fd00:ec2::254] (unique-local, cloud metadata service; ${why})`,
    `    invalid http://metadata.google.internal/computeMetadata/v1/: Refused private-network name metadata.google.internal (cloud metadata name; ${why})`,
    `    invalid /to-metadata.xml: Refused private-network address 169.254.169.254 (link-local, cloud metadata service; ${why}) (redirected to http://169.254.169.254/latest/user-data)`,
    "    urlset /good.xml",
    ...GOOD_PAGES.map((url) => `      - ${url}`),
  ]);
  // Only the public site was asked; the redirect to the metadata address was not followed.
  assertEquals(calls.filter((url) => !url.startsWith(METADATA_HOME)), []);
  for (const path of ["robots.txt", "to-metadata.xml", "good.xml"]) {
    assert(calls.includes(METADATA_HOME + path), `${path} was not requested`);
  }
});

Deno.test("hostile: a 100 MB robots.txt stops at maxDownloadBytes; the well-known sitemap is still found", async () => {
  const server = await serveHostile(["robots-100mb"]);
  try {
    const tree = await sitemapTreeForHomepage(server.origin, { ...base, useKnownPaths: true });
    // An invalid robots.txt is left out of the tree, as in USP; the reason is in the stats.
    assertEquals(outline(tree, server.origin), [
      "website /",
      "  index /sitemap.xml",
      "    urlset /good.xml",
      ...GOOD_PAGES.map((url) => `      - ${url}`),
    ]);
    assertEquals(tree.stats.invalid, [
      { url: server.url("/robots.txt"), reason: "Sitemap download exceeds 10485760 bytes" },
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("hostile: a text sitemap's one 50 MB line is dropped, the lines around it kept", async () => {
  // Line readers drop lines over 64 KiB instead of buffering them (src/parse/_lines.ts).
  const { lines, tree } = await crawlCase("text-line-50mb", {
    maxSitemapBytes: 50 * MiB,
    maxDownloadBytes: 50 * MiB,
    timeoutMs: 30_000,
  });
  assertEquals(lines, [
    ...GOOD,
    "    text /long-line.txt",
    "      - https://site.test/before-the-line",
    "      - https://site.test/after-the-line",
  ]);
  assertEquals(tree.stats.invalid, []);
});

Deno.test("hostile: a urlset of 1,000,000 URLs (past the protocol's 50,000) is kept whole within maxSitemapBytes", async () => {
  // Decision: the 50,000-URL rule is the validator's to flag; the crawler keeps
  // what fits in maxSitemapBytes (the document is ~49 MB).
  const { tree } = await crawlCase("urlset-1m", {
    maxSitemapBytes: 50 * MiB,
    maxDownloadBytes: 50 * MiB,
    timeoutMs: 30_000,
  });
  const big = tree.subSitemaps[0]!.subSitemaps[1]!;
  assertEquals(big.type, "urlset");
  let count = 0;
  let wrong = 0;
  for (const page of big.allPages()) {
    if (page.url !== bigUrlsetPage(count)) wrong++;
    count++;
  }
  assertEquals([count, wrong], [BIG_URLSET_COUNT, 0]);
  assertEquals([...tree.subSitemaps[0]!.subSitemaps[0]!.allPages()].map((p) => p.url), GOOD_PAGES);
  assertEquals([tree.stats.invalid, tree.stats.warnings], [[], []]);
});

Deno.test("hostile: with the same limits at 10 MiB, the two big documents are refused by the download cap", async () => {
  for (
    const [name, path] of [["urlset-1m", "/million.xml"], ["text-line-50mb", "/long-line.txt"]]
  ) {
    await assertCase(name!, [`    invalid ${path}: Sitemap download exceeds 10485760 bytes`]);
  }
});

/** Every hostile URL of the combined crawl and its exact reason, origin stripped. */
const ALL_REASONS: Readonly<Record<string, string>> = {
  "/robots.txt": "Sitemap download exceeds 10485760 bytes",
  "/bomb.xml.gz": "Sitemap expands past 10485760 bytes",
  "/bomb2.xml.gz": "Sitemap expands past 10485760 bytes",
  "/bomb3.xml.gz": "Nested gzip deeper than 2 levels refused",
  "/laughs.xml": DOCTYPE_REFUSED,
  "/xxe.xml": DOCTYPE_REFUSED,
  "/text-node.xml":
    "Not a sitemap: Reading stopped early: XML token longer than 4194304 characters (maxTokenLength)",
  "/deep.xml":
    "Not a sitemap: Reading stopped early: XML elements nest deeper than 256 levels (maxDepth)",
  "/no-gt.xml":
    "Not a sitemap: unreadable XML: XML token longer than 4194304 characters (maxTokenLength)",
  [`LIAR/lie/${LIAR_HUGE_BYTES}.xml`]: "Sitemap download exceeds 10485760 bytes",
  [`LIAR/lie/${LIAR_UNDER_BYTES}.xml`]:
    `Unable to fetch sitemap from LIAR/lie/${LIAR_UNDER_BYTES}.xml: ${BODY_CUT}`,
  "LIAR/chunked/endless.xml": CHUNKED_LIAR,
  "/trickle.xml": "Timed out after 3000 ms",
  "/hang.xml": "Timed out after 3000 ms",
  "/reset.xml": `Unable to fetch sitemap from /reset.xml: ${BODY_CUT}`,
  "/loop-a.xml": "Redirect loop: /loop-b.xml redirects back to /loop-a.xml",
  "/to-file.xml": "Redirect to a non-http(s) URL refused: file:///etc/passwd",
  "/to-data.xml": "Redirect to a non-http(s) URL refused: data:application/xml,%3Curlset%2F%3E",
  "/to-javascript.xml": "Redirect to a non-http(s) URL refused: javascript:alert(1)",
  "/chain/11-pages.xml":
    "Recursion level exceeded: /chain/11-pages.xml is 12 levels deep (maxDepth is 11)",
  "/chain/12.xml": "Recursion level exceeded: /chain/12.xml is 12 levels deep (maxDepth is 11)",
  "/long-line.txt": "Sitemap download exceeds 10485760 bytes",
  "/million.xml": "Sitemap download exceeds 10485760 bytes",
};

Deno.test("hostile: every case at once, through parse workers, costs no good page and gives every reason", async () => {
  // index-20000 has its own test: here its 20,000 fetches would only slow the suite.
  const names = (await import("../fixtures/hostile.ts")).HOSTILE_CASES
    .map((c) => c.name)
    .filter((name) => name !== "index-20000");
  const server = await serveHostile(names);
  try {
    const tree = await sitemapTreeForHomepage(server.origin, {
      ...base,
      useKnownPaths: true,
      workers: 2,
      // Also the parse job's allowance on a worker, whose start-up on a busy machine takes a while.
      timeoutMs: 3_000,
    });
    const short = (url: string): string => liar(url, server).replaceAll(server.origin, "");
    const reasons: Record<string, string> = {};
    for (const { url, reason } of tree.stats.invalid) reasons[short(url)] = short(reason);
    assertEquals(reasons, ALL_REASONS);
    const pages = [...tree.allPages()].map((p) => p.url);
    assertEquals(pages, [
      ...GOOD_PAGES,
      "https://site.test/invalid-%EF%BF%BD%EF%BF%BD%EF%BF%BD(",
      "https://site.test/surrogate-%EF%BF%BD%EF%BF%BD%EF%BF%BD",
      "https://site.test/nul-%00-byte",
      "https://site.test/after-nul",
      ...Array.from({ length: 10 }, (_, i) => `https://site.test/chain/${i + 1}`),
    ]);
    const invalidNodes = [...tree.allSitemaps()].filter((s: AbstractSitemap) =>
      s instanceof InvalidSitemap
    );
    // robots.txt is left out of the tree; every other failure is a node.
    assertEquals(invalidNodes.length, Object.keys(ALL_REASONS).length - 1);
  } finally {
    await server.close();
  }
});
