import { Agent, request } from 'node:http';
import { McpServer, stackOf, type LogDetails, type McpLogger } from '../../../src';
import { LEGACY_HEADERS as HEADERS, openSession } from '../../support/raw-http';

/**
 * A client's mistakes cannot flood the server's log (issue 25): 10,000 malformed requests of four kinds make one
 * debug line per kind, without a stack or anything the client wrote, while a fault of ours keeps its stack.
 */
jest.setTimeout(120_000);

/**
 * The once-a-minute window is read from `Date.now()`: held still here, so that a run slowed by a loaded machine
 * past a minute still sees every request inside one window (it would log a second line per kind, correctly). Only
 * `Date` is faked; the server's timers and I/O run for real.
 */
beforeAll(() => {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
});
afterAll(() => jest.useRealTimers());

interface Entry {
  readonly level: keyof McpLogger;
  readonly message: string;
  readonly details?: LogDetails;
}

describe('10,000 malformed requests', () => {
  const entries: Entry[] = [];
  const keep = (level: keyof McpLogger) => (message: string, details?: LogDetails) => void entries.push({ level, message, details });
  const server = new McpServer(
    { name: 'flood', version: '1' },
    { logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') } },
  ).tool('ping', {}, () => 'pong');
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let port: number;

  beforeAll(async () => {
    port = (await server.serveHttp({ port: 0 })).port;
  });

  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  function send(headers: Record<string, string>, body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { host: `127.0.0.1:${port}`, ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('make one log line per kind, at debug, without a stack', async () => {
    const sessionId = await openSession(port);
    entries.length = 0;
    const session = { ...HEADERS, 'mcp-session-id': sessionId };
    const kinds = [
      () => send(session, '{"not":"json-rpc","secret":"<script>"}'),
      () => send({ ...session, accept: 'text/plain' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
      () => send({ ...session, 'content-type': 'text/plain' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
      () => send({ ...session, 'mcp-protocol-version': '1999-01-01' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 10_000; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, j) => kinds[(i + j) % kinds.length]()));
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    process.stderr.write(`[figure] log lines for 10,000 malformed requests: ${entries.length}\n`);
    expect([...statuses].filter(([status]) => status < 400 || status >= 500)).toEqual([]);
    expect(entries.map(({ level, message, details }) => ({ level, message, details }))).toEqual([
      {
        level: 'debug',
        message: "Refused a client's request: invalid-json-rpc-body (more of this kind within a minute are not logged)",
        details: { event: 'request.refused' },
      },
      {
        level: 'debug',
        message: "Refused a client's request: Not Acceptable (more of this kind within a minute are not logged)",
        details: { event: 'request.refused' },
      },
      {
        level: 'debug',
        message: "Refused a client's request: Unsupported Media Type (more of this kind within a minute are not logged)",
        details: { event: 'request.refused' },
      },
      {
        level: 'debug',
        message: "Refused a client's request: Bad Request: Unsupported protocol version (more of this kind within a minute are not logged)",
        details: { event: 'request.refused' },
      },
    ]);
  });

  it('keeps the stack of a fault of ours, with paths relative to the working directory', () => {
    const stack = stackOf(new Error('ours', { cause: new TypeError('deeper') }));
    expect(stack.split('\n')[1]).toMatch(/^ {4}at .*\(test\/server\/http\/log-flood\.test\.ts:\d+:\d+\)$/);
    expect(stack).not.toContain(process.cwd());
    expect(stack).toContain('Caused by: TypeError: deeper');
  });
});
