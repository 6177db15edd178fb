import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Int32, McpServer, Param, Prompt, RequestContext, Resource, Tool, ToolError, type McpServerOptions } from '../../../src';
import { connected, ERAS } from '../support';

/** The real OpenTelemetry SDK, registered globally as an application would, with in-memory exporters. */
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

const tracer = trace.getTracer('test');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

class Tools {
  @Tool()
  add(@Param('a', Int32) a: number, @Param('b', Int32) b: number): number {
    return a + b;
  }

  @Tool()
  login(@Param('password') password: string): string {
    return password.length > 0 ? 'ok' : 'empty';
  }

  @Tool()
  refused(): string {
    throw new ToolError('No such docket.');
  }

  @Tool()
  broken(): string {
    throw new Error('database unreachable');
  }

  @Tool()
  nested(): string {
    return tracer.startActiveSpan('inner work', (span) => {
      span.end();
      return 'done';
    });
  }

  @Resource('notes://{id}')
  note(@Param('id') id: string): string {
    return `note ${id}`;
  }

  @Prompt()
  greet(@Param('name') name: string): string {
    return `Hello ${name}`;
  }
}

/** A tool that runs until its call is cancelled, telling the test when it started and when its signal aborted. */
class Waiter {
  started!: Promise<void>;
  aborted!: Promise<void>;
  private markStarted!: () => void;
  private markAborted!: () => void;

  constructor() {
    this.reset();
  }

  /** Ready for the next call. */
  reset(): this {
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    this.aborted = new Promise((resolve) => (this.markAborted = resolve));
    return this;
  }

  @Tool({ returns: String })
  async hold(ctx: RequestContext): Promise<string> {
    this.markStarted();
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    this.markAborted();
    return 'too late';
  }
}

/** A client's call of `hold`, cancelled once the tool runs; resolves when the tool saw its signal abort. */
async function cancelHold(waiter: Waiter, call: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const abort = new AbortController();
  const answered = call(abort.signal);
  await waiter.started;
  abort.abort('the user gave up');
  await expect(answered).rejects.toThrow('the user gave up');
  await waiter.aborted;
}

/** The cancelled call's span: ended when the cancellation arrived, not when the connection closes. */
function expectCancelled(span: ReadableSpan): void {
  expect(span.ended).toBe(true);
  expect(span.attributes['error.type']).toBe('cancelled');
  expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'The client cancelled the request.' });
}

const newServer = (options: McpServerOptions = {}) =>
  new McpServer({ name: 'otel', version: '1.2.3' }, { logger: false, ...options }).add(new Tools());

const finished = () => spans.getFinishedSpans();
const serverSpans = () => finished().filter((s) => s.kind === SpanKind.SERVER);
const only = (name: string): ReadableSpan => {
  const found = serverSpans().filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0];
};

async function operationPoints() {
  await reader.forceFlush();
  const exported = metricExporter.getMetrics();
  const latest = exported[exported.length - 1];
  const metric = latest.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData;
  return metric;
}

/** The instrumentation scopes of the latest metrics export. */
function metricScopes() {
  return metricExporter
    .getMetrics()
    .at(-1)!
    .scopeMetrics.map((s) => s.scope);
}

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;

beforeEach(() => {
  spans.reset();
});

