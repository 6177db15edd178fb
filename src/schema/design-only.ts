import { declaringClassOf } from '../decorators/classes';
import { designParamTypes, paramRecordsOf } from '../decorators/metadata';
import { methodFactsOf } from '../facts/registry';
import { compiledParamsOf } from './compiled';
import type { ToolModel } from './model';

/**
 * Issue 35, no silent listing: a parameter whose only type is its `design:paramtypes` entry `String` or
 * `Number` (no hint, no generated facts, no constraint decorator, no literal default) may be declared as
 * an enum or a union of literals, which that metadata cannot tell from a plain string or number: it is
 * listed as any string or number. Such parameters are named once per process (see docs/generator.md).
 */

/** `Class.method.param (String)` for each such parameter of one tool, in order. */
export function designOnlyParamsOf(ctor: Function, key: string | symbol, model: ToolModel): readonly string[] {
  const declarer = declaringClassOf(ctor, key) ?? ctor;
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
    const record = records.get(p.index);
    if (record?.type !== undefined || (record?.constraints.length ?? 0) > 0) return [];
    if (compiled?.[p.index]?.default?.kind === 'literal') return [];
    return [`${model.where}, parameter '${p.name}' (${(type as Function).name})`];
  });
}

let warned = false;

/** The warning for the parameters found, said once per process; `undefined` when there is nothing (more) to say. */
export function designOnlyWarning(found: readonly string[]): string | undefined {
  if (found.length === 0 || warned) return undefined;
  warned = true;
  const shown = found.slice(0, 5).join('; ') + (found.length > 5 ? `; and ${found.length - 5} more` : '');
  return (
    `${found.length} parameter${found.length === 1 ? ' is' : 's are'} typed only by design metadata, which says String or Number for an enum ` +
    `or a union of literals too, so ${found.length === 1 ? 'it is' : 'they are'} listed as any string or number: ${shown}. ` +
    `If one is an enum or a union of literals, give its type (@Param({ type: Unit }), @Param({ type: StringLiterals('a', 'b') })), ` +
    'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
    `A hint on a plain one (@Param({ type: String })) or a constraint silences this; it is said once.`
  );
}

/** For tests: say the warning again. */
export function resetDesignOnlyWarning(): void {
  warned = false;
}
