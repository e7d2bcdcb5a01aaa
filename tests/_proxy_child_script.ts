/**
 * Child process of tests/proxy_test.ts: crawls http://site.test/ with the
 * environment it was given (HTTP_PROXY …) and prints the tree's outline, then
 * the outcome.
 */
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";
import { outline } from "./_tree_helpers.ts";

const tree = await sitemapTreeForHomepage("http://site.test/", {
  workers: 0,
  useKnownPaths: false,
  useFeeds: false,
});
console.log(
  [...outline(tree, "http://site.test"), tree.stats.outcomeReason ?? tree.stats.outcome].join("\n"),
);
