import { HINT, type HintCombinator, type HintLiterals, type HintToken, type TokenKind, type TypeHint } from '../../decorators/hints';
import type { Discriminator } from '../../decorators/foreign';
import type { Problems } from '../diagnostics';
import { claimsStandard, isStandardSchema } from '../../decorators/standard-schema';
import { notStandard, standardNode } from './standard';
import {
  unwrap,
  type DiscriminatedNode,
  type Mutable,
  type PropertyModel,
  type RecordNode,
  type SchemaConstraint,
  type TypeNode,
} from '../model';
import { isObjectLike } from '../../objects';

/** Where a type is used, for diagnostics, and what is resolving around it (records, for cycles). */
export interface Site {
  readonly where: string;
  readonly problems: Problems;
  /** Records being resolved around this site, to refuse self-reference. */
  readonly stack: readonly Function[];
  /** Resolves a record class; injected so this module does not depend on record discovery. */
  readonly record: (ctor: Function, site: Site) => RecordNode | undefined;
}

const SAFE = Number.MAX_SAFE_INTEGER;

const INTEGER_RANGES: Partial<Record<TokenKind, readonly [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  int64: [-SAFE, SAFE],
  uint64: [0, SAFE],
};

/** .NET's invariant `c` form of a TimeSpan: `[-][d.]hh:mm:ss[.fffffff]`. */
export const TIMESPAN_PATTERN = '^-?(?:\\d{1,8}\\.)?(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,7})?$';

export function integerNode(min: number, max: number, bigint = false): TypeNode {
  return { kind: 'integer', minimum: min, maximum: max, bigint };
}

export function safeIntegerNode(bigint = false): TypeNode {
  return integerNode(-SAFE, SAFE, bigint);
}

/** Hint tokens and enum objects resolve to the same immutable node every time, so its fragment is written once. */
const shared = new WeakMap<object, TypeNode>();

function once(key: object, build: () => TypeNode | undefined): TypeNode | undefined {
  let node = shared.get(key);
  if (!node) {
    node = build();
    if (node) shared.set(key, Object.freeze(node));
  }
  return node;
}

function tokenNode(token: HintToken): TypeNode {
  return once(token, () => buildTokenNode(token))!;
}

function buildTokenNode(token: HintToken): TypeNode {
  const range = INTEGER_RANGES[token.token];
  if (range) return integerNode(range[0], range[1]);
  switch (token.token) {
    case 'char':
      return { kind: 'string', as: 'string', minLength: 1, maxLength: 1 };
    case 'uuid':
      return { kind: 'string', as: 'string', format: 'uuid' };
    case 'date':
      return { kind: 'string', as: 'string', format: 'date' };
    case 'time':
      return { kind: 'string', as: 'string', format: 'time' };
    case 'timespan':
      return { kind: 'string', as: 'timespan', pattern: TIMESPAN_PATTERN };
    case 'bytes':
      return { kind: 'bytes', as: 'uint8array' };
    case 'json':
      return { kind: 'json', shape: 'any' };
    case 'jsonObject':
      return { kind: 'json', shape: 'object' };
    default:
      return { kind: 'json', shape: 'array' };
  }
}

/** Constructors with a fixed meaning; anything else that is a class is a record. */
const BUILTINS = new Map<unknown, TypeNode | 'collection' | 'unsupported'>([
  [String, { kind: 'string', as: 'string' }],
  [Number, { kind: 'number' }],
  [Boolean, { kind: 'boolean' }],
  [BigInt, safeIntegerNode(true)],
  [Date, { kind: 'string', as: 'date', format: 'date-time' }],
  [URL, { kind: 'string', as: 'url', format: 'uri' }],
  [Uint8Array, { kind: 'bytes', as: 'uint8array' }],
  [Buffer, { kind: 'bytes', as: 'buffer' }],
  [Array, 'collection'],
  [Set, 'collection'],
  [Map, 'collection'],
  [Object, 'unsupported'],
  [Function, 'unsupported'],
  [Symbol, 'unsupported'],
  [Promise, 'unsupported'],
  [undefined, 'unsupported'],
  [null, 'unsupported'],
]);

/** An arrow function has no `prototype`; constructors and classes do. */
export function isThunk(hint: unknown): hint is () => TypeHint {
  return typeof hint === 'function' && !Object.prototype.hasOwnProperty.call(hint, 'prototype');
}

function isHintObject(hint: unknown): hint is HintToken | HintCombinator | HintLiterals {
  return isObjectLike(hint) && HINT in hint;
}

function isDiscriminatedHint(hint: unknown): hint is DiscriminatedHint {
  return isHintObject(hint) && (hint as { [HINT]: unknown })[HINT] === 'discriminated';
}

