import type { TypeHint } from '../decorators/hints';
import type { Constraint } from '../decorators/metadata';
import { checkAgainstSource } from './contradiction';
import { unwrap, type DefaultValue, type TypeNode } from './model';
import { constrain, constrainEach, nullable, resolveType, type Site } from './resolve';
import type { SourceValue } from './source';

/** Everything known about one parameter or property before it is resolved. */
export interface MemberFacts {
  readonly hint?: TypeHint;
  /** The declared type `onemodelcontext generate` read from the source, used when there is no hint. */
  readonly source?: TypeHint;
  readonly design: unknown;
  readonly constraints: readonly Constraint[];
  /** Constraints on the elements (class-validator's `each: true`). */
  readonly eachConstraints?: readonly Constraint[];
  readonly uniqueItems?: boolean;
  readonly nullable?: boolean;
}

/**
 * Resolves the type of a parameter or property: hint, else source type, else design type; constraints,
 * then nullability. A hint that contradicts the source type is reported.
 */
export function resolveMember(facts: MemberFacts, site: Site): TypeNode | undefined {
  const base = resolveType(facts.hint ?? facts.source, facts.design, site);
  if (!base) return undefined;
  let node = constrainEach(constrain(base, facts.constraints, site), facts.eachConstraints ?? [], site);
  if (facts.uniqueItems) node = withUniqueItems(node, site);
  if (facts.nullable) node = nullable(node);
  if (facts.hint !== undefined && facts.source !== undefined) checkAgainstSource(node, facts.source, facts.design, site);
  return node;
}

function withUniqueItems(node: TypeNode, site: Site): TypeNode {
  if (node.kind === 'nullable') return { kind: 'nullable', inner: withUniqueItems(node.inner, site) };
  if (node.kind === 'array') return { ...node, uniqueItems: true };
  site.problems.add('OMCG0013', site.where, `@ArrayUnique does not fit a ${node.kind}.`, 'remove @ArrayUnique or make the property an array.');
  return node;
}

/**
 * The default a member takes from a source literal (`days = 3`, `unit = Unit.Celsius`). Non-literal
 * defaults make the member optional without a listed default.
 */
export function sourceDefault(value: SourceValue, type: TypeNode): DefaultValue | undefined {
  if (value.kind === 'literal') return { value: value.value };
  if (value.kind === 'member') {
    const bare = unwrap(type);
    if (bare.kind === 'enum') {
      const at = bare.names.indexOf(value.property);
      if (at >= 0) return { value: bare.values[at] };
    }
  }
  return undefined;
}
