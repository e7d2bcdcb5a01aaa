import { assert, assertEquals } from "./_assert.ts";
import {
  compareSitemapTrees,
  PAGE_CHANGE_FIELDS,
  sitemapChangeLine,
  type SitemapChanges,
  type SitemapTreeChange,
} from "../src/changes.ts";
import { decodeSitemapTree, encodeSitemapTree } from "../src/snapshot.ts";
import { sitemapFromString } from "../src/sitemap_from_string.ts";
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import type { SitemapTreeOptions } from "../src/options.ts";
import { sitemapTreeFromJSON } from "../src/objects/from_json.ts";
import {
  type AbstractSitemap,
  IndexWebsiteSitemap,
  IndexXMLSitemap,
  InvalidSitemap,
  PagesXMLSitemap,
} from "../src/objects/sitemap.ts";
import { hash } from "../fixtures/generate.ts";
import { serveVersion, V1_TO_V2_NDJSON } from "../fixtures/changing_site.ts";
import { FixtureSite, withSite } from "./_tree_helpers.ts";

const CRAWL: SitemapTreeOptions = { workers: 0, useKnownPaths: false, retries: 0 };
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** Each change's NDJSON line, with the fixture's origin taken out. */
function lines(changes: Iterable<SitemapTreeChange>, origin = ""): string[] {
  return [...changes].map((c) => {
    const line = JSON.stringify(sitemapChangeLine(c));
    return origin === "" ? line : line.replaceAll(origin, "");
  });
}

/** A urlset of `[path, lastmod?, extra XML?]` on example.com. */
function urlset(
  url: string,
  entries: readonly (readonly [string, (string | undefined)?, (string | undefined)?])[],
) {
  const body = entries.map(([path, lastmod, extra]) =>
    `<url><loc>https://example.com${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}${
      extra ?? ""
    }</url>`
  ).join("");
  return sitemapFromString(
    `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${body}</urlset>`,
    { url: `https://example.com${url}` },
  );
}

function site(children: AbstractSitemap[]): IndexWebsiteSitemap {
  return new IndexWebsiteSitemap("https://example.com/", children);
}

/** What the counts say must be what iterating yields. */
function assertCountsMatch(changes: SitemapChanges): void {
  const all = [...changes];
  assertEquals(all.length, changes.size);
  for (const kind of ["pages", "sitemaps"] as const) {
    const of = all.filter((c) => c.kind === (kind === "pages" ? "page" : "sitemap"));
    for (const change of ["added", "removed", "changed", "unavailable"] as const) {
      assertEquals(
        of.filter((c) => c.change === change).length,
        changes.counts[kind][change],
        `${kind} ${change}`,
      );
    }
  }
  for (const field of PAGE_CHANGE_FIELDS) {
    const n = all.filter((c) => c.kind === "page" && c.fields.includes(field)).length;
    assertEquals(n, changes.counts.fields[field], field);
  }
  assertEquals([...changes.pages()].length + [...changes.sitemaps()].length, changes.size);
}

Deno.test("compareSitemapTrees() tells v1 from v2 of a site: lastmod, image, added, moved, urlset added and removed, a 503 urlset unavailable", async () => {
  await withSite(serveVersion(new FixtureSite(), "v1"), async (server, fixture) => {
    const v1 = await sitemapTreeForHomepage(server.origin, CRAWL);
    serveVersion(fixture, "v2");
    const v2 = await sitemapTreeForHomepage(server.origin, CRAWL);
    const changes = compareSitemapTrees(v1, v2);
    assertEquals(lines(changes, server.origin), V1_TO_V2_NDJSON);
    assertEquals(JSON.parse(JSON.stringify(changes.counts)), {
      pages: { added: 2, removed: 2, changed: 3, unavailable: 2, unchanged: 4 },
      sitemaps: { added: 1, removed: 1, changed: 1, unavailable: 0, unchanged: 5 },
      fields: {
        lastModified: 1,
        changeFrequency: 0,
        priority: 0,
        images: 1,
        videos: 0,
        alternates: 0,
        newsStory: 0,
        sitemap: 1,
      },
    });
    assertEquals(changes.unreachable, null);
    assertCountsMatch(changes);
    // A snapshot of v1 compares the same as v1 itself.
    const fromSnapshot = compareSitemapTrees(decodeSitemapTree(encodeSitemapTree(v1)), v2);
    assertEquals(lines(fromSnapshot), lines(changes));
    // And back: the 503 urlset recovers, its pages come back as added.
    assertEquals(lines(compareSitemapTrees(v2, v1).sitemaps(), server.origin), [
      '{"change":"added","sitemap":"/d.xml","type":"urlset"}',
      '{"change":"changed","sitemap":"/e.xml","fields":["type","reason"],"before":{"type":"invalid","reason":"Unable to fetch sitemap from /e.xml: 503 Service Unavailable"},"after":{"type":"urlset","reason":null}}',
      '{"change":"removed","sitemap":"/f.xml","type":"urlset"}',
    ]);
    assertEquals(compareSitemapTrees(v2, v2).size, 0);
  });
});

