import type { TypeHint } from '../../decorators/hints';
import { Problems } from '../diagnostics';
import type { TypeNode } from '../model';
import { resolveType, type Site } from '../resolve/resolve';

/**
 * An explicit hint always wins over the type `onemodelcontext generate` read from the source, but it may
 * only narrow it: a hint under which the method would receive a value its declared type does not allow
 * (a string for a `number`, `null` for a non-nullable parameter) is a definition error.
 */

/** What the method receives for a type, in TypeScript terms: what must agree between hint and source. */
function received(node: TypeNode): string {
  switch (node.kind) {
    case 'integer':
      return node.bigint ? 'bigint' : 'number';
    case 'string':
      return { string: 'string', date: 'Date', url: 'URL', timespan: 'number' }[node.as];
    case 'bytes':
      return 'Uint8Array';
    case 'enum':
      return [...new Set(node.values.map((v) => typeof v))].join(' | ');
    case 'array':
      return `${node.set ? 'Set' : 'Array'}<${received(node.items)}>`;
    case 'dictionary':
      return `${node.as === 'map' ? 'Map' : 'Record'}<string, ${received(node.values)}>`;
    case 'record':
      return node.ctor.name;
    case 'nullable':
      return `${received(node.inner)} | null`;
    default:
      return node.kind;
  }
}

/** Whether every value the method receives under `hint` is allowed by the declared type `source`. */
function fits(hint: TypeNode, source: TypeNode): boolean {
  // What a Standard Schema's output is, only its library's TypeScript types say: no contradiction is claimed.
  if (hint.kind === 'json' || hint.kind === 'standard') return true;
  if (hint.kind === 'nullable') return source.kind === 'nullable' && fits(hint.inner, source.inner);
  if (source.kind === 'nullable') return fits(hint, source.inner);
  if (hint.kind === 'enum' && source.kind === 'enum') return hint.values.every((v) => source.values.includes(v));
  if (hint.kind === 'array' && source.kind === 'array') return hint.set === source.set && fits(hint.items, source.items);
  if (hint.kind === 'dictionary' && source.kind === 'dictionary') return hint.as === source.as && fits(hint.values, source.values);
  if (hint.kind === 'discriminated') {
    return (
      source.kind === 'record' &&
      hint.subtypes.every((s) => s.record.ctor === source.ctor || s.record.ctor.prototype instanceof source.ctor)
    );
  }
  if (hint.kind === 'record' && source.kind === 'record') {
    return hint.ctor === source.ctor || hint.ctor.prototype instanceof source.ctor;
  }
  return source.kind !== 'enum' && received(hint) === received(source);
}

/** Reports OMCG0002 when the resolved type of an explicit hint contradicts the declared source type. */
export function checkAgainstSource(node: TypeNode, source: TypeHint, design: unknown, site: Site): void {
  const declared = resolveType(source, design, { ...site, problems: new Problems() });
  if (!declared || fits(node, declared)) return;
  site.problems.add(
    'OMCG0002',
    site.where,
    `the type hint (${received(node)}) contradicts the declared type (${received(declared)}) that onemodelcontext generate read from the source.`,
    'make the hint fit the declared type, or change the declared type and run onemodelcontext generate again.',
  );
}
