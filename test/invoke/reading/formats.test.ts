import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats';
import { dateTimeToDate, isDate, isDateTime, msToTimeSpan, timeSpanToMs } from '../../../src/invoke/reading/formats';

const ajvDateTime = (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate;
const ajvDate = (fullFormats.date as { validate: (s: string) => boolean }).validate;

const two = (n: number) => String(n).padStart(2, '0');
/** RFC 3339 date-times built from parts, valid or not (months 0-13, days 0-32, hours 0-24 ...). */
const shaped = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 24 }),
    mi: fc.integer({ min: 0, max: 60 }),
    s: fc.integer({ min: 0, max: 60 }),
    frac: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc
        .record({
          sign: fc.constantFrom('+', '-'),
          h: fc.integer({ min: 0, max: 24 }),
          m: fc.integer({ min: 0, max: 60 }),
          form: fc.constantFrom(':', '', 'hours'),
        })
        .map((z) => `${z.sign}${two(z.h)}${z.form === 'hours' ? '' : `${z.form}${two(z.m)}`}`),
    ),
    t: fc.constantFrom('T', 't', ' ', '\t', '\u00a0', '_'),
  })
  .map(
    (p) =>
      `${String(p.y).padStart(4, '0')}-${two(p.mo)}-${two(p.d)}${p.t}${two(p.h)}:${two(p.mi)}:${two(p.s)}${p.frac ? `.${p.frac}` : ''}${p.zone}`,
  );

describe('date-time and date checks agree with ajv-formats', () => {
  it('on RFC 3339 shaped strings, valid or not', () => {
    fc.assert(
      fc.property(shaped, (s) => isDateTime(s) === ajvDateTime(s)),
      { numRuns: 5000 },
    );
    expect(isDateTime('0000-01-01T23:60:00+00:01')).toBe(ajvDateTime('0000-01-01T23:60:00+00:01'));
    // ajv-formats' leap-second rule lets hour 24 through when the offset makes it 23:59 UTC.
    expect(isDateTime('0000-01-01T24:59:00+01')).toBe(true);
  });

  it('never accept what ajv-formats refuses, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => !isDateTime(s) || ajvDateTime(s)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string(), (s) => isDate(s) === ajvDate(s)),
      { numRuns: 5000 },
    );
  });

  it('on calendar dates', () => {
    fc.assert(
      fc.property(shaped, (s) => isDate(s.slice(0, 10)) === ajvDate(s.slice(0, 10))),
      { numRuns: 5000 },
    );
  });
});

describe('dateTimeToDate builds the Date that new Date(text) builds', () => {
  /** The same instant in the one form `new Date(text)` is specified to read: `T`, `Z` or `+hh:mm`. */
  const iso = (s: string) =>
    `${s.slice(0, 10)}T${s.slice(11)}`
      .replace(/z$/, 'Z')
      .replace(/([+-]\d\d)(\d\d)$/, '$1:$2')
      .replace(/([+-]\d\d)$/, '$1:00');

  it('for every valid date-time, years 0 to 99 and every separator and offset form included', () => {
    fc.assert(
      // new Date(text) refuses leap seconds and hour 24 (which ajv-formats lets through with an offset).
      fc.property(
        shaped.filter(isDateTime).filter((s) => !/:60/.test(s) && Number(s.slice(11, 13)) <= 23),
        (s) => {
          expect(dateTimeToDate(s).getTime()).toBe(new Date(iso(s)).getTime());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('for a leap second, which new Date(text) refuses, the next second', () => {
    expect(dateTimeToDate('2016-12-31T23:59:60Z').toISOString()).toBe('2017-01-01T00:00:00.000Z');
  });

  it('for years 0 to 99 (which Date.UTC would move to the 1900s)', () => {
    expect(dateTimeToDate('0042-03-04T05:06:07.891Z').toISOString()).toBe('0042-03-04T05:06:07.891Z');
  });
});

describe('TimeSpan', () => {
  it.each([
    ['00:00:00', 0],
    ['1.02:03:04.5', 93784500],
    ['-00:00:00.0000001', -0.0001],
  ])('%s is %d ms', (text, ms) => {
    expect(timeSpanToMs(text)).toBe(ms);
  });

  it('writes milliseconds back in the c form', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (ms) => timeSpanToMs(msToTimeSpan(ms)) === ms),
      { numRuns: 2000 },
    );
    expect(msToTimeSpan(93784500)).toBe('1.02:03:04.5000000');
  });
});
