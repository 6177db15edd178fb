import type { ValidationError, ValidatorOptions } from 'class-validator';
import { classChainOf } from '../decorators/classes';
import { validationOf } from '../decorators/foreign';
import type { RecordNode } from '../schema/model';
import { enforcedByReading } from '../schema/validator-rules';

/**
 * class-validator runs on built instances only when a class carries a rule reading does not already
 * enforce (a custom constraint, `@IsPositive`, `@IsEmail`, groups, `@ValidateIf` ...); which rules reading
 * enforces comes from the one table in `schema/validator-rules.ts`. When it runs, errors of the enforced
 * rules are ignored, so the listing alone decides what those accept.
 */

/** What class-validator has left to check on instances of a record class. */
export interface LeftToClassValidator {
  /** Whether any rule is left at all; when not, class-validator does not run. */
  readonly any: boolean;
  /** Rules reading enforces, by property key: their errors are not ours to report. */
  readonly enforced: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Sorts the class-validator rules of a record class by who checks them. Decided once per record. */
export function leftToClassValidator(node: RecordNode): LeftToClassValidator {
  const byKey = new Map(node.properties.map((p) => [p.key, p]));
  const enforced = new Map<string, Set<string>>();
  let any = false;
  for (const c of classChainOf(node.ctor)) {
    const all = validationOf(c);
    // Under `@ValidateIf` every rule of the property is class-validator's: its condition decides.
    const conditional = new Set(all.filter((m) => m.type === 'conditionalValidation' && m.name !== 'isOptional').map((m) => m.propertyName));
    for (const m of all) {
      if (!enforcedByReading(m, byKey.get(m.propertyName), conditional.has(m.propertyName))) any = true;
      else if (m.name !== undefined) enforced.set(m.propertyName, (enforced.get(m.propertyName) ?? new Set()).add(m.name));
    }
  }
  return { any, enforced };
}

/**
 * `skipMissingProperties`: an omitted optional property (or a `null` the listing allowed) is not
 * validated, as the listing does not; `@IsDefined` still runs.
 */
const OPTIONS = {
  forbidUnknownValues: false,
  skipMissingProperties: true,
  validationError: { target: false, value: false },
} as const;

type ValidateSync = (instance: object, options: ValidatorOptions) => ValidationError[];
let loaded: ValidateSync | undefined;

/**
 * class-validator's `validateSync`, loaded on first use: only a class with a rule reading does not enforce
 * needs it, and such a rule means the application has loaded class-validator already.
 */
function validateSync(instance: object, options: ValidatorOptions): ValidationError[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (require('class-validator') as typeof import('class-validator')).validateSync;
  return loaded(instance, options);
}

/**
 * The messages of every rule of the property that failed and is not enforced by reading, as
 * class-validator wrote them (a custom `message` is the developer's text), joined by `; `.
 */
function leftMessage(error: ValidationError, enforced: LeftToClassValidator['enforced']): string | undefined {
  const names = enforced.get(error.property);
  const messages = Object.entries(error.constraints ?? {}).filter(([name]) => !names?.has(name)).map(([, message]) => message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/**
 * The first property of an instance failing rules left to class-validator: the property and the
 * messages of all its failing rules. Errors of nested records (`@ValidateNested`) are left out: their own readers validated them.
 */
export function firstValidationError(instance: object, left: LeftToClassValidator): { property: string; message: string } | undefined {
  for (const error of validateSync(instance, OPTIONS)) {
    const message = leftMessage(error, left.enforced);
    if (message !== undefined) return { property: error.property, message };
  }
  return undefined;
}
