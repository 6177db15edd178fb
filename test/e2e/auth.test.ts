import { createHmac, generateKeyPairSync } from 'node:crypto';
import { send, type Reply } from '../support/raw-http';
import { answerOf, modernRequest } from '../support/modern-http';
import {
  Client as V2Client,
  ClientCredentialsProvider as V2ClientCredentials,
  StreamableHTTPClientTransport as V2Http,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as V1ClientCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt, decodeProtectedHeader, exportSPKI, importJWK, type KeyLike } from 'jose';
import { McpServer, Prompt, RequestContext, Resource, Scopes, Tool } from 'onemodelcontext';
import type { Catalog } from '../../src/server/catalog/catalog';
import { KID, TestIssuer, type TestClient } from './support/issuer';

/**
 * The HTTP endpoint as an OAuth 2.1 resource server, against a real authorization server (oidc-provider):
 * metadata discovery, the SDK clients (v1 and v2) with client-credentials tokens, every kind of refused token
 * over raw HTTP, scope challenges, per-caller listings, introspection of opaque tokens, `RequestContext.auth`,
 * and logs that never show a token.
 */
jest.setTimeout(120_000);

@Scopes('orders:read')
class Orders {
  @Tool({ description: 'Lists recent orders.' })
  listOrders(): string[] {
    return ['A-1', 'A-2'];
  }

  @Tool({ description: 'Places an order.', scopes: ['orders:write'] })
  placeOrder(item: string): string {
    return `placed ${item}`;
  }

  @Tool({ description: 'Answers pong.', scopes: [] })
  ping(): string {
    return 'pong';
  }

  @Tool({ description: 'Who is calling.', scopes: [] })
  whoami(ctx: RequestContext): string {
    return JSON.stringify(ctx.auth);
  }

  @Resource('orders://recent', { description: 'Recent orders.' })
  recent(): string {
    return 'A-1, A-2';
  }

  @Prompt({ description: 'Audit the orders.', scopes: ['admin'] })
  audit(): string {
    return 'Audit every order.';
  }
}

const READER: TestClient = { client_id: 'reader', client_secret: 'reader-secret-0123456789', scope: 'mcp weather:read orders:read' };
const WRITER: TestClient = {
  client_id: 'writer',
  client_secret: 'writer-secret-0123456789',
  scope: 'mcp weather:read orders:read orders:write admin',
};
const SERVER_CLIENT: TestClient = { client_id: 'mcp-server', client_secret: 'server-secret-0123456789', scope: 'mcp' };

let issuer: TestIssuer;
let server: McpServer;
let url: string;
let origin: string;
let opaqueUrl: string;
const logged: string[] = [];

function buildServer(): McpServer {
  const built = new McpServer({ name: 'orders', version: '1.0.0' });
  built.add(new Orders());
  built.tool(
    'forecast',
    { description: 'Forecast.', params: { city: String }, scopes: ['weather:read'] },
    ({ city }) => `sunny in ${String(city)}`,
  );
  return built;
}

beforeAll(async () => {
  // Everything written to stdout and stderr while the suite runs, to look for tokens afterwards.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  issuer = await TestIssuer.start([READER, WRITER, SERVER_CLIENT]);
  server = buildServer();
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'] } }));
  origin = new URL(url).origin;
  ({ url: opaqueUrl } = await server.serveHttp({
    port: 0,
    path: '/opaque',
    auth: {
      issuer: issuer.url,
      scopes: ['mcp'],
      introspection: { clientId: SERVER_CLIENT.client_id, clientSecret: SERVER_CLIENT.client_secret },
    },
  }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
  jest.restoreAllMocks();
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
function call(token: string | undefined, method: string, params: Record<string, unknown> = {}, target = url): Promise<Reply> {
  return modernRequest(target, method, params, { token });
}

function result(reply: Reply): Record<string, unknown> {
  const message = answerOf(reply);
  if (!message.result) throw new Error(`no result: ${reply.body}`);
  return message.result;
}

const names = (items: unknown) => (items as { name: string }[]).map((i) => i.name);
const metadataUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;
const now = () => Math.floor(Date.now() / 1000);

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the path-suffixed and the root well-known URLs', async () => {
    const expected = JSON.stringify({
      resource: url,
      authorization_servers: [issuer.url],
      scopes_supported: ['mcp', 'orders:read', 'orders:write', 'weather:read', 'admin'],
      bearer_methods_supported: ['header'],
    });
    const suffixed = await send(metadataUrl(), 'GET', {});
    expect(suffixed.status).toBe(200);
    expect(suffixed.body).toBe(expected);
    expect((await send(`${origin}/.well-known/oauth-protected-resource`, 'GET', {})).body).toBe(expected);
  });
});

