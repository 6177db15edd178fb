import type { IncomingMessage, ServerResponse } from 'node:http';
import type { createMcpHandler, Server, ServerEventBus } from '@modelcontextprotocol/server';
import type { ListingOption } from '../../../schema/profiles';
import type { CorsOptions, HttpAuthOptions } from '../../auth/options';
import type { ServerCardOptions } from '../../catalog/server-card';
import type { EventStore } from '../../stores/event-store';
import type { ParamModel } from '../../../schema/model';

/**
 * What the endpoint is given and what it hands back: the options of `createHttpHandler()` and `serveHttp()` (the
 * health paths' among them), the `Server`s it serves with, the rules of the served members (their parameter
 * headers included), the hot paths' knobs, and the handler and listener it returns. The lowest room that names
 * them, so that every room of http/ takes them from here (the legacy sessions, the modern param headers and the
 * entry's lifecycle use these types; this module imports none of them).
 */

/** Options of a handler mounted in someone else's HTTP server (`server.createHttpHandler()`). */
export interface HttpHandlerOptions {
  /** This endpoint's listing profile (docs/models-and-hosts.md); default the server's `listing`. */
  readonly listing?: ListingOption;
  /** This endpoint's `describeConstraints`; default the server's. */
  readonly describeConstraints?: boolean;
  /**
   * Serve the server card (docs/publishing.md) at `/.well-known/mcp/server-card.json` (and
   * `/.well-known/mcp/server-card`) on the host's root, whatever `path` is: `true`, or what the card says beyond
   * the server's info (`name` in reverse-DNS form, `description`, the public `url`, `websiteUrl`). With `auth`, the
   * card leaves the tools, resources and prompts out and lists `auth.resource` as the remote. Off by default.
   * `serveHttp` and the Nest module route those paths to the endpoint; a handler of `createHttpHandler` answers them
   * when the application routes them to it (GET, HEAD and OPTIONS).
   */
  readonly serverCard?: boolean | ServerCardOptions;
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
   * receives what it missed. Default: an `InMemoryEventStore` per endpoint.
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
}

/**
 * Liveness and readiness paths of `serveHttp({ health })`.
 * @example
 * await server.serveHttp({ port: 3000, health: { livePath: '/livez', readyPath: '/readyz', ready: () => redis.status === 'ready' } });
 */
export interface HealthOptions {
  /** Answers 200 while the process serves at all, draining included. Default `/livez`. */
  readonly livePath?: string;
  /** Answers 200 while the instance takes new work, 503 once it drains or a check fails. Default `/readyz`. */
  readonly readyPath?: string;
  /** Extra readiness check (a shared store's connection, say); `false` or a throw answers 503. */
  readonly ready?: () => boolean | Promise<boolean>;
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

/** What the `Mcp-Param-*` check (modern/param-headers.ts) needs of the served tools: the parameters of a tool that carry a header, found once per tool. */
export interface HeaderParams {
  /** The parameters of the enabled tool of that name that declare an `x-mcp-header`; none for an unknown tool. */
  headerParamsOf(tool: string): readonly ParamModel[] | undefined;
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

export const NO_RULES: MemberRules = { scopesNeeded: () => [], declaredScopes: [], headerParamsOf: () => undefined };

/** Internal knobs of the hot paths, for tests that compare them with the SDK's and bound them. */
export type SessionTuning = {
  /** Answer a session's hot requests directly on Node's response (see `legacy/legacy-posts.ts`); default true. */
  readonly fastPaths?: boolean;
  /** A legacy post (a hot request answered on Node's own response) that has not answered after this long gets an SSE stream, so it stays resumable. Default 1,000 ms. */
  readonly sseAfterMs?: number;
  /** Most servers in the 2026-07-28 pool (http/modern/modern.ts); default 256. */
  readonly maxExchangeServers?: number;
};

/** What the endpoint serves with: a `Server` per 2025-era session, one per 2026-07-28 request, and the change-event bus. */
export interface HttpServing {
  readonly session: () => Server;
  /** A `Server` for one request; `era` is `legacy` for a 2025-era request served statelessly (`legacy: 'stateless'`). */
  readonly request: (era?: 'legacy' | 'modern') => Server;
  /**
   * A `Server` for the pool that answers 2026-07-28 hot requests (http/modern/modern.ts), answering them below the
   * SDK's dispatch; `request` serves the pool when absent.
   */
  readonly exchange?: () => Server;
  /** `subscriptions/listen` streams (2026-07-28) listen here; sessions follow it through their `Server`. */
  readonly bus: ServerEventBus;
  /** Wraps the SDK's per-request handler: `auth.authorize` on `subscriptions/listen` (auth/listen-policy.ts). */
  readonly perRequest?: (handler: ReturnType<typeof createMcpHandler>) => ReturnType<typeof createMcpHandler>;
  /** The server card's text, when `serveHttp({ serverCard })` serves it (http/entry/server-card.ts). */
  readonly serverCard?: () => string;
}
