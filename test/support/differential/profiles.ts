import { isDeepStrictEqual } from 'node:util';
import type { TypeNode } from '../../../src/schema/model';
import type { Schema } from '../json-schema';
import { define } from './arguments';

/**
 * The judge of a listing profile (test/profiles/differential.test.ts): the profile's listing as JSON Schema for ajv,
 * and the contract, that listing with each deliberate difference of reading written into it, one named
 * {@link Difference} at a time. docs/models-and-hosts.md ("What reading accepts under each profile") says why each is.
 */

export type ProfileName = 'gemini' | 'openai-strict';

/** A fragment as a profile lists it: JSON Schema, or (`'gemini'`) the OpenAPI 3.0 spelling with `nullable`. */
export type Listed = Omit<Schema, 'items' | 'properties' | 'anyOf'> & {
  nullable?: boolean;
  description?: string;
  propertyOrdering?: string[];
  items?: Listed;
  properties?: Record<string, Listed>;
  anyOf?: Listed[];
};

/** Every keyword the `'gemini'` writer emits (src/schema/profiles/gemini.ts, GEMINI_ORDER). */
export const GEMINI_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'propertyOrdering',
  'anyOf',
]);

/**
 * A `'gemini'` fragment (Gemini's `Schema`, an OpenAPI 3.0 subset) as the JSON Schema 2020-12 it means, for ajv:
 *
 * - `nullable: true` beside a `type` adds `"null"` to it (`{"type":["string","null"]}`), and to its `enum` when it has
 *   one: Gemini's `enum` is a list of strings, which cannot hold `null`, so `nullable` is how it says `null` is one
 *   of the values (the stricter OpenAPI 3.0.3 reading, where an `enum` without `null` still refuses it, would leave
 *   Gemini no way at all to say a nullable enum).
 * - `format: "enum"` is dropped: Gemini's marker of an enum of strings, whose `enum` says the rest. `int32`, `int64`
 *   and `date-time` are kept (ajv-formats checks all three).
 * - `propertyOrdering` is dropped: the declaration order, an annotation.
 * - `items`, `properties` and `anyOf` branches are mapped the same way; every other keyword is JSON Schema's own.
 *
 * Any keyword the writer does not emit throws, so that a new one is mapped here before it is judged.
 */
export function fromGemini(s: Listed): Schema {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (!GEMINI_KEYWORDS.has(k)) throw new Error(`'gemini' emitted ${k}, which fromGemini does not map`);
    if (k === 'nullable' || k === 'propertyOrdering' || (k === 'format' && v === 'enum')) continue;
    if (k === 'items') out.items = fromGemini(v as Listed);
    else if (k === 'anyOf') out.anyOf = (v as Listed[]).map(fromGemini);
    else if (k === 'properties') {
      const properties: Record<string, Schema> = {};
      for (const [name, p] of Object.entries(v as Record<string, Listed>)) define(properties, name, fromGemini(p));
      out.properties = properties;
    } else out[k] = v;
  }
  if (s.nullable === true) {
    if (typeof s.type !== 'string') throw new Error(`'gemini' wrote nullable beside ${JSON.stringify(s.type)}, not one type`);
    out.type = [s.type, 'null'];
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
  }
  return out as Schema;
}

/**
 * The deliberate differences between a profile's listing and reading, by name:
 *
 * - `in words`: a constraint the profile cannot state, said in the description, is still enforced (formats,
 *   base64 bytes, no duplicates in an array that is not a set, lengths under 'openai-strict', exclusive bounds,
 *   `multipleOf`, `not`, `const` and `minProperties` under 'gemini').
 * - `closed records` ('gemini'): Gemini's objects cannot be closed; reading refuses an unknown property, as
 *   under every profile (the validation options decide, as for the exact listing).
 * - `dictionary`: listed without its values (any object under 'gemini', an empty closed object under
 *   'openai-strict', with a definition-time warning there); reading reads it as declared, every value checked.
 * - `free JSON`: `Json`, `JsonObject` and `JsonArray` are listed narrower (strings, numbers and booleans, an object
 *   without properties, an array of those); reading takes any JSON value of its shape.
 * - `left out` ('openai-strict'): the listing requires every property, and an optional one may still be left out.
 * - `TimeOnly` ('openai-strict'): the exact listing's own deliberate difference, where the profile keeps `format: time`:
 *   a time without an offset is accepted. (Under 'gemini' the format is in words.)
 * - `open records` ('openai-strict', under validation options that let an unknown property through: `whitelist`
 *   alone, or none): strict mode closes every object; reading strips or keeps the property as the options say. Not
 *   in {@link DIFFERENCES}: the differential runs under the default options, which close records; pinned apart.
 */
export type Difference = 'in words' | 'closed records' | 'dictionary' | 'free JSON' | 'left out' | 'TimeOnly' | 'open records';

export const DIFFERENCES: Readonly<Record<ProfileName, readonly Difference[]>> = {
  gemini: ['in words', 'closed records', 'dictionary', 'free JSON'],
  'openai-strict': ['in words', 'dictionary', 'free JSON', 'left out', 'TimeOnly'],
};

/** The constraint keywords of an exact fragment that reading enforces and a profile may have moved into words. */
const CONSTRAINTS = [
  'enum',
  'const',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'not',
] as const;

function admitsNull(s: Schema): boolean {
  if (Array.isArray(s.type) ? s.type.includes('null') : s.type === 'null') return true;
  return (s.anyOf ?? []).some(admitsNull);
}

