import type { QuickParamOptions } from '../../decorators/hint-value';
import type { TypeHint } from '../../decorators/hints';
import { HINT } from '../../decorators/hints';
import { claimsStandard, isStandardSchema, type StandardSchemaV1 } from '../../decorators/standard-schema';
import { notStandard, standardNode } from '../resolve/standard';
import { VALUE_OPTION_KEYS } from '../../decorators/param.decorator';
import type { ToolOptions } from '../../decorators/member-options';
import { Problems } from '../diagnostics';
import { rawInputSchemaOf } from '../resolve/input-schema';
import { checkHeaders } from './headers';
import { resolveSlot } from '../resolve/slots';
import { acceptsAbsence, type Mutable, type ParamModel, type ToolModel } from '../model';
import { resultFor, siteOf, toolHead } from './tools';
import { isObject } from '../../objects';

/** A quick-path parameter: a type hint, or options with a `type`. */
export type QuickParam = TypeHint | QuickParamOptions;

/** Parameter names mapped to type hints (or options with a `type`), in order. */
export type QuickParams = Readonly<Record<string, QuickParam>>;

/** The `config` of `server.tool(name, config, handler)`; `P` (or `S`, the `input` schema) types the handler's argument. */
export interface QuickToolConfig<
  P extends QuickParams = QuickParams,
  S extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
> extends Omit<ToolOptions, 'name'> {
  /** Parameter names mapped to type hints (or options with a `type`), in order. */
  readonly params?: P;
  /**
   * A hand-written JSON Schema 2020-12 input schema instead of `params`, for what types cannot say ($defs, allOf,
   * if/then/else ...): listed as given, arguments validated against it, the handler receives them as sent.
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /**
   * A Standard Schema object (zod 4, Valibot, ArkType ...) for the whole input instead of `params`: an object schema,
   * listed as the library's JSON Schema, read with its `~standard.validate`; the handler receives the output value.
   */
  readonly input?: S;
}

function isQuickOptions(value: QuickParam): value is QuickParamOptions {
  if (!isObject(value) || HINT in value || !('type' in value)) return false;
  if (claimsStandard(value)) return false;
  for (const k in value) if (Object.hasOwn(value, k) && !VALUE_OPTION_KEYS.has(k) && k !== 'header') return false;
  return true;
}

/** The model of a quick-path tool: the same resolution and checks as a decorated method. */
export function toolFromConfig(name: string, config: QuickToolConfig): ToolModel {
  const problems = new Problems();
  const where = `tool '${name}'`;
  const head = toolHead(name, config, where, problems);
  const params: ParamModel[] = [];
  // Indexed loops here and in what they call: this runs once per tool at start-up, before the JIT has
  // optimised anything, where each iterator step and destructured entry is an allocation.
  const specs = config.params ?? {};
  const paramNames = Object.keys(specs);
  for (let index = 0; index < paramNames.length; index++) {
    const paramName = paramNames[index];
    const spec = specs[paramName];
    const options = isQuickOptions(spec) ? spec : { type: spec };
    const site = siteOf(`${where}, parameter '${paramName}'`, problems, 'input');
    const type = resolveSlot({ hint: options.type, design: undefined, constraints: [], nullable: options.nullable }, site);
    const hasDefault = 'default' in options;
    if (type) {
      const param: Mutable<ParamModel> = {
        index,
        name: paramName,
        type,
        description: options.description,
        required: !(options.optional || hasDefault || acceptsAbsence(type)),
        default: hasDefault ? { value: options.default } : undefined,
      };
      // Assigned, not spread into the literal: a spread makes V8 build the object key by key (see below).
      if (options.header !== undefined) param.header = options.header;
      params.push(param);
    }
  }
  checkHeaders(params, where, problems);
  const result = resultFor(config.returns, Promise, where, problems);
  if (config.inputSchema !== undefined && config.params !== undefined) {
    problems.add(
      'OMCG0014',
      where,
      'the tool has both params and inputSchema.',
      'keep one: params (types, read into values) or inputSchema (a JSON Schema, validated as given).',
    );
  }
  const rawInput = config.inputSchema === undefined ? undefined : rawInputSchemaOf(config.inputSchema, where, problems);
  const standardInput = config.input === undefined ? undefined : standardInputOf(config, where, problems);
  problems.throwIfAny(where);
  // The same keys in the same order as `{ ...head, description, params, ... }`, which V8 builds some 50 times
  // slower: adding keys to an object literal that starts with a spread costs ~2-3 µs per key (measured
  // on Node 20), ~15 µs per tool, most of the time a server of 1,000 tools takes to define them.
  return Object.assign(
    {},
    head,
    { description: config.description, params, arity: 1, result: result! },
    rawInput && { rawInput },
    standardInput && { standardInput },
    { where },
  );
}

/** The `input` option: a Standard Schema of an object, alone (OMCG0014 beside `params` or `inputSchema`, OMCG0018 otherwise). */
function standardInputOf(config: QuickToolConfig, where: string, problems: Problems): ToolModel['standardInput'] {
  if (config.params !== undefined || config.inputSchema !== undefined) {
    return problems.add(
      'OMCG0014',
      where,
      `the tool has input and ${config.params !== undefined ? 'params' : 'inputSchema'}.`,
      'keep one: input (a Standard Schema of the whole input), params (types) or inputSchema (a JSON Schema).',
    );
  }
  const input: unknown = config.input;
  if (!isStandardSchema(input)) {
    if (claimsStandard(input)) return notStandard(`${where}, input`, problems);
    return problems.add(
      'OMCG0018',
      `${where}, input`,
      'input is not a Standard Schema object.',
      'give the schema object of a library that implements Standard Schema, for example input: z.object({ city: z.string() }).',
    );
  }
  return standardNode(input, 'input', `${where}, input`, problems);
}