describe.each(ERAS)('over an in-memory pair at %s', (version, mode) => {
  it("a tools/call span is SERVER, named after the tool, with the conventions' attributes", async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    const span = only('tools/call add');
    // The library's own name and version, not the application's ('otel' 1.2.3).
    expect(span.instrumentationScope).toEqual({ name: 'onemodelcontext', version: PACKAGE_VERSION });
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'jsonrpc.request.id': expect.any(String),
      'mcp.protocol.version': version,
    });
    await client.close();
  });

  it('a client sending traceparent in _meta gets a child span of its own span', async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } });
    const span = only('tools/call add');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    await client.close();
  });

  it('a span created inside the tool nests under the server span', async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.callTool({ name: 'nested', arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const server = only('tools/call nested');
    const inner = finished().find((s) => s.name === 'inner work')!;
    expect(inner.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(inner.spanContext().traceId).toBe(TRACE_ID);
    await client.close();
  });

  it.each([
    ['an argument error', 'add', { a: 'x' }],
    ['a ToolError', 'refused', {}],
    ['a masked failure', 'broken', {}],
  ])('%s is an isError result: status ERROR, error.type tool_error', async (_label, name, args) => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.callTool({ name, arguments: args });
    const span = only(`tools/call ${name}`);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes['rpc.response.status_code']).toBeUndefined();
    await client.close();
  });

  it('a masked failure is recorded as an exception event on the span, with its stack', async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.callTool({ name: 'broken', arguments: {} });
    const [event] = only('tools/call broken').events;
    expect(event.name).toBe('exception');
    expect(event.attributes?.['exception.message']).toBe('database unreachable');
    expect(String(event.attributes?.['exception.stacktrace'])).toContain('telemetry.test.ts');
  });

  it('a protocol error sets error.type and rpc.response.status_code to the JSON-RPC code, the status to its message', async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow('Unknown tool: nope');
    const span = only('tools/call nope');
    expect(span.attributes['error.type']).toBe('-32602');
    expect(span.attributes['rpc.response.status_code']).toBe('-32602');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unknown tool: nope' });
    await client.close();
  });

  it('an unknown resource records the code the client received: -32002 before 2026-07-28, -32602 from it', async () => {
    const { client, received } = await connected(newServer(), mode);
    spans.reset();
    await expect(client.readResource({ uri: 'nothing://here' })).rejects.toThrow('Resource not found');
    const wire = received.map((m) => m.error as { code: number } | undefined).find((e) => e !== undefined)!;
    expect(wire.code).toBe(version === '2025-11-25' ? -32002 : -32602);
    const span = only('resources/read');
    expect(span.attributes['error.type']).toBe(String(wire.code));
    expect(span.attributes['rpc.response.status_code']).toBe(String(wire.code));
    const points = (await operationPoints()).dataPoints.filter(
      (p) => p.attributes['mcp.method.name'] === 'resources/read' && p.attributes['error.type'] !== undefined,
    );
    expect(points.map((p) => [p.attributes['mcp.protocol.version'], p.attributes['rpc.response.status_code']])).toContainEqual([
      version,
      String(wire.code),
    ]);
    await client.close();
  });

  it('resources/read carries mcp.resource.uri but keeps it out of the name; prompts/get names the prompt', async () => {
    const { client } = await connected(newServer(), mode);
    spans.reset();
    await client.readResource({ uri: 'notes://7' });
    await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(only('resources/read').attributes['mcp.resource.uri']).toBe('notes://7');
    const prompt = only('prompts/get greet');
    expect(prompt.attributes['gen_ai.prompt.name']).toBe('greet');
    expect(prompt.attributes['gen_ai.operation.name']).toBeUndefined();
    await client.close();
  });

  it('no argument value is recorded by default; recordArguments opts in', async () => {
    const quiet = await connected(newServer(), mode);
    spans.reset();
    await quiet.client.callTool({ name: 'login', arguments: { password: 'hunter2' } });
    expect(JSON.stringify(finished().map((s) => [s.attributes, s.events]))).not.toContain('hunter2');
    await quiet.client.close();

    const loud = await connected(newServer({ telemetry: { recordArguments: true } }), mode);
    spans.reset();
    await loud.client.callTool({ name: 'login', arguments: { password: 'hunter2' } });
    expect(only('tools/call login').attributes['gen_ai.tool.call.arguments']).toBe('{"password":"hunter2"}');
    await loud.client.close();
  });

  it('a call the client cancels ends its span then, with error.type cancelled, while the connection stays open', async () => {
    const waiter = new Waiter();
    const { client } = await connected(newServer().add(waiter), mode);
    spans.reset();
    await cancelHold(waiter, (signal) => client.callTool({ name: 'hold', arguments: {} }, { signal }));
    expectCancelled(only('tools/call hold'));
    // The connection still serves, and its next call gets a span of its own.
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(only('tools/call add').status.code).toBe(SpanStatusCode.UNSET);
    await client.close();
  });

  it('telemetry: false records nothing', async () => {
    const { client } = await connected(newServer({ telemetry: false }), mode);
    spans.reset();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(finished()).toEqual([]);
    await client.close();
  });
});

describe('metrics', () => {
  it("mcp.server.operation.duration is a histogram in seconds with the conventions' attributes", async () => {
    const { client } = await connected(newServer(), 'legacy');
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'refused', arguments: {} });
    const metric = await operationPoints();
    expect(metric.descriptor.unit).toBe('s');
    expect(metricScopes()).toContainEqual({ name: 'onemodelcontext', version: PACKAGE_VERSION });
    const add = metric.dataPoints.find((p) => p.attributes['gen_ai.tool.name'] === 'add')!;
    expect(add.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'mcp.protocol.version': '2025-11-25',
    });
    expect(add.value.count).toBeGreaterThanOrEqual(1);
    expect(add.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const refused = metric.dataPoints.find((p) => p.attributes['gen_ai.tool.name'] === 'refused')!;
    expect(refused.attributes['error.type']).toBe('tool_error');
    // Request ids and session ids are high-cardinality: span attributes only.
    expect(metric.dataPoints.some((p) => 'jsonrpc.request.id' in p.attributes || 'mcp.session.id' in p.attributes)).toBe(false);
    await client.close();
  });

  it('mcp.server.session.duration is recorded when a connection closes', async () => {
    const { client } = await connected(newServer(), 'legacy');
    await client.close();
    await reader.forceFlush();
    const exported = metricExporter.getMetrics();
    const metric = exported[exported.length - 1].scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'mcp.server.session.duration') as HistogramMetricData;
    expect(metric.descriptor.unit).toBe('s');
    const point = metric.dataPoints.find((p) => p.attributes['mcp.protocol.version'] === '2025-11-25')!;
    expect(point.value.count).toBeGreaterThanOrEqual(1);
  });
});

