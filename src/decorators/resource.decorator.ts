import type { CacheOptions, Completer, Icon, ResourceAnnotations } from './listing-options';
import { checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, snapshotted, type MemberDecorator } from './member';

/** Options of {@link Resource}. */
export interface ResourceOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Default `text/plain` for text results. */
  readonly mimeType?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /** Over HTTP with `auth: { allowAnonymous: true }`: listed to and served to callers without a token (it needs no scope). */
  readonly public?: boolean;
  /** Icons a client can show next to the resource (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** Size of the content in bytes, if known (static resources only: a template has no one size). */
  readonly size?: number;
  /** Audience, priority and last change of the content. */
  readonly annotations?: ResourceAnnotations;
  /** How long a client may reuse what `resources/read` returns and a list that holds this entry (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
  /** Completion functions by template variable (the same as `@Complete(fn)` on the parameter). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

/**
 * Makes an instance method an MCP resource (a URI without variables) or resource template.
 * @example
 * @Resource('weather://{city}/today', { mimeType: 'application/json' })
 * today(city: string): string { ... }
 */
export function Resource(uriTemplate: string, options?: ResourceOptions): MemberDecorator {
  refuseBareUse('Resource', uriTemplate, arguments[1]);
  if (typeof uriTemplate !== 'string' || uriTemplate.length === 0) {
    throw new TypeError(`@Resource() needs a URI or URI template, for example @Resource('notes://{id}').`);
  }
  for (const key of ['name', 'title', 'description', 'mimeType'] as const) checkString('Resource', key, options?.[key]);
  const copied = snapshotted({ ...options }, ['icons', 'annotations', 'cache', 'complete']);
  return memberDecorator({ kind: 'resource', options: { ...copied, scopes: checkPublic('@Resource()', options?.public, checkScopes('@Resource()', options?.scopes)), uriTemplate } });
}
