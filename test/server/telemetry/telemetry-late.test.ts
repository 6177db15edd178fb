import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { McpServer, Tool } from '../../../src';
import { connected } from '../support';

/**
 * `@opentelemetry/api` installed, no SDK registered yet: the server does no span or metric work at all
 * (the tool runs in no span, not even a non-recording one), and an SDK the application registers after
 * the server is built is used from the next request on, on connections already open. A context manager
 * and propagator are registered from the start, so that a span, had one been started, would be visible to
 * the tool.
 */
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

class Probe {
  /** What the tool's own code sees of the active span. */
  @Tool()
  activeSpan(): string {
    const span = trace.getActiveSpan();
    return span === undefined ? 'none' : span.isRecording() ? 'recording' : 'non-recording';
  }
}

const call = async (client: Awaited<ReturnType<typeof connected>>['client']) => {
  const result = await client.callTool({ name: 'active_span', arguments: {}, _meta: { traceparent: TRACEPARENT } });
  return (result.content as { text: string }[])[0].text;
};

it('records nothing without an SDK, then traces and measures once one is registered, on the same connection', async () => {
  const server = new McpServer({ name: 'late', version: '1' }, { logger: false }).add(new Probe());
  const { client } = await connected(server, 'legacy');

  expect(await call(client)).toBe('none');

  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

  expect(await call(client)).toBe('recording');
  const [span] = spans.getFinishedSpans();
  expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(['tools/call active_span']);
  expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');

  await client.close();
  await reader.forceFlush();
  const exported = exporter
    .getMetrics()
    .at(-1)!
    .scopeMetrics.flatMap((s) => s.metrics);
  const operation = exported.find((m) => m.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData;
  // Only the call made after the meter provider was registered.
  expect(operation.dataPoints.map((p) => [p.attributes['gen_ai.tool.name'], p.value.count])).toEqual([['active_span', 1]]);
  const session = exported.find((m) => m.descriptor.name === 'mcp.server.session.duration') as HistogramMetricData;
  expect(session.dataPoints.map((p) => p.value.count)).toEqual([1]);
  await reader.shutdown();
});
