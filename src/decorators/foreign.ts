import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { TransformationType, type TypeMetadata, type TransformMetadata } from 'class-transformer';

/**
 * Reads what class-validator and class-transformer recorded about a class, through their storage objects.
 * This is the only module that touches a foreign metadata store (the lint configuration does not enforce
 * it; keep it so): the rest of the code asks these functions.
 */

export type { ValidationMetadata };

/** class-validator metadata declared on `ctor` itself, in registration order. */
export function validationOf(ctor: Function): readonly ValidationMetadata[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(ctor, '', true, false)
    .filter((m) => m.target === ctor);
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
  const maps = defaultMetadataStorage as unknown as TransformerMaps;
  const names = [
    ...defaultMetadataStorage.getExposedMetadatas(ctor).filter((m) => m.target === ctor).map((m) => m.propertyName),
    ...[...(maps._typeMetadatas?.get(ctor)?.keys() ?? [])],
    ...[...(maps._transformMetadatas?.get(ctor)?.keys() ?? [])],
    ...defaultMetadataStorage.getExcludedMetadatas(ctor).filter((m) => m.target === ctor).map((m) => m.propertyName),
  ];
  return [...new Set(names.filter((n): n is string => typeof n === 'string'))];
}

/** Property names class-validator knows on `ctor` itself, in first-registration order. */
export function validatedPropertiesOf(ctor: Function): readonly string[] {
  return [...new Set(validationOf(ctor).map((m) => m.propertyName))];
}

/** Every property another library knew of `ctor` at this moment. */
export function foreignPropertiesOf(ctor: Function): readonly string[] {
  return [...new Set([...validatedPropertiesOf(ctor), ...transformedPropertiesOf(ctor)])];
}

/** Which way a record crosses the wire: arguments are read `toClass`, results are written `toPlain`. */
export type Direction = 'input' | 'output';

/**
 * `@Expose({ name })` and `@Exclude()` of one property as class-transformer applies them in one direction
 * (inherited too); `toClassOnly` / `toPlainOnly` options limit them to one direction.
 */
export function exposureOf(ctor: Function, key: string, direction: Direction): { readonly name?: string; readonly excluded: boolean } {
  const skip = direction === 'input' ? 'toPlainOnly' : 'toClassOnly';
  const expose = defaultMetadataStorage.findExposeMetadata(ctor, key);
  const exclude = defaultMetadataStorage.findExcludeMetadata(ctor, key);
  return {
    name: expose && expose.options?.[skip] !== true ? expose.options?.name : undefined,
    excluded: exclude !== undefined && exclude.options?.[skip] !== true,
  };
}

/** One `@Transform` function of a property, applied the way class-transformer applies it in `direction`. */
export type PropertyTransform = (value: unknown, obj: object) => unknown;

/** The `@Transform` functions of one property (inherited too) for one direction, in registration order. */
export function transformsOf(ctor: Function, key: string, direction: Direction): readonly PropertyTransform[] {
  const type = direction === 'input' ? TransformationType.PLAIN_TO_CLASS : TransformationType.CLASS_TO_PLAIN;
  return defaultMetadataStorage
    .findTransformMetadatas(ctor, key, type)
    .map((m) => (value: unknown, obj: object) => m.transformFn({ value, key, obj: obj as Record<string, unknown>, type, options: {} }));
}

/** `@Type(() => X)` of one property. */
export function transformerTypeOf(ctor: Function, key: string): Function | undefined {
  const meta = defaultMetadataStorage.findTypeMetadata(ctor, key);
  return meta?.typeFunction ? (meta.typeFunction() as Function) : undefined;
}

/** `@Expose()` / `@Exclude()` on the class itself: class-transformer's strategy for undecorated properties. */
export function strategyOf(ctor: Function): 'excludeAll' | 'exposeAll' | 'none' {
  return defaultMetadataStorage.getStrategy(ctor);
}
