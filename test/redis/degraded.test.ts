import Redis from 'ioredis';
import { McpServer, Tool, type McpLogger } from '../../src';
import { connectRedis, type RedisStores } from '../../src/redis';
import { startRedis, type Redis as RedisServer } from '../e2e/support/cluster';
import { LEGACY_HEADERS as HEADERS, open, openSession, readAll } from '../support/raw-http';

/**
 * Degraded mode against a real redis-server (issue 25): with Redis paused (SIGSTOP: connections stay open, nothing
 * answers) or stopped, a 2025-era client gets a prompt 503 with Retry-After or a "temporarily unable" JSON-RPC
 * error, never a parse error or ioredis' own text, and the developer gets one log line per outage; a resume whose
 * events a Redis restart lost is answered as lost.
 */
jest.setTimeout(60_000);

class Jobs {
  @Tool({ task: 'optional', returns: String })
  async job(): Promise<string> {
    return 'done';
  }
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function recorder() {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  const logger: McpLogger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { lines, logger };
}

/** What a client gets back, whole, and how long it took (reported, not asserted). */
async function post(port: number, body: string, sessionId?: string) {
  const started = Date.now();
  const stream = await open(port, 'POST', { ...HEADERS, ...(sessionId && { 'mcp-session-id': sessionId }) }, body);
  const text = await readAll(stream);
  return {
    status: stream.response.statusCode!,
    sessionId: stream.response.headers['mcp-session-id'] as string | undefined,
    retryAfter: stream.response.headers['retry-after'],
    text,
    ms: Date.now() - started,
  };
}

describe('with Redis down', () => {
  let redis: RedisServer;
  let client: Redis;
  let stores: RedisStores;
  let server: McpServer;
  let port: number;
  const log = recorder();

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: true });
    stores = await connectRedis({ client, prefix: 'degraded:', logger: false });
    server = new McpServer(
      { name: 'degraded', version: '1' },
      { taskStore: stores.taskStore, logger: log.logger, storeTimeoutMs: 300 },
    ).add(new Jobs());
    port = (await server.serveHttp({ port: 0, eventStore: stores.eventStore, storeTimeoutMs: 300 })).port;
  });

  afterAll(async () => {
    await server.close();
    await stores.close();
    client.disconnect();
    await redis.stop();
  });

  it('answers a paused Redis within the bound: the initialize that found out is refused 503 (issue 37: it opened), and so are the next ones', async () => {
    const before = await openSession(port);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      // The first request to find the store hanging waits out the bound (the ping before a session opens), then 503.
      const first = await post(port, INITIALIZE);
      const second = await post(port, INITIALIZE);
      const call = await post(
        port,
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'job', arguments: {}, task: {} } }),
        before,
      );
      process.stderr.write(`[figure] Redis paused: first initialize ${first.ms} ms, next ${second.ms} ms, task call ${call.ms} ms\n`);
      expect([first.status, first.retryAfter, first.sessionId, JSON.parse(first.text)]).toEqual([
        503,
        '1',
        undefined,
        {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message:
              'Service Unavailable: The server is temporarily unable to use its event store (it did not answer in time); try again shortly.',
          },
          id: null,
        },
      ]);
      expect([second.status, second.retryAfter, JSON.parse(second.text)]).toEqual([
        503,
        '1',
        {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: 'Service Unavailable: The server is temporarily unable to use its event store (it is unavailable); try again shortly.',
          },
          id: null,
        },
      ]);
      const answer = /^data: (\{.*"id":2.*\})$/m.exec(call.text)?.[1] ?? call.text;
      expect(JSON.parse(answer)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32000,
          message: 'The server is temporarily unable to use its task store (it did not answer in time); try again shortly.',
          data: { retryAfterSeconds: 1 },
        },
      });
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    const logged = log.lines.filter((l) => l.includes('store'));
    expect(logged).toEqual([
      'error: The event store could not open a new session (no answer within 300 ms); treating it as unavailable for 1 s at a time until it answers again.',
      'error: The task store could not create a task (no answer within 300 ms); treating it as unavailable for 1 s at a time until it answers again.',
    ]);
  });

  it('opens new sessions again within about a second of a pause ending (issue 37: 4 to 8 s), and the outage did not end the server', async () => {
    process.kill(redis.pid, 'SIGSTOP');
    const during = await post(port, INITIALIZE);
    process.kill(redis.pid, 'SIGCONT');
    const resumedAt = Date.now();
    let opened = await post(port, INITIALIZE);
    let tries = 1;
    for (; tries < 40 && opened.status !== 200; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      opened = await post(port, INITIALIZE);
    }
    process.stderr.write(
      `[figure] Redis paused then resumed: a new session opened ${Date.now() - resumedAt} ms after the pause ended (${tries} tries)\n`,
    );
    expect([during.status, during.retryAfter]).toEqual([503, '1']);
    expect(opened.status).toBe(200);
    // Measured, not timed: the cooldown (1 s) bounds how many refusals a client meets after the store is back.
    expect(tries).toBeLessThan(20);
  });

  it('refuses a new session at once while the connection to Redis is down, and names events a restart lost as lost', async () => {
    // The previous test's outage is remembered for its cooldown: new sessions open again once it ended.
    let opened = await post(port, INITIALIZE);
    for (let i = 0; i < 40 && opened.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      opened = await post(port, INITIALIZE);
    }
    // The initialize answer's stream opens with a priming event whose id Redis keeps.
    const sessionId = opened.sessionId!;
    const lastEventId = /^id: (\S+)$/m.exec(opened.text)![1];
    expect(lastEventId).toMatch(/\|\d+-\d+$/);
    await redis.stop();
    await new Promise<void>((resolve) => (client.status === 'ready' ? client.once('close', () => resolve()) : resolve()));
    const refused = await post(port, INITIALIZE);
    process.stderr.write(`[figure] Redis stopped: initialize refused in ${refused.ms} ms\n`);
    expect([refused.status, refused.retryAfter, refused.text]).toEqual([
      503,
      '1',
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: The server is temporarily unable to use its event store (it is unavailable); try again shortly."},"id":null}',
    ]);
    expect(refused.text).not.toMatch(/ioredis|ECONNREFUSED|Connection is closed/);
    redis = await startRedis(redis.port);
    await new Promise<void>((resolve) => (client.status === 'ready' ? resolve() : client.once('ready', () => resolve())));
    const resumed = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
      'last-event-id': lastEventId,
    });
    expect([resumed.response.statusCode, await readAll(resumed)]).toEqual([
      400,
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Events lost: the events after this Last-Event-ID are no longer kept (they expired, or the event store lost them); send the request again, or open a new GET stream without Last-Event-ID."},"id":null}',
    ]);
  });
});
