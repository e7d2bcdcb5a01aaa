/**
 * Child process of tests/outcome_test.ts, run without permissions: crawls
 * the homepage given as its argument and prints the outcome, its reason and
 * the requests made.
 */
import { sitemapTreeForHomepage } from "../src/sitemap_tree.ts";

const tree = await sitemapTreeForHomepage(Deno.args[0]!, { workers: 0 });
console.log(`${tree.stats.outcome} ${tree.stats.outcomeReason}\n${tree.stats.requests}`);