describe('a request without a token', () => {
  it('gets 401 with the metadata URL and no error code', async () => {
    const reply = await call(undefined, 'tools/list');
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl()}", scope="mcp"`);
  });

  it('is enough for a client to find the authorization server (the SDK discovery functions)', async () => {
    const reply = await call(undefined, 'tools/list');
    const advertised = /resource_metadata="([^"]+)"/.exec(String(reply.headers['www-authenticate']))![1];
    const resource = await discoverOAuthProtectedResourceMetadata(url, { resourceMetadataUrl: advertised });
    expect(resource.resource).toBe(url);
    const as = await discoverAuthorizationServerMetadata(resource.authorization_servers![0]);
    expect(as?.issuer).toBe(issuer.url);
    expect(as?.token_endpoint).toBe(`${issuer.url}/token`);
  });

  it('makes the v2 client fail with 401 when it has no credentials', async () => {
    const client = new V2Client({ name: 'anon', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await expect(client.connect(new V2Http(new URL(url)))).rejects.toThrow(/401|Unauthorized/);
  });
});

describe('the SDK clients with client-credentials tokens', () => {
  it('v2 asks for the scope the 401 names, then steps up on the 403 scope challenge', async () => {
    const authProvider = new V2ClientCredentials({ ...credentials(READER), expectedIssuer: issuer.url });
    const client = new V2Client({ name: 'reader', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(url), { authProvider }));
    // The first token has what the 401 challenge named (the spec's order: the challenge before the provider's wish).
    expect(decodeJwt(authProvider.tokens()!.access_token).scope).toBe('mcp');
    expect(names((await client.listTools()).tools)).toEqual(['ping', 'whoami']);
    const forecast = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(forecast.content).toEqual([{ type: 'text', text: 'sunny in Oslo' }]);
    expect(decodeJwt(authProvider.tokens()!.access_token).scope).toBe('mcp weather:read');
    expect(names((await client.listTools()).tools)).toEqual(['ping', 'whoami', 'forecast']);
    await client.close();
  });

  it('v1 (2025 era, with a session) does the same', async () => {
    const authProvider = new V1ClientCredentials({ ...credentials(WRITER), expectedIssuer: issuer.url });
    const client = new V1Client({ name: 'writer', version: '1' });
    await client.connect(new V1Http(new URL(url), { authProvider }));
    expect(names((await client.listTools()).tools)).toEqual(['list_orders', 'place_order', 'ping', 'whoami', 'forecast']);
    const placed = await client.callTool({ name: 'place_order', arguments: { item: 'tea' } });
    expect(placed.content).toEqual([{ type: 'text', text: 'placed tea' }]);
    await client.close();
  });
});

function credentials(client: TestClient) {
  return { clientId: client.client_id, clientSecret: client.client_secret, scope: client.scope };
}

