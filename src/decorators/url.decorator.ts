import { paramOrProperty, type ParamOrProperty } from './target';

/**
 * `format: uri` on a string.
 * @example fetch(@Url() address: string) { ... }
 */
export function Url(): ParamOrProperty {
  return paramOrProperty('Url', { constraints: [{ kind: 'format', format: 'uri', decorator: '@Url' }] }) as ParamOrProperty;
}
