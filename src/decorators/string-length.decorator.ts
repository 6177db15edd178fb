import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * `maxLength` (and `minLength`) of a string (the seed's `[StringLength]`).
 * @example rename(@StringLength(64, { min: 1 }) title: string) { ... }
 */
export function StringLength(max: number, options?: { readonly min?: number }): ParamOrProperty {
  checkNumber('StringLength', 'max', max);
  if (options?.min !== undefined) checkNumber('StringLength', 'min', options.min);
  return paramOrProperty('StringLength', {
    constraints: [{ kind: 'length', min: options?.min, max, decorator: '@StringLength' }],
  }) as ParamOrProperty;
}
