import { RequestContext, type RequestContextInit } from '../request/request-context';
import type { ParamModel } from '../../schema/model';

/**
 * One call of a decorated method after its arguments were read and validated, as an `invoke` hook of
 * `server.add(instance, { invoke })` sees it. The hook decides how the method runs: the NestJS module runs
 * it through Nest's guards, interceptors and exception filters.
 * @example
 * server.add(new DocketTools(), {
 *   invoke: (call) => (call.instance as Record<string, Function>)[call.method as string](...call.args),
 * });
 */
export interface Invocation {
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool, resource or prompt name as listed. */
  readonly name: string;
  /** The instance given to `server.add`. */
  readonly instance: object;
  /** The decorated method's property key. */
  readonly method: string | symbol;
  /** The method's argument list in order, read and validated, with `RequestContext` and `AbortSignal` filled in. */
  readonly args: readonly unknown[];
  /** The read arguments by their listed names (no `RequestContext` or `AbortSignal`). */
  readonly values: Readonly<Record<string, unknown>>;
  readonly context: RequestContext;
}

/**
 * Runs one {@link Invocation} and returns what the method returned (or a promise of it); what it returns
 * is written as the method's result, and what it throws is answered as the method's exception would be.
 * @example
 * const timed: InvokeHook = async (call) => {
 *   const started = Date.now();
 *   try { return await (call.instance as any)[call.method](...call.args); }
 *   finally { console.error(`${call.name} took ${Date.now() - started} ms`); }
 * };
 */
export type InvokeHook = (invocation: Invocation) => unknown;

/**
 * Options of `server.add`.
 * @example server.add(new DocketTools(), { invoke: (call) => audit(call).then(() => runMethod(call)) });
 */
export interface AddOptions {
  /** Runs each call of the instance's tools, resources and prompts; default: the method itself. */
  readonly invoke?: InvokeHook;
}

/** How a compiled call runs the method with its read argument list. */
export type MethodRunner = (argv: unknown[], context: RequestContext) => unknown;

/**
 * The step every compiled call (tool, resource, prompt) takes once its arguments are read: the request's context
 * built, filled into the method's `RequestContext` and `AbortSignal` parameters, and the method run.
 */
export function runInContext(
  run: MethodRunner,
  argv: unknown[],
  init: RequestContextInit,
  at: { readonly contextIndex?: number; readonly signalIndex?: number },
): unknown {
  const context = new RequestContext(init);
  if (at.contextIndex !== undefined) argv[at.contextIndex] = context;
  if (at.signalIndex !== undefined) argv[at.signalIndex] = context.signal;
  return run(argv, context);
}

/**
 * The runner of one decorated method: the method itself, or the `invoke` hook given the call. Values by
 * name are built only when a hook asks for them.
 */
export function methodRunner(
  who: { readonly kind: Invocation['kind']; readonly name: string; readonly params: readonly ParamModel[] },
  instance: object,
  key: string | symbol,
  hook: InvokeHook | undefined,
): MethodRunner {
  if (!hook) {
    return (argv) => (instance as Record<string | symbol, (...a: unknown[]) => unknown>)[key].apply(instance, argv);
  }
  const { kind, name } = who;
  const valuesOf = argsByName(who.params);
  return (argv, context) =>
    hook(
      Object.freeze({ kind, name, instance, method: key, args: Object.freeze([...argv]), values: Object.freeze(valuesOf(argv)), context }),
    );
}

/** Arguments by name from a read argument list: each parameter's value at its index. */
export function argsByName(params: readonly { readonly name: string; readonly index: number }[]) {
  return (argv: readonly unknown[]): Record<string, unknown> => {
    const values: Record<string, unknown> = Object.create(null);
    for (const p of params) values[p.name] = argv[p.index];
    return values;
  };
}
