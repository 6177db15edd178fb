import { UsageTypeError } from '../errors';
import { foreignPropertiesOf } from './foreign';
import { ownerOf, updateParam, updateProperty, type ParamRecord } from './metadata';

/** A decorator usable on a method parameter or a record property. */
export type ParamOrPropertyDecorator = (target: object, key: string | symbol | undefined, index?: number | PropertyDescriptor) => void;

/** Applies one patch to a parameter record (when given an index) or to a property record. */
export function paramOrProperty(decorator: string, patch: Partial<Omit<ParamRecord, 'name'>>): ParamOrPropertyDecorator {
  const copy = Object.freeze({ ...patch });
  return (target, key, index) => {
    if (key === undefined && typeof index === 'number') {
      throw new UsageTypeError(
        `@${decorator}() on a constructor parameter of ${ownerOf(target).name}: decorate a method parameter or a property.`,
      );
    }
    if (typeof index === 'number') return updateParam(target, key as string | symbol, index, copy);
    if (typeof key !== 'string') {
      throw new UsageTypeError(`@${decorator}() on ${String(key)} of ${ownerOf(target).name}: record properties need string names.`);
    }
    if (typeof target === 'function') {
      throw new UsageTypeError(`@${decorator}() on static ${target.name}.${key}: record properties are instance properties.`);
    }
    updateProperty(target, key, copy, () => foreignPropertiesOf(ownerOf(target)));
  };
}

/** What the constraint decorators return: usable on a parameter or a property. */
export type ParamOrProperty = ParameterDecorator & PropertyDecorator;

export function checkNumber(decorator: string, what: string, value: unknown): void {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new UsageTypeError(`@${decorator}(): ${what} must be a number, got ${String(value)}.`);
  }
}
