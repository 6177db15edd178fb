import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { MetadataStorage as ValidatorStorage } from 'class-validator/types/metadata/MetadataStorage';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import type { TypeMetadata, TransformMetadata } from 'class-transformer';
import { isObjectLike } from '../objects';

/**
 * Reads what class-validator and class-transformer recorded about a class, through their storage objects.
 * This is the only module that touches a foreign metadata store (the lint configuration does not enforce
 * it; keep it so): the rest of the code asks these functions.
 *
 * Neither library is loaded here (class-validator with validator.js and libphonenumber-js costs about a
 * hundred milliseconds of start-up): a class can only carry their metadata if the application loaded them to
 * decorate it, and then their stores already exist. class-validator keeps its store on the global object;
 * class-transformer keeps its in its `cjs/storage` module, found in the module cache. A store that does not
 * exist holds nothing, exactly as a freshly loaded empty one would.
 */

export type { ValidationMetadata };

/** class-validator's store, when the library has been loaded (it creates the store on first use). */
function validatorStorage(): ValidatorStorage | undefined {
  return (globalThis as { classValidatorMetadataStorage?: ValidatorStorage }).classValidatorMetadataStorage;
}

let transformerStoragePath: string | null | undefined;

/** class-transformer's default store, when the application has loaded the library. */
function transformerStorage(): TransformerStorage | undefined {
  if (transformerStoragePath === undefined) {
    try {
      transformerStoragePath = require.resolve('class-transformer/cjs/storage');
    } catch {
      transformerStoragePath = null;
    }
  }
  if (transformerStoragePath === null) return undefined;
  const loaded = require.cache[transformerStoragePath]?.exports as { defaultMetadataStorage?: TransformerStorage } | undefined;
  return loaded?.defaultMetadataStorage;
}

/** class-transformer's `TransformationType` members (a numeric enum; not imported, so the library is not loaded). */
const PLAIN_TO_CLASS = 0;
const CLASS_TO_PLAIN = 1;

/** class-validator metadata declared on `ctor` itself, in registration order. */
export function validationOf(ctor: Function): readonly ValidationMetadata[] {
  const storage = validatorStorage();
  if (!storage) return [];
  return storage.getTargetValidationMetadatas(ctor, '', true, false).filter((m) => m.target === ctor);
}

/**
 * class-transformer has no public listing of the properties that carry `@Type` or `@Transform`, so their
 * private maps are read here, and only here (optional: a later version without them lists fewer names).
 */
interface TransformerMaps {
  readonly _typeMetadatas?: Map<Function, Map<string, TypeMetadata>>;
  readonly _transformMetadatas?: Map<Function, Map<string, TransformMetadata[]>>;
}

/** Property names class-transformer knows on `ctor` itself (expose, exclude, type, transform). */
export function transformedPropertiesOf(ctor: Function): readonly string[] {
  const storage = transformerStorage();
  if (!storage) return [];
  const maps = storage as unknown as TransformerMaps;
  const names = [
    ...storage
      .getExposedMetadatas(ctor)
      .filter((m) => m.target === ctor)
      .map((m) => m.propertyName),
    ...[...(maps._typeMetadatas?.get(ctor)?.keys() ?? [])],
    ...[...(maps._transformMetadatas?.get(ctor)?.keys() ?? [])],
    ...storage
      .getExcludedMetadatas(ctor)
      .filter((m) => m.target === ctor)
      .map((m) => m.propertyName),
  ];
  return [...new Set(names.filter((n): n is string => typeof n === 'string'))];
}

/** Property names class-validator knows on `ctor` itself, in first-registration order. */
export function validatedPropertiesOf(ctor: Function): readonly string[] {
  return [...new Set(validationOf(ctor).map((m) => m.propertyName))];
}

/**
 * Whether a class-validator rule is asynchronous: a constraint class registered `@ValidatorConstraint({ async: true })`
 * (or `registerDecorator({ async: true, ... })`), which `validateSync` skips.
 */
export function isAsyncRule(m: ValidationMetadata): boolean {
  if (m.type !== 'customValidation' || typeof m.constraintCls !== 'function') return false;
  return (
    validatorStorage()
      ?.getTargetValidatorConstraints(m.constraintCls)
      .some((c) => c.async) === true
  );
}

/** Every property another library knew of `ctor` at this moment. */
export function foreignPropertiesOf(ctor: Function): readonly string[] {
  return mergedOrder([...new Set([...validatedPropertiesOf(ctor), ...transformedPropertiesOf(ctor)])], documentedPropertiesOf(ctor));
}

/**
 * Both lists in declaration order, merged: a name only `later` knows goes just before the next name of
 * `later` the result already holds (each library lists properties top to bottom).
 */
function mergedOrder(first: readonly string[], later: readonly string[]): readonly string[] {
  const out = [...first];
  for (let i = 0; i < later.length; i++) {
    if (out.includes(later[i])) continue;
    const next = later.slice(i + 1).find((k) => out.includes(k));
    if (next === undefined) out.push(later[i]);
    else out.splice(out.indexOf(next), 0, later[i]);
  }
  return out;
}

/** @nestjs/swagger's metadata keys (its `DECORATORS` constants; read, never imported). */
const SWAGGER_PROPERTIES = 'swagger/apiModelPropertiesArray';
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';

/** The constructors of the type names @nestjs/swagger records (an enum's `type` is `'string'` or `'number'`). */
const SWAGGER_TYPES: Readonly<Record<string, Function>> = { string: String, number: Number, integer: Number, boolean: Boolean };

