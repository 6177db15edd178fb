import { OneModelContextError } from './errors';

/**
 * The verified caller of a request over an authenticated HTTP endpoint (`RequestContext.auth`). It never holds
 * the access token itself.
 * @example
 * @Tool({ scopes: ['orders:read'] })
 * myOrders(ctx: RequestContext): string[] {
 *   return orders.filter((o) => o.owner === ctx.auth?.subject).map((o) => o.id);
 * }
 */
export interface AuthInfo {
  /** The token's `sub`: the user it speaks for, or the client itself for the client-credentials grant. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`). */
  readonly clientId: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. Tokens without one are refused. */
  readonly expiresAt: number;
  /** Every claim of the token: the JWT payload, or the introspection answer. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What the server layer knows about a request; every field is optional for in-process calls. */
export interface RequestContextInit {
  readonly signal?: AbortSignal;
  readonly requestId?: string | number;
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly clientCapabilities?: Readonly<Record<string, unknown>>;
  /** The request's `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly reportProgress?: (progress: number, total?: number, message?: string) => Promise<void> | void;
  readonly log?: (level: LogLevel, data: unknown, logger?: string) => Promise<void> | void;
  readonly createMessage?: (params: Readonly<Record<string, unknown>>) => Promise<unknown>;
  readonly elicit?: (params: Readonly<Record<string, unknown>>) => Promise<unknown>;
  /** The client's answers to the input an earlier round asked for (`inputResponses`). */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The verified state an earlier round handed to {@link RequestContext.requireInput}. */
  readonly requestState?: unknown;
  /** Why sampling and elicitation are unavailable, when they are. */
  readonly unavailable?: string;
  /** The verified caller, over HTTP with `auth`. */
  readonly auth?: AuthInfo;
}

/** One request the client fulfils before calling again: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export interface InputRequest {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * Thrown by {@link RequestContext.requireInput}: the server answers the request with an input-required
 * result instead of the method's value.
 */
export class InputRequired extends OneModelContextError {
  readonly code = 'INPUT_REQUIRED';

  constructor(
    readonly inputRequests: Readonly<Record<string, InputRequest>>,
    readonly requestState?: unknown,
  ) {
    super('The request needs input from the client.');
  }
}

/** MCP logging levels (RFC 5424). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * What a tool can know about the request that called it. Declare a parameter of this type and it is
 * filled in, never listed in the schema.
 * @example
 * @Tool()
 * async importAll(@Param('url') url: string, ctx: RequestContext) {
 *   await ctx.reportProgress(1, 10, 'downloading');
 * }
 */
export class RequestContext {
  /** Aborts when the client cancels the request, the server times it out, or the connection closes. */
  readonly signal: AbortSignal;
  readonly requestId: string | number | undefined;
  readonly sessionId: string | undefined;
  /** The negotiated protocol revision, such as `2025-11-25` or `2026-07-28`. */
  readonly protocolVersion: string | undefined;
  readonly clientInfo: RequestContextInit['clientInfo'];
  /** The client's capabilities, extensions included. */
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The client's answers to the input an earlier round asked for, by key. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /** The state passed to `requireInput` in the previous round, verified by the server. */
  readonly requestState: unknown;
  /** The verified caller (subject, client id, scopes, expiry, claims) over HTTP with `auth`; never the token. */
  readonly auth: AuthInfo | undefined;
  readonly #init: RequestContextInit;

  constructor(init: RequestContextInit = {}) {
    this.signal = init.signal ?? new AbortController().signal;
    this.requestId = init.requestId;
    this.sessionId = init.sessionId;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.meta = init.meta;
    this.inputResponses = init.inputResponses;
    this.requestState = init.requestState;
    this.auth = init.auth;
    this.#init = init;
  }

  /** Sends `notifications/progress` when the caller asked for progress; does nothing otherwise. */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    await this.#init.reportProgress?.(progress, total, message);
  }

  /** Sends a `notifications/message` log entry to the client; does nothing where logging is unavailable. */
  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    await this.#init.log?.(level, data, logger);
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`) and waits for it. Available on
   * 2025-era connections whose client declared `sampling`; on 2026-07-28 use {@link requireInput}.
   */
  createMessage(params: Readonly<Record<string, unknown>>): Promise<unknown> {
    if (!this.#init.createMessage) return Promise.reject(new Error(`Sampling is not available for this request: ${this.#init.unavailable ?? 'the client or protocol revision does not offer it.'}`));
    return this.#init.createMessage(params);
  }

  /**
   * Asks the user for input through the client (`elicitation/create`) and waits for it. Available on
   * 2025-era connections whose client declared `elicitation`; on 2026-07-28 use {@link requireInput}.
   */
  elicit(params: Readonly<Record<string, unknown>>): Promise<unknown> {
    if (!this.#init.elicit) return Promise.reject(new Error(`Elicitation is not available for this request: ${this.#init.unavailable ?? 'the client or protocol revision does not offer it.'}`));
    return this.#init.elicit(params);
  }

  /** The client's answer to the input requested under `key` in the previous round, if it sent one. */
  inputResponse(key: string): unknown {
    const responses = this.inputResponses;
    return responses && Object.prototype.hasOwnProperty.call(responses, key) ? responses[key] : undefined;
  }

  /**
   * Ends this round with an input-required result (multi-round trip, SEP-2322): the client fulfils each
   * request and calls again with the answers in {@link inputResponses} and `requestState` (any JSON value,
   * signed by the server so a client cannot alter it) in {@link requestState}. On 2025-era connections
   * the SDK sends the requests to the client itself and calls the method again.
   * @example
   * const answer = ctx.inputResponse('name');
   * if (!answer) ctx.requireInput({ name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema } } });
   */
  requireInput(inputRequests: Readonly<Record<string, InputRequest>>, requestState?: unknown): never {
    throw new InputRequired(inputRequests, requestState);
  }
}
