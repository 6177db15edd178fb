import { subscribe } from 'node:diagnostics_channel';
import type * as Otel from '@opentelemetry/api';
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { sdk } from '../sdk/lazy';
import { TOOL_FAILED_CHANNEL } from '../../invoke/calling/errors';
import { PER_REQUEST_EXCHANGES } from '../http/modern/exchanges';
import type { Log } from '../../log';
import type { TelemetryOptions } from './options';
import { afterClose, afterConnect } from '../sdk/transports';
import { stageIn, stageOut } from '../protocol/stages';
import { METHODS, type TelemetryTarget } from '../methods';
import { otelRegistered } from '../otel-registry';

/**
 * OpenTelemetry per the semantic conventions for MCP: one SERVER span per request, named
 * `{mcp.method.name} {target}`, parented on the trace context in `params._meta` (else the ambient context,
 * such as the HTTP request's), and the `mcp.server.operation.duration` and `mcp.server.session.duration`
 * histograms. `@opentelemetry/api` is an optional peer, loaded only once something has registered with
 * it (`otelRegistered`, ../otel-registry.ts): until then, and when it is absent, a request costs one property lookup and nothing
 * else. Once loaded, while no SDK has registered a tracer or meter provider, a request costs two identity
 * checks; each request looks again, so a provider an application registers after building the server is
 * used from its next request on. The
 * instrumentation sits on the transport a protocol server is connected to, so it sees every request,
 * the SDK's own answers (initialize, ping, method not found) included, and the handler (so the tool's
 * own code) runs inside the span's context; an HTTP session's hot POST, which passes no inbound stage, has its
 * operation opened by the hot dispatch (`ConnectionTelemetry`), and its answer ends it in the outbound stage.
 */

/** How a protocol server is reached, as the conventions record it. */
export type Network = { readonly transport?: 'pipe' | 'tcp'; readonly protocol?: 'http' };

type Api = typeof Otel;

/**
 * The instrumentation scope of every span and metric: this library's own name and version (the
 * application's name and version are the resource's, set by whoever configures the SDK).
 */
const NAME = 'onemodelcontext';
// From src/server or dist/server alike, the package's own manifest (the bundle inlines it).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file outside rootDir, read once
const VERSION = (require('../../../package.json') as { readonly version: string }).version;
// The conventions' advice for both histograms.
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

let loaded: Api | null | undefined;

/** `@opentelemetry/api` if it can be resolved, once per process; `undefined` when it is not installed. */
function loadApi(log: Log): Api | undefined {
  if (loaded === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require('@opentelemetry/api') as Api;
      subscribe(TOOL_FAILED_CHANNEL, recordFailure);
    } catch (error) {
      loaded = null;
      if ((error as { code?: unknown })?.code !== 'MODULE_NOT_FOUND') {
        log.warn('@opentelemetry/api is installed but could not be loaded; nothing is traced', { event: 'transport.failed', error });
      }
    }
  }
  return loaded ?? undefined;
}

/** Spans this library started: a masked failure is recorded on them only, never on a caller's span. */
const ours = new WeakSet<object>();

/** A masked failure, published while the tool runs inside its span, becomes an exception event on it. */
function recordFailure(message: unknown): void {
  const span = loaded?.trace.getActiveSpan();
  if (!span || !ours.has(span) || !span.isRecording()) return;
  const error = (message as { error?: unknown }).error;
  span.recordException(error instanceof Error ? error : String(error));
}

interface Instruments {
  readonly operation: Otel.Histogram;
  readonly session: Otel.Histogram;
}

/** One request being answered: its span when tracing, its histogram when measuring (at least one of them). */
export interface Operation {
  readonly api: Api;
  readonly span: Otel.Span | undefined;
  readonly instruments: Instruments | undefined;
  readonly started: number;
  readonly attributes: Otel.Attributes;
  readonly envelopeVersion: string | undefined;
}

type Request = { readonly id: string | number; readonly method: string; readonly params?: Readonly<Record<string, unknown>> };
type Reply = {
  readonly id: string | number;
  readonly result?: { readonly isError?: unknown };
  readonly error?: { readonly code: number; readonly message: string };
};

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & Request {
  return 'method' in message && 'id' in message && message.id !== null && message.id !== undefined;
}

function isReply(message: JSONRPCMessage): message is JSONRPCMessage & Reply {
  return 'id' in message && ('result' in message || 'error' in message);
}

/** The id a `notifications/cancelled` names, when the message is one. */
function cancelledId(message: JSONRPCMessage): string | number | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * The tracer of a provider that records, or `undefined`. The global provider is the API's
 * `ProxyTracerProvider`, whose tracers only make non-recording spans until an SDK sets its delegate:
 * `getDelegateTracer` answers `undefined` until then. Any other provider is taken as it is.
 */