Deno.test("compareSitemapTrees() against a site that cannot be reached: every page and sitemap unavailable, none removed", async () => {
  const fixture = serveVersion(new FixtureSite(), "v2");
  const server = await fixture.listen();
  const v2 = await sitemapTreeForHomepage(server.origin, CRAWL);
  await server.close();
  const down = await sitemapTreeForHomepage(server.origin, CRAWL);
  assertEquals(down.stats.outcome, "unreachable");
  const changes = compareSitemapTrees(v2, down);
  assertEquals(changes.unreachable, `Site unreachable: ${down.stats.outcomeReason}`);
  assertEquals(changes.counts.pages, {
    added: 0,
    removed: 0,
    changed: 0,
    unavailable: 9,
    unchanged: 0,
  });
  assertEquals(changes.counts.sitemaps, {
    added: 0,
    removed: 0,
    changed: 0,
    unavailable: 7,
    unchanged: 0,
  });
  assertCountsMatch(changes);
  // The failed robots.txt's reason (it names the network error) on every change.
  assertEquals(
    new Set([...changes].map((c) => c.reason)),
    new Set([down.stats.invalid[0]?.reason]),
  );
  assert(down.stats.invalid[0]?.url.endsWith("/robots.txt"));
});

Deno.test("compareSitemapTrees(): a robots.txt that fails is left out of the tree, yet its sitemaps and pages are unavailable, not removed", async () => {
  await withSite(serveVersion(new FixtureSite(), "v1"), async (server, fixture) => {
    const v1 = await sitemapTreeForHomepage(server.origin, CRAWL);
    fixture.status("/robots.txt", 503);
    const after = await sitemapTreeForHomepage(server.origin, CRAWL);
    assertEquals(after.subSitemaps.length, 0);
    const changes = compareSitemapTrees(v1, after);
    assertEquals(changes.counts.pages.removed, 0);
    assertEquals(changes.counts.pages.unavailable, 11);
    assertEquals(changes.counts.sitemaps.unavailable, 7);
    assertEquals(changes.unreachable, null);
    assertEquals([...changes.sitemaps()][0]?.reason, after.stats.invalid[0]?.reason);
  });
});

Deno.test("compareSitemapTrees(): a well-known-path sitemap answering 503 is unavailable, answering 404 or an HTML page removed", async () => {
  const doc = `<urlset ${NS}><url><loc>https://example.com/a</loc></url></urlset>`;
  const fixture = new FixtureSite().status("/robots.txt", 404).file("/sitemap.xml", doc);
  await withSite(fixture, async (server) => {
    const options = { ...CRAWL, useKnownPaths: true, useFeeds: false };
    const before = await sitemapTreeForHomepage(server.origin, options);
    assertEquals(before.stats.pagesKept, 1);
    const after = async () =>
      compareSitemapTrees(before, await sitemapTreeForHomepage(server.origin, options));
    fixture.status("/sitemap.xml", 503);
    assertEquals(lines(await after(), server.origin), [
      '{"change":"unavailable","sitemap":"/sitemap.xml","reason":"Unable to fetch sitemap from URL: HTTP 503"}',
      '{"change":"unavailable","page":"https://example.com/a","sitemap":"/sitemap.xml","reason":"Unable to fetch sitemap from URL: HTTP 503"}',
    ]);
    for (
      const gone of [
        () => fixture.status("/sitemap.xml", 404),
        () =>
          fixture.file("/sitemap.xml", "<html><body>Not here</body></html>", {
            contentType: "text/html",
          }),
      ]
    ) {
      gone();
      assertEquals(lines(await after(), server.origin), [
        '{"change":"removed","sitemap":"/sitemap.xml","type":"urlset"}',
        '{"change":"removed","page":"https://example.com/a","sitemap":"/sitemap.xml"}',
      ]);
    }
  });
});

