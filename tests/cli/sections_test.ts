/** `ls -f sections [--depth N]`: the content inventory on the command line. */
import assert from "node:assert/strict";
import { FixtureSite, sitemapIndex, withSite } from "../_tree_helpers.ts";
import { run } from "./_run.ts";

const SKIP = ["-k", "--no-feeds"];

/** A urlset of pages on the site's own host: relative `<loc>`s resolve against the sitemap. */
function local(paths: readonly string[], lastmods: readonly string[] = []): string {
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
    paths.map((p, i) =>
      `<url><loc>${p}</loc>${lastmods[i] ? `<lastmod>${lastmods[i]}</lastmod>` : ""}</url>`
    ).join("")
  }</urlset>`;
}

Deno.test("ls -f sections prints pages per path prefix, --depth deep, -u as paths", async () => {
  const site = new FixtureSite()
    .file("/robots.txt", "Sitemap: /index.xml\n")
    .file("/index.xml", sitemapIndex(["/docs.xml", "/blog.xml"]))
    .file(
      "/docs.xml",
      local(["/docs/api/a", "/docs/api/b", "/docs/guide/c", "/"], [
        "2024-01-05",
        "2024-06-30",
        "",
        "2025-02-01",
      ]),
    )
    .file("/blog.xml", local(["/blog/2024/x", "/docs/api/a"], ["2024-03-03"]));
  await withSite(site, async (s) => {
    const one = await run(["ls", s.url("/"), ...SKIP, "-f", "sections"]);
    // Full URLs: the columns' width follows the port's, so spaces are compared collapsed.
    assert.deepEqual(one.stdout.replaceAll(s.origin, "O").replace(/ +/g, " ").split("\n"), [
      "SECTION PAGES SHARE OLDEST NEWEST UNDATED SITEMAPS",
      "O/docs 3 60.0% 2024-01-05 2024-06-30 1 O/docs.xml O/blog.xml",
      "O/ 1 20.0% 2025-02-01 2025-02-01 0 O/docs.xml",
      "O/blog 1 20.0% 2024-03-03 2024-03-03 0 O/blog.xml",
      "",
      "3 sections (1 path segment deep), 5 distinct pages",
      "",
    ]);
    const two = await run(["ls", s.url("/"), ...SKIP, "-f", "sections", "--depth", "2", "-u"]);
    assert.deepEqual(two, {
      status: 0,
      stdout: [
        "SECTION      PAGES  SHARE  OLDEST      NEWEST      UNDATED  SITEMAPS",
        "/docs/api        2  40.0%  2024-01-05  2024-06-30        0  /docs.xml /blog.xml",
        "/docs/guide      1  20.0%  -           -                 1  /docs.xml",
        "/                1  20.0%  2025-02-01  2025-02-01        0  /docs.xml",
        "/blog/2024       1  20.0%  2024-03-03  2024-03-03        0  /blog.xml",
        "",
        "4 sections (2 path segments deep), 5 distinct pages",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