function recordingTracer(provider: Otel.TracerProvider): Otel.Tracer | undefined {
  const proxy = provider as Partial<Pick<Otel.ProxyTracerProvider, 'getDelegateTracer'>>;
  return typeof proxy.getDelegateTracer === 'function' ? proxy.getDelegateTracer(NAME, VERSION) : provider.getTracer(NAME, VERSION);
}

function histograms(meter: Otel.Meter): Instruments {
  return {
    operation: meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description:
        'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.',
      advice: { explicitBucketBoundaries: BUCKETS },
    }),
    session: meter.createHistogram('mcp.server.session.duration', {
      unit: 's',
      description: 'The duration of the MCP session as observed on the MCP server.',
      advice: { explicitBucketBoundaries: BUCKETS },
    }),
  };
}

/** The target each method's span names, from its row (server/methods.ts, `telemetry`); made once. */
const TARGETS: ReadonlyMap<string, TelemetryTarget> = new Map(
  METHODS.flatMap((row) => (row.telemetry === undefined ? [] : [[row.method, row.telemetry] as const])),
);

/** The low-cardinality part of the span name: the tool or prompt name. */
function targetOf(request: Request, target = TARGETS.get(request.method)): string | undefined {
  const name = target && request.params?.[target.field];
  return typeof name === 'string' ? name : undefined;
}

/** The attributes known when the request arrives, shared by the span and the duration metric. */
function requestAttributes(request: Request, network: Network): Otel.Attributes {
  const attributes: Otel.Attributes = { 'mcp.method.name': request.method };
  const row = TARGETS.get(request.method);
  if (row !== undefined) {
    if (row.operation !== undefined) attributes['gen_ai.operation.name'] = row.operation;
    const target = targetOf(request, row);
    if (target !== undefined) attributes[row.attribute] = target;
  }
  if (network.transport) attributes['network.transport'] = network.transport;
  if (network.protocol) attributes['network.protocol.name'] = network.protocol;
  return attributes;
}

/** Span-only attributes: high cardinality, so never on the metric. */
function spanAttributes(request: Request, transport: Transport, options: TelemetryOptions): Otel.Attributes {
  const attributes: Otel.Attributes = { 'jsonrpc.request.id': String(request.id) };
  if (transport.sessionId !== undefined) attributes['mcp.session.id'] = transport.sessionId;
  const uri = request.params?.uri;
  if (typeof uri === 'string' && request.method.startsWith('resources/')) attributes['mcp.resource.uri'] = uri;
  if (options.recordArguments && request.method === 'tools/call' && request.params?.arguments !== undefined) {
    attributes['gen_ai.tool.call.arguments'] = JSON.stringify(request.params.arguments);
  }
  return attributes;
}

/** The instrumentation of one `McpServer`: the providers it last saw, what it took from them, what it wraps. */
export class Telemetry {
  private tracerProvider: Otel.TracerProvider | undefined;
  private tracer: Otel.Tracer | undefined;
  private meterProvider: Otel.MeterProvider | undefined;
  private instruments: Instruments | undefined;

  private constructor(
    private readonly options: TelemetryOptions,
    private readonly log: Log,
  ) {}

  /**
   * The server's telemetry, or `undefined` when it is switched off or `@opentelemetry/api` is known to be
   * absent (an earlier server of this process failed to load it).
   */
  static of(options: TelemetryOptions | false | undefined, log: Log): Telemetry | undefined {
    if (options === false || loaded === null) return undefined;
    return new Telemetry(options ?? {}, log);
  }

  /** Whether a provider may record now (something registered with the API): the stdio loop then hands over. */
  recording(): boolean {
    return loaded !== null && otelRegistered();
  }

  /** The API, once something has registered with it; `undefined` before, and when it cannot be loaded. */
  private get api(): Api | undefined {
    if (loaded !== undefined) return loaded ?? undefined;
    return otelRegistered() ? loadApi(this.log) : undefined;
  }

  /**
   * Traces every request of each connection the protocol server takes. A server that answers some requests
   * without its transport (the hot dispatch's HTTP posts: `observedBy`) is handed the connection's telemetry to
   * take the same steps itself.
   */
  instrument(server: Server, network: Network): void {
    afterConnect(server, (transport) => {
      const connection = new ConnectionTelemetry(this, server, transport, network);
      connection.wrap();
      (server as Partial<Observed>).observedBy?.(connection);
    });
  }

