import { UsageTypeError } from '../errors';
import type { Completer } from './listing-options';
import { updateParam } from './metadata';

/**
 * Completes a prompt argument or resource-template variable with a function of what was typed so far
 * (`completion/complete`). The function runs with the instance as `this`.
 * @example
 * @Prompt()
 * planTrip(@Complete((typed) => ['Paris', 'Prague', 'Porto'].filter((c) => c.startsWith(typed))) city: string) { ... }
 */
export function Complete(completer: Completer): ParameterDecorator {
  if (typeof completer !== 'function') {
    throw new UsageTypeError(
      `@Complete() takes a function of the typed value, for example @Complete((typed) => cities.filter((c) => c.startsWith(typed))).`,
    );
  }
  return (target, key, index) => {
    if (key === undefined) throw new UsageTypeError('@Complete() belongs on a method parameter, not a constructor parameter.');
    updateParam(target, key, index, { complete: completer });
  };
}
