/**
 * Standard Schema (`@standard-schema/spec`, https://standardschema.dev): the interface zod 4, Valibot, ArkType and
 * other schema libraries share. A Standard Schema object is accepted wherever a type hint is (DESIGN.md section 2):
 * listed through its Standard JSON Schema interface and read with its own `validate`.
 *
 * The two interfaces are copied from `@standard-schema/spec` 1.1.0, as the spec invites ("copy-paste the types into
 * your project"), so that the published `.d.ts` files depend on no package of its own; only what the library uses
 * is kept. A schema of any library that implements the spec fits them structurally.
 */
import { isObjectLike } from '../objects';

/** A path segment of an issue, as `@standard-schema/spec` defines it. */
export interface StandardPathSegment {
  readonly key: PropertyKey;
}

/** One issue of a failed validation. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

/** What `~standard.validate` answers: the output value, or the issues. */
export type StandardResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

/**
 * The Standard Schema interface (`StandardSchemaV1` of `@standard-schema/spec`).
 * @example
 * import { z } from 'zod';
 * const city: StandardSchemaV1<string> = z.string().min(1);
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** The Standard JSON Schema converter (`StandardJSONSchemaV1.Converter` of `@standard-schema/spec`). */
export interface StandardJSONSchemaConverter {
  readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
}

/** Whether a value is a Standard Schema object: a `~standard` property of version 1 with a `validate` function. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  // Not isObjectLike: a Standard Schema may be a function (an ArkType type is one), so functions are asked too.
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    isObjectLike(props) &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** Whether a value carries a `~standard` property at all (so it is meant as a Standard Schema, valid or not). */
export function claimsStandard(value: unknown): boolean {
  // Not isObjectLike: functions count, as in isStandardSchema.
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}