/** A discriminated `@Type` as a hint: internal, made only from class-transformer's metadata (records.ts). */
interface DiscriminatedHint {
  readonly [HINT]: 'discriminated';
  readonly discriminator: Discriminator;
}

export function discriminatedHint(discriminator: Discriminator): TypeHint {
  const hint: DiscriminatedHint = { [HINT]: 'discriminated', discriminator };
  return hint as unknown as TypeHint;
}

/**
 * The subtypes of a discriminated `@Type`, each its record with the discriminator as a required string
 * `const`: where the class declares a property of that wire name, in its place, else first.
 */
function discriminatedNode({ property, subTypes, keep }: Discriminator, site: Site): TypeNode | undefined {
  const names = subTypes.map((s) => s?.name);
  if (subTypes.length === 0 || !names.every((n): n is string => typeof n === 'string') || new Set(names).size !== names.length) {
    return unsupported(site, 'A discriminator whose subtypes are not named by distinct strings (or that has none)');
  }
  const subtypes: Mutable<DiscriminatedNode['subtypes']> = [];
  for (let i = 0; i < subTypes.length; i++) {
    const value = subTypes[i].value;
    if (typeof value !== 'function' || BUILTINS.has(value))
      return unsupported(site, `The discriminator's subtype '${names[i]}', ${describe(value)},`);
    const record = site.record(value, site);
    if (!record) return undefined;
    const at = record.properties.findIndex((p) => p.name === property);
    const declared = at >= 0 ? record.properties[at] : undefined;
    const tag: PropertyModel = {
      key: declared?.key ?? property,
      name: property,
      type: { kind: 'string', as: 'string', const: names[i] },
      description: declared?.description,
      required: true,
      dropped: !keep || undefined,
    };
    const properties = at >= 0 ? record.properties.map((p, j) => (j === at ? tag : p)) : [tag, ...record.properties];
    subtypes.push({ name: names[i], record: Object.freeze({ ...record, properties: Object.freeze(properties) }) });
  }
  return { kind: 'discriminated', property, keep, subtypes };
}

/**
 * A TypeScript enum object as a node: member names and values in declaration order (numeric enums carry
 * reverse keys, which are skipped). A string enum is listed by its values, because in TypeScript a string
 * enum's value is its wire form (class-validator's `@IsEnum`, class-transformer and NestJS use it); a
 * numeric or mixed enum is listed by its member names, as the seed does.
 */
export function enumNode(value: object): TypeNode | undefined {
  return once(value, () => buildEnumNode(value));
}

function buildEnumNode(value: object): TypeNode | undefined {
  const record = value as Record<string, unknown>;
  // Numeric members get a reverse entry: E[E.A = 0] = 'A' adds '0' -> 'A'.
  const isReverse = (k: string, v: unknown) => typeof v === 'string' && typeof record[v] === 'number' && String(record[v]) === k;
  const entries = Object.entries(record).filter(([k, v]) => !isReverse(k, v));
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'string' || typeof v === 'number')) return undefined;
  const names = entries.map(([k]) => k);
  const values = entries.map(([, v]) => v as string | number);
  const listed = values.every((v) => typeof v === 'string') ? (values as string[]) : names;
  return { kind: 'enum', names, values, listed };
}

/** The fix the generator gives where TypeScript erased a type the source still states. */
const GENERATOR_FIX = 'or run `npx onemodelcontext generate`, which reads the declared type from the source';

function unsupported(site: Site, what: string, erased = false): undefined {
  return site.problems.add(
    'OMCG0002',
    site.where,
    `${what} has no JSON Schema.`,
    'give a type hint (@Param({ type }) or @Field(type)), or use a supported type: string, number, boolean, Date, URL, Uint8Array, an enum, a record class or a hint token' +
      (erased
        ? `; ${GENERATOR_FIX} when it is an enum, a union of string literals, \`T | null\` or a type alias of one (not an interface or another union: declare a class, or hint Json).`
        : '.'),
  );
}

function missingElement(site: Site, ctorName: string): undefined {
  const example = ctorName === 'Map' ? 'DictionaryOf(Number)' : ctorName === 'Set' ? 'SetOf(String)' : '[String] or ArrayOf(Int32)';
  return site.problems.add(
    'OMCG0005',
    site.where,
    `${ctorName} has no element type: TypeScript erases it.`,
    `give a type hint such as ${example}, ${GENERATOR_FIX}.`,
  );
}

function describe(value: unknown): string {
  if (typeof value === 'function') return value.name ? `${value.name}` : 'an anonymous function';
  if (value === undefined) return 'an unknown type (no metadata: interface, union, type alias or `any`)';
  return typeof value;
}

