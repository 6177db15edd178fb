import { deepFreeze, isObject, isObjectLike } from '../../objects';
import type { StandardJSONSchemaConverter, StandardSchemaV1 } from '../../decorators/standard-schema';
import type { Problems } from '../diagnostics';
import type { ExactRule, JsonSchema, PropertyModel, StringFormat, TypeNode } from '../model';
import { fragmentProblem } from './input-schema';

/**
 * A Standard Schema object (zod 4, Valibot, ArkType ...) as a model node (DESIGN.md section 2): its input JSON Schema
 * taken once, through the Standard JSON Schema interface (`~standard.jsonSchema.input({ target: 'draft-2020-12' })`),
 * checked here so that a schema that cannot be listed is a definition diagnostic (OMCG0018), never a broken
 * `tools/list`; reading is the library's own `~standard.validate` (invoke/reading/standard-reader.ts).
 *
 * The provider profiles cannot list the library's JSON Schema as it is: `lift` restates it in terms of the model
 * (records, arrays, enums, nullable ...) so that the profiles' one walk writes it, and says why where it cannot.
 */

const TARGET = 'draft-2020-12';
const DRAFT_2020_12 = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);
/** Listed in every `tools/list`, as a hand-written input schema is (input-schema.ts). */
const MAX_SCHEMA_LENGTH = 262_144;

/** Where a Standard Schema is used: inside a tool's input (a parameter, a property, an element), or as all of it. */
export type StandardPosition = 'inner' | 'input';

type Built = { readonly node: TypeNode & { kind: 'standard' } } | { readonly message: string; readonly fix: string };

const built: Record<StandardPosition, WeakMap<object, Built>> = { inner: new WeakMap(), input: new WeakMap() };

/** The node of a Standard Schema, or `undefined` with its problem recorded (OMCG0018); one node per schema and position. */
export function standardNode(
  schema: StandardSchemaV1,
  position: StandardPosition,
  where: string,
  problems: Problems,
): (TypeNode & { kind: 'standard' }) | undefined {
  let result = built[position].get(schema);
  if (!result) built[position].set(schema, (result = build(schema, position)));
  if ('node' in result) return result.node;
  return problems.add('OMCG0018', where, result.message, result.fix);
}

/** A value with `~standard` that is not a Standard Schema of version 1 with a `validate` function. */
export function notStandard(where: string, problems: Problems): undefined {
  return problems.add(
    'OMCG0018',
    where,
    "the hint has a '~standard' property but is not a Standard Schema (version 1, with a validate function).",
    'pass the schema object of a library that implements Standard Schema v1, such as zod 4, Valibot or ArkType.',
  );
}

const FIX = {
  converter:
    'use a library that implements Standard JSON Schema (zod 4.2 or later, ArkType 2.1.28 or later), or wrap the schema: for Valibot, toStandardJsonSchema(schema) from @valibot/to-json-schema.',
  unlistable:
    'describe JSON values only (no z.custom, Date, bigint, Map, function or transform-only schemas at the input), or declare the type with a type hint or a record class.',
  object: 'give an object schema such as z.object({ city: z.string() }), or use params for single values.',
  references:
    'inline the referenced schema (no recursive z.lazy, no .meta({ id }) or registries), or pass the recursive schema as the whole input: server.tool(name, { input }, handler).',
} as const;

