/**
 * Prints the throughput (MB/s) of our tokenizer, saxes and htmlparser2 on the
 * same 50,000-URL urlset fed in 1 MiB chunks, median of several runs, by wall
 * time and by CPU time (the process's own, so other load on the machine
 * distorts it less).
 *
 * Run: `deno run -A bench/tokenizer_throughput.ts [--urls 50000] [--runs 15]`
 * (or `bun bench/tokenizer_throughput.ts`).
 *
 * @module
 */
import process from "node:process";
import { Parser } from "htmlparser2";
import { SaxesParser } from "saxes";
import { XmlTokenizer } from "../src/parse/_tokenizer.ts";
import { urlsetDocument } from "../tests/parse/_xml_gen.ts";

/** What every contender's handler counts, so no work can be optimised away. */
export interface Counts {
  elements: number;
  textLength: number;
}

/**
 * Splits `text` the way the parse pipeline does: its UTF-8 bytes decoded
 * `size` bytes at a time by a streaming `TextDecoder`. (Slicing the string
 * instead would hand the tokenizers substring views, which read slower than
 * the flat strings a decoder returns.)
 *
 * @param text The document.
 * @param size Bytes per chunk.
 * @returns The decoded chunks, in order.
 */
export function chunksOf(text: string, size = 1024 * 1024): string[] {
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    chunks.push(decoder.decode(bytes.subarray(at, at + size), { stream: true }));
  }
  return chunks;
}

/**
 * Tokenizes with ours.
 *
 * @param chunks The document in pieces.
 * @returns What the handler counted.
 */
export function runOurs(chunks: readonly string[]): Counts {
  const counts = { elements: 0, textLength: 0 };
  const tokenizer = new XmlTokenizer({
    onStart() {
      counts.elements++;
    },
    onEnd() {},
    onText(text: string) {
      counts.textLength += text.length;
    },
  });
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return counts;
}

/**
 * Tokenizes with saxes, namespace-aware like ours.
 *
 * @param chunks The document in pieces.
 * @returns What the handler counted.
 */
export function runSaxes(chunks: readonly string[]): Counts {
  const counts = { elements: 0, textLength: 0 };
  const parser = new SaxesParser({ xmlns: true });
  parser.on("opentag", () => {
    counts.elements++;
  });
  parser.on("text", (text) => {
    counts.textLength += text.length;
  });
  parser.on("cdata", (text) => {
    counts.textLength += text.length;
  });
  for (const chunk of chunks) parser.write(chunk);
  parser.close();
  return counts;
}

/**
 * Tokenizes with htmlparser2 in XML mode (no namespace resolution).
 *
 * @param chunks The document in pieces.
 * @returns What the handler counted.
 */
export function runHtmlparser2(chunks: readonly string[]): Counts {
  const counts = { elements: 0, textLength: 0 };
  const parser = new Parser({
    onopentag() {
      counts.elements++;
    },
    ontext(text) {
      counts.textLength += text.length;
    },
  }, { xmlMode: true });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return counts;
}

/** CPU time of this process, which a busy machine inflates less than wall time. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function argument(name: string, fallback: number): number {
  // process.argv rather than Deno.args, so Bun runs this too.
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
}

if (import.meta.main) {
  const urls = argument("--urls", 50_000);
  const runs = argument("--runs", 15);
  const text = urlsetDocument(urls);
  const megabytes = new TextEncoder().encode(text).length / 1e6;
  const chunks = chunksOf(text);
  console.log(
    `${urls} URLs, ${megabytes.toFixed(2)} MB, ${chunks.length} chunks of 1 MiB, median of ${runs}`,
  );
  const contenders: [string, (chunks: readonly string[]) => Counts][] = [
    ["ours", runOurs],
    ["saxes", runSaxes],
    ["htmlparser2", runHtmlparser2],
  ];
  for (const [name, run] of contenders) {
    const wall: number[] = [];
    const cpu: number[] = [];
    let counts: Counts = { elements: 0, textLength: 0 };
    for (let k = 0; k < runs + 2; k++) {
      const startCpu = cpuMs();
      const start = performance.now();
      counts = run(chunks);
      // The first two runs warm the JIT up.
      if (k < 2) continue;
      wall.push(performance.now() - start);
      cpu.push(cpuMs() - startCpu);
    }
    const mbps = (ms: number) => (megabytes / (ms / 1000)).toFixed(1).padStart(6);
    console.log(
      `${name.padEnd(12)} ${mbps(median(wall))} MB/s wall (${median(wall).toFixed(1)} ms)  ` +
        `${mbps(median(cpu))} MB/s cpu  elements=${counts.elements} text=${counts.textLength}`,
    );
  }
}
