import { randomUUID } from '../node-crypto';
import { StoreUnavailableError } from '../stores/degraded';
import { transportErrorReporter } from './client-faults';
import { boundedResult, DEFAULT_MAX_RESULT_BYTES } from './result-size';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError as SdkResourceNotFoundError,
  Server,
  type InputRequiredResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestTypeMap,
  type Result,
  type ServerCapabilities,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { InvalidParamsError, TextMethodFailedError, ResourceNotFoundError } from '../../invoke/text-methods';
import { promptResult, resourceResult } from '../../invoke/contents';
import type { Log } from '../../log';
import { InputRequired, type RequestContextInit } from '../../invoke/request-context';
import { callerKeyOf, verifiedCallerOf, type AuthorizeItem } from '../auth/caller';
import { countedAs } from './counted-as';
import { incomingOf, type HttpExtra } from './incoming';
import { Visibility, resourceItemOf } from '../auth/visibility';
import type { RequestStates, StateBinding } from './signing';
import { APPS_EXTENSION, callOf, type Catalog, type RegisteredTool } from '../catalog/catalog';
import { negotiatesApps, uiReadResult } from '../catalog/ui-resource';
import { subscribedUri } from '../catalog/live';
import type { ListName, Pager } from '../catalog/pages';
import { HotDispatch, invalidToolResult, type DispatchTelemetry, type HotHandler, type HotHost, type HotMethod } from './hot-path';
import type { InitializeRequest } from './initialize';
import { TASKS_EXTENSION, TaskCreated, callAsTask, installTaskHandlers, notifyStatus, type TaskRequests } from '../tasks/handlers';
import { type TaskRunner } from '../tasks/tasks';
import { MODERN_REVISION } from './revisions';
import { installSkills, type SkillRead } from './skills';
import { withLegacyNotFound, writesLegacyCodes } from './wire';
import { SeamServer, askClient, handleRequest, inputRequiredResult, type RequestHandler } from '../sdk/server';
import { SdkSeam } from '../sdk/seam';
import { interceptSend } from '../sdk/transports';
import { forRevision, serverInfoFor } from './revisions';
import type { Icon } from '../../decorators/listing-options';
import type { CacheHint } from '../../schema/model';
import type { CatalogKind } from '../catalog/catalog';
import { ContextInit, UNDECLARED, type ContextChannel, type ContextRequests } from './context-init';
import { advertisedIn, capabilitiesOf } from './capabilities';
import { EXACT, type Profile, type ProfilePicker } from '../../schema/profiles';
import { absentNulls } from '../../invoke/absent-nulls';
import { SEARCH_FIRST_NAMES, searchFirstCall, searchFirstListings, type SearchFirstHost } from './search-first';

/**
 * One SDK `Server` instance over the precomputed catalog. The SDK makes one per HTTP request (2026-07-28),
 * one per session or connection (2025 era); each is a handful of handler registrations that look things
 * up in the shared catalog, so making one is cheap.
 */

export interface ProtocolSettings {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string; readonly icons?: readonly Icon[] };
  /** The cache hint of entries that declare none, and of `server/discover` (2026-07-28). */
  readonly cache: CacheHint;
  readonly instructions?: string;
  readonly states: RequestStates;
  readonly pager: Pager;
  readonly log: Log;
  readonly tasks: TaskRunner;
  /** Largest tool result sent (see result-size.ts); default 16 MiB. */
  readonly maxResultBytes?: number;
  /** The listing profile of a client (schema/profiles); none: the exact listing for everyone. */
  readonly profile?: ProfilePicker;
  /** `catalog: 'search'`: `tools/list` answers the three tools of search-first.ts. */
  readonly searchFirst?: boolean;
}

type Capabilities = Readonly<Record<string, unknown>> | undefined;

