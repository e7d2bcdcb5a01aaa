import assert from "node:assert/strict";
import { CHECKPOINT_BYTES } from "../../src/_checkpoint.ts";
import { sitemapFromString } from "../../src/sitemap_from_string.ts";
import { FULL_WARM_UP, LIGHT_WARM_UP, warmUpDocument } from "../../src/workers/_warm_up.ts";

function pagesOf(bytes: Uint8Array) {
  const node = sitemapFromString(bytes, { url: "https://warm.example/sitemap.xml" });
  assert.equal(node.constructor.name, "PagesXMLSitemap");
  return [...node.allPages()];
}

Deno.test("warmUpDocument() rich slices keep every page and reach every extension block", () => {
  const pages = pagesOf(warmUpDocument({ urls: 100, rich: true }));
  // No URL form of the warm-up is dropped or merged as a duplicate.
  assert.equal(new Set(pages.map((page) => page.url)).size, 100);
  const count = (has: (page: typeof pages[number]) => boolean) => pages.filter(has).length;
  assert.deepEqual(
    {
      images: count((page) => page.images.length > 0),
      alternates: count((page) => page.alternates.length > 0),
      news: count((page) => page.newsStory !== null),
      videos: count((page) => page.videos.length > 0),
      cdataCaptions: count((page) => page.images.some((i) => i.caption?.includes(" & ") ?? false)),
      normalised: count((page) => page.url.startsWith("https://warm.example/a/c%20")),
    },
    { images: 50, alternates: 25, news: 5, videos: 2, cdataCaptions: 16, normalised: 6 },
  );
});

Deno.test("warmUpDocument() plain slices are loc and lastmod only", () => {
  const pages = pagesOf(warmUpDocument({ urls: 30, rich: false }));
  assert.equal(pages.length, 30);
  assert.ok(pages.every((page) => page.images.length === 0 && page.lastModified !== null));
});

Deno.test("every warm-up runs both shapes, and the full one a slice of each past the 1 MiB checkpoint", () => {
  for (const slices of [LIGHT_WARM_UP, FULL_WARM_UP]) {
    assert.deepEqual([slices[0]!.rich, slices[1]!.rich], [false, true]);
  }
  const past = (rich: boolean) =>
    FULL_WARM_UP.some((slice) =>
      slice.rich === rich && warmUpDocument(slice).byteLength > CHECKPOINT_BYTES
    );
  assert.deepEqual([past(false), past(true)], [true, true]);
});
