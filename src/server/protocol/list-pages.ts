import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { CacheHint } from '../../schema/model';
import type { Catalog } from '../catalog/catalog';
import { forRevision } from '../revisions';
import { callerOf } from './handler-context';
import { pageOf, type ListShape } from './rules';
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

/** One page of a list (`shape`, rules.ts) of `items` as its revision is sent them, with `nextCursor` when more follow, and on 2026-07-28 the page's cache hint. */
export function listed<T extends object>(
  server: Server,
  ctx: ServerContext,
  catalog: Catalog,
  settings: ProtocolSettings,
  shape: ListShape<T>,
  items: readonly T[],
  params: unknown,
) {
  const caller = callerOf(server, ctx);
  const cursor = (params as { cursor?: unknown } | undefined)?.cursor;
  const result = pageOf(settings.pager, shape.list, shape.field, forRevision(items, caller.protocolVersion), shape.keyOf, cursor);
  if (!caller.modern) return result;
  const hints = (result[shape.field] as readonly T[]).map((item) => catalog.cacheHintOf(shape.kind, shape.keyOf(item)) ?? settings.cache);
  return withCacheFields(result, mostCareful(hints, settings.cache), true);
}
