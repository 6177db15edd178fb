import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type AuthInfo } from 'onemodelcontext';
import { errorsAgainst } from '../../cli/schemas';

/**
 * `serveHttp({ serverCard })` (issue 40): the server card at `/.well-known/mcp/server-card.json` on the host's root
 * (whatever the MCP path), JSON with the CORS headers the server-cards proposal asks for; off unless asked.
 */

function weather(): McpServer {
  const server = new McpServer({ name: 'weather', version: '2.0.0', title: 'Weather' }, { logger: false });
  server.tool('forecast', { description: 'Forecasts the weather of a city.', params: { city: String } }, ({ city }) => `rain in ${city}`);
  return server;
}

const open: McpServer[] = [];
afterAll(() => Promise.all(open.map((s) => s.close())));

async function served(options: Parameters<McpServer['serveHttp']>[0]): Promise<string> {
  const server = weather();
  open.push(server);
  const { host, port } = await server.serveHttp({ port: 0, ...options });
  return `http://${host}:${port}`;
}

describe('serveHttp({ serverCard })', () => {
  let base: string;
  beforeAll(async () => {
    base = await served({
      path: '/api/mcp',
      serverCard: { name: 'io.github.example/weather', description: 'Forecasts.', url: 'https://mcp.example.com/api/mcp' },
    });
  });

  it('serves the card at the well-known path of the root, with its headers', async () => {
    const response = await fetch(`${base}/.well-known/mcp/server-card.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET');
    const text = await response.text();
    expect(text).toBe(
      '{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"io.github.example/weather","version":"2.0.0",' +
        '"description":"Forecasts.","title":"Weather","remotes":[{"type":"streamable-http","url":"https://mcp.example.com/api/mcp"}],' +
        '"capabilities":{"tools":{"listChanged":true},"logging":{}},' +
        '"tools":[{"name":"forecast","description":"Forecasts the weather of a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}]}',
    );
    expect(errorsAgainst('server-card', JSON.parse(text))).toBe('');
  });

  it('serves the same card at the path the proposal names, and answers preflights and HEAD', async () => {
    const card = await (await fetch(`${base}/.well-known/mcp/server-card.json`)).text();
    expect(await (await fetch(`${base}/.well-known/mcp/server-card`)).text()).toBe(card);
    const preflight = await fetch(`${base}/.well-known/mcp/server-card.json`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
    const head = await fetch(`${base}/.well-known/mcp/server-card.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(card)));
  });

  it('answers 405 to other methods', async () => {
    const response = await fetch(`${base}/.well-known/mcp/server-card.json`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('serveHttp without serverCard', () => {
  it('serves no card: nothing served before changes', async () => {
    const base = await served({});
    const response = await fetch(`${base}/.well-known/mcp/server-card.json`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Not Found');
  });
});

describe('serveHttp({ serverCard }) with auth', () => {
  it('leaves the primitives out (the card is public) and lists the protected resource as the remote', async () => {
    const verify = async (): Promise<AuthInfo | undefined> => undefined;
    const base = await served({
      serverCard: { name: 'io.github.example/weather' },
      auth: { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', verify },
    });
    const card = (await (await fetch(`${base}/.well-known/mcp/server-card.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(card)).toBe(
      '{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"io.github.example/weather","version":"2.0.0",' +
        '"title":"Weather","remotes":[{"type":"streamable-http","url":"https://mcp.example.com/mcp"}],"capabilities":{"tools":{"listChanged":true},"logging":{}}}',
    );
    expect(errorsAgainst('server-card', card)).toBe('');
  });
});

describe('serveHttp({ serverCard }) refuses a card it cannot write, before listening', () => {
  it.each([
    [
      true,
      'A server card needs a reverse-DNS name with one slash, such as \'io.github.you/weather\'; got "weather". Give serverCard: { name } (or --name on the command line).',
    ],
    [
      { name: 'io.github.example/weather', url: 'not a url' },
      "A server card's url is the endpoint's public http(s) URL, such as 'https://mcp.example.com/mcp'; got \"not a url\".",
    ],
  ])('%j', async (serverCard, message) => {
    await expect(weather().serveHttp({ port: 0, serverCard })).rejects.toThrow(message);
  });
});

describe('createHttpHandler({ serverCard })', () => {
  /** A Node server of the application's own that routes every request to the handler. */
  async function mounted(options: Parameters<McpServer['createHttpHandler']>[0]): Promise<string> {
    const server = weather();
    open.push(server);
    const handler = server.createHttpHandler(options);
    const http = createServer((req, res) => void handler.handle(req, res));
    closers.push(() => new Promise((resolve) => http.close(() => resolve())));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }
  const closers: (() => Promise<void>)[] = [];
  afterAll(() => Promise.all(closers.map((close) => close())));

  it('answers the card routed to it, the same text as serveHttp, ahead of the Host check', async () => {
    const serverCard = { name: 'io.github.example/weather', url: 'https://mcp.example.com/mcp' };
    const [handled, listening] = [await mounted({ path: '/mcp', serverCard }), await served({ serverCard })];
    const text = await (await fetch(`${listening}/.well-known/mcp/server-card.json`)).text();
    const response = await fetch(`${handled}/.well-known/mcp/server-card`, { headers: { host: 'elsewhere.example.com' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe(text);
  });

  it('without serverCard, the card’s path is one the endpoint does not serve (404)', async () => {
    const base = await mounted({ path: '/mcp' });
    expect((await fetch(`${base}/.well-known/mcp/server-card.json`)).status).toBe(404);
  });

  it('refuses a card it cannot write when the handler is made', () => {
    expect(() => weather().createHttpHandler({ serverCard: true })).toThrow('A server card needs a reverse-DNS name with one slash');
  });
});
