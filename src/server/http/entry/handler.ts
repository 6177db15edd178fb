import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  createMcpHandler,
  type AuthInfo as SdkAuthInfo,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import { Log } from '../../../log';
import { jsonRpcError } from '../../answers';
import type { ResourceServer } from '../../auth/resource-server';
import { callerKeyOf, verifiedCallerOf } from '../../auth/caller';
import { countAs } from '../../protocol/counted-as';
import { transportErrorReporter } from '../../protocol/client-faults';
import { tagIncoming } from '../../protocol/incoming';
import { InMemoryEventStore } from '../../stores/event-store';
import { checkStoreTimeout, guardedEventStore, StoreUnavailableError } from '../../stores/degraded';
import { refusedParamHeaders } from '../modern/param-headers';
import { ModernPool, modernPoolRoute } from '../modern/modern';
import { EraClassifier } from '../wire/era';
import { Cors } from '../guards/cors';
import { answerServerCard } from './server-card';
import { checkAllowedHosts, sourceGuard } from '../guards/origin';
import { CallsInProgress } from './lifecycle';
import { MAX_BODY_DEPTH, TOO_DEEP, valueNestsDeeperThan } from '../wire/json-depth';
import { SessionTable, httpFastPaths } from '../legacy/sessions';
import { webRequestOf, writeWebResponse } from '../wire/web';
import { readJsonBody, refusedBatch } from '../wire/body';
import { IncomingRequest, addressOf } from '../wire/incoming';
import { ANSWERED, LegacyRouting } from '../legacy/legacy-routing';
import { checkCloseAfter, checkRetry, checkTrustedProxies, resourceServerOf, sessionIds } from '../guards/option-checks';
import {
  NO_RULES,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpServing,
  type MemberRules,
  type SessionTuning,
} from '../guards/options';
import { refuseWhileDraining, storeUnavailable } from '../wire/refusals';

/** The methods the MCP endpoint serves (`OPTIONS` too, for CORS preflights, when `cors` is on). */
const ALLOWED = 'GET, POST, DELETE';

/** A request's body once read, or `undefined` once the request was refused (and answered). */
type Read = { readonly body: unknown } | undefined;

/** The body of a request that carries none (GET, DELETE). */
const NO_BODY: Read = Object.freeze({ body: undefined });

/** Answers the protected resource metadata document (GET only). */
function metadata(req: IncomingMessage, res: ServerResponse, server: ResourceServer): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('Method Not Allowed');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(server.metadata()));
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}

/** The scopes a body's requests need, together (a 2025-03-26 batch holds several). */
function scopesOfBody(rules: MemberRules, body: unknown): readonly string[] {
  return Array.isArray(body) ? [...new Set(body.flatMap((m) => rules.scopesNeeded(m)))] : rules.scopesNeeded(body);
}

/** Whether every request of a body may come without a token (with `auth.allowAnonymous`). */
function openToAnonymous(rules: MemberRules, body: unknown): boolean {
  const open = (message: unknown) => rules.openToAnonymous?.(message) ?? false;
  return Array.isArray(body) ? body.every(open) : open(body);
}

/**
 * One rule for both eras: a request without Accept accepts anything (RFC 9110), as 2026-07-28 requests always
 * did; 2025-era ones were refused for it by the SDK's transport.
 */
function defaultAccept(req: IncomingMessage): void {
  if (req.headers.accept === undefined)
    req.headers.accept = req.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream';
}

/** The caller a request was let in as: `owner` is the token's owner with `auth`, none without. */
type Admitted = { readonly owner: string | undefined };

const WITHOUT_AUTH: Admitted = Object.freeze({ owner: undefined });

/**
 * The endpoint's request handling; `serving` makes one SDK `Server` per modern request or legacy session. A
 * request goes through {@link serve}'s steps in order: CORS, the Host/Origin check, the metadata document, the
 * path and method, the body, the bearer token and the scope challenge, the drain, then by era to the session
 * table (2025) or the modern pool and the stateless handler (2026-07-28). Each step that refuses a request
 * answers it itself.
 */
class HttpEndpoint implements HttpHandler {
  private readonly path: string | undefined;
  /** The path, when it is its own parsed pathname and no metadata path: a request for exactly it is for the endpoint. */
  private readonly plainPath: string | undefined;
  private readonly limit: number;
  private readonly stateless: boolean;
  /** The SDK's web-standard per-request handler: 2026-07-28 requests the pool does not take, and stateless 2025-era ones. */
  private readonly perRequest: ReturnType<typeof createMcpHandler>;
  private readonly modernPool: ModernPool | undefined;
  private readonly sessions: SessionTable;
  private readonly calls = new CallsInProgress();
  private readonly eras = new EraClassifier();
  private readonly trustedProxies: number;
  /** 2025-era requests to their sessions (legacy/legacy-routing.ts). */
  private readonly legacy: LegacyRouting;
  private readonly cors: Cors | undefined;
  /** Host and Origin (guards/origin.ts); writes the 403 itself. */
  private readonly validSource: (req: IncomingMessage, res: ServerResponse) => boolean;
  private readonly resourceServer: ResourceServer | undefined;
  /** The server card's text (`serverCard`), when this endpoint serves it. */
  private readonly card: (() => string) | undefined;

