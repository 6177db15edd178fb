import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { OneModelContextError, UsageError, UsageTypeError } from '../../errors';
import { formOf, type FormSchema } from './forms';
import { markContextClass } from '../../schema/members/context-class';

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

/**
 * The HTTP request an MCP call came in (`RequestContext.http`), over HTTP only: `serveHttp()`, `createHttpHandler()`,
 * the Nest module. Over stdio or an in-memory transport there is none.
 * @example
 * @Tool()
 * whoCalls(ctx: RequestContext): string {
 *   return `${ctx.http?.headers['user-agent'] ?? 'unknown'} from ${ctx.http?.ip ?? 'stdio'}`;
 * }
 */
export interface HttpRequestInfo {
  /** The request's headers by lower-cased name, as Node reads them (`IncomingMessage.headers`, not a copy). */
  readonly headers: Readonly<IncomingHttpHeaders>;
  /**
   * The client's address: the connection's, or behind `trustedProxies` reverse proxies the entry of
   * `X-Forwarded-For` they vouch for (the same address the per-caller session cap counts).
   */
  readonly ip: string;
  /**
   * The Node request itself, as the server or the framework handed it to the endpoint (on an Express route, Express's
   * `req`, with what its middleware set, such as `req.user`); absent for an in-process call given `http` by hand.
   */
  readonly request?: IncomingMessage;
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
  readonly createMessage?: (params: CreateMessageParams) => Promise<unknown>;
  readonly elicit?: (params: ElicitParams) => Promise<unknown>;
  /** The client's answers to the input an earlier round asked for (`inputResponses`). */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The verified state an earlier round handed to {@link RequestContext.requireInput}. */
  readonly requestState?: unknown;
  /** Why sampling and elicitation are unavailable, when they are. */
  readonly unavailable?: string;
  /** The verified caller, over HTTP with `auth`. */
  readonly auth?: AuthInfo;
  /** The HTTP request the call came in, over HTTP. */
  readonly http?: HttpRequestInfo;
}

/** A content block of a sampling message. */
export type SamplingContent =
  | { readonly type: 'text'; readonly text: string; readonly _meta?: Readonly<Record<string, unknown>> }
  | {
      readonly type: 'image' | 'audio';
      readonly data: string;
      readonly mimeType: string;
      readonly _meta?: Readonly<Record<string, unknown>>;
    }
  | { readonly type: 'tool_use' | 'tool_result'; readonly [key: string]: unknown };

/** One message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: SamplingContent | readonly SamplingContent[];
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * What {@link RequestContext.createMessage} sends as `sampling/createMessage`'s params.
 * @example
 * const reply = await ctx.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise this' } }], maxTokens: 200 });
 */
export interface CreateMessageParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly modelPreferences?: {
    readonly hints?: readonly { readonly name?: string }[];
    readonly costPriority?: number;
    readonly speedPriority?: number;
    readonly intelligencePriority?: number;
  };
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Tools the client's model may call (2025-11-25 and later), as listed by `tools/list`. */
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  readonly toolChoice?: Readonly<Record<string, unknown>>;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * The client's answer to {@link RequestContext.createMessage}.
 * @example
 * const reply: CreateMessageResult = await ctx.createMessage({ messages, maxTokens: 100 });
 * const text = !Array.isArray(reply.content) && reply.content.type === 'text' ? reply.content.text : '';
 */
