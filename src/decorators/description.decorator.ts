import { UsageTypeError } from '../errors';
import { setDescription } from './metadata';
import { paramOrProperty } from './target';

/**
 * Describes a tool (method), a parameter, a record property or a record class.
 * @example
 * @Tool() @Description('Gets the forecast')
 * getForecast(@Description('City name') city: string) { ... }
 */
export function Description(text: string): ClassDecorator & MethodDecorator & ParameterDecorator & PropertyDecorator {
  if (typeof text !== 'string') throw new UsageTypeError(`@Description() takes a string, got ${typeof text}.`);
  const onParamOrProperty = paramOrProperty('Description', { description: text });
  return ((target: object, key?: string | symbol, indexOrDescriptor?: number | PropertyDescriptor) => {
    if (key === undefined && typeof indexOrDescriptor !== 'number') return setDescription(target, undefined, text);
    // Not isObjectLike: this tells a descriptor from a parameter index or `undefined`, the decorator's own union.
    if (typeof indexOrDescriptor === 'object' && typeof indexOrDescriptor.value === 'function') {
      return setDescription(target, key, text);
    }
    onParamOrProperty(target, key, indexOrDescriptor);
  }) as ClassDecorator & MethodDecorator & ParameterDecorator & PropertyDecorator;
}
