import { UsageTypeError } from '../errors';
import type { ResourceOptions } from './member-options';
import { checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, snapshotted, type MemberDecorator } from './member';

/**
 * Makes an instance method an MCP resource (a URI without variables) or resource template.
 * @example
 * @Resource('weather://{city}/today', { mimeType: 'application/json' })
 * today(city: string): string { ... }
 */
export function Resource(uriTemplate: string, options?: ResourceOptions): MemberDecorator {
  refuseBareUse('Resource', uriTemplate, arguments[1]);
  if (typeof uriTemplate !== 'string' || uriTemplate.length === 0) {
    throw new UsageTypeError(`@Resource() needs a URI or URI template, for example @Resource('notes://{id}').`);
  }
  for (const key of ['name', 'title', 'description', 'mimeType'] as const) checkString('Resource', key, options?.[key]);
  const copied = snapshotted({ ...options }, ['icons', 'annotations', 'cache', 'complete']);
  return memberDecorator({
    kind: 'resource',
    options: { ...copied, scopes: checkPublic('@Resource()', options?.public, checkScopes('@Resource()', options?.scopes)), uriTemplate },
  });
}
