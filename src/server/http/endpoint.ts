import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEADER_MISMATCH, type HeaderRejection } from './param-headers';
import { ModernDirect, directModernRequest } from './modern';
import { EraClassifier } from './era';
import { headerOf } from '../protocol/wire';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, createMcpHandler, type AuthInfo as SdkAuthInfo, type Server, type ServerEventBus } from '@modelcontextprotocol/server';
import { Log } from '../../log';
import type { CorsOptions, HttpAuthOptions } from '../auth/options';
import { ResourceServer } from '../auth/resource-server';
import { ANONYMOUS_OWNER } from '../auth/caller';
import { Cors } from './cors';
import { checkAllowedHosts, sourceGuard } from './origin';
import { InMemoryEventStore, type EventStore } from '../stores/event-store';
import { OncePer } from '../protocol/once-per';
import { transportErrorReporter } from '../protocol/client-faults';
import { checkStoreTimeout, guardedEventStore, StoreUnavailableError, type GuardedEventStore } from '../stores/degraded';
import { healthResponder, InFlight, type HealthOptions } from './lifecycle';
import { MAX_BODY_DEPTH, TOO_DEEP, textNestsDeeperThan, valueNestsDeeperThan } from './json-depth';
import { SessionTable, httpFastPaths, type Session, type SessionTableOptions } from './sessions';
import { isDirectTarget } from './legacy-posts';
import { webRequestOf, writeWebResponse } from './web';

/**
 * Streamable HTTP for both eras on one endpoint: 2026-07-28 requests (they carry the `_meta` envelope) go
 * to the SDK's stateless per-request handler; 2025-era requests get a session each (`Mcp-Session-Id`), so
 * progress, cancellation, logging, sampling and elicitation work for them.
 */

/** Options of `server.serveHttp()`. */
export interface ServeHttpOptions {
  /**
   * Default `127.0.0.1`. On a loopback address, Host and Origin headers are checked against loopback names (DNS
   * rebinding). On any address, a request whose `Origin` is not allowed is refused with 403.
   */
  readonly host?: string;
  /**
   * The host names the endpoint answers to (no port), checked against `Host`, and accepted as `Origin` host
   * names: what the public name is behind a reverse proxy, such as `['mcp.example.com']`. Default: loopback
   * names on a loopback address, else `Host` is not checked. Given, it replaces the loopback
   * names: list `'127.0.0.1'` too to keep calling the endpoint directly.
   */
  readonly allowedHosts?: readonly string[];
  /** Default `3000`; `0` picks a free port (see the resolved address). */
  readonly port?: number;
  /** Default `/mcp`. */
  readonly path?: string;
  /** Largest accepted request body in bytes; default 4 MiB. Larger bodies are answered 413. */
  readonly maxRequestBodySize?: number;
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
  /** How 2025-era clients are served: `'sessions'` (default) or `'stateless'` (see {@link HttpHandlerOptions.legacy}). */
  readonly legacy?: 'sessions' | 'stateless';
  /** This instance's name in session ids, for a load balancer's sticky routing (see {@link HttpHandlerOptions.route}). */
  readonly route?: string;
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
  /** Makes the endpoint an OAuth 2.1 resource server; `resource` defaults to the endpoint's URL. */
  readonly auth?: HttpAuthOptions;
  /** Cross-origin access for browser hosts; off unless given. */
  readonly cors?: CorsOptions;
}

/** Where `serveHttp()` listens. */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
  /** The endpoint, such as `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
}

export interface HttpEndpoint extends HttpAddress {
  close(): Promise<void>;
  /** Stops listening, lets calls in progress finish up to the deadline, then closes. */
  shutdown(deadlineMs: number): Promise<void>;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The methods the MCP endpoint serves (`OPTIONS` too, for CORS preflights, when `cors` is on). */
const ALLOWED = 'GET, POST, DELETE';

/** The first revision without JSON-RPC batching. */
const NO_BATCHES_FROM = '2025-06-18';

/**
 * The revision a batch is sent under: an `initialize` in it names its own, anything else the
 * `MCP-Protocol-Version` header (on a session, the negotiated revision when the header is missing); a request
 * with neither is 2025-03-26, which allows batches.
 */
