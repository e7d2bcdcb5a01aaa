import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEFAULTS, resolveOptions } from "../src/options.ts";
import { SITE_DEADLINE_MS } from "../src/many_sites.ts";
import { VERSION } from "../src/version.ts";

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

/** Options whose default depends on the machine, or is "none": not in DEFAULTS. */
const NOT_FIXED: Readonly<Record<string, string>> = {
  fetch: "globalThis.fetch (Node: node:http)",
  workers: "Math.min(4, navigator.hardwareConcurrency)",
};
/** The same options in the option table of docs/api.md, where "none" is written out. */
const NOT_FIXED_TABLE: Readonly<Record<string, string>> = {
  recurseCallback: "none",
  recurseListCallback: "none",
  fetch: "`globalThis.fetch` (Node: `node:http`)",
  signal: "none",
  since: "none",
  workers: "`min(4, cores)`",
  pool: "none",
  onProgress: "none",
  cache: "none",
  proxy: "none",
};
/** Constants a tag may name instead of a literal. */
const CONSTANTS: Readonly<Record<string, unknown>> = { SITE_DEADLINE_MS };
/** DEFAULTS keys that are no `SitemapTreeOptions` field (many-sites runs). */
const MANY_SITES_KEYS = new Set(["siteConcurrency", "siteMaxConnections", "siteDeadlineMs"]);

/** Each field of interface `name` in `source`, with its `@default {…}` text or null. */
function defaultTags(source: string, name: string): Map<string, string | null> {
  const start = source.indexOf(`export interface ${name} `);
  assert.ok(start >= 0, `interface ${name} not found`);
  const body = source.slice(start, source.indexOf("\n}", start));
  const tags = new Map<string, string | null>();
  const field = /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)?\s*readonly (\w+)\??:/g;
  for (const [, doc = "", key] of body.matchAll(field)) {
    const at = doc.indexOf("@default {");
    if (at < 0) {
      tags.set(key!, null);
      continue;
    }
    // The tag's braces may hold braces of their own (`{{}}`).
    let depth = 0;
    let end = at + "@default ".length;
    for (; end < doc.length; end++) {
      if (doc[end] === "{") depth++;
      else if (doc[end] === "}" && --depth === 0) break;
    }
    tags.set(key!, doc.slice(at + "@default {".length, end).replace(/\s*\n\s*\*\s*/g, " "));
  }
  return tags;
}

/**
 * What a default's text says: its leading literal (JSON, `<version>` filled
 * in), or the constant it names; and any "N minutes", "N min" or "N MiB" it adds.
 */
function readDefault(text: string): { value: unknown; minutes?: number; mib?: number } {
  // A quoted string, or everything up to a parenthesis or semicolon that comments on it.
  const head = /^(?:"(?:[^"\\]|\\.)*"|[^(;]*)/.exec(text)![0].trim();
  const value = head in CONSTANTS
    ? CONSTANTS[head]
    : head === "none"
    ? null
    : JSON.parse(head.replaceAll("<version>", VERSION));
  const minutes = /(\d+) min(?:utes)?\b/.exec(text)?.[1];
  const mib = /\((\d+) MiB\)/.exec(text)?.[1];
  return {
    value,
    ...(minutes === undefined ? {} : { minutes: Number(minutes) }),
    ...(mib === undefined ? {} : { mib: Number(mib) }),
  };
}

/** Where a default's text disagrees with DEFAULTS, one line each. */
function disagreements(key: string, text: string, where: string): string[] {
  const defaults = DEFAULTS as unknown as Record<string, unknown>;
  if (!(key in defaults)) {
    return text === NOT_FIXED[key] || text === NOT_FIXED_TABLE[key]
      ? []
      : [`${where} ${key}: ${text}, and DEFAULTS has no ${key}`];
  }
  const found: string[] = [];
  let said;
  try {
    said = readDefault(text);
  } catch {
    return [`${where} ${key}: unreadable default ${text}`];
  }
  try {
    assert.deepEqual(said.value, defaults[key]);
  } catch {
    found.push(
      `${where} ${key}: ${JSON.stringify(said.value)}, DEFAULTS ${JSON.stringify(defaults[key])}`,
    );
  }
  if (said.minutes !== undefined && said.minutes * 60_000 !== DEFAULTS.siteDeadlineMs) {
    found.push(
      `${where} ${key}: ${said.minutes} minutes per site, DEFAULTS.siteDeadlineMs ${DEFAULTS.siteDeadlineMs}`,
    );
  }
  if (said.mib !== undefined && said.mib * 1024 * 1024 !== said.value) {
    found.push(`${where} ${key}: ${said.mib} MiB is not ${JSON.stringify(said.value)}`);
  }
  return found;
}

