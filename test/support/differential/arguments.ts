import fc from 'fast-check';
import type { Schema } from '../json-schema';

/**
 * Arguments generated from a LISTED inputSchema (exact JSON Schema 2020-12), biased to the edges: valid values,
 * bounds +-1, code-point edges, lone surrogates, extra / missing / null properties, hostile keys, reordered keys
 * in unique arrays; sometimes a value of another type.
 */

const matchers = new Map<string, fc.Arbitrary<string> | undefined>();

/**
 * A generator of the strings a pattern matches, where fast-check can build one (no lookaheads, no backreferences);
 * one per pattern (building one for a long pattern takes a while; a generator holds no state).
 */
function matching(pattern: string): fc.Arbitrary<string> | undefined {
  if (matchers.has(pattern)) return matchers.get(pattern);
  let out: fc.Arbitrary<string> | undefined;
  try {
    out = fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    out = undefined;
  }
  matchers.set(pattern, out);
  return out;
}

const ALPHABET = [...'0123456789abcdefxABCDEFXZT:-.+/=# '];
const near = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((a) => a.join(''));

// ---- generation from the listed schema, biased to the edges ----

const UNITS = ['a', 'Z', '0', ' ', 'é', '中', '😀', '\ud800', '\udc00', '\ufe0f', '\u0000', '"', '\n'];
const anyUnit = fc.constantFrom(...UNITS);
const junk = fc.constantFrom<unknown>(null, true, false, 0, -0, 1, -1, 1.5, 1e300, '', 'x', [], {}, [1], { a: 1 }, '1', 'null');

function textOfLength(n: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return n.chain((k) => fc.array(anyUnit, { minLength: Math.max(0, k), maxLength: Math.max(0, k) }).map((u) => u.join('')));
}

const two = (n: number) => String(n).padStart(2, '0');
const dateText = fc
  .record({
    y: fc.constantFrom(0, 1, 99, 100, 1900, 2000, 2024, 2100, 9999),
    m: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
  })
  .map(({ y, m, d }) => `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}`);
const timeText = fc
  .record({
    h: fc.integer({ min: 0, max: 24 }),
    m: fc.integer({ min: 0, max: 60 }),
    s: fc.integer({ min: 0, max: 61 }),
    frac: fc.constantFrom('', '.5', '.123456789'),
    zone: fc.constantFrom('', 'Z', 'z', '+01', '-0130', '+01:00', '-23:59', '+24:00', '+01:60', '+1'),
  })
  .map(({ h, m, s, frac, zone }) => `${two(h)}:${two(m)}:${two(s)}${frac}${zone}`);
const dateTimeText = fc.tuple(dateText, fc.constantFrom('T', 't', ' ', '\t', '_', ''), timeText).map(([d, sep, t]) => `${d}${sep}${t}`);

function formatted(format: string): fc.Arbitrary<string> {
  switch (format) {
    case 'uuid':
      return fc.oneof(
        fc.uuid(),
        fc.uuid().map((u) => `urn:uuid:${u}`),
        fc.uuid().map((u) => u.toUpperCase()),
        fc.uuid().map((u) => u.slice(1)),
      );
    case 'date':
      return dateText;
    case 'time':
      return timeText;
    case 'date-time':
      return fc.oneof(
        dateTimeText,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      );
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'a@b.c', 'a..b@c.d', '@b.c', 'a@-b.c', 'é@b.c', 'a@b.c\n'));
    case 'ipv4':
      return fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.constantFrom('256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4\n'));
    case 'uri':
      return fc.oneof(
        fc.webUrl(),
        fc.constantFrom(
          'http://a:99999',
          'http://[v1.x]/',
          'http://[::1]/',
          'a:b',
          'mailto:x@y',
          'x',
          '/relative',
          'http://a b',
          'urn:isbn:1',
          'http://%zz/',
          'file:///c:/x',
        ),
      );
  }
  return fc.string();
}

function stringOf(s: Schema): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 6);
  const lengths = fc.oneof(fc.constantFrom(min - 1, min, max, max + 1), fc.integer({ min, max }));
  const options: fc.Arbitrary<unknown>[] = [textOfLength(lengths)];
  const fromPattern = s.pattern === undefined ? undefined : matching(s.pattern);
  if (fromPattern)
    options.push(
      fromPattern,
      fromPattern.map((x) => `${x}A`),
    );
  if (s.pattern)
    options.push(
      near,
      near.map((x) => `${x}a.`),
    );
  if (s.format) options.push(formatted(s.format), formatted(s.format));
  if (s.minLength === 1) options.push(fc.constant(''));
  if (s.contentEncoding === 'base64') {
    options.push(
      fc.uint8Array({ maxLength: 7 }).map((b) => Buffer.from(b).toString('base64')),
      fc.constantFrom('%%%%\n', 'QQ', 'QR==', 'QUI=\n', 'QUJD\n%%%%', 'Q===', '====', 'QUJD QUJD', 'QU=D'),
    );
  }
  return fc.oneof(...options);
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const lo = s.minimum ?? -1e6;
  const hi = s.maximum ?? 1e6;
  const edges = integer
    ? [lo, hi, lo - 1, hi + 1, 0, -0, lo + 0.5]
    : [lo, hi, lo - 1e-9, hi + 1e-9, 0, -0, Number.MAX_VALUE, -Number.MIN_VALUE, Number.MIN_VALUE];
  const step = s.multipleOf as number | undefined;
  if (step !== undefined) edges.push(step, -step, step + 1, 2 * step, 3 * step - 1);
  const inside = integer
    ? fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(fc.constantFrom(...edges), inside);
}

