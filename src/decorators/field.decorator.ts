import { HINT, type TypeHint } from './hints';
import { claimsStandard } from './standard-schema';
import { VALUE_OPTION_KEYS, type ParamOptions } from './param.decorator';
import { checkBoolean, checkString } from './member';
import { paramOrProperty } from './target';
import { isObject } from '../objects';

/** Options of {@link Field}: those of `@Param` without `name` (rename with class-transformer's `@Expose`). */
export type FieldOptions = Omit<ParamOptions, 'name' | 'header'>;

/** A plain object whose keys are all option names is options; anything else is a type hint. */
function isOptions(value: unknown): value is FieldOptions {
  if (!isObject(value) || HINT in value || claimsStandard(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => VALUE_OPTION_KEYS.has(k));
}

/**
 * Declares a property of a record class, optionally with a type hint or options.
 * @example
 * class Line {
 *   @Field() sku!: string;
 *   @Field(Int32) qty!: number;
 *   @Field({ type: [String], optional: true }) tags?: string[];
 * }
 */
export function Field(typeOrOptions?: TypeHint | FieldOptions): PropertyDecorator {
  const options: FieldOptions =
    typeOrOptions === undefined ? {} : isOptions(typeOrOptions) ? { ...typeOrOptions } : { type: typeOrOptions };
  checkString('Field', 'description', options.description);
  checkBoolean('Field', 'nullable', options.nullable);
  checkBoolean('Field', 'optional', options.optional);
  const { default: value, ...rest } = options;
  const apply = paramOrProperty('Field', 'default' in options ? { ...rest, hasDefault: true, default: value } : rest);
  return (target, key) => apply(target, key);
}
