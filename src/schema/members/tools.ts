import { classChainOf } from '../../decorators/classes';
import type { TypeHint } from '../../decorators/hints';
import {
  declaringClassOfRecord,
  descriptionOf,
  designParamTypes,
  designReturnType,
  memberRecordsOf,
  paramRecordsOf,
  type MemberRecord,
  type MemberRecordOf,
  type ParamRecord,
} from '../../decorators/metadata';
import type { ToolOptions } from '../../decorators/member-options';
import { methodFactsOf, type SourceParamFacts } from '../../facts/registry';
import { checkAgainstSource } from '../records/contradiction';
import { CONTEXT_DESIGN, isContextClass } from './context-class';
import { Problems } from '../diagnostics';
import { defaultOf, resolveSlot } from '../resolve/slots';
import { acceptsAbsence, unwrap, type Mutable, type ParamModel, type ResultModel, type ToolAnnotations, type ToolModel } from '../model';
import { isValidName, toolNameOf } from './names';
import { metadataFix, recordOf } from '../records/records';
import { resolveType, type Site } from '../resolve/resolve';
import { compiledParamsOf, type CompiledParam } from '../resolve/compiled';
import { cacheOf, iconsOf } from './listing-metadata';
import { checkHeaders } from './headers';

/** How a site resolves records, per direction: one function each, not a closure per site. */
const RECORD_RESOLVERS: Readonly<Record<'input' | 'output', Site['record']>> = {
  input: (ctor, site) => recordOf(ctor, site, 'input'),
  output: (ctor, site) => recordOf(ctor, site, 'output'),
};

/** A site for resolving types in one direction, with records resolved through `recordOf`. */
export function siteOf(where: string, problems: Problems, direction: 'input' | 'output'): Site {
  return { where, problems, stack: [], record: RECORD_RESOLVERS[direction] };
}

/** Every `@Tool`, `@Resource` and `@Prompt` record of a class and its bases, most derived first wins. */
export function decoratedMembersOf(ctor: Function): readonly MemberRecord[] {
  const byKey = new Map<string | symbol, MemberRecord>();
  for (const c of classChainOf(ctor)) for (const m of memberRecordsOf(c)) byKey.set(`${m.kind}:${String(m.key)}`, m);
  return [...byKey.values()];
}

/**
 * The class whose decorator declared a member of `ctor`: `ctor` itself, or the base class a subclass inherits
 * the member from. Its prototype holds what TypeScript and the parameter decorators wrote for the method
 * (`design:*`, `@Param`), which a subclass's prototype does not have, even when the subclass overrides the
 * method's body without decorating it again.
 */
export function declarerOf(ctor: Function, record: MemberRecord): Function {
  return declaringClassOfRecord(record) ?? ctor;
}

/** `Class.member`, and the class that declared it when `ctor` inherits it. */
export function memberWhere(ctor: Function, record: MemberRecord): string {
  const declarer = declarerOf(ctor, record);
  const where = `${ctor.name}.${String(record.key)}`;
  return declarer === ctor ? where : `${where} (declared in ${declarer.name})`;
}

/** Refuses static members, accessors and fields (OMCG0001). */
export function checkShape(ctor: Function, record: MemberRecord, problems: Problems): boolean {
  if (record.shape === 'method') return true;
  const decorator = { tool: '@Tool', resource: '@Resource', prompt: '@Prompt', skill: '@Skill' }[record.kind];
  problems.add(
    'OMCG0001',
    memberWhere(ctor, record),
    `${decorator} is on a ${record.shape === 'static' ? 'static method' : record.shape === 'accessor' ? 'getter or setter' : 'field'}; only instance methods can be ${record.kind}s.`,
    `move ${decorator} to an instance method.`,
  );
  return false;
}

/** Design types recognised as filled-in parameters rather than arguments. */
function contextKind(design: unknown): 'context' | 'signal' | undefined {
  if (isContextClass(design)) return 'context';
  if (design === AbortSignal) return 'signal';
  return undefined;
}

/**
 * Stands in for `design:paramtypes` when a runner emitted none (tsx, vitest, esbuild) but the generated
 * facts describe the method: the filled-in parameters by their constructor, the arguments by no design type
 * (their declared type comes from the facts).
 */
function designFromFacts(facts: readonly SourceParamFacts[]): readonly unknown[] {
  return facts.map((f) => (f.context ? CONTEXT_DESIGN : f.signal ? AbortSignal : undefined));
}

