import type { ExactRule, ParamModel, RecordNode, TypeNode } from '../../schema/model';
import { INVALID, fail, failAll, newFailure, park, restore, step, type Failure, type OneFailure } from './failure';
import {
  FORMAT_WORDS,
  checkExamplesWith,
  describe,
  expectation,
  lengthText,
  patternWords,
  requiredText,
  valuesText,
  withExample,
} from './examples';
import { dateTimeToDate, formatCheck, isBase64, timeSpanToMs } from './formats';
import { recordReaderOf, recordStrategy, typeName, type PropertyStep, type Reader, type RecordPlan } from './record-reader';
import { asFailures, leftToClassValidator, validationFailures, type LeftToClassValidator } from './validator';
import { isObject, isObjectLike } from '../../objects';
import { fallbackOf, standardReader } from './standard-reader';
import { transformsOf } from '../../decorators/foreign';
import { CLOSED, type ValidationPolicy } from '../../schema/records/validation-options';

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

const caches = { generated: new Map<string, WeakMap<TypeNode, Reader>>(), interpreted: new Map<string, WeakMap<TypeNode, Reader>>() };

/**
 * The reader of one type; the same model node always gives the same reader for a mode and validation policy
 * (and for the record strategy in use, so a test can build both kinds side by side). Checking results
 * ignores the policy: a result is no DTO of the app's pipe.
 */
export function readerOf(node: TypeNode, mode: ReadMode = 'read', policy: ValidationPolicy = CLOSED): Reader {
  const applied = mode === 'check' ? CLOSED : policy;
  const key = `${mode} ${applied.key}`;
  const byKey = caches[recordStrategy()];
  let cache = byKey.get(key);
  if (!cache) byKey.set(key, (cache = new WeakMap()));
  let reader = cache.get(node);
  if (!reader) {
    reader = mode === 'lenient' ? lenient(node, compile(node, mode, applied)) : compile(node, mode, applied);
    cache.set(node, reader);
  }
  return reader;
}

// A refusal's example is a value the node's own checking reader accepts.
checkExamplesWith((node) => {
  const check = readerOf(node, 'check');
  return (value) => check(value, newFailure()) !== INVALID;
});

/** Reads a JSON-encoded object or array sent as a string where the schema expects one (opt-in). */
function lenient(node: TypeNode, read: Reader): Reader {
  const shape = node.kind === 'array' || (node.kind === 'json' && node.shape === 'array') ? 'array' : 'object';
  if (node.kind !== 'record' && node.kind !== 'array' && node.kind !== 'dictionary' && !(node.kind === 'json' && node.shape !== 'any'))
    return read;
  return (v, f) => {
    if (typeof v !== 'string') return read(v, f);
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return read(v, f);
    }
    const fits = shape === 'array' ? Array.isArray(parsed) : isObject(parsed);
    return read(fits ? parsed : v, f);
  };
}

function compile(node: TypeNode, mode: ReadMode, policy: ValidationPolicy): Reader {
  const read = compileBare(node, mode, policy);
  return node.kind !== 'nullable' && node.rules?.length ? withRules(read, node, node.rules) : read;
}

/**
 * A reader that also runs a node's exact rules (schema/records/validator-rules.ts) on the JSON value once its own
 * checks pass, and reports every rule that fails, not just the first.
 */
function withRules(read: Reader, node: TypeNode, rules: readonly ExactRule[]): Reader {
  return (v, f) => {
    const x = read(v, f);
    if (x === INVALID) return x;
    let failed: string[] | undefined;
    for (let i = 0; i < rules.length; i++) {
      if (!rules[i].test(v)) (failed ??= []).push(withExample(rules[i].expected, node));
    }
    return failed === undefined ? x : failAll(f, failed);
  };
}

