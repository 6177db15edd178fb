import {
  Server,
  type BaseContext,
  type MessageExtraInfo,
  type Implementation,
  type JSONRPCRequest,
  type RequestMethod,
  type RequestTypeMap,
  type Result,
  type ServerContext,
  type StandardSchemaV1,
  inputRequired,
  type InputRequiredResult,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import type { HttpRequestInfo } from '../../invoke/request/request-context';
import { isObject, ownKeysAre } from '../../objects';

/**
 * The field an HTTP request travels in, on a message's extra information and on the handler context's `http`
 * (protocol/incoming.ts says how it gets there).
 */
export interface CarriesIncoming {
  readonly incoming?: HttpRequestInfo;
}

/**
 * The SDK `Server` as this library extends it: its two subclass hooks (`_wrapHandler`, `_onclose`) and the private
 * members the hot path reads, each behind a typed method with a name of ours. Every member used here is in
 * members.ts, which the start-up check (seam.ts) and the canary test look up.
 */

/** A request handler as the SDK keeps it, after its own wrapper. */
export type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** What a codec's result check answers (the SDK's `WireCodec.validateResult`). */
export type Checked =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'not-in-era' | 'invalid'; readonly message?: string };

/** The part of the SDK's wire codec the hot path encodes with: the very functions `Protocol` answers through. */
export interface WireCodec {
  readonly era: string;
  validateResult(method: string, raw: unknown): Checked;
  encodeResult(method: string, result: unknown, serverInfo: Implementation | undefined): unknown;
  encodeErrorCode(code: number): number;
}

/** `Server`'s fields that are public in JavaScript and private in its typings. */
interface PrivateFields {
  readonly _loggingLevels: ReadonlyMap<string | undefined, string>;
  readonly LOG_LEVEL_SEVERITY: ReadonlyMap<unknown, number>;
  _oninitialize(request: object): Promise<Result>;
  _negotiatedProtocolVersion?: string;
  _supportedProtocolVersions: string[];
}

const fieldsOf = (server: Server): PrivateFields => server as unknown as PrivateFields;

/** Whether the SDK still calls `_onclose` on a connection's close (members.ts names it; its absence is the fallback's). */
const closeHookCalled = (): boolean => typeof (Server.prototype as unknown as { _onclose?: unknown })._onclose === 'function';

export class SeamServer extends Server {
  constructor(...args: ConstructorParameters<typeof Server>) {
    super(...args);
    // Without the hook, the public callback (which the SDK calls from its close) runs ours.
    if (!closeHookCalled()) {
      this.onclose = () => {
        this.closing();
        this.closed();
      };
    }
  }

  /**
   * Wraps each request handler as it is registered, around the SDK's own wrapper (which validates the request and
   * the result). Called from the SDK's constructor too (for its built-in handlers), so it may touch no field.
   */
  protected wrapRequestHandler(method: string, handler: RequestHandler): RequestHandler {
    return handler;
  }

  /** The connection closed: runs before the SDK aborts its requests in progress. */
  protected closing(): void {}

  /** The connection closed: runs after the SDK settled its own requests. */
  protected closed(): void {}

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    return this.wrapRequestHandler(method, super._wrapHandler(method, handler));
  }

  /**
   * The handler context the SDK's own dispatch builds, with the HTTP request the endpoint handed on beside the message
   * (protocol/incoming.ts) in its `http`: the SDK keeps only the fields it knows of.
   */
  protected override buildContext(ctx: BaseContext, transportInfo?: MessageExtraInfo): ServerContext {
    const built = super.buildContext(ctx, transportInfo);
    const incoming = (transportInfo as CarriesIncoming | undefined)?.incoming;
    if (incoming === undefined) return built;
    return { ...built, http: { ...built.http, incoming } as ServerContext['http'] };
  }

  protected override _onclose(): void {
    this.closing();
    super._onclose();
    this.closed();
  }

  /** The wire codec of the negotiated era: the functions the SDK validates and encodes results with. */
  protected wireCodec(): WireCodec {
    return this._wireCodec() as unknown as WireCodec;
  }

  /**
   * A `tools/call` result encoded for the wire of the negotiated era: as the era's codec encodes it, in one object
   * on 2026-07-28 when the result is of the one shape every tool of ours answers (see {@link modernToolResult}).
   */
  protected encodedToolResult(result: unknown): unknown {
    const codec = this.wireCodec();
    const serverInfo = this._outboundServerInfo();
    return (codec.era === MODERN_ERA && modernToolResult(result, serverInfo)) || codec.encodeResult('tools/call', result, serverInfo);
  }

  /** The server info a 2026-07-28 result carries in `_meta` (`undefined` before it). */
  protected outboundServerInfo(): Implementation | undefined {
    return this._outboundServerInfo();
  }

  /** `Server`'s own answer to `initialize` (it negotiates the revision, keeps the client's capabilities and info). */
  protected answerInitialize(request: object): Promise<Result> {
    return fieldsOf(this)._oninitialize(request);
  }

  /** The level `logging/setLevel` set for the session, else the one set without a session. */
  protected logThreshold(sessionId: string | undefined): string | undefined {
    const levels = fieldsOf(this)._loggingLevels;
    return levels.get(sessionId) ?? levels.get(undefined);
  }

  /** A log level's rank as `Server` orders them (`debug` lowest); `undefined` for no level. */
  protected logSeverity(level: unknown): number | undefined {
    return fieldsOf(this).LOG_LEVEL_SEVERITY.get(level);
  }
}

