import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Tool } from '../../src';
import { McpModule, type McpModuleOptions } from '../../src/nest';
import { SERVER_CARD_ROUTES } from '../../src/nest/http';
import { SERVER_CARD_PATHS } from '../../src/server/catalog/server-card';
import { errorsAgainst } from '../cli/schemas';
import { modernRequest } from '../support/modern-http';

/**
 * `McpModule.forRoot({ serverCard })`: the module serves the server card on the application's own adapter, Express
 * or Fastify, at the host's root whatever the MCP path and the global prefix, as `serveHttp({ serverCard })` does.
 * Real Nest applications on real ports.
 */
jest.setTimeout(60_000);

@Injectable()
class Forecasts {
  @Tool({ description: 'Forecasts the weather of a city.' })
  forecast(city: string): string {
    return `rain in ${city}`;
  }
}

const CARD = { name: 'io.github.example/weather', description: 'Forecasts.', url: 'https://mcp.example.com/api/mcp' };

/** The card `serveHttp` serves for the same server (test/server/http/server-card.test.ts holds it to the proposal). */
const EXPECTED =
  '{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"io.github.example/weather","version":"2.0.0",' +
  '"description":"Forecasts.","remotes":[{"type":"streamable-http","url":"https://mcp.example.com/api/mcp"}],' +
  '"capabilities":{"tools":{"listChanged":true},"logging":{}},' +
  '"tools":[{"name":"forecast","description":"Forecasts the weather of a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}]}';

const apps: INestApplication[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** An application with the module at `/mcp` and the global prefix `api`; resolves with its root URL. */
async function serve(options: Partial<McpModuleOptions>, adapter: 'express' | 'fastify'): Promise<string> {
  const imports = [McpModule.forRoot({ name: 'weather', version: '2.0.0', logger: false, ...options })];
  const moduleRef = await Test.createTestingModule({ imports, providers: [Forecasts] }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  apps.push(app);
  app.setGlobalPrefix('api');
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

it('mounts the same paths as serveHttp', () => {
  expect(SERVER_CARD_ROUTES).toEqual(SERVER_CARD_PATHS);
});

describe.each(['express', 'fastify'] as const)('on %s', (adapter) => {
  let base: string;
  beforeAll(async () => {
    base = await serve({ serverCard: CARD }, adapter);
  });

  it('serves the card at the root of the host, with its headers, at both paths', async () => {
    for (const path of SERVER_CARD_ROUTES) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      const text = await response.text();
      expect(text).toBe(EXPECTED);
      expect(errorsAgainst('server-card', JSON.parse(text))).toBe('');
    }
  });

  it('answers HEAD with the length and no body, and a preflight with 204', async () => {
    const head = await fetch(`${base}/.well-known/mcp/server-card.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(EXPECTED)));
    expect(await head.text()).toBe('');
    const preflight = await fetch(`${base}/.well-known/mcp/server-card.json`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
  });

  it('still serves MCP at its path, which the global prefix leaves alone (docs/nest.md)', async () => {
    const reply = await modernRequest(`${base}/mcp`, 'tools/list', {});
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"name":"forecast"');
  });
});

it('serves no card unless asked: the path is the application’s (404 here)', async () => {
  const base = await serve({}, 'express');
  expect((await fetch(`${base}/.well-known/mcp/server-card.json`)).status).toBe(404);
});

it('with auth, leaves the tools out and names auth.resource as the remote', async () => {
  const resource = 'https://mcp.example.com/api/mcp';
  const auth = { issuer: 'https://issuer.example.com', resource, verify: async () => undefined };
  const base = await serve({ serverCard: { name: CARD.name }, auth }, 'express');
  const card = JSON.parse(await (await fetch(`${base}/.well-known/mcp/server-card.json`)).text());
  expect([card.remotes, 'tools' in card]).toEqual([[{ type: 'streamable-http', url: resource }], false]);
});

it('refuses a card it cannot write when the application starts, not at its first reader', async () => {
  await expect(serve({ serverCard: true }, 'express')).rejects.toThrow(
    `A server card needs a reverse-DNS name with one slash, such as 'io.github.you/weather'; got "weather".`,
  );
});