/** The caller as this request sees it: the 2026-07-28 envelope, else what `initialize` negotiated. */
function callerOf(server: Server, ctx: ServerContext) {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  return {
    modern: envelope !== undefined,
    protocolVersion: (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion(),
    clientInfo: (envelope?.[CLIENT_INFO_META_KEY] ?? server.getClientVersion()) as RequestContextInit['clientInfo'],
    clientCapabilities: (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()) as Capabilities,
  };
}

/** A 2025-era connection's profile, picked once (its client is the one `initialize` named). */
const connectionProfiles = new WeakMap<Server, Profile>();

/** The listing profile of this request's client: per request on 2026-07-28, once per connection in the 2025 era. */
function profileOfRequest(server: Server, ctx: ServerContext, settings: ProtocolSettings): Profile {
  const pick = settings.profile;
  if (pick === undefined) return EXACT;
  const caller = callerOf(server, ctx);
  const client = () => ({
    clientInfo: caller.clientInfo,
    capabilities: caller.clientCapabilities,
    protocolVersion: caller.protocolVersion,
  });
  if (caller.modern) return pick(client());
  let profile = connectionProfiles.get(server);
  if (profile === undefined) connectionProfiles.set(server, (profile = pick(client())));
  return profile;
}

function extensionsOf(capabilities: Capabilities): Capabilities {
  return capabilities?.extensions as Capabilities;
}

function negotiatedApps(capabilities: Capabilities): boolean {
  return negotiatesApps(extensionsOf(capabilities)?.[APPS_EXTENSION]);
}

/** What a `requestState` of this request is bound to: its method, `item` (tool, prompt, resource URI) and caller. */
function bindingOf(ctx: ServerContext, item: string): StateBinding {
  return { method: ctx.mcpReq.method, item, caller: verifiedCallerOf(ctx.http?.authInfo) };
}

/** Why a 2026-07-28 request has no sampling nor elicitation: the revision has no server-to-client requests. */
const MODERN_REQUESTS: ContextRequests = {
  unavailable: 'protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().',
};

/**
 * Sampling and elicitation of a 2025-era request, for the capabilities the client declared: they go out tied to
 * this request (relatedRequestId), so they travel on its own response stream.
 */
function legacyRequestsOf(ctx: ServerContext, caps: Capabilities): ContextRequests {
  if (caps?.sampling === undefined && caps?.elicitation === undefined) return UNDECLARED;
  return {
    createMessage: caps.sampling === undefined ? undefined : (params: object) => askClient(ctx, 'sampling/createMessage', params),
    elicit: caps.elicitation === undefined ? undefined : (params: object) => askClient(ctx, 'elicitation/create', params),
    unavailable: UNDECLARED.unavailable,
  };
}

/**
 * The `RequestContext` of one request for `item` (the tool or prompt name, the resource URI), from the SDK's
 * handler context; a `requestState` minted for another method, item or caller is refused here (-32602).
 */
export function contextInitOf(server: Server, ctx: ServerContext, states: RequestStates, item: string): RequestContextInit {
  const { mcpReq } = ctx;
  const caller = callerOf(server, ctx);
  const caps = caller.clientCapabilities;
  const auth = verifiedCallerOf(ctx.http?.authInfo);
  const state = mcpReq.requestState();
  return new ContextInit(
    mcpReq,
    mcpReq as ContextChannel,
    mcpReq.id,
    ctx.sessionId,
    caller.protocolVersion,
    caller.clientInfo,
    caps,
    mcpReq._meta as Readonly<Record<string, unknown>> | undefined,
    caller.modern ? MODERN_REQUESTS : legacyRequestsOf(ctx, caps),
    mcpReq.inputResponses as Readonly<Record<string, unknown>> | undefined,
    // The binding is made only for a state to check (states.open answers `undefined` for none).
    state === undefined ? undefined : states.open(state, bindingOf(ctx, item)),
    auth,
    incomingOf(ctx),
  );
}

/**
 * Throws what an unknown item answers when `auth.authorize` refuses the caller this item (logged there): a
 * refused name must be indistinguishable from a name that does not exist.
 */
async function requireAllowed(visibility: Visibility, ctx: ServerContext, item: AuthorizeItem, unknown: () => Error): Promise<void> {
  if (!(await visibility.allows(ctx.http?.authInfo, item, ctx.mcpReq.id, ctx.sessionId))) throw unknown();
}

async function inputRequiredOf(signal: InputRequired, states: RequestStates, binding: StateBinding): Promise<InputRequiredResult> {
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
async function answer<T>(
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

function stringArguments(args: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined;
}

const LOG_LEVELS: ReadonlySet<unknown> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
const LIST_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'tasks/list',
]);

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

  /** Whether the hot path answers this message once it arrives (an HTTP session asks before it bypasses the SDK's transport). */
  takesHot(message: unknown): boolean {
    return this.hot?.takes(message) ?? false;
  }

  /**
   * Answers an HTTP session's hot POST straight from the session (http/legacy-posts.ts), its answer given to `write`;
   * `false` when the hot dispatch does not take it (nothing ran).
   */
  answerHot(message: JSONRPCMessage, extra: HttpExtra | undefined, write: (message: JSONRPCMessage) => Promise<void>): boolean {
    return this.hot?.post(message, extra, write) ?? false;
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
    const plain = typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
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

/** The most careful of several cache hints: the shortest time, `private` when any is; `fallback` for none. */
export function mostCareful(hints: readonly CacheHint[], fallback: CacheHint): CacheHint {
  if (hints.length === 0) return fallback;
  const ttlMs = Math.min(...hints.map((h) => h.ttlMs));
  return { ttlMs, scope: hints.every((h) => h.scope === 'public') ? 'public' : 'private' };
}

/** A 2026-07-28 cacheable result with its `ttlMs` and `cacheScope` (earlier revisions have neither). */
function withCacheFields<R extends object>(result: R, hint: CacheHint, modern: boolean): R {
  return modern ? { ...result, ttlMs: hint.ttlMs, cacheScope: hint.scope } : result;
}

/** What one list request lists: the entries as its revision is sent them, which page, and their cache hint. */
interface ListRequest<T> {
  readonly list: ListName;
  readonly field: string;
  readonly kind: CatalogKind;
  readonly items: readonly T[];
  readonly keyOf: (item: T) => string;
  readonly params: unknown;
}

/** One page of a list, with `nextCursor` when more follow, and on 2026-07-28 the page's cache hint. */
function listed<T extends object>(
  server: Server,
  ctx: ServerContext,
  catalog: Catalog,
  settings: ProtocolSettings,
  request: ListRequest<T>,
) {
  const caller = callerOf(server, ctx);
  const items = forRevision(request.items, caller.protocolVersion);
  const page = settings.pager.page(request.list, items, request.keyOf, (request.params as { cursor?: unknown } | undefined)?.cursor);
  const result =
    page.nextCursor === undefined ? { [request.field]: page.items } : { [request.field]: page.items, nextCursor: page.nextCursor };
  if (!caller.modern) return result;
  const hints = page.items.map((item) => catalog.cacheHintOf(request.kind, request.keyOf(item)) ?? settings.cache);
  return withCacheFields(result, mostCareful(hints, settings.cache), true);
}

/**
 * What the task methods need of a request. A 2025-era task belongs to its HTTP session, else its connection; a
 * 2026-07-28 task (no session there) to its verified caller, else to anyone who holds its unguessable id.
 */
function taskRequestsOf(server: CatalogServer, states: RequestStates, visibility: Visibility): TaskRequests {
  return {
    modern: (ctx) => callerOf(server, ctx).modern,
    declared: (ctx) => extensionsOf(callerOf(server, ctx).clientCapabilities)?.[TASKS_EXTENSION] !== undefined,
    ownerOf: (ctx) => {
      if (!callerOf(server, ctx).modern) return ctx.sessionId ?? server.connectionId;
      const auth = verifiedCallerOf(ctx.http?.authInfo);
      return auth ? callerKeyOf(auth) : 'anyone';
    },
    countedAs: (ctx) => {
      const auth = verifiedCallerOf(ctx.http?.authInfo);
      if (auth) return callerKeyOf(auth);
      // Without a token: the client's address (HTTP), else the owner itself (a stdio or in-memory connection).
      return countedAs(ctx.http?.req, server, ctx.mcpReq.id) ?? ctx.sessionId ?? server.connectionId;
    },
    contextOf: (ctx, item) => contextInitOf(server, ctx, states, item),
    allows: (ctx, tool) => visibility.allows(ctx.http?.authInfo, { kind: 'tool', name: tool }, ctx.mcpReq.id, ctx.sessionId),
  };
}

/** Starts a task for a `tools/call` when the tool and the request call for one (throws it as {@link TaskCreated}). */
async function startTaskOf(
  server: CatalogServer,
  tool: RegisteredTool,
  params: unknown,
  ctx: ServerContext,
  settings: ProtocolSettings,
  visibility: Visibility,
): Promise<void> {
  const requests = taskRequestsOf(server, settings.states, visibility);
  const created = await callAsTask(tool, params as Readonly<Record<string, unknown>>, ctx, settings.tasks, requests);
  if (!created) return;
  if (!requests.modern(ctx)) server.followTasks(settings.tasks, requests.ownerOf(ctx));
  throw new TaskCreated(created);
}

/** What a `tools/call` of an unknown tool (or one `auth.authorize` refuses) answers. */
function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 128)}`);
}

/** The tools this caller's `tools/list` holds, whole, under its profile (the MCP Apps listing when negotiated). */
async function visibleTools(
  server: CatalogServer,
  ctx: ServerContext,
  catalog: Catalog,
  settings: ProtocolSettings,
  visibility: Visibility,
) {
  const shown = await visibility.list(
    ctx.http?.authInfo,
    negotiatedApps(callerOf(server, ctx).clientCapabilities) ? 'tools' : 'plainTools',
  );
  return catalog.toolsUnder(shown, profileOfRequest(server, ctx, settings));
}

/** `tools/list` (the MCP Apps listing when negotiated) and `tools/call`; under `catalog: 'search'`, the three tools of search-first.ts. */
function installToolHandlers(server: CatalogServer, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  server.handleHot('tools/list', async (req, ctx) =>
    listed(server, ctx, catalog, settings, {
      list: 'tools',
      field: 'tools',
      kind: 'tool',
      items: settings.searchFirst
        ? searchFirstListings(profileOfRequest(server, ctx, settings))
        : await visibleTools(server, ctx, catalog, settings, visibility),
      keyOf: (t) => t.name,
      params: req.params,
    }),
  );
  // Not an async function: the common call (no policy to wait on, no task) makes no promise of its own and waits on
  // nothing before the tool runs; the handler still only rejects, never throws (the SDK's wrapper awaits it).
  const callTool = (params: RequestTypeMap['tools/call']['params'], ctx: ServerContext) => {
    try {
      const tool = catalog.tool(params.name);
      // An app-only tool (no plain listing) is unknown to a caller without MCP Apps, as it is absent from its
      // listing; the caller's capabilities are read only for such a tool, off the common path.
      if (!tool || (!tool.plainListing && !negotiatedApps(callerOf(server, ctx).clientCapabilities))) throw unknownTool(params.name);
      // Without a policy `allows` answers at once.
      const allowed = visibility.allows(ctx.http?.authInfo, { kind: 'tool', name: tool.model.name }, ctx.mcpReq.id, ctx.sessionId);
      if (allowed !== true || tool.model.task) return checkedToolCall(server, tool, params, ctx, settings, visibility, allowed);
      return toolCall(server, tool, params, ctx, settings);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  if (!settings.searchFirst) {
    server.handleHot('tools/call', (req, ctx) => callTool(req.params, ctx));
    return;
  }
  const host: SearchFirstHost<ServerContext> = {
    visible: (ctx) => visibleTools(server, ctx, catalog, settings, visibility),
    indexed: () => catalog.listings.tools,
    call: (params, ctx) => callTool(params as RequestTypeMap['tools/call']['params'], ctx),
  };
  server.handleHot('tools/call', (req, ctx) =>
    SEARCH_FIRST_NAMES.has(req.params.name) ? searchFirstCall(req.params, host, ctx) : callTool(req.params, ctx),
  );
}

/** A `tools/call` once the policy answered (refused: an unknown tool), as a task when the tool and request call for one. */
async function checkedToolCall(
  server: CatalogServer,
  tool: RegisteredTool,
  params: RequestTypeMap['tools/call']['params'],
  ctx: ServerContext,
  settings: ProtocolSettings,
  visibility: Visibility,
  allowed: boolean | Promise<boolean>,
): Promise<unknown> {
  if (!(await allowed)) throw unknownTool(params.name);
  if (tool.model.task) await startTaskOf(server, tool, params, ctx, settings, visibility);
  return toolCall(server, tool, params, ctx, settings);
}

/** Calls the tool: errors are answered as results; only `requireInput` rejects. */
function toolCall(
  server: CatalogServer,
  tool: RegisteredTool,
  params: RequestTypeMap['tools/call']['params'],
  ctx: ServerContext,
  settings: ProtocolSettings,
): Promise<unknown> {
  // Under 'openai-strict' an optional argument listed as nullable is read as absent when it is `null`.
  const args =
    settings.profile !== undefined && profileOfRequest(server, ctx, settings).name === 'openai-strict'
      ? absentNulls(tool.model, params.arguments)
      : params.arguments;
  return callOf(tool)(args, contextInitOf(server, ctx, settings.states, tool.model.name)).then(
    (result) => boundedResult(result, params.name, settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES, settings.log),
    (error: unknown) => {
      if (error instanceof InputRequired) return inputRequiredOf(error, settings.states, bindingOf(ctx, tool.model.name));
      throw protocolErrorOf(error, settings.log, ctx);
    },
  );
}

/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
function installResourceHandlers(
  server: CatalogServer,
  catalog: Catalog,
  settings: ProtocolSettings,
  visibility: Visibility,
  skillRead?: SkillRead,
): void {
  server.handleHot('resources/list', async (req, ctx) =>
    listed(server, ctx, catalog, settings, {
      list: 'resources',
      field: 'resources',
      kind: 'resource',
      items: await visibility.list(ctx.http?.authInfo, 'resources'),
      keyOf: (r) => r.uri ?? '',
      params: req.params,
    }),
  );
  server.handleHot('resources/templates/list', async (req, ctx) =>
    listed(server, ctx, catalog, settings, {
      list: 'resourceTemplates',
      field: 'resourceTemplates',
      kind: 'resource',
      items: await visibility.list(ctx.http?.authInfo, 'templates'),
      keyOf: (r) => r.uriTemplate ?? '',
      params: req.params,
    }),
  );
  server.handleHot('resources/read', (req, ctx) => {
    const uri = req.params.uri;
    return answer(settings, ctx, uri, async () => {
      const found = catalog.findResource(uri);
      const modern = callerOf(server, ctx).modern;
      // A skill file (addSkills) is read by the SDK's skills extension, behind the skill's own checks (skills.ts).
      if (!found && skillRead) return withCacheFields(await skillRead(uri, ctx), settings.cache, modern);
      if (!found) throw new ResourceNotFoundError(uri);
      await requireAllowed(visibility, ctx, resourceItemOf(found), () => new ResourceNotFoundError(uri));
      if (found.kind === 'ui') return withCacheFields(await uiReadResult(uri, found.ui), settings.cache, modern);
      const { resource, variables } = found;
      const result = resourceResult(
        await resource.call(variables, contextInitOf(server, ctx, settings.states, uri)),
        uri,
        resource.model.mimeType,
      );
      return withCacheFields(result, resource.model.cache ?? settings.cache, modern);
    });
  });
  // A connection that outlives its requests follows what it subscribed to (catalog/live.ts); a request-scoped
  // instance keeps them with nothing to deliver later. A resource `auth.authorize` refuses the caller is
  // answered as an unknown URI is, and never followed (the refusal is logged by the policy's check).
  server.setRequestHandler('resources/subscribe', async (req, ctx) => {
    const uri = subscribedUri(req.params);
    const found = catalog.findResource(uri);
    if (!found || (await visibility.allows(ctx.http?.authInfo, resourceItemOf(found), ctx.mcpReq.id, ctx.sessionId)))
      server.subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (req) => {
    server.subscriptions.delete(subscribedUri(req.params));
    return {};
  });
}

/** `prompts/list` and `prompts/get`. */
function installPromptHandlers(server: CatalogServer, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  server.handleHot('prompts/list', async (req, ctx) =>
    listed(server, ctx, catalog, settings, {
      list: 'prompts',
      field: 'prompts',
      kind: 'prompt',
      items: await visibility.list(ctx.http?.authInfo, 'prompts'),
      keyOf: (p) => p.name,
      params: req.params,
    }),
  );
  server.handleHot('prompts/get', async (req, ctx) => {
    const prompt = catalog.prompt(req.params.name);
    const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${req.params.name.slice(0, 128)}`);
    if (!prompt) throw unknown();
    await requireAllowed(visibility, ctx, { kind: 'prompt', name: prompt.model.name }, unknown);
    return answer(settings, ctx, prompt.model.name, async () =>
      promptResult(
        await prompt.call(stringArguments(req.params.arguments), contextInitOf(server, ctx, settings.states, prompt.model.name)),
        prompt.model.description,
      ),
    );
  });
}

