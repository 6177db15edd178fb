import type { ValidationError, ValidatorOptions } from 'class-validator';
import { classChainOf } from '../../decorators/classes';
import { isAsyncRule, transformsOf, validationOf } from '../../decorators/foreign';
import type { RecordNode } from '../../schema/model';
import { enforcedByReading } from '../../schema/records/validator-rules';
import type { OneFailure } from './failure';
import type { ValidationPolicy } from '../../schema/records/validation-options';

/**
 * class-validator runs on built instances only when a class carries a rule reading does not already
 * enforce (a custom constraint, `@IsPositive`, `@IsEmail`, groups, `@ValidateIf` ...); which rules reading
 * enforces comes from the one table in `schema/records/validator-rules.ts`. When it runs, errors of the enforced
 * rules are ignored, so the listing alone decides what those accept.
 */

/** What class-validator has left to check on instances of a record class. */
export interface LeftToClassValidator {
  /** Whether any rule is left at all; when not, class-validator does not run. */
  readonly any: boolean;
  /** Whether a rule of the class is asynchronous: then `validate` runs, after reading, instead of `validateSync`. */
  readonly async: boolean;
  /** Rules reading enforces, by property key: their errors are not ours to report. */
  readonly enforced: ReadonlyMap<string, ReadonlySet<string>>;
  /** Properties under `@ValidateIf`: a missing or `null` value is judged by class-validator too. */
  readonly conditional: ReadonlySet<string>;
}

/** Sorts the class-validator rules of a record class by who checks them. Decided once per record. */
export function leftToClassValidator(node: RecordNode): LeftToClassValidator {
  const byKey = new Map(node.properties.map((p) => [p.key, p]));
  const enforced = new Map<string, Set<string>>();
  const conditionalKeys = new Set<string>();
  let any = false;
  let async = false;
  for (const c of classChainOf(node.ctor)) {
    const all = validationOf(c);
    // Under `@ValidateIf` every rule of the property is class-validator's: its condition decides.
    const conditional = new Set(
      all.filter((m) => m.type === 'conditionalValidation' && m.name !== 'isOptional').map((m) => m.propertyName),
    );
    for (const key of conditional) conditionalKeys.add(key);
    for (const m of all) {
      if (isAsyncRule(m)) async = true;
      // A `@Transform` changes the value class-validator sees: every rule of the property is checked on it.
      const transformed =
        transformsOf(node.ctor, m.propertyName, 'input').length > 0 && m.type !== 'nestedValidation' && m.name !== 'isOptional';
      if (transformed || !enforcedByReading(m, byKey.get(m.propertyName), conditional.has(m.propertyName))) any = true;
      else if (m.name !== undefined) enforced.set(m.propertyName, (enforced.get(m.propertyName) ?? new Set()).add(m.name));
    }
  }
  return { any, async: any && async, enforced, conditional: conditionalKeys };
}

/**
 * `skipMissingProperties` follows the policy; a missing or `null` value that reading admitted is left alone
 * below (unless `@ValidateIf` or `@IsDefined` speaks of it), as the listing does.
 */
function optionsOf(policy: ValidationPolicy): ValidatorOptions {
  return {
    forbidUnknownValues: false,
    skipMissingProperties: policy.skipMissing,
    ...(policy.groups && { groups: [...policy.groups] }),
    validationError: { target: false, value: false },
  };
}

type ClassValidator = typeof import('class-validator');
let loaded: ClassValidator | undefined;

/**
 * class-validator, loaded on first use: only a class with a rule reading does not enforce needs it, and such
 * a rule means the application has loaded class-validator already.
 */
function classValidator(): ClassValidator {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('class-validator') as ClassValidator);
}

/** A property's failure as class-validator reported it: its key and each failing rule's message. */
export interface PropertyFailure {
  readonly key: string;
  readonly messages: readonly string[];
}

/**
 * The failures of the rules left to class-validator, property by property: every failing rule that is not
 * enforced by reading, with class-validator's message as written (a custom `message` is the developer's text).
 * Errors of nested records (`@ValidateNested`) are left out: their own readers validate them. `skip`: keys
 * reading refused already.
 */
function failuresOf(
  instance: object,
  errors: readonly ValidationError[],
  left: LeftToClassValidator,
  skip?: ReadonlySet<string>,
): PropertyFailure[] {
  const out: PropertyFailure[] = [];
  for (const error of errors) {
    if (skip?.has(error.property)) continue;
    const names = left.enforced.get(error.property);
    const value = (instance as Record<string, unknown>)[error.property];
    const absent = (value === undefined || value === null) && !left.conditional.has(error.property);
    const messages = Object.entries(error.constraints ?? {})
      .filter(([name]) => !names?.has(name) && (!absent || name === 'isDefined'))
      .map(([, message]) => message);
    if (messages.length > 0) out.push({ key: error.property, messages });
  }
  return out;
}

/** The failing rules left to class-validator on an instance, synchronously (no rule of the class is async). */
export function validationFailures(
  instance: object,
  left: LeftToClassValidator,
  policy: ValidationPolicy,
  skip?: ReadonlySet<string>,
): PropertyFailure[] {
  return failuresOf(instance, classValidator().validateSync(instance, optionsOf(policy)), left, skip);
}

/** The same with class-validator's `validate`, for a class with an async rule. */
export async function asyncValidationFailures(
  instance: object,
  left: LeftToClassValidator,
  policy: ValidationPolicy,
): Promise<PropertyFailure[]> {
  return failuresOf(instance, await classValidator().validate(instance, optionsOf(policy)), left);
}

/** Property failures as reading's failures, named by wire names, one per failing rule. */
export function asFailures(failures: readonly PropertyFailure[], wireName: ReadonlyMap<string, string>): OneFailure[] {
  return failures.flatMap((p) => p.messages.map((expected) => ({ path: [wireName.get(p.key) ?? p.key], expected })));
}
