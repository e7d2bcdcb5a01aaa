/**
 * What a terminal shows for a stream of bytes, for the few control sequences
 * the command line writes: `\r`, `\n`, and erase-line `ESC [ 2 K`. Anything
 * else unexpected fails loudly rather than being guessed at.
 *
 * @module
 */

/**
 * Renders `text` as a terminal would, without scrolling or wrapping.
 *
 * @param text Raw output, control sequences included.
 * @returns The screen's lines, the cursor's (maybe empty) line last.
 */
export function screen(text: string): string[] {
  const rows: string[] = [""];
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const row = rows.length - 1;
    if (ch === "\r") {
      col = 0;
    } else if (ch === "\n") {
      rows.push("");
      col = 0;
    } else if (ch === "\x1b") {
      if (text.startsWith("\x1b[2K", i)) {
        rows[row] = "";
        i += 3;
      } else if (text.startsWith("\x1b[K", i) || text.startsWith("\x1b[0K", i)) {
        rows[row] = rows[row]!.slice(0, col);
        i += text[i + 2] === "K" ? 2 : 3;
      } else {
        throw new Error(
          `Unexpected escape sequence at ${i}: ${JSON.stringify(text.slice(i, i + 8))}`,
        );
      }
    } else {
      const line = rows[row]!.padEnd(col, " ");
      rows[row] = line.slice(0, col) + ch + line.slice(col + 1);
      col++;
    }
  }
  return rows;
}