/** The item a completion request completes, as `auth.authorize` is asked about it; none for an unknown reference. */
function completionItemOf(catalog: Catalog, ref: { type: string; name?: string; uri?: string }): AuthorizeItem | undefined {
  if (ref.type === 'ref/prompt') return { kind: 'prompt', name: String(ref.name) };
  if (ref.type !== 'ref/resource') return undefined;
  const found = catalog.findResource(String(ref.uri));
  return found ? resourceItemOf(found) : { kind: 'template', name: String(ref.uri) };
}

/** Most completion values one answer carries (the protocol's limit). */
const MAX_COMPLETIONS = 100;

/** The string values of `context.arguments` in a completion request. */
function resolvedArguments(context: unknown): Readonly<Record<string, string>> {
  const args = (context as { arguments?: unknown } | undefined)?.arguments;
  const resolved: Record<string, string> = Object.create(null);
  if (typeof args === 'object' && args !== null) for (const [k, v] of Object.entries(args)) if (typeof v === 'string') resolved[k] = v;
  return Object.freeze(resolved);
}

/** `completion/complete` for prompt arguments and resource-template variables. */
function installCompletionHandler(server: Server, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  handleRequest(server, 'completion/complete', (req, ctx) =>
    answer(settings, ctx, '', async () => {
      const ref = req.params.ref as { type: string; name?: string; uri?: string };
      const unknown = () =>
        new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${ref.type === 'ref/prompt' ? 'prompt' : 'resource template'}.`);
      const item = completionItemOf(catalog, ref);
      if (item) await requireAllowed(visibility, ctx, item, unknown);
      const values = await catalog.complete({
        ref,
        argument: req.params.argument.name,
        typed: req.params.argument.value,
        resolved: resolvedArguments(req.params.context),
        requestId: ctx.mcpReq.id,
        sessionId: ctx.sessionId,
      });
      if (!values) throw unknown();
      const shown = values.slice(0, MAX_COMPLETIONS);
      return { completion: { values: shown, total: values.length, hasMore: values.length > shown.length } };
    }),
  );
}

/** Builds one SDK `Server` serving the catalog. */
export function createProtocolServer(catalog: Catalog, settings: ProtocolSettings): CatalogServer {
  const { states } = settings;
  // The SDK's type of the info has mutable arrays; ours is frozen data it only reads.
  const server = new CatalogServer(settings.info as ConstructorParameters<typeof Server>[0], {
    capabilities: capabilitiesOf(catalog),
    instructions: settings.instructions,
    requestState: { verify: (state, ctx) => states.verify(state, ctx) },
    cacheHints: { 'server/discover': { ttlMs: settings.cache.ttlMs, cacheScope: settings.cache.scope } },
  });
  server.onerror = transportErrorReporter(settings.log);
  server.fastPaths = SdkSeam.of(settings.log).serverPaths();
  const visibility = new Visibility(catalog, settings.log);
  installToolHandlers(server, catalog, settings, visibility);
  if (catalog.usesTasks)
    installTaskHandlers(server, settings.tasks, settings.pager, catalog, taskRequestsOf(server, settings.states, visibility));
  const skillRead = catalog.skills ? installSkills(server, catalog.skills, visibility) : undefined;
  if (catalog.hasResources) installResourceHandlers(server, catalog, settings, visibility, skillRead);
  if (catalog.hasPrompts) installPromptHandlers(server, catalog, settings, visibility);
  if (catalog.hasResources || catalog.hasPrompts) installCompletionHandler(server, catalog, settings, visibility);
  return server;
}

/**
 * A 2025-era connection's transport writes the older resource-not-found code back (wire.ts); the hot dispatch's
 * legacy posts (http/legacy-posts.ts) take the same step themselves.
 */
export function withLegacyNotFoundCode<T extends Transport>(transport: T, isLegacy: () => boolean = () => true): T {
  interceptSend(transport, (send) => (message, options) => send(isLegacy() ? withLegacyNotFound(message) : message, options));
  writesLegacyCodes(transport, isLegacy);
  return transport;
}
