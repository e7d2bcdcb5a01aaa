/**
 * Test builder of {@linkcode PackedPages} from page objects: the library's
 * packer of page objects (`src/objects/_columns.ts`), which stands apart from
 * the parsers' builder, so the tree's tests do not depend on parser code.
 *
 * @module
 */
import type { PackedPages } from "../../src/parse/_result.ts";

export { packPageObjects as packPages } from "../../src/objects/_columns.ts";
export type { PackedPages };
