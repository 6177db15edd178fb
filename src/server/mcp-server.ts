import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type Transport } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { QuickArgs } from '../decorators/hint-value';
import { toolFromConfig, type QuickParams, type QuickToolConfig } from '../schema/quick';
import { UnknownToolError } from '../invoke/errors';
import type { AddOptions } from '../invoke/invocation';
import type { CallToolResult } from '../invoke/results';
import type { RequestContext, RequestContextInit } from '../request-context';
import { Catalog } from './catalog';
import { createHttpHandler, startHttp, type HttpAddress, type HttpEndpoint, type HttpHandler, type HttpHandlerOptions, type ServeHttpOptions } from './http';
import type { ToolListing } from './listing';
import { routeByOpening } from './opening';
import { createProtocolServer, withLegacyNotFoundCode } from './protocol';

/** Server identity sent in `initialize` / `server/discover`. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** Server options. */
export interface McpServerOptions {
  /** Aborts a tool's signal and answers an error result after this many milliseconds. */
  readonly requestTimeoutMs?: number;
  /**
   * Read an object or array argument that arrives as a JSON-encoded string (some models send
   * `"items": "[{\"sku\":\"A\"}]"`): where the schema expects an object or array and the string parses as
   * one, the parsed value is read. Default `false`: the listing is the contract.
   */
  readonly lenientJsonStrings?: boolean;
  /** Instructions sent to the client at initialisation. */
  readonly instructions?: string;
  /**
   * Key (at least 32 bytes) that signs the `requestState` of multi-round trips (2026-07-28). Default: random
   * per process, which is enough when one process serves every round of a flow. Required when more than one
   * instance serves the same clients: every instance must hold the same secret, or a round that lands on
   * another instance than the one before is refused.
   */
  readonly requestStateSecret?: string | Uint8Array;
}

/**
 * Options of {@link McpServer.shutdown}.
 * @example process.once('SIGTERM', () => void server.shutdown({ deadlineMs: 10_000 }));
 */
export interface ShutdownOptions {
  /** How long calls in progress may run on before their sessions are closed anyway. Default 10 seconds. */
  readonly deadlineMs?: number;
}

/** Something the server serves and stops: a transport, an HTTP endpoint or handler. */
interface Served {
  close(): Promise<void>;
  /** Graceful stop: refuse new work, finish calls in progress up to the deadline, then close. */
  shutdown?(deadlineMs: number): Promise<void>;
}

const MIN_SECRET_BYTES = 32;

/** The `requestState` codec; a secret too short to sign with is refused at start-up, not at the first round. */
function requestStateCodec(secret: string | Uint8Array | undefined): RequestStateCodec {
  if (secret === undefined) return createRequestStateCodec({ key: randomBytes(MIN_SECRET_BYTES) });
  const bytes = typeof secret === 'string' ? Buffer.byteLength(secret, 'utf8') : secret instanceof Uint8Array ? secret.byteLength : -1;
  if (bytes < MIN_SECRET_BYTES) {
    throw new RangeError(
      `requestStateSecret must be a string or Uint8Array of at least ${MIN_SECRET_BYTES} bytes` +
        (bytes >= 0 ? ` (this one has ${bytes})` : '') +
        '; every instance behind one load balancer needs the same one, for example 64 hex characters from `openssl rand -hex 32`.',
    );
  }
  return createRequestStateCodec({ key: secret });
}

/** Options of an in-process {@link McpServer.callTool}. */
export interface CallToolOptions {
  /** Aborts the tool's `signal`. */
  readonly signal?: AbortSignal;
  /** Receives what the tool reports through `RequestContext.reportProgress`. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Anything else the tool's `RequestContext` should carry (client info, protocol version ...). */
  readonly context?: RequestContextInit;
}

/**
 * An MCP server whose tools, resources and prompts come from decorated classes (or the quick path).
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.add(new WeatherTools());
 * console.log(server.listTools());
 */