Deno.test("compareSitemapTrees(): an index that becomes invalid makes the sitemaps and pages below it unavailable", () => {
  const a = urlset("/a.xml", [["/1"], ["/2"]]);
  const before = site([new IndexXMLSitemap("https://example.com/index.xml", [a])]);
  const after = site([
    new InvalidSitemap("https://example.com/index.xml", "Sitemap expands past 52428800 bytes"),
  ]);
  assertEquals(lines(compareSitemapTrees(before, after)), [
    '{"change":"changed","sitemap":"https://example.com/index.xml","fields":["type","reason"],"before":{"type":"index","reason":null},"after":{"type":"invalid","reason":"Sitemap expands past 52428800 bytes"}}',
    '{"change":"unavailable","sitemap":"https://example.com/a.xml","reason":"Sitemap expands past 52428800 bytes"}',
    '{"change":"unavailable","page":"https://example.com/1","sitemap":"https://example.com/a.xml","reason":"Sitemap expands past 52428800 bytes"}',
    '{"change":"unavailable","page":"https://example.com/2","sitemap":"https://example.com/a.xml","reason":"Sitemap expands past 52428800 bytes"}',
  ]);
  // The index is there and valid but no longer names the urlset: removed.
  const dropped = site([new IndexXMLSitemap("https://example.com/index.xml", [])]);
  assertEquals(compareSitemapTrees(before, dropped).counts.pages.removed, 2);
});

Deno.test("compareSitemapTrees() counts a page listed twice once, as its first listing in tree order", () => {
  const before = site([
    urlset("/a.xml", [["/x", "2024-01-01"], ["/y"]]),
    urlset("/b.xml", [["/x", "2023-01-01"], ["/y", "2020-01-01"], ["/gone"], ["/gone"]]),
  ]);
  // A second listing's own changes do not count.
  const same = site([
    urlset("/a.xml", [["/x", "2024-01-01"], ["/y"]]),
    urlset("/b.xml", [["/x", "2021-01-01"], ["/y"]]),
  ]);
  const changes = compareSitemapTrees(before, same);
  assertEquals(lines(changes), [
    '{"change":"removed","page":"https://example.com/gone","sitemap":"https://example.com/b.xml"}',
  ]);
  assertEquals(changes.counts.pages.unchanged, 2);
  // When the first listing goes, the next one counts: another sitemap, another lastmod.
  const moved = site([urlset("/a.xml", [["/y"]]), urlset("/b.xml", [["/x", "2023-01-01"]])]);
  assertEquals(lines(compareSitemapTrees(before, moved).pages()), [
    '{"change":"changed","page":"https://example.com/x","sitemap":"https://example.com/b.xml","fields":["lastModified","sitemap"],"before":{"lastModified":"2024-01-01T00:00:00.000Z","sitemap":"https://example.com/a.xml"},"after":{"lastModified":"2023-01-01T00:00:00.000Z","sitemap":"https://example.com/b.xml"}}',
    '{"change":"removed","page":"https://example.com/gone","sitemap":"https://example.com/b.xml"}',
  ]);
  // Added twice counts once.
  const twice = site([
    ...before.subSitemaps,
    urlset("/c.xml", [["/new"], ["/new"]]),
    urlset("/d.xml", [["/new"]]),
  ]);
  const added = compareSitemapTrees(before, twice);
  assertEquals(added.counts.pages.added, 1);
  assertCountsMatch(added);
});

