import { checkScopes, checkString, memberDecorator, refuseBareUse, type MemberDecorator } from './member';

/** Options of {@link Resource}. */
export interface ResourceOptions {
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Default `text/plain` for text results. */
  readonly mimeType?: string;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
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
  return memberDecorator({ kind: 'resource', options: { ...options, scopes: checkScopes('@Resource()', options?.scopes), uriTemplate } });
}
