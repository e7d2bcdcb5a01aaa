/**
 * What the benchmarks that crawl the seed site share: the site's server in a
 * process of its own, and medians with their range.
 *
 * @module
 */
import type { E2eSites } from "./_e2e_server.ts";

/** The seed benchmark's server (`_e2e_server.ts --no-scale`), listening. */
export interface E2eServer {
  readonly sites: E2eSites;
  /** Stops the server (it serves until its stdin closes). */
  close(): Promise<void>;
}

/**
 * Starts `bench/_e2e_server.ts --no-scale` and waits for its first stdout
 * line: the sites, once they listen.
 *
 * @returns The sites and how to stop them.
 */
export async function startE2eServer(): Promise<E2eServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./_e2e_server.ts", import.meta.url).pathname, "--no-scale"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let text = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const end = text.indexOf("\n");
    if (end < 0) continue;
    return {
      sites: JSON.parse(text.slice(0, end)) as E2eSites,
      close: async () => {
        await child.stdin.close();
        await child.status;
      },
    };
  }
  throw new Error("The benchmark server exited before listening");
}

/** The median of `values` (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `median (min–max)`, each written by `unit`. */
export function figure(values: readonly number[], unit: (x: number) => string): string {
  return `${unit(median(values))} (${unit(Math.min(...values))}–${unit(Math.max(...values))})`;
}

/** Milliseconds, whole. */
export const ms = (x: number): string => `${x.toFixed(0)} ms`;
/** A ratio, two decimals. */
export const ratio = (x: number): string => `${x.toFixed(2)}×`;
