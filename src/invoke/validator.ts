import { validateSync, type ValidationError } from 'class-validator';
import { classChainOf } from '../decorators/classes';
import { validationOf } from '../decorators/foreign';

/**
 * class-validator runs on built instances only when a class carries a rule the reader does not already
 * enforce from the schema (a custom constraint, `@IsPositive`, groups, `@ValidateIf` ...). Rules the schema
 * states (types, ranges, lengths, patterns, formats, enums, optionality) are checked once, by the reader.
 */
const ENFORCED_BY_READER = new Set([
  'isOptional', 'isDefined', 'isString', 'isBoolean', 'isInt', 'min', 'max', 'minLength', 'maxLength', 'isLength',
  'arrayMinSize', 'arrayMaxSize', 'isEnum', 'isDate', 'isArray', 'isObject', 'isNotEmptyObject',
]);

function enforced(m: ReturnType<typeof validationOf>[number]): boolean {
  if (m.groups?.length || m.always) return false;
  if (m.type === 'nestedValidation') return true;
  const c = m.constraints ?? [];
  switch (m.name) {
    case 'isNumber':
      return c[0] === undefined || Object.keys(c[0] as object).length === 0;
    case 'isEmail':
    case 'isUrl':
      return false;
    case 'isUuid':
      return c[0] === undefined || c[0] === 'all';
    case 'matches':
      return !c[1] && !(c[0] instanceof RegExp && c[0].flags !== '');
    case 'arrayUnique':
      return c[0] === undefined;
    default:
      return m.name !== undefined && ENFORCED_BY_READER.has(m.name);
  }
}

/** Whether instances of `ctor` need class-validator after reading. Decided once per record. */
export function needsClassValidator(ctor: Function): boolean {
  return classChainOf(ctor).some((c) => validationOf(c).some((m) => !enforced(m)));
}

const OPTIONS = { forbidUnknownValues: false, stopAtFirstError: true, validationError: { target: false, value: false } } as const;

/** The first class-validator error of an instance: its path below the instance and its message. */
export function firstValidationError(instance: object): { path: (string | number)[]; message: string } | undefined {
  const errors = validateSync(instance, OPTIONS);
  if (errors.length === 0) return undefined;
  const path: (string | number)[] = [];
  let error: ValidationError | undefined = errors[0];
  let message = '';
  while (error) {
    path.unshift(/^\d+$/.test(error.property) ? Number(error.property) : error.property);
    message = Object.values(error.constraints ?? {})[0] ?? message;
    error = error.children?.[0];
  }
  return { path, message };
}
