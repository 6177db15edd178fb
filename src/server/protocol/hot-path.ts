import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  isInputRequiredResult,
  type JSONRPCMessage,
  type MessageClassification,
  type MessageExtraInfo,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { isPlainInitialized, readInitialize, type InitializeRequest } from './initialize';
import { MODERN_REVISION } from '../revisions';
import { otelRegistered } from '../otel-registry';
import { isModernHot, methodsWhere, type HotMethod } from '../methods';
import { TaskCreated } from '../tasks/handlers';
import type { Receive } from '../sdk/transports';
import { WRITTEN, stageIn } from './stages';
import { errorAnswerOf } from './wire';
import { abortEvery, cancelIn, hotRequest, isHotMethod, plainHotRequest, plainlyValidToolResult, type HotRequest } from './rules';
import { isPlainObject, ownKeysAre } from '../../objects';
import { LazyAbort } from './lazy-abort';
import { InFlight } from './in-flight';
import type { CarriesIncoming, HttpExtra } from './incoming';

/**
 * The hot requests of an established 2025-era connection (stdio, in-memory, an HTTP session), answered below the
 * SDK's Protocol layer: `tools/call`, the four lists, `resources/read`, `prompts/get` and `ping`, and the opening
 * that establishes it (`initialize`, `notifications/initialized`; initialize.ts). The transport is still the
 * SDK's (it frames, routes and streams the answers), except for an HTTP session's hot POST, which the session hands
 * to the dispatch directly and whose answer the transport's `legacy-posts` stage writes on the POST's own response
 * (http/legacy/legacy-posts.ts); see {@link HotDispatch}.
 *
 * The SDK validates every inbound message with zod several times (classifying it, then the request schema twice,
 * then the `tools/call` result) and builds a context of spread objects for each; for a tool call that is most of
 * the server's cost. Here the envelope of these five methods is checked by hand, and the very handlers registered
 * with the SDK are called with a context that carries what they read, and their answer is encoded by the SDK's own
 * wire codec. The answers are the SDK's, byte for byte, by construction:
 *
 * The rules it shares with the stdio loop (admission, the result check, cancellation, the page of a list) are the
 * rules core's (rules.ts); this module is their SDK wire: the envelope's lifting, the handler context, the codec.
 *
 * - A request is taken only when the hand check proves the SDK's zod schemas would accept it as it is (a subset:
 *   anything unusual, such as a 2026-07-28 envelope, `requestState`, a task, an unknown key, goes to the SDK), and
 *   the decision is made before anything runs. Every error answer of a malformed request is therefore the SDK's.
 * - A handler's error is encoded as the SDK encodes it; a `tools/call` result is checked by the SDK's codec unless it
 *   is plainly valid (text blocks, structured content, `isError`, in the schema's key order).
 * - A handler that answers `input_required` (a tool that called `requireInput`) is handed, with its original
 *   message, to the SDK, whose multi-round-trip shim serves the 2025 era: that first round then runs a second time.
 * - Cancellation and connection close abort a request's signal as the SDK does, and an aborted request is answered
 *   with nothing.
 */

/** The hot methods: the rows of the method table with a hot rule (server/methods.ts). */
export type { HotMethod };

/** A request handler as registered with the SDK (`setRequestHandler(method, handler)`). */
export type HotHandler = (
  request: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> },
  ctx: ServerContext,
) => unknown;

type Params = Readonly<Record<string, unknown>>;

/** What the hot path needs of its connection's SDK `Server` (`CatalogServer` provides it). */
export interface HotHost {
  readonly transport: Transport | undefined;
  /** The handler registered for a hot method on this server, if any. */
  hotHandler(method: HotMethod): HotHandler | undefined;
  /** The negotiated 2025-era revision, `undefined` before `initialize` (or when the connection is not 2025-era). */
  legacyVersion(): string | undefined;
  /** The revision of an instance that serves 2026-07-28 requests (HTTP exchanges), else `undefined`. */
  modernVersion(): string | undefined;
  /** Whether a log message of this level is below the threshold the client set (`logging/setLevel`). */
  logSuppressed(level: string, sessionId: string | undefined): boolean;
  /** Whether a log message of this level is below a 2026-07-28 request's envelope `logLevel` (or it has none). */
  logSuppressedAt(level: string, threshold: unknown): boolean;
  notification(notification: { method: string; params?: Params }, options: { relatedRequestId: string | number }): Promise<void>;
  request(request: { method: string; params?: Params }, options: { relatedRequestId: string | number }): Promise<unknown>;
  /** `initialize` as `Server` answers it, for a request read as the SDK's schema reads it. */
  initialize(request: InitializeRequest): Promise<unknown>;
  /** `notifications/initialized` as `Server` handles it. */
  initialized(): void;
  /** The SDK's `tools/call` result check (normalisation and schema), as `Server` applies it. */
  checkToolResult(result: unknown): unknown;
  /** The SDK codec's `encodeResult` and `encodeErrorCode` for this connection. */
  encodeResult(method: string, result: unknown): unknown;
  encodeErrorCode(code: number): number;
  onerror?: (error: Error) => void;
}

