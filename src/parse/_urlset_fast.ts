/** Moved to _urlset_bytes.ts (a shim until the importers outside parse/ follow). @module */
export { readUrlsetBytes } from "./_urlset_bytes.ts";
