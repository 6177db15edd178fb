import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * `minimum`/`maximum` of a number or integer.
 * @example getForecast(@Range(1, 14) days: number) { ... }
 */
export function Range(min: number, max: number): ParamOrProperty {
  checkNumber('Range', 'min', min);
  checkNumber('Range', 'max', max);
  return paramOrProperty('Range', { constraints: [{ kind: 'range', min, max, decorator: '@Range' }] }) as ParamOrProperty;
}