/**
 * Property names `@ApiProperty` / `@ApiPropertyOptional` recorded on `ctor` itself, in order. A subclass's
 * own list starts with a copy of its base's (the decorator appends to the inherited list), so a name counts
 * only where its property metadata is the class's own: else the base's property would be read as the
 * subclass's, without the base's class-validator rules.
 */
export function documentedPropertiesOf(ctor: Function): readonly string[] {
  const names: unknown = Reflect.getOwnMetadata(SWAGGER_PROPERTIES, ctor.prototype);
  if (!Array.isArray(names)) return [];
  return names
    .filter((n): n is string => typeof n === 'string' && n.startsWith(':'))
    .map((n) => n.slice(1))
    .filter((key) => Reflect.hasOwnMetadata(SWAGGER_PROPERTY, ctor.prototype, key));
}

/** What `@ApiProperty` says of one property, as far as the listing uses it. */
export interface ApiPropertyFacts {
  readonly description?: string;
  readonly example?: unknown;
  /** The enum's values, as @nestjs/swagger resolved them. */
  readonly enum?: readonly unknown[];
  readonly required?: boolean;
  readonly nullable?: boolean;
  /** The constructor @nestjs/swagger recorded (the design type where it decorated; kept by its mapped types). */
  readonly type?: Function;
}

/** `@ApiProperty` of one property (inherited too, as @nestjs/swagger reads it), when the package recorded one. */
export function apiPropertyOf(ctor: Function, key: string): ApiPropertyFacts | undefined {
  const m: unknown = Reflect.getMetadata(SWAGGER_PROPERTY, ctor.prototype, key);
  if (!isObjectLike(m)) return undefined;
  const o = m as Record<string, unknown>;
  return {
    description: typeof o.description === 'string' ? o.description : undefined,
    example: o.example,
    // `@ApiProperty({ enum, isArray: true })` keeps the values on `items`.
    enum: Array.isArray(o.enum)
      ? o.enum
      : Array.isArray((o.items as { enum?: unknown } | undefined)?.enum)
        ? (o.items as { enum: unknown[] }).enum
        : undefined,
    required: typeof o.required === 'boolean' ? o.required : undefined,
    nullable: typeof o.nullable === 'boolean' ? o.nullable : undefined,
    type: typeof o.type === 'function' ? o.type : typeof o.type === 'string' && o.isArray !== true ? SWAGGER_TYPES[o.type] : undefined,
  };
}

/** Which way a record crosses the wire: arguments are read `toClass`, results are written `toPlain`. */
export type Direction = 'input' | 'output';

/**
 * `@Expose({ name })` and `@Exclude()` of one property as class-transformer applies them in one direction
 * (inherited too); `toClassOnly` / `toPlainOnly` options limit them to one direction.
 */
export function exposureOf(ctor: Function, key: string, direction: Direction): { readonly name?: string; readonly excluded: boolean } {
  const skip = direction === 'input' ? 'toPlainOnly' : 'toClassOnly';
  const storage = transformerStorage();
  const expose = storage?.findExposeMetadata(ctor, key);
  const exclude = storage?.findExcludeMetadata(ctor, key);
  return {
    name: expose && expose.options?.[skip] !== true ? expose.options?.name : undefined,
    excluded: exclude !== undefined && exclude.options?.[skip] !== true,
  };
}

/** One `@Transform` function of a property, applied the way class-transformer applies it in `direction`. */
export type PropertyTransform = (value: unknown, obj: object) => unknown;

/** The `@Transform` functions of one property (inherited too) for one direction, in registration order. */
export function transformsOf(ctor: Function, key: string, direction: Direction): readonly PropertyTransform[] {
  const storage = transformerStorage();
  if (!storage) return [];
  const type = direction === 'input' ? PLAIN_TO_CLASS : CLASS_TO_PLAIN;
  return storage
    .findTransformMetadatas(ctor, key, type)
    .map((m) => (value: unknown, obj: object) => m.transformFn({ value, key, obj: obj as Record<string, unknown>, type, options: {} }));
}

/** `@Type(() => X)` of one property. */
export function transformerTypeOf(ctor: Function, key: string): Function | undefined {
  const meta = transformerStorage()?.findTypeMetadata(ctor, key);
  return meta?.typeFunction ? (meta.typeFunction() as Function) : undefined;
}

/** What `@Type(() => Base, { discriminator, keepDiscriminatorProperty })` says of one property. */
export interface Discriminator {
  readonly property: string;
  readonly subTypes: readonly { readonly name: unknown; readonly value: unknown }[];
  readonly keep: boolean;
}

/** The discriminator of one property's `@Type` (inherited too), when it has one as class-transformer uses it. */
export function discriminatorOf(ctor: Function, key: string): Discriminator | undefined {
  const options = transformerStorage()?.findTypeMetadata(ctor, key)?.options;
  const d = options?.discriminator;
  if (!d || !d.property || !d.subTypes) return undefined;
  return { property: d.property, subTypes: d.subTypes, keep: options.keepDiscriminatorProperty === true };
}

/** `@Expose()` / `@Exclude()` on the class itself: class-transformer's strategy for undecorated properties. */
export function strategyOf(ctor: Function): 'excludeAll' | 'exposeAll' | 'none' {
  return transformerStorage()?.getStrategy(ctor) ?? 'none';
}
