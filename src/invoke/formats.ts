import { fullFormats } from 'ajv-formats/dist/formats';
import type { StringFormat } from '../schema/model';

/**
 * Format checks come from ajv-formats (the validator the MCP SDK itself uses), so what a client's JSON
 * Schema validator accepts and what this reader accepts agree. `time` accepts a missing offset
 * (ajv-formats' `iso-time`), because `TimeOnly` values have none.
 */
type Check = (value: string) => boolean;

function checkOf(format: unknown): Check {
  if (format instanceof RegExp) return (s) => format.test(s);
  if (typeof format === 'function') return format as Check;
  if (typeof format === 'object' && format !== null && 'validate' in format) return checkOf((format as { validate: unknown }).validate);
  throw new TypeError('unknown ajv-formats format');
}

const CHECKS: Readonly<Record<StringFormat, Check>> = {
  uuid: checkOf(fullFormats.uuid),
  'date-time': checkOf(fullFormats['date-time']),
  date: checkOf(fullFormats.date),
  time: checkOf(fullFormats['iso-time']),
  uri: checkOf(fullFormats.uri),
  email: checkOf(fullFormats.email),
};

export function formatCheck(format: StringFormat): Check {
  return CHECKS[format];
}

/** RFC 4648 base64 with padding, as `contentEncoding: base64` means. */
export const isBase64: Check = checkOf(fullFormats.byte);

/** What each format is called in error messages. */
export const FORMAT_NAMES: Readonly<Record<StringFormat, string>> = {
  uuid: 'a UUID',
  'date-time': 'an RFC 3339 date-time such as 2024-05-01T12:00:00Z',
  date: 'an RFC 3339 date such as 2024-05-01',
  time: 'a time such as 14:30:00',
  uri: 'an absolute URI',
  email: 'an email address',
};

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
