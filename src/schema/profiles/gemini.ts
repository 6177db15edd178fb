import type { JsonSchema, ParamModel } from '../model';
import type { ValidationPolicy } from '../records/validation-options';
import { inputSchemaUnder, ordered, type Dialect, type Keywords } from './walk';

/**
 * The `'gemini'` profile: Gemini's function-declaration `parameters`, an OpenAPI 3.0 subset (the `Schema` object of
 * the Gemini API). One `type` per fragment with `nullable` for `null`; of the formats only `date-time` (strings), `int32` and `int64` (bounded integers;
 * `enum` for an enum's); no `const`, `uniqueItems`, `contentEncoding`, `additionalProperties`, `default`,
 * `exclusive*`, `multipleOf`, `allOf` nor `oneOf` (`anyOf` instead); every fragment has a `type` but an `anyOf`.
 * Objects list `propertyOrdering`, so that Gemini keeps the declaration order. What it cannot state is said in
 * words in the description.
 *
 * Keyword order, fixed:
 *
 *     type, format, description, nullable, enum, minimum, maximum, minLength, maxLength, pattern,
 *     items, minItems, maxItems, properties, required, propertyOrdering, anyOf
 */

export const GEMINI_ORDER = [
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
] as const;

/** The constraint keywords of an exact fragment Gemini states as they are. */
const AS_THEY_ARE: ReadonlySet<string> = new Set(['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems']);

const INT32 = 2 ** 31;

/**
 * Gemini's formats of an `INTEGER` (`int32`, `int64`), from the range of the exact fragment: `int32` when both bounds
 * lie within a 32-bit signed integer's, else `int64` when both are stated (every bound we write is a safe integer).
 */
function integerFormat(exact: JsonSchema): string | undefined {
  const { type, minimum: min, maximum: max } = exact;
  if (type !== 'integer' || typeof min !== 'number' || typeof max !== 'number') return undefined;
  return min >= -INT32 && max <= INT32 - 1 ? 'int32' : 'int64';
}

/**
 * `null` beside an `anyOf`: OpenAPI 3.0.3 says `nullable` only adds `null` to the types named by `type`, which an
 * `anyOf` fragment has none of; so each branch is made nullable instead (each has its `type`).
 */
function nullable(keywords: Keywords): Keywords {
  if (!Array.isArray(keywords.anyOf)) return { ...keywords, nullable: true };
  return { ...keywords, anyOf: keywords.anyOf.map((b: Keywords) => ordered({ ...b, nullable: true }, GEMINI_ORDER)) };
}

export const GEMINI: Dialect = {
  name: 'gemini',
  order: GEMINI_ORDER,
  stated(keyword, value, exact) {
    if (keyword === 'minimum' || keyword === 'maximum') return { [keyword]: value, format: integerFormat(exact) };
    if (AS_THEY_ARE.has(keyword)) return { [keyword]: value };
    if (keyword === 'format') return value === 'date-time' ? { format: value } : undefined;
    // An enum of strings is Gemini's `format: enum`; a `const` is an enum of one.
    if (keyword === 'enum') return exact.format === undefined ? { format: 'enum', enum: value } : undefined;
    if (keyword === 'const' && typeof value === 'string') return exact.format === undefined ? { format: 'enum', enum: [value] } : undefined;
    return undefined;
  },
  nullable,
  object: (properties, required, names) => ({
    type: 'object',
    properties,
    propertyOrdering: names.length > 1 ? [...names] : undefined,
    required: required.length > 0 ? [...required] : undefined,
  }),
  // No `additionalProperties`: an object without properties, and the values said in words.
  dictionary: () => ({ type: 'object' }),
  json: (shape): Keywords =>
    shape === 'any'
      ? { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }
      : shape === 'object'
        ? { type: 'object' }
        : { type: 'array', items: { type: 'string' } },
  optional: (keywords) => keywords,
};

/** A tool's `inputSchema` under `'gemini'`. */
export function geminiInputSchemaOf(params: readonly ParamModel[], policy?: ValidationPolicy, describe = true): JsonSchema {
  return inputSchemaUnder(GEMINI, params, policy, describe);
}
