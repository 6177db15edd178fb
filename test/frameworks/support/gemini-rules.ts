/**
 * Gemini's rules for a function declaration's `parameters`: the `Schema` object of the Gemini API, "a select subset
 * of an OpenAPI 3.0 schema object". Written from Google's published reference:
 *
 * - the Gemini API's `Schema` (https://ai.google.dev/api/caching#Schema, linked from the function calling guide,
 *   https://ai.google.dev/gemini-api/docs/function-calling, "Function declarations"); its fields are `type`,
 *   `format`, `title`, `description`, `nullable`, `enum`, `maxItems`, `minItems`, `properties`, `required`,
 *   `minProperties`, `maxProperties`, `minLength`, `maxLength`, `pattern`, `example`, `anyOf`, `propertyOrdering`,
 *   `default`, `items`, `minimum`, `maximum`;
 * - its `format`, in the API's discovery document (quoted in https://discuss.ai.google.dev/t/69272): "Supported
 *   formats: for NUMBER type: float, double for INTEGER type: int32, int64 for STRING type: enum, date-time"
 *   (a later revision of the v1beta `Schema` says instead that "any value is allowed, but most do not trigger any
 *   special functionality"; the checker keeps the list, which is what the `'gemini'` profile is written to);
 * - its `type`, the enum `Type`: `STRING`, `NUMBER`, `INTEGER`, `BOOLEAN`, `ARRAY`, `OBJECT`, `NULL`, and
 *   `TYPE_UNSPECIFIED`, "not specified, should not be used" (Vertex AI's `FunctionDeclaration` reference,
 *   https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration, says the same).
 *
 * One `type` per fragment (a string, uppercase as the API spells it or lowercase as JSON sends it), `null` only as
 * `nullable: true`; a fragment without a `type` must be an `anyOf`. Every other keyword (`additionalProperties`,
 * `uniqueItems`, `contentEncoding`, `const`, `oneOf`, `allOf`, `$ref`, `exclusiveMinimum`, `multipleOf`, ...) is
 * unknown to the `Schema` and a violation.
 */

/** One place a schema breaks Gemini's rules: a JSON pointer into the checked schema, and what is wrong there. */
export interface GeminiViolation {
  readonly path: string;
  readonly problem: string;
}

const FIELDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

const TYPES: ReadonlySet<string> = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

const FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

const COUNTS = ['maxItems', 'minItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
/** Counts are int64 in the API, which its JSON spells as a number or a decimal string. */
const isCount = (value: unknown) =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 0) || (typeof value === 'string' && /^\d+$/.test(value));
const pointer = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Every violation of Gemini's `Schema` rules in `schema`, depth first in the schema's own key order. */
export function geminiViolations(schema: unknown, path = ''): GeminiViolation[] {
  const found: GeminiViolation[] = [];
  const say = (where: string, problem: string) => found.push({ path: where, problem });
  if (!isObject(schema)) {
    say(path, `not a Schema object: ${JSON.stringify(schema)}`);
    return found;
  }
  let type: string | undefined;
  if (schema.type === undefined) {
    if (schema.anyOf === undefined) say(path, 'no type (and no anyOf)');
  } else if (typeof schema.type !== 'string') {
    say(pointer(path, 'type'), `not one type: ${JSON.stringify(schema.type)}`);
  } else if (!TYPES.has(schema.type.toUpperCase())) {
    say(pointer(path, 'type'), `not a Gemini type: ${JSON.stringify(schema.type)}`);
  } else {
    type = schema.type.toUpperCase();
  }
  for (const [key, value] of Object.entries(schema)) {
    const at = pointer(path, key);
    if (!FIELDS.has(key)) {
      say(at, `unknown to Gemini's Schema: ${JSON.stringify(value)}`);
      continue;
    }
    switch (key) {
      case 'format': {
        const allowed = type === undefined ? undefined : FORMATS[type];
        if (typeof value !== 'string' || allowed === undefined || !allowed.includes(value)) {
          say(at, `not a format Gemini accepts for ${type ?? 'this fragment'}: ${JSON.stringify(value)}`);
        }
        break;
      }
      case 'title':
      case 'description':
      case 'pattern':
        if (typeof value !== 'string') say(at, `not a string: ${JSON.stringify(value)}`);
        break;
      case 'nullable':
        if (typeof value !== 'boolean') say(at, `not a boolean: ${JSON.stringify(value)}`);
        break;
      case 'enum':
        if (!isStrings(value)) say(at, `not a list of strings: ${JSON.stringify(value)}`);
        break;
      case 'required':
      case 'propertyOrdering': {
        if (!isStrings(value)) say(at, `not a list of strings: ${JSON.stringify(value)}`);
        else if (type !== 'OBJECT') say(at, `on a fragment that is not an OBJECT`);
        else {
          const names = isObject(schema.properties) ? Object.keys(schema.properties) : [];
          const unknown = value.filter((name) => !names.includes(name));
          if (unknown.length > 0) say(at, `names no property: ${JSON.stringify(unknown)}`);
        }
        break;
      }
      case 'minimum':
      case 'maximum':
        if (typeof value !== 'number') say(at, `not a number: ${JSON.stringify(value)}`);
        else if (type !== 'NUMBER' && type !== 'INTEGER') say(at, `on a fragment that is not a NUMBER or INTEGER`);
        break;
      case 'properties':
        if (!isObject(value)) say(at, `not a map of schemas: ${JSON.stringify(value)}`);
        else for (const [name, property] of Object.entries(value)) found.push(...geminiViolations(property, pointer(at, name)));
        break;
      case 'items':
        found.push(...geminiViolations(value, at));
        break;
      case 'anyOf':
        if (!Array.isArray(value) || value.length === 0) say(at, `not a list of schemas: ${JSON.stringify(value)}`);
        else value.forEach((branch, i) => found.push(...geminiViolations(branch, pointer(at, String(i)))));
        break;
      default:
        if ((COUNTS as readonly string[]).includes(key) && !isCount(value)) say(at, `not a count: ${JSON.stringify(value)}`);
    }
  }
  return found;
}

/** The violations as lines `path: problem`, for exact comparison in a test. */
export const violationLines = (schema: unknown): string[] => geminiViolations(schema).map((v) => `${v.path || '/'}: ${v.problem}`);
