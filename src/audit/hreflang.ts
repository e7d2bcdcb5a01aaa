/**
 * `checkHreflang()`: whether an hreflang value is one Google reads, and if
 * not, the fix.
 *
 * Google's rule (Search Central, "Tell Google about localized versions of
 * your page"): `x-default`, or an ISO 639-1 language, optionally followed by
 * an ISO 15924 script and an ISO 3166-1 alpha-2 region, case-insensitive.
 * Languages with no ISO 639-1 code are accepted by their ISO 639-2/639-3
 * code (`fil`, `yue`); a three-letter code that has a two-letter one
 * (`eng`) is not. UN M.49 areas (`es-419`) are not ISO 3166-1 regions and
 * are reported.
 *
 * @module
 */
import {
  ISO_15924,
  ISO_3166_1,
  ISO_3166_1_ALPHA_3,
  ISO_639_1,
  ISO_639_3_BITS,
} from "./_iso_codes.ts";

/** What is wrong with an hreflang value, and the value to use instead when there is one. */
export interface HreflangProblem {
  /** What is wrong and how to fix it, e.g. `UK is not an ISO 3166-1 region; did you mean GB?`. */
  readonly message: string;
  /** The corrected value (`en-GB`), or null when the fix cannot be guessed. */
  readonly suggestion: string | null;
}

interface Tables {
  /** ISO 639-1 codes. */
  readonly languages: ReadonlySet<string>;
  /** ISO 639-2 codes (T and B) of the ISO 639-1 languages, to the ISO 639-1 code. */
  readonly longForms: ReadonlyMap<string, string>;
  /** The other ISO 639-2/639-3 codes, as a bitset over `aaa`–`zzz`. */
  readonly threeLetter: Uint8Array;
  readonly regions: ReadonlySet<string>;
  /** ISO 3166-1 alpha-3 to alpha-2. */
  readonly alpha3: ReadonlyMap<string, string>;
  /** ISO 15924, lower-cased. */
  readonly scripts: ReadonlySet<string>;
}

let tables: Tables | null = null;

function loadTables(): Tables {
  if (tables !== null) return tables;
  const languages = new Set<string>();
  const longForms = new Map<string, string>();
  for (const entry of ISO_639_1.split(" ")) {
    const [two, threes] = entry.split("=") as [string, string];
    languages.add(two);
    for (const three of threes.split("/")) longForms.set(three, two);
  }
  const raw = atob(ISO_639_3_BITS);
  const threeLetter = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) threeLetter[i] = raw.charCodeAt(i);
  const regions = new Set<string>();
  for (let i = 0; i < ISO_3166_1.length; i += 2) regions.add(ISO_3166_1.slice(i, i + 2));
  const alpha3 = new Map<string, string>();
  for (const entry of ISO_3166_1_ALPHA_3.split(" ")) alpha3.set(entry.slice(0, 3), entry.slice(3));
  const scripts = new Set<string>();
  for (let i = 0; i < ISO_15924.length; i += 4) {
    scripts.add(ISO_15924.slice(i, i + 4).toLowerCase());
  }
  tables = { languages, longForms, threeLetter, regions, alpha3, scripts };
  return tables;
}

function isThreeLetterLanguage(t: Tables, code: string): boolean {
  if (!/^[a-z]{3}$/.test(code)) return false;
  const i = (code.charCodeAt(0) - 97) * 676 + (code.charCodeAt(1) - 97) * 26 +
    code.charCodeAt(2) - 97;
  return (t.threeLetter[i >> 3]! & (1 << (i & 7))) !== 0;
}

/** ISO 639 codes withdrawn for another (ISO 639-1 changes of 1989 and 2008). */
const WITHDRAWN_LANGUAGES: Readonly<Record<string, string>> = {
  iw: "he",
  in: "id",
  ji: "yi",
  jw: "jv",
  mo: "ro",
};

/**
 * Country codes often written where the language belongs, with the value
 * meant (not `kr` or `tw`: they are Kanuri and Twi).
 */
const COUNTRY_AS_LANGUAGE: Readonly<Record<string, string>> = {
  at: "de-AT",
  au: "en-AU",
  cn: "zh-CN",
  cz: "cs-CZ",
  dk: "da-DK",
  gb: "en-GB",
  gr: "el-GR",
  hk: "zh-HK",
  il: "he-IL",
  ir: "fa-IR",
  jp: "ja-JP",
  mx: "es-MX",
  nz: "en-NZ",
  ua: "uk-UA",
  us: "en-US",
  vn: "vi-VN",
};

/** Region codes that are not (or no longer) ISO 3166-1 alpha-2, with the code meant. */
const NOT_REGIONS: Readonly<Record<string, string>> = {
  UK: "GB",
  EL: "GR",
  FX: "FR",
  TP: "TL",
  ZR: "CD",
  BU: "MM",
  YU: "RS",
  DD: "DE",
};

