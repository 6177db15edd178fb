import { CLOSED, type ValidationPolicy } from './records/validation-options';
import {
  unwrap,
  type ExactRule,
  type JsonSchema,
  type SlotModel,
  type ParamModel,
  type PropertyModel,
  type ResultModel,
  type TypeNode,
} from './model';

/** The only keywords written, in the only order they are written. */
const KEYWORDS = [
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
  'minLength',
  'maxLength',
  'pattern',
  'contentEncoding',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'properties',
  'required',
  'additionalProperties',
  'not',
  'allOf',
  'oneOf',
  'default',
] as const;

type Keyword = (typeof KEYWORDS)[number];
type Keywords = Partial<Record<Keyword, unknown>>;

function ordered(keywords: Keywords): JsonSchema {
  const out: Record<string, unknown> = {};
  // Indexed: schemas are mostly written once, at start-up, by code not yet optimised, where a `for...of`
  // step allocates.
  for (let i = 0; i < KEYWORDS.length; i++) {
    const k = KEYWORDS[i];
    if (keywords[k] !== undefined) out[k] = keywords[k];
  }
  // Other keywords come only from a custom constraint's `@ConstraintSchema` fragment: after ours, as given.
  if (Object.keys(keywords).length > Object.keys(out).length) {
    for (const k of Object.keys(keywords)) if (!(k in out) && keywords[k as Keyword] !== undefined) out[k] = keywords[k as Keyword];
  }
  return out;
}

/**
 * One result per (immutable) model node and validation policy: the listing of a record depends on the options
 * in force (`additionalProperties`, and what `skipMissingProperties` makes optional).
 */
function perNodeAndPolicy<V>(build: (node: TypeNode, policy: ValidationPolicy) => V): (node: TypeNode, policy?: ValidationPolicy) => V {
  const caches = new Map<string, WeakMap<TypeNode, V>>();
  return (node, policy = CLOSED) => {
    let cache = caches.get(policy.key);
    if (!cache) caches.set(policy.key, (cache = new WeakMap()));
    let value = cache.get(node);
    if (value === undefined) {
      value = build(node, policy);
      cache.set(node, value);
    }
    return value;
  };
}

/** The keywords of a type, before a slot adds its description and default; written once per node. */
const keywordsOf = perNodeAndPolicy((node: TypeNode, policy: ValidationPolicy): Keywords =>
  node.kind !== 'nullable' && node.rules ? withRules(buildKeywords(node, policy), node.rules) : buildKeywords(node, policy),
);

/** Lower bounds two rules may both state: the stricter one is written. */
const STRICTER: Partial<Record<Keyword, (a: number, b: number) => number>> = {
  minLength: Math.max,
  minItems: Math.max,
  minProperties: Math.max,
};

/**
 * A node's keywords with its exact rules' keywords added; a keyword already stated another way (two
 * patterns, two formats) is written as one more `allOf` entry, so each rule keeps its own.
 */
function withRules(base: Keywords, rules: readonly ExactRule[]): Keywords {
  const out: Record<string, unknown> = { ...base };
  const also: JsonSchema[] = [];
  for (const rule of rules) {
    for (const [k, v] of Object.entries(rule.keywords)) {
      const stricter = STRICTER[k as Keyword];
      if (out[k] === undefined) out[k] = v;
      else if (stricter) out[k] = stricter(out[k] as number, v as number);
      else if (JSON.stringify(out[k]) !== JSON.stringify(v)) also.push({ [k]: v });
    }
  }
  if (also.length > 0) out.allOf = also;
  return out as Keywords;
}

function buildKeywords(node: TypeNode, policy: ValidationPolicy): Keywords {
  switch (node.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { type: 'number', minimum: finite(node.minimum), maximum: finite(node.maximum) };
    case 'integer':
      return { type: 'integer', minimum: finite(node.minimum), maximum: finite(node.maximum) };
    case 'string':
      return {
        type: 'string',
        format: node.format,
        const: node.const,
        minLength: node.minLength,
        maxLength: node.maxLength,
        pattern: node.pattern,
      };
    case 'bytes':
      return { type: 'string', contentEncoding: 'base64' };
    case 'enum':
      return { type: 'string', enum: [...node.listed] };
    case 'array':
      return {
        type: 'array',
        items: fragmentOf(node.items, policy),
        minItems: node.minItems,
        maxItems: node.maxItems,
        uniqueItems: node.uniqueItems ? true : undefined,
      };
    case 'dictionary':
      return { type: 'object', additionalProperties: fragmentOf(node.values, policy) };
    case 'json':
      return node.shape === 'any' ? {} : { type: node.shape };
    case 'record':
      return { ...objectKeywords(node.properties, policy, policy.unknown === 'refuse'), description: node.description };
    case 'discriminated':
      // No `type` beside it: each subtype is a closed object, and `null` (when nullable) one more branch.
      return { oneOf: node.subtypes.map((s) => fragmentOf(s.record, policy)) };
    case 'standard':
      return node.json as Keywords;
    case 'nullable':
      // A Standard Schema's fragment is the library's, kept whole: `null` is one more branch beside it.
      if (node.inner.kind === 'standard') return { anyOf: [node.inner.json, { type: 'null' }] } as Keywords;
      return nullableKeywords(keywordsOf(node.inner, policy));
  }
}

/** The keywords of a type that also admits `null`. */
function nullableKeywords(inner: Keywords): Keywords {
  if (Array.isArray(inner.oneOf)) return { ...inner, oneOf: [...inner.oneOf, { type: 'null' }] };
  if (inner.type === undefined) return inner;
  // `const` admits one value: beside null it becomes a two-value `enum`.
  const values = inner.const !== undefined ? [inner.const] : inner.enum;
  return {
    ...inner,
    type: Array.isArray(inner.type) ? inner.type : [inner.type, 'null'],
    enum: Array.isArray(values) && !values.includes(null) ? [...values, null] : values,
    const: undefined,
  };
}

