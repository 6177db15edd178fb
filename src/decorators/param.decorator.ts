import { UsageTypeError } from '../errors';
import type { TypeHint } from './hints';
import { updateParam } from './metadata';
import { checkBoolean, checkString } from './member';
import { isObjectLike } from '../objects';

/** Options of {@link Param}. */
export interface ParamOptions {
  /** The argument name; default: the parameter's own name in the compiled function. */
  readonly name?: string;
  readonly description?: string;
  /** A type hint for what the metadata erases (element types, integer kinds, enums, formats). */
  readonly type?: TypeHint;
  /** Also accept `null` (the same as wrapping the type in `Nullable`). */
  readonly nullable?: boolean;
  /** Not required; the method receives `undefined` when the argument is missing. */
  readonly optional?: boolean;
  /** Not required; the method receives this value when the argument is missing. */
  readonly default?: unknown;
  /**
   * Tools only: the argument is mirrored into the HTTP header `Mcp-Param-<header>` (SEP-2243, `x-mcp-header` in the
   * listing) so that proxies can route on it; on 2026-07-28 HTTP requests the server refuses a header that
   * disagrees with the argument. For string, integer and boolean parameters.
   */
  readonly header?: string;
}

/**
 * The options a parameter and a property share (all of {@link ParamOptions} but `name`): a plain object
 * with only these keys is options, anything else is a type hint.
 */
export const VALUE_OPTION_KEYS: ReadonlySet<string> = new Set(['description', 'type', 'nullable', 'optional', 'default']);

/**
 * Names, types and describes a tool, resource or prompt parameter.
 * @example
 * getForecast(@Param('city', { description: 'City name' }) city: string) { ... }
 */
export function Param(nameOrOptions?: string | ParamOptions, maybeOptions?: ParamOptions): ParameterDecorator {
  const options: ParamOptions = typeof nameOrOptions === 'string' ? { ...maybeOptions, name: nameOrOptions } : { ...nameOrOptions };
  if (nameOrOptions !== undefined && typeof nameOrOptions !== 'string' && !isObjectLike(nameOrOptions)) {
    throw new UsageTypeError(`@Param() takes a name, options or both, for example @Param('city', { description: 'City name' }).`);
  }
  checkString('Param', 'name', options.name);
  checkString('Param', 'description', options.description);
  checkString('Param', 'header', options.header);
  checkBoolean('Param', 'nullable', options.nullable);
  checkBoolean('Param', 'optional', options.optional);
  const { default: value, ...rest } = options;
  const patch = 'default' in options ? { ...rest, hasDefault: true, default: value } : rest;
  return (target, key, index) => {
    if (key === undefined) throw new UsageTypeError('@Param() belongs on a method parameter, not a constructor parameter.');
    updateParam(target, key, index, patch);
  };
}