/** What a method's parameters resolve to: the argument slots, and which positions take the context or signal. */
export interface ResolvedParams {
  readonly params: ParamModel[];
  /** Number of arguments the method takes, context parameters included. */
  readonly arity: number;
  readonly contextIndex?: number;
  readonly signalIndex?: number;
}

/** What is known about a method's parameters before each is resolved, read once per method. */
interface DeclaredParams {
  readonly where: string;
  readonly records: ReadonlyMap<number, ParamRecord>;
  readonly compiled: readonly CompiledParam[];
  readonly facts: readonly SourceParamFacts[];
}

/**
 * The method's parameters: names, types, defaults, and which positions take the context or signal, all as the
 * class that declared the member wrote them (a subclass's override of the body is called with the same arguments).
 */
export function resolveParams(ctor: Function, record: MemberRecord, problems: Problems): ResolvedParams | undefined {
  const key = record.key;
  const declarer = declarerOf(ctor, record);
  const proto = declarer.prototype as object;
  const method = (proto as Record<string | symbol, unknown>)[key] as Function;
  const where = memberWhere(ctor, record);
  const facts = methodFactsOf(declarer, key)?.params;
  const design = designParamTypes(proto, key);
  const compiled = compiledParamsOf(method);
  const records = paramRecordsOf(proto, key);
  if (facts && isStale(facts, design?.length ?? compiled?.length, compiled, records, where, problems)) return undefined;
  const types = design ?? (facts && designFromFacts(facts));
  if (!types) {
    problems.add('OMCG0002', where, 'the method has no design:paramtypes metadata, so its parameter types are unknown.', metadataFix);
    return undefined;
  }
  const declared: DeclaredParams = {
    where,
    records,
    compiled: compiled ?? [],
    facts: facts ?? [],
  };
  const params: ParamModel[] = [];
  const special: { context?: number; signal?: number } = {};
  types.forEach((design, index) => {
    const record = declared.records.get(index) ?? { constraints: [] };
    const kind = record.type === undefined ? contextKind(design) : undefined;
    if (kind) {
      if (special[kind] !== undefined) {
        problems.add(
          'OMCG0009',
          `${where}, parameter ${index + 1}`,
          `more than one ${kind === 'context' ? 'RequestContext' : 'AbortSignal'} parameter.`,
          'keep one; the same object is filled into it.',
        );
      }
      special[kind] = index;
      return;
    }
    const model = paramModel(declared, index, record, design, problems);
    if (model) params.push(model);
  });
  checkUnique(params, where, problems);
  return { params, arity: types.length, contextIndex: special.context, signalIndex: special.signal };
}

/**
 * OMCG0016: facts written for another version of the method, whose parameters (how many, or their names as
 * written or given by `@Param`) are not the method's: the facts module is older than the source. `count` is
 * the method's parameter count (`design:paramtypes`, else the compiled parameter list), when known. Names of
 * one or two characters are a minifier's, not a change: only the count tells then.
 */
function isStale(
  facts: readonly SourceParamFacts[],
  count: number | undefined,
  compiled: readonly CompiledParam[] | undefined,
  records: ReadonlyMap<number, ParamRecord>,
  where: string,
  problems: Problems,
): boolean {
  const changed = facts.flatMap((f, i) => {
    const written = compiled?.[i]?.name;
    return written !== undefined && f.name !== written && f.name !== records.get(i)?.name ? [written] : [];
  });
  // A minifier renames parameters (`e`, `t`): the facts keep the source's names for such a bundle.
  const differs = changed.length > 0 && !changed.every((n) => n.length <= 2);
  if (!differs && (count === undefined || count === facts.length)) return false;
  const listed = (names: readonly (string | undefined)[]) => `(${names.map((n) => n || '?').join(', ')})`;
  const declared = compiled
    ? listed(compiled.map((c, i) => records.get(i)?.name ?? c.name))
    : `${count} parameter${count === 1 ? '' : 's'}`;
  problems.add(
    'OMCG0016',
    where,
    `the generated facts describe the parameters ${listed(facts.map((f) => f.name))}, but the method declares ${declared}: the facts module is older than the source.`,
    'run `npx onemodelcontext generate` again (and `onemodelcontext generate --check` in CI, which fails while the module is stale).',
  );
  return true;
}

/**
 * The model of one argument parameter: `@Param`, then the generator's facts, then the compiled
 * JavaScript (name and default), then `design:paramtypes`. `undefined` with its problems recorded.
 */
