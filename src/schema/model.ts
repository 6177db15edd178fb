import type { Completer, Icon } from '../decorators/listing-options';
import type { Constraint } from '../decorators/metadata';
import type { ValidateFunction } from 'ajv/dist/2020';
import type { StandardSchemaV1 } from '../decorators/standard-schema';

/**
 * The resolved type model: one immutable tree per tool, built once when a class is added. The schema
 * writer and the argument reader both work from it, so what the schema promises and what reading
 * enforces cannot drift.
 */

/** A JSON Schema fragment as written: plain JSON, keys in the order docs/schema-mapping.md gives. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** A checked cache hint: a scope is always known. */
export interface CacheHint {
  readonly ttlMs: number;
  readonly scope: 'public' | 'private';
}

/** A checked input schema: the frozen copy that is listed, and its validator. */
export interface RawInputSchema {
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
}

/** A model node while it is being built, before it is handed out as read-only. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type StringFormat = 'uuid' | 'date-time' | 'date' | 'time' | 'uri' | 'email';

/** What a string-typed value becomes when read. */
export type StringAs = 'string' | 'date' | 'url' | 'timespan';

/**
 * A check JSON Schema states exactly, defined once (in records/validator-rules.ts): the keywords listed, the test
 * reading runs on the JSON value, and the text when it fails. A node carries the rules it lists.
 */
export interface ExactRule {
  /** The class-validator metadata it comes from, to tell which rules reading enforces. */
  readonly origin: object;
  readonly keywords: { readonly [keyword: string]: unknown };
  readonly test: (value: unknown) => boolean;
  /** `Expected ...` text when the test fails. */
  readonly expected: string;
  /** A value the rule accepts, tried first when a refusal's example is generated (src/invoke/reading/examples.ts). */
  readonly example?: unknown;
  /** Whether it fits a node; on any other, nothing is listed and class-validator alone checks it. */
  readonly fits: (node: TypeNode) => boolean;
  /** A node that states the rule by itself (`@IsIn` narrowing an enum), used instead of extra keywords. */
  readonly narrow?: (node: TypeNode) => TypeNode | undefined;
  /** Why the rule cannot be listed (a custom constraint's fragment that is not valid 2020-12), checked once. */
  readonly problem?: () => string | undefined;
}

/** A constraint as the schema builder applies it: the user's intent records, or an exact validator rule. */
export type SchemaConstraint = Constraint | { readonly kind: 'rule'; readonly rule: ExactRule; readonly decorator: string };

/** Exact rules a node lists beside its own keywords, checked by its reader after them. */
interface Ruled {
  readonly rules?: readonly ExactRule[];
}

export type TypeNode = BareNode | { readonly kind: 'nullable'; readonly inner: TypeNode };

type BareNode = Ruled &
  (
    | { readonly kind: 'boolean' }
    | { readonly kind: 'number'; readonly minimum?: number; readonly maximum?: number }
    | { readonly kind: 'integer'; readonly minimum: number; readonly maximum: number; readonly bigint: boolean }
    | {
        readonly kind: 'string';
        readonly as: StringAs;
        readonly format?: StringFormat;
        readonly minLength?: number;
        readonly maxLength?: number;
        readonly pattern?: string;
        /** The one value admitted (a discriminator's subtype name), listed as `const`. */
        readonly const?: string;
      }
    | { readonly kind: 'bytes'; readonly as: 'uint8array' | 'buffer' }
    | {
        readonly kind: 'enum';
        /** Member names in declaration order (how source code refers to them: `Unit.Celsius`). */
        readonly names: readonly string[];
        /** The member values, in the same order: what the method receives. */
        readonly values: readonly (string | number)[];
        /**
         * The wire form, in the same order: a string enum's values, else the member names (DESIGN.md
         * section 5). Listed, read, defaulted, written and completed in this form.
         */
        readonly listed: readonly string[];
      }
    | {
        readonly kind: 'array';
        readonly items: TypeNode;
        /** Read into a `Set` (duplicates dropped). */
        readonly set: boolean;
        readonly uniqueItems: boolean;
        readonly minItems?: number;
        readonly maxItems?: number;
      }
    | { readonly kind: 'dictionary'; readonly values: TypeNode; readonly as: 'object' | 'map' }
    | { readonly kind: 'json'; readonly shape: 'any' | 'object' | 'array' }
    | RecordNode
    | DiscriminatedNode
    | StandardNode
  );

export interface RecordNode {
  readonly kind: 'record';
  readonly ctor: Function;
  readonly description?: string;
  readonly properties: readonly PropertyModel[];
}

/**
 * class-transformer's `@Type(() => Base, { discriminator: { property, subTypes } })`: one of the subtypes'
 * closed objects, picked by the value of `property` (its subtype's name). Each subtype's record lists the
 * discriminator first (or where the class declares it) as a required string `const`.
 */
export interface DiscriminatedNode {
  readonly kind: 'discriminated';
  /** The discriminator's name on the plain object (class-transformer reads it as it is, never renamed). */
  readonly property: string;
  /** `keepDiscriminatorProperty`: whether the instance keeps the discriminator. */
  readonly keep: boolean;
  readonly subtypes: readonly { readonly name: string; readonly record: RecordNode }[];
}

/**
 * A Standard Schema object (zod 4, Valibot, ArkType ...; schema/resolve/standard.ts): listed as the library's own
 * JSON Schema, taken once when the tool is defined, and read with the library's `~standard.validate`, whose output
 * value the method receives.
 */
