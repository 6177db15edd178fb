import type { SlotModel, ParamModel, RecordNode, TypeNode } from '../schema/model';
import { INVALID, fail, type Failure } from './failure';
import { FORMAT_NAMES, dateTimeToDate, formatCheck, isBase64, timeSpanToMs } from './formats';
import { firstValidationError, needsClassValidator } from './validator';
import { isObject } from './values';
import { transformsOf } from '../decorators/foreign';

/**
 * Compiled argument readers: one closure tree per tool, built once from the type model. A reader checks
 * everything the schema promises and converts to what the method receives; it returns `INVALID` (and fills
 * the `Failure`) for the first invalid value. No coercion: `"2"` is not an integer.
 */
export type Reader = (value: unknown, f: Failure) => unknown;

const hasOwn = Object.prototype.hasOwnProperty;

/** Length in Unicode code points, as JSON Schema counts it. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function lengthText(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${unit}` : `${min} to ${max} ${unit}`;
  if (min !== undefined) return `at least ${min} ${unit}`;
  return `at most ${max} ${unit}`;
}

const caches = { read: new WeakMap<TypeNode, Reader>(), check: new WeakMap<TypeNode, Reader>() };

/**
 * The reader of one type; the same model node always gives the same reader. `check` readers only
 * validate (results against their own output schema) and are cached apart from `read` ones.
 */
export function readerOf(node: TypeNode, mode: 'read' | 'check' = 'read'): Reader {
  let reader = caches[mode].get(node);
  if (!reader) {
    reader = compile(node, mode);
    caches[mode].set(node, reader);
  }
  return reader;
}

function compile(node: TypeNode, mode: 'read' | 'check'): Reader {
  switch (node.kind) {
    case 'boolean':
      return (v, f) => (typeof v === 'boolean' ? v : fail(f, `Expected true or false, got ${typeName(v)}.`));
    case 'number': {
      const min = node.minimum ?? -Infinity;
      const max = node.maximum ?? Infinity;
      const expected = Number.isFinite(min) || Number.isFinite(max) ? `Expected a number from ${min} to ${max}.` : 'Expected a number.';
      return (v, f) => (typeof v === 'number' && v >= min && v <= max ? v : fail(f, expected));
    }
    case 'integer': {
      const { minimum: min, maximum: max, bigint } = node;
      const expected = `Expected a whole number from ${min} to ${max}.`;
      if (bigint && mode === 'read') {
        return (v, f) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? BigInt(v) : fail(f, expected));
      }
      if (bigint) {
        return (v, f) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(f, expected));
      }
      return (v, f) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(f, expected));
    }
    case 'string':
      return stringReader(node, mode);
    case 'bytes': {
      const buffer = node.as === 'buffer';
      return (v, f) => {
        if (typeof v !== 'string' || !isBase64(v)) return fail(f, 'Expected base64 text.');
        if (mode === 'check') return v;
        const bytes = Buffer.from(v, 'base64');
        return buffer ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      };
    }
    case 'enum': {
      const values = new Map(node.names.map((n, i) => [n, node.values[i]] as const));
      const shown = node.names.length <= 20 ? node.names.join(', ') : `${node.names.slice(0, 20).join(', ')}, ...`;
      const expected = `Expected one of: ${shown}.`;
      if (mode === 'check') return (v, f) => (typeof v === 'string' && values.has(v) ? v : fail(f, expected));
      return (v, f) => (typeof v === 'string' && values.has(v) ? values.get(v) : fail(f, expected));
    }
    case 'nullable': {
      const inner = readerOf(node.inner, mode);
      return (v, f) => (v === null ? null : inner(v, f));
    }
    case 'array':
      return arrayReader(node, mode);
    case 'dictionary': {
      const value = readerOf(node.values, mode);
      const asMap = node.as === 'map' && mode === 'read';
      return (v, f) => {
        if (!isObject(v)) return fail(f, `Expected an object, got ${typeName(v)}.`);
        const out: Map<string, unknown> | Record<string, unknown> = asMap ? new Map() : Object.create(null);
        for (const k in v) {
          if (!hasOwn.call(v, k)) continue;
          const item = value(v[k], f);
          if (item === INVALID) {
            f.path.push(k);
            return INVALID;
          }
          if (asMap) (out as Map<string, unknown>).set(k, item);
          else (out as Record<string, unknown>)[k] = item;
        }
        return out;
      };
    }
    case 'json':
      if (node.shape === 'object') return (v, f) => (isObject(v) ? v : fail(f, `Expected a JSON object, got ${typeName(v)}.`));
      if (node.shape === 'array') return (v, f) => (Array.isArray(v) ? v : fail(f, `Expected a JSON array, got ${typeName(v)}.`));
      return (v, f) => (v === undefined ? fail(f, 'Expected a JSON value.') : v);
    case 'record':
      return recordReader(node, mode);
  }
}

