import { channel } from 'node:diagnostics_channel';
import type { ToolModel } from '../schema/model';
import { InputRequired, RequestContext, type RequestContextInit } from '../request-context';
import { TOOL_FAILED_CHANNEL, ToolError } from './errors';
import { INVALID, argumentMessage, newFailure } from './failure';
import { argumentsReader } from './reader';
import { errorResult, resultWriter, type CallToolResult } from './results';
import { methodRunner, type InvokeHook } from './invocation';

/** How a registered tool is called. */
export type ToolTarget =
  | { readonly kind: 'method'; readonly instance: object; readonly key: string | symbol; readonly invoke?: InvokeHook }
  | { readonly kind: 'handler'; readonly handler: (args: Record<string, unknown>, context: RequestContext) => unknown };

/** One compiled tool call: read, invoke, write. */
export type ToolCall = (args: unknown, init: RequestContextInit) => Promise<CallToolResult>;

const failed = channel(TOOL_FAILED_CHANNEL);

/** Answers an exception: a `ToolError` with its message, anything else masked and published. */
export function failureResult(tool: string, error: unknown): CallToolResult {
  if (error instanceof ToolError) return errorResult(error.message);
  if (failed.hasSubscribers) failed.publish({ tool, error });
  return errorResult('The tool failed.');
}

class Timeout extends Error {}

/**
 * Compiles a tool's call path once: the argument reader, the way to invoke the target and the result
 * writer. `requestTimeoutMs` aborts the tool's signal and answers an error result.
 */
export function compileTool(model: ToolModel, target: ToolTarget, options: { readonly requestTimeoutMs?: number } = {}): ToolCall {
  const read = argumentsReader(model.params, model.arity);
  const write = resultWriter(model.result, model.name);
  const { contextIndex, signalIndex } = model;
  const names = model.params.map((p) => [p.index, p.name] as const);
  const invoke =
    target.kind === 'method'
      ? methodRunner({ kind: 'tool', name: model.name, params: model.params }, target.instance, target.key, target.invoke)
      : (argv: unknown[], context: RequestContext) => {
          const values: Record<string, unknown> = Object.create(null);
          for (const [index, name] of names) values[name] = argv[index];
          return target.handler(values, context);
        };
  const timeoutMs = options.requestTimeoutMs;

  return async (args, init) => {
    const f = newFailure();
    const argv = read(args, f);
    if (argv === INVALID) return errorResult(argumentMessage(f));
    let timer: NodeJS.Timeout | undefined;
    let controller: AbortController | undefined;
    if (timeoutMs !== undefined) {
      controller = new AbortController();
      const outer = init.signal;
      if (outer?.aborted) controller.abort(outer.reason);
      else outer?.addEventListener('abort', () => controller!.abort(outer.reason), { once: true });
    }
    const context = new RequestContext(controller ? { ...init, signal: controller.signal } : init);
    if (contextIndex !== undefined) argv[contextIndex] = context;
    if (signalIndex !== undefined) argv[signalIndex] = context.signal;
    try {
      const running = Promise.resolve().then(() => invoke(argv, context));
      const value = controller
        ? await Promise.race([
            running,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                controller!.abort(new Timeout(`timed out after ${timeoutMs} ms`));
                reject(new Timeout());
              }, timeoutMs);
            }),
          ])
        : await running;
      return write(value);
    } catch (error) {
      if (error instanceof Timeout) return errorResult(`The tool did not finish within ${timeoutMs} ms.`);
      // Not a failure: the server layer answers it with an input-required result.
      if (error instanceof InputRequired) throw error;
      return failureResult(model.name, error);
    } finally {
      if (timer) clearTimeout(timer);
    }
  };
}
