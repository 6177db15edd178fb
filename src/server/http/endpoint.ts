import { randomUUID } from 'node:crypto';
import { asError } from '../../errors';
import type { ListingOption } from '../../schema/profiles';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { refusedParamHeaders, type HeaderParams } from './param-headers';
import { ModernPool, modernPoolRoute } from './modern';
import { EraClassifier } from './era';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  createMcpHandler,
  type AuthInfo as SdkAuthInfo,
  type InboundClassificationOutcome,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { Log, printable } from '../../log';
import type { CorsOptions, HttpAuthOptions } from '../auth/options';
import { ResourceServer } from '../auth/resource-server';
import { ANONYMOUS_OWNER, callerKeyOf, verifiedCallerOf } from '../auth/caller';
import { countAs } from '../protocol/counted-as';
import { Cors } from './cors';
import { checkAllowedHosts, sourceGuard } from './origin';
import { InMemoryEventStore, type EventStore } from '../stores/event-store';
import { OncePer } from '../once-per';
import { transportErrorReporter } from '../protocol/client-faults';
import { checkStoreTimeout, guardedEventStore, StoreUnavailableError, type GuardedEventStore } from '../stores/degraded';
import { CallsInProgress, healthResponder, type HealthOptions } from './lifecycle';
import { MAX_BODY_DEPTH, TOO_DEEP, valueNestsDeeperThan } from './json-depth';
import { SessionTable, httpFastPaths, type Session, type SessionTableOptions } from './sessions';
import { isLegacyPostTarget } from './legacy-posts';
import { webRequestOf, writeWebResponse } from './web';
import { jsonRpcError } from '../answers';
import { readJsonBody, refusedBatch } from './body';
import { IncomingRequest, addressOf } from './incoming';
import { tagIncoming } from '../protocol/incoming';
import type { ServerCardOptions } from '../catalog/server-card';
import { answerServerCard } from './server-card';

/**
 * Streamable HTTP for both eras on one endpoint: 2026-07-28 requests (they carry the `_meta` envelope) go
 * to the modern pool or the SDK's stateless per-request handler; 2025-era requests get a session each
 * (`Mcp-Session-Id`), so progress, cancellation, logging, sampling and elicitation work for them.
 */

