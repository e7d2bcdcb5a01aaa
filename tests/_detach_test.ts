import assert from "node:assert/strict";
import { detachBuffer } from "../src/_detach.ts";
// The runtime adapter, as the library and its parse workers load it: on Node
// 20, which has no ArrayBuffer.prototype.transfer, it sets how buffers detach.
import { runtime } from "../src/runtime/mod.ts";

Deno.test("detachBuffer frees a dead document's buffer on every runtime, Node 20 included", () => {
  const document = new Uint8Array(1 << 20).fill(60);
  const buffer = document.buffer;
  detachBuffer(document);
  assert.equal(buffer.byteLength, 0, `${runtime.name} kept the buffer`);
  assert.equal(document.byteLength, 0);
});
