import { UsageError, UsageTypeError } from '../index';
import type { IncomingMessage } from 'node:http';
import type { ArgumentsHost, ContextType, ExecutionContext, Type } from '@nestjs/common';
import type { HttpRequestInfo, Invocation, RequestContext } from '../index';

/** Nest's `HttpArgumentsHost` (not exported from `@nestjs/common`'s root). */
type HttpArgumentsHost = ReturnType<ArgumentsHost['switchToHttp']>;

/**
 * The host types a context can have, MCP calls' `'mcp'` among Nest's own (`'http'`, `'rpc'`, `'ws'`).
 * @example if (context.getType<McpContextType>() === 'mcp') return McpExecutionContext.create(context).getName() !== 'drop_all';
 */
export type McpContextType = 'mcp' | ContextType;

/**
 * The host type of an MCP call's context.
 * @example if (host.getType() === MCP_CONTEXT_TYPE) return { content: [{ type: 'text', text: 'Refused.' }], isError: true };
 */
export const MCP_CONTEXT_TYPE = 'mcp';

/**
 * The arguments of an MCP call's Nest context, in order: the read arguments by name, the
 * `RequestContext`, and the whole invocation. `McpExecutionContext` reads them by name.
 * @example const [args, request] = context.getArgs<McpHostArguments>();
 */
export type McpHostArguments = [values: Readonly<Record<string, unknown>>, context: RequestContext, invocation: Invocation];

/** The arguments of one call's Nest context. */
export function hostArguments(invocation: Invocation): McpHostArguments {
  return [invocation.values, invocation.context, invocation];
}

/**
 * The framework's own request of a Node request the module's route was handed (Fastify's `request`, whose `raw` the
 * endpoint serves), so that `getRequest()` gives what a guard on a Fastify route gets. Express's `req` is the Node
 * request itself.
 */
const frameworkRequests = new WeakMap<IncomingMessage, object>();

/** @internal Notes the framework request of a Node request (src/nest/http.ts, Fastify). */
export function noteFrameworkRequest(raw: IncomingMessage, request: object): void {
  frameworkRequests.set(raw, request);
}

/** Why there is no HTTP request to give, and what to check instead. */
function noRequest(invocation: Invocation | undefined): Error {
  if ((invocation as { readonly listing?: unknown } | undefined)?.listing === true) {
    return new UsageError(
      'switchToHttp().getRequest(): this guard runs to decide whether an MCP item is listed (guardListings), and a listing has no HTTP request of its own. ' +
        'Check McpExecutionContext.create(context).isListing() first; the caller is McpExecutionContext.create(context).getContext().auth.',
    );
  }
  return new UsageError(
    'switchToHttp().getRequest(): this MCP call did not come over HTTP (it came over stdio or an in-memory transport), so there is no HTTP request. ' +
      "context.getType() is 'mcp' over every transport: check McpExecutionContext.create(context).getContext().http, undefined without HTTP, before reading the request.",
  );
}

/**
 * The request a guard written for HTTP reads: the Node request of the call (Express's `req` on the routed path, with
 * what its middleware set, such as `req.user`; Node's own `IncomingMessage` ahead of Express's router, with `ip` set
 * as `RequestContext.http.ip` reads it), Fastify's request with Fastify, or `{ headers, ip }` for an in-process call
 * given them.
 */
function httpRequestOf(http: HttpRequestInfo | undefined, invocation: Invocation | undefined): unknown {
  if (http === undefined) throw noRequest(invocation);
  const request = http.request;
  if (request === undefined) return http;
  const framework = frameworkRequests.get(request);
  if (framework !== undefined) return framework;
  // Ahead of Express's router, the request is Node's own: it gets the `ip` Express's would have had.
  if (!('ip' in request)) Object.defineProperty(request, 'ip', { value: http.ip, enumerable: true, configurable: true, writable: true });
  return request;
}

/**
 * What `switchToHttp()` gives on an MCP call: the HTTP request the call came in (see {@link httpRequestOf}); no
 * response and no `next`. The response carries the MCP answer (perhaps an SSE stream with other calls' answers):
 * writing to it would corrupt the answer, so it is not handed out; answer through the result or an exception.
 */
class McpHttpHost implements HttpArgumentsHost {
  constructor(private readonly args: McpHostArguments) {}

  getRequest<T = unknown>(): T {
    return httpRequestOf(this.args[1]?.http, this.args[2]) as T;
  }

