import { createServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '../../../src';
import { createHttpHandler, type HttpHandler, type HttpServing, type SessionTuning } from '../../../src/server/http/entry/endpoint';
import { recordingFetch, type Seen } from '../../support/recording-fetch';

/**
 * Issue 25, SSE polling (SEP-1699, 2025-11-25): with `sseCloseAfterMs`, a call still running has its POST stream
 * closed after the priming event's `retry` hint; a real SDK client reconnects with GET and `Last-Event-ID` and
 * receives the call's result there. Both ways a session answers a POST are covered: the direct path and the
 * SDK's transport.
 */
jest.setTimeout(60_000);

interface Endpoint {
  readonly url: string;
  close(): Promise<void>;
}

async function endpoint(server: McpServer, tuning: SessionTuning): Promise<Endpoint> {
  const serving = (server as unknown as { httpServing(): HttpServing }).httpServing();
  const handler: HttpHandler = createHttpHandler(
    serving,
    { path: '/mcp', sseRetryMs: 20, sseCloseAfterMs: 50 },
    undefined,
    undefined,
    tuning,
  );
  const http: NodeServer = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe.each([
  ['the direct path', {}],
  ["the SDK's transport", { fastPaths: false }],
] as const)('SSE polling through %s', (_label, tuning) => {
  it("closes a long call's stream after the priming event; the client resumes with Last-Event-ID and gets the result", async () => {
    let resumed!: () => void;
    const reconnection = new Promise<void>((resolve) => (resumed = resolve));
    // The call finishes only once the client has come back for it: its stream must have been closed first.
    const server = new McpServer({ name: 'poll', version: '1' }).tool('long', {}, async () => {
      await reconnection;
      return 'done after polling';
    });
    const http = await endpoint(server, tuning);
    const seen: Seen[] = [];
    const client = new V1Client({ name: 'v1', version: '1' });
    try {
      await client.connect(new V1Http(new URL(http.url), { fetch: recordingFetch(seen, resumed) }));
      const result = await client.callTool({ name: 'long', arguments: {} });
      expect(JSON.stringify(result)).toBe('{"content":[{"type":"text","text":"done after polling"}]}');

      const post = seen.find((s) => s.rpc === 'tools/call')!;
      expect(post.status).toBe(200);
      // The POST stream held the priming event alone: an id, the retry hint, empty data; then it ended.
      const text = await post.text!;
      const primed = /^id: (\S+)\nretry: 20\ndata: \n\n$/.exec(text);
      expect(primed).not.toBeNull();
      const resumes = seen.filter((s) => s.method === 'GET' && s.lastEventId !== null);
      expect(resumes.map((s) => [s.lastEventId, s.status])).toEqual([[primed![1], 200]]);
    } finally {
      await client.close();
      await http.close();
      await server.close();
    }
  });
});

describe('SSE polling is off by default', () => {
  it('a long call keeps its stream to the end: no reconnection', async () => {
    let finish!: () => void;
    const release = new Promise<void>((resolve) => (finish = resolve));
    const server = new McpServer({ name: 'poll', version: '1' }).tool('long', {}, async (_args, ctx) => {
      await ctx.reportProgress(1, 2);
      await release;
      return 'done in one stream';
    });
    const { url } = await server.serveHttp({ port: 0, sseRetryMs: 20 });
    const seen: Seen[] = [];
    const client = new V1Client({ name: 'v1', version: '1' });
    try {
      await client.connect(new V1Http(new URL(url), { fetch: recordingFetch(seen, () => undefined) }));
      const call = client.callTool({ name: 'long', arguments: {} }, undefined, { onprogress: () => finish() });
      expect(JSON.stringify(await call)).toBe('{"content":[{"type":"text","text":"done in one stream"}]}');
      expect(await seen.find((s) => s.rpc === 'tools/call')!.text).toContain('done in one stream');
      expect(seen.filter((s) => s.lastEventId !== null)).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it.each([0, 1.5, -1])('refuses sseCloseAfterMs %p with a message that says what it takes', async (ms) => {
    const server = new McpServer({ name: 'poll', version: '1' });
    await expect(server.serveHttp({ port: 0, sseCloseAfterMs: ms })).rejects.toThrow(
      `sseCloseAfterMs takes a whole number of milliseconds from 1, for example { sseCloseAfterMs: 30000 }; got ${ms}.`,
    );
    await server.close();
  });
});
