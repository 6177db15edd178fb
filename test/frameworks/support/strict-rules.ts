/**
 * OpenAI's strict mode (Structured Outputs, and function calling with `strict: true`) takes a subset of JSON Schema.
 * The rules here are those of OpenAI's "Structured model outputs" guide, section "Supported schemas"
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas; the string formats as listed there
 * are also quoted by SDKs generated from it, e.g. https://www.rubydoc.info/gems/vapi_server_sdk/Vapi/JsonSchemaFormat):
 *
 * - types: string, number, boolean, integer, object, array, null (as a type list member), and `enum`, `const`, `anyOf`;
 * - strings: `pattern`, `format` among date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid;
 * - numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`; arrays: `minItems`, `maxItems`;
 * - definitions: `$defs` and `$ref` (local), `description` on any fragment;
 * - "the root level object must be an object, and not use anyOf";
 * - "all fields must be required" and "additionalProperties: false must always be set in objects";
 * - limits: "up to 5000 object properties total, with up to 10 levels of nesting"; "up to 1000 enum values across all
 *   enum properties"; the total length of property names, definition names, enum and const values at most 120,000;
 *   a single enum of more than 250 string values at most 15,000 characters in all.
 *
 * The limits as of now are also restated at https://docs.telepatia.ai/scribe-api/smart-templates-output-schema
 * (depth 10, 5,000 properties, 120,000 characters, 1,000 enum values); they were once 100 properties and 5 levels
 * (https://community.openai.com/t/measuring-maximum-depth-and-object-properties-in-structured-outputs/918388).
 *
 * Anything else (`minLength`, `maxLength`, `default`, `uniqueItems`, `contentEncoding`, `allOf`, `not`, `oneOf`, a
 * format outside the list, an open or schema-valued `additionalProperties`) is a violation.
 */

export interface Violation {
  /** A JSON Pointer into the checked schema: `''` is the root, `/properties/lines/items` a fragment inside. */
  readonly path: string;
  readonly rule: string;
}

const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$defs',
  '$ref',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const TYPES = new Set(['string', 'number', 'boolean', 'integer', 'object', 'array', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;
const MAX_NAME_LENGTH = 120_000;
const LONG_ENUM = 250;
const MAX_LONG_ENUM_LENGTH = 15_000;

type Fragment = Record<string, unknown>;
const isFragment = (value: unknown): value is Fragment => typeof value === 'object' && value !== null && !Array.isArray(value);
const pointer = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The violations of OpenAI's strict-mode rules in `schema` (a function's `parameters`), in document order. */
export function strictViolations(schema: unknown): Violation[] {
  const violations: Violation[] = [];
  const say = (path: string, rule: string) => violations.push({ path, rule });
  const totals = { properties: 0, enumValues: 0, nameLength: 0 };

  const typesOf = (fragment: Fragment): string[] =>
    typeof fragment.type === 'string' ? [fragment.type] : Array.isArray(fragment.type) ? fragment.type.map(String) : [];

  const visit = (fragment: unknown, path: string, depth: number): void => {
    if (!isFragment(fragment)) {
      say(path, 'a schema must be an object');
      return;
    }
    for (const key of Object.keys(fragment)) if (!KEYWORDS.has(key)) say(pointer(path, key), `unsupported keyword ${key}`);
    const types = typesOf(fragment);
    for (const type of types) if (!TYPES.has(type)) say(pointer(path, 'type'), `unsupported type ${type}`);
    if (typeof fragment.format === 'string' && !FORMATS.has(fragment.format))
      say(pointer(path, 'format'), `unsupported format ${fragment.format}`);
    if (Array.isArray(fragment.enum)) {
      totals.enumValues += fragment.enum.length;
      const strings = fragment.enum.filter((value): value is string => typeof value === 'string');
      const length = strings.reduce((sum, value) => sum + value.length, 0);
      totals.nameLength += length;
      if (strings.length > LONG_ENUM && length > MAX_LONG_ENUM_LENGTH)
        say(pointer(path, 'enum'), `an enum of more than ${LONG_ENUM} strings longer than ${MAX_LONG_ENUM_LENGTH} characters in all`);
    }
    if (typeof fragment.const === 'string') totals.nameLength += fragment.const.length;
    const isObject = types.includes('object') || 'properties' in fragment;
    if (isObject) {
      if (depth > MAX_DEPTH) say(path, `more than ${MAX_DEPTH} levels of object nesting`);
      if (fragment.additionalProperties !== false) say(pointer(path, 'additionalProperties'), 'additionalProperties must be false');
      const properties = isFragment(fragment.properties) ? fragment.properties : {};
      const required = Array.isArray(fragment.required) ? fragment.required.map(String) : [];
      for (const [name, property] of Object.entries(properties)) {
        totals.properties += 1;
        totals.nameLength += name.length;
        if (!required.includes(name)) say(pointer(path, 'required'), `property ${name} must be required`);
        visit(property, pointer(pointer(path, 'properties'), name), depth + 1);
      }
    } else if ('additionalProperties' in fragment || 'required' in fragment) {
      say(path, 'additionalProperties or required on a fragment that is not an object');
    }
    if ('items' in fragment) visit(fragment.items, pointer(path, 'items'), depth);
    if (Array.isArray(fragment.anyOf))
      fragment.anyOf.forEach((branch, at) => visit(branch, pointer(pointer(path, 'anyOf'), String(at)), depth));
    if (isFragment(fragment.$defs)) {
      for (const [name, definition] of Object.entries(fragment.$defs)) {
        totals.nameLength += name.length;
        visit(definition, pointer(pointer(path, '$defs'), name), depth);
      }
    }
    if (typeof fragment.$ref === 'string' && fragment.$ref !== '#' && !fragment.$ref.startsWith('#/$defs/'))
      say(pointer(path, '$ref'), 'only local $ref');
  };

  if (!isFragment(schema) || !(typeof schema.type === 'string' && schema.type === 'object')) say('', 'the root must be an object');
  if (isFragment(schema) && 'anyOf' in schema) say('', 'the root must not be anyOf');
  visit(schema, '', 1);
  if (totals.properties > MAX_PROPERTIES) say('', `more than ${MAX_PROPERTIES} object properties`);
  if (totals.enumValues > MAX_ENUM_VALUES) say('', `more than ${MAX_ENUM_VALUES} enum values`);
  if (totals.nameLength > MAX_NAME_LENGTH) say('', `names, enum and const values longer than ${MAX_NAME_LENGTH} characters in all`);
  return violations;
}

/** `path: rule` lines, one per violation, for exact comparison in a test. */
export const describeViolations = (violations: readonly Violation[]): string[] => violations.map((v) => `${v.path}: ${v.rule}`);

/** A function tool as sent to the provider: its name, its `strict` flag and its `parameters`. */
export interface SentTool {
  readonly name: string;
  readonly strict: boolean | undefined;
  readonly parameters: unknown;
}

/**
 * `tool/path: rule` for each violation in each tool marked `strict: true` of each request (`requests`: the tools of
 * each request body in turn): what OpenAI would refuse.
 */
export function strictToolViolations(requests: readonly (readonly SentTool[])[]): string[] {
  const lines: string[] = [];
  for (const tools of requests)
    for (const tool of tools)
      if (tool.strict === true) for (const line of describeViolations(strictViolations(tool.parameters))) lines.push(`${tool.name}${line}`);
  return lines;
}
