import assert from "node:assert/strict";
import { BatchWriter, isBrokenPipe, processIO, SerialWriter } from "../../src/cli/_io.ts";

function recorder(): { chunks: string[]; write: (chunk: Uint8Array) => Promise<void> } {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  return {
    chunks,
    write(chunk) {
      chunks.push(decoder.decode(chunk));
      return Promise.resolve();
    },
  };
}

Deno.test("BatchWriter writes in chunks of about the given size, and the rest on flush()", async () => {
  const target = recorder();
  const out = new BatchWriter(target, 10);
  for (const piece of ["abcd", "efgh", "ijkl", "mn", "op"]) await out.write(piece);
  assert.deepEqual(target.chunks, ["abcdefghijkl"]);
  await out.flush();
  await out.flush();
  assert.deepEqual(target.chunks, ["abcdefghijkl", "mnop"]);
});

Deno.test("SerialWriter keeps order and swallows a broken stderr", async () => {
  const target = recorder();
  let fail = true;
  const out = new SerialWriter({
    write(chunk) {
      if (fail) {
        fail = false;
        return Promise.reject(new Error("stderr closed"));
      }
      return target.write(chunk);
    },
  });
  out.write("lost ");
  out.write("");
  out.write("a");
  out.write("b");
  await out.flush();
  assert.deepEqual(target.chunks, ["a", "b"]);
});

Deno.test("isBrokenPipe() knows Deno's BrokenPipe and Node's EPIPE, nothing else", () => {
  assert.equal(isBrokenPipe(new Deno.errors.BrokenPipe("Broken pipe (os error 32)")), true);
  assert.equal(isBrokenPipe(Object.assign(new Error("write EPIPE"), { code: "EPIPE" })), true);
  assert.equal(isBrokenPipe(new Error("No space left on device")), false);
  assert.equal(isBrokenPipe("EPIPE"), false);
  assert.equal(isBrokenPipe(null), false);
});

Deno.test("processIO() hands every call the same writers (one error listener per stream)", () => {
  const first = processIO();
  const second = processIO();
  assert.equal(second.stdout, first.stdout);
  assert.equal(second.stderr, first.stderr);
  assert.equal(typeof first.stderrIsTerminal, "boolean");
});
