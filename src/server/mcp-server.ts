import { randomBytes } from 'node:crypto';
import {
  InMemoryServerEventBus,
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerEventBus,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { toolFromConfig, type QuickToolConfig } from '../schema/quick';
import { UnknownToolError } from '../invoke/errors';
import type { AddOptions } from '../invoke/invocation';
import type { CallToolResult } from '../invoke/results';
import type { RequestContext, RequestContextInit } from '../request-context';
import { Catalog, type CatalogKind } from './catalog';
import {
  createHttpHandler,
  startHttp,
  type HttpAddress,
  type HttpEndpoint,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpServing,
  type ServeHttpOptions,
} from './http';
import type { ToolListing } from './listing';
import { routeByOpening } from './opening';
import { followBus, listChangedEvent } from './live';
import { checkPageSizes, Pager, type PageSizes } from './pages';
import { createProtocolServer, withLegacyNotFoundCode, type CatalogServer } from './protocol';
import { InMemoryTaskStore, TaskRunner, type TaskOptions, type TaskStore } from './tasks';

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
  /** Instructions sent to the client at initialisation. */
  readonly instructions?: string;
  /**
   * Key (at least 32 bytes) that signs the `requestState` of multi-round trips. Default: random per
   * process, which is enough when one process serves every round of a flow.
   */
  readonly requestStateSecret?: string;
  /**
   * Most entries per page of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` and
   * `tasks/list`: one number for all, or per list. A list without a size is sent on one page.
   */
  readonly pageSize?: PageSizes;
  /**
   * Where catalog changes and resource updates are published, for every connection to hear: default an
   * in-process bus. Give a shared one (over your pub/sub) when several processes serve one catalog.
   */
  readonly eventBus?: ServerEventBus;
  /**
   * Where tasks (tools run with `@Tool({ task })`) are kept: default an {@link InMemoryTaskStore}. Give a shared
   * one when several processes serve one endpoint.
   */
  readonly taskStore?: TaskStore;
  /** How long tasks are kept and how often clients are asked to poll. */
  readonly tasks?: TaskOptions;
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
  private readonly pager: Pager;
  private readonly bus: ServerEventBus;
  private readonly tasks: TaskRunner;
  private readonly open = new Set<{ close(): Promise<void> }>();

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info?.version !== 'string') {
      throw new TypeError(`new McpServer() needs { name, version }, for example new McpServer({ name: 'weather', version: '1.0.0' }).`);
    }
    this.info = Object.freeze({ ...info });
    this.options = Object.freeze({ ...options });
    checkPageSizes(options.pageSize);
    this.catalog = new Catalog(options.requestTimeoutMs);
    const key = options.requestStateSecret ?? randomBytes(32);
    this.codec = createRequestStateCodec({ key });
    this.pager = new Pager(typeof key === 'string' ? Buffer.from(key) : key, options.pageSize);
    this.bus = options.eventBus ?? new InMemoryServerEventBus();
    this.tasks = new TaskRunner(options.taskStore ?? new InMemoryTaskStore(), options.tasks);
    this.catalog.onChange((kind) => this.bus.publish(listChangedEvent(kind)));
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
   * The quick path: a tool from a handler and a map of parameter names to type hints.
   * @example server.tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => Number(a) + Number(b));
   */
  tool(name: string, config: QuickToolConfig, handler: (args: Record<string, unknown>, context: RequestContext) => unknown): this {
    if (typeof handler !== 'function') throw new TypeError(`server.tool('${name}') needs a handler function.`);
    this.catalog.addTool(toolFromConfig(name, config ?? {}), { kind: 'handler', handler });
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

  /**
   * Removes a tool or prompt (by name) or a resource (by its URI or URI template as registered) while serving;
   * every connected client is told its list changed. Throws when nothing of that name is registered.
   * @example server.remove('tool', 'forecast');
   */
  remove(kind: CatalogKind, key: string): this {
    this.catalog.remove(kind, key);
    return this;
  }

  /**
   * Hides a tool, resource or prompt from listings and calls without removing it (its name stays taken);
   * every connected client is told its list changed.
   * @example server.disable('tool', 'forecast');
   */
  disable(kind: CatalogKind, key: string): this {
    this.catalog.setEnabled(kind, key, false);
    return this;
  }

  /**
   * Shows again what {@link McpServer.disable} hid; every connected client is told its list changed.
   * @example server.enable('tool', 'forecast');
   */
  enable(kind: CatalogKind, key: string): this {
    this.catalog.setEnabled(kind, key, true);
    return this;
  }

  /**
   * Tells the clients subscribed to a resource URI that its content changed (`notifications/resources/updated`):
   * 2025-era sessions that called `resources/subscribe`, 2026-07-28 clients whose `subscriptions/listen`
   * filter names the URI. Nobody else hears it.
   * @example server.notifyResourceUpdated('weather://today');
   */
  notifyResourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri.length === 0) throw new TypeError(`server.notifyResourceUpdated() needs a URI, for example server.notifyResourceUpdated('weather://today').`);
    this.bus.publish({ kind: 'resource_updated', uri });
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
    const tool = typeof name === 'string' ? this.catalog.tool(name) : undefined;
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
        const server = this.connectionServer('legacy');
        this.track(server);
        server.onClosed(() => this.open.delete(server));
        await server.connect(view);
      },
      other: (view) => {
        const factory = ({ era }: { era: 'legacy' | 'modern' }) => {
          legacy = era === 'legacy';
          return this.connectionServer(era);
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
    const endpoint: HttpEndpoint = await startHttp(this.httpServing(), options);
    this.track(endpoint);
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
    const handler = createHttpHandler(this.httpServing(), options);
    this.track(handler);
    return handler;
  }

  /** Stops every transport and endpoint this server serves. */
  async close(): Promise<void> {
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((o) => o.close()));
    await this.tasks.closeAll();
  }

  private track(handle: { close(): Promise<void> }): void {
    this.open.add(handle);
  }

  private protocolServer(): CatalogServer {
    return createProtocolServer(this.catalog, { info: this.info, instructions: this.options.instructions, codec: this.codec, pager: this.pager, tasks: this.tasks });
  }

  /** A `Server` for a connection that outlives its requests: it follows the event bus until it closes. */
  private connectionServer(era: 'legacy' | 'modern'): CatalogServer {
    const server = this.protocolServer();
    server.onClosed(followBus(server, this.bus, era));
    return server;
  }

  private httpServing(): HttpServing {
    return { session: () => this.connectionServer('legacy'), request: () => this.protocolServer(), bus: this.bus };
  }
}
