import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from 'onemodelcontext';
import { answerOf, modernRequest } from '../support/modern-http';
import { TestIssuer } from './support/issuer';

/**
 * Issue 29, introspection of opaque tokens: made-up tokens each cost one call and used to share one cache with
 * real callers' answers, so a flood of them pushed those out (every request of a real caller then cost a call
 * again); and `fetch` followed redirects, which would send the token and the server's client secret wherever the
 * endpoint pointed. The issuer is real (oidc-provider, for the metadata); the introspection endpoint is a small
 * node:http one that counts what it is asked, and one that redirects.
 */
jest.setTimeout(120_000);

const now = () => Math.floor(Date.now() / 1000);
let issuer: TestIssuer;
const listeners: Server[] = [];
const servers: McpServer[] = [];
const asked: string[] = [];
let redirectedTo: string[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(listeners.map((l) => new Promise((resolve) => l.close(resolve))));
  await issuer?.stop();
});

async function listen(
  handle: (req: IncomingMessage, body: string) => { status: number; headers?: Record<string, string>; body?: unknown },
): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answer = handle(req, body);
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
}

/** An endpoint that knows one token, `good-token`, for `resource`. */
function introspection(resource: () => string) {
  return listen((_req, body) => {
    const token = new URLSearchParams(body).get('token')!;
    asked.push(token);
    if (token !== 'good-token') return { status: 200, body: { active: false } };
    return {
      status: 200,
      body: { active: true, iss: issuer.url, aud: resource(), sub: 'alice', client_id: 'app', scope: 'mcp', exp: now() + 300 },
    };
  });
}

async function serve(endpoint: string, extra: Record<string, unknown> = {}): Promise<string> {
  const server = new McpServer({ name: 'opaque', version: '1.0.0' }, { logger: false });
  server.tool('ping', { description: 'Answers pong.', scopes: [] }, () => 'pong');
  servers.push(server);
  const { url } = await server.serveHttp({
    port: 0,
    auth: {
      issuer: issuer.url,
      scopes: ['mcp'],
      introspection: { clientId: 'app', clientSecret: 'app-secret-0123456789', endpoint, ...extra },
    },
  });
  return url;
}

const ping = (url: string, token: string) => modernRequest(url, 'tools/call', { name: 'ping', arguments: {} }, { token });

describe('the introspection cache', () => {
  it("keeps a real caller's answer while a flood of made-up tokens churns the refused ones", async () => {
    let url = '';
    const endpoint = await introspection(() => url);
    url = await serve(endpoint, { cacheSize: 3 });
    asked.length = 0;
    expect((answerOf(await ping(url, 'good-token')).result?.content as { text: string }[])[0].text).toBe('pong');
    for (let i = 0; i < 10; i++) expect((await ping(url, `made-up-${i}`)).status).toBe(401);
    // Refused answers are kept too: the same made-up token again costs no call.
    expect((await ping(url, 'made-up-9')).status).toBe(401);
    expect((answerOf(await ping(url, 'good-token')).result?.content as { text: string }[])[0].text).toBe('pong');
    expect(asked).toEqual(['good-token', ...Array.from({ length: 10 }, (_, i) => `made-up-${i}`)]);
  });

  it('refuses a cache size that is not a whole number from 1', async () => {
    await expect(serve('http://127.0.0.1:1/introspect', { cacheSize: 0 })).rejects.toThrow(
      new TypeError('auth.introspection.cacheSize takes a whole number from 1, for example { cacheSize: 10000 }; got 0.'),
    );
  });
});

describe('an introspection endpoint that redirects', () => {
  it('is not followed: the token never reaches the target and the request is answered 503, as an issuer that cannot be reached', async () => {
    redirectedTo = [];
    const target = await listen((req, body) => {
      redirectedTo.push(`${String(req.headers.authorization)} ${body}`);
      return { status: 200, body: { active: true } };
    });
    const redirecting = await listen(() => ({ status: 307, headers: { location: target } }));
    const url = await serve(redirecting);
    const reply = await ping(url, 'good-token');
    expect([reply.status, reply.body]).toEqual([
      503,
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: the authorization server cannot be reached to check the access token; try again shortly."},"id":null}',
    ]);
    expect(redirectedTo).toEqual([]);
  });
});
