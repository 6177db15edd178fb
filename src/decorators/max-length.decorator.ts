import { paramOrProperty, type ParamOrProperty, checkNumber } from './target';

/**
 * `maxLength` of a string, `maxItems` of an array or set.
 * @example tag(@MaxLength(10) @Param({ type: [String] }) tags: string[]) { ... }
 */
export function MaxLength(max: number): ParamOrProperty {
  checkNumber('MaxLength', 'max', max);
  return paramOrProperty('MaxLength', { constraints: [{ kind: 'length', max, decorator: '@MaxLength' }] }) as ParamOrProperty;
}
