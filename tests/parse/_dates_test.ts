import { strictEqual as equal } from "node:assert/strict";
import { parseDate, parseRfc822Date, parseW3cDate } from "../../src/parse/_dates.ts";
import { iso } from "./_unpack.ts";

Deno.test("parseW3cDate() reads every W3C datetime precision as UTC", () => {
  const cases: [string, string][] = [
    ["2024", "2024-01-01T00:00:00.000Z"],
    ["2024-05", "2024-05-01T00:00:00.000Z"],
    ["2024-05-17", "2024-05-17T00:00:00.000Z"],
    ["2024-05-17T10:20+02:00", "2024-05-17T08:20:00.000Z"],
    ["2024-05-17T10:20:30Z", "2024-05-17T10:20:30.000Z"],
    ["2024-05-17T10:20:30.45-01:30", "2024-05-17T11:50:30.450Z"],
    ["2024-05-17T10:20:30.123456789Z", "2024-05-17T10:20:30.123Z"],
    ["2024-05-17T10:20:30", "2024-05-17T10:20:30.000Z"],
  ];
  for (const [input, expected] of cases) equal(iso(parseW3cDate(input)), expected, input);
});

Deno.test("parseW3cDate() accepts the variants generators write", () => {
  const cases: [string, string][] = [
    ["  2024-05-17\n", "2024-05-17T00:00:00.000Z"],
    ["2024-05-17 10:20:30", "2024-05-17T10:20:30.000Z"],
    ["2024-5-7", "2024-05-07T00:00:00.000Z"],
    ["2024-05-17T10:20:30+0200", "2024-05-17T08:20:30.000Z"],
    ["2024-05-17T10:20:30+02", "2024-05-17T08:20:30.000Z"],
    ["2024-05-17t10:20:30z", "2024-05-17T10:20:30.000Z"],
    ["2016-12-31T23:59:60Z", "2016-12-31T23:59:59.000Z"],
    ["0099-01-01", "0099-01-01T00:00:00.000Z"],
  ];
  for (const [input, expected] of cases) equal(iso(parseW3cDate(input)), expected, input);
});

Deno.test("parseW3cDate() returns NaN for what is not a date, never a guess", () => {
  for (
    const input of [
      "",
      "   ",
      "99999999999999999999999",
      "2024-13-01",
      "2024-02-30",
      "2023-02-29",
      "2024-05-17T25:00Z",
      "2024-05-17T10:61Z",
      "2024-05-17T10:20:30+25:00",
      "2024-05-17T10",
      "yesterday",
      "2024/05/17",
      "20240517",
      "2024-05-17T10:20:30.Z",
      "2024-05-17T10:20:30Z junk",
    ]
  ) equal(parseW3cDate(input), NaN, JSON.stringify(input));
});

Deno.test("parseW3cDate() reads toISOString()'s milliseconds with any zone, and NaN for a broken fraction", () => {
  const cases: [string, string][] = [
    ["2024-05-17T10:20:30.123Z", "2024-05-17T10:20:30.123Z"],
    ["2024-05-17T10:20:30.007z", "2024-05-17T10:20:30.007Z"],
    ["2024-05-17T10:20:30.999+02:00", "2024-05-17T08:20:30.999Z"],
    ["2024-05-17T23:59:59.500-01:30", "2024-05-18T01:29:59.500Z"],
    ["2016-12-31T23:59:60.250Z", "2016-12-31T23:59:59.250Z"],
    ["2024-05-17T10:20:30,123Z", "2024-05-17T10:20:30.123Z"],
    ["2024-05-17T10:20:30.12+02:00", "2024-05-17T08:20:30.120Z"],
    ["2024-05-17T10:20:30.123", "2024-05-17T10:20:30.123Z"],
  ];
  for (const [input, expected] of cases) equal(iso(parseW3cDate(input)), expected, input);
  for (
    const input of [
      "2024-05-17T10:20:30.1a3Z",
      "2024-05-17T10:20:30.123+02:0",
      "2024-05-17T10:20:30.123X",
      "2024-05-17T10:20:30.123+02:00Z",
    ]
  ) equal(parseW3cDate(input), NaN, input);
  // A shorter value after a longer one: the scratch bytes past its end are never read.
  equal(parseW3cDate("2024-05-17T10:20:30.123456+02:00"), Date.UTC(2024, 4, 17, 8, 20, 30, 123));
  equal(iso(parseW3cDate("2024-05-17T10:20:30.1")), "2024-05-17T10:20:30.100Z");
});