export interface StandardNode {
  readonly kind: 'standard';
  readonly schema: StandardSchemaV1;
  /** `~standard.vendor` (`zod`, `valibot`, `arktype` ...), for messages. */
  readonly vendor: string;
  /** `~standard.jsonSchema.input({ target: 'draft-2020-12' })` as listed: frozen, keys in the library's order, `$schema` dropped. */
  readonly json: JsonSchema;
  /** The library's JSON Schema as given (`$schema` kept), listed where the schema is a tool's whole input. */
  readonly root: JsonSchema;
  /** The output JSON Schema (results), or why the library gave none. */
  readonly output: JsonSchema | { readonly problem: string };
  /** `json` in terms of the model, for the provider profiles and their reading; or why it cannot be. */
  readonly lifted: TypeNode | { readonly problem: string };
  /** `validate(undefined)` succeeds synchronously: a slot of this type may be left out (`.optional()`, `.default()`). */
  readonly absent: boolean;
}

/** Whether a slot of this type may be left out because its Standard Schema accepts `undefined`. */
export function acceptsAbsence(node: TypeNode): boolean {
  return node.kind === 'standard' && node.absent;
}

/** A value written as `default` (strings, numbers, booleans, chars, enums in their listed form). */
export type DefaultValue = { readonly value: unknown };

/** A slot of an object schema: a tool parameter or a record property. */
export interface SlotModel {
  /** The wire name. */
  readonly name: string;
  readonly type: TypeNode;
  readonly description?: string;
  readonly required: boolean;
  /** The value the slot takes when the argument is missing, if one is known. */
  readonly default?: DefaultValue;
  /** Example values (`@ApiProperty({ example })`), plain JSON. */
  readonly examples?: readonly unknown[];
}

export interface PropertyModel extends SlotModel {
  /** The JavaScript property name on the instance. */
  readonly key: string;
  /** `@IsDefined()`: under `skipMissingProperties` the property is still required and refuses `null`. */
  readonly defined?: boolean;
  /** Under `@ValidateIf`: class-validator's condition decides, so a missing or `null` value reaches it. */
  readonly conditional?: boolean;
  /** The class `@Type` builds from the value where no rule looks inside it (no `@ValidateNested`). */
  readonly builds?: Function;
  /** A discriminator class-transformer removes (no `keepDiscriminatorProperty`): read, not set on the instance. */
  readonly dropped?: boolean;
}

export interface ParamModel extends SlotModel {
  /** Position in the method's parameter list. */
  readonly index: number;
  /** The `x-mcp-header` name of a tool argument mirrored into an `Mcp-Param-*` HTTP header. */
  readonly header?: string;
}

/** How a result is turned into a `CallToolResult`. */
export type ResultModel =
  | { readonly kind: 'void' }
  /**
   * Undeclared: detected at run time (content blocks, `CallToolResult`, JSON values). `erased`: the metadata
   * only said `Promise`, `Array`, `Set` or `Map`, so the declared type (what it resolves to, its elements) was
   * erased: no `outputSchema`, no structured result.
   */
  | { readonly kind: 'auto'; readonly erased?: 'Promise' | 'Array' | 'Set' | 'Map' }
  | { readonly kind: 'value'; readonly type: TypeNode };

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolModel {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly params: readonly ParamModel[];
  /** Number of arguments the method takes, context parameters included. */
  readonly arity: number;
  readonly contextIndex?: number;
  readonly signalIndex?: number;
  readonly result: ResultModel;
  readonly annotations?: ToolAnnotations;
  /** MCP Apps: the view that renders the tool (none for a tool only views call) and who may call it. */
  readonly ui?: { readonly resourceUri?: string; readonly visibility: readonly ('model' | 'app')[] };
  /** Whether the tool may (`optional`) or must (`required`) run as a task. */
  readonly task?: 'optional' | 'required';
  /** Whether input is asked by multi-round trip before the task starts (2026-07-28). */
  readonly taskAfterInput?: boolean;
  /** Checked icons (listed from revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** Checked cache hint (2026-07-28). */
  readonly cache?: CacheHint;
  /** A hand-written input schema (quick path): listed as given, arguments validated against it, no `params`. */
  readonly rawInput?: RawInputSchema;
  /** A Standard Schema for the whole input (quick path `input`): an object schema, no `params`. */
  readonly standardInput?: StandardNode;
  /** `Class.method` (or the quick-path name), for messages. */
  readonly where: string;
}

/**
 * A method whose arguments arrive as text (docs/serving.md): a resource or a prompt. Its parameters
 * are text-like, and a nullable one is optional.
 */
export type TextMethodModel = Pick<
  ToolModel,
  'name' | 'title' | 'description' | 'params' | 'arity' | 'contextIndex' | 'signalIndex' | 'where'
>;

/** What a resource or prompt lists besides its name and arguments, and how its arguments complete. */
export interface TextMethodExtras {
  readonly icons?: readonly Icon[];
  readonly cache?: CacheHint;
  /** Completion functions by argument or variable name. */
  readonly completers?: ReadonlyMap<string, Completer>;
}

/** Strips `nullable` wrappers. */
export function unwrap(node: TypeNode): TypeNode {
  return node.kind === 'nullable' ? unwrap(node.inner) : node;
}
