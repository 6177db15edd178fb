import { UsageTypeError } from '../errors';
import { setConstraintSchema, type ConstraintSchemaRecord } from './metadata';
import { isObject, isObjectLike } from '../objects';

/** What a custom class-validator constraint tells the model: a JSON Schema 2020-12 fragment and a description. */
export interface ConstraintSchemaOptions {
  /** Keywords the constraint's meaning implies (`{ pattern: '^[A-Z]{3}$' }`), listed on each property it checks. */
  readonly schema?: { readonly [keyword: string]: unknown };
  /** A sentence for the model, listed as the property's description when the property has none of its own. */
  readonly description?: string;
}

/**
 * Lets a custom class-validator constraint speak in the listing: on its `@ValidatorConstraint` class, the
 * JSON Schema fragment and description listed on every property it checks (`@Validate(Cls)`, or a
 * `registerDecorator` whose `validator` is the class). class-validator still runs the constraint; the fragment
 * only tells the model, and must be valid JSON Schema 2020-12 (checked when a tool using it is added).
 * @example
 * @ValidatorConstraint({ name: 'currency' })
 * @ConstraintSchema({ schema: { pattern: '^[A-Z]{3}$' }, description: 'An ISO 4217 currency code' })
 * class IsCurrency implements ValidatorConstraintInterface { ... }
 */
export function ConstraintSchema(options: ConstraintSchemaOptions): ClassDecorator {
  if (!isObjectLike(options)) throw new UsageTypeError('@ConstraintSchema() takes { schema, description }.');
  const { schema, description } = options;
  if (schema !== undefined && !isObject(schema)) {
    throw new UsageTypeError('@ConstraintSchema({ schema }) takes a JSON Schema object, for example { pattern: "^[A-Z]{3}$" }.');
  }
  if (description !== undefined && typeof description !== 'string')
    throw new UsageTypeError('@ConstraintSchema({ description }) takes a string.');
  const record: ConstraintSchemaRecord = Object.freeze({ schema: schema && JSON.parse(JSON.stringify(schema)), description });
  return (target) => setConstraintSchema(target, record);
}