/**
 * Resolves a type from a hint and the `design:*` type. A hint wins; a non-collection hint on an array,
 * set or map describes its elements (`@Field(Line) lines: Line[]`).
 */
export function resolveType(hint: TypeHint | undefined, design: unknown, site: Site): TypeNode | undefined {
  if (hint === undefined) return fromDesign(design, site);
  const node = fromHint(hint, design, site);
  if (!node) return undefined;
  const bare = unwrap(node);
  // A Standard Schema states its whole type: `@Param({ type: z.array(z.string()) }) tags: string[]` is no element hint.
  if ((design === Array || design === Set || design === Map) && !['array', 'dictionary', 'json', 'standard'].includes(bare.kind)) {
    if (design === Map) return { kind: 'dictionary', values: node, as: 'map' };
    return { kind: 'array', items: node, set: design === Set, uniqueItems: design === Set };
  }
  return node;
}

function fromDesign(design: unknown, site: Site): TypeNode | undefined {
  const builtin = BUILTINS.get(design);
  if (builtin === 'collection') return missingElement(site, (design as Function).name);
  if (builtin === 'unsupported') return unsupported(site, describe(design), design === Object || design === undefined);
  if (builtin) return builtin;
  if (typeof design === 'function') return site.record(design, site);
  return unsupported(site, describe(design));
}

function fromHint(hint: TypeHint, design: unknown, site: Site): TypeNode | undefined {
  // Before the thunk: an ArkType type is a function.
  if (isStandardSchema(hint)) return standardNode(hint, 'inner', site.where, site.problems);
  if (claimsStandard(hint)) return notStandard(site.where, site.problems);
  if (isThunk(hint)) {
    let resolved: TypeHint;
    try {
      resolved = hint();
    } catch (error) {
      return unsupported(site, `The type thunk threw (${(error as Error).message}); it`);
    }
    if (resolved === undefined) {
      return unsupported(site, 'The type thunk returned undefined (a class used before its declaration, or a circular import); it');
    }
    return fromHint(resolved, design, site);
  }
  if (Array.isArray(hint)) {
    if (hint.length !== 1) return unsupported(site, `An array shorthand with ${hint.length} elements (write [h] with exactly one)`);
    const items = fromHint(hint[0], undefined, site);
    return items && { kind: 'array', items, set: design === Set, uniqueItems: design === Set };
  }
  if (isDiscriminatedHint(hint)) return discriminatedNode(hint.discriminator, site);
  if (isHintObject(hint)) {
    if (hint[HINT] === 'token') return tokenNode(hint);
    if (hint[HINT] === 'literals') return { kind: 'enum', names: [...hint.values], values: [...hint.values], listed: [...hint.values] };
    const of = hint.of;
    switch (hint[HINT]) {
      case 'array': {
        const items = fromHint(of, undefined, site);
        return items && { kind: 'array', items, set: design === Set, uniqueItems: design === Set };
      }
      case 'set': {
        const items = fromHint(of, undefined, site);
        return items && { kind: 'array', items, set: true, uniqueItems: true };
      }
      case 'dictionary': {
        const values = fromHint(of, undefined, site);
        return values && { kind: 'dictionary', values, as: design === Map ? 'map' : 'object' };
      }
      case 'nullable': {
        const inner = fromHint(of, design, site);
        return inner && nullable(inner);
      }
    }
    return unsupported(site, 'An unknown hint object');
  }
  if (typeof hint === 'function') {
    if (hint === BigInt) return safeIntegerNode(true);
    if (hint === Number && design === BigInt) return safeIntegerNode(true);
    if (hint === Uint8Array && design === Buffer) return { kind: 'bytes', as: 'buffer' };
    return fromDesign(hint, site);
  }
  if (isObjectLike(hint)) {
    return enumNode(hint) ?? unsupported(site, 'An object that is not an enum (its values must be strings or numbers)');
  }
  return unsupported(site, `The hint ${String(hint)}`);
}

/** Wraps `nullable`, keeping one level. */
export function nullable(node: TypeNode): TypeNode {
  return node.kind === 'nullable' ? node : { kind: 'nullable', inner: node };
}

/**
 * Flags that leave a pattern's matching as JSON Schema's (which is ECMA-262 with `u`): `u` itself, and
 * `g` and `d`, which only change what a match returns.
 */
const HARMLESS_FLAGS = ['u', 'g', 'd'];