function build(schema: StandardSchemaV1, position: StandardPosition): Built {
  const props = schema['~standard'];
  const vendor = typeof props.vendor === 'string' ? props.vendor : 'unknown';
  const converter = (props as { jsonSchema?: Partial<StandardJSONSchemaConverter> }).jsonSchema;
  const what = `the ${vendor} schema`;
  if (typeof converter?.input !== 'function') {
    return { message: `${what} has no Standard JSON Schema interface (~standard.jsonSchema), so it cannot be listed.`, fix: FIX.converter };
  }
  const input = jsonOf(() => converter.input!({ target: TARGET }));
  if ('problem' in input) return { message: `${what} cannot be listed as JSON Schema ${TARGET}: ${input.problem}.`, fix: FIX.unlistable };
  const root = input.json;
  const dialect = root.$schema;
  if (dialect !== undefined && !DRAFT_2020_12.has(dialect as string)) {
    return {
      message: `${what} was listed for ${JSON.stringify(dialect)}, not JSON Schema ${TARGET} (the library does not support that target).`,
      fix: 'use a version of the library whose ~standard.jsonSchema supports the draft-2020-12 target.',
    };
  }
  const json = withoutKey(root, '$schema');
  if (input.text.length > MAX_SCHEMA_LENGTH) {
    return {
      message: `${what} lists ${input.text.length} characters of JSON, more than ${MAX_SCHEMA_LENGTH}; it is sent in every tools/list.`,
      fix: 'split the schema, or the tool.',
    };
  }
  if (position === 'input' && json.type !== 'object') {
    return {
      message: `${what} lists ${JSON.stringify(json.type) ?? 'no type'}; an MCP tool's input schema is "type": "object".`,
      fix: FIX.object,
    };
  }
  const reference = position === 'inner' ? referenceIn(json) : undefined;
  if (reference !== undefined) {
    return {
      message: `${what} lists "${reference}", which resolves against the whole inputSchema once the schema is placed inside it.`,
      fix: FIX.references,
    };
  }
  const invalid = fragmentProblem(json);
  if (invalid !== undefined)
    return { message: `${what} lists a schema that is not valid JSON Schema ${TARGET}: ${invalid}.`, fix: FIX.unlistable };
  const output =
    typeof converter.output === 'function' ? jsonOf(() => converter.output!({ target: TARGET })) : { problem: 'no output converter' };
  const node: TypeNode & { kind: 'standard' } = {
    kind: 'standard',
    schema,
    vendor,
    json: deepFreeze(json),
    root: deepFreeze(root),
    output: 'json' in output ? deepFreeze(withoutKey(output.json, '$schema')) : { problem: output.problem },
    lifted: lift(json),
    absent: acceptsUndefined(schema),
  };
  return { node: Object.freeze(node) };
}

