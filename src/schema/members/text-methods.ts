import { paramRecordsOf, type MemberRecord } from '../../decorators/metadata';
import type { Completer } from '../../decorators/listing-options';
import type { Problems } from '../diagnostics';
import { completersOf } from './listing-metadata';
import { unwrap, type ParamModel, type TypeNode } from '../model';
import { declarerOf, memberWhere, resolveParams, type ResolvedParams } from './tools';

/**
 * Whether a type reads from text (docs/serving.md): strings of any format, numbers, integers,
 * booleans and enums, possibly nullable.
 */
export function isTextLike(node: TypeNode): boolean {
  return ['string', 'number', 'integer', 'boolean', 'enum'].includes(unwrap(node).kind);
}

/**
 * The parameters of a resource or prompt method: only text-like types (OMCG0002), and optional when
 * nullable (a missing argument reads as `null`, a default that is never listed).
 */
export function resolveTextParams(ctor: Function, record: MemberRecord, what: string, problems: Problems): ResolvedParams | undefined {
  const found = resolveParams(ctor, record, problems);
  if (!found) return undefined;
  const where = memberWhere(ctor, record);
  for (const p of found.params) {
    if (!isTextLike(p.type)) {
      problems.add(
        'OMCG0002',
        `${where}, parameter '${p.name}'`,
        `${what} parameters are read from text, and a ${p.type.kind} does not parse from text.`,
        'use string, number, boolean, an integer hint, Uuid, Date, DateOnly, TimeOnly or an enum.',
      );
    }
  }
  for (const p of found.params) {
    if (p.header !== undefined) {
      problems.add(
        'OMCG0014',
        `${where}, parameter '${p.name}'`,
        `${what} parameters have no HTTP header; header is for tool arguments.`,
        `remove header from @Param.`,
      );
    }
  }
  const params = found.params.map((p) =>
    p.type.kind === 'nullable' && p.required ? { ...p, required: false, default: p.default ?? { value: null } } : p,
  );
  return { ...found, params };
}

/** The completion functions of a resource or prompt method: its `complete` option and `@Complete` on its parameters. */
export function completersFor(
  ctor: Function,
  record: MemberRecord,
  option: unknown,
  params: readonly ParamModel[],
  what: 'argument' | 'variable',
  where: string,
  problems: Problems,
): ReadonlyMap<string, Completer> | undefined {
  const fromParams = new Map<number, Completer>();
  for (const [index, param] of paramRecordsOf(declarerOf(ctor, record).prototype, record.key))
    if (param.complete) fromParams.set(index, param.complete);
  return completersOf(option, fromParams, params, what, where, problems);
}
