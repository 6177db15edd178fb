import { checkScopes, checkString, memberDecorator, refuseBareUse, type MemberDecorator } from './member';

/** Options of {@link Prompt}. */
export interface PromptOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
}

/**
 * Makes an instance method an MCP prompt; its parameters are the prompt arguments.
 * @example
 * @Prompt({ description: 'Plan a trip' })
 * planTrip(city: string): string { return `Plan a trip to ${city}.`; }
 */
export function Prompt(nameOrOptions?: string | PromptOptions): MemberDecorator {
  refuseBareUse('Prompt', nameOrOptions, arguments[1]);
  const options: PromptOptions = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : { ...nameOrOptions };
  for (const key of ['name', 'title', 'description'] as const) checkString('Prompt', key, options[key]);
  return memberDecorator({ kind: 'prompt', options: { ...options, scopes: checkScopes('@Prompt()', options.scopes) } });
}
