import { LEGACY_HEADERS, open, openSession, readAll, send, type Reply } from '../support/raw-http';
import { answerOf, modernRequest } from '../support/modern-http';
import {
  Client as V2Client,
  ClientCredentialsProvider as V2ClientCredentials,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as V1ClientCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import { McpServer, Prompt, RequestContext, Resource, Tool, type AuthorizeItem, type LogDetails, type McpLogger } from 'onemodelcontext';
import { TestIssuer, type TestClient } from './support/issuer';

/**
 * Per-tool authorization against a real authorization server (oidc-provider) and the real SDK clients: public
 * items answer callers without a token (`allowAnonymous`), a protected item answers the 401 challenge that starts
 * the client's OAuth flow on the same server, every listed tool says what it needs (`securitySchemes`), and one
 * `authorize` policy hides and refuses by a claim in listings, calls, resources and prompts, in both eras.
 */
jest.setTimeout(120_000);

class Shop {
  @Tool({ description: 'Searches the catalogue.', public: true })
  search(query: string): string {
    return `found ${query}`;
  }

  @Tool({ description: 'Places an order.', scopes: ['orders:write'] })
  placeOrder(item: string): string {
    return `placed ${item}`;
  }

  @Tool({ description: 'Who is calling.' })
  whoami(ctx: RequestContext): string {
    return ctx.auth?.clientId ?? 'nobody';
  }

  @Resource('docs://readme', { description: 'How to shop.', public: true })
  readme(): string {
    return 'Search, then order.';
  }

  @Resource('orders://{id}', { description: 'One order.', scopes: ['orders:read'] })
  order(id: string): string {
    return `order ${id}`;
  }

  @Prompt({ description: 'Greets a visitor.', public: true })
  greet(): string {
    return 'Welcome.';
  }

  @Prompt({ description: 'Audits the orders.', scopes: ['admin'] })
  audit(): string {
    return 'Audit every order.';
  }
}

const ALL = 'mcp orders:read orders:write admin';
const CLERK: TestClient = { client_id: 'clerk', client_secret: 'clerk-secret-0123456789', scope: ALL };
const MANAGER: TestClient = { client_id: 'manager', client_secret: 'manager-secret-0123456789', scope: ALL };

/** Items only the manager's client may see or use: a policy by the `client_id` claim (RFC 9068). */
const MANAGER_ONLY = new Set(['place_order', 'orders://{id}', 'audit']);
const asked: AuthorizeItem[] = [];
function authorize(caller: { claims: Readonly<Record<string, unknown>> } | undefined, item: AuthorizeItem): Promise<boolean> {
  asked.push(item);
  return Promise.resolve(!MANAGER_ONLY.has(item.name) || caller?.claims.client_id === MANAGER.client_id);
}

let issuer: TestIssuer;
let server: McpServer;
let url: string;
let policyUrl: string;
const warnings: string[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.start([CLERK, MANAGER]);
  const logger: McpLogger = {
    error: () => {},
    warn: (message: string, _details?: LogDetails) => void warnings.push(message),
    info: () => {},
    debug: () => {},
  };
  server = new McpServer({ name: 'shop', version: '1.0.0' }, { logger });
  server.add(new Shop());
  server.tool('ping', { description: 'Answers pong.', public: true }, () => 'pong');
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'], allowAnonymous: true } }));
  ({ url: policyUrl } = await server.serveHttp({
    port: 0,
    path: '/policy',
    auth: { issuer: issuer.url, scopes: ['mcp'], allowAnonymous: true, authorize },
  }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

/** One raw 2026-07-28 request with an optional bearer token, and its answer. */
const call = (target: string, token: string | undefined, method: string, params: Record<string, unknown> = {}): Promise<Reply> =>
  modernRequest(target, method, params, { token });
const message = answerOf;

const names = (items: unknown) => (items as { name: string }[]).map((i) => i.name);
const metadataUrlOf = (endpoint: string) => `${new URL(endpoint).origin}/.well-known/oauth-protected-resource${new URL(endpoint).pathname}`;
const credentials = (client: TestClient) => ({ clientId: client.client_id, clientSecret: client.client_secret, scope: client.scope });

describe('allowAnonymous: public items without a token', () => {
  it('an anonymous v2 client lists exactly the public items and uses them', async () => {
    const client = new V2Client({ name: 'visitor', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(url)));
    expect(names((await client.listTools()).tools)).toEqual(['search', 'ping']);
    expect(names((await client.listResources()).resources)).toEqual(['readme']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect(names((await client.listPrompts()).prompts)).toEqual(['greet']);
    expect((await client.callTool({ name: 'search', arguments: { query: 'tea' } })).content).toEqual([{ type: 'text', text: 'found tea' }]);
    expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/plain', text: 'Search, then order.' },
    ]);
    expect((await client.getPrompt({ name: 'greet' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Welcome.' } }]);
    await client.close();
  });

  it('an anonymous v1 client (2025 era, with a session) lists and calls the same', async () => {
    const client = new V1Client({ name: 'visitor', version: '1' });
    await client.connect(new V1Http(new URL(url)));
    expect(names((await client.listTools()).tools)).toEqual(['search', 'ping']);
    expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    await client.close();
  });

  it('calling a protected tool without a token answers the 401 challenge with the scopes it needs', async () => {
    const reply = await call(url, undefined, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrlOf(url)}", scope="mcp orders:write"`);
    const prompt = await call(url, undefined, 'prompts/get', { name: 'audit' });
    expect(prompt.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrlOf(url)}", scope="mcp admin"`);
    const read = await call(url, undefined, 'resources/read', { uri: 'orders://7' });
    expect(read.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrlOf(url)}", scope="mcp orders:read"`);
  });

  it('a tool that needs no scope but is not public needs a token too', async () => {
    const reply = await call(url, undefined, 'tools/call', { name: 'whoami', arguments: {} });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrlOf(url)}", scope="mcp"`);
  });

  it('a bad token is still a 401, never an anonymous caller', async () => {
    const reply = await call(url, 'not-a-token', 'tools/list');
    expect(reply.status).toBe(401);
    expect(String(reply.headers['www-authenticate'])).toMatch(/^Bearer error="invalid_token"/);
    const forged = await issuer.sign({
      iss: issuer.url,
      aud: 'https://elsewhere.example',
      sub: 'x',
      client_id: 'clerk',
      scope: 'mcp',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    expect((await call(url, forged, 'tools/call', { name: 'search', arguments: { query: 'x' } })).status).toBe(401);
  });

  it('the v2 client starts OAuth at the 401 of a protected tool, then the same call succeeds on the same server', async () => {
    const authProvider = new V2ClientCredentials({ ...credentials(CLERK), expectedIssuer: issuer.url });
    const client = new V2Client({ name: 'clerk', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(url), { authProvider }));
    expect(names((await client.listTools()).tools)).toEqual(['search', 'ping']);
    expect(authProvider.tokens()).toBeUndefined();
    const placed = await client.callTool({ name: 'place_order', arguments: { item: 'tea' } });
    expect(placed.content).toEqual([{ type: 'text', text: 'placed tea' }]);
    expect(decodeJwt(authProvider.tokens()!.access_token).scope).toBe('mcp orders:write');
    // With its token the caller lists what its scopes allow, public items included.
    expect(names((await client.listTools()).tools)).toEqual(['search', 'place_order', 'whoami', 'ping']);
    await client.close();
  });

  it('the v1 client does the same on its 2025-era session, which the verified caller takes over', async () => {
    const authProvider = new V1ClientCredentials({ ...credentials(CLERK), expectedIssuer: issuer.url });
    const client = new V1Client({ name: 'clerk', version: '1' });
    const transport = new V1Http(new URL(url), { authProvider });
    await client.connect(transport);
    const session = transport.sessionId;
    expect(names((await client.listTools()).tools)).toEqual(['search', 'ping']);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'clerk' }]);
    expect(transport.sessionId).toBe(session);
    // Once taken over, the session is the caller's: the same id without its token is unknown.
    const anonymous = await send(
      url,
      'POST',
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session!,
        'mcp-protocol-version': '2025-11-25',
      },
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    );
    expect(anonymous.status).toBe(404);
    await client.close();
  });
});

describe('a 2025-era session taken over by a verified caller (issue 37)', () => {
  it("closes the listening stream opened without a token, so it never hears the new owner's notifications", async () => {
    const { port, pathname } = new URL(url);
    const sessionId = await openSession(Number(port), pathname);
    const listening = await open(
      Number(port),
      'GET',
      { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId },
      undefined,
      pathname,
    );
    expect(listening.response.statusCode).toBe(200);
    let closed = false;
    void listening.ended.then(() => (closed = true));
    const token = await issuer.token(CLERK, 'mcp', url);
    const taken = await open(
      Number(port),
      'POST',
      { ...LEGACY_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': sessionId },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      pathname,
    );
    expect(await readAll(taken)).toContain('"whoami"');
    await listening.ended;
    expect(closed).toBe(true);
    // The new owner's own listening stream is served.
    const own = await open(
      Number(port),
      'GET',
      { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId, authorization: `Bearer ${token}` },
      undefined,
      pathname,
    );
    expect(own.response.statusCode).toBe(200);
    own.close();
  });
});

describe('securitySchemes', () => {
  it('every listed tool says what it needs, mirrored in _meta.securitySchemes', async () => {
    const token = await issuer.token(CLERK, ALL, url);
    const tools = message(await call(url, token, 'tools/list')).result!.tools as {
      name: string;
      securitySchemes: unknown;
      _meta: { securitySchemes: unknown };
    }[];
    expect(JSON.stringify(tools.map((t) => [t.name, t.securitySchemes]))).toBe(
      JSON.stringify([
        ['search', [{ type: 'noauth' }]],
        ['place_order', [{ type: 'oauth2', scopes: ['mcp', 'orders:write'] }]],
        ['whoami', [{ type: 'oauth2', scopes: ['mcp'] }]],
        ['ping', [{ type: 'noauth' }]],
      ]),
    );
    for (const tool of tools) expect(JSON.stringify(tool._meta.securitySchemes)).toBe(JSON.stringify(tool.securitySchemes));
    const anonymous = message(await call(url, undefined, 'tools/list')).result!.tools as { securitySchemes: unknown }[];
    expect(JSON.stringify(anonymous.map((t) => t.securitySchemes))).toBe(JSON.stringify([[{ type: 'noauth' }], [{ type: 'noauth' }]]));
  });
});

describe('auth.authorize: one policy for listings and calls', () => {
  it('hides what it refuses from every listing (2026-07-28)', async () => {
    const clerk = await issuer.token(CLERK, ALL, policyUrl);
    const manager = await issuer.token(MANAGER, ALL, policyUrl);
    expect(names(message(await call(policyUrl, clerk, 'tools/list')).result!.tools)).toEqual(['search', 'whoami', 'ping']);
    expect(names(message(await call(policyUrl, manager, 'tools/list')).result!.tools)).toEqual(['search', 'place_order', 'whoami', 'ping']);
    expect(message(await call(policyUrl, clerk, 'resources/templates/list')).result!.resourceTemplates).toEqual([]);
    expect(names(message(await call(policyUrl, manager, 'resources/templates/list')).result!.resourceTemplates)).toEqual(['order']);
    expect(names(message(await call(policyUrl, clerk, 'prompts/list')).result!.prompts)).toEqual(['greet']);
    expect(names(message(await call(policyUrl, manager, 'prompts/list')).result!.prompts)).toEqual(['greet', 'audit']);
    expect(asked).toContainEqual({ kind: 'template', name: 'orders://{id}' });
  });

  it('answers a refused call as an unknown item would be answered, and logs the refusal', async () => {
    const clerk = await issuer.token(CLERK, ALL, policyUrl);
    const refused = message(await call(policyUrl, clerk, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } }));
    const unknown = message(await call(policyUrl, clerk, 'tools/call', { name: 'place_orders', arguments: { item: 'tea' } }));
    expect(refused.error).toEqual({ code: unknown.error!.code, message: unknown.error!.message.replace('place_orders', 'place_order') });
    const prompt = message(await call(policyUrl, clerk, 'prompts/get', { name: 'audit' }));
    expect(prompt.error).toEqual({ code: -32602, message: 'Unknown prompt: audit' });
    const read = message(await call(policyUrl, clerk, 'resources/read', { uri: 'orders://7' }));
    const missing = message(await call(policyUrl, clerk, 'resources/read', { uri: 'nothing://7' }));
    expect(read.error!.code).toBe(missing.error!.code);
    expect(read.error!.message).toBe(missing.error!.message.replace('nothing://7', 'orders://7'));
    expect(warnings).toContain(
      "auth.authorize refused client 'clerk' (subject 'clerk') the tool 'place_order'; answered as an unknown tool (request 1)",
    );
    const complete = { ref: { type: 'ref/resource', uri: 'orders://{id}' }, argument: { name: 'id', value: '1' } };
    const refusedCompletion = message(await call(policyUrl, clerk, 'completion/complete', complete));
    const unknownCompletion = message(
      await call(policyUrl, clerk, 'completion/complete', { ...complete, ref: { type: 'ref/resource', uri: 'nothing://{id}' } }),
    );
    expect(refusedCompletion.error).toEqual(unknownCompletion.error);
    const manager = await issuer.token(MANAGER, ALL, policyUrl);
    expect(
      message(await call(policyUrl, manager, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } })).result!.content,
    ).toEqual([{ type: 'text', text: 'placed tea' }]);
    expect(message(await call(policyUrl, manager, 'completion/complete', complete)).result!.completion).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
    expect(message(await call(policyUrl, manager, 'resources/read', { uri: 'orders://7' })).result!.contents).toEqual([
      { uri: 'orders://7', mimeType: 'text/plain', text: 'order 7' },
    ]);
  });

  it('does the same for the v1 client on a 2025-era session', async () => {
    const refusedWarnings = warnings.length;
    const clerk = new V1Client({ name: 'clerk', version: '1' });
    await clerk.connect(
      new V1Http(new URL(policyUrl), { authProvider: new V1ClientCredentials({ ...credentials(CLERK), expectedIssuer: issuer.url }) }),
    );
    expect(names((await clerk.listTools()).tools)).toEqual(['search', 'ping']);
    expect(await clerk.callTool({ name: 'whoami', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'clerk' }] });
    expect(names((await clerk.listTools()).tools)).toEqual(['search', 'whoami', 'ping']);
    await expect(clerk.callTool({ name: 'place_order', arguments: { item: 'tea' } })).rejects.toThrow('Unknown tool: place_order');
    await expect(clerk.getPrompt({ name: 'audit' })).rejects.toThrow('Unknown prompt: audit');
    expect(warnings.length).toBeGreaterThan(refusedWarnings);
    await clerk.close();
    const manager = new V1Client({ name: 'manager', version: '1' });
    await manager.connect(
      new V1Http(new URL(policyUrl), { authProvider: new V1ClientCredentials({ ...credentials(MANAGER), expectedIssuer: issuer.url }) }),
    );
    await manager.callTool({ name: 'whoami', arguments: {} });
    expect(names((await manager.listPrompts()).prompts)).toEqual(['greet', 'audit']);
    expect((await manager.getPrompt({ name: 'audit' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Audit every order.' } },
    ]);
    await manager.close();
  });

  it('an anonymous caller is asked about as undefined and sees only what the policy and public allow', async () => {
    expect(names(message(await call(policyUrl, undefined, 'tools/list')).result!.tools)).toEqual(['search', 'ping']);
  });
});
