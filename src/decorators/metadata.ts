import 'reflect-metadata';
import type { TypeHint } from './hints';
import type { Completer } from './listing-options';
import type { PromptOptions, ResourceOptions, SkillOptions, ToolOptions } from './member-options';

/**
 * The one module that owns the metadata keys and the only `Reflect.*` calls. Decorators write small
 * immutable records of what the user meant; the schema builder reads them through the typed readers.
 */
const KEY = {
  members: 'onemodelcontext:members',
  params: 'onemodelcontext:params',
  properties: 'onemodelcontext:properties',
  description: 'onemodelcontext:description',
  scopes: 'onemodelcontext:scopes',
  constraintSchema: 'onemodelcontext:constraint-schema',
} as const;

/** A constraint as the user meant it; the schema builder turns it into keywords. */
export type Constraint =
  | { readonly kind: 'range'; readonly min: number; readonly max: number; readonly decorator: string }
  | { readonly kind: 'length'; readonly min?: number; readonly max?: number; readonly decorator: string }
  | { readonly kind: 'pattern'; readonly pattern: string; readonly flags?: string; readonly decorator: string }
  | { readonly kind: 'format'; readonly format: 'email' | 'uri'; readonly decorator: string };

/** The options each member decorator records, by kind (copied and frozen by the decorator). */
export type MemberIntent =
  | { readonly kind: 'tool'; readonly options: ToolOptions }
  | { readonly kind: 'resource'; readonly options: ResourceOptions & { readonly uriTemplate: string } }
  | { readonly kind: 'prompt'; readonly options: PromptOptions }
  | { readonly kind: 'skill'; readonly options: SkillOptions };

/** What one member decorator (`@Tool`, `@Resource`, `@Prompt`, `@Skill`) recorded about one class member. */
export type MemberRecord = MemberIntent & {
  readonly key: string | symbol;
  /** How the decorated member was declared; only `method` is valid. */
  readonly shape: 'method' | 'static' | 'accessor' | 'field';
};

/** The record of one kind of member, such as `MemberRecordOf<'tool'>`. */
export type MemberRecordOf<K extends MemberRecord['kind']> = Extract<MemberRecord, { readonly kind: K }>;

/** What the parameter decorators recorded for one parameter, merged in any order. */
export interface ParamRecord {
  readonly name?: string;
  readonly description?: string;
  readonly type?: TypeHint;
  readonly nullable?: boolean;
  readonly optional?: boolean;
  readonly hasDefault?: boolean;
  readonly default?: unknown;
  /** `@Param({ header })`: the `x-mcp-header` name of a tool argument. */
  readonly header?: string;
  /** `@Complete`: completes a prompt argument or template variable. */
  readonly complete?: Completer;
  readonly constraints: readonly Constraint[];
}

/** What the property decorators recorded for one record property, merged in any order. */
export interface PropertyRecord extends Omit<ParamRecord, 'name' | 'complete' | 'header'> {
  readonly key: string;
  /** Properties other libraries knew of this class when this one was first decorated (for ordering). */
  readonly after: readonly string[];
}

type Ctor = abstract new (...args: never[]) => unknown;

/** Target of a member decorator: a prototype for instance members, the constructor for static ones. */
export function ownerOf(target: object): Function {
  return typeof target === 'function' ? (target as Function) : (target.constructor as Function);
}

/** Classes this package's decorators were applied to, by name: how `SourceClass` finds one that is not exported. */
const decorated = new Map<string, Function[]>();

function noteDecorated(ctor: Function): void {
  if (!ctor.name) return;
  const list = decorated.get(ctor.name);
  if (!list) decorated.set(ctor.name, [ctor]);
  else if (!list.includes(ctor)) list.push(ctor);
}

/** The classes named `name` that a decorator of this package was applied to. */
export function decoratedClassesNamed(name: string): readonly Function[] {
  return decorated.get(name) ?? [];
}

/** The class whose decorator wrote each member record. */
const declaringClasses = new WeakMap<MemberRecord, Function>();

export function addMember(target: object, record: MemberRecord): void {
  const owner = ownerOf(target);
  noteDecorated(owner);
  const list: readonly MemberRecord[] = Reflect.getOwnMetadata(KEY.members, owner) ?? [];
  const frozen = Object.freeze(record);
  declaringClasses.set(frozen, owner);
  Reflect.defineMetadata(KEY.members, Object.freeze([...list, frozen]), owner);
}

/**
 * The class that declared a member record: the one whose prototype holds the member's `design:*` metadata
 * and parameter records (TypeScript writes them where the decorator is, not on a subclass).
 */
export function declaringClassOfRecord(record: MemberRecord): Function | undefined {
  return declaringClasses.get(record);
}

