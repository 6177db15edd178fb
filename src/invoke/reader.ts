import type { ExactRule, SlotModel, ParamModel, RecordNode, TypeNode } from '../schema/model';
import { INVALID, fail, type Failure } from './failure';
import { FORMAT_NAMES, dateTimeToDate, formatCheck, isBase64, timeSpanToMs } from './formats';
import { recordReaderOf, recordStrategy, typeName, type PropertyStep, type Reader, type RecordPlan } from './record-reader';
import { firstValidationError, leftToClassValidator, type LeftToClassValidator } from './validator';
import { isObject } from './values';
import { transformsOf } from '../decorators/foreign';

/**
 * Compiled argument readers: one closure tree per tool, built once from the type model. A reader checks
 * everything the schema promises and converts to what the method receives; it returns `INVALID` (and fills
 * the `Failure`) for the first invalid value. No coercion: `"2"` is not an integer (unless a server opts in
 * to `lenientJsonStrings`, which reads a JSON-encoded object or array sent as a string).
 */
export type { Reader };

/**
 * `read` converts to what the method receives; `lenient` does the same and also reads an object or array
 * sent as JSON text; `check` only validates (results against their own output schema).
 */
export type ReadMode = 'read' | 'lenient' | 'check';

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


/** `exactly 1 character`, `2 to 5 items`, `at least 3 characters`: the unit agrees with the last number. */
function lengthText(min: number | undefined, max: number | undefined, unit: 'character' | 'item'): string {
  const of = (n: number | undefined) => (n === 1 ? unit : `${unit}s`);
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${of(min)}` : `${min} to ${max} ${of(max)}`;
  if (min !== undefined) return `at least ${min} ${of(min)}`;
  return `at most ${max} ${of(max)}`;
}

/** `from 1 to 5`, `at least 0`, `at most 10`: a numeric range in words, an open end left out. */
function rangeText(min: number, max: number): string {
  if (Number.isFinite(min) && Number.isFinite(max)) return `from ${min} to ${max}`;
  return Number.isFinite(min) ? `at least ${min}` : `at most ${max}`;
}

const cacheSet = () => ({ read: new WeakMap<TypeNode, Reader>(), lenient: new WeakMap<TypeNode, Reader>(), check: new WeakMap<TypeNode, Reader>() });
const caches = { generated: cacheSet(), interpreted: cacheSet() };

/**
 * The reader of one type; the same model node always gives the same reader for a mode (and for the
 * record strategy in use, so a test can build both kinds side by side).
 */
export function readerOf(node: TypeNode, mode: ReadMode = 'read'): Reader {
  const cache = caches[recordStrategy()][mode];
  let reader = cache.get(node);
  if (!reader) {
    reader = mode === 'lenient' ? lenient(node, compile(node, mode)) : compile(node, mode);
    cache.set(node, reader);
  }
  return reader;
}

/** Reads a JSON-encoded object or array sent as a string where the schema expects one (opt-in). */
function lenient(node: TypeNode, read: Reader): Reader {
  const shape = node.kind === 'array' || (node.kind === 'json' && node.shape === 'array') ? 'array' : 'object';
  if (node.kind !== 'record' && node.kind !== 'array' && node.kind !== 'dictionary' && !(node.kind === 'json' && node.shape !== 'any')) return read;
  return (v, f) => {
    if (typeof v !== 'string') return read(v, f);
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return read(v, f);
    }
    const fits = shape === 'array' ? Array.isArray(parsed) : typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    return read(fits ? parsed : v, f);
  };
}

function compile(node: TypeNode, mode: ReadMode): Reader {
  const read = compileBare(node, mode);
  return node.kind !== 'nullable' && node.rules?.length ? withRules(read, node.rules) : read;
}

/**
 * A reader that also runs a node's exact rules (schema/validator-rules.ts) on the JSON value once its own
 * checks pass, and reports every rule that fails, not just the first.
 */
function withRules(read: Reader, rules: readonly ExactRule[]): Reader {
  return (v, f) => {
    const x = read(v, f);
    if (x === INVALID) return x;
    let failed: string | undefined;
    for (let i = 0; i < rules.length; i++) {
      if (!rules[i].test(v)) failed = failed === undefined ? rules[i].expected : `${failed} ${rules[i].expected}`;
    }
    return failed === undefined ? x : fail(f, failed);
  };
}

function compileBare(node: TypeNode, mode: ReadMode): Reader {
  switch (node.kind) {
    case 'boolean':
      return (v, f) => (typeof v === 'boolean' ? v : fail(f, `Expected true or false, got ${typeName(v)}.`));
    case 'number': {
      const min = node.minimum ?? -Infinity;
      const max = node.maximum ?? Infinity;
      const expected = Number.isFinite(min) || Number.isFinite(max) ? `Expected a number ${rangeText(min, max)}.` : 'Expected a number.';
      return (v, f) => (typeof v === 'number' && v >= min && v <= max ? v : fail(f, expected));
    }
    case 'integer': {
      const { minimum: min, maximum: max } = node;
      const expected = `Expected a whole number from ${min} to ${max}.`;
      const check: Reader = (v, f) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(f, expected));
      if (!node.bigint || mode === 'check') return check;
      return (v, f) => {
        const x = check(v, f);
        return x === INVALID ? x : BigInt(x as number);
      };
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
    case 'enum':
      return enumReader(node, mode);
    case 'nullable': {
      const inner = readerOf(node.inner, mode);
      return (v, f) => (v === null ? null : inner(v, f));
    }
    case 'array':
      return arrayReader(node, mode);
    case 'dictionary':
      return dictionaryReader(node, mode);
    case 'json':
      if (node.shape === 'object') return (v, f) => (isObject(v) ? v : fail(f, `Expected a JSON object, got ${typeName(v)}.`));
      if (node.shape === 'array') return (v, f) => (Array.isArray(v) ? v : fail(f, `Expected a JSON array, got ${typeName(v)}.`));
      return (v, f) => (v === undefined ? fail(f, 'Expected a JSON value.') : v);
    case 'record':
      return recordReader(node, mode);
    case 'discriminated':
      return discriminatedReader(node, mode);
  }
}

/**
 * Picks the subtype by the discriminator's value, as class-transformer does, and reads the object as that
 * subtype's closed record; a missing or unknown value is refused (class-transformer would fall back to the
 * base class, which the listing does not offer).
 */
function discriminatedReader(node: Extract<TypeNode, { kind: 'discriminated' }>, mode: ReadMode): Reader {
  const { property } = node;
  const readers = new Map(node.subtypes.map((s) => [s.name, readerOf(s.record, mode)] as const));
  const expected = `Expected one of: ${node.subtypes.map((s) => s.name).join(', ')}.`;
  return (v, f) => {
    if (!isObject(v)) return fail(f, `Expected an object, got ${typeName(v)}.`);
    const tag = hasOwn.call(v, property) ? v[property] : undefined;
    const read = typeof tag === 'string' ? readers.get(tag) : undefined;
    if (read) return read(v, f);
    f.path.push(property);
    return fail(f, expected);
  };
}

function enumReader(node: Extract<TypeNode, { kind: 'enum' }>, mode: ReadMode): Reader {
  const values = new Map(node.listed.map((n, i) => [n, node.values[i]] as const));
  const shown = node.listed.length <= 20 ? node.listed.join(', ') : `${node.listed.slice(0, 20).join(', ')}, ...`;
  const expected = `Expected one of: ${shown}.`;
  if (mode === 'check') return (v, f) => (typeof v === 'string' && values.has(v) ? v : fail(f, expected));
  return (v, f) => (typeof v === 'string' && values.has(v) ? values.get(v) : fail(f, expected));
}

function dictionaryReader(node: Extract<TypeNode, { kind: 'dictionary' }>, mode: ReadMode): Reader {
  const value = readerOf(node.values, mode);
  const asMap = node.as === 'map' && mode !== 'check';
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

/**
 * A `URL`, or `INVALID`: `format: uri` accepts some text the WHATWG parser cannot hold (`http://a:99999`),
 * and a parameter declared `URL` refuses it (a deliberate difference, DESIGN.md section 6).
 */
function toUrl(s: string, f: Failure): unknown {
  return URL.canParse(s) ? new URL(s) : fail(f, 'Expected an absolute URL.');
}

function converterOf(as: Extract<TypeNode, { kind: 'string' }>['as']): ((s: string, f: Failure) => unknown) | undefined {
  switch (as) {
    case 'string':
      return undefined;
    case 'date':
      return dateTimeToDate;
    case 'url':
      return toUrl;
    case 'timespan':
      return timeSpanToMs;
  }
}

function stringReader(node: Extract<TypeNode, { kind: 'string' }>, mode: ReadMode): Reader {
  const { minLength: min, maxLength: max, format } = node;
  const pattern = node.pattern === undefined ? undefined : new RegExp(node.pattern, 'u');
  const check = format && formatCheck(format);
  const lengthExpected = min !== undefined || max !== undefined ? `Expected ${lengthText(min, max, 'character')}.` : '';
  const patternExpected = `Expected text matching ${node.pattern}.`;
  const formatExpected = format && `Expected ${FORMAT_NAMES[format]}.`;
  const convert = mode === 'check' ? undefined : converterOf(node.as);
  const only = node.const;
  return (v, f) => {
    if (typeof v !== 'string') return fail(f, `Expected a string, got ${typeName(v)}.`);
    if (only !== undefined && v !== only) return fail(f, `Expected one of: ${only}.`);
    if (min !== undefined || max !== undefined) {
      // Code points lie between half the UTF-16 length and the length itself; count them only when that
      // range straddles a bound.
      let n = v.length;
      if ((max !== undefined && n > max) || (min !== undefined && n >= min && n < 2 * min)) n = codePoints(v);
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) return fail(f, lengthExpected);
    }
    if (pattern && !pattern.test(v)) return fail(f, patternExpected);
    if (check && !check(v)) return fail(f, formatExpected!);
    return convert ? convert(v, f) : v;
  };
}

