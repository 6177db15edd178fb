import { HttpException, Injectable, type ArgumentsHost, type Type } from '@nestjs/common';
import { ContextIdFactory, DiscoveryService, ExternalContextCreator, ModuleRef, type ContextId } from '@nestjs/core';
import { ToolError, type Invocation, type InvokeHook } from '../index';
import { MCP_CONTEXT_TYPE, McpExecutionContext, hostArguments, switchToMcpHttp, type McpHostArguments } from './mcp-execution-context';

/** A provider or controller as `DiscoveryService` lists it. */
export type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * Where the module tells Nest's `ExternalContextCreator` how to fill a method's parameters: one entry
 * per parameter, read by {@link paramsFactory} from the call's invocation. Pipes see them as `custom`.
 */
const PARAMS_METADATA = 'onemodelcontext:nest:params';
/** Not a `RouteParamtypes` value, so that pipes are told `type: 'custom'`. */
const MCP_ARGUMENT = 100;

const paramsFactory = {
  /** `data` is the parameter's index in the method's argument list. */
  exchangeKeyForValue: (_type: number, index: unknown, args: McpHostArguments): unknown => args[2].args[index as number],
};

/** `ExternalExceptionsHandler` of Nest: the filters bound to one method, without Nest's log-and-rethrow fallback. */
interface FilterHandler {
  invokeCustomFilters(exception: unknown, host: ArgumentsHost): unknown;
}
interface FilterContextCreator {
  create(instance: object, callback: Function, moduleKey: string, contextId?: ContextId, inquirerId?: string): FilterHandler;
}

/** Nest's guards of one method, and how it runs them (the parts of `ExternalContextCreator` it uses itself). */
interface GuardsContextCreator {
  create(instance: object, callback: Function, moduleKey: string): readonly unknown[];
}
interface GuardsConsumer {
  tryActivate(guards: readonly unknown[], args: unknown[], instance: object, callback: Function, type: string): Promise<boolean>;
}

/** How Nest's guards and interceptors consumers make the `ExecutionContext` they hand an enhancer. */
interface ContextMaker {
  createContext(args: unknown[], instance: object, callback: Function): { switchToHttp: unknown };
}

/**
 * The module's own view of Nest's `ExternalContextCreator`: the same creators, caches and modules, but guards and
 * interceptors consumers whose contexts answer `switchToHttp()` with the call's HTTP request
 * (mcp-execution-context.ts) rather than Nest's reading of the arguments as `[req, res, next]`. The application's
 * shared instance (GraphQL, microservices use it) is left as it is; a Nest without these members keeps Nest's own.
 */
function withHttpRequests(contexts: ExternalContextCreator): ExternalContextCreator {
  const internals = contexts as unknown as Record<'guardsConsumer' | 'interceptorsConsumer', Partial<ContextMaker> | undefined>;
  const own = Object.create(contexts) as typeof internals;
  for (const key of ['guardsConsumer', 'interceptorsConsumer'] as const) {
    const consumer = internals[key];
    const make = consumer?.createContext;
    if (typeof make !== 'function') continue;
    own[key] = Object.create(consumer!, {
      createContext: {
        value(this: ContextMaker, args: unknown[], instance: object, callback: Function) {
          const context = make.call(this, args, instance, callback);
          context.switchToHttp = switchToMcpHttp;
          return context;
        },
      },
    }) as ContextMaker;
  }
  return own as unknown as ExternalContextCreator;
}

/** The invocation a guard sees when it decides whether an item is listed: no arguments, `listing: true`. */
export type ListingInvocation = Invocation & { readonly listing: true };

type Run = (invocation: Invocation) => Promise<unknown>;
type MethodOf = (...args: unknown[]) => unknown;

function describeParams(ctor: Function, method: string | symbol, arity: number): void {
  if (Reflect.hasOwnMetadata(PARAMS_METADATA, ctor, method)) return;
  const params: Record<string, { index: number; data: number; pipes: never[] }> = {};
  for (let index = 0; index < arity; index++) params[`${MCP_ARGUMENT}:${index}`] = { index, data: index, pipes: [] };
  Reflect.defineMetadata(PARAMS_METADATA, params, ctor, method);
}

function statusOf(error: unknown): number | undefined {
  return error instanceof HttpException ? error.getStatus() : undefined;
}

