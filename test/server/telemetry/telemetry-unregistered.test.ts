import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '../../../src';
import { ConnectionTelemetry } from '../../../src/server/telemetry/telemetry';

/**
 * Nothing registered with OpenTelemetry in this process (unlike telemetry-late.test.ts, no context manager
 * either): a 2025-era HTTP session's calls take no telemetry step at all, neither on the way in (the hot POST's
 * dispatch and the inbound stage do not ask `begin`) nor on the way out (the outbound `telemetry` stage is not on
 * the connection's list, so no answer is shown to `answered`). Once something registers, the same session's
 * next hot POST opens its operation and its answer ends it through the stage installed then.
 */
jest.setTimeout(30_000);

const begin = jest.spyOn(ConnectionTelemetry.prototype, 'begin');
const answered = jest.spyOn(ConnectionTelemetry.prototype, 'answered');

const REGISTRY = Symbol.for('opentelemetry.js.api.1');

it('takes no telemetry step until something registers, then traces the same session’s next call', async () => {
  expect((globalThis as Record<symbol, unknown>)[REGISTRY]).toBeUndefined();
  const server = new McpServer({ name: 'unregistered', version: '1' }, { logger: false }).tool('add', {}, () => 'added');
  const { port } = await server.serveHttp({ port: 0 });
  const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    for (let i = 0; i < 3; i++)
      expect(await client.callTool({ name: 'add', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'added' }] });
    expect([begin.mock.calls.length, answered.mock.calls.length]).toEqual([0, 0]);

    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

    expect(await client.callTool({ name: 'add', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'added' }] });
    expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(['tools/call add']);
    expect(begin).toHaveBeenCalledTimes(1);
    const { id } = begin.mock.calls[0][0] as { id: unknown };
    // The outbound stage, on the list from that operation on, saw the reply that ended it.
    expect(answered.mock.calls.map(([message]) => (message as { id?: unknown }).id)).toEqual([id]);
  } finally {
    await client.close();
    await server.close();
  }
});
