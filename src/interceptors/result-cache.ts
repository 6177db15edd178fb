import { UsageError } from '../errors';
import type { Interceptor, InterceptorContext } from '../invoke/calling/interceptors';
import { callerKey } from './caller';

/** Options of {@link resultCache}. */
export interface ResultCacheOptions {
  /** How long a value is answered from the cache. */
  readonly ttlMs: number;
  /** Values kept at most; the least recently used goes first. Default 1000. */
  readonly maxEntries?: number;
  /**
   * The key a call's value is cached under; `undefined` does not cache it. Default: the item (kind and name), the
   * caller ({@link callerKey}: one caller never gets another's value) and the read arguments.
   */
  readonly key?: (call: InterceptorContext) => string | undefined;
}

/**
 * The arguments as one text: equal arguments give equal texts. Sets and maps are written as their entries (JSON
 * would write every one as `{}`), bigints with their `n`.
 */
export function argumentsKey(args: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(args, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Set) return { $set: [...value] };
    if (value instanceof Map) return { $map: [...value] };
    return value;
  });
}

const defaultKey = (call: InterceptorContext) => `${call.kind} ${call.name} ${callerKey(call)} ${argumentsKey(call.args)}`;

/**
 * Answers a call from memory when the same caller made the same call within `ttlMs`: the method's value is kept
 * (what it returned, before it is written as a result) and written again for each hit. Only values are kept; a
 * call that throws is not cached. Concurrent equal calls each run until one value is kept.
 * @example server.use(resultCache({ ttlMs: 30_000, key: (call) => (call.name === 'forecast' ? argumentsKey(call.args) : undefined) }));
 */
export function resultCache(options: ResultCacheOptions): Interceptor {
  const ttlMs = options?.ttlMs;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1) {
    throw new UsageError(`resultCache({ ttlMs }) takes a positive whole number of milliseconds; got ${String(ttlMs)}.`);
  }
  const maxEntries = options.maxEntries ?? 1000;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new UsageError(`resultCache({ maxEntries }) takes a positive whole number; got ${String(maxEntries)}.`);
  }
  const keyOf = options.key ?? defaultKey;
  // A Map keeps insertion order: re-inserting on a hit makes its first entry the least recently used.
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  return async (call, next) => {
    const key = keyOf(call);
    if (key === undefined) return next();
    const now = Date.now();
    const kept = entries.get(key);
    if (kept) {
      entries.delete(key);
      if (kept.expiresAt > now) {
        entries.set(key, kept);
        return kept.value;
      }
    }
    const value = await next();
    entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return value;
  };
}