function finite(n: number | undefined): number | undefined {
  return n === undefined || !Number.isFinite(n) ? undefined : n;
}

/**
 * Under `skipMissingProperties` a record property without `@IsDefined` skips every rule when it is missing or
 * `null`: it is not required, and admits `null`.
 */
function skipped(slot: SlotModel, policy: ValidationPolicy, record: boolean): boolean {
  return record && policy.skipMissing && (slot as PropertyModel).defined !== true;
}

function objectKeywords(slots: readonly SlotModel[], policy: ValidationPolicy, closed: boolean, record = true): Keywords {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    const skip = skipped(slot, policy, record);
    const written = slotFragment(slot, policy);
    const fragment = skip && slot.type.kind !== 'nullable' ? (ordered(nullableKeywords(written as Keywords)) as JsonSchema) : written;
    // As Object.fromEntries would: a property named `__proto__` is an own key, not the prototype.
    if (slot.name === '__proto__')
      Object.defineProperty(properties, slot.name, { value: fragment, enumerable: true, writable: true, configurable: true });
    else properties[slot.name] = fragment;
    if (slot.required && !skip) required.push(slot.name);
  }
  return {
    type: 'object',
    properties,
    required: required.length > 0 ? required : undefined,
    additionalProperties: closed ? false : undefined,
  };
}

/** The fragment of a type, written once per (immutable) node. */
export const fragmentOf = perNodeAndPolicy((node: TypeNode, policy: ValidationPolicy): JsonSchema =>
  // A Standard Schema's fragment is listed in the library's own key order.
  node.kind === 'standard' ? node.json : ordered(keywordsOf(node, policy)),
);

/**
 * The value written as `default`, or `undefined`: strings, numbers, booleans and chars as they are,
 * enums in their listed form; `null` and anything else write nothing.
 */
export function writtenDefault(node: TypeNode, value: unknown): unknown {
  const bare = unwrap(node);
  if (bare.kind === 'enum') {
    const at = bare.values.indexOf(value as string | number);
    return at >= 0 ? bare.listed[at] : undefined;
  }
  if (typeof value === 'string' && bare.kind === 'string' && bare.as === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value) && (bare.kind === 'number' || bare.kind === 'integer')) return value;
  if (typeof value === 'boolean' && bare.kind === 'boolean') return value;
  return undefined;
}

/**
 * The fragment of a parameter or property: its type's fragment with the slot's description in third
 * place (after `type` and `format`) and its default last, as section 4 orders them.
 */
export function slotFragment(slot: SlotModel, policy: ValidationPolicy = CLOSED): JsonSchema {
  const base = fragmentOf(slot.type, policy);
  const description = slot.description ?? (base.description as string | undefined);
  const value = slot.default ? writtenDefault(slot.type, slot.default.value) : undefined;
  if (description === base.description && value === undefined && slot.examples === undefined) return base;
  if (unwrap(slot.type).kind === 'standard') return standardSlotFragment(base, description, value, slot.examples);
  const out: Record<string, unknown> = {};
  if (base.type !== undefined) out.type = base.type;
  if (base.format !== undefined) out.format = base.format;
  if (description !== undefined) out.description = description;
  for (const k in base) if (k !== 'type' && k !== 'format' && k !== 'description') out[k] = base[k];
  if (value !== undefined) out.default = value;
  if (slot.examples !== undefined) out.examples = slot.examples;
  return out;
}

/**
 * A Standard Schema slot's fragment: the library's keys in its order, the slot's description in place of the
 * library's (or after its keys), then `default` and `examples`.
 */
function standardSlotFragment(
  base: JsonSchema,
  description: string | undefined,
  value: unknown,
  examples: readonly unknown[] | undefined,
): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) {
    const v = k === 'description' ? description : base[k];
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  if (description !== undefined) out.description = description;
  if (value !== undefined) out.default = value;
  if (examples !== undefined) out.examples = examples;
  return out;
}

/**
 * A tool's `inputSchema`: a closed object of its parameters (the arguments object is no DTO: an unknown
 * argument is refused under any options), each record written under the validation policy in force.
 */
export function inputSchemaOf(params: readonly ParamModel[], policy: ValidationPolicy = CLOSED): JsonSchema {
  const schema = ordered(objectKeywords(params, policy, true, false));
  if (!params.some((p) => p.header !== undefined)) return schema;
  // SEP-2243's extension keyword, after every keyword of section 4, on the arguments that declare it.
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const p of params) if (p.header !== undefined) properties[p.name] = { ...properties[p.name], 'x-mcp-header': p.header };
  return { ...schema, properties };
}

/**
 * A tool's `outputSchema`, written only for object-shaped results (records, dictionaries). A nullable
 * record keeps `"type":"object"`: every revision before 2026-07-28 requires an object root.
 */
export function outputSchemaOf(result: ResultModel): JsonSchema | undefined {
  if (result.kind !== 'value') return undefined;
  const bare = unwrap(result.type);
  if (bare.kind === 'standard') return isStructuredStandard(bare) ? (bare.output as JsonSchema) : undefined;
  return bare.kind === 'record' || bare.kind === 'dictionary' ? fragmentOf(bare) : undefined;
}

/** A Standard Schema result whose output JSON Schema is an object: sent as `structuredContent`, with an `outputSchema`. */
export function isStructuredStandard(node: Extract<TypeNode, { kind: 'standard' }>): boolean {
  return !('problem' in node.output) && (node.output as JsonSchema).type === 'object';
}
