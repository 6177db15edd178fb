import { channel } from 'node:diagnostics_channel';
import { OneModelContextError } from '../../errors';
import { Log } from '../../log';
import { InputRequired, type RequestContextInit } from '../request/request-context';
import { TOOL_FAILED_CHANNEL, ToolError } from './errors';
import { INVALID, argumentMessage, buildOrDefer, newFailure } from '../reading/failure';
import { textArgumentsReader } from '../reading/text';
import type { TextMethodModel } from '../../schema/model';
import { intercepted, type Interceptors } from './interceptors';
import { argsByName, methodRunner, runInContext, type InvokeHook } from './invocation';

/**
 * Calling resource and prompt methods: their arguments are text, and their errors are JSON-RPC errors
 * (there is no `isError` result for them), never carrying internals.
 */

/** A bad or missing argument, an unknown prompt: JSON-RPC -32602 on the wire. */
export class InvalidParamsError extends OneModelContextError {
  readonly code = 'INVALID_PARAMS';
  readonly jsonRpcCode = -32602;

  constructor(
    message: string,
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** No resource has this URI: -32002 before 2026-07-28, -32602 from it (docs/protocol.md). */
export class ResourceNotFoundError extends OneModelContextError {
  readonly code = 'RESOURCE_NOT_FOUND';
  readonly jsonRpcCode = -32002;

  constructor(readonly uri: string) {
    super('Resource not found');
  }
}

/** A resource or prompt method failed: JSON-RPC -32603 with a `ToolError`'s message or a masked text. */
export class TextMethodFailedError extends OneModelContextError {
  readonly code = 'TEXT_METHOD_FAILED';
  readonly jsonRpcCode = -32603;
}

/** One compiled call of a resource or prompt method: text arguments in, the method's value out. */
export type TextMethodCall = (args: Readonly<Record<string, unknown>> | undefined, init: RequestContextInit) => Promise<unknown>;

const failed = channel(TOOL_FAILED_CHANNEL);

/** Compiles the argument reading and invocation of one method, once. `kind` names it in masked errors. */
export function compileTextMethod(
  model: TextMethodModel,
  instance: object,
  key: string | symbol,
  kind: 'resource' | 'prompt',
  options: { readonly invoke?: InvokeHook; readonly log?: Log; readonly interceptors?: Interceptors } = {},
): TextMethodCall {
  const log = options.log ?? Log.silent;
  const read = buildOrDefer(() => textArgumentsReader(model.params, model.arity));
  const method = methodRunner({ kind, name: model.name, params: model.params }, instance, key, options.invoke);
  const run = options.interceptors
    ? intercepted(method, { kind, name: model.name, argsOf: argsByName(model.params) }, options.interceptors)
    : method;
  return async (args, init) => {
    try {
      const f = newFailure();
      const argv = read(args, f);
      if (argv === INVALID) throw new InvalidParamsError(argumentMessage(f));
      return await runInContext(run, argv, init, model);
    } catch (error) {
      if (error instanceof InputRequired || error instanceof ResourceNotFoundError || error instanceof InvalidParamsError) throw error;
      if (error instanceof ToolError) throw new TextMethodFailedError(error.message);
      if (failed.hasSubscribers) failed.publish({ tool: model.name, error });
      const { requestId, sessionId } = init;
      log.error(`${kind === 'resource' ? 'Resource' : 'Prompt'} '${model.name}' failed`, {
        event: `${kind}.failed`,
        [kind]: model.name,
        requestId,
        sessionId,
        error,
      });
      throw new TextMethodFailedError(`The ${kind} failed.`);
    }
  };
}