/**
 * JSON text of a value with object keys sorted: equal for values JSON Schema calls equal (`{"a":1,"b":2}`
 * and `{"b":2,"a":1}`), for sets and `uniqueItems`.
 */
function canonicalJson(v: unknown): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/**
 * Finds items equal as JSON values: primitives by value (`0` and `-0` are one), objects and arrays by
 * their canonical JSON in a map of their own, so the string `'{"a":1}'` and the object `{a:1}` differ.
 */
class JsonValueSet {
  private readonly primitives = new Set<unknown>();
  private readonly objects = new Set<string>();

  /** Adds `v`; false when an equal value was there already. */
  add(v: unknown): boolean {
    const [into, key] = typeof v === 'object' && v !== null ? [this.objects, canonicalJson(v)] : [this.primitives, v];
    if ((into as Set<unknown>).has(key)) return false;
    (into as Set<unknown>).add(key);
    return true;
  }
}

function arrayReader(node: Extract<TypeNode, { kind: 'array' }>, mode: ReadMode): Reader {
  const item = readerOf(node.items, mode);
  const { minItems: min, maxItems: max, set, uniqueItems } = node;
  const counted = min !== undefined || max !== undefined;
  const lengthExpected = `Expected ${lengthText(min, max, 'item')}.`;
  const makeSet = set && mode !== 'check';
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
      const seen = new JsonValueSet();
      const kept: unknown[] = [];
      for (let i = 0; i < n; i++) {
        if (seen.add(v[i])) kept.push(out[i]);
        else if (refuseDuplicates) {
          f.path.push(i);
          return fail(f, 'Expected no duplicate items.');
        }
      }
      if (makeSet) return new Set(kept);
    }
    return out;
  };
}

