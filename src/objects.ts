/**
 * Ground floor (docs/architecture.md): what every floor asks of a value that should be a plain JSON object.
 */

/**
 * Any object, arrays included, but not `null` and not a function: what `typeof value === 'object'` means once
 * `null` is ruled out. For a JSON object (arrays refused) ask {@link isObject}.
 */
export function isObjectLike(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A JSON object as received or returned: a non-null, non-array object (a class instance counts). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return isObjectLike(value) && !Array.isArray(value);
}

/** An object as `JSON.parse` makes them (no class instance, no array). */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (!isObject(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A plain object that can be copied key by key: an own `__proto__` key (`JSON.parse` makes one) would become
 * the copy's prototype instead of one of its properties.
 */
export function isCopyableObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return isPlainObject(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__');
}

/**
 * Whether the object's enumerable keys are exactly `keys`, in that order, and all its own. `for...in` walks them
 * without making their list, and `hasOwnProperty` of the key it gives is answered from the loop's cache.
 */
export function ownKeysAre(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (key !== keys[i++] || !Object.prototype.hasOwnProperty.call(value, key)) return false;
  return i === keys.length;
}

/** The value with every object and array in it frozen, itself included (a listed schema nobody may change). */
export function deepFreeze<T>(value: T): T {
  if (isObjectLike(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
