// Builds the npm package into dist/npm/ and, with --pack, packs it into
// dist/NAME-VERSION.tgz. Plain JavaScript on purpose: it runs on Node alone,
// with only the devDependencies `npm ci` installs (typescript, @types/node).
//
//   node build/npm.mjs          build dist/npm/
//   node build/npm.mjs --pack   build, then `npm pack`; prints the tarball's path
//
// tsc emits one ESM .js and one .d.ts per module (build/tsconfig.json); this
// script adds the publishable package.json, generated from deno.json so the
// version and the entry points have one source, and the README.
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/**
 * The npm name. `sitemap-tree` is taken on npm by an unrelated package, and
 * the JSR name `@sitemap/tree` would need the `sitemap` scope on npm, which
 * this project does not hold; this unscoped name was free (`npm view
 * sitemap-tree-ts` answered 404), so any npm account can publish it as it stands.
 */
export const PACKAGE_NAME = "sitemap-tree-ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "npm");

/**
 * The package.json of the npm package.
 *
 * @param {{ version: string, license: string, exports: Record<string, string> }} deno deno.json
 * @param {{ devDependencies?: Record<string, string> }} dev the development package.json
 */
export function packageJson(deno, dev) {
  /** @type {Record<string, { types: string, default: string }>} */
  const exports = {};
  for (const [name, source] of Object.entries(deno.exports)) {
    const base = source.replace(/\.ts$/, "");
    exports[name] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  const pkg = {
    name: PACKAGE_NAME,
    version: deno.version,
    description:
      "Finds every sitemap a website publishes (robots.txt, well-known paths, indexes, feeds) and returns it as a typed tree; parses on worker threads. The API of Python's ultimate-sitemap-parser.",
    license: deno.license,
    type: "module",
    exports,
    bin: { "sitemap-tree": "./bin/sitemap-tree.js" },
    files: ["*.js", "*.d.ts", "bin/", "src/"],
    // src/runtime/node.ts loads node:worker_threads through process.getBuiltinModule (20.16+).
    engines: { node: ">=20.16" },
    keywords: ["sitemap", "sitemaps", "robots.txt", "crawler", "seo", "usp"],
  };
  // The BullMQ adapter is the one entry point with a dependency: optional, so
  // `.`, `./parse` and `./cli` install nothing.
  if ("./bullmq" in deno.exports) {
    const range = dev.devDependencies?.bullmq;
    if (range === undefined) {
      throw new Error("deno.json exports ./bullmq but bullmq is no devDependency");
    }
    const major = /^\D*(\d+)/.exec(range)?.[1];
    return {
      ...pkg,
      peerDependencies: { bullmq: major === undefined ? range : `^${major}` },
      peerDependenciesMeta: { bullmq: { optional: true } },
    };
  }
  return pkg;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Emits dist/npm/ and returns its package.json. */
export function build() {
  rmSync(OUT, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(ROOT, "build", "tsconfig.json")], {
    stdio: "inherit",
  });
  const pkg = packageJson(readJson(join(ROOT, "deno.json")), readJson(join(ROOT, "package.json")));
  writeFileSync(join(OUT, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  // The repository's README, headed by the one difference npm users meet first: the name.
  writeFileSync(
    join(OUT, "README.md"),
    `> The npm build of \`@sitemap/tree\` (JSR): import from \`"${PACKAGE_NAME}"\`, ` +
      `\`"${PACKAGE_NAME}/parse"\` and \`"${PACKAGE_NAME}/cli"\` where the examples below say ` +
      `\`"@sitemap/tree"\`; the command is \`npx sitemap-tree\`.\n\n` +
      readFileSync(join(ROOT, "README.md"), "utf8"),
  );
  chmodSync(join(OUT, "bin", "sitemap-tree.js"), 0o755);
  return pkg;
}

/**
 * Packs dist/npm/ with `npm pack` into dist/.
 *
 * @returns The tarball's absolute path.
 */
export function pack() {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", "--json", "--pack-destination", join(ROOT, "dist")], {
    cwd: OUT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [{ filename }] = JSON.parse(out);
  return join(ROOT, "dist", filename);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = build();
  if (process.argv.includes("--pack")) {
    console.log(relative(process.cwd(), pack()));
  } else {
    console.log(`${pkg.name}@${pkg.version} built in ${relative(process.cwd(), OUT)}`);
  }
}
