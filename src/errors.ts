/**
 * The named codes of the library's own errors, one per kind of failure (one per public error class, but that
 * `UsageTypeError` and `UsageRangeError` share `UsageError`'s): `error.code` tells them apart without
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
  | 'STORE_FAILED'
  | 'ANSWER_MISMATCH'
  | 'DEPENDENCY_MISMATCH';

/*
 * Plain `Error`s stay where the text is someone else's contract: the abort reasons a tool's signal carries
 * ('The server closed.', 'The task was cancelled.'), the `onerror` reports that repeat the SDK's own wording
 * ('Failed to send response: ...', 'Uncaught error in notification handler: ...'), a request body cut off by its
 * client (answered, never thrown to a caller), serveHttp's listen errors (their `code` is Node's, such as
 * EADDRINUSE) and `asError`'s wrapping of a thrown non-error. Each carries an eslint-disable naming its reason
 * (the `no-restricted-syntax` rule in eslint.config.mjs refuses any other `new Error`). `StoreUnavailableError`
 * keeps the JSON-RPC code the SDK answers with. What a handler throws to the SDK for it to answer on the wire
 * (the SDK's `ProtocolError`, `OAuthError` and the like, `TaskCreated` in server/tasks) is the SDK's contract too.
 */

/**
 * The base of every error this library throws, so that `instanceof OneModelContextError` (or `error.code`)
 * separates ours from anything else. Subclasses keep their own names (`ToolError`, `DefinitionError` ...).
 * A misuse the docs promise as a `TypeError` or `RangeError` (`UsageTypeError`, `UsageRangeError`) cannot
 * extend this class and stay one, so `instanceof` here also accepts the coded built-in errors below.
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

  /**
   * The prototype chain first, as `instanceof` always asks; then the coded built-ins. Subclasses inherit this
   * static, so `this` is the class asked about: `instanceof ToolError` stays the plain prototype check.
   * (Returning `boolean`, not a type predicate, keeps TypeScript's own narrowing to the class asked about.)
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this, value) || isCodedBuiltin(this, value);
  }
}

/**
 * A call the library cannot honour as it was made: an option set too late, a peer package that is not
 * installed, a feature the request does not offer (sampling on a client without it), an HTTP request read
 * where the call did not come over HTTP. The message says what to do instead. `instanceof UsageError` also
 * accepts `UsageTypeError` and `UsageRangeError`, which share its code.
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
 * An installed dependency (the MCP SDK, ajv-formats) does not have the shape this library was built against,
 * found where the library reads it: a version the package does not support.
 */
export class DependencyError extends OneModelContextError {
  readonly code = 'DEPENDENCY_MISMATCH';
}

/**
 * A misuse found when a decorator, an option or an argument is read (a decorator factory used bare, an option
 * of the wrong type, a server option out of range), where the docs promise a `TypeError`. It is one, with the
 * same `name` ('TypeError', as Node's own coded errors keep theirs), and it is also ours:
 * `instanceof OneModelContextError` and `instanceof UsageError` accept it, and its `code` is `USAGE_INVALID`.
 */
export class UsageTypeError extends TypeError {
  readonly code = 'USAGE_INVALID';
}

/** `UsageTypeError`'s twin for a value out of range where a `RangeError` is promised (a request-state secret too short). */
export class UsageRangeError extends RangeError {
  readonly code = 'USAGE_INVALID';
}

/**
 * An elicitation answer that does not fit the record class given as its form (`ctx.elicit(message, Form)`): a
 * `TypeError` as it always was, with its own code, and ours for `instanceof OneModelContextError`.
 */
export class AnswerMismatchError extends TypeError {
  readonly code = 'ANSWER_MISMATCH';
}

/** Whether `value` is one of the coded built-in errors that `asked` (our base, or `UsageError`) accepts. */
function isCodedBuiltin(asked: Function, value: unknown): boolean {
  if (asked === OneModelContextError) {
    return value instanceof UsageTypeError || value instanceof UsageRangeError || value instanceof AnswerMismatchError;
  }
  return asked === UsageError && (value instanceof UsageTypeError || value instanceof UsageRangeError);
}

/**
 * `value` as an `Error`, for the `onerror` callbacks of the SDK's transports and servers, which take one: a
 * thrown `Error` as it is, anything else (a string, an object) described in the message.
 */
export function asError(value: unknown): Error {
  // The SDK's `onerror` takes an `Error`: a thrown string or object is described in one, not coded as ours.
  return value instanceof Error ? value : new Error(String(value));
}