/** A fresh copy of a default for each call, so one call cannot change another's default. */
export function fallbackOf(slot: SlotModel): (() => unknown) | undefined {
  if (!slot.default) return undefined;
  const value = slot.default.value;
  if (typeof value !== 'object' || value === null) return () => value;
  return () => structuredClone(value);
}

/**
 * The steps of reading one record class: each property's reader, default and transforms, how the
 * instance is made, and whether class-validator runs after. Reading these steps is `recordReaderOf`'s job
 * (generated code, or the interpreted loop where code generation is forbidden).
 */
function recordPlan(node: RecordNode, mode: ReadMode): RecordPlan {
  const ctor = node.ctor as new () => Record<string, unknown>;
  const converting = mode !== 'check';
  const steps: PropertyStep[] = node.properties.map((p) => ({
    name: p.name,
    key: p.key,
    read: readerOf(p.type, mode),
    required: p.required,
    fallback: converting && !p.required ? fallbackOf(p) : undefined,
    transforms: converting ? transformsOf(ctor, p.key, 'input') : [],
    dropped: converting && p.dropped,
  }));
  // plainToInstance calls the constructor without arguments, so initialisers run; so do we.
  const construct =
    !converting ? () => ({}) : ctor.length === 0 ? () => new ctor() : () => Object.create(ctor.prototype) as Record<string, unknown>;
  const left = converting ? leftToClassValidator(node) : undefined;
  return { steps, construct, validate: left?.any ? validationStep(node, left) : undefined };
}

/**
 * class-validator on a built instance; its first failing property becomes the failure, named by the wire
 * name, with class-validator's messages as written.
 */
function validationStep(node: RecordNode, left: LeftToClassValidator): NonNullable<RecordPlan['validate']> {
  const wireName = new Map(node.properties.map((p) => [p.key, p.name]));
  return (out, f) => {
    const error = firstValidationError(out, left);
    if (!error) return out;
    f.path.push(wireName.get(error.property) ?? error.property);
    return fail(f, error.message);
  };
}

function recordReader(node: RecordNode, mode: ReadMode): Reader {
  return recordReaderOf(recordPlan(node, mode));
}

/** How `argumentsReader` reads: resource and prompt arguments are text, and unknown ones are ignored. */
export interface ArgumentsReading {
  readonly readerOf?: (type: TypeNode) => Reader;
  /** Read objects and arrays sent as JSON text (`McpServer`'s `lenientJsonStrings`). */
  readonly lenientJsonStrings?: boolean;
  readonly ignoreUnknown?: boolean;
}

/** Reads a tool's arguments object into the method's argument list (context slots left empty). */
export function argumentsReader(
  params: readonly ParamModel[],
  arity: number,
  reading: ArgumentsReading = {},
): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  const mode = reading.lenientJsonStrings ? 'lenient' : 'read';
  const reader = reading.readerOf ?? ((type: TypeNode) => readerOf(type, mode));
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
