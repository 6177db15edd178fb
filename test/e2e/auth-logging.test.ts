import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArrayOf, McpServer, Tool, type HttpAuthOptions, type LogDetails, type McpLogger } from 'onemodelcontext';
import { TestIssuer, type TestClient } from './support/issuer';
import type { Reply } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';

/**
 * Every request `auth` refuses is logged through the server's logger for its developer, against a real
 * authorization server (oidc-provider): why (no token, the token's problem, the missing scope, a token
 * that could not be checked), with the request's method and path and the caller when known, and never the
 * token itself.
 */
jest.setTimeout(120_000);

class Orders {
  @Tool({ description: 'Lists orders.', scopes: ['orders:read'], returns: ArrayOf(String) })
  listOrders(): string[] {
    return ['A-1'];
  }

  @Tool({ description: 'Places an order.', scopes: ['orders:write'] })
  placeOrder(item: string): string {
    return `placed ${item}`;
  }
}

interface Entry {
  readonly level: keyof McpLogger;
  readonly message: string;
  readonly details?: LogDetails;
}

/** A logger that keeps what it is given. */
function capturing(entries: Entry[]): McpLogger {
  const keep = (level: keyof McpLogger) => (message: string, details?: LogDetails) => void entries.push({ level, message, details });
  return { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') };
}

const READER: TestClient = { client_id: 'reader', client_secret: 'reader-secret-0123456789', scope: 'mcp orders:read' };

let issuer: TestIssuer;
const entries: Entry[] = [];
const servers: McpServer[] = [];
let url: string;

async function serve(auth: HttpAuthOptions): Promise<string> {
  const server = new McpServer({ name: 'orders', version: '1.0.0' }, { logger: capturing(entries) }).add(new Orders());
  servers.push(server);
  return (await server.serveHttp({ port: 0, auth })).url;
}

beforeAll(async () => {
  issuer = await TestIssuer.start([READER]);
  url = await serve({ issuer: issuer.url, scopes: ['mcp'] });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await issuer?.stop();
});

beforeEach(() => {
  entries.length = 0;
});

/** A 2026-07-28 tools/call of `tool`, as the v2 client sends one, with or without a bearer token. */
function callTool(target: string, token: string | undefined, tool: string, args: Record<string, unknown> = {}): Promise<Reply> {
  return modernRequest(target, 'tools/call', { name: tool, arguments: args }, { token });
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** What was logged, without the details' error (checked apart). */
const logged = () => entries.map(({ level, message, details }) => ({ level, message, event: details?.event }));

describe('auth refusals are logged', () => {
  it('a request without a token, at info: the first step of every OAuth client', async () => {
    expect((await callTool(url, undefined, 'list_orders')).status).toBe(401);
    expect(logged()).toEqual([
      {
        level: 'info',
        event: 'auth.refused',
        message: 'HTTP POST /mcp refused with 401: it carries no access token (Authorization: Bearer)',
      },
    ]);
  });

  it('a token for another resource, at warn, with the reason the client got and nothing of the token', async () => {
    const token = await issuer.token(READER, READER.scope, 'https://elsewhere.example/mcp');
    expect((await callTool(url, token, 'list_orders')).status).toBe(401);
    expect(logged()).toEqual([
      {
        level: 'warn',
        event: 'auth.refused',
        message: 'HTTP POST /mcp refused with 401 invalid_token: The access token was not issued for this resource.',
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(token.split('.')[2]);
  });

  it('an expired token, at warn', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await issuer.sign({
      iss: issuer.url,
      aud: url,
      sub: 'ann',
      client_id: 'reader',
      scope: 'mcp',
      iat: now - 600,
      exp: now - 300,
    });
    expect((await callTool(url, token, 'list_orders')).status).toBe(401);
    expect(logged()).toEqual([
      { level: 'warn', event: 'auth.refused', message: 'HTTP POST /mcp refused with 401 invalid_token: The access token has expired.' },
    ]);
  });

  it('a caller without the scope a tool needs, at warn, naming the caller and what it was granted', async () => {
    const token = await issuer.token(READER, READER.scope, url);
    expect((await callTool(url, token, 'place_order', { item: 'tea' })).status).toBe(403);
    expect(logged()).toEqual([
      {
        level: 'warn',
        event: 'auth.refused',
        message:
          "HTTP POST /mcp refused with 403 insufficient_scope: This request needs the scope orders:write. The caller is client 'reader' (subject 'reader'), granted scopes: mcp orders:read.",
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(token.split('.')[2]);
    // The same token may call what its scopes allow, and nothing is logged for it.
    expect((await callTool(url, token, 'list_orders')).status).toBe(200);
    expect(logged()).toHaveLength(1);
  });

  it('an unreachable authorization server, at error, with why it could not be reached (answered 503, not 401)', async () => {
    const closed = await closedPort();
    const unreachable = await serve({
      issuer: `http://127.0.0.1:${closed}/`,
      resource: 'http://127.0.0.1/unreachable',
      allowInsecureIssuer: true,
    });
    const token = await issuer.token(READER, READER.scope, 'http://127.0.0.1/unreachable');
    expect((await callTool(unreachable, token, 'list_orders')).status).toBe(503);
    expect(logged()).toEqual([
      {
        level: 'error',
        event: 'issuer.unavailable',
        message: `HTTP POST /mcp answered 503: the authorization server http://127.0.0.1:${closed}/ cannot be reached, so the access token could not be checked: IssuerUnavailableError: No authorization server metadata found for http://127.0.0.1:${closed}/. <- caused by TypeError: fetch failed <- caused by Error: connect ECONNREFUSED 127.0.0.1:${closed}`,
      },
    ]);
  });

  it('a token that could not be checked, at error, with the failure and its stack', async () => {
    const failing = await serve({
      issuer: issuer.url,
      resource: 'http://127.0.0.1/verify',
      verify: async () => {
        throw new Error('the user directory is down', { cause: new Error('connect ECONNREFUSED') });
      },
    });
    expect((await callTool(failing, 'some-opaque-token', 'list_orders')).status).toBe(500);
    expect(logged()).toEqual([
      {
        level: 'error',
        event: 'auth.failed',
        message:
          'HTTP POST /mcp answered 500: the access token could not be checked: Error: the user directory is down <- caused by Error: connect ECONNREFUSED',
      },
    ]);
    const error = entries[0].details?.error as Error;
    expect(error.message).toBe('the user directory is down');
    expect(error.stack).toContain('auth-logging.test.ts');
    expect(JSON.stringify(logged())).not.toContain('some-opaque-token');
  });
});
