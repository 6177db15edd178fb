import { UsageTypeError } from '../errors';
import type { StandardSchemaV1 } from './standard-schema';

/**
 * Type hints restore what TypeScript's `design:*` metadata erases: element types, nullability, integer
 * kinds, enums and the string formats. A hint is a constructor, an enum object, one of the tokens below,
 * a combinator, the `[h]` array shorthand, an arrow function `() => h` resolved lazily, or a Standard Schema
 * object (zod 4, Valibot, ArkType ...: standard-schema.ts).
 */

/** Marks hint tokens and combinators; a registered symbol so two copies of the package agree. */
export const HINT: unique symbol = Symbol.for('onemodelcontext.hint') as never;

/** The scalar tokens. */
export type TokenKind =
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64'
  | 'char'
  | 'uuid'
  | 'date'
  | 'time'
  | 'timespan'
  | 'bytes'
  | 'json'
  | 'jsonObject'
  | 'jsonArray';

/** A scalar hint token such as {@link Int32}; `K` is its kind, which fixes the TypeScript type it reads into. */
export interface HintToken<K extends TokenKind = TokenKind> {
  readonly [HINT]: 'token';
  readonly token: K;
  readonly name: string;
}

/** The kinds of combinator. */
export type CombinatorKind = 'array' | 'set' | 'dictionary' | 'nullable';

/** A combinator around another hint; `K` and `H` keep what it was built from, for {@link HintValue}. */
export interface HintCombinator<K extends CombinatorKind = CombinatorKind, H extends TypeHint = TypeHint> {
  readonly [HINT]: K;
  readonly of: H;
}

/**
 * A union of string literals (`'metric' | 'imperial'`): a string enum whose member names are its values.
 * Made by {@link StringLiterals}; the generated facts module writes it for literal unions it reads.
 */
export interface HintLiterals<V extends string = string> {
  readonly [HINT]: 'literals';
  readonly values: readonly V[];
}

/** A TypeScript `enum` object (string, numeric or mixed). */
export type EnumObject = { readonly [member: string]: string | number };

/** Anything accepted where the design says "type hint". */
export type TypeHint =
  | (abstract new (...args: never[]) => unknown)
  | ((...args: never[]) => unknown)
  | EnumObject
  | HintToken
  | HintCombinator
  | HintLiterals
  | StandardSchemaV1
  | readonly [TypeHint]
  | (() => TypeHint);

function token<K extends TokenKind>(kind: K, name: string): HintToken<K> {
  return Object.freeze({ [HINT]: 'token' as const, token: kind, name });
}

function combinator<K extends CombinatorKind, H extends TypeHint>(kind: K, of: H): HintCombinator<K, H> {
  if (of === undefined || of === null) {
    throw new UsageTypeError(`${name(kind)}() needs a type hint, for example ${name(kind)}(String).`);
  }
  return Object.freeze({ [HINT]: kind, of });
}

function name(kind: CombinatorKind): string {
  return { array: 'ArrayOf', set: 'SetOf', dictionary: 'DictionaryOf', nullable: 'Nullable' }[kind];
}

/** Signed 8-bit integer, -128 to 127. @example `@Param({ type: Int8 }) level: number` */
export const Int8 = token('int8', 'Int8');
/** Unsigned 8-bit integer, 0 to 255. @example `@Param({ type: Uint8 }) percent: number` */
export const Uint8 = token('uint8', 'Uint8');
/** Signed 16-bit integer. @example `@Param({ type: Int16 }) offset: number` */
export const Int16 = token('int16', 'Int16');
/** Unsigned 16-bit integer. @example `@Param({ type: Uint16 }) port: number` */
export const Uint16 = token('uint16', 'Uint16');
/** Signed 32-bit integer. @example `@Param({ type: Int32 }) qty: number` */
export const Int32 = token('int32', 'Int32');
/** Unsigned 32-bit integer. @example `@Param({ type: Uint32 }) count: number` */
export const Uint32 = token('uint32', 'Uint32');
/** 64-bit integer, limited to the safe-integer range. @example `@Param({ type: Int64 }) id: number` */
export const Int64 = token('int64', 'Int64');
/** Unsigned 64-bit integer, 0 to the largest safe integer. @example `@Param({ type: Uint64 }) size: number` */
export const Uint64 = token('uint64', 'Uint64');
/** One character. @example `@Param({ type: Char }) separator: string` */
export const Char = token('char', 'Char');
/** A UUID string. @example `@Param({ type: Uuid }) id: string` */
export const Uuid = token('uuid', 'Uuid');
/** An RFC 3339 full-date string. @example `@Param({ type: DateOnly }) day: string` */
export const DateOnly = token('date', 'DateOnly');
/** An RFC 3339 partial-time string. @example `@Param({ type: TimeOnly }) at: string` */
export const TimeOnly = token('time', 'TimeOnly');
/** A .NET `c`-form duration string, received as milliseconds. @example `@Param({ type: TimeSpan }) timeout: number` */
export const TimeSpan = token('timespan', 'TimeSpan');
/** Base64 bytes. @example `@Param({ type: Bytes }) data: Uint8Array` */
export const Bytes = token('bytes', 'Bytes');
/** Any JSON value. @example `@Param({ type: Json }) payload: unknown` */
export const Json = token('json', 'Json');
/** Any JSON object. @example `@Param({ type: JsonObject }) payload: Record<string, unknown>` */
export const JsonObject = token('jsonObject', 'JsonObject');
/** Any JSON array. @example `@Param({ type: JsonArray }) rows: unknown[]` */
export const JsonArray = token('jsonArray', 'JsonArray');

/** An array of `h`; `[h]` is the shorthand. @example `@Param({ type: ArrayOf(Int32) }) ids: number[]` */
export function ArrayOf<const H extends TypeHint>(h: H): HintCombinator<'array', H> {
  return combinator('array', h);
}
/** A set of `h`: `uniqueItems`, received as a `Set`. @example `@Param({ type: SetOf(String) }) tags: Set<string>` */
export function SetOf<const H extends TypeHint>(h: H): HintCombinator<'set', H> {
  return combinator('set', h);
}
/** A string-keyed dictionary of `h`. @example `@Param({ type: DictionaryOf(Number) }) prices: Record<string, number>` */
export function DictionaryOf<const H extends TypeHint>(h: H): HintCombinator<'dictionary', H> {
  return combinator('dictionary', h);
}
/** `h` or `null`. @example `@Param({ type: Nullable(String) }) note: string | null` */
export function Nullable<const H extends TypeHint>(h: H): HintCombinator<'nullable', H> {
  return combinator('nullable', h);
}
/**
 * A union of string literals, listed as `{"type":"string","enum":[...values]}` and received as the string.
 * @example `@Param({ type: StringLiterals('metric', 'imperial') }) unit: 'metric' | 'imperial'`
 */
export function StringLiterals<const V extends readonly string[]>(...values: V): HintLiterals<V[number]> {
  if (values.length === 0 || values.some((v) => typeof v !== 'string') || new Set(values).size !== values.length) {
    throw new UsageTypeError(`StringLiterals() takes one or more distinct strings, for example StringLiterals('metric', 'imperial').`);
  }
  return Object.freeze({ [HINT]: 'literals' as const, values: Object.freeze([...values]) });
}