function compileBare(node: TypeNode, mode: ReadMode, policy: ValidationPolicy): Reader {
  switch (node.kind) {
    case 'boolean':
      return (v, f) => (typeof v === 'boolean' ? v : fail(f, `Expected true or false, got ${typeName(v)}.`));
    case 'number': {
      const min = node.minimum ?? -Infinity;
      const max = node.maximum ?? Infinity;
      return (v, f) => (typeof v === 'number' && v >= min && v <= max ? v : fail(f, expectation(describe(node), node)));
    }
    case 'integer': {
      const { minimum: min, maximum: max } = node;
      const check: Reader = (v, f) =>
        typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(f, expectation(describe(node), node));
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
        if (typeof v !== 'string' || !isBase64(v)) return fail(f, expectation('base64 text', node));
        if (mode === 'check') return v;
        const bytes = Buffer.from(v, 'base64');
        return buffer ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      };
    }
    case 'enum':
      return enumReader(node, mode);
    case 'nullable': {
      const inner = readerOf(node.inner, mode, policy);
      return (v, f) => (v === null ? null : inner(v, f));
    }
    case 'array':
      return arrayReader(node, mode, policy);
    case 'dictionary':
      return dictionaryReader(node, mode, policy);
    case 'json':
      if (node.shape === 'object') return (v, f) => (isObject(v) ? v : fail(f, expectation('a JSON object', node, typeName(v))));
      if (node.shape === 'array') return (v, f) => (Array.isArray(v) ? v : fail(f, expectation('a JSON array', node, typeName(v))));
      return (v, f) => (v === undefined ? fail(f, expectation('a JSON value', node)) : v);
    case 'record':
      return recordReaderOf(recordPlan(node, mode, policy));
    case 'discriminated':
      return discriminatedReader(node, mode, policy);
    case 'standard':
      return standardReader(node, mode);
  }
}

/**
 * Picks the subtype by the discriminator's value, as class-transformer does, and reads the object as that
 * subtype's closed record; a missing or unknown value is refused (class-transformer would fall back to the
 * base class, which the listing does not offer).
 */
function discriminatedReader(node: Extract<TypeNode, { kind: 'discriminated' }>, mode: ReadMode, policy: ValidationPolicy): Reader {
  const { property } = node;
  const readers = new Map(node.subtypes.map((s) => [s.name, readerOf(s.record, mode, policy)] as const));
  const expected = `Expected one of: ${valuesText(node.subtypes.map((s) => s.name))}.`;
  return (v, f) => {
    if (!isObject(v)) return fail(f, expectation('an object', node, typeName(v)));
    const tag = hasOwn.call(v, property) ? v[property] : undefined;
    const read = typeof tag === 'string' ? readers.get(tag) : undefined;
    if (read) return read(v, f);
    f.path.push(property);
    return fail(f, expected);
  };
}

function enumReader(node: Extract<TypeNode, { kind: 'enum' }>, mode: ReadMode): Reader {
  const values = new Map(node.listed.map((n, i) => [n, node.values[i]] as const));
  const expected = `Expected ${describe(node)}.`;
  if (mode === 'check') return (v, f) => (typeof v === 'string' && values.has(v) ? v : fail(f, expected));
  return (v, f) => (typeof v === 'string' && values.has(v) ? values.get(v) : fail(f, expected));
}

function dictionaryReader(node: Extract<TypeNode, { kind: 'dictionary' }>, mode: ReadMode, policy: ValidationPolicy): Reader {
  const value = readerOf(node.values, mode, policy);
  const asMap = node.as === 'map' && mode !== 'check';
  return (v, f) => {
    if (!isObject(v)) return fail(f, expectation('an object', node, typeName(v)));
    const out: Map<string, unknown> | Record<string, unknown> = asMap ? new Map() : Object.create(null);
    for (const k in v) {
      if (!hasOwn.call(v, k)) continue;
      const item = value(v[k], f);
      if (item === INVALID) return step(f, k);
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
  return URL.canParse(s) ? new URL(s) : fail(f, 'Expected an absolute URL, such as "https://example.com".');
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
  const convert = mode === 'check' ? undefined : converterOf(node.as);
  /** Every check the text fails, once a first one has: each is a line of the error, with the same example. */
  const failures = (v: string, length: boolean, f: Failure): typeof INVALID => {
    const all = length ? [expectation(lengthText(min, max, 'character'), node)] : [];
    if (pattern && !pattern.test(v)) all.push(expectation(patternWords(node), node));
    if (check && !check(v)) all.push(expectation(FORMAT_WORDS[format], node));
    return failAll(f, all);
  };
  const only = node.const;
  return (v, f) => {
    if (typeof v !== 'string') return fail(f, expectation(describe(node), node, typeName(v)));
    if (only !== undefined && v !== only) return fail(f, `Expected ${JSON.stringify(only)}.`);
    if (min !== undefined || max !== undefined) {
      // Code points lie between half the UTF-16 length and the length itself; count them only when that
      // range straddles a bound.
      let n = v.length;
      if ((max !== undefined && n > max) || (min !== undefined && n >= min && n < 2 * min)) n = codePoints(v);
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) return failures(v, true, f);
    }
    if ((pattern && !pattern.test(v)) || (check && !check(v))) return failures(v, false, f);
    return convert ? convert(v, f) : v;
  };
}

/**
 * JSON text of a value with object keys sorted: equal for values JSON Schema calls equal (`{"a":1,"b":2}`
 * and `{"b":2,"a":1}`), for sets and `uniqueItems`.
 */
function canonicalJson(v: unknown): string {
  if (!isObjectLike(v)) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
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
    const [into, key] = isObjectLike(v) ? [this.objects, canonicalJson(v)] : [this.primitives, v];
    if ((into as Set<unknown>).has(key)) return false;
    (into as Set<unknown>).add(key);
    return true;
  }
}

