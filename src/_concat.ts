/**
 * Joining the chunks of a stream into one buffer.
 *
 * @module
 */

/**
 * The chunks' bytes, in order, in one `Uint8Array`: the only chunk itself
 * when there is one (unless `own` asks for a buffer of its own and that
 * chunk starts inside a larger one), else a new buffer.
 *
 * @param chunks The chunks.
 * @param total Their bytes in all.
 * @param own Whether the result must start its buffer (to be transferred).
 * @returns The bytes.
 */
export function concatBytes(
  chunks: readonly Uint8Array[],
  total: number,
  own = false,
): Uint8Array {
  const only = chunks.length === 1 ? chunks[0]! : null;
  if (only !== null && (!own || only.byteOffset === 0)) return only;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