/** The envelope's keys in `_meta`, in the SDK's order: it lifts exactly these out before a handler sees the request. */
const ENVELOPE_ORDER = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY] as const;
const ENVELOPE_KEYS: ReadonlySet<string> = new Set(ENVELOPE_ORDER);

/** Whether a 2026-07-28 request of the method is hot too (`ping` is not), from its row (server/methods.ts). */
const HOT_MODERN: ReadonlySet<string> = methodsWhere(isModernHot);

/**
 * The request as a handler sees it: the envelope's keys lifted out of `_meta` (dropped when nothing else is left),
 * as the SDK's `liftWireOnlyMaterial` does, key order included.
 */
export function liftEnvelope(request: HotRequest): HotRequest {
  const meta = request.params?._meta;
  if (!isPlainObject(meta)) return request;
  const usual = usualLift(request, request.params!, meta);
  if (usual !== undefined) return usual;
  const rest: Record<string, unknown> = {};
  let lifted = false;
  let kept = false;
  // `for...in` over own keys: no list of keys made per request (the order is the same as `Object.keys`). The own-key
  // test is `hasOwnProperty` of the key `for...in` gives, which V8 answers from the loop's own cache (`Object.hasOwn`
  // is a call each time).
  for (const key in meta) {
    if (!Object.prototype.hasOwnProperty.call(meta, key)) continue;
    if (ENVELOPE_KEYS.has(key)) lifted = true;
    else {
      rest[key] = meta[key];
      kept = true;
    }
  }
  if (!lifted) return request;
  // In the SDK's order, whatever order the client sent them in.
  const envelope: Record<string, unknown> = {};
  for (const key of ENVELOPE_ORDER) if (Object.prototype.hasOwnProperty.call(meta, key)) envelope[key] = meta[key];
  // Copied key by key rather than spread and `delete`d: the same keys in the same order, and objects V8 keeps fast.
  // Assignment copies what a spread does here: the hot rules (rules.ts) take no own `__proto__` key in either.
  const params: Record<string, unknown> = {};
  for (const key in request.params) {
    if (!Object.prototype.hasOwnProperty.call(request.params, key)) continue;
    if (key !== '_meta') params[key] = request.params![key];
    else if (kept) params._meta = rest;
  }
  return { id: request.id, method: request.method, params, envelope };
}

/** A `tools/call`'s params as the SDK's client sends them, and its `_meta`: the envelope, in the client's order. */
const CALL_KEYS = ['name', 'arguments', '_meta'] as const;
const USUAL_ENVELOPE = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY] as const;

/**
 * {@link liftEnvelope} of the usual `tools/call` (the SDK client's keys, nothing else in `_meta`), written as two
 * literals: what the copy key by key makes, for less (V8 builds each copied object's shape one key at a time).
 * `undefined` for any other request. The literal keys are the SDK's envelope keys (a test holds them to it).
 */
function usualLift(request: HotRequest, params: Params, meta: Params): HotRequest | undefined {
  if (!ownKeysAre(params, CALL_KEYS) || !ownKeysAre(meta, USUAL_ENVELOPE)) return undefined;
  return {
    id: request.id,
    method: request.method,
    params: { name: params.name, arguments: params.arguments },
    envelope: {
      'io.modelcontextprotocol/protocolVersion': meta[PROTOCOL_VERSION_META_KEY],
      'io.modelcontextprotocol/clientInfo': meta[CLIENT_INFO_META_KEY],
      'io.modelcontextprotocol/clientCapabilities': meta[CLIENT_CAPABILITIES_META_KEY],
    },
  };
}

const REDISPATCH = Symbol('redispatch');

/** One settled promise, awaited for a tick. */
const SETTLED: Promise<void> = Promise.resolve();

/**
 * The inbound telemetry step of a request the dispatch takes straight from an HTTP session (`post`), which passes no
 * inbound stage; on a transport, its `telemetry` stage takes it (telemetry/telemetry.ts provides both). The answer
 * ends the operation in the `telemetry` outbound stage either way.
 */
