import type { JsonSchema, ToolModel } from '../model';
import { CLOSED, type ValidationPolicy } from '../records/validation-options';
import { inputSchemaOf } from '../write';
import { geminiInputSchemaOf } from './gemini';
import { strictInputSchemaOf } from './openai-strict';
import type { Profile } from './profile';
import { unstatableIn } from './walk';
import { describedExact } from './words';

export * from './profile';

const described = new WeakMap<JsonSchema, JsonSchema>();

/**
 * A tool's `inputSchema` under a profile. A hand-written schema (the quick path) is listed as given under every
 * profile: there is no model to write it from.
 */
export function inputSchemaFor(tool: ToolModel, profile: Profile, policy: ValidationPolicy = CLOSED): JsonSchema {
  if (tool.rawInput) return tool.rawInput.schema;
  if (profile.name === 'gemini') return geminiInputSchemaOf(tool.params, policy, profile.describe);
  if (profile.name === 'openai-strict') return strictInputSchemaOf(tool.params, policy, profile.describe);
  const exact = inputSchemaOf(tool.params, policy);
  if (!profile.describe) return exact;
  let out = described.get(exact);
  if (!out) described.set(exact, (out = describedExact(exact)));
  return out;
}

/** The definition-time warnings of a tool listed under a provider profile: each type it cannot state, and the portable spelling. */
export function profileWarningsOf(tool: ToolModel, profile: 'gemini' | 'openai-strict'): string[] {
  if (tool.rawInput) return [];
  const who = profile === 'gemini' ? "Gemini's function declarations ('gemini')" : "OpenAI strict function calling ('openai-strict')";
  return unstatableIn(tool.params).map(({ path, kind }) =>
    kind === 'dictionary'
      ? `${tool.where}: ${path} is a dictionary, which ${who} cannot state (no open object): it is listed as an object without properties, its values in words. For every profile, declare an array of key and value records instead, for example @Param({ type: [Entry] }) with class Entry { @Field() key!: string; @Field() value!: number }.`
      : `${tool.where}: ${path} is free JSON, which ${who} cannot state: it is listed narrower (strings, numbers and booleans, or an object without properties). For every profile, declare the record or array it holds.`,
  );
}
