import { UsageTypeError } from '../errors';
import { paramOrProperty, type ParamOrProperty } from './target';

/**
 * `pattern` of a string; a `RegExp` writes its `source`. JSON Schema patterns have no flags: a flag that
 * changes matching (`i`, `m`, `s`, `v`, `y`) is a definition error, `u` is what JSON Schema means anyway.
 * @example lookup(@RegularExpression(/^[A-Z]{3}$/) code: string) { ... }
 */
export function RegularExpression(pattern: string | RegExp): ParamOrProperty {
  if (typeof pattern !== 'string' && !(pattern instanceof RegExp)) {
    throw new UsageTypeError(`@RegularExpression() takes a string or a RegExp, got ${typeof pattern}.`);
  }
  const [source, flags] = typeof pattern === 'string' ? [pattern, ''] : [pattern.source, pattern.flags];
  return paramOrProperty('RegularExpression', {
    constraints: [{ kind: 'pattern', pattern: source, flags, decorator: '@RegularExpression' }],
  }) as ParamOrProperty;
}
