import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reply } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';
import { McpServer, type McpLogger } from 'onemodelcontext';

/**
 * Issue 29: `Origin` is validated on every bind, not only loopback. Before, with `host: '0.0.0.0'` a request
 * with a foreign `Origin` and `Host` ran a tool (200) while the same request on loopback got 403. Also:
 * `allowedHosts` checks `Host` behind a reverse proxy, `Origin: null` is refused, and binding beyond loopback
 * without `auth` logs one warning. Real HTTP; the proxy is a small node:http forwarder that keeps the
 * client's `Host`, as nginx does with `proxy_set_header Host $host`.
 */

const warnings: string[] = [];
const logger: McpLogger = {
  error: () => undefined,
  warn: (m: string) => void warnings.push(m),
  info: () => undefined,
  debug: () => undefined,
};
const servers: McpServer[] = [];
let proxy: Server | undefined;

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  if (proxy) await new Promise((resolve) => proxy!.close(resolve));
  proxy = undefined;
  warnings.length = 0;
});

async function serve(options: Parameters<McpServer['serveHttp']>[0]): Promise<number> {
  const server = new McpServer({ name: 'origin', version: '1' }, { logger });
  server.tool('ping', { description: 'Answers pong.' }, () => 'pong');
  servers.push(server);
  return (await server.serveHttp({ port: 0, ...options })).port;
}

/** A 2026-07-28 `tools/call` of `ping` sent to 127.0.0.1:`port`, with the given Host and Origin. */
function callPing(port: number, headers: { host?: string; origin?: string }): Promise<Reply> {
  const sent = { host: headers.host ?? `127.0.0.1:${port}`, ...(headers.origin !== undefined && { origin: headers.origin }) };
  return modernRequest(`http://127.0.0.1:${port}/mcp`, 'tools/call', { name: 'ping', arguments: {} }, { headers: sent });
}

const ran = (reply: Reply) => reply.status === 200 && reply.body.includes('"text":"pong"');

describe('on loopback', () => {
  it('runs a call from a loopback origin and refuses a foreign origin and the null origin with 403', async () => {
    const port = await serve({});
    expect(ran(await callPing(port, { origin: 'http://localhost:5173' }))).toBe(true);
    expect((await callPing(port, { origin: 'https://evil.example' })).status).toBe(403);
    const nulled = await callPing(port, { origin: 'null' });
    expect([nulled.status, nulled.body]).toEqual([
      403,
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: the null Origin is not allowed."},"id":null}',
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('on 0.0.0.0 (before: a foreign Origin and Host ran the tool, 200)', () => {
  it('refuses a foreign Origin with 403 whatever the Host', async () => {
    const port = await serve({ host: '0.0.0.0' });
    const reply = await callPing(port, { host: 'evil.example', origin: 'https://evil.example' });
    expect([reply.status, reply.body]).toEqual([
      403,
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: this Origin is not allowed."},"id":null}',
    ]);
    expect((await callPing(port, { origin: 'null' })).status).toBe(403);
  });

  it('runs a call without Origin (clients that are not browsers) and from an origin cors lists', async () => {
    const port = await serve({ host: '0.0.0.0', cors: { origins: ['https://app.example'] } });
    expect(ran(await callPing(port, {}))).toBe(true);
    expect(ran(await callPing(port, { origin: 'https://app.example' }))).toBe(true);
    expect((await callPing(port, { origin: 'https://app.example.evil' })).status).toBe(403);
  });

  it('logs one warning at start-up when there is no auth', async () => {
    const port = await serve({ host: '0.0.0.0' });
    expect(warnings).toEqual([
      `The MCP endpoint listens on 0.0.0.0, beyond loopback, without auth: anyone who reaches http://0.0.0.0:${port}/mcp can call every tool. Give serveHttp({ auth }) unless a proxy in front authenticates callers.`,
    ]);
  });

  it('checks Host against allowedHosts, and accepts those hosts as origins', async () => {
    const port = await serve({ host: '0.0.0.0', allowedHosts: ['mcp.example.test'] });
    expect(ran(await callPing(port, { host: 'mcp.example.test' }))).toBe(true);
    expect(ran(await callPing(port, { host: 'mcp.example.test:443', origin: 'https://mcp.example.test' }))).toBe(true);
    const foreign = await callPing(port, { host: 'evil.example' });
    expect([foreign.status, foreign.body]).toEqual([
      403,
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Host: evil.example"},"id":null}',
    ]);
    expect((await callPing(port, { host: 'mcp.example.test', origin: 'https://evil.example' })).status).toBe(403);
  });
});

/** A reverse proxy on a free port forwarding to 127.0.0.1:`target`, keeping the client's Host and Origin. */
async function forwardingProxy(target: number): Promise<number> {
  proxy = createServer((req, res) => {
    const upstream = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return (proxy.address() as AddressInfo).port;
}

describe('behind a reverse proxy', () => {
  it('answers the public host name given in allowedHosts, and refuses other hosts and foreign origins', async () => {
    const port = await forwardingProxy(await serve({ allowedHosts: ['mcp.example.test'] }));
    expect(ran(await callPing(port, { host: 'mcp.example.test' }))).toBe(true);
    expect(ran(await callPing(port, { host: 'mcp.example.test', origin: 'https://mcp.example.test' }))).toBe(true);
    expect((await callPing(port, { host: 'rebound.evil.example' })).status).toBe(403);
    expect((await callPing(port, { host: 'mcp.example.test', origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses the public host name on a loopback bind without allowedHosts (the reason to give it)', async () => {
    const port = await forwardingProxy(await serve({}));
    expect((await callPing(port, { host: 'mcp.example.test' })).status).toBe(403);
  });
});

describe('option checks', () => {
  it("refuses 'null' among cors.origins and a host name with a port in allowedHosts", async () => {
    await expect(serve({ cors: { origins: ['null'] } })).rejects.toThrow(
      new TypeError(`cors.origins must list origins such as ['https://app.example.com'] (no '*', no 'null', no trailing slash).`),
    );
    await expect(serve({ allowedHosts: ['mcp.example.test:443'] })).rejects.toThrow(
      new TypeError(
        `allowedHosts lists the host names the endpoint answers to, without scheme or port (IPv6 in brackets), such as ['mcp.example.com']; got ["mcp.example.test:443"].`,
      ),
    );
  });
});
