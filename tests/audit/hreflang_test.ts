import { deepStrictEqual } from "node:assert/strict";
import { checkHreflang } from "../../src/audit/hreflang.ts";
import { ISO_15924, ISO_3166_1, ISO_639_1 } from "../../src/audit/_iso_codes.ts";

Deno.test("checkHreflang() accepts x-default and language[-script][-region] in any case", () => {
  const valid = [
    "x-default",
    "X-Default",
    "en",
    "EN",
    "en-GB",
    "en-gb",
    "EN-gb",
    "pt-BR",
    "nb-NO",
    "zh-Hant",
    "zh-hant-tw",
    "zh-Hans-CN",
    "sr-Latn-RS",
    "uk-UA",
    "he-IL",
    // Languages without an ISO 639-1 code, by their ISO 639-2/639-3 code.
    "fil-PH",
    "yue-HK",
    "haw",
    "ceb",
  ];
  deepStrictEqual(valid.map((v) => [v, checkHreflang(v)]), valid.map((v) => [v, null]));
});

Deno.test("checkHreflang() names the fix of a wrong region", () => {
  deepStrictEqual(
    ["en-UK", "el-EL", "en-USA", "es-419", "en-EU", "en-XX"].map(checkHreflang),
    [
      { message: "UK is not an ISO 3166-1 region; did you mean GB?", suggestion: "en-GB" },
      { message: "EL is not an ISO 3166-1 region; did you mean GR?", suggestion: "el-GR" },
      {
        message: "USA is an ISO 3166-1 alpha-3 code; hreflang takes the alpha-2 code US",
        suggestion: "en-US",
      },
      {
        message: "419 is a UN M.49 area, which Google's hreflang does not read: use the language " +
          "alone (es) or one value per country",
        suggestion: "es",
      },
      {
        message: "EU is the European Union, not a country: hreflang targets one ISO 3166-1 " +
          "country; use the language alone (en) or one value per country",
        suggestion: "en",
      },
      {
        message: "XX is not an ISO 3166-1 region; use a country code or the language alone (en)",
        suggestion: "en",
      },
    ],
  );
});

Deno.test("checkHreflang() names the fix of a wrong language", () => {
  deepStrictEqual(
    ["eng", "fre-FR", "iw-IL", "in", "gb", "jp", "KR", "xyz", "q"].map(checkHreflang),
    [
      {
        message: "eng is an ISO 639-2 code; hreflang takes the ISO 639-1 code en",
        suggestion: "en",
      },
      {
        message: "fre is an ISO 639-2 code; hreflang takes the ISO 639-1 code fr",
        suggestion: "fr-FR",
      },
      { message: "iw is a withdrawn ISO 639 code; use he", suggestion: "he-IL" },
      { message: "in is a withdrawn ISO 639 code; use id", suggestion: "id" },
      {
        message: "GB is a region, not a language: an hreflang starts with an ISO 639-1 language; " +
          "did you mean en-GB?",
        suggestion: "en-GB",
      },
      {
        message: "JP is a region, not a language: an hreflang starts with an ISO 639-1 language; " +
          "did you mean ja-JP?",
        suggestion: "ja-JP",
      },
      // kr is Kanuri: a language code, whatever the writer meant.
      null,
      { message: "xyz is not an ISO 639 language code", suggestion: null },
      { message: "q is not an ISO 639 language code", suggestion: null },
    ],
  );
});

Deno.test("checkHreflang() names the fix of a wrong shape", () => {
  deepStrictEqual(
    ["en_US", "x_default", " en-gb ", "en_uk", "us-en", "en-US-Latn", "de-CH-1996", "en-", ""].map(
      checkHreflang,
    ),
    [
      {
        message: "en_US joins its subtags with an underscore, not a hyphen: write en-US",
        suggestion: "en-US",
      },
      {
        message: "x_default joins its subtags with an underscore, not a hyphen: write x-default",
        suggestion: "x-default",
      },
      { message: '" en-gb " has spaces around it: write en-GB', suggestion: "en-GB" },
      {
        message: "en_uk joins its subtags with an underscore, not a hyphen; " +
          "UK is not an ISO 3166-1 region; did you mean GB?",
        suggestion: "en-GB",
      },
      { message: "The language comes first: en-US", suggestion: "en-US" },
      { message: "The script goes before the region: en-Latn-US", suggestion: "en-Latn-US" },
      {
        message: "Google reads a language, a script and a region, nothing more: drop 1996",
        suggestion: "de-CH",
      },
      { message: "en- has an empty subtag", suggestion: "en" },
      {
        message: "Empty hreflang: use a language code such as en, or x-default",
        suggestion: null,
      },
    ],
  );
});

Deno.test("checkHreflang() on scripts and the x- values", () => {
  deepStrictEqual(
    ["zh-CHS", "zh-CHT", "en-Abcd", "default", "x-foo"].map(checkHreflang),
    [
      { message: "CHS is not an ISO 15924 script; use Hans", suggestion: "zh-Hans" },
      { message: "CHT is not an ISO 15924 script; use Hant", suggestion: "zh-Hant" },
      { message: "Abcd is not an ISO 15924 script", suggestion: null },
      {
        message: "default is not a language; the catch-all value is x-default",
        suggestion: "x-default",
      },
      {
        message: "x-foo is a private-use tag; the only one Google reads is x-default",
        suggestion: "x-default",
      },
    ],
  );
});

Deno.test("checkHreflang() accepts every code of its ISO tables, and the tables are complete", () => {
  const languages = ISO_639_1.split(" ").map((entry) => entry.slice(0, 2));
  const regions = ISO_3166_1.match(/../g)!;
  const scripts = ISO_15924.match(/..../g)!;
  // ISO 639-1 has 184 codes (183 and "bh"), ISO 3166-1 249, ISO 15924 182 in iso-codes 4.15.
  deepStrictEqual([languages.length, regions.length, scripts.length], [184, 249, 182]);
  const rejected = [
    ...languages.filter((l) => checkHreflang(l) !== null),
    ...regions.filter((r) => checkHreflang(`en-${r}`) !== null),
    ...scripts.filter((s) => checkHreflang(`sr-${s}-RS`) !== null),
  ];
  deepStrictEqual(rejected, []);
});
