import type { EnumObject, HintCombinator, HintLiterals, HintToken, TokenKind, TypeHint } from './hints';
import type { StandardSchemaV1 } from './standard-schema';

/** What each token kind reads into (DESIGN.md section 5, "the method receives"). */
interface TokenValues {
  int8: number;
  uint8: number;
  int16: number;
  uint16: number;
  int32: number;
  uint32: number;
  int64: number;
  uint64: number;
  char: string;
  uuid: string;
  date: string;
  time: string;
  timespan: number;
  bytes: Uint8Array;
  json: unknown;
  jsonObject: Record<string, unknown>;
  jsonArray: unknown[];
}

/** What each combinator kind makes of the value of its inner hint. */
interface CombinatorValues<T> {
  array: T[];
  set: Set<T>;
  dictionary: Record<string, T>;
  nullable: T | null;
}

/** Constructors with a value of their own: checked before the general class case, since they are classes too. */
type ConstructorValue<H> = [H] extends [StringConstructor]
  ? string
  : [H] extends [NumberConstructor]
    ? number
    : [H] extends [BooleanConstructor]
      ? boolean
      : [H] extends [BigIntConstructor]
        ? bigint
        : [H] extends [DateConstructor]
          ? Date
          : [H] extends [typeof URL]
            ? URL
            : [H] extends [typeof Buffer]
              ? Buffer
              : [H] extends [Uint8ArrayConstructor]
                ? Uint8Array
                : NotConstructor;

declare const _notConstructor: unique symbol;
type NotConstructor = typeof _notConstructor;

/**
 * The TypeScript type a value read under hint `H` has: `Int32` → `number`, `Uuid` → `string`,
 * `Nullable(Date)` → `Date | null`, `ArrayOf(Order)` → `Order[]`, an enum object → the enum,
 * `StringLiterals('a', 'b')` → `'a' | 'b'`, a record class → its instances, `Json` → `unknown`, a Standard Schema
 * (`z.string().email()`) → its output type.
 * This is what types the handler of the quick path.
 * @example
 * const ids: HintValue<ReturnType<typeof ArrayOf<typeof Int32>>> = [1, 2]; // number[]
 */
export type HintValue<H> = [TypeHint] extends [H] ? unknown : ValueOf<H>;

// `TypeHint` itself (a hint only known at run time) reads into `unknown`: the guard above stops the
// recursion through `readonly [TypeHint]` and `() => TypeHint` before it starts.
type ValueOf<H> =
  H extends StandardSchemaV1<unknown, infer O>
    ? O
    : H extends HintToken<infer K extends TokenKind>
      ? TokenValues[K]
      : H extends HintLiterals<infer V>
        ? V
        : H extends HintCombinator<infer K, infer I>
          ? CombinatorValues<HintValue<I>>[K]
          : H extends readonly [infer I]
            ? HintValue<I>[]
            : ConstructorValue<H> extends NotConstructor
              ? H extends abstract new (...args: never[]) => infer R
                ? R
                : H extends () => infer I
                  ? HintValue<I>
                  : H extends EnumObject
                    ? EnumValue<H>
                    : unknown
              : ConstructorValue<H>;

/** The members of an enum object: `typeof Status` → `Status` (a numeric enum's reverse keys are numbers). */
type EnumValue<E> = E[Exclude<keyof E, number>];

/** A quick-path parameter: a type hint, or options around one. */
export interface QuickParamOptions<H extends TypeHint = TypeHint> {
  readonly type: H;
  readonly description?: string;
  readonly nullable?: boolean;
  readonly optional?: boolean;
  readonly default?: unknown;
  /** The `x-mcp-header` name (see `ParamOptions.header`). */
  readonly header?: string;
}

/**
 * The value a quick-path parameter reads into: its hint's value, `| null` with `nullable: true`,
 * `| undefined` with `optional: true` (a `default` fills it in, so the value is always there).
 */
export type QuickParamValue<P> =
  P extends QuickParamOptions<infer H>
    ? | (P extends { readonly nullable: true } ? HintValue<H> | null : HintValue<H>)
      | (P extends { readonly default: unknown } ? never : P extends { readonly optional: true } ? undefined : never)
    : HintValue<P>;

/**
 * The object a quick-path handler receives for `params` `P`.
 * @example
 * type Args = QuickArgs<{ a: typeof Int32; note: { type: StringConstructor; optional: true } }>;
 * // { a: number; note: string | undefined }
 */
export type QuickArgs<P> = { -readonly [K in keyof P]: QuickParamValue<P[K]> };

/**
 * What a quick-path handler receives: the output of the `input` Standard Schema when there is one, else the object
 * of read `params`.
 * @example
 * type Args = QuickHandlerArgs<{}, typeof citySchema>; // z.output<typeof citySchema>
 */
export type QuickHandlerArgs<P, S> = [S] extends [StandardSchemaV1<unknown, infer O>] ? O : QuickArgs<P>;
