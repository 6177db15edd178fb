import { connect, type Socket } from 'node:net';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, type AuthInfo, type AuthorizeItem, type LogDetails, type McpLogger } from 'onemodelcontext';

/**
 * Issue 37, items 5 and 6: time bounds against a policy that never answers (`auth.authorizeTimeoutMs`) and against
 * slow clients (`serveHttp({ headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress })`), on a real node:http
 * server, with raw sockets where a client misbehaves and the SDK clients where a call is made. Nothing here
 * measures time: each test waits on the event the bound causes (an answer, a socket's close).
 */
jest.setTimeout(60_000);

const TOKEN = 'good-token';
const CALLER: AuthInfo = { subject: 'ann', clientId: 'app', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, claims: {} };
const auth = (extra: Record<string, unknown> = {}) => ({
  issuer: 'https://auth.example.com',
  verify: async (token: string) => (token === TOKEN ? CALLER : undefined),
  ...extra,
});

interface Entry {
  readonly level: 'error' | 'warn';
  readonly message: string;
  readonly event: string;
}

function capturing(): { logger: McpLogger; entries: Entry[] } {
  const entries: Entry[] = [];
  const logger: McpLogger = {
    error: (message: string, details?: LogDetails) => void entries.push({ level: 'error', message, event: String(details?.event) }),
    warn: (message: string, details?: LogDetails) => void entries.push({ level: 'warn', message, event: String(details?.event) }),
    info: () => {},
    debug: () => {},
  };
  return { logger, entries };
}

const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