/** The text of a 4xx `HttpException`: its response's `message` (joined when a list, as `ValidationPipe` gives), else its message. */
function messageOf(error: HttpException): string {
  const response = error.getResponse();
  // Inline, not objects.ts's isObjectLike: src/nest imports only the public API (../index).
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  if (Array.isArray(message) && message.every((m) => typeof m === 'string')) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

/**
 * What the model sees of an exception no filter handled: a refusal for 401 and 403, the message of any other
 * 4xx `HttpException`, and for a resource a 404 is "resource not found". Anything else (5xx, any other
 * error) is thrown on to the server, which masks, publishes and logs it.
 */
function answerUnhandled(error: unknown, invocation: Invocation): unknown {
  const status = statusOf(error);
  if (status === undefined || status < 400 || status >= 500) throw error;
  if (status === 401 || status === 403)
    throw new ToolError(`The call to ${invocation.kind} '${invocation.name}' was refused.`, { cause: error });
  // A resource that returns nothing does not exist: the server answers "resource not found".
  if (status === 404 && invocation.kind === 'resource') return undefined;
  throw new ToolError(messageOf(error as HttpException), { cause: error });
}

/**
 * Runs MCP calls of Nest providers through Nest's own enhancer pipeline, as `@nestjs/graphql` runs
 * resolvers: `ExternalContextCreator` applies the global, class and method guards, interceptors and pipes
 * with the host type `'mcp'`, and the same filter context applies exception filters. Request-scoped and
 * transient providers get an instance per call from Nest's context ids.
 */
@Injectable()
export class McpPipeline {
  private readonly filters: FilterContextCreator | undefined;
  private readonly contexts: ExternalContextCreator;

  constructor(
    shared: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
  ) {
    const contexts = (this.contexts = withHttpRequests(shared));
    // The filter context `ExternalContextCreator` builds its own proxy from. Called directly, it applies the
    // same filters without the proxy's fallback, which logs every non-HTTP error (ToolError included) as
    // "ExceptionsHandler"; the server logs what it masks itself, with the tool name and request id.
    this.filters = (contexts as unknown as { filtersContextCreator?: FilterContextCreator }).filtersContextCreator;
  }

  /**
   * Whether the guards of a method let this caller see the item (the module's `guardListings`): they run with the
   * host type `'mcp'` and an invocation that says it is a listing (`McpExecutionContext.isListing()`), without
   * arguments. A guard that returns `false` or throws an `HttpException` hides the item; the global, class and
   * method guards of a singleton provider apply (a request-scoped guard has no instance outside a request).
   */
  async guardsAllowListing(
    instance: object,
    key: string | symbol,
    invocation: Omit<ListingInvocation, 'instance' | 'method' | 'args' | 'values' | 'listing'>,
  ): Promise<boolean> {
    const internals = this.contexts as unknown as { guardsContextCreator?: GuardsContextCreator; guardsConsumer?: GuardsConsumer };
    const creator = internals.guardsContextCreator;
    const consumer = internals.guardsConsumer;
    if (!creator || !consumer) return true;
    const ctor = instance.constructor as Type<unknown>;
    const callback = (instance as Record<string | symbol, MethodOf>)[key];
    const guards = creator.create(instance, callback, this.contexts.getContextModuleKey(ctor));
    if (guards.length === 0) return true;
    const listing: ListingInvocation = { ...invocation, instance, method: key, args: [], values: {}, listing: true };
    try {
      return await consumer.tryActivate(guards, [...hostArguments(listing)], instance, callback, MCP_CONTEXT_TYPE);
    } catch (error) {
      if (error instanceof HttpException) return false;
      throw error;
    }
  }

  /** The `invoke` hook of one provider: a singleton's pipeline is built once per method, a scoped one per call. */
  hookFor(wrapper: ProviderWrapper): InvokeHook {
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      const runs = new Map<string | symbol, Run>();
      return (invocation) => {
        let run = runs.get(invocation.method);
        if (!run) runs.set(invocation.method, (run = this.build(invocation.instance, invocation, undefined, undefined)));
        return run(invocation);
      };
    }
    return async (invocation) => {
      const contextId = ContextIdFactory.getByRequest(invocation.context);
      // A durable tree gets the strategy's payload as its REQUEST, as Nest's router gives it (ContextIdStrategy).
      const request = wrapper.isDependencyTreeDurable() ? contextId.payload : invocation.context;
      this.moduleRef.registerRequestByContextId(request, contextId);
      const instance = await this.moduleRef.resolve<object>(wrapper.token, contextId, { strict: false });
      return this.build(instance, invocation, contextId, wrapper.id)(invocation);
    };
  }

  private build(instance: object, shape: Invocation, contextId: ContextId | undefined, inquirerId: string | undefined): Run {
    const { method } = shape;
    const ctor = instance.constructor as Type<unknown>;
    const callback = (instance as Record<string | symbol, MethodOf>)[method];
    describeParams(ctor, method, shape.args.length);
    const name = method as string;
    const filters = this.filters;
    const guarded = this.contexts.create(
      instance,
      callback,
      name,
      PARAMS_METADATA,
      paramsFactory,
      contextId,
      inquirerId,
      { guards: true, interceptors: true, filters: !filters },
      MCP_CONTEXT_TYPE,
    );
    const handler = filters?.create(instance, callback, this.contexts.getContextModuleKey(ctor), contextId, inquirerId);
    return async (invocation) => {
      const host = McpExecutionContext.of(invocation, ctor, callback);
      try {
        return await guarded(...hostArguments(invocation));
      } catch (error) {
        return recover(error, invocation, host, handler);
      }
    };
  }
}

/** Offers an exception to the filters bound to the method; what none of them handles is answered here. */
async function recover(error: unknown, invocation: Invocation, host: ArgumentsHost, handler: FilterHandler | undefined): Promise<unknown> {
  let handled: unknown;
  try {
    handled = await handler?.invokeCustomFilters(error, host);
  } catch (rethrown) {
    // A filter may answer by throwing: a ToolError, an HttpException, or the exception itself.
    return answerUnhandled(rethrown, invocation);
  }
  // As in Nest's own handler, a filter that returns nothing leaves the exception unhandled.
  return handled ? handled : answerUnhandled(error, invocation);
}
