import { UsageError } from '../errors';
import { ToolError } from '../invoke/calling/errors';
import type { Interceptor, InterceptorContext } from '../invoke/calling/interceptors';
import { callerKey } from './caller';

/** One counted call: how many calls its key made in the current window, and when the window ends (ms since epoch). */
export interface RateLimitHit {
  readonly count: number;
  readonly resetAt: number;
}

/**
 * Where `rateLimit` counts: a window per key. Instances of one deployment share one store (`RedisRateLimitStore`
 * of `onemodelcontext/redis`), so that a caller's limit holds across them.
 */
export interface RateLimitStore {
  /** Counts one call of `key` in the window of `windowMs` that holds now. */
  hit(key: string, windowMs: number): Promise<RateLimitHit> | RateLimitHit;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Calls a key may make per window. */
  readonly limit: number;
  readonly windowMs: number;
  /** The key a call counts under; default {@link callerKey}. `undefined` leaves the call unlimited. */
  readonly key?: (call: InterceptorContext) => string | undefined;
  /** Default: a {@link MemoryRateLimitStore} of this server's process. */
  readonly store?: RateLimitStore;
}

/**
 * Counts in this process's memory, in fixed windows. Ended windows are dropped as the store grows, so keys that
 * stop calling do not stay.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, windowMs: number): RateLimitHit {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetAt: window.resetAt };
  }

  /** How many keys have a window (ended or not) held in memory. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}

function checkedPositiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`rateLimit({ ${name} }) takes a positive whole number; got ${String(value)}.`);
  }
  return value;
}

/**
 * At most `limit` calls per `windowMs` for each caller (or whatever `key` says), in fixed windows. A call over the
 * limit is refused with a `ToolError` the model can act on (when to try again), and never reaches the method. A
 * store that fails (Redis down) fails the call as the method's failure would: masked for the client, logged with
 * its error for the developer.
 * @example server.use(rateLimit({ limit: 30, windowMs: 60_000 }));
 */
export function rateLimit(options: RateLimitOptions): Interceptor {
  const limit = checkedPositiveInteger(options?.limit, 'limit');
  const windowMs = checkedPositiveInteger(options.windowMs, 'windowMs');
  const keyOf = options.key ?? callerKey;
  const store = options.store ?? new MemoryRateLimitStore();
  return async (call, next) => {
    const key = keyOf(call);
    if (key === undefined) return next();
    const { count, resetAt } = await store.hit(key, windowMs);
    if (count > limit) {
      const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      throw new ToolError(`Too many calls: at most ${limit} per ${formatWindow(windowMs)}. Try again in ${seconds} s.`);
    }
    return next();
  };
}

function formatWindow(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
