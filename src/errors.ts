/**
 * The named codes of the library's own errors, one per error class: `error.code` tells them apart without
 * `instanceof` (useful across package copies and in logs).
 */
export type ErrorCode =
  | 'TOOL_ERROR'
  | 'UNKNOWN_TOOL'
  | 'DEFINITION_INVALID'
  | 'INVALID_PARAMS'
  | 'RESOURCE_NOT_FOUND'
  | 'TEXT_METHOD_FAILED'
  | 'RESULT_MISMATCH'
  | 'RESULT_INEXACT'
  | 'TOOL_TIMEOUT'
  | 'INPUT_REQUIRED'
  | 'GENERATE_FAILED'
  | 'TOKEN_REFUSED'
  | 'ISSUER_UNAVAILABLE'
  | 'REDIS_UNAVAILABLE'
  | 'USAGE_INVALID'
  | 'STORE_FAILED';

/*
 * Plain `Error`s stay where the text is someone else's contract: the abort reasons a tool's signal carries
 * ('The server closed.'), the `onerror` reports that repeat the SDK's own wording, a request body cut off by
 * its client (answered, never thrown to a caller), and serveHttp's listen errors (their `code` is Node's,
 * such as EADDRINUSE). `StoreUnavailableError` keeps the JSON-RPC code the SDK answers with.
 */

/**
 * The base of every error this library throws, so that `instanceof OneModelContextError` (or `error.code`)
 * separates ours from anything else. Subclasses keep their own names (`ToolError`, `DefinitionError` ...).
 * @example
 * try { server.add(new WeatherTools()); }
 * catch (e) { if (e instanceof OneModelContextError) console.error(e.code, e.message); }
 */
export abstract class OneModelContextError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The runtime class's own name (`ToolError`, a user's subclass of it ...), so logs and stacks name it.
    this.name = new.target.name;
  }
}

/**
 * A call the library cannot honour as it was made: an option set too late, a peer package that is not
 * installed, a feature the request does not offer (sampling on a client without it), an HTTP request read
 * where the call did not come over HTTP. The message says what to do instead.
 */
export class UsageError extends OneModelContextError {
  readonly code = 'USAGE_INVALID';
}

/**
 * A shared store (an event store, a task store) answered, but not with something the server can use: an
 * unknown or expired `Last-Event-ID`, a Redis transaction discarded, an update that lost every retry.
 * (A store that does not answer at all is `StoreUnavailableError`, which the SDK turns into a JSON-RPC error.)
 */
export class StoreError extends OneModelContextError {
  readonly code = 'STORE_FAILED';
}

/**
 * `value` as an `Error`, for the `onerror` callbacks of the SDK's transports and servers, which take one: a
 * thrown `Error` as it is, anything else (a string, an object) described in the message.
 */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
