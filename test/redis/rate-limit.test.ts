import Redis from 'ioredis';
import { McpServer, rateLimit, StoreError, Tool, type LogDetails } from '../../src';
import { RedisRateLimitStore } from '../../src/redis';
import { startRedis, type Redis as RedisServer } from '../e2e/support/cluster';

/**
 * `rateLimit` over a real redis-server (issue 41): two servers sharing one `RedisRateLimitStore` hold one caller to one
 * limit; a paused Redis, a Redis that answers something else, and a stopped one each fail the call masked, with a
 * log line naming the reason, and never hang it.
 */
jest.setTimeout(30_000);

class Echo {
  @Tool() echo(text: string): string {
    return text;
  }
}

function serverWith(store: RedisRateLimitStore, errors: { message: string; details?: LogDetails }[] = []) {
  return new McpServer(
    { name: 'rl', version: '1' },
    { logger: { error: (message, details) => void errors.push({ message, details }), warn() {}, info() {}, debug() {} } },
  )
    .add(new Echo())
    .use(rateLimit({ limit: 3, windowMs: 60_000, store }));
}

const text = (result: { readonly content: readonly unknown[] }) => (result.content[0] as { text: string }).text;

describe('RedisRateLimitStore', () => {
  let redis: RedisServer;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ port: redis.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });

  it('holds one caller to one limit across two instances', async () => {
    const prefix = `t1:${Date.now()}:`;
    const a = serverWith(new RedisRateLimitStore({ client, prefix }));
    const b = serverWith(new RedisRateLimitStore({ client, prefix }));
    const answers = [];
    for (const server of [a, b, a, b]) answers.push(await server.callTool('echo', { text: 'hi' }));
    expect(answers.slice(0, 3).map(text)).toEqual(['hi', 'hi', 'hi']);
    expect(answers[3].isError).toBe(true);
    expect(text(answers[3])).toMatch(/^Too many calls: at most 3 per minute\. Try again in (60|59) s\.$/);
    expect(await client.pttl(`${prefix}local`)).toBeGreaterThan(58_000);
  });

  it('gives a counter left without an expiry one', async () => {
    const prefix = `t2:${Date.now()}:`;
    await client.set(`${prefix}local`, '0');
    const hit = await new RedisRateLimitStore({ client, prefix }).hit('local', 5_000);
    expect(hit.count).toBe(1);
    expect(await client.pttl(`${prefix}local`)).toBeGreaterThan(4_000);
  });

  it('fails the call, masked and logged, when Redis answers with something else than a count', async () => {
    const prefix = `t3:${Date.now()}:`;
    await client.set(`${prefix}local`, 'not a number');
    const errors: { message: string; details?: LogDetails }[] = [];
    const result = await serverWith(new RedisRateLimitStore({ client, prefix }), errors).callTool('echo', { text: 'hi' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Tool 'echo' failed: StoreError: Redis could not count the rate limit: /),
    ]);
    expect((errors[0].details as { error: unknown }).error).toBeInstanceOf(StoreError);
  });

  it('fails the call within its bound, masked and logged, while Redis is paused', async () => {
    const errors: { message: string; details?: LogDetails }[] = [];
    const server = serverWith(new RedisRateLimitStore({ client, prefix: `t4:${Date.now()}:`, timeoutMs: 200 }), errors);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      const result = await server.callTool('echo', { text: 'hi' });
      expect(result).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
      expect(errors.map((e) => e.message)).toEqual(["Tool 'echo' failed: StoreError: Redis did not count the rate limit within 200 ms."]);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
  });

  it('fails the call, masked and logged, when Redis is gone', async () => {
    const gone = await startRedis();
    const lonely = new Redis({ port: gone.port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null });
    await lonely.ping();
    await gone.stop();
    const errors: { message: string; details?: LogDetails }[] = [];
    const result = await serverWith(new RedisRateLimitStore({ client: lonely, timeoutMs: 2_000 }), errors).callTool('echo', { text: 'hi' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Tool 'echo' failed: StoreError: Redis could not count the rate limit: /),
    ]);
    lonely.disconnect();
  });
});
