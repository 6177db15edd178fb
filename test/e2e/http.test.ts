import { request } from 'node:http';
import { fixtureServer } from './fixture/src/fixture';
import { modernRequest } from '../support/modern-http';

/**
 * Streamable HTTP as a raw peer sees it: sessions for 2025-era clients (GET, DELETE, unknown session 404),
 * stateless 2026-07-28 requests, DNS-rebinding protection on loopback (403), and wrong, missing, hostile
 * or oversized input.
 */
jest.setTimeout(60_000);

const server = fixtureServer();
let port: number;

beforeAll(async () => {
  port = (await server.serveHttp({ port: 0, maxRequestBodySize: 64 * 1024 })).port;
});

afterAll(() => server.close());

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(method: string, headers: Record<string, string>, body?: string | Buffer, path = '/mcp'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      // A GET opens an SSE stream that stays open: the status and headers are what the test needs.
      if (method === 'GET') {
        resolve({ status: res.statusCode!, headers: res.headers, body: '' });
        req.destroy();
      }
    });
    req.on('error', (error) => (method === 'GET' ? undefined : reject(error)));
    req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const initialize = (id = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

/** The JSON-RPC messages of a JSON or SSE response body. */
function messages(reply: Reply): Record<string, unknown>[] {
  if (String(reply.headers['content-type']).startsWith('text/event-stream')) {
    return reply.body
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  return reply.body ? [JSON.parse(reply.body)] : [];
}

async function openSession(): Promise<string> {
  const reply = await send('POST', JSON_HEADERS, initialize());
  expect(reply.status).toBe(200);
  const sessionId = reply.headers['mcp-session-id'] as string;
  await send(
    'POST',
    { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  return sessionId;
}

describe('sessions for 2025-era clients', () => {
  it('answers initialize with a session id', async () => {
    expect(typeof (await openSession())).toBe('string');
  });

  it('serves requests within the session', async () => {
    const sessionId = await openSession();
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } }),
    );
    expect(messages(reply)).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '3' }] } }]);
  });

  it('opens the standalone SSE stream on GET', async () => {
    const sessionId = await openSession();
    const reply = await send('GET', { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
  });

  it('ends the session on DELETE, after which the id is unknown (404)', async () => {
    const sessionId = await openSession();
    const headers = { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await send('DELETE', headers)).status).toBe(200);
    const reply = await send('POST', headers, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect(reply.status).toBe(404);
  });

  it('answers an unknown Mcp-Session-Id with 404', async () => {
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-session-id': 'no-such-session' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('refuses a 2025-era request without a session with 400', async () => {
    const reply = await send('POST', JSON_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(reply.status).toBe(400);
  });
});

describe('stateless 2026-07-28 requests', () => {
  const modern = (method: string, params: Record<string, unknown>) => modernRequest(`http://127.0.0.1:${port}/mcp`, method, params);

  it('answers server/discover without a session', async () => {
    const reply = await modern('server/discover', {});
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    expect(messages(reply)[0]).toMatchObject({ result: { supportedVersions: ['2026-07-28'] } });
  });

  it('calls a tool without a session', async () => {
    const reply = await modern('tools/call', { name: 'add', arguments: { a: 20, b: 22 } });
    expect(messages(reply)[0]).toMatchObject({ result: { content: [{ type: 'text', text: '42' }] } });
  });
});

describe('DNS-rebinding protection on loopback', () => {
  it('refuses a foreign Host with 403', async () => {
    const reply = await send('POST', { ...JSON_HEADERS, host: 'evil.example.com' }, initialize());
    expect(reply.status).toBe(403);
  });

  it('refuses a foreign Origin with 403', async () => {
    const reply = await send('POST', { ...JSON_HEADERS, origin: 'http://evil.example.com' }, initialize());
    expect(reply.status).toBe(403);
  });

  it('accepts a localhost Origin', async () => {
    const reply = await send('POST', { ...JSON_HEADERS, origin: 'http://localhost:5173' }, initialize());
    expect(reply.status).toBe(200);
  });
});

describe('wrong, missing, hostile and oversized input', () => {
  it('answers a body over the limit with 413 without reading it all', async () => {
    const huge = Buffer.alloc(256 * 1024, 'a');
    const reply = await send('POST', JSON_HEADERS, huge);
    expect(reply.status).toBe(413);
  });

  it('answers a body that is not JSON with 400 and -32700', async () => {
    const reply = await send('POST', JSON_HEADERS, '{"jsonrpc":"2.0",');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('answers a body nested 5,000 levels deep with 400 and a JSON-RPC error (not 500)', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const reply = await send('POST', JSON_HEADERS, initialize().replace('"capabilities":{}', `"capabilities":{},"x":${deep}`));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Bad Request: the request body nests objects and arrays more than 1000 levels deep.' },
      id: null,
    });
  });

  it('accepts a body nested 1,000 levels deep, and a deeper one inside a string', async () => {
    const deepString = JSON.stringify('['.repeat(5000));
    const reply = await send('POST', JSON_HEADERS, initialize().replace('"capabilities":{}', `"capabilities":{},"x":${deepString}`));
    expect(reply.status).toBe(200);
    const nested = `${'['.repeat(996)}${']'.repeat(996)}`; // four levels are the message's own
    const again = await send('POST', JSON_HEADERS, initialize().replace('"capabilities":{}', `"capabilities":{"x":${nested}}`));
    expect(again.status).toBe(200);
  });

  it('hands the parsed message to the SDK without serialising it again', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'add',
        arguments: { a: 1, b: 2 },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const stringify = jest.spyOn(JSON, 'stringify');
    let serialisedRequests: unknown[] = [];
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' },
      body,
    ).finally(() => {
      serialisedRequests = stringify.mock.calls.filter(([value]) => (value as { method?: unknown } | null)?.method === 'tools/call');
      stringify.mockRestore();
    });
    expect(messages(reply)[0]).toMatchObject({ result: { content: [{ type: 'text', text: '3' }] } });
    expect(serialisedRequests).toEqual([]);
  });

  it('answers an unknown method with -32601', async () => {
    const sessionId = await openSession();
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/explode', params: {} }),
    );
    expect(messages(reply)[0]).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  it('answers hostile arguments with an isError result that echoes nothing internal', async () => {
    const sessionId = await openSession();
    const args = { a: 1, b: 2, __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } };
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":${JSON.stringify(args).replace('{', '{"__proto__":{"polluted":true},')}}}`,
    );
    const [message] = messages(reply);
    expect(message).toMatchObject({ id: 4, result: { isError: true } });
    // The SDK's own request validation copies the arguments and may drop `__proto__` before we see it.
    expect((message.result as { content: { text: string }[] }).content[0].text).toMatch(
      /^Argument '(__proto__|constructor)' is not valid\. There is no such argument\.$/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a tools/call without a name with -32602', async () => {
    const sessionId = await openSession();
    const reply = await send(
      'POST',
      { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } }),
    );
    expect(messages(reply)[0]).toMatchObject({ id: 5, error: { code: -32602 } });
  });

  it('answers another path with 404', async () => {
    expect((await send('POST', JSON_HEADERS, initialize(), '/other')).status).toBe(404);
  });
});