function batchRevisionOf(req: IncomingMessage, batch: readonly unknown[]): string | undefined {
  const initialize = batch.find((m) => (m as { method?: unknown } | null)?.method === 'initialize') as { params?: { protocolVersion?: unknown } } | undefined;
  const version = initialize ? initialize.params?.protocolVersion : req.headers['mcp-protocol-version'];
  return typeof version === 'string' ? version : undefined;
}

/**
 * A request on an established session without `MCP-Protocol-Version` is taken under the session's negotiated
 * revision: the spec assumes 2025-03-26 only when a server "has no other way to identify the version - for
 * example, by relying on the protocol version negotiated during initialization". Written into the header, so
 * the batch rule and the SDK's transport (priming, polling) read the same revision; whether it was.
 */
function adoptedSessionRevision(req: IncomingMessage, session: Session): boolean {
  if (req.headers['mcp-protocol-version'] !== undefined || !isDirectTarget(session.server)) return false;
  const negotiated = session.server.legacyVersion();
  if (negotiated === undefined) return false;
  req.headers['mcp-protocol-version'] = negotiated;
  return true;
}

/** Answers 400 to a JSON-RPC batch where the revision forbids batches; whether it did. */
function refusedBatch(req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
  if (!Array.isArray(body)) return false;
  const revision = batchRevisionOf(req, body);
  if (revision === undefined || revision < NO_BATCHES_FROM) return false;
  jsonRpcError(res, 400, -32600, `Invalid Request: protocol revision ${revision.replace(/[^\w.-]/g, '?').slice(0, 20)} does not allow JSON-RPC batches (removed in ${NO_BATCHES_FROM}); send one message per request.`);
  return true;
}

/**
 * The bytes of a request body, or `'too large'` as soon as they pass `limit`. Chunks are gathered and joined
 * once at the end, with plain stream events (an async iterator costs a promise per chunk).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  // Read by someone else already: nothing more will arrive.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: Buffer | 'too large' | Error) => {
      req.off('data', onData).off('end', onEnd).off('error', finish).off('close', onClose);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish('too large');
      else chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onClose = () => finish(new Error('The request was closed before its body ended.'));
    req.on('data', onData).once('end', onEnd).once('error', finish).once('close', onClose);
  });
}

/** Reads a POST body up to `limit` bytes; `undefined` after answering 413 or 400 itself. */
async function readJson(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ body: unknown } | undefined> {
  const tooLarge = () => {
    res.setHeader('connection', 'close');
    jsonRpcError(res, 413, -32000, `Payload Too Large: the request body must not exceed ${limit} bytes.`);
    req.resume();
    return undefined;
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  const bytes = await readBody(req, limit);
  if (bytes === 'too large') {
    tooLarge();
    // Stop reading a body that is still arriving: the connection closes after the answer.
    req.destroy();
    return undefined;
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    // Silently replacing bad bytes (U+FFFD) would hand the tool something the client never sent.
    jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid UTF-8.');
    return undefined;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    return undefined;
  }
  if (textNestsDeeperThan(text, MAX_BODY_DEPTH)) {
    jsonRpcError(res, 400, -32600, TOO_DEEP);
    return undefined;
  }
  return { body };
}

const ROUTE = /^[A-Za-z0-9_-]{1,64}$/;

function sessionIds(route: string | undefined): () => string {
  if (route === undefined) return randomUUID;
  if (typeof route !== 'string' || !ROUTE.test(route)) {
    throw new TypeError(`route must be 1 to 64 letters, digits, '_' or '-' (it prefixes session ids, such as 'a' or 'mcp-1'); got ${JSON.stringify(route)}.`);
  }
  return () => `${route}.${randomUUID()}`;
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

/** Whom a session counts against when the endpoint has no `auth`: the client's address (see `trustedProxies`). */
function addressOf(req: IncomingMessage, trustedProxies: number): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustedProxies > 0 && typeof forwarded === 'string') {
    const hops = forwarded.split(',').map((a) => a.trim()).filter((a) => a !== '');
    // The last `trustedProxies` entries were appended by our proxies; the one before the first of them is the client.
    const client = hops[hops.length - trustedProxies];
    if (client !== undefined) return client;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

function checkTrustedProxies(value: number | undefined): number {
  const hops = value ?? 0;
  if (!Number.isInteger(hops) || hops < 0) throw new TypeError(`trustedProxies takes the number of reverse proxies in front of the server, such as 1; got ${String(value)}.`);
  return hops;
}

function opensSession(body: unknown): boolean {
  const isInit = (m: unknown) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

/** Options of a handler mounted in someone else's HTTP server (`server.createHttpHandler()`). */
export interface HttpHandlerOptions {
  /** Answer only this path (404 otherwise); leave it out when the framework routes by path itself. */
  readonly path?: string;
  /** Largest accepted request body in bytes; default 4 MiB. */
  readonly maxRequestBodySize?: number;
  /**
   * Check Host (and accept Origin) against loopback names (DNS-rebinding protection); default true. `Origin` is
   * checked whatever this says: a request whose origin is not listed in `cors.origins` or `allowedHosts` (or
   * loopback, when this is true) is refused with 403.
   */
  readonly validateHost?: boolean;
  /** The host names the endpoint answers to (no port), checked against `Host` instead of loopback names. */
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
   * Makes the endpoint an OAuth 2.1 resource server. `resource` is required here: the public URL of the
   * endpoint. The metadata is answered at `/.well-known/oauth-protected-resource[/path]`; route those to the
   * handler too when the framework routes by path.
   */
  readonly auth?: HttpAuthOptions;
  /** Cross-origin access for browser hosts; off unless given. Route `OPTIONS` to the handler for preflights. */
  readonly cors?: CorsOptions;
}

/** What the endpoint needs to know about the served members to check scopes. */
export interface ScopeRules {
  /** The scopes a JSON-RPC request needs (those of the tool, resource or prompt it names). */
  scopesNeeded(message: unknown): readonly string[];
  /** Every scope some member needs. */
  readonly declaredScopes: readonly string[];
  /** Whether a request without a token may be let in (it names no item, or public ones only); default never. */
  openToAnonymous?(message: unknown): boolean;
  /** Why a `tools/call`'s `Mcp-Param-*` headers disagree with its arguments (SEP-2243), if they do. */
  paramHeaderRejection?(message: unknown, headerOf: (name: string) => string | undefined): HeaderRejection | undefined;
}

const NO_SCOPES: ScopeRules = { scopesNeeded: () => [], declaredScopes: [] };

/** The first revision whose HTTP requests carry `Mcp-Param-*` headers. */
const PARAM_HEADERS_FROM = '2026-07-28';

/** Answers 400 (-32020) when a 2026-07-28 request's `Mcp-Param-*` headers disagree with its body; whether it did. */
function refusedParamHeaders(rules: ScopeRules, req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (!rules.paramHeaderRejection || typeof version !== 'string' || version < PARAM_HEADERS_FROM) return false;
  const rejection = rules.paramHeaderRejection(body, (name) => headerOf(req, name));
  if (!rejection) return false;
  const id = (body as { id?: unknown } | null)?.id ?? null;
  const error = { code: HEADER_MISMATCH, message: rejection.message, data: { mismatch: { header: rejection.header, body: rejection.message } } };
  res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error }));
  return true;
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

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
}

