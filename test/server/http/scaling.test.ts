import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer, RequestContext, Tool } from '../../../src';

/**
 * What lets more than one instance serve the same clients, in-process: a shared requestStateSecret, the
 * stateless 2025 mode, health endpoints and the drain of a graceful shutdown.
 */

const SECRET = 'a shared secret of at least thirty-two bytes';

let gate: Promise<void> = Promise.resolve();
let entered: () => void = () => undefined;

class Rounds {
  @Tool()
  confirm(ctx: RequestContext): string {
    if (ctx.inputResponse('ok') === undefined) {
      ctx.requireInput(
        { ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } },
        { round: 1 },
      );
    }
    return `state ${JSON.stringify(ctx.requestState)}`;
  }

  @Tool()
  async held(): Promise<string> {
    entered();
    await gate;
    return 'finished';
  }

  @Tool()
  async forever(signal: AbortSignal): Promise<string> {
    entered();
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'aborted';
  }

  @Tool()
  async sample(ctx: RequestContext): Promise<string> {
    const reply = (await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 })) as {
      content: { text: string };
    };
    return `model said ${reply.content.text}`;
  }
}

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function rounds(secret?: string): McpServer {
  const server = new McpServer({ name: 'rounds', version: '1' }, { requestStateSecret: secret }).add(new Rounds());
  servers.push(server);
  return server;
}

/** A client whose requests alternate between two endpoints, as round robin behind a balancer does. */
async function alternating(urls: readonly string[]): Promise<Client> {
  let next = 0;
  const fetchNext = (input: string | URL | Request, init?: RequestInit) => fetch(urls[next++ % urls.length], init);
  const client = new Client(
    { name: 'rr', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
  await client.connect(new StreamableHTTPClientTransport(new URL(urls[0]), { fetch: fetchNext as typeof fetch }));
  return client;
}

/** Resolves when a held call has reached the tool; `release()` lets it finish. */
function hold(): { reached: Promise<void>; release: () => void } {
  let release!: () => void;
  gate = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  return { reached, release };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };

describe('requestStateSecret', () => {
  it('refuses a secret shorter than 32 bytes at construction, naming the option and the fix', () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { requestStateSecret: 'too short' })).toThrow(
      new RangeError(
        'requestStateSecret must be a string or Uint8Array of at least 32 bytes (this one has 9); every instance behind one load balancer needs the same one, for example 64 hex characters from `openssl rand -hex 32`.',
      ),
    );
  });

  it('accepts 32 bytes as a Uint8Array', () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { requestStateSecret: new Uint8Array(32).fill(7) })).not.toThrow();
  });

  it('lets the second round of a 2026-07-28 call land on another instance holding the same secret', async () => {
    const a = await rounds(SECRET).serveHttp({ port: 0 });
    const b = await rounds(SECRET).serveHttp({ port: 0 });
    const client = await alternating([a.url, b.url]);
    expect((await client.callTool({ name: 'confirm', arguments: {} })).content).toEqual([{ type: 'text', text: 'state {"round":1}' }]);
    await client.close();
  });

  it('refuses the second round on an instance with its own random secret (-32602)', async () => {
    const a = await rounds().serveHttp({ port: 0 });
    const b = await rounds().serveHttp({ port: 0 });
    const client = await alternating([a.url, b.url]);
    await expect(client.callTool({ name: 'confirm', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe("legacy: 'stateless'", () => {
  it('serves a 2025-era client without a session id, and answers GET 405', async () => {
    const { url } = await rounds(SECRET).serveHttp({ port: 0, legacy: 'stateless' });
    const transport = new V1Http(new URL(url));
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['confirm', 'held', 'forever', 'sample']);
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    await client.close();
  });
});

describe('health', () => {
  it('answers liveness and readiness on their default paths', async () => {
    const { port } = await rounds().serveHttp({ port: 0, health: true });
    const live = await fetch(`http://127.0.0.1:${port}/livez`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect([live.status, await live.json(), ready.status, await ready.json()]).toEqual([200, { status: 'live' }, 200, { status: 'ready' }]);
  });

  it.each([
    ['false', () => false],
    ['a throw', () => Promise.reject(new Error('redis is down'))],
  ])('answers readiness 503 when the check says %s, and tells nothing more', async (_name, ready) => {
    const { port } = await rounds().serveHttp({ port: 0, health: { readyPath: '/ready', ready } });
    const response = await fetch(`http://127.0.0.1:${port}/ready`);
    expect([response.status, await response.text()]).toEqual([503, '{"status":"not ready"}']);
  });

  it('leaves health paths to the MCP endpoint when not asked for', async () => {
    const { port } = await rounds().serveHttp({ port: 0 });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(404);
  });
});

describe('shutdown', () => {
  it('finishes a call in progress, answers new work 503 and readiness draining meanwhile', async () => {
    const server = rounds(SECRET);
    const { url, port } = await server.serveHttp({ port: 0, health: true });
    const client = await alternating([url]);
    const { reached, release } = hold();
    const call = client.callTool({ name: 'held', arguments: {} });
    await reached;
    const stopped = server.shutdown({ deadlineMs: 30_000 });
    const refused = await post(url, ping);
    expect([
      refused.status,
      refused.headers.get('retry-after'),
      ((await refused.json()) as { error: { code: number } }).error.code,
    ]).toEqual([503, '1', -32000]);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'draining' }]);
    release();
    expect((await call).content).toEqual([{ type: 'text', text: 'finished' }]);
    await stopped;
    await expect(fetch(url)).rejects.toThrow('fetch failed');
  });

  it('closes at the deadline a call that does not finish', async () => {
    const server = rounds(SECRET);
    const { url } = await server.serveHttp({ port: 0 });
    const client = await alternating([url]);
    const { reached } = hold();
    const call = client.callTool({ name: 'forever', arguments: {} });
    await reached;
    await server.shutdown({ deadlineMs: 100 });
    // The response stream is cut when the endpoint closes.
    await expect(call).rejects.toThrow('Error POSTing to endpoint');
    await expect(fetch(url)).rejects.toThrow('fetch failed');
    await client.close();
  });

  it("answers a 2025 session's new request 404 but lets its answer to a sampling request through", async () => {
    const server = rounds(SECRET);
    const { url } = await server.serveHttp({ port: 0 });
    const client = new V1Client({ name: 'v1', version: '1' }, { capabilities: { sampling: {} } });
    const transport = new V1Http(new URL(url));
    let stopped: Promise<void> | undefined;
    let refused: Response | undefined;
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      stopped = server.shutdown({ deadlineMs: 30_000 });
      refused = await post(url, ping, { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' });
      return { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' };
    });
    await client.connect(transport);
    expect((await client.callTool({ name: 'sample', arguments: {} })).content).toEqual([{ type: 'text', text: 'model said hello' }]);
    expect([refused?.status, ((await refused!.json()) as { error: unknown }).error]).toEqual([
      404,
      { code: -32001, message: 'Session not found' },
    ]);
    await stopped;
  });
});
