import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError as SdkResourceNotFoundError,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InvalidParamsError, TextMethodFailedError, ResourceNotFoundError } from '../../invoke/calling/text-methods';
import { InputRequired } from '../../invoke/request/request-context';
import type { Log } from '../../log';
import type { AuthorizeItem } from '../auth/caller';
import type { Visibility } from '../auth/visibility';
import { inputRequiredResult } from '../sdk/server';
import { StoreUnavailableError } from '../stores/degraded';
import { bindingOf } from './handler-context';
import type { ProtocolSettings } from './settings';
import type { RequestStates, StateBinding } from './signing';

/**
 * How a handler's outcome reaches the wire: a refusal as an unknown item, `requireInput` as an input-required
 * result, our errors as JSON-RPC errors.
 */

/**
 * Throws what an unknown item answers when `auth.authorize` refuses the caller this item (logged there): a
 * refused name must be indistinguishable from a name that does not exist.
 */
export async function requireAllowed(visibility: Visibility, ctx: ServerContext, item: AuthorizeItem, unknown: () => Error): Promise<void> {
  if (!(await visibility.allows(ctx.http?.authInfo, item, ctx.mcpReq.id, ctx.sessionId))) throw unknown();
}

export async function inputRequiredOf(signal: InputRequired, states: RequestStates, binding: StateBinding): Promise<InputRequiredResult> {
  return inputRequiredResult(
    signal.inputRequests,
    signal.requestState === undefined ? undefined : await states.mint(signal.requestState, binding),
  );
}

/** Maps our errors to JSON-RPC errors; nothing else escapes, so no internals reach the wire. */
export function protocolErrorOf(error: unknown, log: Log, ctx: ServerContext): Error {
  if (error instanceof InvalidParamsError) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.data);
  if (error instanceof ResourceNotFoundError) return new SdkResourceNotFoundError(error.uri);
  if (error instanceof TextMethodFailedError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  // "Temporarily unable" (-32000) as it is: its message names no internals, and the outage is logged once where it failed.
  if (error instanceof StoreUnavailableError) return error;
  log.error('A request failed', { event: 'request.failed', requestId: ctx.mcpReq.id, sessionId: ctx.sessionId, error });
  return new ProtocolError(ProtocolErrorCode.InternalError, 'The request failed.');
}

/** Runs a handler body, answering `requireInput` with an input-required result and errors as JSON-RPC errors. */
export async function answer<T>(
  settings: ProtocolSettings,
  ctx: ServerContext,
  item: string,
  run: () => Promise<T>,
): Promise<T | InputRequiredResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InputRequired) return inputRequiredOf(error, settings.states, bindingOf(ctx, item));
    if (error instanceof ProtocolError) throw error;
    throw protocolErrorOf(error, settings.log, ctx);
  }
}
