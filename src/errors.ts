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
  | 'REDIS_UNAVAILABLE';

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
