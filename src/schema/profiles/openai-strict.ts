import type { JsonSchema, ParamModel } from '../model';
import type { ValidationPolicy } from '../records/validation-options';
import { inputSchemaUnder, type Dialect, type Keywords } from './walk';

/**
 * The `'openai-strict'` profile: OpenAI's strict function calling (`strict: true`, Structured Outputs' subset of
 * JSON Schema). Every property is required and an optional one admits `null` instead (read as absent); every object
 * is closed (`additionalProperties: false`); of the formats only `date-time`, `time`, `date`, `duration`, `email`,
 * `hostname`, `ipv4`, `ipv6` and `uuid`; no `minLength`/`maxLength`, `uniqueItems`, `contentEncoding`, `default`,
 * `minProperties`, `not`, `allOf` nor `oneOf` (`anyOf` instead). A dictionary cannot be stated (its object would be
 * open): it is listed as an empty closed object, and the server warns at definition time. What it cannot state is
 * said in words in the description.
 *
 * Keyword order, fixed:
 *
 *     type, format, description, enum, const, minimum, exclusiveMinimum, maximum, exclusiveMaximum, multipleOf,
 *     pattern, items, minItems, maxItems, properties, required, additionalProperties, anyOf
 */

export const STRICT_ORDER = [
  'type',
  'format',
  'description',
  'enum',
  'const',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
] as const;

export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

const AS_THEY_ARE: ReadonlySet<string> = new Set([
  'enum',
  'const',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
  'minItems',
  'maxItems',
]);

/** The keywords of a type that also admits `null`, as write.ts spells it: `"null"` in `type` (and `enum`), else one more `anyOf` branch. */
function nullable(inner: Keywords): Keywords {
  if (Array.isArray(inner.anyOf))
    return inner.anyOf.some((b: { type?: unknown }) => b.type === 'null') ? inner : { ...inner, anyOf: [...inner.anyOf, { type: 'null' }] };
  if (inner.type === undefined || Array.isArray(inner.type)) return inner;
  const values = inner.const !== undefined ? [inner.const] : inner.enum;
  return {
    ...inner,
    type: [inner.type, 'null'],
    enum: Array.isArray(values) && !values.includes(null) ? [...values, null] : values,
    const: undefined,
  };
}

export const OPENAI_STRICT: Dialect = {
  name: 'openai-strict',
  order: STRICT_ORDER,
  stated(keyword, value) {
    if (AS_THEY_ARE.has(keyword)) return { [keyword]: value };
    if (keyword === 'format') return STRICT_FORMATS.has(value as string) ? { format: value } : undefined;
    return undefined;
  },
  nullable,
  // Every property required; closed.
  object: (properties, _required, names) => ({
    type: 'object',
    properties,
    required: names.length > 0 ? [...names] : undefined,
    additionalProperties: false,
  }),
  dictionary: () => ({ type: 'object', properties: {}, additionalProperties: false }),
  json: (shape): Keywords =>
    shape === 'any'
      ? { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }
      : shape === 'object'
        ? { type: 'object', properties: {}, additionalProperties: false }
        : { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
  optional: (keywords, alreadyNullable) => (alreadyNullable ? keywords : nullable(keywords)),
};

/** A tool's `inputSchema` under `'openai-strict'`. */
export function strictInputSchemaOf(params: readonly ParamModel[], policy?: ValidationPolicy, describe = true): JsonSchema {
  return inputSchemaUnder(OPENAI_STRICT, params, policy, describe);
}