/** Codes that name a group of countries, not one. */
const UNIONS: Readonly<Record<string, string>> = {
  EU: "the European Union",
  EZ: "the eurozone",
  UN: "the United Nations",
};

/** Old script-like subtags (.NET's zh-CHS / zh-CHT). */
const OLD_SCRIPTS: Readonly<Record<string, string>> = { chs: "Hans", cht: "Hant" };

function titleCase(script: string): string {
  return script.charAt(0).toUpperCase() + script.slice(1);
}

/** One subtag's problem: what is wrong, and the subtag meant (null when it cannot be guessed). */
interface SubtagProblem {
  readonly message: string;
  readonly fixed: string | null;
}

function languageProblem(t: Tables, code: string): SubtagProblem | null {
  if (t.languages.has(code) || isThreeLetterLanguage(t, code)) return null;
  const withdrawn = WITHDRAWN_LANGUAGES[code];
  if (withdrawn !== undefined) {
    return { message: `${code} is a withdrawn ISO 639 code; use ${withdrawn}`, fixed: withdrawn };
  }
  const short = t.longForms.get(code);
  if (short !== undefined) {
    return {
      message: `${code} is an ISO 639-2 code; hreflang takes the ISO 639-1 code ${short}`,
      fixed: short,
    };
  }
  return { message: `${code} is not an ISO 639 language code`, fixed: null };
}

function scriptProblem(t: Tables, code: string): SubtagProblem | null {
  if (t.scripts.has(code)) return null;
  return { message: `${titleCase(code)} is not an ISO 15924 script`, fixed: null };
}

/** `language` is the language part as it will be suggested, for the "alone" advice. */
function regionProblem(t: Tables, code: string, language: string): SubtagProblem | null {
  const region = code.toUpperCase();
  if (/^[A-Z]{2}$/.test(region)) {
    if (t.regions.has(region)) return null;
    const meant = NOT_REGIONS[region];
    if (meant !== undefined) {
      return {
        message: `${region} is not an ISO 3166-1 region; did you mean ${meant}?`,
        fixed: meant,
      };
    }
    const union = UNIONS[region];
    if (union !== undefined) {
      return {
        message: `${region} is ${union}, not a country: hreflang targets one ISO 3166-1 country; ` +
          `use the language alone (${language}) or one value per country`,
        fixed: "",
      };
    }
    return {
      message: `${region} is not an ISO 3166-1 region; use a country code or the language alone ` +
        `(${language})`,
      fixed: "",
    };
  }
  if (/^[0-9]{3}$/.test(region)) {
    return {
      message: `${region} is a UN M.49 area, which Google's hreflang does not read: use the ` +
        `language alone (${language}) or one value per country`,
      fixed: "",
    };
  }
  const alpha2 = t.alpha3.get(region);
  if (alpha2 !== undefined) {
    return {
      message: `${region} is an ISO 3166-1 alpha-3 code; hreflang takes the alpha-2 code ${alpha2}`,
      fixed: alpha2,
    };
  }
  return {
    message: `${region} is neither an ISO 15924 script nor an ISO 3166-1 region`,
    fixed: null,
  };
}

/** The parts of a value: a language, then at most a script and a region, in that order. */
interface Parts {
  readonly language: string;
  readonly script: string | null;
  readonly region: string | null;
}

/** Splits a lower-cased value; a message when its shape is wrong (order, count, empty subtags). */
function split(t: Tables, lower: string): Parts | SubtagProblem {
  const parts = lower.split("-");
  if (parts.some((p) => p === "")) {
    const kept = parts.filter((p) => p !== "").join("-");
    return { message: `${lower} has an empty subtag`, fixed: kept === "" ? null : kept };
  }
  const [language, second, third, ...rest] = parts as [string, ...string[]];
  const isScript = (s: string | undefined): boolean => s !== undefined && /^[a-z]{4}$/.test(s);
  if (rest.length > 0 || (third !== undefined && !isScript(second))) {
    if (third !== undefined && rest.length === 0 && isScript(third) && !isScript(second)) {
      return {
        message: `The script goes before the region: ${language}-${titleCase(third)}-${
          second!.toUpperCase()
        }`,
        fixed: [language, third, second!].join("-"),
      };
    }
    return {
      message: "Google reads a language, a script and a region, nothing more: drop " +
        (rest.length > 0 ? rest.join("-") : third!),
      fixed: rest.length > 0 && isScript(second)
        ? [language, second!, third!].join("-")
        : [language, second!].join("-"),
    };
  }
  if (isScript(second)) return { language, script: second!, region: third ?? null };
  const old = second === undefined ? undefined : OLD_SCRIPTS[second];
  if (old !== undefined) {
    return {
      message: `${second!.toUpperCase()} is not an ISO 15924 script; use ${old}`,
      fixed: `${language}-${old.toLowerCase()}`,
    };
  }
  // A region where the language belongs, and the language after it ("us-en").
  if (
    second !== undefined && isCountryNotLanguage(t, language) && t.languages.has(second)
  ) {
    return {
      message: `The language comes first: ${second}-${language.toUpperCase()}`,
      fixed: `${second}-${language}`,
    };
  }
  return { language, script: null, region: second ?? null };
}

