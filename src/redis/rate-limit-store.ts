import type Redis from 'ioredis';
import { StoreError, type RateLimitHit, type RateLimitStore } from '../index';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  readonly client: Redis;
  /** Prefix of the counters' keys; every instance of one deployment uses the same. Default `onemodelcontext:rate:`. */
  readonly prefix?: string;
  /** How long a count may take before the call fails (masked, and logged by the server). Default 1000 ms. */
  readonly timeoutMs?: number;
}

/**
 * One fixed window per key: the first call of a window starts its expiry, and a counter left without one (written
 * by anything else) gets it. Atomic in Redis, so instances counting at once never lose a call.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/**
 * `rateLimit`'s counts in Redis, shared by every instance of a deployment, so a caller's limit holds whichever
 * instance it reaches. Redis that does not answer within `timeoutMs`, or answers with something else than a count,
 * fails the call (`StoreError`): masked for the client, logged with its reason by the server.
 * @example server.use(rateLimit({ limit: 60, windowMs: 60_000, store: new RedisRateLimitStore({ client: redis }) }));
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly prefix: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: RedisRateLimitStoreOptions) {
    this.prefix = options.prefix ?? 'onemodelcontext:rate:';
    this.timeoutMs = options.timeoutMs ?? 1000;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreError(`Redis did not count the rate limit within ${this.timeoutMs} ms.`)), this.timeoutMs);
    });
    try {
      const answer = await Promise.race([this.options.client.eval(HIT, 1, this.prefix + key, windowMs), late]);
      if (!Array.isArray(answer) || !Number.isSafeInteger(answer[0]) || !Number.isSafeInteger(answer[1])) {
        throw new StoreError('Redis answered the rate limit count with something else than a count.');
      }
      return { count: answer[0] as number, resetAt: Date.now() + (answer[1] as number) };
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`Redis could not count the rate limit: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
