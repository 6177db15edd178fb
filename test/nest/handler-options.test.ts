import { Injectable } from '@nestjs/common';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryEventStore, Tool } from '../../src';
import type { McpModuleOptions } from '../../src/nest';
import { NestApps } from '../support/nest-app';
import { LEGACY_HEADERS, send, type Reply } from '../support/raw-http';
import { recordingFetch, type Seen } from '../support/recording-fetch';

/**
 * The handler's options reach the endpoint the module mounts (before, only `validateHost`, `allowedHosts`, `auth`
 * and `cors` did): SSE polling (`sseCloseAfterMs`, `sseRetryMs`) and a given `eventStore` over a real SDK client,
 * the per-caller session cap and the body limit over raw HTTP. A real Nest application on Express.
 */
jest.setTimeout(60_000);

/** Settled once the client came back with `Last-Event-ID` (the long call waits for it). */
let resumed!: () => void;
let reconnection = new Promise<void>((resolve) => (resumed = resolve));

@Injectable()
class Slow {
  @Tool({ description: 'Finishes once the client has reconnected for its result.' })
  async long(): Promise<string> {
    await reconnection;
    return 'done after polling';
  }

  @Tool()
  ping(): string {
    return 'pong';
  }
}

const apps = new NestApps('slow', [Slow]);
afterAll(() => apps.close());
const serve = (options: Partial<McpModuleOptions>) => apps.serve(options);

function initialize(url: string): Promise<Reply> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  return send(url, 'POST', { ...LEGACY_HEADERS, host: new URL(url).host }, JSON.stringify(body));
}

describe('McpModule passes the handler options on', () => {
  it('sseCloseAfterMs and sseRetryMs: a long call’s stream closes after the priming event; eventStore: the given store keeps it', async () => {
    reconnection = new Promise<void>((resolve) => (resumed = resolve));
    const eventStore = new InMemoryEventStore({ maxEvents: 100 });
    const url = await serve({ sseCloseAfterMs: 50, sseRetryMs: 20, eventStore });
    const seen: Seen[] = [];
    const client = new V1Client({ name: 'v1', version: '1' });
    try {
      await client.connect(new V1Http(new URL(url), { fetch: recordingFetch(seen, () => resumed()) }));
      const result = await client.callTool({ name: 'long', arguments: {} });
      expect(JSON.stringify(result)).toBe('{"content":[{"type":"text","text":"done after polling"}]}');

      const post = seen.find((s) => s.rpc === 'tools/call')!;
      expect(post.status).toBe(200);
      // The POST stream carried the priming event alone (with the retry hint given), then ended.
      const primed = /^id: (\S+)\nretry: 20\ndata: \n\n$/.exec(await post.text!);
      expect(primed).not.toBeNull();
      const resumes = seen.filter((s) => s.method === 'GET' && s.lastEventId !== null);
      expect(resumes.map((s) => [s.lastEventId, s.status])).toEqual([[primed![1], 200]]);
      // The events went to the store the module was given, not to a default of the endpoint's.
      expect(await eventStore.getStreamIdForEventId(primed![1])).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it('maxSessionsPerCaller: a caller’s session beyond the cap is answered 429', async () => {
    const url = await serve({ maxSessionsPerCaller: 1 });
    expect((await initialize(url)).status).toBe(200);
    const refused = await initialize(url);
    expect(refused.status).toBe(429);
    expect(refused.body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Too Many Requests: this client holds too many open sessions; close one (DELETE) or try again later."},"id":null}',
    );
  });

  it('maxRequestBodySize bounds a body the endpoint reads itself (ahead of Express)', async () => {
    const url = await serve({ maxRequestBodySize: 1_000, bypassRouter: true });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(2_000) } });
    const reply = await send(url, 'POST', { ...LEGACY_HEADERS, host: new URL(url).host }, ping);
    expect(reply.status).toBe(413);
  });

  it('legacy: stateless answers a 2025-era initialize without a session id', async () => {
    const url = await serve({ legacy: 'stateless' });
    const reply = await initialize(url);
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
  });

  it('route prefixes the session ids it hands out', async () => {
    const url = await serve({ route: 'nest-1' });
    const reply = await initialize(url);
    expect(reply.status).toBe(200);
    expect(String(reply.headers['mcp-session-id'])).toMatch(/^nest-1\.[0-9a-f-]{36}$/);
  });
});