async function v2Client(url: string): Promise<V2Client> {
  const client = new V2Client({ name: 'bounds', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new V2Http(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

async function v1Client(url: string): Promise<V1Client> {
  const client = new V1Client({ name: 'bounds', version: '1' });
  await client.connect(new V1Http(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

/** A raw connection and what it received; `closed` settles once the server (or the client) closed it. */
interface Raw {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  received(): string;
}

async function rawConnection(port: number): Promise<Raw> {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  // A connection the server destroys may surface as ECONNRESET; its close is what the tests wait on.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, received: () => text };
}

/** Writes `chunk` every 50 ms until the socket closes: a client that never finishes what it sends. */
function trickle(raw: Raw, chunk: string): void {
  const timer = setInterval(() => {
    if (!raw.socket.destroyed) raw.socket.write(chunk);
  }, 50);
  void raw.closed.then(() => clearInterval(timer));
}

describe('auth.authorizeTimeoutMs: a policy that never answers', () => {
  const { logger, entries } = capturing();
  const asked: string[] = [];
  const server = new McpServer({ name: 'policy', version: '1' }, { logger });
  server.tool('open_tool', { description: 'Always allowed.' }, () => 'open');
  server.tool('hanging_tool', { description: 'The policy never answers about it.' }, () => 'should not run');
  server.tool('sync_tool', { description: 'Allowed synchronously.' }, () => 'sync');
  let url: string;
  let fastUrl: string;

  beforeAll(async () => {
    // An async policy that answers at once for two tools and never for the third, with a small bound.
    const authorize = (_caller: AuthInfo | undefined, item: AuthorizeItem): boolean | Promise<boolean> => {
      asked.push(item.name);
      if (item.name === 'hanging_tool') return new Promise<boolean>(() => {});
      if (item.name === 'sync_tool') return true;
      return Promise.resolve(true);
    };
    ({ url } = await server.serveHttp({ port: 0, auth: auth({ authorize, authorizeTimeoutMs: 200 }) }));
    // The same kind of policy, every answer fast, under the default bound.
    ({ url: fastUrl } = await server.serveHttp({ port: 0, path: '/fast', auth: auth({ authorize: async () => true }) }));
  });

  afterAll(() => server.close());

  it('answers tools/list without the item, refuses its call as an unknown tool, and warns once naming it', async () => {
    const modern = await v2Client(url);
    expect(names((await modern.listTools()).tools)).toEqual(['open_tool', 'sync_tool']);
    await expect(modern.callTool({ name: 'hanging_tool', arguments: {} })).rejects.toThrow('Unknown tool: hanging_tool');
    expect((await modern.callTool({ name: 'open_tool', arguments: {} })).content).toEqual([{ type: 'text', text: 'open' }]);
    await modern.close();

    // The 2025 era, with a session: the same listing and the same refusal.
    const legacy = await v1Client(url);
    expect(names((await legacy.listTools()).tools)).toEqual(['open_tool', 'sync_tool']);
    await expect(legacy.callTool({ name: 'hanging_tool', arguments: {} })).rejects.toThrow(/Unknown tool: hanging_tool/);
    await legacy.close();

    expect(asked.filter((n) => n === 'hanging_tool').length).toBeGreaterThanOrEqual(4);
    // One warning for the item, however often it was late within the minute; the refused call logs nothing else.
    const warnings = entries.filter((e) => e.level === 'warn');
    expect(warnings).toEqual([
      {
        level: 'warn',
        event: 'auth.failed',
        message:
          "auth.authorize did not answer within 200 ms (auth.authorizeTimeoutMs) about the tool 'hanging_tool'; refused until it answers in time",
      },
    ]);
    expect(warnings[0].message).not.toContain(TOKEN);
    expect(entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('a policy that answers in time lists and calls as before', async () => {
    const client = await v2Client(fastUrl);
    expect(names((await client.listTools()).tools)).toEqual(['open_tool', 'hanging_tool', 'sync_tool']);
    expect((await client.callTool({ name: 'hanging_tool', arguments: {} })).content).toEqual([{ type: 'text', text: 'should not run' }]);
    await client.close();
  });

  it.each([0, -1, Number.NaN, Infinity, '5000', 2 ** 31])('refuses authorizeTimeoutMs %p at start-up', async (value) => {
    const other = new McpServer({ name: 'bad', version: '1' }, { logger: false });
    await expect(other.serveHttp({ port: 0, auth: auth({ authorizeTimeoutMs: value }) })).rejects.toThrow(
      new TypeError(
        `auth.authorizeTimeoutMs takes a number of milliseconds above 0 (at most 2147483647), for example { authorizeTimeoutMs: 5000 }; got ${String(value)}.`,
      ),
    );
    expect(() =>
      other.createHttpHandler({ auth: { ...auth({ authorizeTimeoutMs: value }), resource: 'https://mcp.example.com/mcp' } }),
    ).toThrow(TypeError);
    await other.close();
  });
});

describe('serveHttp: headersTimeoutMs and requestTimeoutMs', () => {
  let release: () => void = () => {};
  let entered: () => void = () => {};
  const server = new McpServer({ name: 'slow-clients', version: '1' }, { logger: false });
  server.tool('wait_for_release', { description: 'Answers once the test lets it.' }, async () => {
    entered();
    await new Promise<void>((resolve) => (release = resolve));
    return 'released';
  });
  let port: number;
  let url: string;

  beforeAll(async () => {
    ({ port, url } = await server.serveHttp({ port: 0, headersTimeoutMs: 200, requestTimeoutMs: 300 }));
  });

  afterAll(() => server.close());

  it('closes a connection whose headers trickle in, answering 408', async () => {
    const raw = await rawConnection(port);
    raw.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    trickle(raw, 'X-Slow: 1\r\n');
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('closes a connection whose body trickles in, answering 408', async () => {
    const raw = await trickledBody();
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  /** A POST whose headers are complete and whose body never is. */
  async function trickledBody(): Promise<Raw> {
    const raw = await rawConnection(port);
    raw.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`,
    );
    trickle(raw, ' ');
    return raw;
  }

  /**
   * A call whose tool runs past requestTimeoutMs still answers: the tool is held until a request that started after
   * the call was cut by the bound, so the call's own request had been open longer than the bound by then.
   */
  it.each([
    ['2026-07-28, stateless', () => v2Client(url)],
    ['2025-11-25, a session and an SSE response', () => v1Client(url)],
  ])('a tool call that runs longer than requestTimeoutMs still answers (%s)', async (_era, open) => {
    const client = await open();
    const inTool = new Promise<void>((resolve) => (entered = resolve));
    const answer = client.callTool({ name: 'wait_for_release', arguments: {} });
    await inTool;
    const cut = await trickledBody();
    await cut.closed;
    expect(cut.received()).toMatch(/^HTTP\/1\.1 408 /);
    release();
    expect((await answer).content).toEqual([{ type: 'text', text: 'released' }]);
    await client.close();
  });

  it.each([
    [
      { headersTimeoutMs: 0 },
      'headersTimeoutMs takes a whole number of milliseconds from 1, for example { headersTimeoutMs: 10000 }; got 0.',
    ],
    [
      { headersTimeoutMs: 1.5 },
      'headersTimeoutMs takes a whole number of milliseconds from 1, for example { headersTimeoutMs: 10000 }; got 1.5.',
    ],
    [
      { requestTimeoutMs: Number.NaN },
      'requestTimeoutMs takes a whole number of milliseconds from 1, for example { requestTimeoutMs: 30000 }; got NaN.',
    ],
    [
      { requestTimeoutMs: Infinity },
      'requestTimeoutMs takes a whole number of milliseconds from 1, for example { requestTimeoutMs: 30000 }; got Infinity.',
    ],
    [
      { headersTimeoutMs: 5000, requestTimeoutMs: 1000 },
      'headersTimeoutMs (5000) must not be above requestTimeoutMs (1000): the headers are part of the request.',
    ],
    [
      { maxConnectionsPerAddress: 0 },
      'maxConnectionsPerAddress takes a whole number from 1 (or Infinity for no cap), for example { maxConnectionsPerAddress: 64 }; got 0.',
    ],
    [
      { maxConnectionsPerAddress: 2.5 },
      'maxConnectionsPerAddress takes a whole number from 1 (or Infinity for no cap), for example { maxConnectionsPerAddress: 64 }; got 2.5.',
    ],
    [
      { maxConnectionsPerAddress: '64' },
      'maxConnectionsPerAddress takes a whole number from 1 (or Infinity for no cap), for example { maxConnectionsPerAddress: 64 }; got 64.',
    ],
  ])('refuses %p at start-up', async (options, message) => {
    const other = new McpServer({ name: 'bad', version: '1' }, { logger: false });
    await expect(other.serveHttp({ port: 0, ...(options as object) })).rejects.toThrow(new TypeError(message));
    await other.close();
  });
});

describe('serveHttp: maxConnectionsPerAddress', () => {
  const CAP = 3;
  const { logger, entries } = capturing();
  const server = new McpServer({ name: 'capped', version: '1' }, { logger });
  let port: number;

  beforeAll(async () => {
    ({ port } = await server.serveHttp({ port: 0, health: true, maxConnectionsPerAddress: CAP }));
  });

  afterAll(() => server.close());

  /** A connection that asks for `/livez`: `answered` once the server answered it, `refused` once it was closed first. */
  async function attempt(): Promise<{ raw: Raw; outcome: 'answered' | 'refused' }> {
    const raw = await rawConnection(port);
    const answered = new Promise<'answered'>((resolve) => {
      const onData = () => {
        if (raw.received().includes('\r\n\r\n')) {
          raw.socket.off('data', onData);
          resolve('answered');
        }
      };
      raw.socket.on('data', onData);
    });
    raw.socket.write(`GET /livez HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const outcome = await Promise.race([
      answered,
      raw.closed.then(() => (raw.received() === '' ? ('refused' as const) : ('answered' as const))),
    ]);
    return { raw, outcome };
  }

  it('closes the connections past the cap at once, warns once, and accepts new ones after some close', async () => {
    const first = await Promise.all(Array.from({ length: CAP + 3 }, () => attempt()));
    const answered = first.filter((a) => a.outcome === 'answered');
    const refused = first.filter((a) => a.outcome === 'refused');
    expect(answered.length).toBe(CAP);
    expect(refused.length).toBe(3);
    for (const a of answered) expect(a.raw.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const a of refused) await a.raw.closed;
    // The accepted ones are still open: nothing closed them.
    for (const a of answered) expect(a.raw.socket.destroyed).toBe(false);
    expect(entries.filter((e) => e.event === 'connection.refused')).toEqual([
      {
        level: 'warn',
        event: 'connection.refused',
        message: `127.0.0.1 has ${CAP} connections open, as many as maxConnectionsPerAddress allows; its further connections are closed at once`,
      },
    ]);

    // Two accepted connections end; two new ones are then let in (the server counts a close once it has seen it).
    for (const a of answered.slice(0, 2)) {
      a.raw.socket.end();
      await a.raw.closed;
    }
    const again: Awaited<ReturnType<typeof attempt>>[] = [];
    for (let tries = 0; tries < 50 && again.length < 2; tries++) {
      const next = await attempt();
      if (next.outcome === 'answered') again.push(next);
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(again.map((a) => a.outcome)).toEqual(['answered', 'answered']);
    // The cap holds again: one more is refused.
    expect((await attempt()).outcome).toBe('refused');
    for (const a of [...answered, ...again]) a.raw.socket.destroy();
  });
});