  constructor(
    serving: HttpServing,
    options: HttpHandlerOptions,
    private readonly rules: MemberRules,
    private readonly log: Log,
    tuning: SessionTuning,
  ) {
    this.path = options.path;
    this.card = serving.serverCard;
    this.limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
    this.stateless = options.legacy === 'stateless';
    const perRequest = createMcpHandler((context) => serving.request(context.era), {
      legacy: this.stateless ? 'stateless' : 'reject',
      maxRequestBodySize: this.limit,
      bus: serving.bus,
      onerror: transportErrorReporter(log),
    });
    this.perRequest = serving.perRequest ? serving.perRequest(perRequest) : perRequest;
    // The fast paths, unless switched off or the installed SDK lacks a member they use (sdk/seam.ts).
    const fast = tuning.fastPaths !== false && httpFastPaths(log);
    this.modernPool = !fast
      ? undefined
      : new ModernPool(serving.exchange ?? serving.request, tuning.maxExchangeServers, (req) =>
          this.countedCaller(req, (req as IncomingMessage & { auth?: SdkAuthInfo }).auth),
        );
    const guardedStore = options.eventStore && guardedEventStore(options.eventStore, checkStoreTimeout(options.storeTimeoutMs), log);
    this.sessions = new SessionTable(serving.session, {
      maxSessions: options.maxSessions,
      maxSessionsPerCaller: options.maxSessionsPerCaller,
      maxLifetimeMs: options.maxSessionLifetimeMs,
      idleTimeoutMs: options.sessionIdleTimeoutMs,
      maxRequestBodySize: this.limit,
      newSessionId: sessionIds(options.route),
      eventStore: guardedStore ?? new InMemoryEventStore(),
      retryMs: checkRetry(options.sseRetryMs ?? 1000),
      sseCloseAfterMs: checkCloseAfter(options.sseCloseAfterMs),
      fastPaths: fast,
      sseAfterMs: tuning.sseAfterMs,
      log,
    });
    this.trustedProxies = checkTrustedProxies(options.trustedProxies);
    this.legacy = new LegacyRouting(this.sessions, guardedStore, this.trustedProxies, log);
    this.cors = options.cors ? new Cors(options.cors) : undefined;
    this.validSource = sourceGuard({
      loopback: options.validateHost ?? true,
      allowedHosts: checkAllowedHosts(options.allowedHosts),
      cors: this.cors,
    });
    this.resourceServer = resourceServerOf(options, rules, log);
    const path = this.path;
    const plain = path !== undefined && new URL(path, 'http://localhost').pathname === path && !this.resourceServer?.servesMetadata(path);
    this.plainPath = plain ? path : undefined;
  }

  // Arrow properties, not methods: frameworks are handed `handler.handle` detached from its object.
  // The server card first: public metadata, answered before the Host/Origin check that guards the endpoint.
  readonly handle = (req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void> =>
    this.card !== undefined && answerServerCard(req, res, this.card) ? ANSWERED : this.serve(req, res, parsed);

  readonly drain = (deadlineMs: number): Promise<boolean> => this.calls.drain(deadlineMs);

  readonly close = async (): Promise<void> => {
    await this.modernPool?.close();
    await this.perRequest.close();
    await this.sessions.closeAll();
  };

  /**
   * One request, top to bottom. Each step that refuses the request answers it itself; what escapes the steps is
   * answered here (caught in place rather than by a `catch` of the promise: a promise and a job fewer per request).
   */
  private async serve(req: IncomingMessage, res: ServerResponse, parsed: { readonly body: unknown } | undefined): Promise<void> {
    try {
      if (!this.checkSource(req, res) || !this.checkTarget(req, res)) return;
      const read = await this.readBody(req, res, parsed);
      if (!read) return;
      const body = read.body;
      // Asked here first: a lone message (every request but a batch) never calls `refusedBatch`, which is then compiled
      // late by V8 and charged to a request far into the run.
      if (Array.isArray(body) && refusedBatch(req, res, body)) return;
      defaultAccept(req);
      const admitted = this.resourceServer ? await this.authorize(req, res, this.resourceServer, body) : WITHOUT_AUTH;
      if (!admitted) return;
      if (this.calls.refuses(req, body)) return refuseWhileDraining(req, res);
      this.calls.track(req, res, body);
      const era = this.eras.classify(req, body);
      // What the calls of this request see of it (`RequestContext.http`): the request itself, nothing copied.
      const incoming = new IncomingRequest(req, this.trustedProxies);
      // Awaited, so that the `catch` below sees their failures (and an async function that returns a promise adopts it
      // through a job of its own and two ticks, where `await` takes one).
      if (!this.stateless && era.kind === 'legacy') return await this.legacy.serve(req, res, body, admitted.owner, incoming);
      return await this.serveModern(req, res, body, era, incoming);
    } catch (error) {
      this.failed(req, res, error);
    }
  }

  /** CORS (a preflight is answered here) and the Host/Origin check; whether the request may go on (else answered). */
  private checkSource(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.cors?.preflight(req, res)) return false;
    this.cors?.decorate(req, res);
    return this.validSource(req, res);
  }

