/** Moved to _urlset_core_bytes.ts (a shim until the importers outside parse/ follow). @module */
export { readCoreUrlsetBytes as readPlainUrlset } from "./_urlset_core_bytes.ts";
