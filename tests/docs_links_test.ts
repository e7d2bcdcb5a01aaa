/**
 * The documents the code points to: a comment that cites
 * `bench/README.md#…`, `docs/NAME.md#…` or `ARCHITECTURE.md#…` names a
 * heading that exists there; a relative link in those documents and in the
 * README names a file (and heading) that exists; and the JSR package
 * publishes every file the README, its front page, links to.
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { filesUnder, ROOT } from "./_repo_files.ts";

/** The documents a source may cite by heading: the figures, the map and every page of `docs/`. */
const DOCUMENTS = ["bench/README.md", "ARCHITECTURE.md", ...filesUnder("docs", ".md")];

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

Deno.test("every bench/README.md, docs/NAME.md or ARCHITECTURE.md anchor a source cites is a heading there", () => {
  const anchors = new Map(DOCUMENTS.map((d) => [d, anchorsOf(d)]));
  const broken: string[] = [];
  let cited = 0;
  const citation = /\b(bench\/README\.md|docs\/[\w-]+\.md|ARCHITECTURE\.md)#([\w-]+)/g;
  for (const file of [...sources(), ...DOCUMENTS]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const [, document, anchor] of text.matchAll(citation)) {
      cited++;
      if (!anchors.get(document!)?.has(anchor!)) broken.push(`${file}: ${document}#${anchor}`);
    }
  }
  assert.deepStrictEqual(broken, []);
  assert.ok(cited >= 20, `only ${cited} citations found`);
});

/** The relative link targets of a markdown file, as paths from the root, with their anchors. */
function relativeLinks(file: string): { target: string; path: string; anchor?: string }[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, target]) => {
    if (/^[a-z]+:/.test(target!)) return [];
    const [path = "", anchor] = target!.split("#");
    const resolved = path === "" ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
    return [{ target: target!, path: resolved, ...(anchor === undefined ? {} : { anchor }) }];
  });
}

Deno.test("the relative links of the README, ARCHITECTURE.md, docs/ and bench/README.md name files and headings that exist", () => {
  const broken: string[] = [];
  for (const file of ["README.md", ...DOCUMENTS]) {
    for (const { target, path, anchor } of relativeLinks(file)) {
      if (!existsSync(join(ROOT, path))) broken.push(`${file}: ${target}`);
      else if (anchor !== undefined && path.endsWith(".md") && !anchorsOf(path).has(anchor)) {
        broken.push(`${file}: ${target}`);
      }
    }
  }
  assert.deepStrictEqual(broken, []);
  assert.ok(relativeLinks("README.md").length >= 15, "the README links to its docs/ pages");
});

/** Whether `path` matches one of deno.json's `publish.include` globs (`*`, `**\/`, a folder). */
function published(path: string, include: readonly string[]): boolean {
  const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return include.some((glob) => {
    const pattern = glob.split("**/").map(escape).join("(?:.*/)?");
    return new RegExp(`^${pattern}$`).test(path) || path.startsWith(`${glob.replace(/\/$/, "")}/`);
  });
}

Deno.test("the JSR package publishes every file the README links to, so its links work on jsr.io", () => {
  const config = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as {
    publish: { include: string[] };
  };
  const include = config.publish.include;
  assert.deepStrictEqual(
    relativeLinks("README.md").map((link) => link.path).filter((path) => !published(path, include)),
    [],
  );
  // The glob reading itself: a docs page and the picture are in, a test file is not.
  assert.deepStrictEqual(
    ["docs/api.md", "docs/report.png", "src/parse/_pack.ts", "tests/cli_test.ts"].map((path) =>
      published(path, include)
    ),
    [true, true, true, false],
  );
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
