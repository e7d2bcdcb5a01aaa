import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { SaxesParser } from "saxes";
import { type XmlAttribute, XmlTokenizer } from "../../src/parse/_tokenizer.ts";
import {
  generateDocument,
  mutateBytes,
  mutateWellFormed,
  randomChunks,
  serializeDocument,
} from "./_xml_gen.ts";

/** Events in a form both parsers can be brought to: text merged, attributes as triples. */
export type Event =
  | ["start", string, string, [string, string, string][]]
  | ["end", string, string]
  | ["text", string];

function isSpace(t: string): boolean {
  return /^[ \t\r\n]*$/.test(t);
}

function pushText(events: Event[], text: string): void {
  const last = events[events.length - 1];
  if (last !== undefined && last[0] === "text") last[1] += text;
  else events.push(["text", text]);
}

/** Events and the final error of one run of our tokenizer. */
export interface Outcome {
  events: Event[];
  error: string | null;
}

/**
 * Runs our tokenizer.
 *
 * @param chunks The document in pieces.
 * @param merge Merge adjacent text events (as the comparison with saxes needs).
 * @returns The events and the final error.
 */
export function ours(chunks: readonly string[], merge = true): Outcome {
  const events: Event[] = [];
  const tokenizer = new XmlTokenizer({
    onStart(ns: string, local: string, attrs: readonly XmlAttribute[]) {
      events.push(["start", ns, local, attrs.map((a) => [a.ns, a.local, a.value])]);
    },
    onEnd(ns: string, local: string) {
      events.push(["end", ns, local]);
    },
    onText(text: string) {
      if (merge) pushText(events, text);
      else events.push(["text", text]);
    },
  });
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return { events, error: tokenizer.error };
}

/**
 * The oracle: saxes with namespaces, normalised to our contract (no
 * whitespace-only text outside CDATA, no empty CDATA, nothing outside the
 * root, xmlns attributes dropped).
 *
 * @param text A well-formed document.
 * @returns Its events.
 * @throws {Error} When saxes finds the document not well-formed: a generator bug.
 */
export function saxes(text: string): Event[] {
  const events: Event[] = [];
  const parser = new SaxesParser({ xmlns: true });
  let depth = 0;
  parser.on("opentag", (tag) => {
    depth++;
    const attrs: [string, string, string][] = [];
    for (const a of Object.values(tag.attributes)) {
      if (a.uri === "http://www.w3.org/2000/xmlns/") continue;
      attrs.push([a.uri, a.local, a.value]);
    }
    events.push(["start", tag.uri, tag.local, attrs]);
  });
  parser.on("closetag", (tag) => {
    depth--;
    events.push(["end", tag.uri, tag.local]);
  });
  parser.on("text", (t) => {
    if (depth > 0 && !isSpace(t)) pushText(events, t);
  });
  parser.on("cdata", (t) => {
    if (depth > 0 && t !== "") pushText(events, t);
  });
  parser.on("error", (e) => {
    throw new Error(`saxes rejected a generated document: ${e.message}`);
  });
  parser.write(text).close();
  return events;
}

Deno.test("XmlTokenizer agrees with saxes on generated well-formed documents", () => {
  let events = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const text = serializeDocument(generateDocument(seed));
    const expected = saxes(text);
    const actual = ours(randomChunks(text, seed));
    deepStrictEqual(actual, { events: expected, error: null }, `seed ${seed}`);
    events += expected.length;
  }
  ok(events > 5000, `only ${events} events: the generator makes too little`);
});

/** Attribute order carries no meaning; reordering them is one of the mutations. */
function sortedAttributes(events: Event[]): Event[] {
  return events.map((e) => e[0] === "start" ? ["start", e[1], e[2], e[3].toSorted()] : e);
}

Deno.test("XmlTokenizer agrees with saxes after meaning-preserving mutations", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const original = serializeDocument(generateDocument(seed));
    const text = serializeDocument(mutateWellFormed(generateDocument(seed), seed * 7919));
    const expected = saxes(text);
    deepStrictEqual(
      sortedAttributes(expected),
      sortedAttributes(saxes(original)),
      `seed ${seed}: the mutation changed the meaning`,
    );
    deepStrictEqual(
      ours(randomChunks(text, seed + 1)),
      { events: expected, error: null },
      `seed ${seed}`,
    );
  }
});

/** The largest k such that `a[0..k)` equals `b[0..k)`. */
function commonPrefix(a: readonly Event[], b: readonly Event[]): number {
  let k = 0;
  while (k < a.length && k < b.length && JSON.stringify(a[k]) === JSON.stringify(b[k])) k++;
  return k;
}

/**
 * Checks one (usually broken) input: tokenizing terminates without throwing,
 * any chunking gives the same outcome, and every cut gives a prefix of the
 * uncut events.
 *
 * @param text The input.
 * @param seed Selects the chunking and the cuts.
 * @returns A description of the first failure, or null.
 */
export function checkBrokenInput(text: string, seed: number): string | null {
  const whole = ours([text], false);
  const chunked = ours(randomChunks(text, seed), false);
  if (JSON.stringify(chunked) !== JSON.stringify(whole)) return "chunking changed the events";
  for (let cuts = 0; cuts < 4; cuts++) {
    const k = (seed * 31 + cuts * 977) % (text.length + 1);
    const cut = ours(randomChunks(text.slice(0, k), seed + cuts), false);
    // Events come from complete tokens only, so a cut can only lose events at the end.
    if (commonPrefix(cut.events, whole.events) !== cut.events.length) {
      return `cut at ${k} is not a prefix`;
    }
    if (cut.error !== null && cut.error !== whole.error) return `cut at ${k} failed: ${cut.error}`;
  }
  return null;
}

Deno.test("XmlTokenizer survives byte-level mutations with consistent events", () => {
  let errors = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const text = mutateBytes(serializeDocument(generateDocument(seed)), seed);
    const { error } = ours([text]);
    if (error !== null) errors++;
    equal(checkBrokenInput(text, seed), null, `seed ${seed}: ${JSON.stringify(text)}`);
  }
  // The mutator inserts DOCTYPE/ENTITY now and then: some inputs must have been refused.
  ok(errors > 0);
});