Deno.test("compareSitemapTrees() names each changed field: priority, change frequency, videos, alternates, news", () => {
  const video = (title: string) =>
    `<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>${title}</video:title><video:description>d</video:description></video:video>`;
  const news = (title: string) =>
    `<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>${title}</news:title></news:news>`;
  const link = (lang: string) =>
    `<xhtml:link rel="alternate" hreflang="${lang}" href="https://example.com/${lang}"/>`;
  const before = urlset("/s.xml", [
    ["/p", undefined, "<priority>0.3</priority>"],
    ["/f", undefined, "<changefreq>daily</changefreq>"],
    ["/v", undefined, video("One")],
    ["/a", undefined, link("de") + link("fr")],
    ["/n", undefined, news("Old")],
    ["/same", undefined, video("Same") + link("de")],
  ]);
  const after = urlset("/s.xml", [
    ["/p", undefined, "<priority>0.4</priority>"],
    ["/f", undefined, "<changefreq>weekly</changefreq>"],
    ["/v", undefined, video("Two")],
    ["/a", undefined, link("de")],
    ["/n", undefined, news("New")],
    ["/same", undefined, video("Same") + link("de")],
  ]);
  const changes = compareSitemapTrees(before, after);
  assertEquals([...changes].map((c) => [c.kind === "page" ? c.page : "", c.fields]), [
    ["https://example.com/p", ["priority"]],
    ["https://example.com/f", ["changeFrequency"]],
    ["https://example.com/v", ["videos"]],
    ["https://example.com/a", ["alternates"]],
    ["https://example.com/n", ["newsStory"]],
  ]);
  const [priority, frequency] = changes;
  assertEquals(sitemapChangeLine(priority!), {
    change: "changed",
    page: "https://example.com/p",
    sitemap: "https://example.com/s.xml",
    fields: ["priority"],
    before: { priority: 0.3 },
    after: { priority: 0.4 },
  });
  assertEquals(frequency?.kind === "page" && frequency.before?.changeFrequency, "daily");
});

Deno.test("compareSitemapTrees() compares extensions by value across sitemaps whose packed forms differ", () => {
  const image = (n: number) =>
    `<image:image><image:loc>https://cdn.example.com/img/${n}.jpg</image:loc><image:caption>Photo ${n}</image:caption></image:image>`;
  // The same page with the same image, among different neighbours: another dictionary.
  const before = site([
    urlset("/a.xml", [["/x", undefined, image(1)], ["/y", undefined, image(2)]]),
  ]);
  const after = site([
    urlset("/a.xml", [["/y", undefined, image(2)]]),
    urlset("/b.xml", [["/z", undefined, image(7) + image(8)], ["/x", undefined, image(1)]]),
  ]);
  assertEquals(lines(compareSitemapTrees(before, after).pages()), [
    '{"change":"added","page":"https://example.com/z","sitemap":"https://example.com/b.xml"}',
    '{"change":"changed","page":"https://example.com/x","sitemap":"https://example.com/b.xml","fields":["sitemap"],"before":{"sitemap":"https://example.com/a.xml"},"after":{"sitemap":"https://example.com/b.xml"}}',
  ]);
  // Trees of page objects (read from JSON) compare as their packed originals do.
  const json = (t: AbstractSitemap) => sitemapTreeFromJSON(JSON.parse(JSON.stringify(t)));
  assertEquals(
    lines(compareSitemapTrees(json(before), json(after))),
    lines(compareSitemapTrees(before, after)),
  );
});

Deno.test("compareSitemapTrees() builds fresh change objects on each iteration, with the pages before and after", () => {
  const before = urlset("/s.xml", [["/a", "2024-01-01"], ["/b"]]);
  const after = urlset("/s.xml", [["/a", "2024-03-01"], ["/c"]]);
  const changes = compareSitemapTrees(before, after);
  const first = [...changes];
  const second = [...changes];
  assert(first[0] !== second[0]);
  assertEquals(
    first.map((c) => c.kind === "page" && c.before?.url),
    second.map((c) => c.kind === "page" && c.before?.url),
  );
  const [changed, added, removed] = first;
  assert(changed?.kind === "page" && added?.kind === "page" && removed?.kind === "page");
  assertEquals(changed.after?.lastModified?.toISOString(), "2024-03-01T00:00:00.000Z");
  assertEquals(changed.before?.lastModified?.toISOString(), "2024-01-01T00:00:00.000Z");
  assertEquals([added.change, added.before, added.after?.url], [
    "added",
    null,
    "https://example.com/c",
  ]);
  assertEquals([removed.change, removed.after, removed.before?.url], [
    "removed",
    null,
    "https://example.com/b",
  ]);
  assert(Object.isFrozen(changed) && Object.isFrozen(changes.counts.pages));
});

