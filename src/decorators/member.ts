import { UsageTypeError } from '../errors';
import { addMember, type MemberIntent, type MemberRecord } from './metadata';
import { isObjectLike, isPlainObject } from '../objects';

/** The decorator signature shared by `@Tool`, `@Resource` and `@Prompt`: accepts any member, diagnosed later. */
export type MemberDecorator = (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => void;

function shapeOf(target: object, descriptor: PropertyDescriptor | undefined): MemberRecord['shape'] {
  if (typeof target === 'function') return 'static';
  if (!descriptor) return 'field';
  if (descriptor.get || descriptor.set) return 'accessor';
  return typeof descriptor.value === 'function' ? 'method' : 'field';
}

/** Refuses `@Tool` written without parentheses, which hands the decorator a prototype as its options. */
export function refuseBareUse(decorator: string, first: unknown, second: unknown): void {
  if (isObjectLike(first) && (typeof second === 'string' || typeof second === 'symbol')) {
    throw new UsageTypeError(
      `@${decorator} is a decorator factory. Did you forget to call it? Use @${decorator}() instead of @${decorator}.`,
    );
  }
}

/** The decorator that records `intent`; its options must be the decorator's own copy (they are frozen). */
export function memberDecorator(intent: MemberIntent): MemberDecorator {
  Object.freeze(intent.options);
  return (target, key, descriptor) => addMember(target, { ...intent, key, shape: shapeOf(target, descriptor) });
}

export function checkString(decorator: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') {
    throw new UsageTypeError(`@${decorator}(): '${option}' must be a string, got ${typeof value}.`);
  }
}

/** OAuth scope-token characters (RFC 6749 section 3.3): printable ASCII but space, `"` and `\\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Checks a `scopes` option (`where`: `@Tool()`, `server.tool('name')` ...); a frozen copy, or `undefined` when not given. */
export function checkScopes(where: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string' || !SCOPE_TOKEN.test(s))) {
    throw new UsageTypeError(`${where}: 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read'].`);
  }
  return Object.freeze([...(value as string[])]);
}

/**
 * Checks a `public` option against the member's `scopes`: a public item answers callers without a token, so it
 * cannot need a scope at the same time. Returns the scopes the item needs: none when it is public.
 */
export function checkPublic(where: string, isPublic: unknown, scopes: readonly string[] | undefined): readonly string[] | undefined {
  if (isPublic === undefined || isPublic === false) return scopes;
  if (isPublic !== true) throw new UsageTypeError(`${where}: 'public' must be true or false, got ${typeof isPublic}.`);
  if (scopes !== undefined && scopes.length > 0) {
    throw new UsageTypeError(
      `${where}: 'public' and 'scopes' contradict each other: a public item answers callers without a token. Remove one of them.`,
    );
  }
  return Object.freeze([]);
}

/**
 * A frozen copy of plain data (arrays and plain objects, a few levels deep) so that a caller changing its options
 * object after decorating changes nothing; other values are kept as they are, for the schema builder to judge.
 */
export function snapshot<T>(value: T, depth = 4): T {
  if (depth === 0) return value;
  if (Array.isArray(value)) return Object.freeze(value.map((v) => snapshot(v, depth - 1))) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) copy[k] = snapshot(v, depth - 1);
  return Object.freeze(copy) as T;
}

/** `options` with the named data options replaced by frozen copies ({@link snapshot}). */
export function snapshotted<T extends object>(options: T, keys: readonly (keyof T)[]): T {
  const copy = { ...options };
  for (const key of keys) if (copy[key] !== undefined) copy[key] = snapshot(copy[key]);
  return copy;
}

export function checkBoolean(decorator: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new UsageTypeError(`@${decorator}(): '${option}' must be true or false, got ${typeof value}.`);
  }
}