/** Options of a handler mounted in someone else's HTTP server (`server.createHttpHandler()`). */
export interface HttpHandlerOptions {
  /** This endpoint's listing profile (docs/models-and-hosts.md); default the server's `listing`. */
  readonly listing?: ListingOption;
  /** This endpoint's `describeConstraints`; default the server's. */
  readonly describeConstraints?: boolean;
  /**
   * Answer only this path (404 otherwise). `serveHttp()`: default `/mcp`. `createHttpHandler()`: every path
   * unless given; leave it out when the framework routes by path itself.
   */
  readonly path?: string;
  /** Largest accepted request body in bytes; default 4 MiB. Larger bodies are answered 413. */
  readonly maxRequestBodySize?: number;
  /**
   * Check Host (and accept Origin) against loopback names (DNS-rebinding protection); default true. `Origin` is
   * checked whatever this says: a request whose origin is not listed in `cors.origins` or `allowedHosts` (or
   * loopback, when this is true) is refused with 403. `serveHttp()` sets it from its `host`: on for a loopback
   * address, off otherwise.
   */
  readonly validateHost?: boolean;
  /**
   * The host names the endpoint answers to (no port), checked against `Host`, and accepted as `Origin` host
   * names: what the public name is behind a reverse proxy, such as `['mcp.example.com']`. Default: loopback
   * names (on a loopback address with `serveHttp()`; with `validateHost` on with `createHttpHandler()`), else
   * `Host` is not checked. Given, it replaces the loopback names: list `'127.0.0.1'` too to keep calling the
   * endpoint directly.
   */
  readonly allowedHosts?: readonly string[];
  /** Most 2025-era sessions open at once; an `initialize` beyond it is answered 503. Default 1,000. */
  readonly maxSessions?: number;
  /** A 2025-era session with no request for this long (an open GET stream does not count) is closed. Default 30 minutes. */
  readonly sessionIdleTimeoutMs?: number;
  /** Most 2025-era sessions one caller holds at once (the token's subject with `auth`, the client's address without); one more is answered 429. Default 100. */
  readonly maxSessionsPerCaller?: number;
  /** A 2025-era session is closed this long after it opened, even with a GET stream open. Default 24 hours. */
  readonly maxSessionLifetimeMs?: number;
  /**
   * How many reverse proxies in front of this server append to `X-Forwarded-For` (nginx:
   * `proxy_add_x_forwarded_for`): the client's address is then read that many entries from the right, so a client
   * cannot pick its own by sending the header. Default 0: the connection's address, which behind a proxy is the
   * proxy's, so every client would share one caller's session cap.
   */
  readonly trustedProxies?: number;
  /**
   * `'sessions'` (default): each 2025-era client gets a session, so server-to-client requests (sampling,
   * elicitation), logging levels and GET streams work, and a load balancer must route by `Mcp-Session-Id`.
   * `'stateless'`: the SDK's stateless mode; every 2025-era request is answered on its own, no session id,
   * GET and DELETE answered 405, so any instance can answer any request.
   */
  readonly legacy?: 'sessions' | 'stateless';
  /**
   * This instance's name among several behind a load balancer (letters, digits, `_`, `-`): every session id
   * it hands out starts with `<route>.`, so the balancer can send the session's later requests here (nginx:
   * a `map` from the prefix to the instance; docs/scaling.md).
   */
  readonly route?: string;
  /**
   * Keeps the SSE events of 2025-era sessions so a client that lost its stream resumes with `Last-Event-ID` and
   * receives what it missed. Default: an {@link InMemoryEventStore} per endpoint.
   */
  readonly eventStore?: EventStore;
  /** The `retry` (milliseconds) each SSE stream's priming event suggests for reconnecting. Default 1,000. */
  readonly sseRetryMs?: number;
  /**
   * SSE polling (2025-11-25 sessions): a request still running this long after it arrived has its response
   * stream closed, after the priming event's `retry` hint; the client reconnects with `GET` and `Last-Event-ID`
   * and receives the rest there, so no response holds a connection longer than this (proxies with a read
   * timeout). Off by default: a stream stays open until its reply.
   */
  readonly sseCloseAfterMs?: number;
  /** The bound of one operation of a given `eventStore` (Redis); past it the store counts as unavailable (see docs/scaling.md). Default 1,000 ms. */
  readonly storeTimeoutMs?: number;
  /**
   * Makes the endpoint an OAuth 2.1 resource server. `resource` is the public URL of the endpoint: required
   * with `createHttpHandler()`, the endpoint's URL by default with `serveHttp()`. The metadata is answered at
   * `/.well-known/oauth-protected-resource[/path]`; route those to the handler too when the framework routes by
   * path.
   */
  readonly auth?: HttpAuthOptions;
  /** Cross-origin access for browser hosts; off unless given. With `createHttpHandler()`, route `OPTIONS` to the handler for preflights. */
  readonly cors?: CorsOptions;
}