/** The JSON data a converter answers (a plain copy), or why there is none (it threw, or answered no JSON object). */
function jsonOf(convert: () => unknown): { readonly json: Record<string, unknown>; readonly text: string } | { readonly problem: string } {
  let value: unknown;
  try {
    value = convert();
  } catch (error) {
    return { problem: oneLine(error instanceof Error ? error.message : String(error)) };
  }
  if (!isObject(value)) return { problem: 'the converter answered no JSON Schema object' };
  try {
    const text = JSON.stringify(value);
    return { json: JSON.parse(text) as Record<string, unknown>, text };
  } catch (error) {
    return { problem: `the converter answered no JSON data (${oneLine(error instanceof Error ? error.message : String(error))})` };
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** A copy without `key`, the other keys in their order; a key named `__proto__` stays an own key. */
function withoutKey(json: Record<string, unknown>, key: string): Record<string, unknown> {
  if (!Object.hasOwn(json, key)) return json;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(json)) {
    if (k === key) continue;
    Object.defineProperty(out, k, { value: json[k], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The first keyword that refers to another part of the document, anywhere in the schema. */
function referenceIn(value: unknown): string | undefined {
  if (!isObjectLike(value)) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = referenceIn(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const k of Object.keys(value)) {
    if (
      k === '$ref' ||
      k === '$dynamicRef' ||
      k === '$defs' ||
      k === 'definitions' ||
      k === '$id' ||
      k === '$anchor' ||
      k === '$dynamicAnchor'
    )
      return k;
    const found = referenceIn((value as Record<string, unknown>)[k]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether `validate(undefined)` succeeds synchronously (`.optional()`, `.default(x)`): a slot of the type may be left out. */
function acceptsUndefined(schema: StandardSchemaV1): boolean {
  try {
    const result = schema['~standard'].validate(undefined);
    if (isThenable(result)) {
      // Asked once at definition time: an async answer is taken as "required", and its outcome ignored.
      (result as Promise<unknown>).then(undefined, () => undefined);
      return false;
    }
    return !result.issues;
  } catch {
    return false;
  }
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return isObjectLike(value) && typeof (value as { then?: unknown }).then === 'function';
}

// ---- lifting: the library's JSON Schema in terms of the model, for the provider profiles ----

type Lifted = TypeNode | { readonly problem: string };

/** Keywords that change no verdict: ignored when lifting (the profiles have no place for them). */
const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const FORMATS: ReadonlySet<string> = new Set<StringFormat>(['uuid', 'date-time', 'date', 'time', 'uri', 'email']);

/** Extra keywords of a lifted node, listed as its exact fragment states them; reading is the library's, so no test. */
function keywordsRule(keywords: Record<string, unknown>): ExactRule {
  return { origin: LIFTED, keywords, test: () => true, expected: '', fits: () => true };
}
const LIFTED = Object.freeze({});

const isProblem = (x: Lifted): x is { readonly problem: string } => 'problem' in x;

const problem = (text: string): { readonly problem: string } => ({ problem: text });

/** Keys of `json` other than the annotations and `allowed`: what the lifted node would not state. */
function unknownKey(json: JsonSchema, allowed: readonly string[]): string | undefined {
  return Object.keys(json).find((k) => !ANNOTATIONS.has(k) && !allowed.includes(k));
}

function isNullSchema(json: unknown): boolean {
  return isObjectLike(json) && (json as JsonSchema).type === 'null' && Object.keys(json).every((k) => k === 'type' || ANNOTATIONS.has(k));
}

/** `json` in terms of the model, or why it cannot be (a union, a tuple, a reference ...). */
export function lift(json: JsonSchema): Lifted {
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = json[union];
    if (branches === undefined) continue;
    const other = unknownKey(json, [union]);
    if (other !== undefined) return problem(`the keyword "${other}" beside "${union}"`);
    if (!Array.isArray(branches)) return problem(`"${union}" is not an array`);
    const kept = branches.filter((b) => !isNullSchema(b));
    if (kept.length !== 1) return problem(`a union ("${union}" of ${branches.length} schemas)`);
    const inner = lift(kept[0] as JsonSchema);
    return isProblem(inner) || kept.length === branches.length ? inner : nullable(inner);
  }
  const type = json.type;
  if (Array.isArray(type)) {
    const kept = type.filter((t) => t !== 'null');
    if (kept.length !== 1) return problem(`a union of types (${JSON.stringify(type)})`);
    const one: Record<string, unknown> = { ...json, type: kept[0] };
    if (Array.isArray(json.enum)) one.enum = json.enum.filter((v) => v !== null);
    const inner = lift(one);
    return isProblem(inner) || kept.length === type.length ? inner : nullable(inner);
  }
  if (json.enum !== undefined) return liftEnum(json);
  if (json.const !== undefined) {
    const other = unknownKey(json, ['type', 'const']);
    if (other !== undefined) return problem(`the keyword "${other}"`);
    if (typeof json.const !== 'string' || (type !== undefined && type !== 'string')) return problem(`a "const" that is not a string`);
    return { kind: 'string', as: 'string', const: json.const };
  }
  switch (type) {
    case undefined: {
      const other = unknownKey(json, []);
      return other === undefined ? { kind: 'json', shape: 'any' } : problem(`the keyword "${other}"`);
    }
    case 'boolean': {
      const other = unknownKey(json, ['type']);
      return other === undefined ? { kind: 'boolean' } : problem(`the keyword "${other}"`);
    }
    case 'number':
    case 'integer':
      return liftNumber(json, type);
    case 'string':
      return liftString(json);
    case 'array':
      return liftArray(json);
    case 'object':
      return liftObject(json);
    default:
      return problem(`"type": ${JSON.stringify(type)}`);
  }
}

function nullable(node: TypeNode): TypeNode {
  return node.kind === 'nullable' ? node : { kind: 'nullable', inner: node };
}

function liftEnum(json: JsonSchema): Lifted {
  const other = unknownKey(json, ['type', 'enum']);
  if (other !== undefined) return problem(`the keyword "${other}"`);
  const values = json.enum;
  if (!Array.isArray(values) || values.length === 0) return problem('an empty "enum"');
  const strings = values.filter((v): v is string => typeof v === 'string');
  const withNull = values.includes(null);
  if (strings.length + (withNull ? 1 : 0) !== values.length || strings.length === 0 || (json.type !== undefined && json.type !== 'string'))
    return problem('an "enum" of values that are not all strings');
  const node: TypeNode = { kind: 'enum', names: strings, values: strings, listed: strings };
  return withNull ? nullable(node) : node;
}

const NUMBER_RULES = ['exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

function liftNumber(json: JsonSchema, type: 'number' | 'integer'): Lifted {
  const other = unknownKey(json, ['type', 'minimum', 'maximum', ...NUMBER_RULES]);
  if (other !== undefined) return problem(`the keyword "${other}"`);
  const extra = pickKeys(json, NUMBER_RULES);
  const minimum = typeof json.minimum === 'number' ? json.minimum : undefined;
  const maximum = typeof json.maximum === 'number' ? json.maximum : undefined;
  const node: TypeNode =
    type === 'integer'
      ? { kind: 'integer', minimum: minimum ?? -Infinity, maximum: maximum ?? Infinity, bigint: false }
      : { kind: 'number', minimum, maximum };
  return extra ? { ...node, rules: [keywordsRule(extra)] } : node;
}

function liftString(json: JsonSchema): Lifted {
  const other = unknownKey(json, ['type', 'format', 'minLength', 'maxLength', 'pattern', 'contentEncoding', 'contentMediaType']);
  if (other !== undefined) return problem(`the keyword "${other}"`);
  const format = typeof json.format === 'string' && FORMATS.has(json.format) ? (json.format as StringFormat) : undefined;
  const extra = pickKeys(
    json,
    format === undefined ? ['format', 'contentEncoding', 'contentMediaType'] : ['contentEncoding', 'contentMediaType'],
  );
  const node: TypeNode = {
    kind: 'string',
    as: 'string',
    format,
    minLength: typeof json.minLength === 'number' ? json.minLength : undefined,
    maxLength: typeof json.maxLength === 'number' ? json.maxLength : undefined,
    pattern: typeof json.pattern === 'string' ? json.pattern : undefined,
  };
  return extra ? { ...node, rules: [keywordsRule(extra)] } : node;
}

function liftArray(json: JsonSchema): Lifted {
  const other = unknownKey(json, ['type', 'items', 'minItems', 'maxItems', 'uniqueItems']);
  if (other !== undefined) return problem(`the keyword "${other}"`);
  if (json.items === undefined)
    return json.minItems === undefined && json.maxItems === undefined && json.uniqueItems === undefined
      ? { kind: 'json', shape: 'array' }
      : problem('an array without "items"');
  if (!isObject(json.items)) return problem('"items" that is not a schema');
  const items = lift(json.items as JsonSchema);
  if (isProblem(items)) return items;
  return {
    kind: 'array',
    items,
    set: false,
    uniqueItems: json.uniqueItems === true,
    minItems: typeof json.minItems === 'number' ? json.minItems : undefined,
    maxItems: typeof json.maxItems === 'number' ? json.maxItems : undefined,
  };
}

function liftObject(json: JsonSchema): Lifted {
  const other = unknownKey(json, ['type', 'properties', 'required', 'additionalProperties', 'propertyNames']);
  if (other !== undefined) return problem(`the keyword "${other}"`);
  // `{"type":"string"}` names every JSON object key: it says nothing.
  const names = json.propertyNames as JsonSchema | undefined;
  if (names !== undefined && !(isObjectLike(names) && names.type === 'string' && Object.keys(names).length === 1))
    return problem('"propertyNames"');
  const additional = json.additionalProperties;
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  const open = additional === undefined || additional === true;
  if (properties === undefined || Object.keys(properties).length === 0) {
    if (open || (isObjectLike(additional) && Object.keys(additional).length === 0)) return { kind: 'json', shape: 'object' };
    if (additional === false) return { kind: 'record', ctor: Object, properties: [], description: undefined };
    const values = lift(additional as JsonSchema);
    return isProblem(values) ? values : { kind: 'dictionary', values, as: 'object' };
  }
  if (!open && additional !== false) return problem('"additionalProperties" beside "properties"');
  const required = new Set(Array.isArray(json.required) ? (json.required as unknown[]) : []);
  const slots: PropertyModel[] = [];
  for (const name of Object.keys(properties)) {
    const child = properties[name];
    if (!isObjectLike(child)) return problem(`the property "${name}" as ${JSON.stringify(child)}`);
    const type = lift(child);
    if (isProblem(type)) return problem(`${type.problem} (property "${name}")`);
    const description = typeof child.description === 'string' ? child.description : undefined;
    slots.push({
      key: name,
      name,
      type,
      description,
      required: required.has(name),
      default: child.default !== undefined && !required.has(name) ? { value: child.default } : undefined,
    });
  }
  return {
    kind: 'record',
    ctor: Object,
    properties: slots,
    description: typeof json.description === 'string' ? json.description : undefined,
  };
}

function pickKeys(json: JsonSchema, keys: readonly string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const k of keys) if (json[k] !== undefined) (out ??= {})[k] = json[k];
  return out;
}