describe('refused tokens (raw HTTP)', () => {
  async function refused(token: string, description: string): Promise<void> {
    const reply = await call(token, 'tools/list');
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="${description}", scope="mcp", resource_metadata="${metadataUrl()}"`,
    );
  }

  const claims = () => ({
    iss: issuer.url,
    aud: url,
    sub: 'reader',
    client_id: 'reader',
    scope: 'mcp orders:read',
    iat: now(),
    exp: now() + 300,
  });

  it('a malformed Authorization header', async () => {
    const reply = await modernRequest(url, 'tools/list', {}, { headers: { authorization: 'Basic cmVhZGVyOnNlY3JldA==' } });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", error_description="Invalid Authorization header format/,
    );
  });

  it('an expired token', async () =>
    refused(await issuer.sign({ ...claims(), iat: now() - 600, exp: now() - 120 }), 'The access token has expired.'));

  it('a token not valid yet', async () =>
    refused(await issuer.sign({ ...claims(), nbf: now() + 300 }), 'The access token is not valid yet.'));

  it('a token from another issuer', async () =>
    refused(await issuer.sign({ ...claims(), iss: 'http://127.0.0.1:1' }), 'The access token was issued by another authorization server.'));

  it('a token the issuer made for another resource', async () => {
    const other = await issuer.token(READER, 'mcp orders:read', 'http://127.0.0.1:1/mcp');
    expect(decodeJwt(other).aud).toBe('http://127.0.0.1:1/mcp');
    await refused(other, 'The access token was not issued for this resource.');
  });

  it('a token with a tampered signature', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', url);
    const [header, payload, signature] = token.split('.');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    await refused(`${header}.${payload}.${flipped}`, 'The access token signature is not valid.');
  });

  it('a token with a tampered payload', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', url);
    const [header, , signature] = token.split('.');
    const widened = Buffer.from(JSON.stringify({ ...decodeJwt(token), scope: 'mcp orders:read orders:write admin' })).toString('base64url');
    await refused(`${header}.${widened}.${signature}`, 'The access token signature is not valid.');
  });

  it('an unsigned token (alg none)', async () => {
    const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    await refused(
      `${encode({ alg: 'none', typ: 'at+jwt', kid: KID })}.${encode(claims())}.`,
      'The access token is signed with an algorithm this server does not accept.',
    );
  });

  it('a token signed HS256 with the public key as the secret', async () => {
    const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const pem = await exportSPKI((await importJWK(issuer.publicJwk, 'RS256')) as KeyLike);
    const input = `${encode({ alg: 'HS256', typ: 'at+jwt', kid: KID })}.${encode(claims())}`;
    const signature = createHmac('sha256', pem).update(input).digest('base64url');
    await refused(`${input}.${signature}`, 'The access token is signed with an algorithm this server does not accept.');
  });

  it('a token signed with a key the issuer does not publish', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await issuer.sign(claims(), { kid: 'unknown-key' }, privateKey as unknown as KeyLike);
    expect(decodeProtectedHeader(token).kid).toBe('unknown-key');
    await refused(token, 'The access token is signed with a key the authorization server does not publish.');
  });

  it('a token without the base scope gets the scope challenge', async () => {
    const token = await issuer.token(READER, 'orders:read', url);
    const reply = await call(token, 'tools/list');
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="${metadataUrl()}"`,
    );
  });
});