function stringReader(node: Extract<TypeNode, { kind: 'string' }>, mode: 'read' | 'check'): Reader {
  const { minLength: min, maxLength: max, format, as } = node;
  const pattern = node.pattern === undefined ? undefined : new RegExp(node.pattern, 'u');
  const check = format && formatCheck(format);
  const lengthExpected = min !== undefined || max !== undefined ? `Expected ${lengthText(min, max, 'characters')}.` : '';
  const patternExpected = `Expected text matching ${node.pattern}.`;
  const formatExpected = format && `Expected ${FORMAT_NAMES[format]}.`;
  const convert =
    mode === 'check' || as === 'string' ? undefined : as === 'date' ? dateTimeToDate : as === 'url' ? (s: string) => new URL(s) : timeSpanToMs;
  return (v, f) => {
    if (typeof v !== 'string') return fail(f, `Expected a string, got ${typeName(v)}.`);
    if (min !== undefined || max !== undefined) {
      // UTF-16 length is an upper bound of the code point count; count only when it matters.
      const n = (min !== undefined && v.length < min) || (max !== undefined && v.length > max) ? codePoints(v) : v.length;
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) return fail(f, lengthExpected);
    }
    if (pattern && !pattern.test(v)) return fail(f, patternExpected);
    if (check && !check(v)) return fail(f, formatExpected!);
    return convert ? convert(v) : v;
  };
}

/** A key that identifies equal JSON values, for sets and `uniqueItems`. */
function identity(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
}

function arrayReader(node: Extract<TypeNode, { kind: 'array' }>, mode: 'read' | 'check'): Reader {
  const item = readerOf(node.items, mode);
  const { minItems: min, maxItems: max, set, uniqueItems } = node;
  const counted = min !== undefined || max !== undefined;
  const lengthExpected = `Expected ${lengthText(min, max, 'items')}.`;
  const makeSet = set && mode === 'read';
  // A set drops duplicates (DESIGN.md, as the seed's HashSet); a plain array with uniqueItems refuses them.
  const refuseDuplicates = uniqueItems && !set;
  return (v, f) => {
    if (!Array.isArray(v)) return fail(f, `Expected an array, got ${typeName(v)}.`);
    const n = v.length;
    if (counted && ((min !== undefined && n < min) || (max !== undefined && n > max))) return fail(f, lengthExpected);
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = item(v[i], f);
      if (x === INVALID) {
        f.path.push(i);
        return INVALID;
      }
      out[i] = x;
    }
    if (refuseDuplicates || makeSet) {
      const seen = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) {
        const key = identity(v[i]);
        if (seen.has(key)) {
          if (refuseDuplicates) {
            f.path.push(i);
            return fail(f, 'Expected no duplicate items.');
          }
          continue;
        }
        seen.set(key, out[i]);
      }
      if (makeSet) return new Set(seen.values());
    }
    return out;
  };
}

interface PropertyStep {
  readonly name: string;
  readonly key: string;
  readonly read: Reader;
  readonly required: boolean;
  readonly fallback?: () => unknown;
  readonly transforms: readonly ((value: unknown, obj: object) => unknown)[];
}

/** A fresh copy of a default for each call, so one call cannot change another's default. */
export function fallbackOf(slot: SlotModel): (() => unknown) | undefined {
  if (!slot.default) return undefined;
  const value = slot.default.value;
  if (typeof value !== 'object' || value === null) return () => value;
  return () => structuredClone(value);
}

/**
 * A record's reader is generated once per record class as a straight-line function (property names are
 * the class's own, embedded as JSON string literals), so every property access is monomorphic: this is
 * the hot path of most tools, and an interpreted loop over properties costs several times more.
 */
