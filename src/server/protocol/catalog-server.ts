import { isObject } from '../../objects';
import { randomUUID } from '../node-crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestTypeMap,
  type Result,
  type ServerCapabilities,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { MODERN_REVISION, serverInfoFor } from '../revisions';
import { methodsWhere } from '../methods';
import { TaskCreated, notifyStatus } from '../tasks/handlers';
import type { TaskRunner } from '../tasks/tasks';
import { SeamServer, handleRequest, type RequestHandler } from '../sdk/server';
import { advertisedIn } from './capabilities';
import { HotDispatch, invalidToolResult, type DispatchTelemetry, type HotHandler, type HotHost, type HotMethod } from './hot-path';
import type { HttpExtra } from './incoming';
import type { InitializeRequest } from './initialize';
import { withLegacyNotFound } from './wire';
import { stageOut } from './stages';

const LOG_LEVELS: ReadonlySet<unknown> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
/** The methods that page (server/methods.ts, `paged`): the four lists and `tasks/list`. */
const LIST_METHODS: ReadonlySet<string> = methodsWhere((row) => row.paged === true);

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${message}`);
}

/**
 * Checks the SDK's schema validation would answer with -32603 (it reports every schema failure as an internal
 * error): an unknown logging level and a cursor that is not a string are invalid params.
 */
function precheck(method: string, request: JSONRPCRequest): void {
  const params = request.params as Readonly<Record<string, unknown>> | undefined;
  if (method === 'logging/setLevel' && !LOG_LEVELS.has(params?.level)) {
    throw invalidParams(`level must be one of ${[...LOG_LEVELS].join(', ')}.`);
  }
  if (LIST_METHODS.has(method) && params?.cursor !== undefined && typeof params.cursor !== 'string')
    throw invalidParams('cursor must be a string.');
}

/** An `initialize` result whose server info holds only what the negotiated revision defines (no icons before 2025-11-25). */
function withRevisionServerInfo(result: Result): Result {
  const { protocolVersion, serverInfo } = result as { protocolVersion?: string; serverInfo?: { icons?: unknown } };
  if (serverInfo === undefined) return result;
  const shown = serverInfoFor(serverInfo, protocolVersion);
  return shown === serverInfo ? result : { ...result, serverInfo: shown };
}

/** Keys that make a result something other than a `tools/call` answer (the SDK leaves such results contentless). */
const FOREIGN_RESULT_KEYS = ['task', 'inputRequests', 'requestState'];

/**
 * The SDK `Server` with this library's parameter checks in front of every handler, release hooks run on close, and,
 * on a 2025-era connection that asks for it, the hot requests answered below the SDK's dispatch (hot-path.ts).
 */
export class CatalogServer extends SeamServer implements HotHost {
  private readonly releases: (() => void)[] = [];
  private readonly hotHandlers = new Map<HotMethod, HotHandler>([['ping', () => ({})]]);
  private hot: HotDispatch | undefined;
  /** Whether the hot path may run: every SDK member it uses is there (sdk/seam.ts); set once made. */
  fastPaths = true;
  private followsTasks = false;
  private legacyNotFound = false;
  /** The URIs a 2025-era connection subscribed to and may follow (`resources/subscribe`); catalog/live.ts delivers. */
  readonly subscriptions = new Set<string>();
  private id: string | undefined;

  /** Names this connection as the owner of its tasks when it has no HTTP session id (stdio, in-process). */
  get connectionId(): string {
    return (this.id ??= randomUUID());
  }

  /** Whether this instance serves protocol revision 2026-07-28 or later. */
  get modern(): boolean {
    const version = this.getNegotiatedProtocolVersion();
    return version !== undefined && version >= MODERN_REVISION;
  }

  override getCapabilities(): ServerCapabilities {
    return advertisedIn(this.modern, super.getCapabilities());
  }

  /** Sends this 2025-era connection the status of its tasks from now on (once). */
  followTasks(runner: TaskRunner, owner: string): void {
    if (this.followsTasks) return;
    this.followsTasks = true;
    this.onClosed(notifyStatus(this, runner, owner));
  }

  /** Runs `release` once when the connection closes (it stops following the event bus, for one). */
  onClosed(release: () => void): void {
    this.releases.push(release);
  }

  /** Registers a hot method's handler with the SDK and keeps it for the hot path. */
  handleHot<M extends Exclude<HotMethod, 'ping'>>(method: M, handler: (request: RequestTypeMap[M], ctx: ServerContext) => unknown): void {
    handleRequest(this, method, handler);
    this.hotHandlers.set(method, handler as unknown as HotHandler);
  }

  /**
   * Answers the hot requests below the SDK's dispatch once connected: for a connection that `initialize` opens, or
   * an instance of the HTTP endpoint's 2026-07-28 pool (its requests arrive classified by the SDK's classifier).
   */
  answerHotRequests(): void {
    if (this.fastPaths) this.hot = new HotDispatch(this);
  }

  /**
   * Answers an HTTP session's hot POST straight from the session (http/legacy/legacy-posts.ts); the answer leaves through
   * the transport's outbound stages. `false` when the hot dispatch does not take it (nothing ran).
   */
  answerHot(message: JSONRPCMessage, extra: HttpExtra | undefined): boolean {
    return this.hot?.post(message, extra) ?? false;
  }

  /** The connection's telemetry (telemetry/telemetry.ts hands it over once connected), for the hot dispatch's own steps. */
  observedBy(telemetry: DispatchTelemetry): void {
    this.hot?.observe(telemetry);
  }

  /**
   * Makes this server write the 2025-era resource-not-found code (-32002) on the transport it connects to: the SDK's
   * stateless 2025 serving connects a transport of its own, which nothing else reaches.
   */
  writesLegacyNotFound(): void {
    this.legacyNotFound = true;
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(this.legacyNotFound ? withLegacyNotFoundCode(transport) : transport);
    this.hot?.attach(transport);
  }

  protected override closing(): void {
    this.hot?.abortAll();
  }

  protected override closed(): void {
    for (const release of this.releases.splice(0)) release();
  }

  // Called from the base constructor too (for the built-in handlers), so it touches no instance field.
  protected override wrapRequestHandler(method: string, wrapped: RequestHandler): RequestHandler {
    if (method === 'initialize') return async (request, ctx) => withRevisionServerInfo(await wrapped(request, ctx));
    // A tools/call that created a task answers with it, which the SDK's CallToolResult check would refuse.
    if (method === 'tools/call') {
      return (request, ctx) =>
        wrapped(request, ctx).catch((thrown: unknown) => {
          if (thrown instanceof TaskCreated) return thrown.result;
          throw thrown;
        });
    }
    return (request, ctx) => {
      precheck(method, request);
      return wrapped(request, ctx);
    };
  }

  // HotHost: what the hot path asks of this connection.

  hotHandler(method: HotMethod): HotHandler | undefined {
    return this.hotHandlers.get(method);
  }

  legacyVersion(): string | undefined {
    const version = this.getNegotiatedProtocolVersion();
    return version !== undefined && this.wireCodec().era !== MODERN_REVISION ? version : undefined;
  }

  /**
   * As `Server` decides for `ctx.mcpReq.log` on a 2025-era connection: the threshold `logging/setLevel` stored for
   * the session, else the one stored without a session.
   */
  logSuppressed(level: string, sessionId: string | undefined): boolean {
    if (!this.getCapabilities().logging) return true;
    const threshold = this.logThreshold(sessionId);
    return threshold !== undefined && this.logSeverity(level)! < this.logSeverity(threshold)!;
  }

  modernVersion(): string | undefined {
    const version = this.getNegotiatedProtocolVersion();
    return version !== undefined && this.wireCodec().era === MODERN_REVISION ? version : undefined;
  }

  /** As `Server` decides for `ctx.mcpReq.log` on a 2026-07-28 request: its envelope's `logLevel`, none meaning none. */
  logSuppressedAt(level: string, threshold: unknown): boolean {
    if (!this.getCapabilities().logging || threshold === undefined) return true;
    return this.logSeverity(level)! < this.logSeverity(threshold)!;
  }

  /** As `Server` checks a `tools/call` result: contentless results get `content: []`, then the era's schema. */
  checkToolResult(result: unknown): unknown {
    const plain = isObject(result) ? result : undefined;
    const normalized =
      plain && plain.content === undefined && !FOREIGN_RESULT_KEYS.some((key) => key in plain) ? { ...plain, content: [] } : result;
    const checked = this.wireCodec().validateResult('tools/call', normalized);
    if (checked.ok) return checked.value;
    if (checked.reason === 'not-in-era')
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'No wire schema for tools/call in the resolved era');
    throw invalidToolResult(checked.message ?? '');
  }

  async initialize(request: InitializeRequest): Promise<unknown> {
    // `Server`'s own answer (it negotiates the revision and keeps the client's capabilities and info), which its
    // handler wrapper and ours would give for the request the schema read.
    return withRevisionServerInfo(await this.answerInitialize(request));
  }

  initialized(): void {
    // As the SDK dispatches a notification: on a later tick, a throwing callback reported as an error.
    Promise.resolve()
      .then(() => this.oninitialized?.())
      // eslint-disable-next-line no-restricted-syntax -- an `onerror` report in the SDK's own wording (src/errors.ts)
      .catch((error: unknown) => this.onerror?.(new Error(`Uncaught error in notification handler: ${String(error)}`)));
  }

  encodeResult(method: string, result: unknown): unknown {
    if (method === 'tools/call') return this.encodedToolResult(result);
    return this.wireCodec().encodeResult(method, result, this.outboundServerInfo());
  }

  encodeErrorCode(code: number): number {
    return this.wireCodec().encodeErrorCode(code);
  }
}

/**
 * A 2025-era connection's transport writes the older resource-not-found code back (wire.ts): its `legacy-codes`
 * outbound stage, while `isLegacy()` says so (a stdio connection knows its era from its opening).
 */
export function withLegacyNotFoundCode<T extends Transport>(transport: T, isLegacy: () => boolean = () => true): T {
  stageOut(transport, 'legacy-codes', (message) => (isLegacy() ? withLegacyNotFound(message) : message));
  return transport;
}