/** A fragment without its constraint keywords. */
function shapeOf(s: Schema): Schema {
  const out: Schema = { ...s };
  for (const k of CONSTRAINTS) delete out[k];
  return out;
}

/** `s`, or `null` too where the profile's fragment admits it (under 'openai-strict': absent). */
function orNull(s: Schema, listed: Schema): Schema {
  return admitsNull(listed) && !admitsNull(s) ? { anyOf: [{ type: 'null' }, s] } : s;
}

/**
 * The contract of a profile's fragment `p` (as JSON Schema), walked beside the exact contract `ec` (the exact
 * listing with its own deliberate differences, judge.ts `contractOf`) and the type model: `p` with each difference
 * `apply` picks written in.
 */
export function profileContractOf(p: Schema, ec: Schema, node: TypeNode, apply: (d: Difference) => boolean): Schema {
  const bare = node.kind === 'nullable' ? node.inner : node;
  // Free JSON: the exact contract's shape (its constraints, `minProperties`, are words: below).
  const out: Schema = bare.kind === 'json' && apply('free JSON') ? orNull(shapeOf(ec), p) : { ...p };
  if (bare.kind === 'array') out.items = profileContractOf(p.items!, ec.items!, bare.items, apply);
  if (bare.kind === 'dictionary' && apply('dictionary')) out.additionalProperties = ec.additionalProperties;
  if (bare.kind === 'record') Object.assign(out, recordContractOf(p, ec, bare.properties, apply));
  // Subtypes: the profile's `anyOf` branches in the order of the exact `oneOf` (then, under 'openai-strict', `null`).
  if (bare.kind === 'discriminated')
    out.anyOf = p.anyOf!.map((b, i) =>
      i < bare.subtypes.length ? { ...b, ...recordContractOf(b, ec.oneOf![i], bare.subtypes[i].record.properties, apply) } : b,
    );
  if (p.format !== undefined && ec.format !== undefined && ec.format !== p.format && apply('TimeOnly')) out.format = ec.format;
  if (!apply('in words')) return out;
  // What the profile said in words, enforced: `enum` and `const` beside a `null` the profile admits (under
  // 'openai-strict': absent), the others (which no `null` fails) as they are; `uniqueItems` as `uniqueJson`.
  if (p.format === undefined && ec.format !== undefined) out.format = ec.format;
  for (const k of CONSTRAINTS) {
    if (ec[k] === undefined || isDeepStrictEqual(p[k], ec[k])) continue;
    if (k === 'enum' || k === 'const') out.allOf = [...(out.allOf ?? []), orNull({ [k]: ec[k] }, p)];
    else if (k === 'uniqueItems') (out as Record<string, unknown>).uniqueJson = ec.uniqueItems;
    else (out as Record<string, unknown>)[k] = ec[k];
  }
  return out;
}

/** The properties (or the arguments) of a record: each walked, closed and required as the exact contract says. */
export function recordContractOf(
  p: Schema,
  ec: Schema,
  slots: readonly { readonly name: string; readonly type: TypeNode }[],
  apply: (d: Difference) => boolean,
): Schema {
  const properties: Record<string, Schema> = {};
  for (const slot of slots)
    define(properties, slot.name, profileContractOf(p.properties![slot.name], ec.properties![slot.name], slot.type, apply));
  const out: Schema = { properties };
  if (ec.additionalProperties === false && p.additionalProperties === undefined && apply('closed records'))
    out.additionalProperties = false;
  if (apply('left out')) out.required = ec.required ?? [];
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The branch of the exact `oneOf` of subtypes that a value's discriminator picks (its `const`), if any. */
function branchOf(e: Schema, value: Record<string, unknown>): Schema | undefined {
  return e.oneOf?.find((b) => Object.entries(b.properties ?? {}).some(([k, p]) => p.const !== undefined && value[k] === p.const));
}

/**
 * Arguments as 'openai-strict' shapes them, walked beside the exact listing `e`: every optional property of the
 * arguments and of each record that is left out is sent as `null`.
 */
export function strictShaped(value: unknown, e: Schema): unknown {
  if (Array.isArray(value)) return e.items ? value.map((v) => strictShaped(v, e.items!)) : value;
  if (!isObject(value)) return value;
  const branch = branchOf(e, value);
  if (branch) return strictShaped(value, branch);
  if (!e.properties) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(value)) define(out, k, Object.hasOwn(e.properties, k) ? strictShaped(value[k], e.properties[k]) : value[k]);
  for (const k of Object.keys(e.properties)) if (!Object.hasOwn(value, k) && !(e.required ?? []).includes(k)) define(out, k, null);
  return out;
}

/**
 * What 'openai-strict' reads `value` as, for the exact reader (docs/models-and-hosts.md, "Reading under a profile"):
 * a `null` for a property the exact listing does not require and whose type does not admit `null` left out.
 */
export function absentCounterpart(value: unknown, e: Schema): unknown {
  if (Array.isArray(value)) return e.items ? value.map((v) => absentCounterpart(v, e.items!)) : value;
  if (!isObject(value)) return value;
  const branch = branchOf(e, value);
  if (branch) return absentCounterpart(value, branch);
  if (!e.properties) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(value)) {
    const p = Object.hasOwn(e.properties, k) ? e.properties[k] : undefined;
    if (p && value[k] === null && !(e.required ?? []).includes(k) && !admitsNull(p)) continue;
    define(out, k, p ? absentCounterpart(value[k], p) : value[k]);
  }
  return out;
}