/** Members decorated on `ctor` itself (not inherited), in decoration order. */
export function memberRecordsOf(ctor: Function): readonly MemberRecord[] {
  return Reflect.getOwnMetadata(KEY.members, ctor) ?? [];
}

export function updateParam(target: object, key: string | symbol, index: number, patch: Partial<ParamRecord>): void {
  noteDecorated(ownerOf(target));
  const all: ReadonlyMap<number, ParamRecord> = Reflect.getOwnMetadata(KEY.params, target, key) ?? new Map();
  const before = all.get(index) ?? { constraints: [] };
  const merged = Object.freeze({
    ...before,
    ...patch,
    constraints: Object.freeze([...before.constraints, ...(patch.constraints ?? [])]),
  });
  Reflect.defineMetadata(KEY.params, new Map(all).set(index, merged), target, key);
}

/** The parameter records of one method, keyed by parameter index. */
export function paramRecordsOf(proto: object, key: string | symbol): ReadonlyMap<number, ParamRecord> {
  return Reflect.getOwnMetadata(KEY.params, proto, key) ?? new Map();
}

/**
 * Records a property of a record class. `others` lists the properties other libraries (class-validator,
 * class-transformer) already knew of the class, so the builder can restore declaration order.
 */
export function updateProperty(
  target: object,
  key: string,
  patch: Partial<Omit<PropertyRecord, 'key' | 'after'>>,
  others: () => readonly string[],
): void {
  const owner = ownerOf(target);
  noteDecorated(owner);
  const list: readonly PropertyRecord[] = Reflect.getOwnMetadata(KEY.properties, owner) ?? [];
  const at = list.findIndex((p) => p.key === key);
  const before: PropertyRecord = at >= 0 ? list[at] : { key, after: Object.freeze([...others()]), constraints: [] };
  const merged: PropertyRecord = Object.freeze({
    ...before,
    ...patch,
    key,
    constraints: Object.freeze([...before.constraints, ...(patch.constraints ?? [])]),
  });
  const next = at >= 0 ? list.map((p, i) => (i === at ? merged : p)) : [...list, merged];
  Reflect.defineMetadata(KEY.properties, Object.freeze(next), owner);
}

/** Properties recorded on `ctor` itself, in the order they were first decorated. */
export function propertyRecordsOf(ctor: Function): readonly PropertyRecord[] {
  return Reflect.getOwnMetadata(KEY.properties, ctor) ?? [];
}

export function setDescription(target: object, key: string | symbol | undefined, text: string): void {
  if (key === undefined) Reflect.defineMetadata(KEY.description, text, target);
  else Reflect.defineMetadata(KEY.description, text, target, key);
}

/** `@ConstraintSchema` of a custom class-validator constraint class (a JSON copy of the fragment). */
export interface ConstraintSchemaRecord {
  readonly schema?: { readonly [keyword: string]: unknown };
  readonly description?: string;
}

export function setConstraintSchema(ctor: Function, record: ConstraintSchemaRecord): void {
  Reflect.defineMetadata(KEY.constraintSchema, record, ctor);
}

/** What `@ConstraintSchema` recorded on a constraint class, if anything. */
export function constraintSchemaOf(ctor: Function): ConstraintSchemaRecord | undefined {
  return Reflect.getOwnMetadata(KEY.constraintSchema, ctor);
}

/** `@Scopes` of a class: the default scopes of its members. */
export function setClassScopes(ctor: Function, scopes: readonly string[]): void {
  Reflect.defineMetadata(KEY.scopes, Object.freeze([...scopes]), ctor);
}

/** The `@Scopes` default of a class or the nearest base class that has one. */
export function classScopesOf(ctor: Function): readonly string[] | undefined {
  return Reflect.getMetadata(KEY.scopes, ctor);
}

/** `@Description` of a class (`key` undefined) or a method. */
export function descriptionOf(target: object, key?: string | symbol): string | undefined {
  return key === undefined ? Reflect.getOwnMetadata(KEY.description, target) : Reflect.getOwnMetadata(KEY.description, target, key);
}

/** The TypeScript compiler's `design:*` metadata, `undefined` when the code was compiled without it. */
export function designParamTypes(proto: object, key: string | symbol): readonly unknown[] | undefined {
  return Reflect.getOwnMetadata('design:paramtypes', proto, key);
}

export function designReturnType(proto: object, key: string | symbol): { readonly found: boolean; readonly type: unknown } {
  return {
    found: Reflect.hasOwnMetadata('design:returntype', proto, key),
    type: Reflect.getOwnMetadata('design:returntype', proto, key),
  };
}

export function designType(proto: object, key: string): { readonly found: boolean; readonly type: unknown } {
  return {
    found: Reflect.hasOwnMetadata('design:type', proto, key),
    type: Reflect.getOwnMetadata('design:type', proto, key),
  };
}

export type { Ctor };
