/**
 * Date parsing for sitemaps and feeds: W3C datetime (the ISO 8601 profile
 * sitemaps use) and RFC 822/2822 (RSS). Every function returns epoch
 * milliseconds or NaN; none throws, and none fills a missing part from the
 * current date.
 *
 * Hand-written scanners rather than `Date.parse`: engines disagree on what
 * `Date.parse` accepts, treat zone-less values as local time, and lastmod is
 * parsed once per page on the hot path.
 *
 * @module
 */
import { skipSpace, trimSpaceEnd } from "./_ascii_bytes.ts";

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (valid for any year). */
function daysFromCivil(year: number, month: number, day: number): number {
  // Shifting the year to start in March puts the leap day last, so the
  // month lengths before any date follow one fixed formula.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** First year of {@linkcode MONTH_STARTS}. */
const TABLE_FROM = 1900;
/**
 * Days since the epoch of the 1st of each month of 1900–2199, index
 * `(year - 1900) * 12 + month - 1`: lastmods cycle through months in any
 * order, so a table beats both the arithmetic and a one-month cache.
 */
const MONTH_STARTS = new Int32Array(300 * 12);
/** Days in each month of {@linkcode MONTH_STARTS}. */
const MONTH_DAYS = new Uint8Array(300 * 12);
for (let k = 0; k < MONTH_STARTS.length; k++) {
  const year = TABLE_FROM + Math.floor(k / 12);
  MONTH_STARTS[k] = daysFromCivil(year, (k % 12) + 1, 1);
  MONTH_DAYS[k] = daysInMonth(year, (k % 12) + 1);
}

/** {@linkcode tableDays}' answer for bytes it does not read. */
const NO_DAYS = -0x40000000;

/**
 * `YYYY-MM-DD` at `b[i]` as days since the epoch, for years in the table
 * only; {@linkcode NO_DAYS} when the bytes are anything else (the general
 * path then decides). Integer arithmetic only: the lastmod of almost every
 * page comes through here. Days rather than milliseconds: a small integer
 * returned from a call that is not inlined stays unboxed, epoch milliseconds
 * would be a heap number per lastmod.
 */
function tableDays(b: Uint8Array, i: number): number {
  if (b[i + 4] !== 45 || b[i + 7] !== 45) return NO_DAYS;
  const y0 = b[i]! - 48;
  const y1 = b[i + 1]! - 48;
  const y2 = b[i + 2]! - 48;
  const y3 = b[i + 3]! - 48;
  const m0 = b[i + 5]! - 48;
  const m1 = b[i + 6]! - 48;
  const d0 = b[i + 8]! - 48;
  const d1 = b[i + 9]! - 48;
  // A byte below '0' wraps to a large unsigned value.
  if (
    (y0 >>> 0) > 9 || (y1 >>> 0) > 9 || (y2 >>> 0) > 9 || (y3 >>> 0) > 9 ||
    (m0 >>> 0) > 9 || (m1 >>> 0) > 9 || (d0 >>> 0) > 9 || (d1 >>> 0) > 9
  ) {
    return NO_DAYS;
  }
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  const k = (y0 * 1000 + y1 * 100 + y2 * 10 + y3 - TABLE_FROM) * 12 + month - 1;
  if (month < 1 || month > 12 || k < 0 || k >= MONTH_STARTS.length) return NO_DAYS;
  if (day < 1 || day > MONTH_DAYS[k]!) return NO_DAYS;
  return MONTH_STARTS[k]! + day - 1;
}

/**
 * Epoch ms of a UTC date and time, or NaN when a field is out of range. A
 * leap second (60) is read as the last second of the minute.
 */
function utc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  // Written so that NaN fails every check.
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return NaN;
  if (!(year >= 0 && hour <= 23 && minute <= 59 && second <= 60)) return NaN;
  const s = second === 60 ? 59 : second;
  const k = (year - TABLE_FROM) * 12 + month - 1;
  const monthStart = k >= 0 && k < MONTH_STARTS.length
    ? MONTH_STARTS[k]!
    : daysFromCivil(year, month, 1);
  return (monthStart + day - 1) * MS_PER_DAY + ((hour * 60 + minute) * 60 + s) * 1000 + ms;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Cursor of {@linkcode digits}, a module field so that the hot path allocates nothing. */
let pos = 0;

/**
 * Reads `min` to `max` ASCII digits of `b` at {@linkcode pos} (advancing it)
 * before `end`; -1 when fewer than `min` are there.
 */
function digits(b: Uint8Array, end: number, min: number, max: number): number {
  let n = 0;
  let k = 0;
  while (k < max && pos < end) {
    const c = b[pos]!;
    if (c < 48 || c > 57) break;
    n = n * 10 + c - 48;
    pos++;
    k++;
  }
  return k < min ? -1 : n;
}

/**
 * {@linkcode parseW3cDate} over the UTF-8 bytes `b[start, end)`. Bytes rather
 * than a string because the pages builder parses lastmods in batches from one
 * encoded buffer: a loop over a typed array is several times faster than
 * `charCodeAt` over substrings of a large decoded chunk.
 *
 * @param b The bytes.
 * @param start Index of the first byte.
 * @param end Index after the last byte.
 * @returns Epoch milliseconds, or NaN.
 */
export function parseW3cDateBytes(b: Uint8Array, start: number, end: number): number {
  parseW3cDateBytesInto(b, start, end, result, 0);
  return result[0]!;
}

/** Where {@linkcode parseW3cDateBytes} has its answer written. */
const result = new Float64Array(1);

/**
 * {@linkcode parseW3cDateBytes}, its answer written to `out[k]` rather than
 * returned: a number returned from a call that is not inlined is boxed, a
 * heap object per lastmod on the parse's hot path
 * (bench/README.md#issue-24-realistic-peak-margin-mem24c).
 *
 * @param b The bytes.
 * @param start Index of the first byte.
 * @param end Index after the last byte.
 * @param out Where to write the epoch milliseconds, or NaN.
 * @param k The index in `out`.
 */
export function parseW3cDateBytesInto(
  b: Uint8Array,
  start: number,
  end: number,
  out: Float64Array,
  k: number,
): void {
  const i = skipSpace(b, start, end);
  end = trimSpaceEnd(b, i, end);
  // Most lastmods are a bare date or a date-time with seconds and a zone:
  // read those at fixed positions, everything else with the scanner.
  if (end - i >= 10 && b[i + 4] === 45 && b[i + 7] === 45) {
    const days = tableDays(b, i);
    const date = days !== NO_DAYS ? days * MS_PER_DAY : fixedDate(b, i);
    if (date === date) {
      if (end - i === 10) {
        out[k] = date;
        return;
      }
      const t = fixedTime(b, i + 10, end);
      if (t === t) {
        out[k] = date + t;
        return;
      }
    }
  }
  out[k] = end - i < 4 ? NaN : scanW3cDate(b, i, end);
}

/**
 * The W3C forms {@linkcode parseW3cDateBytes} does not read at fixed
 * positions (one-digit months and days, a year or month alone, no seconds,
 * fractions, a space before the time), by a scanner over `b[i, end)`.
 */
function scanW3cDate(b: Uint8Array, i: number, end: number): number {
  pos = i;
  const year = digits(b, end, 4, 4);
  if (year < 0) return NaN;
  if (pos === end) return utc(year, 1, 1, 0, 0, 0, 0);
  if (b[pos] !== 45 /* - */) return NaN;
  pos++;
  const month = digits(b, end, 1, 2);
  if (month < 0) return NaN;
  if (pos === end) return utc(year, month, 1, 0, 0, 0, 0);
  if (b[pos] !== 45) return NaN;
  pos++;
  const day = digits(b, end, 1, 2);
  if (day < 0) return NaN;
  if (pos === end) return utc(year, month, day, 0, 0, 0, 0);

  const sep = b[pos];
  if (sep !== 84 /* T */ && sep !== 116 /* t */ && sep !== 32) return NaN;
  pos++;
  while (pos < end && b[pos] === 32) pos++;
  const local = scanTime(b, end, year, month, day);
  return local === local ? scanZone(b, end, local) : NaN;
}

/**
 * Reads `hh:mm[:ss[.fff]]` at {@linkcode pos} and the spaces after it.
 *
 * @returns The date and time as UTC epoch ms, or NaN.
 */
function scanTime(b: Uint8Array, end: number, year: number, month: number, day: number): number {
  const hour = digits(b, end, 2, 2);
  if (hour < 0 || pos >= end || b[pos] !== 58 /* : */) return NaN;
  pos++;
  const minute = digits(b, end, 2, 2);
  if (minute < 0) return NaN;
  let second = 0;
  let ms = 0;
  if (pos < end && b[pos] === 58) {
    pos++;
    second = digits(b, end, 2, 2);
    if (second < 0) return NaN;
    const c = b[pos];
    if (pos < end && (c === 46 /* . */ || c === 44 /* , */)) {
      pos++;
      const first = pos;
      let scale = 100;
      while (pos < end && isDigit(b[pos]!)) {
        ms += (b[pos]! - 48) * scale;
        scale /= 10;
        pos++;
      }
      if (pos === first) return NaN;
      ms = Math.floor(ms);
    }
  }
  while (pos < end && b[pos] === 32) pos++;
  return utc(year, month, day, hour, minute, second, ms);
}

/**
 * Applies the zone at {@linkcode pos} (none, `Z`, or `±hh[[:]mm]`) to a
 * local time, which must end the text.
 *
 * @returns Epoch ms, or NaN.
 */
function scanZone(b: Uint8Array, end: number, local: number): number {
  if (pos === end) return local;
  const z = b[pos];
  if ((z === 90 /* Z */ || z === 122 /* z */) && pos + 1 === end) return local;
  if (z !== 43 /* + */ && z !== 45 /* - */) return NaN;
  pos++;
  const offH = digits(b, end, 2, 2);
  if (offH < 0 || offH > 23) return NaN;
  let offM = 0;
  if (pos < end) {
    if (b[pos] === 58) pos++;
    offM = digits(b, end, 2, 2);
    if (offM < 0 || offM > 59) return NaN;
  }
  if (pos !== end) return NaN;
  const offset = (offH * 60 + offM) * 60_000;
  return z === 43 ? local - offset : local + offset;
}

/** Two ASCII digits at `i`, or NaN. */
function two(b: Uint8Array, i: number): number {
  const x = b[i]! - 48;
  const y = b[i + 1]! - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : NaN;
}

/** `YYYY-MM-DD` at `i` (dashes already checked) as epoch ms, or NaN. */
function fixedDate(b: Uint8Array, i: number): number {
  const century = two(b, i);
  const year = two(b, i + 2);
  const month = two(b, i + 5);
  const day = two(b, i + 8);
  // NaN propagates through the arithmetic and fails every range check in utc().
  return utc(century * 100 + year, month, day, 0, 0, 0, 0);
}

/**
 * `Thh:mm:ss`, optionally `.fff` (milliseconds, as `toISOString()` writes
 * them), then `Z` or `±hh:mm`, from `i` to `end`, as ms to add to the date,
 * or NaN when the text has another shape (the scanner then decides).
 */
function fixedTime(b: Uint8Array, i: number, end: number): number {
  // The zone's index, after the seconds or their fraction.
  let z = i + 9;
  let ms = 0;
  if (b[z] === 46) {
    const d = b[i + 12]! - 48;
    ms = two(b, i + 10) * 10 + ((d >>> 0) > 9 ? NaN : d);
    if (ms !== ms) return NaN;
    z += 4;
  }
  const n = end - z;
  if ((n !== 1 && n !== 6) || (b[i] !== 84 && b[i] !== 116)) return NaN;
  if (b[i + 3] !== 58 || b[i + 6] !== 58) return NaN;
  const hour = two(b, i + 1);
  const minute = two(b, i + 4);
  const second = two(b, i + 7);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return NaN;
  const t = ((hour * 60 + minute) * 60 + second) * 1000 + ms;
  const c = b[z];
  if (n === 1) return c === 90 || c === 122 ? t : NaN;
  if ((c !== 43 && c !== 45) || b[z + 3] !== 58) return NaN;
  const offH = two(b, z + 1);
  const offM = two(b, z + 4);
  if (!(offH <= 23 && offM <= 59)) return NaN;
  const offset = (offH * 60 + offM) * 60_000;
  return c === 43 ? t - offset : t + offset;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);

/**
 * Parses a W3C datetime (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, then optionally
 * `Thh:mm`, `:ss`, fractions and `Z` or `±hh:mm`). Date-only and zone-less
 * values are UTC; `YYYY` and `YYYY-MM` mean the first day. Lenient where real
 * sitemaps are: surrounding whitespace, a space instead of `T`, one-digit
 * month or day, `±hhmm` and `±hh` offsets, lower-case `t` and `z`.
 *
 * @param value The text of a `<lastmod>` or similar element.
 * @returns Epoch milliseconds, or NaN when `value` is not such a date.
 */
export function parseW3cDate(value: string): number {
  // The longest valid form is about 40 characters; only padding makes more.
  if (value.length > 64) value = value.trim();
  if (value.length > 64) return NaN;
  if (value.length * 3 > scratch.length) scratch = new Uint8Array(value.length * 3);
  const written = encoder.encodeInto(value, scratch).written;
  return parseW3cDateBytes(scratch, 0, written);
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** Zone names RFC 822 defines, plus a few that feeds use in practice; hours east of UTC. */
const ZONES: Readonly<Record<string, number>> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
  cet: 1,
  cest: 2,
  bst: 1,
};

/**
 * Parses an RFC 822 / RFC 2822 date as RSS uses it: `Tue, 10 Jun 2003
 * 04:00:00 GMT`, with the weekday optional, seconds optional, full month
 * names, `±hhmm` or `±hh:mm` offsets, the US zone names, and two-digit years
 * (00–49 → 20xx, 50–99 → 19xx, as RFC 2822 says). A missing zone is UTC; an
 * unknown zone name is read as UTC rather than rejected, since the date is
 * still right to within a day.
 *
 * @param value The text of a `<pubDate>` or similar element.
 * @returns Epoch milliseconds, or NaN when `value` is not such a date.
 */
export function parseRfc822Date(value: string): number {
  const tokens = value.trim().replace(/,/g, " ").split(/\s+/);
  let t = 0;
  // An optional weekday: any leading word that is not a month.
  const first = tokens[0];
  if (
    first !== undefined && /^[A-Za-z]+\.?$/.test(first) &&
    !(first.slice(0, 3).toLowerCase() in MONTHS)
  ) {
    t++;
  }
  let dayTok = tokens[t];
  let monTok = tokens[t + 1];
  // "Jun 10 2003" appears too; swap to day-month order.
  if (dayTok !== undefined && /^[A-Za-z]/.test(dayTok)) [dayTok, monTok] = [monTok, dayTok];
  const yearTok = tokens[t + 2];
  const timeTok = tokens[t + 3];
  const zoneTok = tokens[t + 4];
  if (dayTok === undefined || monTok === undefined || yearTok === undefined) return NaN;
  if (tokens.length > t + 5) return NaN;
  if (!/^\d{1,2}$/.test(dayTok) || !/^\d{2,4}$/.test(yearTok)) return NaN;
  const month = MONTHS[monTok.slice(0, 3).toLowerCase()];
  if (month === undefined || !/^[A-Za-z]+\.?$/.test(monTok)) return NaN;
  const day = Number(dayTok);
  let year = Number(yearTok);
  if (yearTok.length === 2) year += year < 50 ? 2000 : 1900;
  else if (yearTok.length === 3) year += 1900;

  let hour = 0;
  let minute = 0;
  let second = 0;
  if (timeTok !== undefined) {
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(timeTok);
    if (m === null) return NaN;
    hour = Number(m[1]);
    minute = Number(m[2]);
    second = m[3] === undefined ? 0 : Number(m[3]);
  }
  const local = utc(year, month, day, hour, minute, second, 0);
  if (zoneTok === undefined) return local;
  const off = /^([+-])(\d{2}):?(\d{2})$/.exec(zoneTok);
  if (off !== null) {
    const minutes = Number(off[2]) * 60 + Number(off[3]);
    if (Number(off[3]) > 59) return NaN;
    return off[1] === "+" ? local - minutes * 60_000 : local + minutes * 60_000;
  }
  if (!/^[A-Za-z]{1,5}$/.test(zoneTok)) return NaN;
  const hours = ZONES[zoneTok.toLowerCase()] ?? 0;
  return local - hours * 3_600_000;
}

/**
 * Parses a date in whichever of the two formats it is written: W3C datetime
 * first (sitemaps, Atom, `dc:date`), then RFC 822 (RSS `pubDate`), since
 * generators mix them up.
 *
 * @param value The element's text.
 * @returns Epoch milliseconds, or NaN when neither format matches.
 */
export function parseDate(value: string): number {
  const w3c = parseW3cDate(value);
  if (!Number.isNaN(w3c)) return w3c;
  return parseRfc822Date(value);
}