describe('over HTTP', () => {
  let http: HttpServer;
  let url: string;
  let server: McpServer;
  const waiter = new Waiter();

  beforeAll(async () => {
    server = newServer().add(waiter);
    const mcp = server.createHttpHandler({ validateHost: false });
    // Stands in for the HTTP instrumentation of an application: the request is handled inside its span.
    http = createServer((req, res) => {
      void tracer.startActiveSpan('POST /mcp', { kind: SpanKind.SERVER }, (span) => mcp.handle(req, res).finally(() => span.end()));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await server.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it("a 2025-era session: network attributes, the session id, the HTTP request's span as parent, no token recorded", async () => {
    const transport = new V1Http(new URL(url), { requestInit: { headers: { authorization: 'Bearer s3cr3t-token' } } });
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    spans.reset();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    const span = only('tools/call add');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'jsonrpc.request.id': expect.any(String),
      'mcp.session.id': transport.sessionId,
      'mcp.protocol.version': '2025-11-25',
    });
    const httpSpan = finished().find((s) => s.name === 'POST /mcp' && s.spanContext().spanId === span.parentSpanContext?.spanId);
    expect(httpSpan?.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(JSON.stringify(finished().map((s) => [s.attributes, s.events, s.links]))).not.toContain('s3cr3t');
    await client.close();
  });

  it('a 2025-era session of a server with telemetry: false: its hot POSTs are answered and record nothing', async () => {
    const quiet = newServer({ telemetry: false });
    const { port } = await quiet.serveHttp({ port: 0 });
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Http(new URL(`http://127.0.0.1:${port}/mcp`)));
    spans.reset();
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({ content: [{ type: 'text', text: '3' }] });
    expect(finished()).toEqual([]);
    await client.close();
    await quiet.close();
  });

  it('a 2025-era session: an unknown resource records -32002, the code the client received', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Http(new URL(url)));
    spans.reset();
    const error = (await client.readResource({ uri: 'nothing://here' }).catch((e: unknown) => e)) as { code?: unknown };
    expect(error.code).toBe(-32002);
    const span = only('resources/read');
    expect([span.attributes['error.type'], span.attributes['rpc.response.status_code']]).toEqual(['-32002', '-32002']);
    await client.close();
  });

  it('a 2025-era session: a call cancelled with notifications/cancelled ends its span while the session stays open', async () => {
    waiter.reset();
    const transport = new V1Http(new URL(url));
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(transport);
    spans.reset();
    await cancelHold(waiter, (signal) => client.callTool({ name: 'hold', arguments: {} }, undefined, { signal }));
    const span = only('tools/call hold');
    expectCancelled(span);
    expect(span.attributes['mcp.session.id']).toBe(transport.sessionId);
    await client.close();
  });

  it('a 2026-07-28 request: the client aborting its HTTP request ends the span as cancelled', async () => {
    waiter.reset();
    const client = new V2Client({ name: 'v2', version: '2' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(url)));
    spans.reset();
    await cancelHold(waiter, (signal) => client.callTool({ name: 'hold', arguments: {} }, { signal }));
    const span = only('tools/call hold');
    expectCancelled(span);
    expect(span.attributes['mcp.protocol.version']).toBe('2026-07-28');
    await client.close();
  });

  it("a 2026-07-28 request with traceparent: the client's span is the parent, the HTTP request's span a link", async () => {
    const client = new V2Client({ name: 'v2', version: '2' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Http(new URL(url)));
    spans.reset();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } });
    const span = only('tools/call add');
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(span.attributes['mcp.session.id']).toBeUndefined();
    const httpSpan = finished().find((s) => s.name === 'POST /mcp')!;
    expect(span.links.map((l) => l.context.spanId)).toEqual([httpSpan.spanContext().spanId]);
    await client.close();
  });
});
