import { deepFreeze, isObject } from '../../objects';
import type { default as Ajv2020, ErrorObject } from 'ajv/dist/2020';
import type { Problems } from '../diagnostics';
import type { JsonSchema, RawInputSchema } from '../model';

/**
 * A quick-path tool's hand-written input schema (`server.tool(name, { inputSchema }, handler)`), for what the
 * types cannot say ($defs and $ref, allOf/anyOf, if/then/else). The listing is still the contract: the schema is
 * listed as given and the arguments are judged by a JSON Schema 2020-12 validator (Ajv with ajv-formats) against
 * exactly that schema; the handler receives them as sent.
 */

/** Listed in every `tools/list`: a schema larger than this is refused as a definition problem. */
const MAX_SCHEMA_LENGTH = 262_144;

let shared: Ajv2020 | undefined;

/**
 * One validator for every hand-written schema; `addUsedSchema: false` so two schemas with the same `$id` do not
 * clash. Made (and Ajv loaded) with the first hand-written schema: a server without one never pays for it.
 */
function ajv(): Ajv2020 {
  if (!shared) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const Ajv = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
    const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
    /* eslint-enable @typescript-eslint/no-require-imports */
    shared = addFormats(new Ajv({ strict: false, allErrors: false, addUsedSchema: false, validateSchema: true }));
  }
  return shared;
}

/** A JSON copy of `value`, or why it has none (a cycle, a BigInt ...). */
function jsonCopy(value: unknown): { readonly copy?: unknown; readonly text?: string; readonly problem?: string } {
  try {
    const text = JSON.stringify(value);
    return { copy: JSON.parse(text) as unknown, text };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The checked `inputSchema` option, or `undefined` with its problems recorded (OMCG0014). */
export function rawInputSchemaOf(value: unknown, where: string, problems: Problems): RawInputSchema | undefined {
  const fix = `give a JSON Schema 2020-12 object schema such as { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }.`;
  if (!isObject(value)) return problems.add('OMCG0014', where, 'inputSchema is not a JSON Schema object.', fix);
  const { copy, text, problem } = jsonCopy(value);
  if (problem !== undefined) return problems.add('OMCG0014', where, `inputSchema is not JSON data (${problem.slice(0, 120)}).`, fix);
  if (text!.length > MAX_SCHEMA_LENGTH)
    return problems.add(
      'OMCG0014',
      where,
      `inputSchema is ${text!.length} characters of JSON, more than ${MAX_SCHEMA_LENGTH}; it is sent in every tools/list.`,
      'move shared parts into $defs, or split the tool.',
    );
  const schema = copy as Record<string, unknown>;
  if (schema.type !== 'object') {
    return problems.add(
      'OMCG0014',
      where,
      `inputSchema has type ${JSON.stringify(schema.type) ?? 'undefined'}; an MCP tool's input schema is "type": "object".`,
      fix,
    );
  }
  try {
    return { schema: deepFreeze(schema), validate: ajv().compile(schema) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return problems.add('OMCG0014', where, `inputSchema is not a valid JSON Schema 2020-12: ${reason.slice(0, 200)}.`, fix);
  }
}

/** A validator of a checked schema (a Standard Schema's output JSON Schema, for results), by the shared Ajv. */
export function validatorOf(schema: JsonSchema): (value: unknown) => boolean {
  const validate = ajv().compile(schema);
  return (value) => validate(value) === true;
}

/** The path of the first validation error, innermost step first (as argument readers report it). */
export function errorPath(error: ErrorObject): (string | number)[] {
  const steps: (string | number)[] = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
  const missing = (error.params as { missingProperty?: unknown }).missingProperty;
  if (error.keyword === 'required' && typeof missing === 'string') steps.push(missing);
  const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
  if (error.keyword === 'additionalProperties' && typeof extra === 'string') steps.push(extra);
  return steps.reverse();
}

/** Why a schema fragment is not valid JSON Schema 2020-12 (checked against the meta-schema), or `undefined`. */
export function fragmentProblem(fragment: object): string | undefined {
  const validator = ajv();
  let valid: boolean;
  try {
    valid = validator.validateSchema(fragment) === true;
  } catch (error) {
    // Where code generation is forbidden, Ajv cannot compile the meta-schema: the fragment is listed as
    // given, as a hand-written schema would be refused there anyway at its first use.
    if (error instanceof EvalError) return undefined;
    throw error;
  }
  return valid ? undefined : validator.errorsText(validator.errors, { dataVar: 'schema' }).slice(0, 200);
}