/** Options of `server.serveHttp()`: the handler's (the host check follows `host`), and where and how to listen. */
export interface ServeHttpOptions extends Omit<HttpHandlerOptions, 'validateHost'> {
  /**
   * Default `127.0.0.1`. On a loopback address, Host and Origin headers are checked against loopback names (DNS
   * rebinding). On any address, a request whose `Origin` is not allowed is refused with 403.
   */
  readonly host?: string;
  /** Default `3000`; `0` picks a free port (see the resolved address). */
  readonly port?: number;
  /**
   * Liveness and readiness endpoints beside the MCP endpoint (`true`: `/livez` and `/readyz`). Readiness
   * answers 503 once the server drains (`server.shutdown()`), so a load balancer stops sending new work.
   */
  readonly health?: boolean | HealthOptions;
  /**
   * Shut down gracefully on these signals (`server.shutdown()`: stop accepting, let calls in progress finish
   * up to `deadlineMs`, close sessions), then let the signal take its default course. Off by default.
   */
  readonly shutdown?: { readonly signals: readonly NodeJS.Signals[]; readonly deadlineMs?: number };
  /**
   * How long a client may take to send a request's headers, in milliseconds (node:http `headersTimeout`); a slower
   * one is answered 408 and its connection closed. Default 10,000.
   */
  readonly headersTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, headers and body, in milliseconds (node:http
   * `requestTimeout`); a slower one is answered 408 and its connection closed. It bounds receiving only: a response
   * (an SSE stream, a slow tool's answer) takes as long as it takes. At least `headersTimeoutMs`. Default 30,000.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Most connections open at once from one remote address (the connection's, not `X-Forwarded-For`); a connection
   * beyond it is closed at once, before anything is read from it, and logged at warn once per burst. Default 64;
   * with `trustedProxies` set, no cap unless given (every connection then comes from a proxy: cap clients there).
   * `Infinity` turns it off.
   */
  readonly maxConnectionsPerAddress?: number;
  /**
   * Serve the server card (docs/publishing.md) at `/.well-known/mcp/server-card.json` (and
   * `/.well-known/mcp/server-card`) on this server's root, whatever `path` is: `true`, or what the card says beyond
   * the server's info (`name` in reverse-DNS form, `description`, the public `url`, `websiteUrl`). With `auth`, the
   * card leaves the tools, resources and prompts out and lists `auth.resource` as the remote. Off by default.
   */
  readonly serverCard?: boolean | ServerCardOptions;
}

/** Where `serveHttp()` listens. */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
  /** The endpoint, such as `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
}

/** The endpoint on its own Node HTTP server, as `startHttp()` started it. */
export interface ListeningEndpoint extends HttpAddress {
  close(): Promise<void>;
  /** Stops listening, lets calls in progress finish up to the deadline, then closes. */
  shutdown(deadlineMs: number): Promise<void>;
}

