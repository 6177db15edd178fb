import { paramOrProperty } from './target';

type ParamOrProperty = ParameterDecorator & PropertyDecorator;

function checkNumber(decorator: string, what: string, value: unknown): void {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`@${decorator}(): ${what} must be a number, got ${String(value)}.`);
  }
}

/**
 * `minimum`/`maximum` of a number or integer (the seed's `[Range]`).
 * @example getForecast(@Range(1, 14) days: number) { ... }
 */
export function Range(min: number, max: number): ParamOrProperty {
  checkNumber('Range', 'min', min);
  checkNumber('Range', 'max', max);
  return paramOrProperty('Range', { constraints: [{ kind: 'range', min, max, source: '@Range' }] }) as ParamOrProperty;
}

/**
 * `maxLength` (and `minLength`) of a string (the seed's `[StringLength]`).
 * @example rename(@StringLength(64, { min: 1 }) title: string) { ... }
 */
export function StringLength(max: number, options?: { readonly min?: number }): ParamOrProperty {
  checkNumber('StringLength', 'max', max);
  if (options?.min !== undefined) checkNumber('StringLength', 'min', options.min);
  return paramOrProperty('StringLength', {
    constraints: [{ kind: 'length', min: options?.min, max, source: '@StringLength' }],
  }) as ParamOrProperty;
}

/**
 * `minLength` of a string, `minItems` of an array or set.
 * @example search(@MinLength(3) query: string) { ... }
 */
export function MinLength(min: number): ParamOrProperty {
  checkNumber('MinLength', 'min', min);
  return paramOrProperty('MinLength', { constraints: [{ kind: 'length', min, source: '@MinLength' }] }) as ParamOrProperty;
}

/**
 * `maxLength` of a string, `maxItems` of an array or set.
 * @example tag(@MaxLength(10) @Param({ type: [String] }) tags: string[]) { ... }
 */
export function MaxLength(max: number): ParamOrProperty {
  checkNumber('MaxLength', 'max', max);
  return paramOrProperty('MaxLength', { constraints: [{ kind: 'length', max, source: '@MaxLength' }] }) as ParamOrProperty;
}

/**
 * Both length bounds of a string, array or set.
 * @example code(@Length(2, 3) country: string) { ... }
 */
export function Length(min: number, max: number): ParamOrProperty {
  checkNumber('Length', 'min', min);
  checkNumber('Length', 'max', max);
  return paramOrProperty('Length', { constraints: [{ kind: 'length', min, max, source: '@Length' }] }) as ParamOrProperty;
}

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
    constraints: [{ kind: 'pattern', pattern: source, source: '@RegularExpression' }],
  }) as ParamOrProperty;
}

/**
 * `format: email` on a string.
 * @example invite(@EmailAddress() email: string) { ... }
 */
export function EmailAddress(): ParamOrProperty {
  return paramOrProperty('EmailAddress', { constraints: [{ kind: 'format', format: 'email', source: '@EmailAddress' }] }) as ParamOrProperty;
}

/**
 * `format: uri` on a string.
 * @example fetch(@Url() address: string) { ... }
 */
export function Url(): ParamOrProperty {
  return paramOrProperty('Url', { constraints: [{ kind: 'format', format: 'uri', source: '@Url' }] }) as ParamOrProperty;
}
