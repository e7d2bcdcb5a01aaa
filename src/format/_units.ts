/**
 * Numbers as the text formats and the command line show them: fixed
 * separators and units, never the machine's locale, so output is the same
 * everywhere and testable.
 *
 * @module
 */

/**
 * A count with comma thousands separators: `240118` -> `240,118`.
 *
 * @param n A non-negative integer.
 * @returns The count as text.
 */
export function formatCount(n: number): string {
  const digits = String(Math.round(n));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Bytes in decimal units (1 MB = 1,000,000 bytes), one decimal above a kilobyte:
 * `512 B`, `12.3 kB`, `18.4 MB`, `1.2 GB`.
 *
 * @param bytes A byte count.
 * @returns The size as text.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  // Compare the rounded value, so 999,999 bytes reads "1.0 MB", not "1000.0 kB".
  while (Number(value.toFixed(1)) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * A duration: milliseconds below a second, seconds above: `12.3 ms`, `2.3 s`.
 *
 * @param ms Milliseconds.
 * @returns The duration as text.
 */
export function formatDuration(ms: number): string {
  return ms < 999.95 ? `${ms.toFixed(1)} ms` : formatSeconds(ms);
}

/**
 * Milliseconds as seconds with one decimal: `2345` -> `2.3 s`.
 *
 * @param ms Milliseconds.
 * @returns The duration as text.
 */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
