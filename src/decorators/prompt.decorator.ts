import type { CacheOptions, Completer, Icon } from './listing-options';
import { checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, snapshotted, type MemberDecorator } from './member';

/** Options of {@link Prompt}. */
export interface PromptOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and served to callers without a token (it needs no scope). */
  readonly public?: boolean;
  /** Icons a client can show next to the prompt (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** How long a client may reuse a `prompts/list` that holds this prompt (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
  /** Completion functions by argument name (the same as `@Complete(fn)` on the parameter). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/**
 * Makes an instance method an MCP prompt; its parameters are the prompt arguments.
 * @example
 * @Prompt({ description: 'Plan a trip' })
 * planTrip(city: string): string { return `Plan a trip to ${city}.`; }
 */
export function Prompt(nameOrOptions?: string | PromptOptions): MemberDecorator {
  refuseBareUse('Prompt', nameOrOptions, arguments[1]);
  const options: PromptOptions = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : snapshotted({ ...nameOrOptions }, ['icons', 'cache', 'complete']);
  for (const key of ['name', 'title', 'description'] as const) checkString('Prompt', key, options[key]);
  return memberDecorator({ kind: 'prompt', options: { ...options, scopes: checkPublic('@Prompt()', options.public, checkScopes('@Prompt()', options.scopes)) } });
}