  /** The API, once something has registered with it (see `api`). */
  loadedApi(): Api | undefined {
    return this.api;
  }

  /** Opens the operation of an arriving request; `undefined` when no provider records anything. */
  start(api: Api, request: Request, transport: Transport, network: Network): Operation | undefined {
    const tracer = this.activeTracer(api);
    const instruments = this.activeInstruments(api);
    if (!tracer && !instruments) return undefined;
    const attributes = requestAttributes(request, network);
    const meta = request.params?._meta as Readonly<Record<string, unknown>> | undefined;
    const envelopeVersion = meta?.[sdk().PROTOCOL_VERSION_META_KEY];
    return {
      api,
      span: tracer && this.startSpan(api, tracer, request, attributes, meta, transport),
      instruments,
      started: performance.now(),
      attributes,
      envelopeVersion: typeof envelopeVersion === 'string' ? envelopeVersion : undefined,
    };
  }

  private startSpan(
    api: Api,
    tracer: Otel.Tracer,
    request: Request,
    attributes: Otel.Attributes,
    meta: Readonly<Record<string, unknown>> | undefined,
    transport: Transport,
  ): Otel.Span {
    const ambient = api.context.active();
    const remote = typeof meta?.[sdk().TRACEPARENT_META_KEY] === 'string' ? api.propagation.extract(ambient, meta) : undefined;
    const remoteSpan = remote && api.trace.getSpanContext(remote);
    const ambientSpan = api.trace.getSpanContext(ambient);
    const target = targetOf(request);
    const span = tracer.startSpan(
      target === undefined ? request.method : `${request.method} ${target}`,
      {
        kind: api.SpanKind.SERVER,
        attributes: { ...attributes, ...spanAttributes(request, transport, this.options) },
        // The conventions: the caller's context from `_meta` is the parent; the transport's (HTTP) is linked.
        links: remoteSpan && ambientSpan ? [{ context: ambientSpan }] : undefined,
      },
      remoteSpan ? remote : ambient,
    );
    ours.add(span);
    return span;
  }

  end(operation: Operation, reply: Reply, server: Server): void {
    if (reply.error) {
      const code = String(reply.error.code);
      operation.span?.setAttribute('rpc.response.status_code', code);
      operation.attributes['rpc.response.status_code'] = code;
      this.finish(operation, code, server, reply.error.message);
    } else {
      this.finish(operation, reply.result?.isError === true ? 'tool_error' : undefined, server);
    }
  }

  finish(operation: Operation, errorType: string | undefined, server: Server, description?: string): void {
    const { span, attributes } = operation;
    const version = operation.envelopeVersion ?? server.getNegotiatedProtocolVersion();
    if (version !== undefined) attributes['mcp.protocol.version'] = version;
    if (errorType !== undefined) attributes['error.type'] = errorType;
    if (span) {
      span.setAttributes(attributes);
      if (errorType !== undefined) span.setStatus({ code: operation.api.SpanStatusCode.ERROR, message: description });
      span.end();
    }
    operation.instruments?.operation.record((performance.now() - operation.started) / 1000, attributes);
  }

  recordSession(started: bigint, network: Network, server: Server): void {
    const api = this.api;
    const instruments = api && this.activeInstruments(api);
    if (!instruments) return;
    const attributes: Otel.Attributes = {};
    const version = server.getNegotiatedProtocolVersion();
    if (version !== undefined) attributes['mcp.protocol.version'] = version;
    if (network.transport) attributes['network.transport'] = network.transport;
    if (network.protocol) attributes['network.protocol.name'] = network.protocol;
    instruments.session.record(Number(process.hrtime.bigint() - started) / 1e9, attributes);
  }

  /**
   * The tracer of the SDK registered now, or `undefined` while none is. Once found it is kept for as long
   * as the global provider stays the same object (an SDK sets the API proxy's delegate once).
   */
  private activeTracer(api: Api): Otel.Tracer | undefined {
    const provider = api.trace.getTracerProvider();
    if (provider !== this.tracerProvider || this.tracer === undefined) {
      this.tracerProvider = provider;
      this.tracer = recordingTracer(provider);
    }
    return this.tracer;
  }

  /**
   * The histograms of the meter provider registered now, or `undefined` while there is none (the API's
   * no-op provider hands out its one no-op meter). Unlike tracers, meters taken from the global API
   * before an SDK registers stay no-ops, so they are taken again whenever the provider changes.
   */
  private activeInstruments(api: Api): Instruments | undefined {
    const provider = api.metrics.getMeterProvider();
    if (provider !== this.meterProvider) {
      this.meterProvider = provider;
      const meter = provider.getMeter(NAME, VERSION);
      this.instruments = meter === api.createNoopMeter() ? undefined : histograms(meter);
    }
    return this.instruments;
  }
}

