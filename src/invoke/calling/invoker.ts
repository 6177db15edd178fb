import { channel } from 'node:diagnostics_channel';
import { Log } from '../../log';
import type { RawInputSchema, StandardNode, ToolModel } from '../../schema/model';
import { InputRequired, type RequestContext, type RequestContextInit } from '../request/request-context';
import { TOOL_FAILED_CHANNEL, ToolError, ToolTimeoutError } from './errors';
import { INVALID, argumentMessage, buildOrDefer, newFailure, restore, type Failure, type OneFailure } from '../reading/failure';
import { standardRead } from '../reading/standard-reader';
import { errorPath } from '../../schema/resolve/input-schema';
import { asyncChecksOf, settlePending } from '../reading/async-checks';
import { argumentsReader } from '../reading/reader';
import { policyOf, type ValidationOptions } from '../../schema/records/validation-options';
import { isThenable } from '../../schema/resolve/standard';
import { ResultMismatchError, errorResult, resultWriter, type CallToolResult } from '../results/results';
import { InexactIntegerError } from '../results/exact-integers';
import { intercepted, type Interceptors } from './interceptors';
import { argsByName, methodRunner, runInContext, type InvokeHook } from './invocation';

/** How a registered tool is called. */
export type ToolTarget =
  | { readonly kind: 'method'; readonly instance: object; readonly key: string | symbol; readonly invoke?: InvokeHook }
  | { readonly kind: 'handler'; readonly handler: (args: Record<string, unknown>, context: RequestContext) => unknown };

/** One compiled tool call: read, invoke, write. */
export type ToolCall = (args: unknown, init: RequestContextInit) => Promise<CallToolResult>;

const failed = channel(TOOL_FAILED_CHANNEL);

/**
 * Answers an exception: a `ToolError` with its message, a bigint result no JSON number carries with its
 * path, anything else masked; all but the `ToolError` published and logged.
 */
export function failureResult(tool: string, error: unknown, init: RequestContextInit, log: Log): CallToolResult {
  if (error instanceof ToolError) return errorResult(error.message);
  if (failed.hasSubscribers) failed.publish({ tool, error });
  const { requestId, sessionId } = init;
  if (error instanceof InexactIntegerError) {
    log.error(`The result of tool '${tool}' was not sent: it holds a bigint at '${error.path}'`, {
      event: 'result.inexact',
      tool,
      requestId,
      sessionId,
      path: error.path,
      error,
    });
    return errorResult(error.answer);
  }
  if (error instanceof ResultMismatchError) {
    log.error(`The result of tool '${tool}' does not match its output schema at '${error.path}'`, {
      event: 'result.mismatch',
      tool,
      requestId,
      sessionId,
      path: error.path,
      error,
    });
  } else {
    log.error(`Tool '${tool}' failed`, { event: 'tool.failed', tool, requestId, sessionId, error });
  }
  return errorResult('The tool failed.');
}

/**
 * Runs `run` with a signal that aborts after `ms` (and when the request's `init.signal` aborts); a run that has not
 * settled by then rejects with a `ToolTimeoutError` (also the signal's abort reason). A call without a bound does not
 * come here: it runs with the request's own signal in `init`, made only if the tool reads it.
 */
async function withTimeout<T>(run: (signal: AbortSignal) => T | Promise<T>, ms: number, init: RequestContextInit): Promise<T> {
  const signal = init.signal;
  const controller = new AbortController();
  const forward = () => controller.abort(signal!.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new ToolTimeoutError(ms);
      controller.abort(timeout);
      reject(timeout);
    }, ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), expired]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/** Reads the arguments of a tool with a hand-written input schema: valid arguments are passed on as sent. */
function rawReader(input: RawInputSchema): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  return (args, f) => {
    const value = args ?? {};
    if (input.validate(value)) return [value];
    const first = input.validate.errors?.[0];
    if (first) f.path.push(...errorPath(first));
    if (f.path.length === 0) f.expected = 'The arguments do not match the input schema.';
    return INVALID;
  };
}