/** A country code that is no language code, not even a withdrawn one (`gb`, `jp`; not `in`). */
function isCountryNotLanguage(t: Tables, code: string): boolean {
  return !t.languages.has(code) && WITHDRAWN_LANGUAGES[code] === undefined &&
    t.regions.has(code.toUpperCase());
}

function write(parts: Parts): string {
  return [
    parts.language,
    ...(parts.script === null ? [] : [titleCase(parts.script)]),
    ...(parts.region === null ? [] : [parts.region.toUpperCase()]),
  ].join("-");
}

/** The problem of a value without spaces or underscores, lower-cased. */
function check(t: Tables, lower: string): HreflangProblem | null {
  if (lower === "x-default") return null;
  if (lower === "default" || lower === "xdefault") {
    return {
      message: `${lower} is not a language; the catch-all value is x-default`,
      suggestion: "x-default",
    };
  }
  if (lower.startsWith("x-")) {
    return {
      message: `${lower} is a private-use tag; the only one Google reads is x-default`,
      suggestion: "x-default",
    };
  }
  const parts = split(t, lower);
  if ("message" in parts) {
    const fixed = parts.fixed === null ? null : check(t, parts.fixed);
    return {
      message: parts.message,
      suggestion: parts.fixed === null
        ? null
        : fixed === null
        ? write(split(t, parts.fixed) as Parts)
        : fixed.suggestion,
    };
  }
  // A country code alone, or first, where the language belongs ("gb", "jp-JP").
  if (isCountryNotLanguage(t, parts.language)) {
    const region = parts.language.toUpperCase();
    const meant = COUNTRY_AS_LANGUAGE[parts.language] ?? null;
    return {
      message: `${region} is a region, not a language: an hreflang starts with an ISO 639-1 ` +
        (meant === null ? `language (language-${region})` : `language; did you mean ${meant}?`),
      suggestion: meant,
    };
  }
  const problems: SubtagProblem[] = [];
  const language = languageProblem(t, parts.language);
  if (language !== null) problems.push(language);
  const fixedLanguage = language === null ? parts.language : language.fixed;
  let fixedScript = parts.script;
  if (parts.script !== null) {
    const script = scriptProblem(t, parts.script);
    if (script !== null) {
      problems.push(script);
      fixedScript = script.fixed;
    }
  }
  let fixedRegion = parts.region;
  if (parts.region !== null) {
    const alone = write({
      language: fixedLanguage ?? parts.language,
      script: fixedScript,
      region: null,
    });
    const region = regionProblem(t, parts.region, alone);
    if (region !== null) {
      problems.push(region);
      fixedRegion = region.fixed === "" ? null : region.fixed;
    }
  }
  if (problems.length === 0) return null;
  const unfixable = problems.some((p) => p.fixed === null);
  return {
    message: problems.map((p) => p.message).join("; "),
    suggestion: unfixable || fixedLanguage === null
      ? null
      : write({ language: fixedLanguage, script: fixedScript, region: fixedRegion }),
  };
}

/**
 * Checks one hreflang value: `x-default`, or an ISO 639-1 language (or the
 * ISO 639-2/639-3 code of a language that has no ISO 639-1 code), an
 * optional ISO 15924 script and an optional ISO 3166-1 alpha-2 region,
 * joined by hyphens, in any case.
 *
 * @param value The hreflang attribute's value.
 * @returns Null when Google reads it; otherwise what is wrong, and the value
 *   meant when it can be guessed.
 *
 * @example A region that is not one, and a valid value
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { checkHreflang } from "./hreflang.ts";
 *
 * deepStrictEqual(checkHreflang("en-UK"), {
 *   message: "UK is not an ISO 3166-1 region; did you mean GB?",
 *   suggestion: "en-GB",
 * });
 * strictEqual(checkHreflang("zh-Hant-TW"), null);
 * ```
 */
export function checkHreflang(value: string): HreflangProblem | null {
  const t = loadTables();
  const trimmed = value.trim();
  if (trimmed === "") {
    return {
      message: "Empty hreflang: use a language code such as en, or x-default",
      suggestion: null,
    };
  }
  const lower = trimmed.toLowerCase().replaceAll("_", "-");
  const found = check(t, lower);
  const notes: string[] = [];
  if (trimmed !== value) notes.push(`${JSON.stringify(value)} has spaces around it`);
  if (trimmed.includes("_")) {
    notes.push(`${trimmed} joins its subtags with an underscore, not a hyphen`);
  }
  if (notes.length === 0) return found;
  if (found !== null) {
    return { message: `${notes.join("; ")}; ${found.message}`, suggestion: found.suggestion };
  }
  const parts = split(t, lower);
  const fixed = lower === "x-default" ? lower : write(parts as Parts);
  return { message: `${notes.join("; ")}: write ${fixed}`, suggestion: fixed };
}
