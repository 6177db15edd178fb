import type { Diagnostic } from '../diagnostics';
import type { JsonSchema, ParamModel, StandardNode, ToolModel } from '../model';
import { CLOSED, type ValidationPolicy } from '../records/validation-options';
import { inputSchemaOf } from '../write';
import { GEMINI, geminiInputSchemaOf } from './gemini';
import { OPENAI_STRICT, strictInputSchemaOf } from './openai-strict';
import type { Profile } from './profile';
import { standardInputSchemaUnder, unliftedIn, unstatableIn } from './walk';
import { describedExact } from './words';

export * from './profile';

const described = new WeakMap<JsonSchema, JsonSchema>();

/**
 * A tool's `inputSchema` under a profile. A hand-written schema (the quick path) is listed as given under every
 * profile: there is no model to write it from.
 */
export function inputSchemaFor(tool: ToolModel, profile: Profile, policy: ValidationPolicy = CLOSED): JsonSchema {
  if (tool.rawInput) return tool.rawInput.schema;
  if (tool.standardInput) return standardInputSchemaFor(tool.standardInput, profile);
  if (profile.name === 'gemini') return geminiInputSchemaOf(tool.params, policy, profile.describe);
  if (profile.name === 'openai-strict') return strictInputSchemaOf(tool.params, policy, profile.describe);
  const exact = inputSchemaOf(tool.params, policy);
  if (!profile.describe) return exact;
  let out = described.get(exact);
  if (!out) described.set(exact, (out = describedExact(exact)));
  return out;
}

/**
 * A Standard Schema that is a tool's whole input: the library's JSON Schema as given under `'exact'`, its restated
 * properties under a provider profile (an object of none where it cannot be restated: a definition diagnostic then).
 */
function standardInputSchemaFor(node: StandardNode, profile: Profile): JsonSchema {
  if (profile.name === 'exact') {
    if (!profile.describe) return node.root;
    let out = described.get(node.root);
    if (!out) described.set(node.root, (out = describedExact(node.root)));
    return out;
  }
  const params = liftedParamsOf(node) ?? [];
  return standardInputSchemaUnder(profile.name === 'gemini' ? GEMINI : OPENAI_STRICT, params, profile.describe);
}

const liftedParams = new WeakMap<StandardNode, readonly ParamModel[] | null>();

/** The properties of a Standard Schema input restated in the model, as parameters; `undefined` where it cannot be. */
export function liftedParamsOf(node: StandardNode): readonly ParamModel[] | undefined {
  let params = liftedParams.get(node);
  if (params === undefined) {
    const lifted = node.lifted;
    params = 'problem' in lifted || lifted.kind !== 'record' ? null : Object.freeze(lifted.properties.map((p, index) => ({ ...p, index })));
    liftedParams.set(node, params);
  }
  return params ?? undefined;
}

/**
 * The definition diagnostics of a tool under a provider profile it may be listed under (OMCG0018): each Standard
 * Schema whose JSON Schema the profile's writer cannot restate, named by its path, with why.
 */
export function profileProblemsOf(tool: ToolModel, profile: 'gemini' | 'openai-strict'): Diagnostic[] {
  const fix = `state the type without it (for example z.object({...}) instead of a union or a tuple, no recursive or referenced schemas), declare it with type hints or a record class, or list this server with 'exact'.`;
  if (tool.standardInput) {
    const node = tool.standardInput;
    if (liftedParamsOf(node)) {
      const inner = unliftedIn(liftedParamsOf(node)!);
      return inner.map((u) => ({
        code: 'OMCG0018' as const,
        where: `${tool.where}, input, ${u.path.replace(/^parameter /, 'property ')}`,
        message: `the ${u.vendor} schema cannot be listed under '${profile}': ${u.problem}.`,
        fix,
      }));
    }
    const why = 'problem' in node.lifted ? node.lifted.problem : 'an object schema without properties';
    return [
      {
        code: 'OMCG0018',
        where: `${tool.where}, input`,
        message: `the ${node.vendor} schema cannot be listed under '${profile}': ${why}.`,
        fix,
      },
    ];
  }
  return unliftedIn(tool.params).map((u) => ({
    code: 'OMCG0018',
    where: `${tool.where}, ${u.path}`,
    message: `the ${u.vendor} schema cannot be listed under '${profile}': ${u.problem}.`,
    fix,
  }));
}

/** The definition-time warnings of a tool listed under a provider profile: each type it cannot state, and the portable spelling. */
export function profileWarningsOf(tool: ToolModel, profile: 'gemini' | 'openai-strict'): string[] {
  if (tool.rawInput) return [];
  const params = tool.standardInput ? (liftedParamsOf(tool.standardInput) ?? []) : tool.params;
  const who = profile === 'gemini' ? "Gemini's function declarations ('gemini')" : "OpenAI strict function calling ('openai-strict')";
  return unstatableIn(params).map(({ path, kind }) =>
    kind === 'dictionary'
      ? `${tool.where}: ${path} is a dictionary, which ${who} cannot state (no open object): it is listed as an object without properties, its values in words. For every profile, declare an array of key and value records instead, for example @Param({ type: [Entry] }) with class Entry { @Field() key!: string; @Field() value!: number }.`
      : `${tool.where}: ${path} is free JSON, which ${who} cannot state: it is listed narrower (strings, numbers and booleans, or an object without properties). For every profile, declare the record or array it holds.`,
  );
}
