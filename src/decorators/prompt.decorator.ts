import type { PromptOptions } from './member-options';
import { checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, snapshotted, type MemberDecorator } from './member';

/**
 * Makes an instance method an MCP prompt; its parameters are the prompt arguments.
 * @example
 * @Prompt({ description: 'Plan a trip' })
 * planTrip(city: string): string { return `Plan a trip to ${city}.`; }
 */
export function Prompt(nameOrOptions?: string | PromptOptions): MemberDecorator {
  refuseBareUse('Prompt', nameOrOptions, arguments[1]);
  const options: PromptOptions =
    typeof nameOrOptions === 'string' ? { name: nameOrOptions } : snapshotted({ ...nameOrOptions }, ['icons', 'cache', 'complete']);
  for (const key of ['name', 'title', 'description'] as const) checkString('Prompt', key, options[key]);
  return memberDecorator({
    kind: 'prompt',
    options: { ...options, scopes: checkPublic('@Prompt()', options.public, checkScopes('@Prompt()', options.scopes)) },
  });
}