export interface DispatchTelemetry {
  /** Opens the request's operation; `undefined` when nothing records (then nothing else is asked). */
  begin(request: JSONRPCMessage): object | undefined;
  /** Runs the dispatch inside the operation's context (its span's, when it has one). */
  within(operation: object, run: () => void): void;
}

/** A request the dispatch takes, and the handler registered for it: what admission decides, once per request. */
interface Admitted {
  readonly request: HotRequest;
  readonly handler: HotHandler;
}

/**
 * The dispatch of the hot requests, in named steps. A request comes in one of two ways: from an HTTP session's POST
 * (`post`, called by http/legacy/legacy-posts.ts), or from a transport (`attach`: stdio, in-memory, an HTTP
 * session's request the SDK's transport reads, a 2026-07-28 request of the HTTP pool). Either way it is admitted
 * once (`accepted`, `acceptedModern`), run (`run`: the registered handler, which authorizes and calls the catalog's
 * tool), encoded (`encoded`, `errorResponse`) and answered (`reply`): every answer leaves through the transport's
 * `send`, whose outbound stages (sdk/transports.ts) take the not-found, telemetry and POST-routing steps for every
 * message the SDK sends too.
 */
export class HotDispatch {
  /** Requests in progress, by id, as the SDK keeps its own: cancellation aborts the latest of an id. */
  private readonly inFlight = new InFlight<LazyAbort>();
  private sdk: Receive | undefined;
  private telemetry: DispatchTelemetry | undefined;

  constructor(private readonly host: HotHost) {}

  /** Puts the dispatch in front of the SDK's on a transport the SDK `Server` just connected to. */
  attach(transport: Transport): void {
    stageIn(transport, 'hot-dispatch', (sdk) => {
      this.sdk = sdk;
      return (message, extra) => {
        if (!this.receive(message, extra)) sdk?.(message, extra);
      };
    });
  }

  /** The connection's telemetry, for the requests that come by `post` (they pass no inbound stage). */
  observe(telemetry: DispatchTelemetry): void {
    this.telemetry = telemetry;
  }

  /** Aborts every request in progress: the connection closed (the SDK does the same with its own). */
  abortAll(): void {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    abortEvery(this.inFlight, error);
  }

  /**
   * A 2025-era session's hot POST, passed on by the HTTP session (http/legacy/legacy-posts.ts): the request admitted (its
   * one admission), its telemetry opened, and the handler run inside it. Its answer leaves through the transport's
   * outbound stages like any other, whose `legacy-posts` stage writes it on the POST's response. `false` when the
   * dispatch does not answer the message (nothing ran).
   */
  post(message: JSONRPCMessage, extra: HttpExtra | undefined): boolean {
    const accepted = this.accepted(message);
    if (!accepted) return false;
    const { telemetry } = this;
    // Until something registers with OpenTelemetry there is nothing to record: telemetry is not asked at all.
    const operation = telemetry !== undefined && otelRegistered() ? telemetry.begin(message) : undefined;
    // At once: a POST carries its one message, so there are no other messages of its read to take first (see `run`).
    if (operation === undefined) void this.run(accepted.request, accepted.handler, message, extra, true);
    else telemetry!.within(operation, () => void this.run(accepted.request, accepted.handler, message, extra, true));
    return true;
  }

  /** A message from the transport: a hot request is answered here (`true`); anything else is left to the SDK (`false`). */
  private receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean {
    const method = (message as { method?: unknown }).method;
    if (method === 'notifications/cancelled') {
      this.cancelled((message as { params?: unknown }).params);
      return false;
    }
    const classification = extra?.classification;
    if (classification === undefined && (method === 'initialize' || method === 'notifications/initialized'))
      return this.opening(message, extra);
    const accepted = classification === undefined ? this.accepted(message) : this.acceptedModern(message, classification);
    if (!accepted) return false;
    void this.run(accepted.request, accepted.handler, message, extra);
    return true;
  }

  /**
   * A 2026-07-28 request of an instance that serves the revision (the HTTP exchanges): the classification says
   * what the SDK's classifier decided; the envelope is lifted as the SDK lifts it. Only the hot rows of the modern era
   * (`ping` is not one of them).
   */
  private acceptedModern(message: unknown, classification: MessageClassification): Admitted | undefined {
    if (classification.revision !== MODERN_REVISION || this.host.modernVersion() !== MODERN_REVISION) return undefined;
    const request = hotRequest(message, ENVELOPE_KEYS);
    if (!request || !HOT_MODERN.has(request.method)) return undefined;
    const handler = this.host.hotHandler(request.method);
    return handler && { request: liftEnvelope(request), handler };
  }

