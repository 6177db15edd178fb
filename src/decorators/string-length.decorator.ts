import { UsageTypeError } from '../errors';
import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * `maxLength` (and `minLength`) of a string (the seed's `[StringLength]`): the maximum first, the minimum
 * as an option.
 * @example rename(@StringLength(64, { min: 1 }) title: string) { ... }
 */
export function StringLength(max: number, options?: { readonly min?: number }): ParamOrProperty;
/**
 * @deprecated Not a signature: `StringLength(1, 200)` reads like (min, max) but the seed's order is
 * (max, { min }). This overload turns the call into a compile error that says so instead of TS2559: its
 * return type is the message, quoted by "Type '{ ... }' has no call signatures".
 */
export function StringLength(
  max: number,
  min: number,
): { 'StringLength takes (max, { min }): write @StringLength(200, { min: 1 }) or @Length(1, 200)': never };
export function StringLength(max: number, options?: { readonly min?: number } | number): unknown {
  if (typeof options === 'number') {
    throw new UsageTypeError(
      `@StringLength(${max}, ${options}): StringLength takes (max, { min }); write @StringLength(${options}, { min: ${max} }) or @Length(${max}, ${options}).`,
    );
  }
  checkNumber('StringLength', 'max', max);
  if (options?.min !== undefined) checkNumber('StringLength', 'min', options.min);
  return paramOrProperty('StringLength', {
    constraints: [{ kind: 'length', min: options?.min, max, decorator: '@StringLength' }],
  }) as ParamOrProperty;
}
