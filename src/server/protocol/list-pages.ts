import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { CacheHint } from '../../schema/model';
import type { Catalog, CatalogKind } from '../catalog/catalog';
import type { ListName } from '../catalog/pages';
import { forRevision } from '../revisions';
import { callerOf } from './handler-context';
import { pageOf } from './rules';
import type { ProtocolSettings } from './settings';

/** The most careful of several cache hints: the shortest time, `private` when any is; `fallback` for none. */
export function mostCareful(hints: readonly CacheHint[], fallback: CacheHint): CacheHint {
  if (hints.length === 0) return fallback;
  const ttlMs = Math.min(...hints.map((h) => h.ttlMs));
  return { ttlMs, scope: hints.every((h) => h.scope === 'public') ? 'public' : 'private' };
}

/** A 2026-07-28 cacheable result with its `ttlMs` and `cacheScope` (earlier revisions have neither). */
export function withCacheFields<R extends object>(result: R, hint: CacheHint, modern: boolean): R {
  return modern ? { ...result, ttlMs: hint.ttlMs, cacheScope: hint.scope } : result;
}

/** What one list request lists: the entries as its revision is sent them, which page, and their cache hint. */
export interface ListRequest<T> {
  readonly list: ListName;
  readonly field: string;
  readonly kind: CatalogKind;
  readonly items: readonly T[];
  readonly keyOf: (item: T) => string;
  readonly params: unknown;
}

/** One page of a list, with `nextCursor` when more follow, and on 2026-07-28 the page's cache hint. */
export function listed<T extends object>(
  server: Server,
  ctx: ServerContext,
  catalog: Catalog,
  settings: ProtocolSettings,
  request: ListRequest<T>,
) {
  const caller = callerOf(server, ctx);
  const items = forRevision(request.items, caller.protocolVersion);
  const cursor = (request.params as { cursor?: unknown } | undefined)?.cursor;
  const result = pageOf(settings.pager, request.list, request.field, items, request.keyOf, cursor);
  if (!caller.modern) return result;
  const hints = (result[request.field] as readonly T[]).map(
    (item) => catalog.cacheHintOf(request.kind, request.keyOf(item)) ?? settings.cache,
  );
  return withCacheFields(result, mostCareful(hints, settings.cache), true);
}