function paramModel(
  declared: DeclaredParams,
  index: number,
  record: ParamRecord,
  design: unknown,
  problems: Problems,
): ParamModel | undefined {
  const fact = declared.facts[index];
  const compiled = declared.compiled[index];
  const name = record.name ?? fact?.name ?? compiled?.name;
  if (name === undefined || name.length === 0) {
    problems.add(
      'OMCG0008',
      `${declared.where}, parameter ${index + 1}`,
      'the parameter has no name that can be read (destructured, rest or unparsable source).',
      `name it with @Param('name').`,
    );
    return undefined;
  }
  const site = siteOf(`${declared.where}, parameter '${name}'`, problems, 'input');
  const type = resolveSlot(
    { hint: record.type, source: fact?.type, design, constraints: record.constraints, nullable: record.nullable },
    site,
  );
  if (!type) return undefined;
  const written = compiled?.default;
  return {
    index,
    name,
    type,
    description: record.description ?? fact?.description,
    required: !(record.optional || record.hasDefault || written || fact?.optional || acceptsAbsence(type)),
    default: defaultOf(record, fact?.default, written, type),
    ...(record.header !== undefined && { header: record.header }),
  };
}

function checkUnique(params: readonly ParamModel[], where: string, problems: Problems): void {
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name)) {
      problems.add(
        'OMCG0007',
        `${where}, parameter '${p.name}'`,
        `two parameters are named '${p.name}'.`,
        `rename one with @Param('name').`,
      );
    }
    seen.add(p.name);
  }
}

const UNSUPPORTED_RESULTS = new Set<unknown>([Function, Symbol]);

/**
 * The result model from `returns`, else from the declared type read by the generator (`source`), else from
 * `design:returntype` (`Promise` and `Object` are detected at run time).
 */
export function resultFor(
  returns: TypeHint | undefined,
  design: unknown,
  where: string,
  problems: Problems,
  source?: TypeHint,
): ResultModel | undefined {
  const site = siteOf(`${where}, result`, problems, 'output');
  const hint = returns ?? source;
  if (hint !== undefined) {
    const type = resolveType(hint, undefined, site);
    if (type && returns !== undefined && source !== undefined) checkAgainstSource(type, source, undefined, site);
    const bare = type && unwrap(type);
    if (bare?.kind === 'standard' && 'problem' in bare.output) {
      return problems.add(
        'OMCG0018',
        `${where}, result`,
        `the ${bare.vendor} schema's output cannot be listed as JSON Schema: ${bare.output.problem}.`,
        'return JSON values only (no transform whose output the library cannot state), or declare the result with a record class.',
      );
    }
    return type && { kind: 'value', type };
  }
  if (design === undefined) return { kind: 'void' };
  if (design === Promise || design === Array || design === Set || design === Map)
    return { kind: 'auto', erased: (design as { name: string }).name as 'Promise' | 'Array' | 'Set' | 'Map' };
  if (design === Object) return { kind: 'auto' };
  if (UNSUPPORTED_RESULTS.has(design)) {
    problems.add(
      'OMCG0003',
      `${where}, result`,
      `a ${(design as Function).name} result cannot be sent.`,
      'return a JSON value, a record, text or content blocks.',
    );
    return undefined;
  }
  const type = resolveType(undefined, design, site);
  return type && { kind: 'value', type };
}

function annotationsOf(options: ToolOptions): ToolAnnotations | undefined {
  const { title, readOnly, destructive, idempotent, openWorld } = options;
  if (title === undefined && readOnly === undefined && destructive === undefined && idempotent === undefined && openWorld === undefined) {
    return undefined;
  }
  const annotations: Mutable<ToolAnnotations> = {};
  if (title !== undefined) annotations.title = title;
  if (readOnly !== undefined) annotations.readOnlyHint = readOnly;
  if (destructive !== undefined) annotations.destructiveHint = destructive;
  if (idempotent !== undefined) annotations.idempotentHint = idempotent;
  if (openWorld !== undefined) annotations.openWorldHint = openWorld;
  return annotations;
}

/** What both ways of declaring a tool (a decorated method, `server.tool()`) share in its model. */
type ToolHead = Pick<ToolModel, 'name' | 'title' | 'annotations' | 'ui' | 'task' | 'taskAfterInput' | 'icons' | 'cache'>;