  /** The request and its handler when the hot path answers a 2025-era `message`. */
  private accepted(message: unknown): Admitted | undefined {
    if (!isHotMethod((message as { method?: unknown } | null)?.method) || this.host.legacyVersion() === undefined) return undefined;
    const request = plainHotRequest(message);
    if (!request) return undefined;
    // Retry material of the multi-round-trip flow is lifted by the SDK.
    if (request.params && ('inputResponses' in request.params || 'requestState' in request.params)) return undefined;
    const handler = this.host.hotHandler(request.method);
    return handler && { request, handler };
  }

  /**
   * The connection's opening, `initialize` then `notifications/initialized`, when both are read by hand
   * (initialize.ts): answered as the SDK answers them, without building its schemas for them.
   */
  private opening(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean {
    const negotiated = this.host.legacyVersion() !== undefined || this.host.modernVersion() !== undefined;
    if ((message as { method: string }).method === 'notifications/initialized') {
      if (!negotiated || !isPlainInitialized(message)) return false;
      this.host.initialized();
      return true;
    }
    const request = negotiated ? undefined : readInitialize(message);
    if (!request) return false;
    // Negotiated at once: messages that follow in the same read are then served as the negotiated revision's,
    // as the SDK serves them (its handlers run in order, this one first).
    const answer = this.host.initialize(request);
    void this.run(request, () => answer, message, extra);
    return true;
  }

  /** `notifications/cancelled` for one of ours: abort it as the SDK's `_oncancel` does (the SDK still sees the message). */
  private cancelled(params: unknown): void {
    cancelIn(this.inFlight, params);
  }

  /**
   * Runs the handler, then answers: the encoded result or error, nothing once aborted; the SDK's own shim for
   * `REDISPATCH`. Never rejects: a failure to send is reported. One async function rather than a chain of `then`s:
   * a promise and a closure fewer per step. `now`: the handler is called at once (a POST's one message), not a
   * microtask later.
   */
  private async run(
    request: HotRequest<HotMethod | 'initialize'>,
    handler: HotHandler,
    message: JSONRPCMessage,
    extra: MessageExtraInfo | undefined,
    now = false,
  ): Promise<void> {
    const controller = new LazyAbort();
    this.inFlight.set(request.id, controller);
    const ctx = this.contextOf(request, controller, extra);
    try {
      // A transport's handler runs a microtask later, as it did from a resolved promise's `then`: the messages of one
      // read are all taken (in order) before the first handler runs. A settled promise rather than `undefined`, which
      // `await` would wrap in a new one.
      if (!now) await SETTLED;
      let answer: JSONRPCMessage;
      try {
        // The handler awaited here rather than in an async method of its own: a promise and a tick fewer per request.
        let result: unknown;
        try {
          result = this.checked(request, await handler({ method: request.method, params: request.params }, ctx));
        } catch (thrown) {
          result = this.thrownAnswer(request, thrown);
        }
        if (controller.aborted) return;
        if (result === REDISPATCH) {
          this.settled(request.id, controller);
          this.sdk?.(message, extra);
          return;
        }
        answer = this.encoded(request, result);
      } catch (error) {
        if (controller.aborted) return;
        answer = this.errorResponse(request.id, error);
      }
      // An answer its stages wrote at once (a legacy post's JSON reply) is not waited for: a tick fewer per request.
      const sent = this.reply(answer);
      if (sent !== WRITTEN) await sent;
    } catch (error) {
      // eslint-disable-next-line no-restricted-syntax -- an `onerror` report in the SDK's own wording (src/errors.ts)
      this.host.onerror?.(new Error(`Failed to send response: ${String(error)}`));
    } finally {
      this.settled(request.id, controller);
    }
  }

  /** The request left: it is no longer the one a cancellation of its id aborts (unless a later one took the id). */
  private settled(id: string | number, controller: LazyAbort): void {
    this.inFlight.settle(id, controller);
  }

  /**
   * What `Server`'s handler wrapper makes of the handler's answer, or `REDISPATCH` for the SDK's input-required shim.
   * It throws only the result check's error (never what {@link thrownAnswer} takes).
   */
  private checked(request: HotRequest<HotMethod | 'initialize'>, result: unknown): unknown {
    if (isInputRequiredResult(result)) return REDISPATCH;
    if (request.method !== 'tools/call' || plainlyValidToolResult(result)) return result;
    return this.host.checkToolResult(result);
  }

  /** What a handler's throw answers: a created task's result (unchecked), `REDISPATCH`, else the error itself (thrown). */
  private thrownAnswer(request: HotRequest<HotMethod | 'initialize'>, thrown: unknown): unknown {
    // A tools/call that created a task answers with it, unchecked (CatalogServer's wrapper does the same).
    if (thrown instanceof TaskCreated) return thrown.result;
    // On 2026-07-28 the SDK turns this 2025-era idiom into its own error: let it answer.
    if (request.envelope && (thrown as { code?: unknown } | null)?.code === ProtocolErrorCode.UrlElicitationRequired) return REDISPATCH;
    throw thrown;
  }

  /** The result as the SDK's codec encodes it; an internal error (reported) when it cannot. */
  private encoded(request: HotRequest<HotMethod | 'initialize'>, result: unknown): JSONRPCMessage {
    let encoded: unknown;
    try {
      encoded = this.host.encodeResult(request.method, result);
    } catch (error) {
      // eslint-disable-next-line no-restricted-syntax -- an `onerror` report in the SDK's own wording (src/errors.ts)
      this.host.onerror?.(new Error(`Failed to encode result for ${request.method}: ${String(error)}`));
      return { jsonrpc: '2.0', id: request.id, error: { code: ProtocolErrorCode.InternalError, message: 'Internal error' } };
    }
    return { result: encoded, jsonrpc: '2.0', id: request.id } as JSONRPCMessage;
  }

  private errorResponse(id: string | number, error: unknown): JSONRPCMessage {
    return errorAnswerOf(id, error, (code) => this.host.encodeErrorCode(code));
  }

  /**
   * The answer's one way out, the transport's `send` and its outbound stages (sdk/transports.ts, `OUT_STAGES`); it
   * may also throw at once (`run` awaits it inside its `try`, and reports either).
   */
  private reply(answer: JSONRPCMessage): Promise<void> {
    return this.host.transport?.send(answer) ?? SETTLED;
  }

  /** The handler context, with what the handlers read: as the SDK builds it for a 2025-era connection or a 2026-07-28 request. */
  private contextOf(
    request: HotRequest<HotMethod | 'initialize'>,
    abort: LazyAbort,
    extra: (MessageExtraInfo & CarriesIncoming) | undefined,
  ): ServerContext {
    const sessionId = this.host.transport?.sessionId;
    const authInfo = extra?.authInfo;
    const incoming = extra?.incoming;
    return {
      sessionId,
      mcpReq: new HotRequestContext(this.host, abort, request, sessionId),
      // The verified caller, and the HTTP request (protocol/incoming.ts) by reference.
      http: incoming !== undefined ? { authInfo, incoming } : authInfo ? { authInfo } : undefined,
    } as unknown as ServerContext;
  }
}

/**
 * A hot request's `ctx.mcpReq`, as the SDK's handlers read it: its id, method, `_meta` and 2026-07-28 envelope, its
 * signal, and `notify`, `log`, `send` and `requestState` tied to the request. A class, its methods and the `signal`
 * getter on the prototype: one object per request instead of a literal and a closure per method (the handlers call
 * them as methods).
 */
class HotRequestContext {
  readonly id: string | number;
  readonly method: string;
  readonly _meta: unknown;
  readonly envelope: Params | undefined;