/** A server that takes the telemetry steps of some requests itself (the hot dispatch's, for HTTP posts). */
interface Observed {
  observedBy(connection: ConnectionTelemetry): void;
}

/**
 * One connection's telemetry: its operations in flight, and the steps that open, run inside and end them. Its
 * `telemetry` stages on the connection's two lists (`wrap`, protocol/stages.ts) take them for every message, the
 * SDK's own answers included; the hot dispatch opens the operation of an HTTP session's hot POST itself (`begin`,
 * `within`), which passes no inbound stage, and its answer ends it in the outbound stage (`answered`).
 */
export class ConnectionTelemetry {
  private readonly open = new Map<string | number, Operation>();
  /** Whether the outbound `telemetry` stage is on the connection's list: from its first operation on (`begin`). */
  private staged = false;

  constructor(
    private readonly telemetry: Telemetry,
    private readonly server: Server,
    private readonly transport: Transport,
    private readonly network: Network,
  ) {}

  /** Opens the operation of an arriving request; `undefined` when it is none or no provider records anything. */
  begin(message: JSONRPCMessage): Operation | undefined {
    if (!isRequest(message)) return undefined;
    const api = this.telemetry.loadedApi();
    const operation = api && this.telemetry.start(api, message, this.transport, this.network);
    if (!operation) return undefined;
    this.open.set(message.id, operation);
    if (!this.staged) this.stageAnswers();
    return operation;
  }

  /** Runs the request's dispatch inside its span's context (as it is, when the operation only measures). */
  within<T>(operation: Operation, run: () => T): T {
    const { api, span } = operation;
    return span ? api.context.with(api.trace.setSpan(api.context.active(), span), run) : run();
  }

  /** A message is about to be sent: a reply ends its request's operation. */
  answered(message: JSONRPCMessage): void {
    if (this.open.size === 0 || !isReply(message)) return;
    const operation = this.open.get(message.id);
    if (!operation) return;
    this.open.delete(message.id);
    // The code the client gets: the `legacy-codes` stage, before this one, wrote a 2025-era connection's back.
    this.telemetry.end(operation, message, this.server);
  }

  /**
   * Wraps the handlers the SDK installed on the transport: an arriving request opens a span and is dispatched
   * inside its context; the reply sent for its id ends it, and so does its cancellation.
   */
  wrap(): void {
    const { transport } = this;
    stageIn(transport, 'telemetry', (dispatch) => (message, extra) => {
      // Nothing registered with OpenTelemetry and nothing open: no step to take (registering is for good).
      if (this.open.size === 0 && !otelRegistered()) return dispatch?.(message, extra);
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) this.settle(cancelled, 'cancelled');
      const operation = this.begin(message);
      return operation ? this.within(operation, () => dispatch?.(message, extra)) : dispatch?.(message, extra);
    });
    // A per-request HTTP exchange is no session; every other connection is one, from now until it closes.
    const perRequest = transport instanceof sdk().PerRequestHTTPServerTransport || PER_REQUEST_EXCHANGES in transport;
    // process.hrtime rather than performance.now(): the first use of `performance` loads perf_hooks (~2-5 ms),
    // which a connection no provider records should not cost at start-up.
    const session = perRequest ? undefined : process.hrtime.bigint();
    afterClose(transport, () => {
      // A 2026-07-28 client cancels an HTTP request by closing its stream, which closes the exchange.
      const reason = perRequest ? 'cancelled' : 'connection_closed';
      for (const id of [...this.open.keys()]) this.settle(id, reason);
      if (session !== undefined) this.telemetry.recordSession(session, this.network, this.server);
    });
  }

  /**
   * Puts the outbound `telemetry` stage on the connection's list, where a reply ends its request's operation. It
   * goes on with the connection's first operation, not before: until something registers with OpenTelemetry no
   * operation opens, and a connection's answers then pass no telemetry step at all.
   */
  private stageAnswers(): void {
    this.staged = true;
    stageOut(this.transport, 'telemetry', (message) => {
      this.answered(message);
      return message;
    });
  }

  /** Ends an operation the request will never answer (cancelled, or its connection closed). */
  private settle(id: string | number, reason: 'cancelled' | 'connection_closed'): void {
    const operation = this.open.get(id);
    if (!operation) return;
    this.open.delete(id);
    const description =
      reason === 'cancelled' ? 'The client cancelled the request.' : 'The connection closed before the request was answered.';
    this.telemetry.finish(operation, reason, this.server, description);
  }
}
