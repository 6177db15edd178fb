import type { ArgumentsHost, ContextType, ExecutionContext, Type } from '@nestjs/common';
import type { Invocation, RequestContext } from '../index';

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

function unsupported(host: string): never {
  throw new TypeError(`An MCP call has no ${host} host; use McpExecutionContext.create(context) to read it.`);
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
      throw new TypeError(`McpExecutionContext.create() needs the context of an MCP call, but this one is '${type}'. Check context.getType() first.`);
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

  switchToHttp(): never {
    return unsupported('HTTP');
  }

  switchToWs(): never {
    return unsupported('WebSocket');
  }
}
