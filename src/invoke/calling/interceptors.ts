import type { MethodRunner } from './invocation';
import type { RequestContext } from '../request/request-context';

/**
 * What an interceptor is told about one call of a tool, a resource read or a prompt, after its arguments were
 * read and validated and before the method runs.
 */
export interface InterceptorContext {
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool, resource or prompt name as listed (for a resource template, the template's name). */
  readonly name: string;
  /** The read arguments by their listed names (no `RequestContext` or `AbortSignal`), frozen. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The request's context: its caller, its signal, its HTTP request, its logger of progress. */
  readonly request: RequestContext;
}

/**
 * Code around every tool call, resource read and prompt of a server (`server.use(interceptor)`), in registration
 * order: the first one registered is the outermost. It returns `next()`'s value, a value of its own (a cache hit),
 * or throws (a `ToolError` is answered with its message, anything else is masked and logged as the method's failure
 * would be). `next()` runs the rest of the chain and the method, and may be called again (a retry); what it resolves
 * to is the method's return value, before it is written as an MCP result, so a value an interceptor returns is
 * written and checked as the method's would be.
 * @example
 * server.use(async ({ kind, name }, next) => {
 *   const started = performance.now();
 *   try { return await next(); }
 *   finally { console.error(`${kind} ${name}: ${(performance.now() - started).toFixed(1)} ms`); }
 * });
 */
export type Interceptor = (context: InterceptorContext, next: () => Promise<unknown>) => unknown;

/** Who a compiled call belongs to, and how its read argument list becomes arguments by name. */
export interface Intercepted {
  readonly kind: InterceptorContext['kind'];
  readonly name: string;
  readonly argsOf: (argv: readonly unknown[]) => Readonly<Record<string, unknown>>;
}

/**
 * A server's interceptors in registration order (`server.use`). Each registration makes a new frozen list, so a
 * call that read `list` keeps the interceptors it started with (one registered while it runs applies from the
 * next call on) without copying the list per call.
 */
export class Interceptors {
  private current: readonly Interceptor[] = Object.freeze([]);

  get list(): readonly Interceptor[] {
    return this.current;
  }

  add(interceptor: Interceptor): void {
    this.current = Object.freeze([...this.current, interceptor]);
  }
}

/**
 * The runner of a compiled call with the server's interceptors around it. `interceptors` is the server's own,
 * read at each call, so that `server.use` after `server.add` applies too; with none, the runner is called as is
 * (one length check on the hot path).
 */
export function intercepted(run: MethodRunner, who: Intercepted, interceptors: Interceptors): MethodRunner {
  return (argv, request) => {
    const chain = interceptors.list;
    if (chain.length === 0) return run(argv, request);
    const context: InterceptorContext = Object.freeze({
      kind: who.kind,
      name: who.name,
      args: Object.freeze(who.argsOf(argv)),
      request,
    });
    // A throw inside an interceptor or the method becomes a rejection of that step alone; no `async` function,
    // so that a chain of one costs one promise.
    const step = (index: number) => (): Promise<unknown> => {
      try {
        return Promise.resolve(index === chain.length ? run(argv, request) : chain[index](context, step(index + 1)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return step(0)();
  };
}
