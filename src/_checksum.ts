/**
 * The checksum that the cache entries and the tree snapshots carry.
 *
 * @module
 */

/**
 * A 32-bit hash of `bytes[from..]` (whose start is 4-byte aligned in its
 * buffer): two multiply-rotate lanes over 32-bit words (cheap next to
 * encoding: bench/README.md#helpers), then the last 1-3 bytes when the length
 * is not a multiple of 4. It catches truncation and garbling, not tampering.
 *
 * @param bytes The bytes.
 * @param from Where the checksummed part starts.
 * @returns The hash, an unsigned 32-bit integer.
 */
export function checksum(bytes: Uint8Array, from: number): number {
  const words = new Uint32Array(
    bytes.buffer,
    bytes.byteOffset + from,
    (bytes.byteLength - from) >>> 2,
  );
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x01000193 | 0;
  const n = words.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    h1 = Math.imul(h1 ^ words[i]!, 0x9e3779b1);
    h1 = (h1 << 15) | (h1 >>> 17);
    h2 = Math.imul(h2 ^ words[i + 1]!, 0x85ebca77);
    h2 = (h2 << 13) | (h2 >>> 19);
  }
  if (i < n) h1 = Math.imul(h1 ^ words[i]!, 0x9e3779b1);
  const tail = (bytes.byteLength - from) & 3;
  if (tail > 0) {
    let last = tail << 24;
    for (let k = 0, at = bytes.byteLength - tail; k < tail; k++) last ^= bytes[at + k]! << (8 * k);
    h2 = Math.imul(h2 ^ last, 0x85ebca77);
  }
  h1 = Math.imul(h1 ^ (h2 >>> 7) ^ n, 0xc2b2ae3d);
  return (h1 ^ h2) >>> 0;
}