/** The scopes a body's requests need, together (a 2025-03-26 batch holds several). */
function scopesOfBody(rules: ScopeRules, body: unknown): readonly string[] {
  return Array.isArray(body) ? [...new Set(body.flatMap((m) => rules.scopesNeeded(m)))] : rules.scopesNeeded(body);
}

/** Whether every request of a body may come without a token (with `auth.allowAnonymous`). */
function openToAnonymous(rules: ScopeRules, body: unknown): boolean {
  const open = (message: unknown) => rules.openToAnonymous?.(message) ?? false;
  return Array.isArray(body) ? body.every(open) : open(body);
}

function resourceServerOf(options: HttpHandlerOptions, rules: ScopeRules, log: Log): ResourceServer | undefined {
  const auth = options.auth;
  if (!auth) return undefined;
  if (auth.resource === undefined) {
    throw new TypeError(`auth.resource is required when the server does not listen itself (createHttpHandler(), McpModule): the endpoint's public URL, such as 'https://mcp.example.com/mcp'.`);
  }
  return new ResourceServer({ ...auth, resource: auth.resource }, () => rules.declaredScopes, options.path, log);
}

/** Internal knobs of the direct paths, for tests that compare them with the SDK's and bound them. */
export type SessionTuning = Pick<SessionTableOptions, 'direct' | 'sseAfterMs'> & {
  /** Most servers in the 2026-07-28 pool (direct-modern.ts); default 256. */
  readonly maxExchangeServers?: number;
};

