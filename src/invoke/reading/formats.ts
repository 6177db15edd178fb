import { DependencyError } from '../../errors';
import type { fullFormats as FullFormats } from 'ajv-formats/dist/formats';
import type { StringFormat } from '../../schema/model';
import { isObjectLike } from '../../objects';

/**
 * Format checks come from ajv-formats (the validator the MCP SDK itself uses), so what a client's JSON
 * Schema validator accepts and what this reader accepts agree. `time` accepts a missing offset
 * (ajv-formats' `iso-time`), because `TimeOnly` values have none.
 */
type Check = (value: string) => boolean;

function checkOf(format: unknown): Check {
  if (format instanceof RegExp) return (s) => format.test(s);
  if (typeof format === 'function') return format as Check;
  if (isObjectLike(format) && 'validate' in format) return checkOf((format as { validate: unknown }).validate);
  throw new DependencyError('unknown ajv-formats format');
}

let formats: typeof FullFormats | undefined;

/**
 * An ajv-formats check, loaded on its first use rather than at start-up (a stdio server that never reads such
 * a format never loads the package).
 */
function ajvCheck(name: keyof typeof FullFormats): Check {
  let check: Check | undefined;
  return (s) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    formats ??= (require('ajv-formats/dist/formats') as { fullFormats: typeof FullFormats }).fullFormats;
    check ??= checkOf(formats[name]);
    return check(s);
  };
}

const ajvDateTime = ajvCheck('date-time');

/** Two ASCII digits at `i` as a number. */
function two(s: string, i: number): number {
  return (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
}

const DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY-MM-DD` at the start of `s` (already shaped by a regex) names a real calendar day. */
function realDay(s: string): boolean {
  const month = two(s, 5);
  const day = two(s, 8);
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month]) return false;
  if (month !== 2 || day !== 29) return true;
  const year = two(s, 0) * 100 + two(s, 2);
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The shapes ajv-formats' `date-time` accepts, as one regex: `T`, `t` or a space between date and time,
 * and an offset `Z`, `+01`, `+0100` or `+01:00`. ajv-formats splits on any whitespace; the rarer
 * separators (tab, no-break space ...) are handed to it.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/** Where the offset of a date-time `DATE_TIME` matched starts: after the seconds and any fraction. */
function offsetStart(s: string): number {
  let i = 19;
  if (s.charCodeAt(i) === 46) for (i++; s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++);
  return i;
}

/** Offset minutes east of UTC of a matched date-time, with the offset starting at `i`. */
function offsetMinutes(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 90 || c === 122) return 0;
  const minutes = s.length - i === 3 ? 0 : two(s, s.length - 2);
  return (c === 45 ? -1 : 1) * (two(s, i + 1) * 60 + minutes);
}

/**
 * RFC 3339 date-time, as ajv-formats checks it, without its string splitting on the hot path; leap
 * seconds (`:60`) and unusual separators go to ajv-formats itself. A test holds the two to the same answers.
 */
export function isDateTime(s: string): boolean {
  if (!DATE_TIME.test(s)) return ajvDateTime(s);
  if (!realDay(s)) return false;
  const at = offsetStart(s);
  const c = s.charCodeAt(at);
  if (c !== 90 && c !== 122 && (two(s, at + 1) > 23 || (s.length - at > 3 && two(s, s.length - 2) > 59))) return false;
  // Leap seconds, as ajv-formats reads them: any time whose UTC reading is 23:59 may have second 60, and
  // its check lets hour 24 and minute 60 through when the offset brings them back to 23:59 UTC.
  if (two(s, 11) > 23 || two(s, 14) > 59 || two(s, 17) > 59) return ajvDateTime(s);
  return true;
}

/** 400 Gregorian years, in milliseconds: the calendar repeats after them, leap days included. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/**
 * The `Date` of a string `isDateTime` accepted, built from its digits: several times faster than
 * `new Date(text)`, which parses the text again. Fractions beyond milliseconds are cut, as `Date` does.
 */
export function dateTimeToDate(s: string): Date {
  const year = two(s, 0) * 100 + two(s, 2);
  let ms = 0;
  let scale = 100;
  for (let i = 20; s.charCodeAt(19) === 46 && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++) {
    ms += (s.charCodeAt(i) - 48) * scale;
    scale /= 10;
  }
  // Date.UTC reads years 0-99 as 1900-1999; 400 years later the calendar is the same, so count from there.
  const utc = Date.UTC(year + 400, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), Math.floor(ms)) - FOUR_CENTURIES_MS;
  return new Date(utc - offsetMinutes(s, offsetStart(s)) * 60_000);
}

/** RFC 3339 full-date, as ajv-formats checks it. */
export function isDate(s: string): boolean {
  return DATE.test(s) && realDay(s);
}

const CHECKS: Readonly<Record<StringFormat, Check>> = {
  uuid: ajvCheck('uuid'),
  'date-time': isDateTime,
  date: isDate,
  time: ajvCheck('iso-time'),
  uri: ajvCheck('uri'),
  email: ajvCheck('email'),
};

export function formatCheck(format: StringFormat): Check {
  return CHECKS[format];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;

/**
 * Canonical RFC 4648 base64: the standard alphabet, padded to a multiple of four, and the unused bits of
 * the last character zero (so one text means one byte string). ajv-formats' `byte` is not used: its
 * multiline regex accepts any text holding a newline followed by anything.
 */
export const isBase64: Check = (s) => BASE64.test(s);

const TIMESPAN = /^(-)?(?:(\d{1,8})\.)?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;

/** Milliseconds of a .NET `c`-form TimeSpan already matched by the schema's pattern. */
export function timeSpanToMs(text: string): number {
  const m = TIMESPAN.exec(text)!;
  const ticks = Number((m[6] ?? '').padEnd(7, '0'));
  const ms = Number(m[2] ?? 0) * 86_400_000 + Number(m[3]) * 3_600_000 + Number(m[4]) * 60_000 + Number(m[5]) * 1000 + ticks / 10_000;
  return m[1] ? -ms : ms;
}

/** The `c` form of a number of milliseconds, for results. */
export function msToTimeSpan(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let ticks = Math.round(Math.abs(ms) * 10_000);
  const days = Math.floor(ticks / 864_000_000_000);
  ticks -= days * 864_000_000_000;
  const h = Math.floor(ticks / 36_000_000_000);
  ticks -= h * 36_000_000_000;
  const m = Math.floor(ticks / 600_000_000);
  ticks -= m * 600_000_000;
  const s = Math.floor(ticks / 10_000_000);
  ticks -= s * 10_000_000;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${sign}${days ? `${days}.` : ''}${two(h)}:${two(m)}:${two(s)}${ticks ? `.${String(ticks).padStart(7, '0')}` : ''}`;
}