export class McpServer {
  readonly info: ServerInfo;
  readonly options: McpServerOptions;
  private readonly catalog: Catalog;
  private readonly codec: RequestStateCodec;
  private readonly open = new Set<Served>();

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info?.version !== 'string') {
      throw new TypeError(`new McpServer() needs { name, version }, for example new McpServer({ name: 'weather', version: '1.0.0' }).`);
    }
    this.info = Object.freeze({ ...info });
    this.options = Object.freeze({ ...options });
    this.catalog = new Catalog({ requestTimeoutMs: options.requestTimeoutMs, lenientJsonStrings: options.lenientJsonStrings });
    this.codec = requestStateCodec(options.requestStateSecret);
  }

  /**
   * Adds every `@Tool`, `@Resource` and `@Prompt` of an instance. Throws one `DefinitionError` listing
   * every problem of its class; nothing of a refused class is added. `options.invoke` runs each call of
   * its methods (the NestJS module runs them through Nest's enhancers).
   */
  add(instance: object, options: AddOptions = {}): this {
    if (typeof instance !== 'object' || instance === null) {
      throw new TypeError('server.add() takes an instance of a decorated class, for example server.add(new WeatherTools()).');
    }
    if (options?.invoke !== undefined && typeof options.invoke !== 'function') {
      throw new TypeError('server.add(instance, { invoke }) needs invoke to be a function of the call, for example (call) => call.instance[call.method](...call.args).');
    }
    this.catalog.addInstance(instance, options ?? {});
    return this;
  }

  /**
   * The quick path: a tool from a handler and a map of parameter names to type hints. The handler's
   * argument is typed from the hints (`Int32` → `number`, `Nullable(Date)` → `Date | null`, a record
   * class → its instances ...), as the SDK's `registerTool` types it from a zod shape.
   * @example server.tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
   */
  tool<const P extends QuickParams = Record<never, never>>(name: string, config: QuickToolConfig<P>, handler: (args: QuickArgs<P>, context: RequestContext) => unknown): this {
    if (typeof handler !== 'function') throw new TypeError(`server.tool('${name}') needs a handler function.`);
    const call = handler as (args: Record<string, unknown>, context: RequestContext) => unknown;
    this.catalog.addTool(toolFromConfig(name, config ?? {}), { kind: 'handler', handler: call });
    return this;
  }

  /**
   * Registers an MCP Apps UI resource, served as `text/html;profile=mcp-app`; tools name it with
   * `@Tool({ uiResource })`.
   * @example server.addUiResource('ui://weather/view', { html: '<!doctype html><p>Weather</p>' });
   */
  addUiResource(uri: string, resource: { readonly html: string }): this {
    this.catalog.addUiResource(uri, resource?.html);
    return this;
  }

  /** The `tools/list` entries exactly as they are sent to a client that negotiated MCP Apps. */
  listTools(): readonly ToolListing[] {
    return this.catalog.listings.tools;
  }

  /**
   * Calls a tool in-process and returns the `CallToolResult` exactly as it would be sent. Argument errors
   * and tool failures are `isError` results; an unknown name rejects with `UnknownToolError`.
   * @example const result = await server.callTool('add', { a: 1, b: 2 });
   */
  async callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<CallToolResult> {
    const tool = typeof name === 'string' ? this.catalog.tools.get(name) : undefined;
    if (!tool) throw new UnknownToolError(String(name));
    const onProgress = options.onProgress;
    return tool.call(args, {
      ...options.context,
      signal: options.signal ?? options.context?.signal,
      reportProgress: onProgress ? (progress, total, message) => onProgress({ progress, total, message }) : options.context?.reportProgress,
    });
  }

  /**
   * Serves one connection over any MCP SDK transport, in whichever era its client opens: 2026-07-28
   * after `server/discover`, or a 2025 revision after `initialize`.
   * @example
   * const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
   * await server.connect(serverEnd);
   */
  async connect(transport: Transport): Promise<void> {
    let legacy = false;
    await routeByOpening(withLegacyNotFoundCode(transport, () => legacy), {
      legacy: async (view) => {
        legacy = true;
        const server = this.protocolServer();
        this.track(server);
        server.onclose = () => this.open.delete(server);
        await server.connect(view);
      },
      other: (view) => {
        const factory = ({ era }: { era: 'legacy' | 'modern' }) => {
          legacy = era === 'legacy';
          return this.protocolServer();
        };
        this.track(serveStdio(factory, { transport: view }));
      },
    });
  }

  /**
   * Serves this process's stdin and stdout (both eras). Write logs to stderr: stdout carries the protocol.
   * @example await server.serveStdio();
   */
  async serveStdio(): Promise<void> {
    await this.connect(new StdioServerTransport());
  }

  /**
   * Serves Streamable HTTP; resolves with the bound address once listening. 2025-era clients get
   * sessions, 2026-07-28 clients are served statelessly; on loopback, foreign Host and Origin headers
   * are refused with 403.
   * @example const { url } = await server.serveHttp({ port: 3000 }); // http://127.0.0.1:3000/mcp
   */
  async serveHttp(options: ServeHttpOptions = {}): Promise<HttpAddress> {
    const endpoint: HttpEndpoint = await startHttp(() => this.protocolServer(), options);
    this.track(endpoint);
    if (options.shutdown) this.shutdownOn(options.shutdown.signals, { deadlineMs: options.shutdown.deadlineMs });
    return { host: endpoint.host, port: endpoint.port, url: endpoint.url };
  }

  /**
   * The MCP endpoint as a Node request handler, to mount in an HTTP server of your own (Express, Fastify,
   * the Nest module). `server.close()` closes its sessions.
   * @example
   * const mcp = server.createHttpHandler();
   * app.post('/mcp', express.json(), (req, res) => mcp.handle(req, res, { body: req.body }));
   */
  createHttpHandler(options: HttpHandlerOptions = {}): HttpHandler {
    const handler = createHttpHandler(() => this.protocolServer(), options);
    this.track({
      close: () => handler.close(),
      shutdown: async (deadlineMs) => {
        await handler.drain(deadlineMs);
        await handler.close();
      },
    });
    return handler;
  }

  /** Stops every transport and endpoint this server serves. */
  async close(): Promise<void> {
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((o) => o.close()));
  }

  /**
   * Stops gracefully, for rolling deploys: HTTP endpoints stop listening and answer new requests 503 (a load
   * balancer retries them on another instance), readiness turns 503, calls in progress run on up to the
   * deadline, then every session and transport is closed.
   * @example process.once('SIGTERM', () => void server.shutdown({ deadlineMs: 10_000 }));
   */
  async shutdown(options: ShutdownOptions = {}): Promise<void> {
    const deadlineMs = options.deadlineMs ?? 10_000;
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((o) => (o.shutdown ? o.shutdown(deadlineMs) : o.close())));
  }

  /** On the first of these signals, shuts down, then lets the signal take its default course (exit). */
  private shutdownOn(signals: readonly NodeJS.Signals[], options: ShutdownOptions): void {
    const onSignal = (signal: NodeJS.Signals) => {
      for (const s of signals) process.off(s, onSignal);
      void this.shutdown(options).finally(() => {
        // Someone else listening decides what happens next; otherwise the signal's default ends the process.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    };
    for (const s of signals) process.once(s, onSignal);
  }

  private track(handle: Served): void {
    this.open.add(handle);
  }

  private protocolServer() {
    return createProtocolServer(this.catalog, { info: this.info, instructions: this.options.instructions, codec: this.codec });
  }
}
