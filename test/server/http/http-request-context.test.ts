import { createServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, type HttpHandler } from '../../../src';
import { createHttpHandler, type HttpServing, type SessionTuning } from '../../../src/server/http/entry/endpoint';
import { answerOf, modernRequest } from '../../support/modern-http';

/**
 * `RequestContext.http` of a standalone server: a tool reads the headers and the client's address of the very HTTP
 * request its call came in (each POST's own on a 2025-era session), on every way the endpoint answers (the fast
 * paths and the SDK's own), and finds none over an in-memory transport or in-process.
 */
jest.setTimeout(30_000);

function server(): McpServer {
  return new McpServer({ name: 'keys', version: '1' }).tool('whoami', {}, (_args, ctx) =>
    JSON.stringify({
      key: ctx.http?.headers['x-api-key'] ?? null,
      ip: ctx.http?.ip ?? null,
      same: ctx.http?.request?.headers === ctx.http?.headers,
    }),
  );
}

const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

interface Endpoint {
  readonly url: string;
  close(): Promise<void>;
}

async function served(options: Parameters<McpServer['serveHttp']>[0] = {}): Promise<Endpoint> {
  const mcp = server();
  const { url } = await mcp.serveHttp({ port: 0, ...options });
  return { url, close: () => mcp.close() };
}

/** The endpoint with internal tuning (the fast paths off: the SDK's session transport and per-request handler answer). */
async function tuned(tuning: SessionTuning): Promise<Endpoint> {
  const mcp = server();
  const serving = (mcp as unknown as { httpServing(): HttpServing }).httpServing();
  const handler: HttpHandler = createHttpHandler(serving, { path: '/mcp' }, undefined, undefined, tuning);
  const http: NodeServer = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A 2025-era session (the v1 client) whose `x-api-key` header is changed between calls. */
async function legacyCalls(url: string): Promise<string[]> {
  const headers: Record<string, string> = { 'x-api-key': 'first' };
  const transport = new V1Http(new URL(url), { requestInit: { headers } });
  const client = new V1Client({ name: 'v1', version: '1' });
  await client.connect(transport);
  const texts = [textOf(await client.callTool({ name: 'whoami', arguments: {} }))];
  headers['x-api-key'] = 'second';
  texts.push(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
  await transport.terminateSession().catch(() => undefined);
  await client.close();
  return texts;
}

/** Calls over 2026-07-28 (the v2 client), with `x-api-key` changed between calls. */
async function modernCalls(url: string): Promise<string[]> {
  const headers: Record<string, string> = { 'x-api-key': 'first' };
  const client = new V2Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new V2Http(new URL(url), { requestInit: { headers } }));
  const texts = [textOf(await client.callTool({ name: 'whoami', arguments: {} }))];
  headers['x-api-key'] = 'second';
  texts.push(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
  await client.close();
  return texts;
}

const seen = (key: string, ip = '127.0.0.1') => JSON.stringify({ key, ip, same: true });

describe('RequestContext.http over HTTP', () => {
  let endpoint: Endpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });

  it("gives a 2025-era session's calls the headers and address of their own POST (serveHttp, fast paths)", async () => {
    endpoint = await served();
    expect(await legacyCalls(endpoint.url)).toEqual([seen('first'), seen('second')]);
  });

  it('gives 2026-07-28 calls the headers and address of their request (serveHttp, the modern pool)', async () => {
    endpoint = await served();
    expect(await modernCalls(endpoint.url)).toEqual([seen('first'), seen('second')]);
  });

  it("does the same where the SDK's session transport and per-request handler answer (fast paths off)", async () => {
    endpoint = await tuned({ fastPaths: false });
    expect(await legacyCalls(endpoint.url)).toEqual([seen('first'), seen('second')]);
    expect(await modernCalls(endpoint.url)).toEqual([seen('first'), seen('second')]);
  });

  it('does the same for 2025-era requests served statelessly (legacy: stateless)', async () => {
    endpoint = await served({ legacy: 'stateless' });
    expect(await legacyCalls(endpoint.url)).toEqual([seen('first'), seen('second')]);
  });

  it('reads the address behind trustedProxies from X-Forwarded-For, as the session cap does', async () => {
    endpoint = await served({ trustedProxies: 1 });
    const reply = await modernRequest(
      endpoint.url,
      'tools/call',
      { name: 'whoami', arguments: {} },
      { headers: { 'x-api-key': 'k', 'x-forwarded-for': '203.0.113.7, 10.0.0.2' } },
    );
    expect(textOf(answerOf(reply).result)).toBe(seen('k', '10.0.0.2'));
    const direct = await modernRequest(endpoint.url, 'tools/call', { name: 'whoami', arguments: {} }, { headers: { 'x-api-key': 'k' } });
    expect(textOf(answerOf(direct).result)).toBe(seen('k'));
  });
});

describe('RequestContext.http without HTTP', () => {
  const none = JSON.stringify({ key: null, ip: null, same: true });

  it('is undefined over an in-memory transport', async () => {
    const mcp = server();
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverEnd);
    const client = new V2Client({ name: 'mem', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(clientEnd);
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe(none);
    await client.close();
    await mcp.close();
  });

  it('is undefined in-process, and what the caller gives when it gives one', async () => {
    const mcp = server();
    expect(textOf(await mcp.callTool('whoami', {}))).toBe(none);
    const given = await mcp.callTool('whoami', {}, { context: { http: { headers: { 'x-api-key': 'by hand' }, ip: '192.0.2.1' } } });
    expect(textOf(given)).toBe(JSON.stringify({ key: 'by hand', ip: '192.0.2.1', same: false }));
  });
});