/** Reorders an object's keys (deeply): equal as JSON, different as text. */
export function shuffled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shuffled);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(v).reverse()) define(out, k, shuffled((v as Record<string, unknown>)[k]));
  return out;
}

/** An own property even for `__proto__`, so the JSON text carries it. */
export function define(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'x', 'valueOf'];

function arrayOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const item = valueOf(s.items ?? {}, depth + 1);
  const min = s.minItems ?? 0;
  const max = Math.min(s.maxItems ?? 3, 4);
  const plain = fc.array(item, { minLength: Math.max(0, min - 1), maxLength: max + 1 });
  if (!s.uniqueItems) return plain;
  const withDuplicate = fc
    .tuple(fc.array(item, { minLength: Math.max(0, min - 1), maxLength: max }), item)
    .map(([xs, x]) => [...xs, x, shuffled(x)]);
  return fc.oneof(plain, withDuplicate);
}

export function objectOf(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const fixed = Object.entries(s.properties ?? {});
  const additional = typeof s.additionalProperties === 'object' ? s.additionalProperties : s.properties ? undefined : {};
  const entries = fc.tuple(
    ...fixed.map(([k, p]) =>
      fc.oneof(
        { weight: 8, arbitrary: valueOf(p, depth + 1).map((v) => [k, v] as const) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant([k, null] as const) },
      ),
    ),
  );
  const extra = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 3 })), additional ? valueOf(additional, depth + 1) : junk),
    { maxLength: additional ? 3 : 1 },
  );
  const extraWeight = additional ? 4 : 1;
  return fc
    .tuple(entries, fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: extraWeight, arbitrary: extra }))
    .map(([given, more]) => {
      const o: Record<string, unknown> = Object.create(null);
      for (const e of given) if (e) define(o, e[0], e[1]);
      for (const [k, v] of more) define(o, k, v);
      return o;
    });
}

/**
 * JSON objects for `@IsNotEmptyObject` without the hostile keys: class-validator's own check calls
 * `value.hasOwnProperty(key)`, which throws on an object that has its own `hasOwnProperty` (reading lists
 * and enforces `minProperties` and never runs that check, so only the oracle here would fail).
 */
export const plainObjects = fc.oneof(
  fc.constantFrom({}, null, [], 'x', 1),
  fc.dictionary(fc.constantFrom('a', 'b', ''), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

const cache = new Map<Schema, fc.Arbitrary<unknown>>();

/** Values for one listed fragment: mostly valid, often at an edge, sometimes of another type. */
export function valueOf(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  const cached = cache.get(s);
  if (cached) return cached;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  const options: fc.Arbitrary<unknown>[] = [];
  if (s.enum) options.push(fc.constantFrom(...s.enum), fc.constantFrom(...s.enum), fc.constantFrom('0', 'red', 'Red ', 'S', 'Small', 's'));
  else if (s.const !== undefined) options.push(fc.constant(s.const), fc.constant(s.const), fc.constantFrom(false, 'true', 1));
  else {
    for (const t of types) {
      if (t === 'null') options.push(fc.constant(null));
      if (t === 'boolean') options.push(fc.boolean());
      if (t === 'integer' || t === 'number') options.push(numberOf(s, t === 'integer'));
      if (t === 'string') options.push(stringOf(s));
      if (t === 'string' && s.not?.enum) options.push(fc.constantFrom(...s.not.enum));
      if (t === 'array') options.push(depth > 3 ? fc.constant([]) : arrayOf(s, depth));
      if (t === 'object') options.push(depth > 3 ? fc.constant({}) : objectOf(s, depth));
    }
    // Subtypes (`oneOf`; `anyOf` in a profile's listing): a value of each branch.
    const branches = s.oneOf ?? s.anyOf;
    if (branches && types.length === 0) options.push(...branches.map((b) => valueOf(b, depth)));
    else if (types.length === 0)
      options.push(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom({ a: 1, b: 2 }, { b: 2, a: 1 }, [1, '1'], '{"a":1}'));
  }
  const arbitrary = fc.oneof({ weight: 12, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: junk });
  cache.set(s, arbitrary);
  return arbitrary;
}

/**
 * The rules' record with one property given at a time (sometimes none, sometimes an unknown one): with all
 * of them optional and each often invalid, whole records would almost never be accepted.
 */
export function oneRuleAtATime(record: Schema): fc.Arbitrary<unknown> {
  const one = Object.entries(record.properties!).map(([k, p]) =>
    (k === 'meta' ? plainObjects : valueOf(p, 1)).map((v) => ({ checked: { [k]: v } })),
  );
  return fc.oneof(
    { weight: 20, arbitrary: fc.oneof(...one) },
    { weight: 1, arbitrary: fc.constantFrom({}, { checked: {} }, { checked: { x: 1 } }, { checked: null }) },
  );
}