describe('scopes per tool, resource and prompt', () => {
  it('answers a call without the needed scope with 403 and the scopes to step up to', async () => {
    const token = await issuer.token(READER, READER.scope, url);
    const reply = await call(token, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } });
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="This request needs the scope orders:write.", scope="mcp weather:read orders:read orders:write", resource_metadata="${metadataUrl()}"`,
    );
  });

  it('lets the call through once the token has the scope', async () => {
    const token = await issuer.token(WRITER, WRITER.scope, url);
    const reply = await call(token, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } });
    expect(reply.status).toBe(200);
    expect(result(reply).content).toEqual([{ type: 'text', text: 'placed tea' }]);
  });

  it('gives two tokens with different scopes different listings of tools, resources and prompts', async () => {
    const narrow = await issuer.token(READER, 'mcp weather:read', url);
    const wide = await issuer.token(WRITER, WRITER.scope, url);
    expect(names(result(await call(narrow, 'tools/list')).tools)).toEqual(['ping', 'whoami', 'forecast']);
    expect(names(result(await call(wide, 'tools/list')).tools)).toEqual(['list_orders', 'place_order', 'ping', 'whoami', 'forecast']);
    expect(result(await call(narrow, 'resources/list')).resources).toEqual([]);
    expect(names(result(await call(wide, 'resources/list')).resources)).toEqual(['recent']);
    expect(result(await call(narrow, 'prompts/list')).prompts).toEqual([]);
    expect(names(result(await call(wide, 'prompts/list')).prompts)).toEqual(['audit']);
  });

  it('lists each tool exactly as the unfiltered listing does, with what it needs as securitySchemes', async () => {
    const wide = await issuer.token(WRITER, WRITER.scope, url);
    const needs: Record<string, string[]> = {
      list_orders: ['orders:read'],
      place_order: ['orders:write'],
      ping: [],
      whoami: [],
      forecast: ['weather:read'],
    };
    const expected = server.listTools().map((tool) => {
      const securitySchemes = [{ type: 'oauth2', scopes: ['mcp', ...needs[tool.name]] }];
      return { ...tool, securitySchemes, _meta: { securitySchemes } };
    });
    expect(JSON.stringify(result(await call(wide, 'tools/list')).tools)).toBe(JSON.stringify(expected));
  });

  it('keeps one listing per distinct scope set', async () => {
    // The catalog is internal; the count of kept listings is what this test is about.
    const catalog = (server as unknown as { catalog: Catalog }).catalog;
    const before = catalog.scopedListingCount;
    const first = await issuer.token(READER, 'mcp orders:read', url);
    const second = await issuer.token(READER, 'mcp orders:read', url);
    expect(first).not.toBe(second);
    await call(first, 'tools/list');
    await call(second, 'tools/list');
    await call(second, 'prompts/list');
    expect(catalog.scopedListingCount).toBe(before + 1);
    expect(server.listTools({ scopes: ['orders:read', 'mcp'] })).toBe(server.listTools({ scopes: ['mcp', 'orders:read'] }));
  });

  it('refuses reading a resource and getting a prompt without their scopes', async () => {
    const token = await issuer.token(READER, 'mcp weather:read', url);
    const read = await call(token, 'resources/read', { uri: 'orders://recent' });
    expect(read.status).toBe(403);
    expect(read.headers['www-authenticate']).toContain('scope="mcp weather:read orders:read"');
    const prompt = await call(token, 'prompts/get', { name: 'audit' });
    expect(prompt.status).toBe(403);
    expect(prompt.headers['www-authenticate']).toContain('scope="mcp weather:read admin"');
  });
});

describe('RequestContext.auth', () => {
  it('carries subject, client id, scopes, expiry and claims, and never the token', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', url);
    const reply = await call(token, 'tools/call', { name: 'whoami', arguments: {} });
    const text = (result(reply).content as { text: string }[])[0].text;
    const auth = JSON.parse(text) as Record<string, unknown>;
    const claims = decodeJwt(token);
    expect(auth).toEqual({ subject: 'reader', clientId: 'reader', scopes: ['mcp', 'orders:read'], expiresAt: claims.exp, claims });
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split('.')[2]);
  });
});

describe('2025-era sessions', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  it('belong to the caller who opened them', async () => {
    const mine = await issuer.token(READER, READER.scope, url);
    const theirs = await issuer.token(WRITER, WRITER.scope, url);
    const opened = await send(url, 'POST', { ...JSON_HEADERS, authorization: `Bearer ${mine}` }, initialize);
    expect(opened.status).toBe(200);
    const session = { 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect((await send(url, 'POST', { ...JSON_HEADERS, ...session, authorization: `Bearer ${theirs}` }, ping)).status).toBe(404);
    expect((await send(url, 'POST', { ...JSON_HEADERS, ...session, authorization: `Bearer ${mine}` }, ping)).status).toBe(200);
    expect((await send(url, 'POST', { ...JSON_HEADERS, ...session }, ping)).status).toBe(401);
  });
});

describe('introspection (RFC 7662) for opaque tokens', () => {
  it('accepts an active token the issuer made for this resource', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', opaqueUrl);
    expect(token.split('.')).toHaveLength(1);
    const reply = await call(token, 'tools/list', {}, opaqueUrl);
    expect(reply.status).toBe(200);
    expect(names(result(reply).tools)).toEqual(['list_orders', 'ping', 'whoami']);
  });

  it('refuses a revoked token and a token the issuer never made', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', opaqueUrl);
    await issuer.revoke(READER, token);
    for (const refused of [token, 'not-a-token-the-issuer-knows']) {
      const reply = await call(refused, 'tools/list', {}, opaqueUrl);
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toContain('error_description="The access token is not active."');
    }
  });

  it('refuses an opaque token made for another resource', async () => {
    const token = await issuer.token(READER, 'mcp orders:read', 'http://127.0.0.1:1/opaque');
    const reply = await call(token, 'tools/list', {}, opaqueUrl);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toContain('error_description="The access token was not issued for this resource."');
  });
});

describe('configuration', () => {
  it.each([[['HS256']], [['none']], [['RS256', 'HS512']]])('refuses the algorithm list %j at startup', async (algorithms) => {
    await expect(buildServer().serveHttp({ port: 0, auth: { issuer: issuer.url, jwt: { algorithms } } })).rejects.toThrow(/must not hold/);
  });

  it('refuses two verifiers at once', async () => {
    const verify = async () => undefined;
    await expect(
      buildServer().serveHttp({ port: 0, auth: { issuer: issuer.url, verify, introspection: { clientId: 'a', clientSecret: 'b' } } }),
    ).rejects.toThrow('auth takes one of jwt, introspection and verify; it has introspection and verify.');
  });
});

describe('logs', () => {
  it('never show a token', async () => {
    const token = await issuer.token(READER, READER.scope, url);
    await call(token, 'tools/call', { name: 'place_order', arguments: { item: 'tea' } });
    await call(`${token}x`, 'tools/list');
    const text = logged.join('');
    expect(text).not.toContain(token.split('.')[2]);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/);
  });
});
