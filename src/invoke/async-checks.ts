import type { ParamModel, TypeNode } from '../schema/model';
import type { OneFailure } from './failure';
import { asFailures, asyncValidationFailures, leftToClassValidator } from './validator';
import { CLOSED, type ValidationPolicy } from '../schema/records/validation-options';

/**
 * The checks that wait for class-validator's `validate` after reading: only records with an async rule have any,
 * so every other tool keeps the synchronous reading path (reader.ts).
 */

/** The async class-validator checks of the values under one type, or `undefined` when none has an async rule. */
type AsyncCheck = (value: unknown, path: (string | number)[], into: Promise<OneFailure[]>[]) => void;

const asyncChecks = new Map<string, WeakMap<TypeNode, AsyncCheck | null>>();

/**
 * Where a type holds records with an async rule (`@ValidatorConstraint({ async: true })`): those instances are
 * validated with class-validator's `validate` once reading has built them; every other type has none, and its
 * tools keep the synchronous path.
 */
function asyncCheckOf(node: TypeNode, policy: ValidationPolicy): AsyncCheck | undefined {
  let cache = asyncChecks.get(policy.key);
  if (!cache) asyncChecks.set(policy.key, (cache = new WeakMap()));
  let check = cache.get(node);
  if (check === undefined) {
    check = buildAsyncCheck(node, policy) ?? null;
    cache.set(node, check);
  }
  return check ?? undefined;
}

function buildAsyncCheck(node: TypeNode, policy: ValidationPolicy): AsyncCheck | undefined {
  switch (node.kind) {
    case 'nullable': {
      const inner = asyncCheckOf(node.inner, policy);
      return inner && ((v, path, into) => v !== null && v !== undefined && inner(v, path, into));
    }
    case 'array': {
      const item = asyncCheckOf(node.items, policy);
      return item && ((v, path, into) => [...(v as Iterable<unknown>)].forEach((x, i) => item(x, [...path, i], into)));
    }
    case 'dictionary': {
      const value = asyncCheckOf(node.values, policy);
      if (!value) return undefined;
      return (v, path, into) => {
        const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as Record<string, unknown>);
        for (const [k, x] of entries) value(x, [...path, k as string], into);
      };
    }
    case 'record': {
      const left = leftToClassValidator(node);
      const inner = node.properties.map((p) => [p, asyncCheckOf(p.type, policy)] as const).filter(([, c]) => c !== undefined);
      if (!left.async && inner.length === 0) return undefined;
      const wireName = new Map(node.properties.map((p) => [p.key, p.name]));
      return (v, path, into) => {
        const instance = v as Record<string, unknown>;
        if (left.async) {
          into.push(
            asyncValidationFailures(instance, left, policy).then((found) =>
              asFailures(found, wireName).map((o) => ({ path: [...o.path, ...[...path].reverse()], expected: o.expected })),
            ),
          );
        }
        for (const [p, check] of inner) if (instance[p.key] !== undefined) check!(instance[p.key], [...path, p.name], into);
      };
    }
    default:
      return undefined;
  }
}

/**
 * The async checks of a tool's arguments, once read: every failing rule, innermost step first; `undefined` for a
 * tool none of whose records has an async rule (reading stays synchronous).
 */
export function asyncChecksOf(
  params: readonly ParamModel[],
  policy: ValidationPolicy = CLOSED,
): ((argv: unknown[]) => Promise<OneFailure[]>) | undefined {
  const checks = params.map((p) => [p, asyncCheckOf(p.type, policy)] as const).filter(([, c]) => c !== undefined);
  if (checks.length === 0) return undefined;
  return async (argv) => {
    const into: Promise<OneFailure[]>[] = [];
    for (const [p, check] of checks) if (argv[p.index] !== undefined) check!(argv[p.index], [p.name], into);
    return (await Promise.all(into)).flat();
  };
}
