import { send } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';
import { McpServer, Tool, type AuthInfo } from 'onemodelcontext';

/**
 * CORS for browser hosts beside the loopback Host/Origin checks, and the custom `verify` of the auth option
 * (no authorization server needed): preflights, exposed headers on answers and challenges, refused origins.
 */
jest.setTimeout(60_000);

class Hello {
  @Tool({ scopes: ['hello'] })
  hello(): string {
    return 'hi';
  }
}

const APP = 'http://app.test';
const tokens: Record<string, AuthInfo> = {
  'good-token': { subject: 'ann', clientId: 'browser', scopes: ['hello'], expiresAt: Math.floor(Date.now() / 1000) + 600, claims: {} },
  'other-audience': {
    subject: 'ann',
    clientId: 'browser',
    scopes: ['hello'],
    expiresAt: Math.floor(Date.now() / 1000) + 600,
    claims: { aud: 'https://elsewhere.test/mcp' },
  },
};

const server = new McpServer({ name: 'cors', version: '1' }).add(new Hello());
const plain = new McpServer({ name: 'plain', version: '1' }).add(new Hello());
let url: string;
let plainUrl: string;

beforeAll(async () => {
  ({ url } = await server.serveHttp({
    port: 0,
    cors: { origins: [APP], maxAgeSeconds: 60 },
    auth: { issuer: 'https://auth.example.com', verify: async (token) => tokens[token] },
  }));
  ({ url: plainUrl } = await plain.serveHttp({ port: 0 }));
});

afterAll(async () => {
  await server.close();
  await plain.close();
});

/** A 2026-07-28 `tools/list`, with the browser's headers (Origin ...). */
const post = (target: string, headers: Record<string, string>) => modernRequest(target, 'tools/list', {}, { headers });
const preflight = (target: string, origin: string) =>
  send(target, 'OPTIONS', {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type, mcp-protocol-version, mcp-method',
  });

describe('CORS', () => {
  it('answers a preflight from a listed origin', async () => {
    const reply = await preflight(url, APP);
    expect(reply.status).toBe(204);
    expect(reply.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version, mcp-method',
      'access-control-max-age': '60',
      vary: 'Origin',
    });
  });

  it('refuses a preflight from any other origin', async () => {
    const reply = await preflight(url, 'http://evil.test');
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets a listed origin read the 401 challenge', async () => {
    const reply = await post(url, { origin: APP });
    expect(reply.status).toBe(401);
    expect(reply.headers['access-control-allow-origin']).toBe(APP);
    expect(reply.headers['access-control-expose-headers']).toBe('Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer resource_metadata="/);
  });

  it('serves a listed origin with a token', async () => {
    const reply = await post(url, { origin: APP, authorization: 'Bearer good-token' });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe(APP);
    expect(reply.body).toContain('"name":"hello"');
  });

  it('is off without the option', async () => {
    const reply = await preflight(plainUrl, APP);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    const answered = await post(plainUrl, { origin: 'http://localhost:5173' });
    expect(answered.status).toBe(200);
    expect(answered.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Host and Origin checks beside CORS', () => {
  it('still refuse an origin that is neither listed nor loopback', async () => {
    expect((await post(url, { origin: 'http://evil.test', authorization: 'Bearer good-token' })).status).toBe(403);
  });

  it('still accept a loopback origin', async () => {
    expect((await post(url, { origin: 'http://localhost:5173', authorization: 'Bearer good-token' })).status).toBe(200);
  });

  it('still refuse a foreign Host header', async () => {
    expect((await post(url, { host: 'evil.test', authorization: 'Bearer good-token' })).status).toBe(403);
  });
});

describe('a custom verify', () => {
  it('refuses a token it does not know', async () => {
    const reply = await post(url, { authorization: 'Bearer unknown' });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toContain('error="invalid_token", error_description="The access token is not valid."');
  });

  it('refuses a token whose claims name another audience', async () => {
    const reply = await post(url, { authorization: 'Bearer other-audience' });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toContain('error_description="The access token was not issued for this resource."');
  });
});
