import { channel } from 'node:diagnostics_channel';
import { InputRequired, RequestContext, type RequestContextInit } from '../request-context';
import { TOOL_FAILED_CHANNEL, ToolError } from './errors';
import { INVALID, argumentMessage, buildOrDefer, newFailure } from './failure';
import { textArgumentsReader } from './text';
import type { TextMethodModel } from '../schema/model';
import { methodRunner, type InvokeHook } from './invocation';

/**
 * Calling resource and prompt methods: their arguments are text, and their errors are JSON-RPC errors
 * (there is no `isError` result for them), never carrying internals.
 */

/** A bad or missing argument, an unknown prompt: JSON-RPC -32602 on the wire. */
export class InvalidParamsError extends Error {
  readonly code = -32602;

  constructor(message: string, readonly data?: Readonly<Record<string, unknown>>) {
    super(message);
    this.name = 'InvalidParamsError';
  }
}

/** No resource has this URI: -32002 before 2026-07-28, -32602 from it (docs/protocol.md). */
export class ResourceNotFoundError extends Error {
  readonly code = -32002;

  constructor(readonly uri: string) {
    super('Resource not found');
    this.name = 'ResourceNotFoundError';
  }
}

/** A resource or prompt method failed: JSON-RPC -32603 with a `ToolError`'s message or a masked text. */
export class TextMethodFailedError extends Error {
  readonly code = -32603;

  constructor(message: string) {
    super(message);
    this.name = 'TextMethodFailedError';
  }
}

/** One compiled call of a resource or prompt method: text arguments in, the method's value out. */
export type TextMethodCall = (args: Readonly<Record<string, unknown>> | undefined, init: RequestContextInit) => Promise<unknown>;

const failed = channel(TOOL_FAILED_CHANNEL);

/** Compiles the argument reading and invocation of one method, once. `kind` names it in masked errors. */
export function compileTextMethod(model: TextMethodModel, instance: object, key: string | symbol, kind: 'resource' | 'prompt', invoke?: InvokeHook): TextMethodCall {
  const read = buildOrDefer(() => textArgumentsReader(model.params, model.arity));
  const run = methodRunner({ kind, name: model.name, params: model.params }, instance, key, invoke);
  const { contextIndex, signalIndex } = model;
  return async (args, init) => {
    try {
      const f = newFailure();
      const argv = read(args, f);
      if (argv === INVALID) throw new InvalidParamsError(argumentMessage(f));
      const context = new RequestContext(init);
      if (contextIndex !== undefined) argv[contextIndex] = context;
      if (signalIndex !== undefined) argv[signalIndex] = context.signal;
      return await run(argv, context);
    } catch (error) {
      if (error instanceof InputRequired || error instanceof ResourceNotFoundError || error instanceof InvalidParamsError) throw error;
      if (error instanceof ToolError) throw new TextMethodFailedError(error.message);
      if (failed.hasSubscribers) failed.publish({ tool: model.name, error });
      throw new TextMethodFailedError(`The ${kind} failed.`);
    }
  };
}