  getResponse<T = undefined>(): T {
    return undefined as T;
  }

  getNext<T = undefined>(): T {
    return undefined as T;
  }
}

/**
 * @internal `switchToHttp()` of the `ExecutionContext` Nest makes for a guard or an interceptor of an MCP call (the
 * module's pipeline puts it on each one): the HTTP request instead of Nest's reading of the arguments as `[req, res,
 * next]`, which would hand a guard the arguments object.
 */
export function switchToMcpHttp(this: { getArgs(): unknown[] }): HttpArgumentsHost {
  return new McpHttpHost(this.getArgs() as McpHostArguments);
}

function unsupported(host: string): never {
  throw new UsageTypeError(`An MCP call has no ${host} host; use McpExecutionContext.create(context) to read it.`);
}

/**
 * What a guard, interceptor or exception filter sees of an MCP tool, resource or prompt call, like
 * `GqlExecutionContext` for GraphQL: its kind and name, the read arguments and the `RequestContext`
 * (caller, session, signal).
 * @example
 * @Injectable()
 * export class ReadOnlyGuard implements CanActivate {
 *   canActivate(context: ExecutionContext): boolean {
 *     if (context.getType<McpContextType>() !== 'mcp') return true;
 *     return McpExecutionContext.create(context).getName().startsWith('get_');
 *   }
 * }
 */
export class McpExecutionContext implements ExecutionContext {
  private constructor(
    private readonly args: McpHostArguments,
    private readonly classRef: Type<unknown> | undefined,
    private readonly handler: Function | undefined,
  ) {}

  /** The MCP view of a guard's or interceptor's `ExecutionContext`, or of a filter's `ArgumentsHost`. */
  static create(context: ExecutionContext | ArgumentsHost): McpExecutionContext {
    if (context instanceof McpExecutionContext) return context;
    const type = context.getType<string>();
    if (type !== MCP_CONTEXT_TYPE) {
      throw new UsageTypeError(
        `McpExecutionContext.create() needs the context of an MCP call, but this one is '${type}'. Check context.getType() first.`,
      );
    }
    const execution = context as Partial<ExecutionContext>;
    return new McpExecutionContext(context.getArgs<McpHostArguments>(), execution.getClass?.(), execution.getHandler?.());
  }

  /** @internal The context of one call, made by the module's pipeline. */
  static of(invocation: Invocation, classRef: Type<unknown>, handler: Function): McpExecutionContext {
    return new McpExecutionContext(hostArguments(invocation), classRef, handler);
  }

  /** `'tool'`, `'resource'` or `'prompt'`. */
  getKind(): Invocation['kind'] {
    return this.getInvocation().kind;
  }

  /** The tool, resource or prompt name as listed. */
  getName(): string {
    return this.getInvocation().name;
  }

  /**
   * Whether the guard runs to decide if the item is listed (the module's `guardListings`), not for a call: there
   * are no arguments then, and `getContext().auth` is the caller (`undefined` when anonymous).
   */
  isListing(): boolean {
    return (this.getInvocation() as { readonly listing?: unknown }).listing === true;
  }

  /** The read and validated arguments by their listed names (`getArgs()` of `GqlExecutionContext` alike). */
  getArgs<T = Readonly<Record<string, unknown>>>(): T {
    return this.args[0] as T;
  }

  /** The call's `RequestContext`: request and session ids, the caller, its signal. */
  getContext(): RequestContext {
    return this.args[1];
  }

  /** Everything the server knows of the call, including the method's argument list in order. */
  getInvocation(): Invocation {
    return this.args[2];
  }

  getType<TContext extends string = McpContextType>(): TContext {
    return MCP_CONTEXT_TYPE as TContext;
  }

  getClass<T = unknown>(): Type<T> {
    return this.classRef as Type<T>;
  }

  getHandler(): Function {
    return this.handler as Function;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  switchToRpc(): never {
    return unsupported('RPC');
  }

  /**
   * The HTTP request of a call served over HTTP (`getRequest()`: its headers, `ip`, what Express middleware set such
   * as `user` when the call went through Express's router); `getRequest()` throws over stdio, saying so.
   * `getResponse()` and `getNext()` are `undefined`: the response carries the MCP answer.
   */
  switchToHttp(): HttpArgumentsHost {
    return new McpHttpHost(this.args);
  }

  switchToWs(): never {
    return unsupported('WebSocket');
  }
}
