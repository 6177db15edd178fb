import type { TypeHint } from '../../decorators/hints';
import { checkAgainstSource } from '../records/contradiction';
import { unwrap, type DefaultValue, type SchemaConstraint, type TypeNode } from '../model';
import { constrain, constrainEach, nullable, resolveType, type Site } from './resolve';
import type { CompiledValue } from './compiled';

/** Everything known about one parameter or property before it is resolved. */
export interface SlotEvidence {
  readonly hint?: TypeHint;
  /** The declared type `onemodelcontext generate` read from the source, used when there is no hint. */
  readonly source?: TypeHint;
  readonly design: unknown;
  readonly constraints: readonly SchemaConstraint[];
  /** Constraints on the elements (class-validator's `each: true`). */
  readonly eachConstraints?: readonly SchemaConstraint[];
  readonly uniqueItems?: boolean;
  readonly nullable?: boolean;
}

/**
 * Resolves the type of a parameter or property: hint, else source type, else design type; constraints,
 * then nullability. A hint that contradicts the source type is reported (before nullability is applied).
 */
export function resolveSlot(evidence: SlotEvidence, site: Site): TypeNode | undefined {
  const base = resolveType(evidence.hint ?? evidence.source, evidence.design, site);
  if (!base) return undefined;
  let node = constrainEach(constrain(base, evidence.constraints, site), evidence.eachConstraints ?? [], site);
  if (evidence.uniqueItems) node = withUniqueItems(node, site);
  // The hint's type is what must fit the source type. `nullable` (`@IsOptional()`, which lets `null` through
  // as absent, `{ nullable: true }`, `@ApiProperty({ nullable })`) says which values pass, not the declared
  // type: `@IsOptional() @IsInt() skip?: number` is no contradiction, with strictNullChecks or without.
  if (evidence.hint !== undefined && evidence.source !== undefined) checkAgainstSource(node, evidence.source, evidence.design, site);
  if (evidence.nullable) node = nullable(node);
  return node;
}

function withUniqueItems(node: TypeNode, site: Site): TypeNode {
  if (node.kind === 'nullable') return { kind: 'nullable', inner: withUniqueItems(node.inner, site) };
  if (node.kind === 'array') return { ...node, uniqueItems: true };
  site.problems.add(
    'OMCG0013',
    site.where,
    `@ArrayUnique does not fit a ${node.kind}.`,
    'remove @ArrayUnique or make the property an array.',
  );
  return node;
}

/**
 * A slot's listed default, in its one order of precedence for parameters and properties alike: the decorator's
 * (`@Param({ default })`, `@Field({ default })`), else the one the source declares (generated facts; `source` is
 * `undefined` where it does not apply), else the compiled JavaScript's.
 */
export function defaultOf(
  declared: { readonly hasDefault?: boolean; readonly default?: unknown } | undefined,
  source: unknown,
  compiled: CompiledValue | undefined,
  type: TypeNode,
): DefaultValue | undefined {
  if (declared?.hasDefault) return { value: declared.default };
  if (source !== undefined) return { value: source };
  return compiled && compiledDefault(compiled, type);
}

/**
 * The default a slot takes from a compiled literal (`days = 3`, `unit = Unit.Celsius`). Non-literal
 * defaults make the slot optional without a listed default.
 */
function compiledDefault(value: CompiledValue, type: TypeNode): DefaultValue | undefined {
  if (value.kind === 'literal') return { value: value.value };
  if (value.kind === 'reference') {
    const bare = unwrap(type);
    if (bare.kind === 'enum') {
      const at = bare.names.indexOf(value.property);
      if (at >= 0) return { value: bare.values[at] };
    }
  }
  return undefined;
}
