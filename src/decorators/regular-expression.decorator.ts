import { paramOrProperty, type ParamOrProperty } from './target';

/**
 * `pattern` of a string; a `RegExp` writes its `source` (flags are not part of JSON Schema).
 * @example lookup(@RegularExpression(/^[A-Z]{3}$/) code: string) { ... }
 */
export function RegularExpression(pattern: string | RegExp): ParamOrProperty {
  if (typeof pattern !== 'string' && !(pattern instanceof RegExp)) {
    throw new TypeError(`@RegularExpression() takes a string or a RegExp, got ${typeof pattern}.`);
  }
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  return paramOrProperty('RegularExpression', {
    constraints: [{ kind: 'pattern', pattern: source, decorator: '@RegularExpression' }],
  }) as ParamOrProperty;
}
