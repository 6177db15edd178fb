import { request } from 'node:http';
import { McpServer } from '../../../src';
import { LEGACY_HEADERS as HEADERS, openSession } from '../../support/raw-http';

/**
 * Strict where the protocol is strict (issue 25): JSON-RPC batches refused where the revision removed them
 * (2025-06-18 on), a batch holding only `initialize` included, and on a session without `MCP-Protocol-Version` the
 * revision it negotiated (the spec assumes 2025-03-26 only when there is no other way to know); 405 with `Allow` for methods the endpoint does not
 * serve; a body that is not valid UTF-8 refused with a parse error instead of being silently repaired.
 */
jest.setTimeout(60_000);

function send(
  port: number,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; allow?: string; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('strictness', () => {
  const server = new McpServer({ name: 'strict', version: '1' }, { logger: false })
    .tool('ping', {}, () => 'pong')
    .tool('tick', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 1);
      return 'ticked';
    });
  let port: number;

  beforeAll(async () => {
    port = (await server.serveHttp({ port: 0 })).port;
  });

  afterAll(() => server.close());

  it.each(['2025-06-18', '2025-11-25'])('refuses a batch holding only initialize for %s', async (revision) => {
    const reply = await send(port, 'POST', { ...HEADERS, 'mcp-protocol-version': revision }, JSON.stringify([initialize(revision)]));
    expect([reply.status, reply.body]).toEqual([
      400,
      `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: protocol revision ${revision} does not allow JSON-RPC batches (removed in 2025-06-18); send one message per request."},"id":null}`,
    ]);
  });

  it('refuses a batch in a 2025-11-25 session', async () => {
    const sessionId = await openSession(port);
    const batch = [
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ];
    const reply = await send(port, 'POST', { ...HEADERS, 'mcp-session-id': sessionId }, JSON.stringify(batch));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.message).toBe(
      'Invalid Request: protocol revision 2025-11-25 does not allow JSON-RPC batches (removed in 2025-06-18); send one message per request.',
    );
  });

  /** Opens a session of `revision` with its own headers, as a client of that revision does. */
  async function sessionOf(revision: string): Promise<string> {
    const headers = { ...HEADERS, 'mcp-protocol-version': revision };
    const init = await send(port, 'POST', headers, JSON.stringify(initialize(revision)));
    expect(init.body).toContain(`"protocolVersion":"${revision}"`);
    const sessionId = /"mcp-session-id":"([^"]+)"/.exec(JSON.stringify(init.headers))![1];
    expect(
      (
        await send(
          port,
          'POST',
          { ...headers, 'mcp-session-id': sessionId },
          JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        )
      ).status,
    ).toBe(202);
    return sessionId;
  }
  const pings = JSON.stringify([
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ]);
  const { 'mcp-protocol-version': _version, ...headerless } = HEADERS;

  it.each(['2025-06-18', '2025-11-25'])(
    'refuses a batch without MCP-Protocol-Version on a %s session: the negotiated revision counts',
    async (revision) => {
      const sessionId = await sessionOf(revision);
      const reply = await send(port, 'POST', { ...headerless, 'mcp-session-id': sessionId }, pings);
      expect([reply.status, reply.body]).toEqual([
        400,
        `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: protocol revision ${revision} does not allow JSON-RPC batches (removed in 2025-06-18); send one message per request."},"id":null}`,
      ]);
    },
  );

  it('answers a batch without MCP-Protocol-Version on a 2025-03-26 session', async () => {
    const sessionId = await sessionOf('2025-03-26');
    const reply = await send(port, 'POST', { ...headerless, 'mcp-session-id': sessionId }, pings);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('{"result":{},"jsonrpc":"2.0","id":2}');
    expect(reply.body).toContain('{"result":{},"jsonrpc":"2.0","id":3}');
  });

  it("primes the stream of a request without MCP-Protocol-Version on a 2025-11-25 session, as the session's revision does", async () => {
    const sessionId = await sessionOf('2025-11-25');
    const tick = JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'tick', _meta: { progressToken: 4 } } });
    const reply = await send(port, 'POST', { ...headerless, 'mcp-session-id': sessionId }, tick);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatch(/^id: \S+\nretry: 1000\ndata: \n\n/);
    expect(reply.body).toContain('"text":"ticked"');
  });

  it('still answers a 2025-03-26 batch', async () => {
    const reply = await send(
      port,
      'POST',
      { ...HEADERS, 'mcp-protocol-version': '2025-03-26' },
      JSON.stringify([initialize('2025-03-26')]),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"protocolVersion":"2025-03-26"');
  });

  it.each(['HEAD', 'TRACE', 'OPTIONS', 'PUT', 'PATCH'])('answers %s with 405 and Allow', async (method) => {
    const reply = await send(port, method, {});
    expect([reply.status, reply.allow]).toEqual([405, 'GET, POST, DELETE']);
  });

  it('refuses a body that is not valid UTF-8 with a parse error', async () => {
    const head = Buffer.from(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"',
    );
    const tail = Buffer.from('","version":"1"}}}');
    const reply = await send(port, 'POST', HEADERS, Buffer.concat([head, Buffer.from([0xc3, 0x28]), tail]));
    expect([reply.status, reply.body]).toEqual([
      400,
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the request body is not valid UTF-8."},"id":null}',
    ]);
  });

  it('takes a request without Accept in both eras', async () => {
    const { accept: _omitted, ...withoutAccept } = HEADERS;
    const legacy = await send(port, 'POST', withoutAccept, JSON.stringify(initialize('2025-11-25')));
    expect([legacy.status, legacy.body.includes('"protocolVersion":"2025-11-25"')]).toEqual([200, true]);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await send(
      port,
      'POST',
      { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ping' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {}, _meta: meta } }),
    );
    expect([modern.status, modern.body.includes('pong')]).toEqual([200, true]);
  });
});

describe('a result larger than maxResultBytes', () => {
  const logged: string[] = [];
  const server = new McpServer(
    { name: 'big', version: '1' },
    {
      maxResultBytes: 1000,
      logger: { error: (m: string) => void logged.push(m), warn: () => undefined, info: () => undefined, debug: () => undefined },
    },
  )
    .tool('small', {}, () => 'x'.repeat(1000))
    .tool('large', {}, () => 'x'.repeat(1001));
  let port: number;

  beforeAll(async () => {
    port = (await server.serveHttp({ port: 0 })).port;
  });

  afterAll(() => server.close());

  it('is answered with an error naming the limit, and logged; one at the limit is sent', async () => {
    const sessionId = await openSession(port);
    const call = (id: number, name: string) =>
      send(
        port,
        'POST',
        { ...HEADERS, 'mcp-session-id': sessionId },
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }),
      );
    const small = await call(2, 'small');
    const large = await call(3, 'large');
    expect(small.body).toContain('x'.repeat(1000));
    const answer = JSON.parse(/^data: (.*)$/m.exec(large.body)?.[1] ?? large.body) as { error: unknown };
    expect(answer.error).toEqual({
      code: -32603,
      message: "The result of tool 'large' is larger than this server sends (1001 characters; the limit is 1000).",
    });
    expect(logged).toEqual([
      "Tool 'large' returned a result of 1001 characters, more than maxResultBytes (1000); the client got an error instead",
    ]);
  });
});