export interface CreateMessageResult {
  readonly role: 'user' | 'assistant';
  /** One block, or several (a mutable array, so that `Array.isArray` narrows it). */
  readonly content: SamplingContent | SamplingContent[];
  /** The model that answered. */
  readonly model: string;
  readonly stopReason?: string;
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** A value a user fills into an elicitation form. */
export type ElicitValue = string | number | boolean | readonly string[];

/**
 * What {@link RequestContext.elicit} sends as `elicitation/create`'s params: a form (flat JSON Schema of
 * primitive properties) or, from 2025-11-25, a URL the user opens.
 * @example
 * const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
 */
export type ElicitParams =
  | {
      readonly mode?: 'form';
      readonly message: string;
      readonly requestedSchema: FormSchema;
      readonly _meta?: Readonly<Record<string, unknown>>;
    }
  | {
      readonly mode: 'url';
      readonly message: string;
      readonly url: string;
      readonly elicitationId: string;
      readonly _meta?: Readonly<Record<string, unknown>>;
    };

/**
 * The user's answer to {@link RequestContext.elicit}: `content` only when they accepted; `T` is the form's
 * record class when the form was given as one.
 * @example
 * const answer = await ctx.elicit('Where to ship?', Address);
 * if (answer.action === 'accept') ship(answer.content); // an Address
 */
export type ElicitResult<T = Readonly<Record<string, ElicitValue>>> =
  | { readonly action: 'accept'; readonly content: T; readonly _meta?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' | 'cancel'; readonly content?: undefined; readonly _meta?: Readonly<Record<string, unknown>> };

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
  /**
   * The HTTP request the call came in (its headers, the client's address, the Node request), for any call served
   * over HTTP; `undefined` over stdio and in-memory transports. Read at the request, never copied.
   */
  readonly http: HttpRequestInfo | undefined;
  readonly #init: RequestContextInit;
  #signal: AbortSignal | undefined;

  constructor(init: RequestContextInit = {}) {
    this.requestId = init.requestId;
    this.sessionId = init.sessionId;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.meta = init.meta;
    this.inputResponses = init.inputResponses;
    this.requestState = init.requestState;
    this.auth = init.auth;
    this.http = init.http;
    this.#init = init;
  }

  /**
   * Aborts when the client cancels the request, the server times it out, or the connection closes. Made when
   * first read: few tools read it, and an `AbortSignal` is costly to make on every call.
   */
  get signal(): AbortSignal {
    return (this.#signal ??= this.#init.signal ?? new AbortController().signal);
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
  createMessage(params: CreateMessageParams): Promise<CreateMessageResult> {
    if (!this.#init.createMessage)
      return Promise.reject(
        new UsageError(
          `Sampling is not available for this request: ${this.#init.unavailable ?? 'the client or protocol revision does not offer it.'}`,
        ),
      );
    return this.#init.createMessage(params) as Promise<CreateMessageResult>;
  }

  /**
   * Asks the user for input through the client (`elicitation/create`) and waits for it. Available on
   * 2025-era connections whose client declared `elicitation`; on 2026-07-28 use {@link requireInput}.
   * Given a record class as the form, its input schema is sent as `requestedSchema` and an accepted
   * answer is read strictly into an instance of it (an answer that does not fit rejects with the reason).
   */
  elicit<T extends object>(message: string, form: new () => T): Promise<ElicitResult<T>>;
  elicit(params: ElicitParams): Promise<ElicitResult>;
  elicit(params: ElicitParams | string, form?: new () => object): Promise<ElicitResult<unknown>> {
    if (!this.#init.elicit)
      return Promise.reject(
        new UsageError(
          `Elicitation is not available for this request: ${this.#init.unavailable ?? 'the client or protocol revision does not offer it.'}`,
        ),
      );
    if (typeof params === 'string') return this.#elicitForm(params, form);
    return this.#init.elicit(params) as Promise<ElicitResult>;
  }

  async #elicitForm(message: string, form: (new () => object) | undefined): Promise<ElicitResult<unknown>> {
    if (typeof form !== 'function')
      throw new UsageTypeError(
        "ctx.elicit(message, Form) takes a record class as the form, for example ctx.elicit('Where to ship?', Address).",
      );
    const { requestedSchema, read } = formOf(form);
    const answer = (await this.#init.elicit!({ message, requestedSchema })) as ElicitResult;
    return answer.action === 'accept' ? { ...answer, content: read(answer.content) } : answer;
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
markContextClass(RequestContext);
