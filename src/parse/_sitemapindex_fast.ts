/** Moved to _sitemapindex_bytes.ts (a shim until the importers outside parse/ follow). @module */
export { readSitemapIndexBytes } from "./_sitemapindex_bytes.ts";
