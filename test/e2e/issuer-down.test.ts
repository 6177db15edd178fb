import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, Tool, type HttpAuthOptions, type LogDetails, type McpLogger } from 'onemodelcontext';
import { TestIssuer, type TestClient } from './support/issuer';
import type { Reply } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';

/**
 * An authorization server that cannot be reached is the server's trouble, not the token's (issue 25): a valid
 * token from a real oidc-provider, checked against a key set or an introspection endpoint played by a real
 * node:http server that answers 503 or never answers, gets 503 with Retry-After, never a 401; a burst of
 * requests makes one fetch; the log names the URL that failed.
 */
jest.setTimeout(120_000);

class Orders {
  @Tool({ description: 'Lists orders.', returns: String })
  listOrders(): string {
    return 'A-1';
  }
}

const READER: TestClient = { client_id: 'reader', client_secret: 'reader-secret-0123456789', scope: 'mcp' };

/** A node:http server standing in for the issuer's key set or introspection endpoint, counting what reaches it. */
class Failing {
  hits = 0;
  private readonly held: ServerResponse[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(behaviour: '503' | 'hang'): Promise<Failing> {
    const box: { failing?: Failing } = {};
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      box.failing!.hits++;
      req.resume();
      if (behaviour === 'hang') box.failing!.held.push(res);
      else res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '30' }).end('down for maintenance');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    box.failing = new Failing(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`);
    return box.failing;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface Entry {
  readonly level: keyof McpLogger;
  readonly message: string;
  readonly event?: string;
}

let issuer: TestIssuer;
const stoppers: (() => Promise<void>)[] = [];

/** A server with `auth`, its URL and what it logged: each test has its own, so that the tests run at once. */
async function serve(auth: HttpAuthOptions): Promise<{ url: string; entries: Entry[] }> {
  const entries: Entry[] = [];
  const keep = (level: keyof McpLogger) => (message: string, details?: LogDetails) =>
    void entries.push({ level, message, event: details?.event });
  const server = new McpServer(
    { name: 'orders', version: '1.0.0' },
    { logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') } },
  ).add(new Orders());
  stoppers.push(() => server.close());
  return { url: (await server.serveHttp({ port: 0, auth })).url, entries };
}

async function failing(behaviour: '503' | 'hang'): Promise<Failing> {
  const started = await Failing.start(behaviour);
  stoppers.push(() => started.stop());
  return started;
}

/** A key set that answers as `behaviour`, a server checking tokens against it, and a token it would accept. */
async function behindKeySet(behaviour: '503' | 'hang') {
  const keys = await failing(behaviour);
  const resource = `http://127.0.0.1/jwks-${behaviour}`;
  const { url, entries } = await serve({ issuer: issuer.url, scopes: ['mcp'], resource, jwt: { jwksUri: keys.url } });
  return { keys, url, entries, token: await issuer.token(READER, READER.scope, resource) };
}

function callTool(target: string, token: string): Promise<Reply> {
  return modernRequest(target, 'tools/call', { name: 'list_orders', arguments: {} }, { token });
}

const UNAVAILABLE =
  '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: the authorization server cannot be reached to check the access token; try again shortly."},"id":null}';

function answers(replies: Reply[]): string[] {
  return replies.map((r) => `${r.status} ${r.headers['retry-after']} ${r.body}`);
}

beforeAll(async () => {
  issuer = await TestIssuer.start([READER]);
});

afterAll(async () => {
  await Promise.all(stoppers.map((stop) => stop()));
  await issuer?.stop();
});

// At once: two of them wait out the server's 5 s timeout of a request to the issuer that never answers.
describe('an issuer that cannot be reached', () => {
  it.concurrent(
    'a key set answering 503 from a cold start: every request 503 with Retry-After, one fetch for a burst of 20, the URL in the log',
    async () => {
      const { keys, url, entries, token } = await behindKeySet('503');
      const burst = answers(await Promise.all(Array.from({ length: 20 }, () => callTool(url, token))));
      process.stderr.write(`[figure] key set answering 503: ${keys.hits} fetch(es) for a burst of 20 requests\n`);
      expect(burst).toEqual(Array.from({ length: 20 }, () => `503 5 ${UNAVAILABLE}`));
      expect(keys.hits).toBe(1);
      expect(entries[0]).toEqual({
        level: 'error',
        event: 'issuer.unavailable',
        message: `HTTP POST /mcp answered 503: the authorization server ${issuer.url} cannot be reached, so the access token could not be checked: IssuerUnavailableError: The key set at ${keys.url} could not be fetched. <- caused by JOSEError: Expected 200 OK from the JSON Web Key Set HTTP response`,
      });
      expect(JSON.stringify(entries)).not.toContain(token);
    },
  );

  it.concurrent('a key set that never answers: 503 once the fetch times out', async () => {
    const { keys, url, entries, token } = await behindKeySet('hang');
    expect(answers([await callTool(url, token)])).toEqual([`503 5 ${UNAVAILABLE}`]);
    expect(entries.map((e) => e.message)).toEqual([
      `HTTP POST /mcp answered 503: the authorization server ${issuer.url} cannot be reached, so the access token could not be checked: IssuerUnavailableError: The key set at ${keys.url} could not be fetched. <- caused by JWKSTimeout: request timed out`,
    ]);
  });

  it.concurrent.each(['503', 'hang'] as const)(
    'an introspection endpoint that answers %s: 503, and a burst asks it once',
    async (behaviour) => {
      const endpoint = await failing(behaviour);
      const { url, entries } = await serve({
        issuer: issuer.url,
        resource: `http://127.0.0.1/introspect-${behaviour}`,
        introspection: { endpoint: endpoint.url, clientId: 'rs', clientSecret: 'rs-secret' },
      });
      const first = answers([await callTool(url, 'opaque-token-1')]);
      const burst = answers(await Promise.all(Array.from({ length: 20 }, (_, i) => callTool(url, `opaque-token-${i + 2}`))));
      process.stderr.write(`[figure] introspection ${behaviour}: ${endpoint.hits} request(s) to it for 21 requests\n`);
      expect([...first, ...burst]).toEqual(Array.from({ length: 21 }, () => `503 5 ${UNAVAILABLE}`));
      expect(endpoint.hits).toBe(1);
      expect(entries[0].message).toBe(
        `HTTP POST /mcp answered 503: the authorization server ${issuer.url} cannot be reached, so the access token could not be checked: IssuerUnavailableError: Token introspection at ${endpoint.url} failed${behaviour === '503' ? ' (HTTP 503)' : ''}.`,
      );
    },
  );
});