/**
 * Disagreements of every `@default` tag of `name` in `source`, and of fields
 * missing one; `keys` names the DEFAULTS key of a field where the two differ.
 */
function tagDisagreements(
  source: string,
  name: string,
  where: string,
  keys: Readonly<Record<string, string>> = {},
): string[] {
  const found: string[] = [];
  for (const [field, text] of defaultTags(source, name)) {
    const key = keys[field] ?? field;
    if (text === null) {
      if (key in DEFAULTS) found.push(`${where} ${key}: no @default tag`);
      continue;
    }
    found.push(...disagreements(key, text, where));
  }
  return found;
}

/** The option table of docs/api.md: option name to its default cell. */
function apiTable(page: string): Map<string, string> {
  const start = page.indexOf("## Options (`SitemapTreeOptions`)");
  assert.ok(start >= 0, "the option table of docs/api.md not found");
  const rows = new Map<string, string>();
  for (const line of page.slice(start).split("\n").slice(2)) {
    if (line.trim() === "") {
      if (rows.size > 0) break;
      continue;
    }
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const name = /^`(\w+)`$/.exec(cells[1] ?? "")?.[1];
    if (name !== undefined) rows.set(name, cells[2]!);
  }
  return rows;
}

function apiTableDisagreements(page: string): string[] {
  const rows = apiTable(page);
  const found: string[] = [];
  for (const [key, cell] of rows) {
    const code = /^`([^`]*)`/.exec(cell)?.[1];
    // A code span holds a literal (strings unquoted, as the user agent is written).
    const text = code === undefined || key in NOT_FIXED_TABLE
      ? cell
      : /^["[{\d]|^(?:true|false|null)$/.test(code)
      ? cell.replace(/^`([^`]*)`/, "$1")
      : cell.replace(/^`([^`]*)`/, JSON.stringify(code));
    found.push(...disagreements(key, text, "docs/api.md"));
  }
  for (const key of Object.keys(DEFAULTS)) {
    if (!MANY_SITES_KEYS.has(key) && !rows.has(key)) found.push(`docs/api.md: no row for ${key}`);
  }
  const many =
    /`sitemapTreesForHomepages\(urls, options\?\)` *\| many sites, `siteConcurrency` \((\d+)\)/
      .exec(page)?.[1];
  if (Number(many) !== DEFAULTS.siteConcurrency) {
    found.push(`docs/api.md siteConcurrency: ${many}, DEFAULTS ${DEFAULTS.siteConcurrency}`);
  }
  return found;
}

Deno.test("DEFAULTS is frozen, and resolveOptions() applies it to options left out", () => {
  assert.equal(Object.isFrozen(DEFAULTS), true);
  assert.equal(Object.isFrozen(DEFAULTS.extraKnownPaths), true);
  assert.equal(Object.isFrozen(DEFAULTS.headers), true);
  const resolved = resolveOptions("https://example.com/a/?b=c", {}, 3) as unknown as Record<
    string,
    unknown
  >;
  // normalizeHomepageUrl is applied to the homepage, not kept.
  const applied = Object.keys(DEFAULTS).filter((key) =>
    !MANY_SITES_KEYS.has(key) && key !== "normalizeHomepageUrl"
  );
  assert.deepEqual(
    Object.fromEntries(applied.map((key) => [key, resolved[key]])),
    Object.fromEntries(
      applied.map((key) => [key, (DEFAULTS as unknown as Record<string, unknown>)[key]]),
    ),
  );
  assert.equal(String(resolved.homepage), "https://example.com/");
  assert.equal(resolved.workers, 3);
  assert.equal(SITE_DEADLINE_MS, DEFAULTS.siteDeadlineMs);
});

Deno.test("DEFAULTS agrees with every @default tag of the options", () => {
  assert.deepEqual(
    [
      ...tagDisagreements(read("src/options.ts"), "SitemapTreeOptions", "options.ts"),
      ...tagDisagreements(read("src/schedule.ts"), "SchedulingOptions", "schedule.ts"),
      ...tagDisagreements(read("src/many_sites.ts"), "SitemapTreesOptions", "many_sites.ts", {
        deadlineMs: "siteDeadlineMs",
        maxConnections: "siteMaxConnections",
      }),
    ],
    [],
  );
});

Deno.test("DEFAULTS agrees with the option table of docs/api.md", () => {
  assert.deepEqual(apiTableDisagreements(read("docs/api.md")), []);
});

/** Where the README's front-page paragraph on many sites disagrees with DEFAULTS. */
function frontPageDisagreements(readme: string): string[] {
  const said = /,\s+(\d+)\s+at\s+a\s+time,\s+each\s+with\s+a\s+(\d+)-minute\s+deadline/.exec(
    readme,
  );
  if (said === null) return ["README: the many-sites paragraph's defaults not found"];
  const found: string[] = [];
  if (Number(said[1]) !== DEFAULTS.siteConcurrency) {
    found.push(`README siteConcurrency: ${said[1]}, DEFAULTS ${DEFAULTS.siteConcurrency}`);
  }
  if (Number(said[2]) * 60_000 !== DEFAULTS.siteDeadlineMs) {
    found.push(`README siteDeadlineMs: ${said[2]} minutes, DEFAULTS ${DEFAULTS.siteDeadlineMs}`);
  }
  return found;
}

Deno.test("DEFAULTS agrees with the defaults the README's front page states", () => {
  assert.deepEqual(frontPageDisagreements(read("README.md")), []);
  assert.deepEqual(
    frontPageDisagreements(
      read("README.md").replace(
        /\d+(\s+at\s+a\s+time,\s+each\s+with\s+a\s+)\d+-minute/,
        "8$15-minute",
      ),
    ),
    [
      `README siteConcurrency: 8, DEFAULTS ${DEFAULTS.siteConcurrency}`,
      `README siteDeadlineMs: 5 minutes, DEFAULTS ${DEFAULTS.siteDeadlineMs}`,
    ],
  );
});

Deno.test("the defaults check names a tag or docs/api.md row that disagrees with DEFAULTS", () => {
  const source = `export interface SitemapTreeOptions {
  /** Levels. @default {12} */
  readonly maxDepth?: number;
  /** Sites at once.
   * @default {128} */
  readonly siteConcurrency?: number;
  /** No tag. */
  readonly retries?: number;
  /** @default {SITE_DEADLINE_MS (20 minutes)} */
  readonly deadlineMs?: number | null;
  /** @default {"@sitemap/tree/<version> (+https://jsr.io/@sitemap/tree)"} */
  readonly userAgent?: string;
}`;
  assert.deepEqual(tagDisagreements(source, "SitemapTreeOptions", "x.ts"), [
    "x.ts maxDepth: 12, DEFAULTS 11",
    "x.ts retries: no @default tag",
    `x.ts deadlineMs: ${SITE_DEADLINE_MS}, DEFAULTS null`,
    `x.ts deadlineMs: 20 minutes per site, DEFAULTS.siteDeadlineMs ${SITE_DEADLINE_MS}`,
  ]);
  const page = read("docs/api.md")
    .replace(
      /\| `maxSitemapBytes` +\| `52428800` \(50 MiB\)/,
      "| `maxSitemapBytes` | `52428800` (40 MiB)",
    )
    .replace(/\| `useFeeds` +\| `true`/, "| `useFeeds` | `false`")
    .replace(/\n\| `retries` .*/, "");
  assert.deepEqual(apiTableDisagreements(page), [
    "docs/api.md maxSitemapBytes: 40 MiB is not 52428800",
    "docs/api.md useFeeds: false, DEFAULTS true",
    "docs/api.md: no row for retries",
  ]);
});