/** Checks a tool name and the MCP Apps options shared by both paths. */
export function toolHead(name: string, options: ToolOptions, where: string, problems: Problems): ToolHead {
  if (!isValidName(name)) {
    problems.add(
      'OMCG0008',
      where,
      `the tool name '${name}' is not valid: use 1 to 128 ASCII letters, digits, '_', '-' or '.'.`,
      `give a valid name with @Tool('name').`,
    );
  }
  let ui: ToolModel['ui'];
  if (options.uiResource !== undefined || options.uiVisibility !== undefined) {
    const visibility = options.uiVisibility ?? ['model', 'app'];
    // A tool without a view is allowed: an app-only tool (`uiVisibility: ['app']`) that views call back.
    if (options.uiResource !== undefined && !options.uiResource.startsWith('ui://')) {
      problems.add(
        'OMCG0012',
        where,
        `uiResource '${options.uiResource}' is not a ui:// URI.`,
        `name the resource that renders the tool, such as 'ui://weather/view'.`,
      );
    }
    const wrong = visibility.filter((v) => v !== 'model' && v !== 'app');
    if (wrong.length > 0) {
      problems.add(
        'OMCG0012',
        where,
        `uiVisibility holds ${wrong.map((w) => `'${String(w)}'`).join(', ')}.`,
        `use 'model', 'app' or both.`,
      );
    }
    ui =
      options.uiResource === undefined ? { visibility: [...visibility] } : { resourceUri: options.uiResource, visibility: [...visibility] };
  }
  const icons = iconsOf(options.icons, where, problems);
  const cache = cacheOf(options.cache, where, problems);
  // Optional keys are assigned, not spread into the literal: V8 builds a literal with spreads key by key,
  // a cost a server of 1,000 tools pays a thousand times at start-up.
  const head: Mutable<ToolHead> = { name, title: options.title, annotations: annotationsOf(options), ui };
  if (options.task) head.task = options.task;
  if (options.taskAfterInput !== undefined) head.taskAfterInput = options.taskAfterInput;
  if (icons) head.icons = icons;
  if (cache) head.cache = cache;
  return head;
}

/** `@Complete` completes prompt arguments and template variables; MCP has no completion for tool arguments. */
function refuseCompletions(declarer: Function, key: string | symbol, where: string, problems: Problems): void {
  for (const [index, record] of paramRecordsOf(declarer.prototype, key)) {
    if (record.complete) {
      problems.add(
        'OMCG0014',
        `${where}, parameter ${index + 1}`,
        '@Complete is on a tool parameter; MCP completes only prompt arguments and resource-template variables.',
        'remove @Complete, or use an enum type to list the values in the schema.',
      );
    }
  }
}

/** Builds the model of one `@Tool` method, or `undefined` with its problems recorded. */
export function toolFromMethod(ctor: Function, record: MemberRecordOf<'tool'>, problems: Problems): ToolModel | undefined {
  if (!checkShape(ctor, record, problems)) return undefined;
  const options = record.options;
  const declarer = declarerOf(ctor, record);
  const where = memberWhere(ctor, record);
  const before = problems.count;
  const facts = methodFactsOf(declarer, record.key);
  const head = toolHead(options.name ?? toolNameOf(String(record.key)), options, where, problems);
  const params = resolveParams(ctor, record, problems);
  refuseCompletions(declarer, record.key, where, problems);
  if (params) checkHeaders(params.params, where, problems);
  const design = designReturnType(declarer.prototype, record.key);
  // Without emitted metadata, a method the facts describe without a result type returns whatever it returns.
  const returned = design.found || !facts ? design.type : Object;
  const result = params && resultFor(options.returns, returned, where, problems, facts?.returns);
  if (!params || !result || problems.count > before) return undefined;
  // Object.assign, not `{ ...head, key: ... }`: see the end of `toolFromConfig` in quick.ts.
  return Object.assign(
    {},
    head,
    { description: options.description ?? descriptionOf(declarer.prototype, record.key) ?? facts?.description },
    params,
    { result, where },
  );
}

/** Every tool of a class; throws one `DefinitionError` listing every problem of the class. */
export function toolsOf(ctor: Function): readonly { readonly key: string | symbol; readonly model: ToolModel }[] {
  const problems = new Problems();
  const tools = decoratedMembersOf(ctor)
    .filter((m): m is MemberRecordOf<'tool'> => m.kind === 'tool')
    .map((m) => ({ key: m.key, model: toolFromMethod(ctor, m, problems) }))
    .filter((t): t is { key: string | symbol; model: ToolModel } => t.model !== undefined);
  problems.throwIfAny(ctor.name);
  return tools;
}
