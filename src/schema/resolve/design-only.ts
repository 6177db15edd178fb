import { classChainOf } from '../../decorators/classes';
import { validationOf } from '../../decorators/foreign';
import { designParamTypes, designType, paramRecordsOf, propertyRecordsOf } from '../../decorators/metadata';
import { methodFactsOf, propertyFactsOf } from '../../facts/registry';
import { compiledParamsOf, initializersOf } from './compiled';
import { unwrap, type PropertyModel, type RecordNode, type ToolModel, type TypeNode } from '../model';
import { decoratedMembersOf, declarerOf } from '../members/tools';

/**
 * Issue 35, no silent listing: a parameter or record property whose only type is its design metadata
 * (`design:paramtypes` or `design:type`) `String` or `Number` (no hint, no generated facts, no constraint
 * decorator, no class-validator rule, no literal default) may be declared as an enum or a union of literals,
 * which that metadata cannot tell from a plain string or number: it is listed as any string or number. Such
 * parameters and properties are named once per process (see docs/generator.md).
 */

/** What one `add` found: `Class.method, parameter 'p' (String)` and `Class, property 'p' (Number)`, in order. */
export interface DesignOnly {
  readonly params: string[];
  readonly properties: string[];
}

/** `Class.method, parameter 'p' (String)` for each such parameter of one tool, in order. */
export function designOnlyParamsOf(ctor: Function, key: string | symbol, model: ToolModel): readonly string[] {
  // The class whose decorator declared the tool holds its metadata, not an undecorated override's class.
  const record = decoratedMembersOf(ctor).find((m) => m.kind === 'tool' && m.key === key);
  const declarer = record ? declarerOf(ctor, record) : ctor;
  if (methodFactsOf(declarer, key)) return [];
  const proto = declarer.prototype as object;
  const design = designParamTypes(proto, key);
  if (!design) return [];
  const records = paramRecordsOf(proto, key);
  const method = (proto as Record<string | symbol, unknown>)[key];
  const compiled = typeof method === 'function' ? compiledParamsOf(method) : undefined;
  return model.params.flatMap((p) => {
    const type = design[p.index];
    if (type !== String && type !== Number) return [];
    const param = records.get(p.index);
    if (param?.type !== undefined || (param?.constraints.length ?? 0) > 0) return [];
    if (compiled?.[p.index]?.default?.kind === 'literal') return [];
    return [`${model.where}, parameter '${p.name}' (${(type as Function).name})`];
  });
}

/**
 * `Class, property 'p' (String)` for each such property of the records a tool's parameters hold (nested
 * ones too), each class once: `seen` is shared by the tools of one `add`.
 */
export function designOnlyPropertiesOf(model: ToolModel, seen: Set<Function>): readonly string[] {
  const found: string[] = [];
  const visit = (node: TypeNode): void => {
    const bare = unwrap(node);
    if (bare.kind === 'array') visit(bare.items);
    else if (bare.kind === 'dictionary') visit(bare.values);
    else if (bare.kind === 'discriminated') bare.subtypes.forEach((s) => visit(s.record));
    else if (bare.kind === 'record' && !seen.has(bare.ctor)) {
      seen.add(bare.ctor);
      for (const p of bare.properties) {
        const named = designOnlyProperty(bare, p);
        if (named) found.push(named);
        visit(p.type);
      }
    }
  };
  model.params.forEach((p) => visit(p.type));
  return found;
}

/** The property's name and class when only its `design:type` says it is a string or a number. */
function designOnlyProperty(record: RecordNode, p: PropertyModel): string | undefined {
  const bare = unwrap(p.type);
  if (bare.kind !== 'string' && bare.kind !== 'number') return undefined;
  const chain = [...classChainOf(record.ctor)];
  const declarer = chain.reverse().find((c) => designType(c.prototype as object, p.key).found);
  if (!declarer) return undefined;
  const type = designType(declarer.prototype as object, p.key).type;
  if (type !== String && type !== Number) return undefined;
  if (propertyFactsOf(declarer)?.some((f) => f.key === p.key)) return undefined;
  const field = propertyRecordsOf(declarer).find((r) => r.key === p.key);
  if (field?.type !== undefined || (field?.constraints.length ?? 0) > 0) return undefined;
  // A class-validator rule is what the app's pipe checks: the listing says the same.
  if (chain.some((c) => validationOf(c).some((m) => m.propertyName === p.key))) return undefined;
  if (record.ctor.length === 0 && initializersOf(declarer).get(p.key)?.kind === 'literal') return undefined;
  return `${declarer.name}, property '${p.key}' (${(type as Function).name})`;
}

let warned = false;

/** `1 parameter`, `2 properties`. */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The warning for what was found, said once per process; `undefined` when there is nothing (more) to say. */
export function designOnlyWarning(found: DesignOnly): string | undefined {
  const all = [...found.params, ...found.properties];
  if (all.length === 0 || warned) return undefined;
  warned = true;
  const { params, properties } = found;
  const counts = [
    ...(params.length > 0 ? [counted(params.length, 'parameter', 'parameters')] : []),
    ...(properties.length > 0 ? [counted(properties.length, 'property', 'properties')] : []),
  ].join(' and ');
  const shown = all.slice(0, 5).join('; ') + (all.length > 5 ? `; and ${all.length - 5} more` : '');
  const decorators = [...(params.length > 0 ? ['@Param'] : []), ...(properties.length > 0 ? ['@Field'] : [])];
  const typed = decorators.map((d) => `${d}({ type: Unit })`).join(', ');
  const plain = decorators.map((d) => `${d}({ type: String })`).join(', ');
  return (
    `${counts} ${all.length === 1 ? 'is' : 'are'} typed only by design metadata, which says String or Number for an enum ` +
    `or a union of literals too, so ${all.length === 1 ? 'it is' : 'they are'} listed as any string or number: ${shown}. ` +
    `If one is an enum or a union of literals, give its type (${typed}, ${decorators[0]}({ type: StringLiterals('a', 'b') })), ` +
    'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
    `A hint on a plain one (${plain}) or a constraint silences this; it is said once.`
  );
}

/** For tests: say the warning again. */
export function resetDesignOnlyWarning(): void {
  warned = false;
}
