/**
 * Rows of cells as aligned text columns, two spaces apart: what the
 * `summary` and `sections` formats print.
 *
 * @module
 */

/**
 * Writes `rows` (the first is the header) as lines, each column as wide as
 * its widest cell; the last column is left as it is.
 *
 * @param rows The cells, row by row, all rows as long.
 * @param right The columns aligned to the right (numbers).
 * @returns Lines with their `\n`.
 */
export function* alignedRows(
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number>,
): Generator<string, void, undefined> {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) {
    yield row.map((cell, c) =>
      c === row.length - 1
        ? cell
        : right.has(c)
        ? cell.padStart(widths[c]!)
        : cell.padEnd(widths[c]!)
    ).join("  ") + "\n";
  }
}