Deno.test("compareSitemapTrees() and snapshots read only `count` pages of columns whose arrays are longer", () => {
  const text = "https://example.com/ahttps://example.com/bhttps://example.com/ignored";
  const columns = (lastmod: number) => ({
    count: 2,
    urlBytes: new TextEncoder().encode(text),
    urlEnds: new Uint32Array([21, 42, 69]),
    lastModified: new Float64Array([lastmod, NaN, 0]),
    priority: new Float64Array([0.5, 0.5, 0.5]),
    changeFrequency: new Uint8Array(3),
    extras: null,
  });
  const url = "https://example.com/s.xml";
  const before = new PagesXMLSitemap(url, columns(0));
  const after = new PagesXMLSitemap(url, columns(86_400_000));
  assertEquals([...compareSitemapTrees(before, after)].map((c) => c.kind === "page" && c.page), [
    "https://example.com/a",
  ]);
  assertEquals(compareSitemapTrees(before, after).counts.pages.unchanged, 1);
  const copy = decodeSitemapTree(encodeSitemapTree(before));
  assertEquals(copy.toJSON(), before.toJSON());
  assertEquals([...copy.allPages()].length, 2);
});

/** The comparison done the slow, obvious way over `toJSON()`: page changes as `change page fields`. */
function naive(before: AbstractSitemap, after: AbstractSitemap): string[] {
  const listings = (tree: AbstractSitemap) => {
    const map = new Map<string, { sitemap: string; json: string }>();
    const nodes = tree.type === "website" ? [...tree.allSitemaps()] : [tree, ...tree.allSitemaps()];
    for (const node of nodes) {
      for (const page of node.allPages()) {
        if (!map.has(page.url)) {
          map.set(page.url, { sitemap: node.url, json: JSON.stringify(page.toJSON()) });
        }
      }
    }
    return map;
  };
  const b = listings(before);
  const a = listings(after);
  const out: string[] = [];
  for (const [url, x] of a) {
    const y = b.get(url);
    if (y === undefined) out.push(`added ${url}`);
    else if (x.json !== y.json || x.sitemap !== y.sitemap) out.push(`changed ${url}`);
  }
  for (const url of b.keys()) if (!a.has(url)) out.push(`removed ${url}`);
  return out.sort();
}

Deno.test("compareSitemapTrees() agrees with a naive comparison over generated trees with duplicates", () => {
  const make = (version: number) => {
    const children: AbstractSitemap[] = [];
    for (let k = 0; k < 6; k++) {
      const entries: [string, string?][] = [];
      for (let i = 0; i < 400; i++) {
        const n = k * 300 + i; // overlapping ranges: duplicates across sitemaps
        const h = hash(version, n, 0) % 100;
        if (version === 2 && h < 2) continue; // removed
        const day = version === 2 && h >= 95 ? 20 : n % 28 + 1;
        entries.push([`/p/${n}`, `2024-02-${String(day).padStart(2, "0")}`]);
        if (version === 2 && h === 50) entries.push([`/new/${n}`]);
      }
      children.push(urlset(`/s${k}.xml`, entries));
    }
    return site(children);
  };
  const before = make(1);
  const after = make(2);
  const changes = compareSitemapTrees(before, after);
  assertCountsMatch(changes);
  const ours = [...changes.pages()].map((c) => `${c.change} ${c.page}`).sort();
  assertEquals(ours, naive(before, after));
  assert(changes.counts.pages.added > 5 && changes.counts.pages.removed > 5);
  assert(changes.counts.pages.changed > 50);
});