  constructor(
    private readonly host: HotHost,
    /** Where the lazy `signal` comes from (lazy-abort.ts): most handlers never read it. */
    readonly signalFrom: LazyAbort,
    request: HotRequest<HotMethod | 'initialize'>,
    private readonly sessionId: string | undefined,
  ) {
    this.id = request.id;
    this.method = request.method;
    this._meta = request.params?._meta;
    this.envelope = request.envelope;
  }

  get signal(): AbortSignal {
    return this.signalFrom.signal;
  }

  requestState(): undefined {
    return undefined;
  }

  notify(notification: { method: string; params?: Params }): Promise<void> {
    return this.host.notification(notification, { relatedRequestId: this.id });
  }

  /** A 2026-07-28 request names its own log level in its envelope; a 2025-era session set one with logging/setLevel. */
  log(level: string, data: unknown, logger?: string): Promise<void> {
    const { host, envelope } = this;
    const suppressed = envelope ? host.logSuppressedAt(level, envelope[LOG_LEVEL_META_KEY]) : host.logSuppressed(level, this.sessionId);
    return suppressed ? Promise.resolve() : this.notify({ method: 'notifications/message', params: { level, data, logger } });
  }

  send(r: { method: string; params?: Params }): Promise<unknown> {
    return this.host.request(r, { relatedRequestId: this.id });
  }
}

/** The error `Server` answers a `tools/call` result that fails the schema with. */
export function invalidToolResult(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call result: ${message}`);
}
