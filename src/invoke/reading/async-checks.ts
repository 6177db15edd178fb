import type { ParamModel, TypeNode } from '../../schema/model';
import type { OneFailure } from './failure';
import { Pending, issueFailures } from './standard-reader';
import { asFailures, asyncValidationFailures, leftToClassValidator } from './validator';
import { CLOSED, type ValidationPolicy } from '../../schema/records/validation-options';

/**
 * The checks that wait for class-validator's `validate` after reading: only records with an async rule have any,
 * so every other tool keeps the synchronous reading path (reader.ts).
 */

/**
 * The async checks of the values under one type, or `undefined` when there are none; `put` replaces the value where
 * it stands (a Standard Schema's output, once its promise settles).
 */
type AsyncCheck = (value: unknown, path: (string | number)[], into: Promise<OneFailure[]>[], put: (value: unknown) => void) => void;

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

/** The check of each item of an array, or of a set (whose element is replaced in place, keeping the order). */
function itemsCheck(item: AsyncCheck): AsyncCheck {
  return (v, path, into) => {
    if (Array.isArray(v)) v.forEach((x, i) => item(x, [...path, i], into, (y) => (v[i] = y)));
    else if (v instanceof Set) {
      const items = [...v];
      items.forEach((x, i) =>
        item(x, [...path, i], into, (y) => {
          items[i] = y;
          v.clear();
          for (const z of items) v.add(z);
        }),
      );
    }
  };
}

/** The check of each value of a dictionary (a null-prototype object or a `Map`). */
function valuesCheck(value: AsyncCheck): AsyncCheck {
  return (v, path, into) => {
    if (v instanceof Map) for (const [k, x] of [...v.entries()]) value(x, [...path, k as string], into, (y) => v.set(k, y));
    else {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) value(o[k], [...path, k], into, (y) => (o[k] = y));
    }
  };
}

function buildAsyncCheck(node: TypeNode, policy: ValidationPolicy): AsyncCheck | undefined {
  switch (node.kind) {
    case 'nullable': {
      const inner = asyncCheckOf(node.inner, policy);
      return inner && ((v, path, into, put) => v !== null && v !== undefined && inner(v, path, into, put));
    }
    case 'array': {
      const item = asyncCheckOf(node.items, policy);
      return item && itemsCheck(item);
    }
    case 'dictionary': {
      const value = asyncCheckOf(node.values, policy);
      return value && valuesCheck(value);
    }
    case 'standard':
      return settlePending;
    case 'discriminated': {
      const subtypes = node.subtypes
        .map((s) => [s.record.ctor, asyncCheckOf(s.record, policy)] as const)
        .filter(([, c]) => c !== undefined);
      if (subtypes.length === 0) return undefined;
      return (v, path, into, put) => {
        const check = subtypes.find(([ctor]) => v instanceof ctor)?.[1];
        if (check) check(v, path, into, put);
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
        for (const [p, check] of inner)
          if (instance[p.key] !== undefined) check!(instance[p.key], [...path, p.name], into, (y) => (instance[p.key] = y));
      };
    }
    default:
      return undefined;
  }
}

/**
 * A Standard Schema's value whose `validate` answered a promise (standard-reader.ts): its output put in its place,
 * or its issues reported at its path. A `validate` that threw is the masked tool failure.
 */
export const settlePending: AsyncCheck = (v, path, into, put) => {
  if (!(v instanceof Pending)) return;
  into.push(
    v.settled.then((result) => {
      if ('thrown' in result) throw result.thrown;
      if (!result.issues) {
        put(result.value);
        return [];
      }
      const outer = [...path].reverse();
      return issueFailures(result.issues).map((o) => ({ path: [...o.path, ...outer], expected: o.expected }));
    }),
  );
};

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
    for (const [p, check] of checks) if (argv[p.index] !== undefined) check!(argv[p.index], [p.name], into, (y) => (argv[p.index] = y));
    return (await Promise.all(into)).flat();
  };
}