/** What the endpoint serves with: a `Server` per 2025-era session, one per 2026-07-28 request, and the change-event bus. */
export interface HttpServing {
  readonly session: () => Server;
  readonly request: () => Server;
  /**
   * A `Server` for the pool that answers 2026-07-28 hot requests directly (direct-modern.ts), answering them below
   * the SDK's dispatch; `request` serves the pool when absent.
   */
  readonly exchange?: () => Server;
  /** `subscriptions/listen` streams (2026-07-28) listen here; sessions follow it through their `Server`. */
  readonly bus: ServerEventBus;
}

function checkRetry(retryMs: number): number {
  if (!Number.isInteger(retryMs) || retryMs < 0) {
    throw new TypeError(`sseRetryMs takes a whole number of milliseconds from 0, for example { sseRetryMs: 1000 }; got ${String(retryMs)}.`);
  }
  return retryMs;
}

function checkCloseAfter(ms: number | undefined): number | undefined {
  if (ms !== undefined && (!Number.isInteger(ms) || ms < 1)) {
    throw new TypeError(`sseCloseAfterMs takes a whole number of milliseconds from 1, for example { sseCloseAfterMs: 30000 }; got ${String(ms)}.`);
  }
  return ms;
}

/**
 * The endpoint's request handling; `serving` makes one SDK `Server` per modern request or legacy session. A
 * request goes through CORS, the Host/Origin check, the metadata document, the path, the body, the bearer token
 * and the scope challenge, then to the session table (2025 era) or the stateless handler (2026-07-28).
 */
