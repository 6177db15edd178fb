import { Problems } from '../schema/diagnostics';
import type { ToolModel } from '../schema/model';
import { toolFromConfig, type QuickToolConfig } from '../schema/quick';
import { toolsOf } from '../schema/tools';
import { UnknownToolError } from '../invoke/errors';
import { compileTool, type ToolCall, type ToolTarget } from '../invoke/invoker';
import type { CallToolResult } from '../invoke/results';
import type { RequestContext, RequestContextInit } from '../request-context';
import { listingOf, type ToolListing } from './listing';

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
}

/** A tool with everything computed once when it was added. */
export interface RegisteredTool {
  readonly model: ToolModel;
  readonly target: ToolTarget;
  readonly listing: ToolListing;
  readonly call: ToolCall;
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
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info?.version !== 'string') {
      throw new TypeError(`new McpServer() needs { name, version }, for example new McpServer({ name: 'weather', version: '1.0.0' }).`);
    }
    this.info = Object.freeze({ ...info });
    this.options = Object.freeze({ ...options });
  }

  /**
   * Adds every `@Tool` of an instance. Throws one `DefinitionError` listing every problem of its class;
   * nothing of a refused class is added.
   */
  add(instance: object): this {
    if (typeof instance !== 'object' || instance === null) {
      throw new TypeError('server.add() takes an instance of a decorated class, for example server.add(new WeatherTools()).');
    }
    const ctor = instance.constructor;
    this.register(
      ctor.name,
      toolsOf(ctor).map(({ key, model }) => ({ model, target: { kind: 'method', instance, key } })),
    );
    return this;
  }

  /**
   * The quick path: a tool from a handler and a map of parameter names to type hints.
   * @example server.tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => Number(a) + Number(b));
   */
  tool(name: string, config: QuickToolConfig, handler: (args: Record<string, unknown>, context: RequestContext) => unknown): this {
    if (typeof handler !== 'function') throw new TypeError(`server.tool('${name}') needs a handler function.`);
    const model = toolFromConfig(name, config ?? {});
    this.register(`tool '${name}'`, [{ model, target: { kind: 'handler', handler } }]);
    return this;
  }

  /** The `tools/list` entries exactly as they are sent to a client that negotiated MCP Apps. */
  listTools(): readonly ToolListing[] {
    return [...this.tools.values()].map((t) => t.listing);
  }

  /**
   * Calls a tool in-process and returns the `CallToolResult` exactly as it would be sent. Argument errors
   * and tool failures are `isError` results; an unknown name rejects with `UnknownToolError`.
   * @example const result = await server.callTool('add', { a: 1, b: 2 });
   */
  async callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<CallToolResult> {
    const tool = typeof name === 'string' ? this.tools.get(name) : undefined;
    if (!tool) throw new UnknownToolError(String(name));
    const onProgress = options.onProgress;
    return tool.call(args, {
      ...options.context,
      signal: options.signal ?? options.context?.signal,
      reportProgress: onProgress ? (progress, total, message) => onProgress({ progress, total, message }) : options.context?.reportProgress,
    });
  }

  private register(subject: string, entries: readonly Omit<RegisteredTool, 'listing' | 'call'>[]): void {
    const problems = new Problems();
    const names = new Set<string>();
    for (const { model } of entries) {
      const existing = this.tools.get(model.name);
      if (existing || names.has(model.name)) {
        problems.add(
          'OMCG0007',
          model.where,
          `the tool name '${model.name}' is already used${existing ? ` by ${existing.model.where}` : ''}.`,
          `give one of them another name with @Tool('name').`,
        );
      }
      names.add(model.name);
    }
    problems.throwIfAny(subject);
    for (const entry of entries) {
      this.tools.set(entry.model.name, {
        ...entry,
        listing: Object.freeze(listingOf(entry.model, true)),
        call: compileTool(entry.model, entry.target, { requestTimeoutMs: this.options.requestTimeoutMs }),
      });
    }
  }
}
