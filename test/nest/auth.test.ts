import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Tool, type AuthInfo } from '../../src';
import { McpModule } from '../../src/nest';

/**
 * The `auth` and `cors` options of McpModule reach the endpoint on the application's adapter: the metadata
 * routes, the 401 challenge, per-scope listings and preflights (with a custom verifier: no issuer needed).
 */
jest.setTimeout(60_000);

@Injectable()
class Greeter {
  @Tool({ scopes: ['hello'] })
  hello(): string {
    return 'hi';
  }

  @Tool({ scopes: [] })
  ping(): string {
    return 'pong';
  }
}

const RESOURCE = 'https://mcp.example.com/mcp';
const caller = (scopes: string[]): AuthInfo => ({
  subject: 'ann',
  clientId: 'nest',
  scopes,
  expiresAt: Math.floor(Date.now() / 1000) + 600,
  claims: {},
});
const verify = async (token: string) => ({ narrow: caller([]), wide: caller(['hello']) })[token];

let app: INestApplication;
let base: string;

beforeAll(async () => {
  const options = {
    name: 'greeter',
    version: '1',
    auth: { issuer: 'https://auth.example.com', resource: RESOURCE, verify },
    cors: { origins: ['http://app.test'] },
  };
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRootAsync({ useFactory: () => options })],
    providers: [Greeter],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
});

afterAll(() => app.close());

const list = (authorization?: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'n', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });

const toolNames = async (response: Response) =>
  ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);

describe('McpModule with auth', () => {
  it('routes the protected resource metadata for the public URL', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: ['https://auth.example.com'],
        scopes_supported: ['hello'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('answers a request without a token with the challenge', async () => {
    const response = await list();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('lists what each caller may call', async () => {
    expect(await toolNames(await list('Bearer narrow'))).toEqual(['ping']);
    expect(await toolNames(await list('Bearer wide'))).toEqual(['hello', 'ping']);
  });

  it('answers preflights of the listed origins', async () => {
    const response = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
  });
});