export function createHttpHandler(
  serving: HttpServing,
  options: HttpHandlerOptions = {},
  rules: ScopeRules = NO_SCOPES,
  log: Log = Log.silent,
  tuning: SessionTuning = {},
): HttpHandler {
  const path = options.path;
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const stateless = options.legacy === 'stateless';
  const modernHandler = createMcpHandler(() => serving.request(), {
    legacy: stateless ? 'stateless' : 'reject',
    maxRequestBodySize: limit,
    bus: serving.bus,
    onerror: transportErrorReporter(log),
  });
  const inFlight = new InFlight();
  const eras = new EraClassifier();
  // The fast paths, unless switched off or the installed SDK lacks a member they use (sdk/seam.ts).
  const fast = tuning.direct !== false && httpFastPaths(log);
  const directModern = !fast ? undefined : new ModernDirect(serving.exchange ?? serving.request, tuning.maxExchangeServers);
  /** The SDK's web-standard handler, given the parsed body beside a body-less `Request`. */
  const modern = async (req: IncomingMessage, res: ServerResponse, request: Request, body: unknown, gone: AbortSignal) => {
    const authInfo = (req as IncomingMessage & { auth?: SdkAuthInfo }).auth;
    const response = await modernHandler.fetch(request, { parsedBody: body, ...(authInfo !== undefined && { authInfo }) });
    await writeWebResponse(res, response, gone);
  };
  // A store given for sharing (Redis) is bounded; the default in-memory one cannot be down.
  const guardedStore: GuardedEventStore | undefined = options.eventStore && guardedEventStore(options.eventStore, checkStoreTimeout(options.storeTimeoutMs), log);
  const sessions = new SessionTable(serving.session, {
    maxSessions: options.maxSessions,
    maxSessionsPerCaller: options.maxSessionsPerCaller,
    maxLifetimeMs: options.maxSessionLifetimeMs,
    idleTimeoutMs: options.sessionIdleTimeoutMs,
    maxRequestBodySize: limit,
    newSessionId: sessionIds(options.route),
    eventStore: guardedStore ?? new InMemoryEventStore(),
    retryMs: checkRetry(options.sseRetryMs ?? 1000),
    sseCloseAfterMs: checkCloseAfter(options.sseCloseAfterMs),
    direct: fast,
    sseAfterMs: tuning.sseAfterMs,
  });
  const trustedProxies = checkTrustedProxies(options.trustedProxies);
  const sessionFloods = new OncePer(60_000);
  const cors = options.cors ? new Cors(options.cors) : undefined;
  /** Host and Origin (origin.ts); writes the 403 itself. */
  const validSource = sourceGuard({ loopback: options.validateHost ?? true, allowedHosts: checkAllowedHosts(options.allowedHosts), cors });
  const resourceServer = resourceServerOf(options, rules, log);

  /** The verified caller, or `undefined` after answering 401 or 403 (the scope challenge). */
  async function authorize(req: IncomingMessage, res: ServerResponse, server: ResourceServer, body: unknown): Promise<SdkAuthInfo | undefined> {
    const verified = await server.authorize(req, scopesOfBody(rules, body), openToAnonymous(rules, body));
    if (verified instanceof Response) return void (await writeResponse(res, verified));
    return verified;
  }

  async function legacy(req: IncomingMessage, res: ServerResponse, body: unknown, owner: string | undefined): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    let session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    // A session id presented by someone other than its owner is treated as unknown: ids must not be transferable.
    // One opened without a token is taken over by the first verified caller on it: the client that met a 401
    // challenge on a protected item comes back with a token on the same session (never the other way round).
    if (session && session.owner === ANONYMOUS_OWNER && owner !== undefined && owner !== ANONYMOUS_OWNER) session.owner = owner;
    if (session && session.owner !== owner) session = undefined;
    if (!session) {
      if (sid !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method !== 'POST' || !opensSession(body)) return jsonRpcError(res, 400, -32000, 'Bad Request: no valid Mcp-Session-Id header.');
      if (sessions.isFull) {
        res.setHeader('retry-after', '60');
        return jsonRpcError(res, 503, -32000, 'Service Unavailable: too many open sessions; close one (DELETE) or try again later.');
      }
      // A new session needs its event store: refused (503, retried elsewhere by a balancer) while it is down.
      const caller = owner ?? `address ${addressOf(req, trustedProxies)}`;
      if (sessions.isFullFor(caller)) return tooManySessions(res, caller, owner !== undefined);
      if (guardedStore && !guardedStore.health.available) return storeUnavailable(res, guardedStore.health.unavailable('open a new session'));
      session = await sessions.open(owner, caller);
    }
    if (adoptedSessionRevision(req, session) && refusedBatch(req, res, body)) return;
    const resumeFrom = lastEventIdOf(req);
    if (resumeFrom !== undefined && (await refusedResume(session, resumeFrom, res))) return;
    return sessions.handle(session, req, res, body);
  }

  /** 429: this caller holds as many sessions as one may; the others are served. Logged once a minute per caller kind. */
  function tooManySessions(res: ServerResponse, caller: string, authenticated: boolean): void {
    if (sessionFloods.due(caller)) log.warn(`Refused a new 2025-era session with 429: ${authenticated ? 'this token subject' : caller} holds the most sessions one caller may (maxSessionsPerCaller)`, { event: 'session.refused' });
    res.setHeader('retry-after', '60');
    jsonRpcError(res, 429, -32000, 'Too Many Requests: this client holds too many open sessions; close one (DELETE) or try again later.');
  }

  /**
   * Answers a resume whose events are gone (expired, trimmed, lost with a store restart) as lost, rather than the
   * SDK's "Invalid event ID format"; whether it did.
   */
  async function refusedResume(session: Session, lastEventId: string, res: ServerResponse): Promise<boolean> {
    if (await session.events.getStreamIdForEventId?.(lastEventId)) return false;
    jsonRpcError(res, 400, -32000, 'Events lost: the events after this Last-Event-ID are no longer kept (they expired, or the event store lost them); send the request again, or open a new GET stream without Last-Event-ID.');
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, parsed?: { readonly body: unknown }): Promise<void> {
    if (cors?.preflight(req, res)) return;
    cors?.decorate(req, res);
    if (!validSource(req, res)) return; // 403 already written
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (resourceServer?.servesMetadata(pathname)) return metadata(req, res, resourceServer);
    if (path !== undefined && pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'DELETE') {
      res.writeHead(405, { allow: cors ? `${ALLOWED}, OPTIONS` : ALLOWED, 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Method Not Allowed: the MCP endpoint answers ${ALLOWED}.` }, id: null }));
      return;
    }
    let body: unknown = parsed?.body;
    if (parsed && valueNestsDeeperThan(body, MAX_BODY_DEPTH)) return jsonRpcError(res, 400, -32600, TOO_DEEP);
    if (req.method === 'POST' && !parsed) {
      const read = await readJson(req, res, limit);
      if (!read) return;
      body = read.body;
    }
    if (refusedBatch(req, res, body)) return;
    // One rule for both eras: a request without Accept accepts anything (RFC 9110), as 2026-07-28 requests always
    // did; 2025-era ones were refused for it by the SDK's transport.
    if (req.headers.accept === undefined) req.headers.accept = req.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream';
    let owner: string | undefined;
    if (resourceServer) {
      const verified = await authorize(req, res, resourceServer, body);
      if (!verified) return;
      // The SDK's transports hand `req.auth` to the request handlers as `ctx.http.authInfo`.
      (req as IncomingMessage & { auth?: SdkAuthInfo }).auth = verified;
      owner = resourceServer.ownerOf(verified);
    }
    if (inFlight.refuses(req, body)) return refuseWhileDraining(req, res);
    inFlight.track(req, res, body);
    const era = eras.classify(req, body);
    if (!stateless && era.kind === 'legacy') return legacy(req, res, body, owner);
    if (refusedParamHeaders(rules, req, res, body)) return;
    const direct = directModern && directModernRequest(req, era);
    if (direct && (await directModern!.handle(req, res, direct))) return;
    const leaving = new AbortController();
    res.once('close', () => leaving.abort());
    return modern(req, res, webRequestOf(req, leaving.signal), body, leaving.signal);
  }

  return {
    handle: (req, res, parsed) =>
      handle(req, res, parsed).catch((error: unknown) => {
        // Logged where the store failed, once per outage.
        if (error instanceof StoreUnavailableError) return storeUnavailable(res, error);
        // The path only: a query string may carry a token.
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        const sid = req.headers['mcp-session-id'];
        log.error(`HTTP ${req.method} ${path} failed`, { event: 'http.failed', sessionId: typeof sid === 'string' ? sid : undefined, error });
        jsonRpcError(res, 500, -32603, 'Internal error');
      }),
    drain: (deadlineMs) => inFlight.drain(deadlineMs),
    async close() {
      await directModern?.close();
      await modernHandler.close();
      await sessions.closeAll();
    },
  };
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
  if (message === undefined) return error instanceof Error ? error : new Error(String(error));
  return Object.assign(new Error(message, { cause: error }), { code });
}

/** Starts the endpoint on its own Node HTTP server. */
export async function startHttp(serving: HttpServing, options: ServeHttpOptions = {}, rules: ScopeRules = NO_SCOPES, log: Log = Log.silent): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  // The handler is made once the port is known: the endpoint's URL is the default resource identifier.
  let handler: HttpHandler | undefined;
  let draining = false;
  const health = options.health ? healthResponder(options.health === true ? {} : options.health, () => draining) : undefined;
  const http: HttpServer = createServer(async (req, res) => {
    if (health && (await health(req, res))) return;
    void handler?.handle(req, res);
  });
  const port = options.port ?? 3000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) => reject(listenError(error, host, port)));
    http.listen(port, host, () => {
      http.removeAllListeners('error');
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}${path}`;
  const auth = options.auth && { ...options.auth, resource: options.auth.resource ?? url };
  try {
    handler = createHttpHandler(
      serving,
      {
        path,
        maxRequestBodySize: options.maxRequestBodySize,
        maxSessions: options.maxSessions,
        maxSessionsPerCaller: options.maxSessionsPerCaller,
        maxSessionLifetimeMs: options.maxSessionLifetimeMs,
        trustedProxies: options.trustedProxies,
        sessionIdleTimeoutMs: options.sessionIdleTimeoutMs,
        eventStore: options.eventStore,
        sseRetryMs: options.sseRetryMs,
        sseCloseAfterMs: options.sseCloseAfterMs,
        storeTimeoutMs: options.storeTimeoutMs,
        validateHost: LOOPBACK.test(host),
        allowedHosts: options.allowedHosts,
        auth,
        cors: options.cors,
        legacy: options.legacy,
        route: options.route,
      },
      rules,
      log,
    );
  } catch (error) {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    throw error;
  }
  if (!LOOPBACK.test(host) && !options.auth) {
    log.warn(
      `The MCP endpoint listens on ${host}, beyond loopback, without auth: anyone who reaches ${url} can call every tool. ` +
        'Give serveHttp({ auth }) unless a proxy in front authenticates callers.',
      { event: 'http.unauthenticated' },
    );
  }
  const ready = handler;
  const close = async () => {
    await ready.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    host: address.address,
    port: address.port,
    url,
    close,
    async shutdown(deadlineMs) {
      // Still listening while draining: new work is answered 503 (a balancer retries it elsewhere) and
      // readiness says so; the listener closes with the sessions.
      draining = true;
      await ready.drain(deadlineMs);
      await close();
    },
  };
}