function misfit(site: Site, c: SchemaConstraint, node: TypeNode, why?: string): TypeNode {
  site.problems.add(
    'OMCG0013',
    site.where,
    why ?? `${c.decorator} does not fit a ${node.kind === 'string' && node.format ? `${node.format} string` : node.kind}.`,
    why ? `correct the arguments of ${c.decorator}.` : `remove ${c.decorator} or change the type it describes.`,
  );
  return node;
}

function applyOne(node: TypeNode, c: SchemaConstraint, site: Site): TypeNode {
  if (node.kind === 'nullable') return { kind: 'nullable', inner: applyOne(node.inner, c, site) };
  switch (c.kind) {
    case 'rule': {
      // A rule that does not fit its node lists nothing: class-validator alone checks it, after reading.
      if (!c.rule.fits(node)) return node;
      const problem = c.rule.problem?.();
      if (problem !== undefined)
        return misfit(site, c, node, `${c.decorator} lists a schema that is not valid JSON Schema 2020-12: ${problem}.`);
      return c.rule.narrow?.(node) ?? { ...node, rules: [...(node.rules ?? []), c.rule] };
    }
    case 'range': {
      if (c.min > c.max) return misfit(site, c, node, `${c.decorator} has min ${c.min} greater than max ${c.max}.`);
      if (node.kind === 'integer') {
        return { ...node, minimum: Math.max(node.minimum, Math.ceil(c.min)), maximum: Math.min(node.maximum, Math.floor(c.max)) };
      }
      if (node.kind === 'number') {
        return { ...node, minimum: Math.max(node.minimum ?? -Infinity, c.min), maximum: Math.min(node.maximum ?? Infinity, c.max) };
      }
      return misfit(site, c, node);
    }
    case 'length': {
      const { min, max } = c;
      if ((min !== undefined && (min < 0 || !Number.isInteger(min))) || (max !== undefined && (max < 0 || !Number.isInteger(max)))) {
        return misfit(site, c, node, `${c.decorator} needs whole, non-negative lengths.`);
      }
      if (min !== undefined && max !== undefined && min > max) {
        return misfit(site, c, node, `${c.decorator} has min ${min} greater than max ${max}.`);
      }
      if (node.kind === 'string') {
        return { ...node, minLength: pick(node.minLength, min, Math.max), maxLength: pick(node.maxLength, max, Math.min) };
      }
      if (node.kind === 'array') {
        return { ...node, minItems: pick(node.minItems, min, Math.max), maxItems: pick(node.maxItems, max, Math.min) };
      }
      return misfit(site, c, node);
    }
    case 'pattern':
      return applyPattern(node, c, site);
    case 'format': {
      if (node.kind === 'string' && (node.format === undefined || node.format === c.format) && node.as !== 'timespan') {
        return { ...node, format: c.format };
      }
      return misfit(site, c, node);
    }
  }
}

function applyPattern(node: TypeNode, c: Extract<SchemaConstraint, { kind: 'pattern' }>, site: Site): TypeNode {
  const changing = [...(c.flags ?? '')].filter((flag) => !HARMLESS_FLAGS.includes(flag));
  if (changing.length > 0) {
    site.problems.add(
      'OMCG0013',
      site.where,
      `${c.decorator} has the flag${changing.length > 1 ? 's' : ''} '${changing.join('')}', which JSON Schema patterns cannot carry.`,
      'write the flag into the pattern itself (for example [A-Za-z] instead of the i flag), or drop it.',
    );
    return node;
  }
  try {
    new RegExp(c.pattern, 'u');
  } catch {
    return misfit(site, c, node, `${c.decorator} has a pattern that is not a valid regular expression: /${c.pattern}/.`);
  }
  if (node.kind === 'string' && node.pattern === undefined) return { ...node, pattern: c.pattern };
  return misfit(site, c, node);
}

function pick(current: number | undefined, next: number | undefined, combine: (a: number, b: number) => number): number | undefined {
  if (next === undefined) return current;
  return current === undefined ? next : combine(current, next);
}

/** Applies constraints to a resolved type, innermost non-null type first. */
export function constrain(node: TypeNode, constraints: readonly SchemaConstraint[], site: Site): TypeNode {
  return constraints.reduce((n, c) => applyOne(n, c, site), node);
}

/** Applies constraints to the elements of an array or set (class-validator's `each: true`). */
export function constrainEach(node: TypeNode, constraints: readonly SchemaConstraint[], site: Site): TypeNode {
  if (constraints.length === 0) return node;
  if (node.kind === 'nullable') return { kind: 'nullable', inner: constrainEach(node.inner, constraints, site) };
  if (node.kind === 'array') return { ...node, items: constrain(node.items, constraints, site) };
  if (node.kind === 'dictionary') return { ...node, values: constrain(node.values, constraints, site) };
  return constrain(node, constraints, site);
}