/**
 * Fixes a server's revision as the SDK's 2026-07-28 entry does for each per-request instance (the same fields): the
 * revision joins the supported ones and is the negotiated one, with no `initialize`.
 */
export function servesRevision(server: Server, revision: string): void {
  const fields = fieldsOf(server);
  if (!fields._supportedProtocolVersions.includes(revision))
    fields._supportedProtocolVersions = [...fields._supportedProtocolVersions, revision];
  fields._negotiatedProtocolVersion = revision;
}

/*
 * The SDK types each method's answer as the one result type of its schema set. Ours are wider on purpose: a list or
 * a read answers the shape of the revision the caller speaks (2026-07-28 adds `ttlMs` and `cacheScope`), a handler
 * may answer an input-required result, `tasks/get` answers the 2025-11-25 or the 2026-07-28 task. The SDK's codec
 * checks every answer on the way out, so the typings are loosened here, once, rather than at each handler.
 */

/** A handler for a request method whose answer the SDK's codec checks (see above). */
export type AnswerOf<M extends RequestMethod> = (request: RequestTypeMap[M], ctx: ServerContext) => unknown;

/** Registers `handler` for one of the protocol's request methods. */
export function handleRequest<M extends RequestMethod>(server: Server, method: M, handler: AnswerOf<M>): void {
  server.setRequestHandler(method, handler as never);
}

/** Registers `handler` for a method whose params `params` reads (the SDK's three-argument form). */
export function handleRequestWithParams<P>(
  server: Server,
  method: string,
  params: StandardSchemaV1<unknown, P>,
  handler: (params: P, ctx: ServerContext) => Promise<object>,
): void {
  server.setRequestHandler(method, { params }, handler as never);
}

export { sendNotification } from './notify';

/** Sends a server-to-client request (sampling, elicitation) tied to the request `ctx` serves; resolves with its answer. */
export function askClient(ctx: ServerContext, method: string, params: object): Promise<unknown> {
  return ctx.mcpReq.send({ method, params } as never);
}

/** An input-required result: our `requireInput` requests are the SDK's input requests, typed by our own model. */
export function inputRequiredResult(
  inputRequests: Readonly<Record<string, object>>,
  requestState: string | undefined,
): InputRequiredResult {
  return inputRequired({ inputRequests: inputRequests as never, requestState });
}

/** The era of the 2026-07-28 codec (`WireCodec.era`). */
const MODERN_ERA = '2026-07-28';

/** A result whose one own key is `content` (a text result of ours). */
const CONTENT_ALONE = ['content'] as const;

/**
 * What the SDK's 2026-07-28 `encodeResult('tools/call', result, serverInfo)` answers, for a result with no
 * `resultType`, no `_meta` and no `capabilities` (what a tool of ours answers): the SDK's codec takes four steps,
 * two of them object spreads and one a symbol lookup (drop a deleted field, stamp `resultType: 'complete'`, fill cache
 * fields (none for tools/call), stamp the server info into `_meta`); the same keys in the same order are written
 * here in one object. `undefined` for any other result, which the codec encodes itself. A result's symbol-keyed
 * cache-hint carrier, which the codec would strip, is invisible to JSON and never on a tools/call result of ours.
 * test/server/sdk/result-encoding.test.ts holds this to the codec's own answers.
 */
export function modernToolResult(result: unknown, serverInfo: Implementation | undefined): object | undefined {
  if (!isObject(result)) return undefined;
  const fields = result as Record<string, unknown>;
  if (fields.resultType !== undefined || fields._meta !== undefined || fields.capabilities !== undefined) return undefined;
  // A result of `content` alone (a text result of ours) in one literal, which V8 builds whole.
  if (serverInfo !== undefined && ownKeysAre(fields, CONTENT_ALONE))
    return { content: fields.content, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
  // Copied key by key, not spread: V8 gives an object spread then added to a map of its own each time (a runtime
  // call, some 8,000 instructions a call). `for...in` visits the own string keys in the spread's order (symbol keys,
  // which JSON does not see, are left out as the codec leaves them); an own `__proto__` is left to the spread,
  // since assigning it would set the copy's prototype instead. `hasOwnProperty` of the loop's key is answered from
  // the loop's cache (`Object.hasOwn` is a call each time).
  const encoded: Record<string, unknown> = {};
  for (const key in fields) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) continue;
    if (key === '__proto__') return spreadToolResult(fields, serverInfo);
    encoded[key] = fields[key];
  }
  encoded.resultType = 'complete';
  if (serverInfo !== undefined) encoded._meta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
  return encoded;
}

/** {@link modernToolResult} by spreading, for a result with an own `__proto__` key. */
function spreadToolResult(fields: Record<string, unknown>, serverInfo: Implementation | undefined): object {
  if (serverInfo === undefined) return { ...fields, resultType: 'complete' };
  return { ...fields, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
}