/** A Node request handler for the MCP endpoint, in both eras. */
export interface HttpHandler {
  /**
   * Answers one request. Pass `parsed` when a framework already read the body (Express's or Nest's JSON
   * body parser); otherwise the body is read here, within the size limit.
   */
  handle(req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void>;
  /** Closes every session and the stateless handler. */
  close(): Promise<void>;
  /**
   * Refuses new requests from now on (503), resolves once the calls in progress have finished (`true`) or at
   * the deadline (`false`). Call {@link close} afterwards.
   */
  drain(deadlineMs: number): Promise<boolean>;
}

/** What the endpoint needs to know about the served members: the scopes they need, and their parameter headers. */
export interface MemberRules extends HeaderParams {
  /** The scopes a JSON-RPC request needs (those of the tool, resource or prompt it names). */
  scopesNeeded(message: unknown): readonly string[];
  /** Every scope some member needs. */
  readonly declaredScopes: readonly string[];
  /** Whether a request without a token may be let in (it names no item, or public ones only); default never. */
  openToAnonymous?(message: unknown): boolean;
}

const NO_RULES: MemberRules = { scopesNeeded: () => [], declaredScopes: [], headerParamsOf: () => undefined };

/** Internal knobs of the hot paths, for tests that compare them with the SDK's and bound them. */
export type SessionTuning = Pick<SessionTableOptions, 'fastPaths' | 'sseAfterMs'> & {
  /** Most servers in the 2026-07-28 pool (http/modern.ts); default 256. */
  readonly maxExchangeServers?: number;
};

/** What the endpoint serves with: a `Server` per 2025-era session, one per 2026-07-28 request, and the change-event bus. */
export interface HttpServing {
  readonly session: () => Server;
  /** A `Server` for one request; `era` is `legacy` for a 2025-era request served statelessly (`legacy: 'stateless'`). */
  readonly request: (era?: 'legacy' | 'modern') => Server;
  /**
   * A `Server` for the pool that answers 2026-07-28 hot requests (http/modern.ts), answering them below the
   * SDK's dispatch; `request` serves the pool when absent.
   */
  readonly exchange?: () => Server;
  /** `subscriptions/listen` streams (2026-07-28) listen here; sessions follow it through their `Server`. */
  readonly bus: ServerEventBus;
  /** Wraps the SDK's per-request handler: `auth.authorize` on `subscriptions/listen` (auth/listen-policy.ts). */
  readonly perRequest?: (handler: ReturnType<typeof createMcpHandler>) => ReturnType<typeof createMcpHandler>;
  /** The server card's text, when `serveHttp({ serverCard })` serves it (http/server-card.ts). */
  readonly serverCard?: () => string;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/;

/** The methods the MCP endpoint serves (`OPTIONS` too, for CORS preflights, when `cors` is on). */
const ALLOWED = 'GET, POST, DELETE';

/** A request's body once read, or `undefined` once the request was refused (and answered). */
type Read = { readonly body: unknown } | undefined;

/** The body of a request that carries none (GET, DELETE). */
const NO_BODY: Read = Object.freeze({ body: undefined });

const ROUTE = /^[A-Za-z0-9_-]{1,64}$/;

function sessionIds(route: string | undefined): () => string {
  if (route === undefined) return randomUUID;
  if (typeof route !== 'string' || !ROUTE.test(route)) {
    throw new TypeError(
      `route must be 1 to 64 letters, digits, '_' or '-' (it prefixes session ids, such as 'a' or 'mcp-1'); got ${JSON.stringify(route)}.`,
    );
  }
  return () => `${route}.${randomUUID()}`;
}

function checkTrustedProxies(value: number | undefined): number {
  const hops = value ?? 0;
  if (!Number.isInteger(hops) || hops < 0)
    throw new TypeError(`trustedProxies takes the number of reverse proxies in front of the server, such as 1; got ${String(value)}.`);
  return hops;
}

function checkRetry(retryMs: number): number {
  if (!Number.isInteger(retryMs) || retryMs < 0) {
    throw new TypeError(
      `sseRetryMs takes a whole number of milliseconds from 0, for example { sseRetryMs: 1000 }; got ${String(retryMs)}.`,
    );
  }
  return retryMs;
}

function checkCloseAfter(ms: number | undefined): number | undefined {
  if (ms !== undefined && (!Number.isInteger(ms) || ms < 1)) {
    throw new TypeError(
      `sseCloseAfterMs takes a whole number of milliseconds from 1, for example { sseCloseAfterMs: 30000 }; got ${String(ms)}.`,
    );
  }
  return ms;
}

/**
 * A request on an established session without `MCP-Protocol-Version` is taken under the session's negotiated
 * revision: the spec assumes 2025-03-26 only when a server "has no other way to identify the version - for
 * example, by relying on the protocol version negotiated during initialization". Written into the header, so
 * the batch rule and the SDK's transport (priming, polling) read the same revision; whether it was.
 */
function adoptedSessionRevision(req: IncomingMessage, session: Session): boolean {
  if (req.headers['mcp-protocol-version'] !== undefined || !isLegacyPostTarget(session.server)) return false;
  const negotiated = session.server.legacyVersion();
  if (negotiated === undefined) return false;
  req.headers['mcp-protocol-version'] = negotiated;
  return true;
}

function resourceServerOf(options: HttpHandlerOptions, rules: MemberRules, log: Log): ResourceServer | undefined {
  const auth = options.auth;
  if (!auth) return undefined;
  if (auth.resource === undefined) {
    throw new TypeError(
      `auth.resource is required when the server does not listen itself (createHttpHandler(), McpModule): the endpoint's public URL, such as 'https://mcp.example.com/mcp'.`,
    );
  }
  return new ResourceServer({ ...auth, resource: auth.resource }, () => rules.declaredScopes, options.path, log);
}

/**
 * New work sent to an instance that is shutting down: a session's request is answered 404 (the session ends
 * with this instance, so its client opens a new one, which the balancer places elsewhere); anything else
 * 503, which a balancer retries on another instance.
 */
function refuseWhileDraining(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  if (req.headers['mcp-session-id'] !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
  res.setHeader('retry-after', '1');
  jsonRpcError(res, 503, -32000, 'Service Unavailable: this instance is shutting down; try again.');
}

/** Answers the protected resource metadata document (GET only). */
function metadata(req: IncomingMessage, res: ServerResponse, server: ResourceServer): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('Method Not Allowed');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(server.metadata()));
}

/**
 * A shared store did not answer within its bound: 503 with `Retry-After`, which a balancer retries on another
 * instance where that is safe (docs/scaling.md). The store's own words went to the log.
 */
function storeUnavailable(res: ServerResponse, error: StoreUnavailableError): void {
  res.setHeader('retry-after', String(error.retryAfterSeconds));
  jsonRpcError(res, 503, -32000, `Service Unavailable: ${error.message}`);
}

/** The `Last-Event-ID` of a GET that resumes a stream. */
function lastEventIdOf(req: IncomingMessage): string | undefined {
  const id = req.method === 'GET' ? req.headers['last-event-id'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

function opensSession(body: unknown): boolean {
  const isInit = (m: unknown) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

/**
 * Answers a resume whose events are gone (expired, trimmed, lost with a store restart) as lost, rather than the
 * SDK's "Invalid event ID format"; whether it did.
 */
async function refusedResume(session: Session, lastEventId: string, res: ServerResponse): Promise<boolean> {
  if (await session.events.getStreamIdForEventId?.(lastEventId)) return false;
  jsonRpcError(
    res,
    400,
    -32000,
    'Events lost: the events after this Last-Event-ID are no longer kept (they expired, or the event store lost them); send the request again, or open a new GET stream without Last-Event-ID.',
  );
  return true;
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
  /** A store given for sharing (Redis), bounded; the default in-memory one cannot be down. */
  private readonly guardedStore: GuardedEventStore | undefined;
  private readonly calls = new CallsInProgress();
  private readonly eras = new EraClassifier();
  private readonly trustedProxies: number;
  private readonly sessionFloods = new OncePer(60_000);
  private readonly cors: Cors | undefined;
  /** Host and Origin (origin.ts); writes the 403 itself. */
  private readonly validSource: (req: IncomingMessage, res: ServerResponse) => boolean;
  private readonly resourceServer: ResourceServer | undefined;

  constructor(
    serving: HttpServing,
    options: HttpHandlerOptions,
    private readonly rules: MemberRules,
    private readonly log: Log,
    tuning: SessionTuning,
  ) {
    this.path = options.path;
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
    this.guardedStore = options.eventStore && guardedEventStore(options.eventStore, checkStoreTimeout(options.storeTimeoutMs), log);
    this.sessions = new SessionTable(serving.session, {
      maxSessions: options.maxSessions,
      maxSessionsPerCaller: options.maxSessionsPerCaller,
      maxLifetimeMs: options.maxSessionLifetimeMs,
      idleTimeoutMs: options.sessionIdleTimeoutMs,
      maxRequestBodySize: this.limit,
      newSessionId: sessionIds(options.route),
      eventStore: this.guardedStore ?? new InMemoryEventStore(),
      retryMs: checkRetry(options.sseRetryMs ?? 1000),
      sseCloseAfterMs: checkCloseAfter(options.sseCloseAfterMs),
      fastPaths: fast,
      sseAfterMs: tuning.sseAfterMs,
      log,
    });
    this.trustedProxies = checkTrustedProxies(options.trustedProxies);
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
  readonly handle = (req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void> =>
    this.serve(req, res, parsed).catch((error: unknown) => this.failed(req, res, error));

  readonly drain = (deadlineMs: number): Promise<boolean> => this.calls.drain(deadlineMs);

  readonly close = async (): Promise<void> => {
    await this.modernPool?.close();
    await this.perRequest.close();
    await this.sessions.closeAll();
  };

  /** One request, top to bottom. Each step that refuses the request answers it itself. */
  private async serve(req: IncomingMessage, res: ServerResponse, parsed: { readonly body: unknown } | undefined): Promise<void> {
    if (!this.checkSource(req, res) || !this.checkTarget(req, res)) return;
    const read = await this.readBody(req, res, parsed);
    if (!read) return;
    const body = read.body;
    if (refusedBatch(req, res, body)) return;
    defaultAccept(req);
    const admitted = this.resourceServer ? await this.authorize(req, res, this.resourceServer, body) : WITHOUT_AUTH;
    if (!admitted) return;
    if (this.calls.refuses(req, body)) return refuseWhileDraining(req, res);
    this.calls.track(req, res, body);
    const era = this.eras.classify(req, body);
    // What the calls of this request see of it (`RequestContext.http`): the request itself, nothing copied.
    const incoming = new IncomingRequest(req, this.trustedProxies);
    if (!this.stateless && era.kind === 'legacy') return this.serveLegacy(req, res, body, admitted.owner, incoming);
    return this.serveModern(req, res, body, era, incoming);
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

  /** A 2025-era request: to its session, or to a new one for an `initialize`. */
  private async serveLegacy(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    owner: string | undefined,
    incoming: IncomingRequest,
  ): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const session = typeof sid === 'string' ? this.sessionOf(sid, owner) : undefined;
    if (!session && sid !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
    const served = session ?? (await this.openSession(req, res, body, owner));
    if (!served) return;
    if (adoptedSessionRevision(req, served) && refusedBatch(req, res, body)) return;
    const resumeFrom = lastEventIdOf(req);
    if (resumeFrom !== undefined && (await refusedResume(served, resumeFrom, res))) return;
    return this.sessions.handle(served, req, res, body, incoming);
  }

  /**
   * The session an id names, for its owner only: a session id presented by someone else is treated as unknown,
   * ids must not be transferable. One opened without a token is taken over by the first verified caller on it:
   * the client that met a 401 challenge on a protected item comes back with a token on the same session (never
   * the other way round).
   */
  private sessionOf(sid: string, owner: string | undefined): Session | undefined {
    const session = this.sessions.get(sid);
    if (session && session.owner === ANONYMOUS_OWNER && owner !== undefined && owner !== ANONYMOUS_OWNER) {
      session.owner = owner;
      // The listening stream was opened without a token: it must not hear the new owner's notifications. The client
      // opens it again with its token (resuming from its last event, which only the new owner may do now).
      session.transport.closeStandaloneSSEStream();
    }
    return session && session.owner === owner ? session : undefined;
  }

  /** A new session for an `initialize`; `undefined` after answering 400, 429 or 503. */
  private async openSession(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    owner: string | undefined,
  ): Promise<Session | undefined> {
    if (req.method !== 'POST' || !opensSession(body))
      return void jsonRpcError(res, 400, -32000, 'Bad Request: no valid Mcp-Session-Id header.');
    if (this.sessions.isFull) {
      res.setHeader('retry-after', '60');
      return void jsonRpcError(res, 503, -32000, 'Service Unavailable: too many open sessions; close one (DELETE) or try again later.');
    }
    // Callers without a token (anonymous ones included) are told apart by address, not lumped together.
    const caller = owner !== undefined && owner !== ANONYMOUS_OWNER ? owner : `address ${addressOf(req, this.trustedProxies)}`;
    if (this.sessions.isFullFor(caller)) return void this.tooManySessions(res, caller, owner !== undefined);
    // A new session needs its event store: refused (503, retried elsewhere by a balancer) while it is down.
    if (this.guardedStore) {
      try {
        await this.guardedStore.ready();
      } catch (error) {
        if (error instanceof StoreUnavailableError) return void storeUnavailable(res, error);
        throw error;
      }
    }
    return this.sessions.open(owner, caller);
  }

  /** 429: this caller holds as many sessions as one may; the others are served. Logged once a minute per caller kind. */
  private tooManySessions(res: ServerResponse, caller: string, authenticated: boolean): void {
    if (this.sessionFloods.due(caller)) {
      this.log.warn(
        `Refused a new 2025-era session with 429: ${authenticated ? 'this token subject' : caller} holds the most sessions one caller may (maxSessionsPerCaller)`,
        { event: 'session.refused' },
      );
    }
    res.setHeader('retry-after', '60');
    jsonRpcError(res, 429, -32000, 'Too Many Requests: this client holds too many open sessions; close one (DELETE) or try again later.');
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

/**
 * What a failed `listen` means, in one line a person can act on (issue 11: a newcomer got an
 * `EADDRINUSE` stack). The system error stays as `cause`, its `code` is kept.
 */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message =
    code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is already in use: stop the other server, or choose another port (port 0 picks a free one).`
      : code === 'EACCES'
        ? `Port ${port} on ${host} needs privileges this process does not have: choose a port above 1023.`
        : code === 'EADDRNOTAVAIL'
          ? `The address ${host} is not an address of this machine: use 127.0.0.1, or 0.0.0.0 for every interface.`
          : undefined;
  if (message === undefined) return asError(error);
  return Object.assign(new Error(message, { cause: error }), { code });
}

/** Listens on `host` and `port`; the bound address, or the failure in words (see {@link listenError}). */
async function listen(http: HttpServer, host: string, port: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) => reject(listenError(error, host, port)));
    http.listen(port, host, () => {
      http.removeAllListeners('error');
      resolve();
    });
  });
  return http.address() as AddressInfo;
}

function closeServer(http: HttpServer): Promise<void> {
  return new Promise<void>((resolve) => http.close(() => resolve()));
}

/** The endpoint's URL, such as `http://127.0.0.1:3000/mcp` (an IPv6 address in brackets). */
function urlOf(address: AddressInfo, path: string): string {
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}${path}`;
}

function warnIfOpen(host: string, url: string, options: ServeHttpOptions, log: Log): void {
  if (LOOPBACK.test(host) || options.auth) return;
  log.warn(
    `The MCP endpoint listens on ${host}, beyond loopback, without auth: anyone who reaches ${url} can call every tool. ` +
      'Give serveHttp({ auth }) unless a proxy in front authenticates callers.',
    { event: 'http.unauthenticated' },
  );
}

/** `serveHttp()`'s bounds on slow clients unless given: a connection must not hold the server for Node's 300 s. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

/** What `serveHttp()` bounds a connection by, checked. */
interface ConnectionBounds {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnectionsPerAddress: number;
}

/** The longest delay a Node timer keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function checkTimeout(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMER_MS) {
    throw new TypeError(`${name} takes a whole number of milliseconds from 1, for example { ${name}: ${fallback} }; got ${String(value)}.`);
  }
  return ms;
}

function connectionBounds(options: ServeHttpOptions): ConnectionBounds {
  const headersTimeoutMs = checkTimeout('headersTimeoutMs', options.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = checkTimeout(
    'requestTimeoutMs',
    options.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs),
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new TypeError(
      `headersTimeoutMs (${headersTimeoutMs}) must not be above requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request.`,
    );
  }
  const cap =
    options.maxConnectionsPerAddress ?? (checkTrustedProxies(options.trustedProxies) > 0 ? Infinity : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
  if (cap !== Infinity && (!Number.isInteger(cap) || cap < 1)) {
    throw new TypeError(
      `maxConnectionsPerAddress takes a whole number from 1 (or Infinity for no cap), for example { maxConnectionsPerAddress: 64 }; got ${String(options.maxConnectionsPerAddress)}.`,
    );
  }
  return { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress: cap };
}

/** How often Node looks for requests past their bounds (its default, 30 s, would let a 10 s bound run to 40 s). */
function checkingIntervalOf(bounds: ConnectionBounds): number {
  return Math.max(10, Math.min(1000, Math.floor(bounds.headersTimeoutMs / 2)));
}

/** How long a cap's warning for one address holds while the address stays over it. */
const CAP_WARNING_INTERVAL_MS = 60_000;

/**
 * Caps the connections open at once from one remote address: one past the cap is destroyed as it arrives (nothing
 * is read from it, so a flood costs no parsing). One warning per address and burst: the burst ends once the
 * address has no connection left, or a minute after its warning. Only addresses with a connection open are kept.
 */
function capConnectionsPerAddress(http: HttpServer, cap: number, log: Log): void {
  if (cap === Infinity) return;
  const open = new Map<string, { count: number; warnedAt?: number }>();
  http.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    let entry = open.get(address);
    if (entry && entry.count >= cap) {
      socket.destroy();
      const now = Date.now();
      if (entry.warnedAt === undefined || now - entry.warnedAt >= CAP_WARNING_INTERVAL_MS) {
        entry.warnedAt = now;
        log.warn(
          `${printable(address)} has ${cap} connections open, as many as maxConnectionsPerAddress allows; its further connections are closed at once`,
          {
            event: 'connection.refused',
          },
        );
      }
      return;
    }
    if (!entry) open.set(address, (entry = { count: 0 }));
    const counted = entry;
    counted.count++;
    socket.once('close', () => {
      if (--counted.count === 0 && open.get(address) === counted) open.delete(address);
    });
  });
}

/** Starts the endpoint on its own Node HTTP server. */
export async function startHttp(
  serving: HttpServing,
  options: ServeHttpOptions = {},
  rules: MemberRules = NO_RULES,
  log: Log = Log.silent,
): Promise<ListeningEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const bounds = connectionBounds(options);
  // The handler is made once the port is known: the endpoint's URL is the default resource identifier.
  let handler: HttpHandler | undefined;
  let draining = false;
  const health = options.health ? healthResponder(options.health === true ? {} : options.health, () => draining) : undefined;
  const http: HttpServer = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      // Receiving the request only: Node stops timing a request once its body is in, so responses run unbounded.
      requestTimeout: bounds.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalOf(bounds),
    },
    async (req, res) => {
      if (health && (await health(req, res))) return;
      if (serving.serverCard && answerServerCard(req, res, serving.serverCard)) return;
      void handler?.handle(req, res);
    },
  );
  capConnectionsPerAddress(http, bounds.maxConnectionsPerAddress, log);
  const address = await listen(http, host, options.port ?? 3000);
  const url = urlOf(address, path);
  const auth = options.auth && { ...options.auth, resource: options.auth.resource ?? url };
  try {
    // `validateHost` follows `host`, whatever the options object carries.
    handler = createHttpHandler(serving, { ...options, path, auth, validateHost: LOOPBACK.test(host) }, rules, log);
  } catch (error) {
    await closeServer(http);
    throw error;
  }
  warnIfOpen(host, url, options, log);
  const ready = handler;
  const close = async () => {
    await ready.close();
    http.closeAllConnections();
    await closeServer(http);
  };
  const shutdown = async (deadlineMs: number) => {
    // Still listening while draining: new work is answered 503 (a balancer retries it elsewhere) and
    // readiness says so; the listener closes with the sessions.
    draining = true;
    await ready.drain(deadlineMs);
    await close();
  };
  return { host: address.address, port: address.port, url, close, shutdown };
}