  /** The metadata document, the path and the method; whether the request is for the MCP endpoint (else answered). */
  private checkTarget(req: IncomingMessage, res: ServerResponse): boolean {
    // The endpoint's own path as sent needs no URL parse (the usual request); anything else is parsed.
    const plain = this.plainPath;
    const pathname = plain !== undefined && req.url === plain ? plain : new URL(req.url ?? '/', 'http://localhost').pathname;
    if (this.resourceServer?.servesMetadata(pathname)) {
      metadata(req, res, this.resourceServer);
      return false;
    }
    if (this.path !== undefined && pathname !== this.path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return false;
    }
    if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'DELETE') {
      res.writeHead(405, { allow: this.cors ? `${ALLOWED}, OPTIONS` : ALLOWED, 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: `Method Not Allowed: the MCP endpoint answers ${ALLOWED}.` },
          id: null,
        }),
      );
      return false;
    }
    return true;
  }

  /** The body a framework parsed already (checked for depth), or the POST body read here; `undefined` once refused. */
  private readBody(req: IncomingMessage, res: ServerResponse, parsed: { readonly body: unknown } | undefined): Read | Promise<Read> {
    if (!parsed) return req.method === 'POST' ? readJsonBody(req, res, this.limit) : NO_BODY;
    if (valueNestsDeeperThan(parsed.body, MAX_BODY_DEPTH)) return void jsonRpcError(res, 400, -32600, TOO_DEEP);
    return parsed;
  }

  /** The bearer token and the scope challenge; `undefined` after answering 401 or 403. */
  private async authorize(req: IncomingMessage, res: ServerResponse, server: ResourceServer, body: unknown): Promise<Admitted | undefined> {
    const verified = await server.authorize(req, scopesOfBody(this.rules, body), openToAnonymous(this.rules, body));
    if (verified instanceof Response) return void (await writeResponse(res, verified));
    // The SDK's transports hand `req.auth` to the request handlers as `ctx.http.authInfo`.
    (req as IncomingMessage & { auth?: SdkAuthInfo }).auth = verified;
    return { owner: server.ownerOf(verified) };
  }

  /**
   * A 2026-07-28 request (or, with `legacy: 'stateless'`, a 2025-era one): its `Mcp-Param-*` headers are checked,
   * then the modern pool answers it when it qualifies and has room, else the SDK's per-request handler.
   */
  private async serveModern(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    era: InboundClassificationOutcome,
    incoming: IncomingRequest,
  ): Promise<void> {
    if (refusedParamHeaders(this.rules, req, res, body)) return;
    const route = this.modernPool && modernPoolRoute(req, era);
    if (route && (await this.modernPool!.handle(req, res, route, incoming))) return;
    return this.servePerRequest(req, res, body, incoming);
  }

  /** Whom a per-request exchange counts against: its verified caller, else the client's address. */
  private countedCaller(req: IncomingMessage, authInfo: SdkAuthInfo | undefined): string {
    const verified = verifiedCallerOf(authInfo);
    return verified ? callerKeyOf(verified) : `address ${addressOf(req, this.trustedProxies)}`;
  }

  /** The SDK's web-standard handler, given the parsed body beside a body-less `Request`. */
  private async servePerRequest(req: IncomingMessage, res: ServerResponse, body: unknown, incoming: IncomingRequest): Promise<void> {
    const leaving = new AbortController();
    res.once('close', () => leaving.abort());
    const authInfo = (req as IncomingMessage & { auth?: SdkAuthInfo }).auth;
    const request = webRequestOf(req, leaving.signal);
    countAs(request, this.countedCaller(req, authInfo));
    // The SDK hands this web `Request` to the handlers (`ctx.http.req`): by it they find the Node request.
    tagIncoming(request, incoming);
    const response = await this.perRequest.fetch(request, { parsedBody: body, ...(authInfo !== undefined && { authInfo }) });
    await writeWebResponse(res, response, leaving.signal);
  }

  /** What escaped a request's steps: 503 for a store that is down, else logged and answered 500 with nothing internal. */
  private failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    // Logged where the store failed, once per outage.
    if (error instanceof StoreUnavailableError) return storeUnavailable(res, error);
    // The path only: a query string may carry a token.
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const sid = req.headers['mcp-session-id'];
    this.log.error(`HTTP ${req.method} ${path} failed`, {
      event: 'http.failed',
      sessionId: typeof sid === 'string' ? sid : undefined,
      error,
    });
    jsonRpcError(res, 500, -32603, 'Internal error');
  }
}

/**
 * The endpoint's request handling as a Node handler (see {@link HttpEndpoint}); `serving` makes one SDK `Server`
 * per modern request or legacy session.
 */
export function createHttpHandler(
  serving: HttpServing,
  options: HttpHandlerOptions = {},
  rules: MemberRules = NO_RULES,
  log: Log = Log.silent,
  tuning: SessionTuning = {},
): HttpHandler {
  return new HttpEndpoint(serving, options, rules, log, tuning);
}
