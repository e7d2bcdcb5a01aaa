/**
 * The documents the code points to: a comment that cites
 * `bench/README.md#…`, `docs/design.md#…` or `ARCHITECTURE.md#…` names a
 * heading that exists there, and a relative link in those documents names a
 * file that exists.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { filesUnder, ROOT } from "./_repo_files.ts";

const DOCUMENTS = ["bench/README.md", "docs/design.md", "ARCHITECTURE.md"];

/** A heading's anchor as GitHub and JSR make it: lower case, punctuation dropped, spaces as `-`. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

/** The anchors of a markdown file's headings. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** The sources whose comments may cite the documents. */
function sources(): string[] {
  return [
    "mod.ts",
    "parse.ts",
    "cli.ts",
    "bullmq.ts",
    ...["src", "bench", "tests", "fixtures"].flatMap((f) => filesUnder(f)),
  ];
}

Deno.test("every bench/README.md, docs/design.md or ARCHITECTURE.md anchor a source cites is a heading there", () => {
  const anchors = new Map(DOCUMENTS.map((d) => [d, anchorsOf(d)]));
  const broken: string[] = [];
  let cited = 0;
  const citation = /\b(bench\/README\.md|docs\/design\.md|ARCHITECTURE\.md)#([\w-]+)/g;
  for (const file of [...sources(), ...DOCUMENTS]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const [, document, anchor] of text.matchAll(citation)) {
      cited++;
      if (!anchors.get(document!)!.has(anchor!)) broken.push(`${file}: ${document}#${anchor}`);
    }
  }
  assert.deepStrictEqual(broken, []);
  assert.ok(cited >= 20, `only ${cited} citations found`);
});

Deno.test("the relative links of ARCHITECTURE.md, docs/ and bench/README.md name files and headings that exist", () => {
  const broken: string[] = [];
  for (const file of [...DOCUMENTS, ...filesUnder("docs", ".md")]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path = "", anchor] = target!.split("#");
      const resolved = path === "" ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) broken.push(`${file}: ${target}`);
      else if (
        anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)
      ) {
        broken.push(`${file}: ${target}`);
      }
    }
  }
  assert.deepStrictEqual(broken, []);
});

Deno.test("every file ARCHITECTURE.md names exists", () => {
  const files = [
    ...["mod.ts", "parse.ts", "cli.ts", "bullmq.ts"],
    ...["src", "tests", "bench", "bin", "fixtures"].flatMap((f) => filesUnder(f)),
  ];
  const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  // Placeholders such as `src/cli/NAME.ts` are in capitals.
  const named = [...text.matchAll(/`([\w./-]+\.ts)`/g)].map((m) => m[1]!).filter((n) =>
    !/[A-Z]{2}/.test(n)
  );
  assert.ok(named.length >= 60, `only ${named.length} files named`);
  const missing = named.filter((name) =>
    !files.some((file) => file === name || file.endsWith(`/${name}`))
  );
  assert.deepStrictEqual(missing, []);
});

Deno.test("no source or document cites a section of DESIGN.md, which is not in the repository", () => {
  const files = [
    ...["mod.ts", "parse.ts", "cli.ts", "bullmq.ts", "README.md", "ARCHITECTURE.md"],
    ...["src", "tests", "bench", "fixtures"].flatMap((f) => filesUnder(f)),
    ...filesUnder("docs", ".md"),
    "bench/README.md",
  ];
  const cites = files.filter((file) =>
    /DESIGN(\.md)? §/.test(readFileSync(join(ROOT, file), "utf8"))
  );
  // Cite docs/design.md#… instead.
  assert.deepStrictEqual(cites, []);
});
