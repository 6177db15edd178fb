import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * `minLength` of a string, `minItems` of an array or set.
 * @example search(@MinLength(3) query: string) { ... }
 */
export function MinLength(min: number): ParamOrProperty {
  checkNumber('MinLength', 'min', min);
  return paramOrProperty('MinLength', { constraints: [{ kind: 'length', min, decorator: '@MinLength' }] }) as ParamOrProperty;
}
