import { paramOrProperty, type ParamOrProperty } from './target';

/**
 * `format: email` on a string.
 * @example invite(@EmailAddress() email: string) { ... }
 */
export function EmailAddress(): ParamOrProperty {
  return paramOrProperty('EmailAddress', {
    constraints: [{ kind: 'format', format: 'email', decorator: '@EmailAddress' }],
  }) as ParamOrProperty;
}