function recordReader(node: RecordNode, mode: 'read' | 'check'): Reader {
  const ctor = node.ctor as new () => Record<string, unknown>;
  const steps: PropertyStep[] = node.properties.map((p) => ({
    name: p.name,
    key: p.key,
    read: readerOf(p.type, mode),
    required: p.required,
    fallback: mode === 'read' && !p.required ? fallbackOf(p) : undefined,
    transforms: mode === 'read' ? transformsOf(ctor, p.key, 'input') : [],
  }));
  const validate = mode === 'read' && needsClassValidator(ctor);
  const wireName = new Map(node.properties.map((p) => [p.key, p.name]));
  // plainToInstance calls the constructor without arguments, so initialisers run; so do we.
  const construct =
    mode === 'check' ? () => ({}) : ctor.length === 0 ? () => new ctor() : () => Object.create(ctor.prototype) as Record<string, unknown>;
  const afterValidation = (out: Record<string, unknown>, f: Failure): unknown => {
    const error = firstValidationError(out);
    if (!error) return out;
    const last = error.path.length - 1;
    if (typeof error.path[last] === 'string') error.path[last] = wireName.get(error.path[last] as string) ?? error.path[last];
    f.path.push(...error.path);
    return fail(f, error.message ? `${error.message[0].toUpperCase()}${error.message.slice(1)}.` : '');
  };
  const lines: string[] = [
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return notObject(v, f);',
    'const out = construct();',
    'let matched = 0, x;',
  ];
  steps.forEach((step, i) => {
    const name = JSON.stringify(step.name);
    const key = JSON.stringify(step.key);
    // Names Object.prototype also has (constructor, toString, __proto__ ...) must be own to count.
    const load = step.name in Object.prototype ? `x = hasOwn.call(v, ${name}) ? v[${name}] : undefined;` : `x = v[${name}];`;
    const transforms = step.transforms.map((_, t) => `x = steps[${i}].transforms[${t}](x, v);`).join(' ');
    const missing = step.required
      ? `f.path.push(${name}); return fail(f, "It is required.");`
      : step.fallback
        ? `out[${key}] = steps[${i}].fallback();`
        : '';
    lines.push(
      load,
      `if (x !== undefined) { matched++; x = steps[${i}].read(x, f); if (x === INVALID) { f.path.push(${name}); return INVALID; } ${transforms} out[${key}] = x; }`,
      missing ? `else { ${missing} }` : '',
    );
  });
  lines.push(
    'let total = 0; for (const k in v) total++;',
    'if (total !== matched) { total = 0; for (const k in v) if (hasOwn.call(v, k) && v[k] !== undefined) total++; if (total !== matched) return unknownKey(v, steps, f); }',
    validate ? 'return afterValidation(out, f);' : 'return out;',
  );
  const factory = new Function(
    'steps', 'construct', 'notObject', 'unknownKey', 'afterValidation', 'fail', 'INVALID', 'hasOwn',
    `return function readRecord(v, f) {\n${lines.filter(Boolean).join('\n')}\n};`,
  );
  const notObject = (v: unknown, f: Failure) => fail(f, `Expected an object, got ${typeName(v)}.`);
  return factory(steps, construct, notObject, unknownKey, afterValidation, fail, INVALID, hasOwn) as Reader;
}

function unknownKey(v: Record<string, unknown>, steps: readonly { name: string }[], f: Failure): typeof INVALID {
  const known = new Set(steps.map((s) => s.name));
  for (const k in v) {
    if (hasOwn.call(v, k) && v[k] !== undefined && !known.has(k)) {
      f.path.push(k);
      return fail(f, 'There is no such property.');
    }
  }
  return INVALID;
}

/** How `argumentsReader` reads: resource and prompt arguments are text, and unknown ones are ignored. */
export interface ArgumentsReading {
  readonly readerOf?: (type: TypeNode) => Reader;
  readonly ignoreUnknown?: boolean;
}

/** Reads a tool's arguments object into the method's argument list (context slots left empty). */
export function argumentsReader(
  params: readonly ParamModel[],
  arity: number,
  reading: ArgumentsReading = {},
): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  const reader = reading.readerOf ?? ((type: TypeNode) => readerOf(type));
  const steps = params.map((p) => ({ name: p.name, index: p.index, read: reader(p.type), required: p.required, fallback: fallbackOf(p) }));
  const refuseUnknown = !reading.ignoreUnknown;
  const known = new Set(params.map((p) => p.name));
  return (args, f) => {
    const given = args === undefined || args === null ? {} : args;
    if (!isObject(given)) return fail(f, 'Arguments must be an object.');
    const out = new Array(arity);
    let matched = 0;
    for (const step of steps) {
      if (hasOwn.call(given, step.name) && given[step.name] !== undefined) {
        matched++;
        const x = step.read(given[step.name], f);
        if (x === INVALID) {
          f.path.push(step.name);
          return INVALID;
        }
        out[step.index] = x;
      } else if (step.required) {
        f.path.push(step.name);
        return fail(f, 'It is required.');
      } else if (step.fallback) {
        out[step.index] = step.fallback();
      }
    }
    let total = 0;
    for (const k in given) if (hasOwn.call(given, k) && given[k] !== undefined) total++;
    if (total !== matched && refuseUnknown) {
      for (const k in given) {
        if (hasOwn.call(given, k) && !known.has(k)) {
          f.path.push(k);
          return fail(f, 'There is no such argument.');
        }
      }
    }
    return out;
  };
}