Deno.test("parseW3cDate() knows leap years", () => {
  equal(iso(parseW3cDate("2024-02-29")), "2024-02-29T00:00:00.000Z");
  equal(iso(parseW3cDate("2000-02-29")), "2000-02-29T00:00:00.000Z");
  equal(parseW3cDate("1900-02-29"), NaN);
});

Deno.test("parseRfc822Date() reads RSS dates with zones, names and short years", () => {
  const cases: [string, string][] = [
    ["Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00.000Z"],
    ["Tue, 10 Jun 2003 04:00:00 +0200", "2003-06-10T02:00:00.000Z"],
    ["Tue, 10 Jun 2003 04:00:00 -02:30", "2003-06-10T06:30:00.000Z"],
    ["10 Jun 2003 04:00 EST", "2003-06-10T09:00:00.000Z"],
    ["Tue, 10 Jun 2003 04:00:00 PDT", "2003-06-10T11:00:00.000Z"],
    ["Tue, 10 Jun 03 04:00:00 UT", "2003-06-10T04:00:00.000Z"],
    ["Sat, 1 Jan 99 00:00:00 GMT", "1999-01-01T00:00:00.000Z"],
    ["Tuesday, 10 June 2003 04:00:00 Z", "2003-06-10T04:00:00.000Z"],
    ["10 Jun 2003", "2003-06-10T00:00:00.000Z"],
    ["Tue, 10 Jun 2003 04:00:00", "2003-06-10T04:00:00.000Z"],
    ["Jun 10 2003 04:00:00 GMT", "2003-06-10T04:00:00.000Z"],
  ];
  for (const [input, expected] of cases) equal(iso(parseRfc822Date(input)), expected, input);
});

Deno.test("parseRfc822Date() returns NaN for what is not a date", () => {
  for (
    const input of [
      "",
      "99999999999999999999999",
      "Tue, 31 Feb 2003 04:00:00 GMT",
      "Tue, 10 Foo 2003 04:00:00 GMT",
      "Tue, 10 Jun 2003 4 GMT",
      "Tue, 10 Jun 2003 04:00:00 +02:00:00",
      "Tue, 10 Jun 2003 04:00:00 GMT extra words",
    ]
  ) equal(parseRfc822Date(input), NaN, JSON.stringify(input));
});

Deno.test("parseDate() takes either format and never throws", () => {
  equal(iso(parseDate("2024")), "2024-01-01T00:00:00.000Z");
  equal(iso(parseDate("Tue, 10 Jun 2003 04:00:00 GMT")), "2003-06-10T04:00:00.000Z");
  equal(parseDate("99999999999999999999999"), NaN);
  equal(parseDate(""), NaN);
  equal(parseDate("\u0000\uffff"), NaN);
});

Deno.test("parseW3cDate() agrees with Date.UTC inside and outside the month table (1900–2199)", () => {
  for (const year of [1, 1066, 1899, 1900, 1970, 2000, 2024, 2100, 2199, 2200, 9999]) {
    for (let month = 1; month <= 12; month++) {
      for (const day of [1, 15, 28]) {
        const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${
          String(day).padStart(2, "0")
        }`;
        const expected = new Date(0).setUTCFullYear(year, month - 1, day);
        equal(parseW3cDate(text), expected, text);
        equal(parseW3cDate(`${text}T10:20:30+02:00`), expected + 8 * 3600_000 + 1230_000);
      }
    }
  }
});

Deno.test("parseW3cDate() matches a Date.UTC reference on random YYYY-MM-DD, valid or not", () => {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  for (let k = 0; k < 20_000; k++) {
    const year = 1850 + Math.floor(Math.random() * 400);
    const month = Math.floor(Math.random() * 14); // 0 and 13 are invalid
    const day = Math.floor(Math.random() * 33); // 0, 32 and past the month's end are invalid
    const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    const ms = Date.UTC(year, month - 1, day);
    const d = new Date(ms);
    const valid = month >= 1 && month <= 12 && day >= 1 && d.getUTCDate() === day;
    equal(parseW3cDate(text), valid ? ms : NaN, text);
  }
});
