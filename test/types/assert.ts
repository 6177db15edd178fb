/** Compile-time assertions for the type tests: `expectType<Equal<A, B>>(true)` fails to compile unless A is B. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function expectType<T extends true>(ok: T): T {
  return ok;
}

/**
 * Mutual assignability, for enums: `typeof Status[keyof typeof Status]` is `Status` to every use but not
 * to {@link Equal}'s identity check.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
