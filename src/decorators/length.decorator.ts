import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * Both length bounds of a string, array or set.
 * @example code(@Length(2, 3) country: string) { ... }
 */
export function Length(min: number, max: number): ParamOrProperty {
  checkNumber('Length', 'min', min);
  checkNumber('Length', 'max', max);
  return paramOrProperty('Length', { constraints: [{ kind: 'length', min, max, decorator: '@Length' }] }) as ParamOrProperty;
}