/** Reads the arguments of a tool whose whole input is a Standard Schema: the output value (or a `Pending` one). */
function standardInputReader(node: StandardNode): (args: unknown, f: Failure) => unknown[] | typeof INVALID {
  return (args, f) => {
    const value = standardRead(node, args ?? {}, f);
    return value === INVALID ? INVALID : [value];
  };
}

/** The async answer of a Standard Schema input, put in place as the one argument. */
function standardInputCheck(argv: unknown[]): Promise<OneFailure[]> {
  const into: Promise<OneFailure[]>[] = [];
  settlePending(argv[0], [], into, (value) => (argv[0] = value));
  return Promise.all(into).then((all) => all.flat());
}

/** How a tool reads its arguments: `lenientJsonStrings` reads objects and arrays sent as JSON text. */
export interface CompileOptions {
  readonly requestTimeoutMs?: number;
  readonly lenientJsonStrings?: boolean;
  /** The validation options in force (the app's pipe's): what records accept, as listed. */
  readonly validation?: ValidationOptions;
  /** Where masked failures and timeouts are written; nothing when left out. */
  readonly log?: Log;
  /** The server's interceptors (`server.use`), read at each call. */
  readonly interceptors?: Interceptors;
}

/**
 * Compiles a tool's call path once: the argument reader, the way to invoke the target and the result
 * writer. `requestTimeoutMs` aborts the tool's signal and answers an error result. A throw anywhere in
 * reading, invoking or writing (other than a `ToolError`) is the masked `The tool failed.`.
 */
export function compileTool(model: ToolModel, target: ToolTarget, options: CompileOptions = {}): ToolCall {
  const log = options.log ?? Log.silent;
  const policy = policyOf(options.validation);
  const standard = model.standardInput;
  const read = model.rawInput
    ? rawReader(model.rawInput)
    : standard
      ? standardInputReader(standard)
      : buildOrDefer(() => argumentsReader(model.params, model.arity, { lenientJsonStrings: options.lenientJsonStrings, policy }));
  // Only a tool whose records have an async rule (or whose Standard Schema answers a promise) waits after reading.
  const checkAsync = model.rawInput ? undefined : standard ? standardInputCheck : asyncChecksOf(model.params, policy);
  const write = buildOrDefer(() => resultWriter(model.result, model.name));
  // A tool with a hand-written or Standard Schema input (`inputSchema`, `input`) reads one object: its arguments are that object.
  const argsOf = model.rawInput || standard ? (argv: readonly unknown[]) => argv[0] as Record<string, unknown> : argsByName(model.params);
  const run =
    target.kind === 'method'
      ? methodRunner({ kind: 'tool', name: model.name, params: model.params }, target.instance, target.key, target.invoke)
      : (argv: unknown[], context: RequestContext) => target.handler(argsOf(argv), context);
  const invoke = options.interceptors ? intercepted(run, { kind: 'tool', name: model.name, argsOf }, options.interceptors) : run;
  const timeoutMs = options.requestTimeoutMs;

  return async (args, init) => {
    try {
      const f = newFailure();
      const argv = read(args, f);
      if (argv === INVALID) return errorResult(argumentMessage(f));
      if (checkAsync && restore(f, await checkAsync(argv)) === INVALID) return errorResult(argumentMessage(f));
      // Without a bound the method runs here, and a value it returns is written without waiting a tick for it: an async
      // `withTimeout` and an `await` of a plain value each cost a promise and a tick per call.
      const ran =
        timeoutMs === undefined
          ? runInContext(invoke, argv, init, model)
          : withTimeout((signal) => runInContext(invoke, argv, { ...init, signal }, model), timeoutMs, init);
      return write(isThenable(ran) ? await ran : ran);
    } catch (error) {
      if (error instanceof ToolTimeoutError) {
        log.warn(`Tool '${model.name}' did not finish within ${timeoutMs} ms`, {
          event: 'tool.timeout',
          tool: model.name,
          requestId: init.requestId,
          sessionId: init.sessionId,
        });
        return errorResult(error.message);
      }
      // Not a failure: the server layer answers it with an input-required result.
      if (error instanceof InputRequired) throw error;
      return failureResult(model.name, error, init, log);
    }
  };
}