function arrayReader(node: Extract<TypeNode, { kind: 'array' }>, mode: ReadMode, policy: ValidationPolicy): Reader {
  const item = readerOf(node.items, mode, policy);
  const { minItems: min, maxItems: max, set, uniqueItems } = node;
  const counted = min !== undefined || max !== undefined;
  const makeSet = set && mode !== 'check';
  // A set drops duplicates (DESIGN.md, as the seed's HashSet); a plain array with uniqueItems refuses them.
  const refuseDuplicates = uniqueItems && !set;
  return (v, f) => {
    if (!Array.isArray(v)) return fail(f, expectation('an array', node, typeName(v)));
    const n = v.length;
    if (counted && ((min !== undefined && n < min) || (max !== undefined && n > max)))
      return fail(f, expectation(lengthText(min, max, 'item'), node));
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = item(v[i], f);
      if (x === INVALID) return restOfItems(v, i, item, f);
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

/** After item `first` failed: every other invalid item too (the slow path only). */
function restOfItems(v: unknown[], first: number, item: Reader, f: Failure): typeof INVALID {
  step(f, first);
  const found: OneFailure[] = park(f);
  for (let i = first + 1; i < v.length; i++) {
    if (item(v[i], f) === INVALID) {
      step(f, i);
      found.push(...park(f));
    }
  }
  return restore(f, found)!;
}

/**
 * The steps of reading one record class: each property's reader, default and transforms, how the
 * instance is made, and whether class-validator runs after. Reading these steps is `recordReaderOf`'s job
 * (generated code, or the interpreted loop where code generation is forbidden).
 */
function recordPlan(node: RecordNode, mode: ReadMode, policy: ValidationPolicy): RecordPlan {
  const ctor = node.ctor as new () => Record<string, unknown>;
  const converting = mode !== 'check';
  const steps: PropertyStep[] = node.properties.map((p) => {
    // Under `skipMissingProperties` a property without `@IsDefined` may be missing or `null`: no rule runs then.
    const skipped = policy.skipMissing && p.defined !== true;
    const read = readerOf(p.type, mode, policy);
    const transforms = converting ? transformsOf(ctor, p.key, 'input') : [];
    return {
      name: p.name,
      key: p.key,
      read: skipped && p.type.kind !== 'nullable' ? (v: unknown, f: Failure) => (v === null ? null : read(v, f)) : read,
      required: p.required && !skipped,
      fallback: converting && !p.required ? fallbackOf(p) : undefined,
      transforms: converting && p.builds ? [builder(p.builds), ...transforms] : transforms,
      dropped: converting && p.dropped,
      missing: () => requiredText(p.type),
    };
  });
  // plainToInstance calls the constructor without arguments, so initialisers run; so do we.
  const construct = !converting
    ? () => ({})
    : ctor.length === 0
      ? () => new ctor()
      : () => Object.create(ctor.prototype) as Record<string, unknown>;
  const left = converting ? leftToClassValidator(node) : undefined;
  // A class with an async rule is validated after reading, with `validate` (`asyncChecksOf`).
  const validate = left?.any && !left.async ? validationStep(node, left, policy) : undefined;
  const notObject = (v: unknown, f: Failure): typeof INVALID => fail(f, expectation(describe(node), node, typeName(v)));
  return { steps, construct, unknown: converting ? policy.unknown : 'refuse', validate, notObject };
}

type ClassTransformer = typeof import('class-transformer');
let transformer: ClassTransformer | undefined;

/**
 * `@Type(() => C)` on a property no rule looks inside: an object becomes a `C` as class-transformer builds it
 * (loaded here: the application decorated the property with it).
 */
function builder(cls: Function): (value: unknown) => unknown {
  return (value) => {
    if (!isObjectLike(value)) return value;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    transformer ??= require('class-transformer') as ClassTransformer;
    return transformer.plainToInstance(cls as new () => object, value);
  };
}

/**
 * class-validator on a built instance: each failing rule left to it, named by the wire name, with
 * class-validator's message as written.
 */
function validationStep(node: RecordNode, left: LeftToClassValidator, policy: ValidationPolicy): NonNullable<RecordPlan['validate']> {
  const wireName = new Map(node.properties.map((p) => [p.key, p.name]));
  return (out, skip) => asFailures(validationFailures(out, left, policy, skip), wireName);
}

/** How `argumentsReader` reads: resource and prompt arguments are text, and unknown ones are ignored. */
export interface ArgumentsReading {
  readonly readerOf?: (type: TypeNode) => Reader;
  /** Read objects and arrays sent as JSON text (`McpServer`'s `lenientJsonStrings`). */
  readonly lenientJsonStrings?: boolean;
  readonly ignoreUnknown?: boolean;
  /** The validation options in force, as reading applies them to records (default: closed records). */
  readonly policy?: ValidationPolicy;
}

/** One parameter as {@link argumentsReader} reads it. */
interface ArgumentStep {
  readonly name: string;
  readonly type: TypeNode;
  readonly read: Reader;
  readonly required: boolean;
}

/**
 * After a first failure: every argument read again, every invalid and missing one reported in parameter order,
 * then every unknown one (when `known` is given, the names that are not unknown).
 */
function collectFailures(
  steps: readonly ArgumentStep[],
  known: ReadonlySet<string> | undefined,
  given: Record<string, unknown>,
  f: Failure,
): typeof INVALID {
  park(f);
  const found: OneFailure[] = [];
  for (const s of steps) {
    if (hasOwn.call(given, s.name) && given[s.name] !== undefined) {
      if (s.read(given[s.name], f) === INVALID) {
        step(f, s.name);
        found.push(...park(f));
      }
    } else if (s.required) {
      found.push({ path: [s.name], expected: requiredText(s.type) });
    }
  }
  if (known) {
    for (const k in given)
      if (hasOwn.call(given, k) && given[k] !== undefined && !known.has(k))
        found.push({ path: [k], expected: 'There is no such argument.' });
  }
  return restore(f, found) ?? INVALID;
}

/** Reads a tool's arguments object into the method's argument list (context slots left empty). */
export function argumentsReader(
  params: readonly ParamModel[],
  arity: number,
  reading: ArgumentsReading = {},
): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  const mode = reading.lenientJsonStrings ? 'lenient' : 'read';
  const policy = reading.policy ?? CLOSED;
  const reader = reading.readerOf ?? ((type: TypeNode) => readerOf(type, mode, policy));
  const steps = params.map((p) => ({
    name: p.name,
    index: p.index,
    type: p.type,
    read: reader(p.type),
    required: p.required,
    fallback: fallbackOf(p),
  }));
  const refuseUnknown = !reading.ignoreUnknown;
  const known = new Set(params.map((p) => p.name));
  const collect = (given: Record<string, unknown>, f: Failure): typeof INVALID =>
    collectFailures(steps, refuseUnknown ? known : undefined, given, f);
  return (args, f) => {
    const given = args === undefined || args === null ? {} : args;
    if (!isObject(given)) return fail(f, 'Arguments must be an object.');
    const out = new Array(arity);
    let matched = 0;
    for (const s of steps) {
      if (hasOwn.call(given, s.name) && given[s.name] !== undefined) {
        matched++;
        const x = s.read(given[s.name], f);
        if (x === INVALID) return collect(given, f);
        out[s.index] = x;
      } else if (s.required) {
        return collect(given, f);
      } else if (s.fallback) {
        out[s.index] = s.fallback();
      }
    }
    let total = 0;
    for (const k in given) if (hasOwn.call(given, k) && given[k] !== undefined) total++;
    if (total !== matched && refuseUnknown) {
      for (const k in given) if (hasOwn.call(given, k) && !known.has(k)) return collect(given, f);
    }
    return out;
  };
}
